//! The planner's commands (docs/ipc.md, "Planner"): spaces, stages as board columns, cards moved and
//! edited. Each is a plain async function over the session (`session::Session`; the card edits also
//! over the outbox, `outbox::WithOutbox`), which the command layer's `AppState` provides.
//!
//! Every write is kept in the outbox when the service does not answer (no answer, or a 5xx after the
//! client's retries), with the base it was made on: card edits and moves as the card's kept change
//! (`outbox/cards.rs`), archive/restore, stages and spaces as kept planner changes (`outbox/planner.rs`).
//! A kept update answers `queued`; a stage or space made offline answers itself with a local id
//! (`local-…`, `outbox::is_local`), which later writes may name (a card moved into the new stage).
use api_client::CardEdit;
use api_types::{
    ArchiveRequest, ArchiveResult, CardDetail, CardSummary, ConnectedAccount, CreateSpace,
    CreateStage, DeleteStage, Space, Stage, StageDeleted, StageUpdated, Tag, UpdateCard, UpdateSpace,
    UpdateStage,
};
pub use contentdesk_ops::planner::ArchiveInput;
use contentdesk_ops::planner::{
    checked_name, CardCreateInput, CardId, CardMoveInput, SpaceCreateInput, SpaceUpdateInput, StageCreateInput, StageDeleteInput,
    StageUpdateInput,
};
use serde::{Deserialize, Serialize};
use ts_rs::TS;

use crate::outbox::{self, WithOutbox};
use crate::error::{IpcCode, IpcError, IpcResult};
use crate::session::Session;

mod board;
pub use board::*;

#[derive(Debug, Clone, Deserialize, Serialize, TS)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct CardUpdateArgs {
    pub card_id: String,
    pub update: UpdateCard,
}

/// The space a stage write of the app names: the app always names it (its outbox keeps it with the change).
fn space_named(space_id: Option<String>) -> IpcResult<String> {
    non_empty(space_id).ok_or_else(|| IpcError::validation("spaceId", "Name the stage's space."))
}

/// A field of the catalogue's input that the app's command does not take (its outbox could not keep it).
fn not_here(field: &str, given: bool, instead: &str) -> IpcResult<()> {
    if given {
        return Err(IpcError::validation(field, format!("The app does not take `{field}` here; {instead}.")));
    }
    Ok(())
}

fn non_empty(v: Option<String>) -> Option<String> {
    v.map(|s| s.trim().to_string()).filter(|s| !s.is_empty())
}


/// The catalogue's input and its rules ([`SpaceCreateInput::check`]); the app makes a space from its name.
pub async fn space_create(session: &impl WithOutbox, args: SpaceCreateInput) -> IpcResult<Space> {
    args.check()?;
    not_here("coverUrl", args.cover_url.is_some(), "cdesk space create --cover sets one")?;
    not_here("duplicateFrom", args.duplicate_from.is_some(), "cdesk space create --duplicate-from copies stages")?;
    let name = args.name.trim().to_string();
    // Kept: the space is made when the service answers; until then it has a local id. `known`: the spaces
    // of this name before a send whose answer was lost, so that the sync takes that one if it landed.
    let keep = |known: Option<Vec<String>>| -> IpcResult<Space> {
        let local_id = outbox::new_local_id();
        kept_made(session, outbox::Op::SpaceCreate { local_id: local_id.clone(), name: name.clone(), known })?;
        Ok(Space {
            id: local_id,
            account_id: None,
            name: name.clone(),
            cover_url: None,
            cover_position: None,
            is_favorite: false,
            archived_at: None,
            created_at: None,
            updated_at: None,
            post_count: Some(0),
        })
    };
    let client = session.client().await?;
    // Never made twice (no idempotency key for spaces): the spaces of this name are read first, so that
    // when the create's answer is lost a second read shows whether it landed.
    let before: Vec<String> = match outbox::same_spaces(&client, &name).await {
        Ok(l) => l.into_iter().map(|s| s.id).collect(),
        Err(e) => {
            let e = IpcError::from(e);
            return if outbox::is_unanswered(&e) { keep(None) } else { Err(e) };
        }
    };
    match client.spaces().create(&CreateSpace { name: name.clone(), ..Default::default() }).await {
        Ok(space) => Ok(space),
        Err(e) => {
            if answer_lost(&e) {
                if let Ok(now) = outbox::same_spaces(&client, &name).await {
                    if let Some(space) = now.into_iter().find(|s| !before.contains(&s.id)) {
                        return Ok(space);
                    }
                }
            }
            let e = IpcError::from(e);
            if outbox::is_unanswered(&e) { keep(Some(before)) } else { Err(e) }
        }
    }
}

/// A create kept offline: it is in the outbox (a failure to keep it is answered).
fn kept_made(session: &impl WithOutbox, op: outbox::Op) -> IpcResult<()> {
    let e = outbox::keep_op(session, op, outbox::Base::default());
    if e.code == IpcCode::Queued { Ok(()) } else { Err(e) }
}

/// Sends a planner write, or keeps it in the outbox (in order behind a kept change of the same thing, or
/// when it names something made offline, or when the service does not answer) and answers `queued`.
async fn send_or_keep<T, F, Fut>(session: &impl WithOutbox, op: outbox::Op, base: outbox::Base, send: F) -> IpcResult<T>
where
    F: FnOnce(api_client::Client) -> Fut,
    Fut: std::future::Future<Output = Result<T, api_client::ApiError>>,
{
    if outbox::must_keep(session, &op)? {
        return Err(outbox::keep_op(session, op, base));
    }
    let client = session.client().await?;
    match send(client).await {
        Ok(v) => Ok(v),
        Err(e) => {
            let e = IpcError::from(e);
            if outbox::is_unanswered(&e) { Err(outbox::keep_op(session, op, base)) } else { Err(e) }
        }
    }
}

/// The catalogue's input and its rules ([`SpaceUpdateInput::check`]); the app renames (a name is needed).
pub async fn space_rename(session: &impl WithOutbox, args: SpaceUpdateInput) -> IpcResult<Space> {
    args.check()?;
    not_here("coverUrl", args.cover_url.is_some() || args.no_cover, "cdesk space update --cover changes it")?;
    let name = checked_name("name", "space", args.name.as_deref().unwrap_or_default(), contentdesk_ops::planner::SPACE_NAME_MAX)?;
    let update = UpdateSpace { name: Some(name.clone()), ..Default::default() };
    let op = outbox::Op::SpaceRename { space_id: args.space_id.clone(), name };
    let base = outbox::seen_base(session, &args.space_id);
    send_or_keep(session, op, base, |c| async move { c.spaces().update(&args.space_id, &update).await }).await
}

/// The app's kind of record for each archive command: the catalogue's `assetType` must say it.
fn archive_of(args: &ArchiveInput, asset_type: &str) -> IpcResult<(String, bool)> {
    args.check()?;
    if args.asset_type != asset_type {
        return Err(IpcError::validation("assetType", format!("This command archives a {asset_type}: assetType is `{asset_type}`.")));
    }
    Ok((args.id.trim().to_string(), args.archived()))
}

/// The catalogue's `ArchiveInput` (as `cdesk archive space` and `archive`) with `assetType: "space"`;
/// `off: true` restores.
pub async fn space_archive(session: &impl WithOutbox, args: ArchiveInput) -> IpcResult<ArchiveResult> {
    let (space_id, archived) = archive_of(&args, "space")?;
    let op = outbox::Op::SpaceArchive { space_id: space_id.clone(), archived };
    let base = outbox::seen_base(session, &space_id);
    send_or_keep(session, op, base, |c| async move { archive(&c, "space", space_id, archived).await }).await
}

async fn archive(client: &api_client::Client, asset_type: &str, id: String, archived: bool) -> Result<ArchiveResult, api_client::ApiError> {
    let req = ArchiveRequest { asset_type: asset_type.to_string(), id, archived: Some(archived), ..Default::default() };
    client.archive(&req).await
}

/// The catalogue's input and its rules ([`StageCreateInput::check`]); the app names the space and places a
/// new stage at the end or after another.
pub async fn stage_create(session: &impl WithOutbox, args: StageCreateInput) -> IpcResult<Stage> {
    args.check()?;
    not_here("beforeId", args.before_id.is_some(), "place it with afterId")?;
    let name = args.name.trim().to_string();
    let space_id = space_named(args.space_id)?;
    let (color, after_id) = (non_empty(args.color), non_empty(args.after_id));
    let local_id = outbox::new_local_id();
    let op = |known: Option<Vec<String>>| outbox::Op::StageCreate {
        local_id: local_id.clone(),
        space_id: space_id.clone(),
        name: name.clone(),
        color: color.clone(),
        after_id: after_id.clone(),
        known,
    };
    // Kept: the stage is made when the service answers; until then it has a local id (the end of the board).
    // `known`: the stages of this name before a send whose answer was lost (the sync takes that one if it landed).
    let keep = |known: Option<Vec<String>>| -> IpcResult<Stage> {
        kept_made(session, op(known))?;
        Ok(Stage { id: local_id.clone(), name: name.clone(), slug: None, color: color.clone(), sort_order: f64::MAX, is_default: false })
    };
    if outbox::must_keep(session, &op(None))? {
        return keep(None);
    }
    let client = session.client().await?;
    // Never made twice (no idempotency key for stages): the stages of this name are read first, so that
    // when the create's answer is lost a second read shows whether it landed.
    let before: Vec<String> = match outbox::same_stages(&client, &space_id, &name).await {
        Ok(l) => l.into_iter().map(|s| s.id).collect(),
        Err(e) => {
            let e = IpcError::from(e);
            return if outbox::is_unanswered(&e) { keep(None) } else { Err(e) };
        }
    };
    let req = CreateStage { name: name.clone(), space_id: Some(space_id.clone()), color: color.clone(), after_id: after_id.clone(), ..Default::default() };
    match client.stages().create(&req).await {
        Ok(stage) => Ok(stage),
        Err(e) => {
            if answer_lost(&e) {
                if let Ok(now) = outbox::same_stages(&client, &space_id, &name).await {
                    if let Some(stage) = now.into_iter().find(|s| !before.contains(&s.id)) {
                        return Ok(stage);
                    }
                }
            }
            let e = IpcError::from(e);
            if outbox::is_unanswered(&e) { keep(Some(before)) } else { Err(e) }
        }
    }
}

/// The catalogue's input and its rules ([`StageUpdateInput::check`]); the app names the space and moves a
/// stage after or before another.
pub async fn stage_update(session: &impl WithOutbox, args: StageUpdateInput) -> IpcResult<StageUpdated> {
    args.check()?;
    not_here("toStart", args.to_start || args.to_end, "move it with afterId or beforeId")?;
    let name = args.name.map(|n| n.trim().to_string());
    let space_id = space_named(args.space_id)?;
    let color = non_empty(args.color);
    let op = outbox::Op::StageUpdate {
        space_id: space_id.clone(),
        stage_id: args.stage_id.clone(),
        name: name.clone(),
        color: color.clone(),
        after_id: args.after_id.clone(),
        before_id: args.before_id.clone(),
    };
    let req = UpdateStage {
        space_id,
        name,
        color,
        after_id: args.after_id.map(Some),
        before_id: args.before_id.map(Some),
        ..Default::default()
    };
    let base = outbox::seen_base(session, &args.stage_id);
    send_or_keep(session, op, base, |c| async move { c.stages().update(&args.stage_id, &req).await }).await
}

/// The catalogue's input and its rule ([`StageDeleteInput::check`]); the app names the space.
pub async fn stage_delete(session: &impl WithOutbox, args: StageDeleteInput) -> IpcResult<StageDeleted> {
    args.check()?;
    let space_id = space_named(args.space_id)?;
    let target = non_empty(args.target_stage_id);
    let op = outbox::Op::StageDelete { space_id: space_id.clone(), stage_id: args.stage_id.clone(), target_stage_id: target.clone() };
    let base = outbox::seen_base(session, &args.stage_id);
    send_or_keep(session, op, base, |client| async move {
        let target = match target {
            Some(t) => Some(t),
            // The first other stage of the space.
            None => {
                let list = client.stages().list(Some(&space_id)).await?;
                let mut others: Vec<Stage> = list.stages.into_iter().filter(|s| s.id != args.stage_id).collect();
                others.sort_by(|a, b| a.sort_order.total_cmp(&b.sort_order));
                others.first().map(|s| s.id.clone())
            }
        };
        let req = DeleteStage { space_id, target_stage_id: target, ..Default::default() };
        client.stages().delete(&args.stage_id, &req).await
    })
    .await
}

/// The catalogue's input and its rules ([`CardCreateInput::check`]); the app names the space. A create is
/// sent at once (never kept for later: the board shows the card the service made).
pub async fn card_create(session: &impl Session, args: CardCreateInput) -> IpcResult<CardSummary> {
    args.check()?;
    space_named(args.space_id.clone())?;
    let client = session.client().await?;
    let req = args.request(&contentdesk_ops::Cx::new(client.clone())).await?;
    let (title, platform) = (req.title.clone(), req.platform.clone());
    // A create is never sent twice blindly: the cards of this title in the stage are read first, so that
    // when its answer is lost (timeout, dropped connection, a 5xx) a second read shows whether it landed.
    let query = api_types::CardQuery {
        space_id: req.space_id.clone(),
        stage: req.stage.clone(),
        search: Some(title.clone()),
        limit: Some(100),
        ..Default::default()
    };
    let same = |l: api_types::CardList| -> Vec<CardSummary> {
        l.cards.into_iter().filter(|c| c.title == title && c.platform.as_deref().is_none_or(|p| p == platform)).collect()
    };
    let before: Vec<String> = same(client.cards().list(&query).await?).into_iter().map(|c| c.id).collect();
    match client.cards().create(&req).await {
        Ok(card) => Ok(card),
        Err(e) if answer_lost(&e) => match client.cards().list(&query).await {
            Ok(list) => match same(list).into_iter().find(|c| !before.contains(&c.id)) {
                Some(card) => {
                    tracing::info!(card = %card.id, "create's answer was lost; the read shows it landed");
                    Ok(card)
                }
                None => {
                    let mut err = IpcError::from(e);
                    err.message = format!("{} The card was not created (checked); creating it again is safe.", err.message);
                    Err(err)
                }
            },
            Err(_) => {
                let mut err = IpcError::from(e);
                err.message = format!(
                    "{} The card may have been created: refresh the board and look for “{title}” before creating it again.",
                    err.message
                );
                Err(err)
            }
        },
        Err(e) => Err(e.into()),
    }
}

pub(crate) use crate::outbox::answer_lost;

/// The move's input and its rules are the catalogue's (`cdesk card move`, `move_card`): one type, one
/// [`CardMoveInput::check`].
pub async fn card_move(session: &impl WithOutbox, args: CardMoveInput) -> IpcResult<CardSummary> {
    args.check()?;
    let into_local = outbox::is_local(&args.stage);
    let update = UpdateCard { stage: Some(args.stage), before_card_id: args.before_card_id, ..Default::default() };
    let base = args.base_updated_at;
    if let Some(title) = args.title {
        outbox::saw_board_card(session, &args.card_id, base.clone(), title);
    }
    let client = session.client().await?;
    // A card with a kept offline change, or moved into a stage made offline: the move goes after it (the
    // outbox; sent once the stage is made).
    if into_local || outbox::has_kept_change(session, &args.card_id) {
        return Ok(outbox::keep_and_send(session, &args.card_id, update, base).await?.summary);
    }
    let card = client.cards().update(&args.card_id, &update).await.map_err(|e| {
        let e = IpcError::from(e);
        if outbox::is_unanswered(&e) { outbox::keep(session, &args.card_id, update.clone(), base.clone()) } else { e }
    })?;
    outbox::saw_summary(session, &card);
    Ok(card)
}

/// Nothing answered, or a 5xx after the client's retries (as for every other planner write): the change
/// is kept on this computer (the outbox) and the caller told `queued`; any other failure is answered as
/// it is.
fn kept_if_offline(session: &impl WithOutbox, card_id: &str, update: &UpdateCard, e: api_client::ApiError) -> IpcError {
    let e = IpcError::from(e);
    if outbox::is_unanswered(&e) {
        outbox::keep(session, card_id, update.clone(), None)
    } else {
        e
    }
}

pub async fn card_get(session: &impl WithOutbox, args: CardId) -> IpcResult<CardDetail> {
    let card = session.client().await?.cards().get(&args.card_id).await?;
    outbox::saw_card(session, &card);
    Ok(card)
}

/// Sends one PATCH and reads the card back. Whole `posts`/`assets` lists are checked against the
/// spec's 400 rules first (against the card as it is now, so re-adding a kept file is caught).
pub async fn card_update(session: &impl WithOutbox, args: CardUpdateArgs) -> IpcResult<CardDetail> {
    let client = session.client().await?;
    let update = args.update;
    if update.notes.is_some() && update.expected_revision.is_none() {
        return Err(IpcError::validation("expectedRevision", "Notes are saved with the revision they were edited from; reload the card and try again."));
    }
    // A card with a kept offline change: this edit is merged into it and sent after it (the outbox).
    if outbox::has_kept_change(session, &args.card_id) {
        return outbox::keep_and_send(session, &args.card_id, update, None).await;
    }
    let offline = |e: api_client::ApiError, update: &UpdateCard| kept_if_offline(session, &args.card_id, update, e);
    if update.posts.is_some() || update.assets.is_some() {
        let current = client.cards().get(&args.card_id).await.map_err(|e| offline(e, &update))?;
        let mut edit = CardEdit::from_card(&current);
        if let Some(assets) = &update.assets {
            edit.assets = assets.clone();
        }
        if let Some(posts) = &update.posts {
            edit.posts = posts.clone();
        }
        edit.validate()?;
    }
    client.cards().update(&args.card_id, &update).await.map_err(|e| offline(e, &update))?;
    let card = client.cards().get(&args.card_id).await?;
    outbox::saw_card(session, &card);
    Ok(card)
}

/// The catalogue's `ArchiveInput` (as `cdesk archive card` and `archive`) with `assetType: "card"`;
/// `off: true` restores. `baseUpdatedAt` and `title` are the app's only (the base a kept change is made on).
pub async fn card_archive(session: &impl WithOutbox, args: ArchiveInput) -> IpcResult<ArchiveResult> {
    let (card_id, archived) = archive_of(&args, "card")?;
    let op = outbox::Op::CardArchive { card_id: card_id.clone(), archived };
    let seen = outbox::seen_base(session, &card_id);
    let base = outbox::Base { updated_at: args.base_updated_at.or(seen.updated_at), subject: args.title.or(seen.subject), ..Default::default() };
    send_or_keep(session, op, base, |c| async move { archive(&c, "card", card_id, archived).await }).await
}

pub async fn tags_list(session: &impl Session) -> IpcResult<Vec<Tag>> {
    Ok(session.client().await?.tags().list().await?)
}

pub async fn connected_accounts_list(session: &impl Session) -> IpcResult<Vec<ConnectedAccount>> {
    Ok(session.client().await?.connected_accounts().list().await?)
}

/// The catalogue's duplicate (`contentdesk_ops::planner::duplicate_card`): one rule for every face.
pub async fn card_duplicate(session: &impl Session, args: CardId) -> IpcResult<CardSummary> {
    let client = session.client().await?;
    Ok(contentdesk_ops::planner::duplicate_card(&client, &args.card_id).await?)
}

/// The catalogue's repeat (`contentdesk_ops::planner::repeat_card`) and its rules
/// (`CardRepeatInput::times`), checked before anything is made.
pub async fn card_repeat(session: &impl Session, args: contentdesk_ops::planner::CardRepeatInput) -> IpcResult<Vec<CardSummary>> {
    let client = session.client().await?;
    Ok(contentdesk_ops::planner::repeat_card(&client, &args).await?)
}

fn queue_file(session: &impl Session) -> contentdesk_ops::planner::QueueFile {
    contentdesk_ops::planner::QueueFile::in_dir(session.data_dir())
}

/// The selected profile's posting queue (`queue-slots.json`, by profile id).
pub async fn queue_slots_get(session: &impl Session) -> IpcResult<contentdesk_ops::planner::QueueSettings> {
    let id = session.profile_id()?;
    Ok(queue_file(session).get(&id)?)
}

/// Replaces the selected profile's posting queue (its rules checked first).
pub async fn queue_slots_set(session: &impl Session, args: contentdesk_ops::planner::QueueSettings) -> IpcResult<contentdesk_ops::planner::QueueSettings> {
    let id = session.profile_id()?;
    Ok(queue_file(session).set(&id, args)?)
}

/// The catalogue's "add to queue" (`contentdesk_ops::planner::queue_card`) with the selected profile's slots.
pub async fn card_queue(session: &impl Session, args: CardId) -> IpcResult<contentdesk_ops::planner::Queued> {
    let id = session.profile_id()?;
    let settings = queue_file(session).get(&id)?;
    let client = session.client().await?;
    Ok(contentdesk_ops::planner::queue_card(&client, &settings, &args.card_id, time::OffsetDateTime::now_utc()).await?)
}
