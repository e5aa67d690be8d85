//! Kept planner changes: every planner write other than a card edit (card archive/restore, stage
//! create/rename/recolour/move/delete, space create/rename/archive) that the service did not answer is kept
//! in the outbox, in the order it was made (the profile's `planner` of `outbox.json`), and sent when the
//! service answers again (`drafts_sync`, before the kept card changes, so a card moved into a stage made
//! offline finds it).
//!
//! Each kept change carries the base it was made on, so that a change made elsewhere meanwhile becomes a
//! conflict (the user takes theirs or keeps mine), never a silent overwrite:
//! - a card's and a space's `updatedAt` as the board had it;
//! - a stage's name and colour as the board had them: the API gives stages no `updatedAt` nor version
//!   (spec §2 "Fields of spaces and stages: not shown"; contract facts §2.7).
//!
//! The API offers no conditional write for any of these (only brand-kit sections have `expectedVersion`,
//! spec §4 and §9), so the core reads the current card, space or stage list just before sending and
//! compares it with the base; a change made elsewhere between that read and the write is not seen (a
//! window of one request).
//!
//! A stage or space made offline gets a local id (`local-<uuid>`), used by the board and by later kept
//! changes (a card moved into it, the stage renamed); when its create is sent the local id is mapped to the
//! real one (`ids` of the profile) and every later change is sent with the real id. A change that meets a
//! conflict or a refusal stays, and blocks only the changes that depend on it (the same target, or the
//! local id it would have made); the others are sent.
use api_types::{ArchiveRequest, CreateSpace, CreateStage, DeleteStage, Space, Stage, UpdateSpace, UpdateStage};
use serde::{Deserialize, Serialize};
use std::collections::{BTreeMap, HashSet};
use ts_rs::TS;

use super::{now_ms, with_profile, Kept, Resolution, WithOutbox};
use crate::error::{IpcCode, IpcError, IpcResult};

/// The prefix of the ids given to stages and spaces made offline.
pub const LOCAL_PREFIX: &str = "local-";

/// Whether an id was given here to something made offline (not yet known to the service).
pub fn is_local(id: &str) -> bool {
    id.starts_with(LOCAL_PREFIX)
}

pub(crate) fn new_local_id() -> String {
    format!("{LOCAL_PREFIX}{}", uuid::Uuid::new_v4())
}

/// A stage as the board had it when a change was made to it (stages carry no `updatedAt`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct StageBase {
    pub name: String,
    #[ts(optional)]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub color: Option<String>,
}

/// One kept planner write, as the outbox file holds it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "camelCase", rename_all_fields = "camelCase")]
pub(crate) enum PlannerOp {
    CardArchive { card_id: String, archived: bool },
    /// `known`: the ids of the stages of this name in the space, read just before a create whose answer
    /// was lost; a new one of the name at sync is that create landing, taken rather than made twice.
    StageCreate {
        local_id: String,
        space_id: String,
        name: String,
        color: Option<String>,
        after_id: Option<String>,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        known: Option<Vec<String>>,
    },
    StageUpdate {
        space_id: String,
        stage_id: String,
        name: Option<String>,
        color: Option<String>,
        after_id: Option<String>,
        before_id: Option<String>,
    },
    StageDelete { space_id: String, stage_id: String, target_stage_id: Option<String> },
    /// `known`: as for a stage, the spaces of this name read before a create whose answer was lost.
    SpaceCreate {
        local_id: String,
        name: String,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        known: Option<Vec<String>>,
    },
    SpaceRename { space_id: String, name: String },
    SpaceArchive { space_id: String, archived: bool },
}

impl PlannerOp {
    /// The id of the thing it changes (for a create: the local id it made).
    fn target(&self) -> &str {
        match self {
            PlannerOp::CardArchive { card_id, .. } => card_id,
            PlannerOp::StageCreate { local_id, .. } | PlannerOp::SpaceCreate { local_id, .. } => local_id,
            PlannerOp::StageUpdate { stage_id, .. } | PlannerOp::StageDelete { stage_id, .. } => stage_id,
            PlannerOp::SpaceRename { space_id, .. } | PlannerOp::SpaceArchive { space_id, .. } => space_id,
        }
    }

    /// Every id it names (its target and what it is placed by or moves cards to).
    fn refs(&self) -> Vec<&str> {
        let mut v = vec![self.target()];
        match self {
            PlannerOp::StageCreate { space_id, after_id, .. } => {
                v.extend(after_id.as_deref());
                v.push(space_id);
            }
            PlannerOp::StageUpdate { space_id, after_id, before_id, .. } => {
                v.extend(after_id.as_deref());
                v.extend(before_id.as_deref());
                v.push(space_id);
            }
            PlannerOp::StageDelete { space_id, target_stage_id, .. } => {
                v.extend(target_stage_id.as_deref());
                v.push(space_id);
            }
            _ => {}
        }
        v
    }
}

/// A kept planner change: what to send, the base it was made on, and what the list says of it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub(crate) struct PlannerChange {
    /// This change's own id (the user drops or resolves it by it).
    pub(super) id: String,
    pub(super) op: PlannerOp,
    /// The card's or space's `updatedAt` the change was made on; `None`: unknown (sent without the check).
    #[serde(default)]
    base_updated_at: Option<String>,
    /// The stage as the board had it; `None`: unknown, or a stage made offline.
    #[serde(default)]
    base_stage: Option<StageBase>,
    /// What the list calls the thing changed: the card's title, the stage's or space's name then.
    #[serde(default)]
    subject: Option<String>,
    saved_at: f64,
    #[serde(default)]
    conflict: Option<PlannerConflict>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
struct PlannerConflict {
    /// What the service has now, in words ("now named “Review”"), or its `updatedAt`.
    #[serde(default)]
    theirs: Option<String>,
    /// Why it was not sent when it is not "changed elsewhere" (deleted, refused).
    #[serde(default)]
    problem: Option<String>,
}

/// The base of a change the caller makes (what the board had).
#[derive(Debug, Clone, Default)]
pub(crate) struct Base {
    pub(crate) updated_at: Option<String>,
    pub(crate) stage: Option<StageBase>,
    pub(crate) subject: Option<String>,
}

// --- what the list shows

/// What a kept change does, for the "changes waiting" list.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub enum KeptKind {
    CardEdit,
    CardMove,
    CardArchive,
    CardRestore,
    StageCreate,
    StageRename,
    StageRecolor,
    StageMove,
    StageDelete,
    SpaceCreate,
    SpaceRename,
    SpaceArchive,
    SpaceRestore,
}

/// One kept change as the "changes waiting" list shows it, in the order they are sent.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct KeptChange {
    /// The change's id: a card change's is its card id (as `drafts_resolve` takes it).
    pub id: String,
    pub kind: KeptKind,
    /// What is changed, as the board called it: the card's title, the stage's or space's name.
    #[ts(optional)]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub subject: Option<String>,
    /// The new name (a rename or create).
    #[ts(optional)]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub name: Option<String>,
    /// The new colour (a stage recoloured or made).
    #[ts(optional)]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub color: Option<String>,
    /// A card edit's fields (camelCase names of `UpdateCard`).
    #[serde(default)]
    pub fields: Vec<String>,
    /// Set when it was not sent because the thing changed elsewhere (what it is now).
    #[ts(optional)]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub theirs: Option<String>,
    /// Set when it was not sent for another reason (deleted elsewhere, refused by the service).
    #[ts(optional)]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub problem: Option<String>,
    /// In conflict: waits for the user's choice (Take theirs / Keep mine).
    pub conflict: bool,
    pub saved_at: f64,
}

impl PlannerChange {
    pub(super) fn view(&self) -> KeptChange {
        let (kind, name, color) = match &self.op {
            PlannerOp::CardArchive { archived: true, .. } => (KeptKind::CardArchive, None, None),
            PlannerOp::CardArchive { .. } => (KeptKind::CardRestore, None, None),
            PlannerOp::StageCreate { name, color, .. } => (KeptKind::StageCreate, Some(name.clone()), color.clone()),
            PlannerOp::StageUpdate { name: Some(n), color, .. } => (KeptKind::StageRename, Some(n.clone()), color.clone()),
            PlannerOp::StageUpdate { color: Some(c), .. } => (KeptKind::StageRecolor, None, Some(c.clone())),
            PlannerOp::StageUpdate { .. } => (KeptKind::StageMove, None, None),
            PlannerOp::StageDelete { .. } => (KeptKind::StageDelete, None, None),
            PlannerOp::SpaceCreate { name, .. } => (KeptKind::SpaceCreate, Some(name.clone()), None),
            PlannerOp::SpaceRename { name, .. } => (KeptKind::SpaceRename, Some(name.clone()), None),
            PlannerOp::SpaceArchive { archived: true, .. } => (KeptKind::SpaceArchive, None, None),
            PlannerOp::SpaceArchive { .. } => (KeptKind::SpaceRestore, None, None),
        };
        KeptChange {
            id: self.id.clone(),
            kind,
            subject: self.subject.clone(),
            name,
            color,
            fields: Vec::new(),
            theirs: self.conflict.as_ref().and_then(|c| c.theirs.clone()),
            problem: self.conflict.as_ref().and_then(|c| c.problem.clone()),
            conflict: self.conflict.is_some(),
            saved_at: self.saved_at,
        }
    }

    pub(super) fn waiting(&self) -> bool {
        self.conflict.is_none()
    }
}

// --- what the board had (the base of a change when the caller gives none)

/// Notes the stages of a board as read from the service (`board_load`), for the selected profile.
pub(crate) fn saw_stages(session: &impl WithOutbox, stages: &[api_types::Stage]) {
    let Ok(profile) = session.profile_id() else { return };
    let mut map = session.outbox().planner_seen.lock().unwrap_or_else(|e| e.into_inner());
    for s in stages {
        let base = StageBase { name: s.name.clone(), color: s.color.clone() };
        map.insert((profile.clone(), s.id.clone()), Base { updated_at: None, subject: Some(s.name.clone()), stage: Some(base) });
    }
}

/// Notes spaces as read from the service (`spaces_list`), for the selected profile.
pub(crate) fn saw_spaces(session: &impl WithOutbox, spaces: &[api_types::Space]) {
    let Ok(profile) = session.profile_id() else { return };
    let mut map = session.outbox().planner_seen.lock().unwrap_or_else(|e| e.into_inner());
    for s in spaces {
        map.insert((profile.clone(), s.id.clone()), Base { updated_at: s.updated_at.clone(), subject: Some(s.name.clone()), stage: None });
    }
}

/// How the board last had this stage or space (empty when never read here).
pub(crate) fn seen_base(session: &impl WithOutbox, id: &str) -> Base {
    let Ok(profile) = session.profile_id() else { return Base::default() };
    let map = session.outbox().planner_seen.lock().unwrap_or_else(|e| e.into_inner());
    map.get(&(profile, id.to_string())).cloned().unwrap_or_default()
}

// --- keeping

/// Whether a planner write must be kept rather than sent: it names something made offline, or an earlier
/// kept change waits for the same thing (it is sent after it, in order).
pub(crate) fn must_keep(session: &impl WithOutbox, op: &PlannerOp) -> IpcResult<bool> {
    let made = match op {
        PlannerOp::StageCreate { local_id, .. } | PlannerOp::SpaceCreate { local_id, .. } => Some(local_id.as_str()),
        _ => None,
    };
    if op.refs().iter().any(|r| is_local(r) && Some(*r) != made) {
        return Ok(true);
    }
    let profile = session.profile_id()?;
    let target = op.target().to_string();
    with_profile(session, &profile, |kept| (kept.planner.iter().any(|c| c.op.target() == target), false))
}

/// Keeps `op` (made on `base`) at the end of the selected profile's kept planner changes and answers the
/// `queued` error to return.
pub(crate) fn keep(session: &impl WithOutbox, op: PlannerOp, base: Base) -> IpcError {
    let kept = session.profile_id().and_then(|profile| {
        with_profile(session, &profile, |kept| {
            kept.planner.push(PlannerChange {
                id: uuid::Uuid::new_v4().to_string(),
                op,
                base_updated_at: base.updated_at,
                base_stage: base.stage,
                subject: base.subject,
                saved_at: now_ms(),
                conflict: None,
            });
            (waiting_in(kept), true)
        })
    });
    match kept {
        Ok(n) => super::queued_error(n),
        Err(e) => e,
    }
}

/// Kept changes of a profile that wait to be sent (cards and planner; conflicts not counted).
pub(super) fn waiting_in(kept: &Kept) -> usize {
    kept.cards.iter().filter(|c| c.waiting()).count() + kept.planner.iter().filter(|c| c.waiting()).count()
}

/// A failure after which a planner write is kept: nothing answered, or the service failed (5xx after the
/// client's retries). Anything else (refused, not found, a key problem) is answered as it is.
pub(crate) fn is_unanswered(e: &IpcError) -> bool {
    e.code == IpcCode::Network || (e.code == IpcCode::Server && e.status.is_some_and(|s| s >= 500))
}

// --- sending

pub(super) enum Delivery {
    Sent,
    Offline,
    Conflict,
    /// Names something made offline whose create was not sent, or waits behind a change in conflict.
    Blocked,
    Failed(IpcError),
}

/// The real id of `id` (a local id once its create was sent), or `None` while its create waits.
pub(super) fn real(ids: &BTreeMap<String, String>, id: &str) -> Option<String> {
    if is_local(id) { ids.get(id).cloned() } else { Some(id.to_string()) }
}

fn real_opt(ids: &BTreeMap<String, String>, id: &Option<String>) -> Result<Option<String>, ()> {
    match id {
        None => Ok(None),
        Some(i) => real(ids, i).map(Some).ok_or(()),
    }
}

/// Sends every waiting planner change of `profile`, in order. Stops at the first that meets no answer;
/// one in conflict or refused blocks the later ones that name the same thing only.
pub(super) async fn send_all(session: &impl WithOutbox, profile: &str) -> IpcResult<(u32, bool, Option<IpcError>)> {
    let changes = with_profile(session, profile, |k| (k.planner.clone(), false))?;
    let mut blocked: HashSet<String> = HashSet::new();
    let (mut sent, mut failure) = (0u32, None);
    for change in changes {
        if change.conflict.is_some() || change.op.refs().iter().any(|r| blocked.contains(*r)) {
            blocked.insert(change.op.target().to_string());
            continue;
        }
        match send_one(session, profile, &change.id, false).await? {
            Delivery::Sent => sent += 1,
            Delivery::Offline => return Ok((sent, true, failure)),
            Delivery::Conflict | Delivery::Blocked => {
                blocked.insert(change.op.target().to_string());
            }
            Delivery::Failed(e) => {
                blocked.insert(change.op.target().to_string());
                failure.get_or_insert(e);
            }
        }
    }
    Ok((sent, false, failure))
}

/// Sends one kept planner change (its current state in the file). `force`: without the base check
/// (keep mine).
pub(super) async fn send_one(session: &impl WithOutbox, profile: &str, id: &str, force: bool) -> IpcResult<Delivery> {
    let (change, ids) = with_profile(session, profile, |k| (
        (k.planner.iter().find(|c| c.id == id).cloned(), k.ids.clone()),
        false,
    ))?;
    let Some(change) = change else {
        return Err(IpcError::new(IpcCode::NotFound, "That change is no longer waiting: it was sent or dropped."));
    };
    if change.conflict.is_some() && !force {
        return Ok(Delivery::Conflict);
    }
    let client = session.client_for(profile).await?;
    let sent = async {
        let (change, fresh) = with_known(session, profile, &client, change.clone(), &ids).await?;
        send_op(&client, &change, &ids, force, fresh).await
    };
    let outcome = match sent.await {
        Ok(o) => o,
        Err(e) if is_unanswered(&e) => return Ok(Delivery::Offline),
        Err(e) => match e.code {
            IpcCode::Conflict | IpcCode::Validation | IpcCode::NotFound => {
                Op::Conflict(None, Some(format!("The service refused it: {}", e.message)))
            }
            _ => return Ok(Delivery::Failed(e)),
        },
    };
    match outcome {
        Op::Blocked => Ok(Delivery::Blocked),
        Op::Conflict(theirs, problem) => {
            with_profile(session, profile, |k| {
                if let Some(c) = k.planner.iter_mut().find(|c| c.id == id) {
                    c.conflict = Some(PlannerConflict { theirs, problem });
                }
                ((), true)
            })?;
            Ok(Delivery::Conflict)
        }
        Op::Done(made, after) => {
            if let Some((local, real)) = &made {
                super::note_made(session, profile, local, real);
            }
            with_profile(session, profile, |k| {
                k.planner.retain(|c| c.id != id);
                if let Some((local, real)) = made {
                    k.ids.insert(local, real);
                }
                // The later kept changes of the same thing were made on top of this one: their base is
                // now what this one left (else the change just sent would read as a change made elsewhere).
                let target = change.op.target();
                for c in k.planner.iter_mut().filter(|c| c.op.target() == target) {
                    if after.updated_at.is_some() && c.base_updated_at == change.base_updated_at {
                        c.base_updated_at = after.updated_at.clone();
                    }
                    if let (Some(b), Some(new)) = (c.base_stage.as_mut(), after.stage.as_ref()) {
                        *b = new.clone();
                    }
                }
                if let (PlannerOp::CardArchive { card_id, .. }, Some(new)) = (&change.op, &after.updated_at) {
                    for c in k.cards.iter_mut() {
                        c.rebase_after(card_id, change.base_updated_at.as_deref(), new);
                    }
                }
                ((), true)
            })?;
            Ok(Delivery::Sent)
        }
    }
}

enum Op {
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
    mut change: PlannerChange,
    ids: &BTreeMap<String, String>,
) -> IpcResult<(PlannerChange, bool)> {
    let read = match &change.op {
        PlannerOp::StageCreate { space_id, name, known: None, .. } => match real(ids, space_id) {
            Some(space_id) => same_stages(client, &space_id, name).await?.into_iter().map(|s| s.id).collect::<Vec<_>>(),
            None => return Ok((change, false)),
        },
        PlannerOp::SpaceCreate { name, known: None, .. } => same_spaces(client, name).await?.into_iter().map(|s| s.id).collect(),
        _ => return Ok((change, false)),
    };
    if let PlannerOp::StageCreate { known, .. } | PlannerOp::SpaceCreate { known, .. } = &mut change.op {
        *known = Some(read.clone());
    }
    let id = change.id.clone();
    with_profile(session, profile, |k| match k.planner.iter_mut().find(|c| c.id == id) {
        Some(PlannerChange { op: PlannerOp::StageCreate { known, .. } | PlannerOp::SpaceCreate { known, .. }, .. }) => {
            *known = Some(read);
            ((), true)
        }
        _ => ((), false),
    })?;
    Ok((change, true))
}

async fn send_op(client: &api_client::Client, change: &PlannerChange, ids: &BTreeMap<String, String>, force: bool, fresh: bool) -> IpcResult<Op> {
    let check = !force;
    macro_rules! real {
        ($id:expr) => {
            match real(ids, $id) {
                Some(r) => r,
                None => return Ok(Op::Blocked),
            }
        };
    }
    macro_rules! real_opt {
        ($id:expr) => {
            match real_opt(ids, $id) {
                Ok(r) => r,
                Err(()) => return Ok(Op::Blocked),
            }
        };
    }
    match &change.op {
        PlannerOp::CardArchive { card_id, archived } => {
            let card_id = real!(card_id);
            if check && change.base_updated_at.is_some() {
                // No conditional write on `/archive`: the card is read and its `updatedAt` compared first.
                let current = match client.cards().get(&card_id).await {
                    Ok(c) => c,
                    Err(e) => {
                        let e = IpcError::from(e);
                        if e.code == IpcCode::NotFound {
                            return Ok(Op::Conflict(None, Some("The card was deleted elsewhere.".into())));
                        }
                        return Err(e);
                    }
                };
                if current.summary.updated_at != change.base_updated_at {
                    return Ok(Op::Conflict(Some(format!("changed elsewhere, now “{}”", current.summary.title)), None));
                }
            }
            let req = ArchiveRequest { asset_type: "card".into(), id: card_id.clone(), archived: Some(*archived), ..Default::default() };
            client.archive(&req).await?;
            let updated_at = client.cards().get(&card_id).await.ok().and_then(|c| c.summary.updated_at);
            Ok(Op::Done(None, After { updated_at, stage: None }))
        }
        PlannerOp::StageCreate { local_id, space_id, name, color, after_id, known } => {
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
            Ok(Op::Done(Some((local_id.clone(), id)), After::default()))
        }
        PlannerOp::StageUpdate { space_id, stage_id, name, color, after_id, before_id } => {
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
            Ok(Op::Done(None, After { updated_at: None, stage: Some(stage) }))
        }
        PlannerOp::StageDelete { space_id, stage_id, target_stage_id } => {
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
            Ok(Op::Done(None, After::default()))
        }
        PlannerOp::SpaceCreate { local_id, name, known } => {
            let req = CreateSpace { name: name.clone(), ..Default::default() };
            let read = || async { same_spaces(client, name).await.map(|l| l.into_iter().map(|s| s.id).collect::<Vec<_>>()) };
            let id = create_once(known.as_ref(), fresh, read, || async { client.spaces().create(&req).await.map(|s| s.id) }).await?;
            Ok(Op::Done(Some((local_id.clone(), id)), After::default()))
        }
        PlannerOp::SpaceRename { space_id, name } => {
            let space_id = real!(space_id);
            if let Some(c) = space_changed(client, &space_id, check.then_some(change.base_updated_at.as_ref()).flatten()).await? {
                return Ok(c);
            }
            let space = client.spaces().update(&space_id, &UpdateSpace { name: Some(name.clone()), ..Default::default() }).await?;
            Ok(Op::Done(None, After { updated_at: space.updated_at, stage: None }))
        }
        PlannerOp::SpaceArchive { space_id, archived } => {
            let space_id = real!(space_id);
            if let Some(c) = space_changed(client, &space_id, check.then_some(change.base_updated_at.as_ref()).flatten()).await? {
                return Ok(c);
            }
            let req = ArchiveRequest { asset_type: "space".into(), id: space_id.clone(), archived: Some(*archived), ..Default::default() };
            client.archive(&req).await?;
            let updated_at = client.spaces().get(&space_id).await.ok().and_then(|s| s.updated_at);
            Ok(Op::Done(None, After { updated_at, stage: None }))
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
async fn stage_changed(client: &api_client::Client, space_id: &str, stage_id: &str, base: Option<&StageBase>) -> IpcResult<Option<Op>> {
    let Some(base) = base else { return Ok(None) };
    let list = client.stages().list(Some(space_id)).await?;
    Ok(match list.stages.into_iter().find(|s| s.id == stage_id) {
        None => Some(Op::Conflict(None, Some("The stage was deleted elsewhere.".into()))),
        Some(s) if s.name != base.name || s.color != base.color => {
            Some(Op::Conflict(Some(format!("changed elsewhere, now “{}”", s.name)), None))
        }
        Some(_) => None,
    })
}

/// No conditional write on `PATCH /spaces/{id}` nor `/archive`: the space is read just before sending and
/// its `updatedAt` compared with the base. `Some`: the conflict to keep.
async fn space_changed(client: &api_client::Client, space_id: &str, base: Option<&String>) -> IpcResult<Option<Op>> {
    let Some(base) = base else { return Ok(None) };
    match client.spaces().get(space_id).await {
        Ok(s) if s.updated_at.as_ref() != Some(base) => {
            Ok(Some(Op::Conflict(Some(format!("changed elsewhere, now “{}”", s.name)), None)))
        }
        Ok(_) => Ok(None),
        Err(e) => {
            let e = IpcError::from(e);
            if e.code == IpcCode::NotFound {
                return Ok(Some(Op::Conflict(None, Some("The space was deleted elsewhere.".into()))));
            }
            Err(e)
        }
    }
}

// --- the user's choice

/// Take theirs (the change is dropped, with the kept changes that name what it would have made) or keep
/// mine (sent over what the service has now). `Ok(None)`: no planner change has this id.
pub(super) async fn resolve(session: &impl WithOutbox, profile: &str, id: &str, r: Resolution) -> IpcResult<Option<u32>> {
    let exists = with_profile(session, profile, |k| (k.planner.iter().any(|c| c.id == id), false))?;
    if !exists {
        return Ok(None);
    }
    match r {
        Resolution::TakeTheirs => {
            with_profile(session, profile, |k| {
                let Some(i) = k.planner.iter().position(|c| c.id == id) else { return ((), false) };
                let dropped = k.planner.remove(i);
                if let PlannerOp::StageCreate { local_id, .. } | PlannerOp::SpaceCreate { local_id, .. } = &dropped.op {
                    // What names the stage or space that will now never be made goes with it.
                    k.planner.retain(|c| !c.op.refs().contains(&local_id.as_str()));
                    for card in k.cards.iter_mut() {
                        card.forget_place(local_id);
                    }
                    k.cards.retain(|c| !c.is_empty());
                }
                ((), true)
            })?;
            Ok(Some(0))
        }
        Resolution::KeepMine => match send_one(session, profile, id, true).await? {
            Delivery::Sent => Ok(Some(1)),
            Delivery::Offline => {
                // It waits again, without the check: sent as it is when the service answers.
                with_profile(session, profile, |k| {
                    if let Some(c) = k.planner.iter_mut().find(|c| c.id == id) {
                        c.conflict = None;
                        c.base_updated_at = None;
                        c.base_stage = None;
                    }
                    ((), true)
                })?;
                Err(super::queued_error(with_profile(session, profile, |k| (waiting_in(k), false))?))
            }
            Delivery::Blocked => Err(IpcError::new(
                IpcCode::Conflict,
                "This change names a stage or space made offline that is not on the service yet: settle that change first.",
            )),
            Delivery::Conflict => {
                let problem = with_profile(session, profile, |k| {
                    (k.planner.iter().find(|c| c.id == id).and_then(|c| c.conflict.clone()).and_then(|c| c.problem), false)
                })?;
                Err(IpcError::new(IpcCode::Conflict, problem.unwrap_or_else(|| "It changed again; try once more.".into())))
            }
            Delivery::Failed(e) => Err(e),
        },
    }
}
