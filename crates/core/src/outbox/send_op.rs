//! Sending a kept change other than a card edit: a card's archive or restore, a stage's or a space's
//! change. The API offers no conditional write for any of these (only brand-kit sections have
//! `expectedVersion`, spec §4 and §9), so the thing is read just before sending and compared with the
//! change's base; a change made elsewhere between that read and the write is not seen (a window of one
//! request). A stage or space made offline is created once: its create's answer may be lost, so the ids
//! of its name are read and kept before it is sent (`known`), and a new one of the name is taken rather
//! than made twice.
use api_types::{ArchiveRequest, CreateSpace, CreateStage, DeleteStage, Space, Stage, UpdateSpace, UpdateStage};
use std::collections::BTreeMap;

use super::queue::{mark_conflict, real, Delivery};
use super::{keep::is_unanswered, with_profile, Change, Conflict, Op, StageBase, WithOutbox};
use crate::error::{IpcCode, IpcError, IpcResult};

fn real_opt(ids: &BTreeMap<String, String>, id: &Option<String>) -> Result<Option<String>, ()> {
    match id {
        None => Ok(None),
        Some(i) => real(ids, i).map(Some).ok_or(()),
    }
}

/// Sends one kept change other than a card edit. `force`: without the base check (keep mine).
pub(super) async fn send_op(
    session: &impl WithOutbox,
    profile: &str,
    change: &Change,
    ids: &BTreeMap<String, String>,
    force: bool,
) -> IpcResult<Delivery> {
    let id = change.id.as_str();
    let client = session.client_for(profile).await?;
    let sent = async {
        let (change, fresh) = with_known(session, profile, &client, change.clone(), ids).await?;
        send(&client, &change, ids, force, fresh).await
    };
    let outcome = match sent.await {
        Ok(o) => o,
        Err(e) if is_unanswered(&e) => return Ok(Delivery::Offline),
        Err(e) => match e.code {
            IpcCode::Conflict | IpcCode::Validation | IpcCode::NotFound => {
                Reply::Conflict(None, Some(format!("The service refused it: {}", e.message)))
            }
            _ => return Ok(Delivery::Failed(e)),
        },
    };
    match outcome {
        Reply::Blocked => Ok(Delivery::Blocked),
        Reply::Conflict(theirs, problem) => {
            mark_conflict(session, profile, id, Conflict { theirs, theirs_updated_at: None, problem }).map(|_| Delivery::Conflict)
        }
        Reply::Done(made, after) => {
            if let Some((local, real)) = &made {
                super::note_made(session, profile, local, real);
            }
            with_profile(session, profile, |k| {
                k.changes.retain(|c| c.id != id);
                if let Some((local, real)) = made {
                    k.ids.insert(local, real);
                }
                // The later kept changes of the same thing (a card's edit after its archive too) were made on
                // top of this one: their base is now what this one left (else the change just sent would
                // read as a change made elsewhere).
                let target = change.op.target();
                for c in k.changes.iter_mut().filter(|c| c.op.target() == target) {
                    if after.updated_at.is_some() && c.base_updated_at == change.base_updated_at {
                        c.base_updated_at = after.updated_at.clone();
                    }
                    if let (Some(b), Some(new)) = (c.base_stage.as_mut(), after.stage.as_ref()) {
                        *b = new.clone();
                    }
                }
                ((), true)
            })?;
            Ok(Delivery::Sent(None))
        }
    }
}

enum Reply {
    /// Sent; a create gives its local id and the real one.
    Done(Option<(String, String)>, After),
    Conflict(Option<String>, Option<String>),
    Blocked,
}

/// What a sent change left: the thing's new `updatedAt`, a stage's new name and colour.
#[derive(Default)]
struct After {
    updated_at: Option<String>,
    stage: Option<StageBase>,
}

/// A kept create is never made twice: before it is sent, the ids of its name are read and kept with it in
/// the file (`known`), so that whatever becomes of its answer (lost, and the read-back with it; the app
/// closed meanwhile) the next sync takes the one it made rather than sending it again. Answers the change
/// with them, and whether they were read just now (then not read again before the send). A create that
/// names a stage or space not made yet is answered as it is (it is blocked).
async fn with_known(
    session: &impl WithOutbox,
    profile: &str,
    client: &api_client::Client,
    mut change: Change,
    ids: &BTreeMap<String, String>,
) -> IpcResult<(Change, bool)> {
    let read = match &change.op {
        Op::StageCreate { space_id, name, known: None, .. } => match real(ids, space_id) {
            Some(space_id) => same_stages(client, &space_id, name).await?.into_iter().map(|s| s.id).collect::<Vec<_>>(),
            None => return Ok((change, false)),
        },
        Op::SpaceCreate { name, known: None, .. } => same_spaces(client, name).await?.into_iter().map(|s| s.id).collect(),
        _ => return Ok((change, false)),
    };
    if let Op::StageCreate { known, .. } | Op::SpaceCreate { known, .. } = &mut change.op {
        *known = Some(read.clone());
    }
    let id = change.id.clone();
    with_profile(session, profile, |k| match k.changes.iter_mut().find(|c| c.id == id) {
        Some(Change { op: Op::StageCreate { known, .. } | Op::SpaceCreate { known, .. }, .. }) => {
            *known = Some(read);
            ((), true)
        }
        _ => ((), false),
    })?;
    Ok((change, true))
}

async fn send(client: &api_client::Client, change: &Change, ids: &BTreeMap<String, String>, force: bool, fresh: bool) -> IpcResult<Reply> {
    let check = !force;
    macro_rules! real {
        ($id:expr) => {
            match real(ids, $id) {
                Some(r) => r,
                None => return Ok(Reply::Blocked),
            }
        };
    }
    macro_rules! real_opt {
        ($id:expr) => {
            match real_opt(ids, $id) {
                Ok(r) => r,
                Err(()) => return Ok(Reply::Blocked),
            }
        };
    }
    match &change.op {
        Op::CardUpdate { .. } => unreachable!("a card's edit or move is sent by send_card"),
        Op::CardArchive { card_id, archived } => {
            let card_id = real!(card_id);
            if check && change.base_updated_at.is_some() {
                // No conditional write on `/archive`: the card is read and its `updatedAt` compared first.
                let current = match client.cards().get(&card_id).await {
                    Ok(c) => c,
                    Err(e) => {
                        let e = IpcError::from(e);
                        if e.code == IpcCode::NotFound {
                            return Ok(Reply::Conflict(None, Some("The card was deleted elsewhere.".into())));
                        }
                        return Err(e);
                    }
                };
                if current.summary.updated_at != change.base_updated_at {
                    return Ok(Reply::Conflict(Some(format!("changed elsewhere, now “{}”", current.summary.title)), None));
                }
            }
            let req = ArchiveRequest { asset_type: "card".into(), id: card_id.clone(), archived: Some(*archived), ..Default::default() };
            client.archive(&req).await?;
            let updated_at = client.cards().get(&card_id).await.ok().and_then(|c| c.summary.updated_at);
            Ok(Reply::Done(None, After { updated_at, stage: None }))
        }
        Op::StageCreate { local_id, space_id, name, color, after_id, known } => {
            let space_id = real!(space_id);
            let req = CreateStage {
                name: name.clone(),
                space_id: Some(space_id.clone()),
                color: color.clone(),
                after_id: real_opt!(after_id),
                ..Default::default()
            };
            let ids = |l: Vec<Stage>| l.into_iter().map(|s| s.id).collect::<Vec<_>>();
            let read = || async { same_stages(client, &space_id, name).await.map(ids) };
            let id = create_once(known.as_ref(), fresh, read, || async { client.stages().create(&req).await.map(|s| s.id) }).await?;
            Ok(Reply::Done(Some((local_id.clone(), id)), After::default()))
        }
        Op::StageUpdate { space_id, stage_id, name, color, after_id, before_id } => {
            let (space_id, stage_id) = (real!(space_id), real!(stage_id));
            let (after_id, before_id) = (real_opt!(after_id), real_opt!(before_id));
            if check {
                if let Some(c) = stage_changed(client, &space_id, &stage_id, change.base_stage.as_ref()).await? {
                    return Ok(c);
                }
            }
            let req = UpdateStage {
                space_id,
                name: name.clone(),
                color: color.clone(),
                after_id: after_id.map(Some),
                before_id: before_id.map(Some),
                ..Default::default()
            };
            let up = client.stages().update(&stage_id, &req).await?;
            let stage = StageBase { name: up.stage.name, color: up.stage.color };
            Ok(Reply::Done(None, After { updated_at: None, stage: Some(stage) }))
        }
        Op::StageDelete { space_id, stage_id, target_stage_id } => {
            let (space_id, stage_id) = (real!(space_id), real!(stage_id));
            let mut target = real_opt!(target_stage_id);
            if check {
                if let Some(c) = stage_changed(client, &space_id, &stage_id, change.base_stage.as_ref()).await? {
                    return Ok(c);
                }
            }
            if target.is_none() {
                let mut others: Vec<_> =
                    client.stages().list(Some(&space_id)).await?.stages.into_iter().filter(|s| s.id != stage_id).collect();
                others.sort_by(|a, b| a.sort_order.total_cmp(&b.sort_order));
                target = others.first().map(|s| s.id.clone());
            }
            let req = DeleteStage { space_id, target_stage_id: target, ..Default::default() };
            client.stages().delete(&stage_id, &req).await?;
            Ok(Reply::Done(None, After::default()))
        }
        Op::SpaceCreate { local_id, name, known } => {
            let req = CreateSpace { name: name.clone(), ..Default::default() };
            let read = || async { same_spaces(client, name).await.map(|l| l.into_iter().map(|s| s.id).collect::<Vec<_>>()) };
            let id = create_once(known.as_ref(), fresh, read, || async { client.spaces().create(&req).await.map(|s| s.id) }).await?;
            Ok(Reply::Done(Some((local_id.clone(), id)), After::default()))
        }
        Op::SpaceRename { space_id, name } => {
            let space_id = real!(space_id);
            if let Some(c) = space_changed(client, &space_id, check.then_some(change.base_updated_at.as_ref()).flatten()).await? {
                return Ok(c);
            }
            let space = client.spaces().update(&space_id, &UpdateSpace { name: Some(name.clone()), ..Default::default() }).await?;
            Ok(Reply::Done(None, After { updated_at: space.updated_at, stage: None }))
        }
        Op::SpaceArchive { space_id, archived } => {
            let space_id = real!(space_id);
            if let Some(c) = space_changed(client, &space_id, check.then_some(change.base_updated_at.as_ref()).flatten()).await? {
                return Ok(c);
            }
            let req = ArchiveRequest { asset_type: "space".into(), id: space_id.clone(), archived: Some(*archived), ..Default::default() };
            client.archive(&req).await?;
            let updated_at = client.spaces().get(&space_id).await.ok().and_then(|s| s.updated_at);
            Ok(Reply::Done(None, After { updated_at, stage: None }))
        }
    }
}

/// A failure after which a write may or may not have landed: nothing (or something unreadable) answered.
pub(crate) fn answer_lost(e: &api_client::ApiError) -> bool {
    use api_client::ApiError as E;
    matches!(e, E::Network { .. } | E::Server { .. } | E::Decode { .. } | E::Http { .. })
}

/// The stages of `name` in a space (a create's read-back: the API takes no idempotency key for stages).
pub(crate) async fn same_stages(client: &api_client::Client, space_id: &str, name: &str) -> Result<Vec<Stage>, api_client::ApiError> {
    Ok(client.stages().list(Some(space_id)).await?.stages.into_iter().filter(|s| s.name == name).collect())
}

/// The spaces of `name` (a create's read-back, as for stages).
pub(crate) async fn same_spaces(client: &api_client::Client, name: &str) -> Result<Vec<Space>, api_client::ApiError> {
    Ok(client.spaces().list(false).await?.into_iter().filter(|s| s.name == name).collect())
}

/// A kept create sent so that it is never made twice: with `known` (the ids of that name read and kept
/// before an earlier send, whose answer may have been lost) a new one of the name is that send landing
/// and is taken (`fresh`: `known` was read just now, nothing was sent since, so it is not read again);
/// otherwise the ids are read now. Then the create is sent, and when its answer is lost (nothing or a 5xx
/// answered) read again, a new one being this create. Answers the created id.
async fn create_once<R, RF, C, CF>(known: Option<&Vec<String>>, fresh: bool, read: R, create: C) -> IpcResult<String>
where
    R: Fn() -> RF,
    RF: std::future::Future<Output = Result<Vec<String>, api_client::ApiError>>,
    C: FnOnce() -> CF,
    CF: std::future::Future<Output = Result<String, api_client::ApiError>>,
{
    let before = match known {
        Some(k) if fresh => k.clone(),
        Some(k) => {
            if let Some(id) = read().await?.into_iter().find(|id| !k.contains(id)) {
                tracing::info!(%id, "a kept create had landed before its answer was lost; taken, not made again");
                return Ok(id);
            }
            k.clone()
        }
        None => read().await?,
    };
    match create().await {
        Ok(id) => Ok(id),
        Err(e) if answer_lost(&e) => match read().await.ok().and_then(|now| now.into_iter().find(|id| !before.contains(id))) {
            Some(id) => Ok(id),
            None => Err(e.into()),
        },
        Err(e) => Err(e.into()),
    }
}

/// Stages have no `updatedAt` and no conditional write: the space's stages are read just before sending
/// and the stage compared with the base (name, colour). `Some`: the conflict to keep.
async fn stage_changed(client: &api_client::Client, space_id: &str, stage_id: &str, base: Option<&StageBase>) -> IpcResult<Option<Reply>> {
    let Some(base) = base else { return Ok(None) };
    let list = client.stages().list(Some(space_id)).await?;
    Ok(match list.stages.into_iter().find(|s| s.id == stage_id) {
        None => Some(Reply::Conflict(None, Some("The stage was deleted elsewhere.".into()))),
        Some(s) if s.name != base.name || s.color != base.color => {
            Some(Reply::Conflict(Some(format!("changed elsewhere, now “{}”", s.name)), None))
        }
        Some(_) => None,
    })
}

/// No conditional write on `PATCH /spaces/{id}` nor `/archive`: the space is read just before sending and
/// its `updatedAt` compared with the base. `Some`: the conflict to keep.
async fn space_changed(client: &api_client::Client, space_id: &str, base: Option<&String>) -> IpcResult<Option<Reply>> {
    let Some(base) = base else { return Ok(None) };
    match client.spaces().get(space_id).await {
        Ok(s) if s.updated_at.as_ref() != Some(base) => {
            Ok(Some(Reply::Conflict(Some(format!("changed elsewhere, now “{}”", s.name)), None)))
        }
        Ok(_) => Ok(None),
        Err(e) => {
            let e = IpcError::from(e);
            if e.code == IpcCode::NotFound {
                return Ok(Some(Reply::Conflict(None, Some("The space was deleted elsewhere.".into()))));
            }
            Err(e)
        }
    }
}
