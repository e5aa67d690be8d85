//! Kept card changes (docs/ipc.md, "Offline drafts"): a card edit or move that the service did not answer
//! is kept in the outbox on this computer and sent when the service answers again.
//!
//! A kept card change ([`CardChange`], in the profile's `cards` of `outbox.json`) is a card id, the
//! `UpdateCard` to send (a later offline edit of the same card is merged in: later fields win, whole
//! `posts`/`assets` lists replace), the card's `updatedAt` and notes revision it was edited from, and when
//! it was saved. It holds card content only, never a key.
//!
//! Before a kept change is sent its card is read: when its `updatedAt` differs from the change's base the
//! card changed elsewhere meanwhile, and the change stays as a conflict until the user keeps theirs or
//! mine ([`Resolution`]; on the wire `drafts_resolve` with `discardMine` / `sendMine`). A notes 409 is a
//! conflict too.
use api_types::{CardDetail, UpdateCard};
use serde::{Deserialize, Serialize};
use std::time::Duration;
use ts_rs::TS;

use super::planner::{self, KeptChange, KeptKind};
use super::{now_ms, with_profile, Kept, Resolution, WithOutbox};
use crate::error::{IpcCode, IpcError, IpcResult};

// --- the commands' types

/// One card whose kept change could not be sent because the card changed elsewhere (or the service
/// refused it): the user sends it anyway or discards it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct DraftConflict {
    pub card_id: String,
    #[ts(optional)]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub title: Option<String>,
    /// The fields of the kept change (camelCase names of `UpdateCard`).
    pub fields: Vec<String>,
    /// The card's `updatedAt` on the service now.
    #[ts(optional)]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub theirs_updated_at: Option<String>,
    /// Why it was not sent, when it is not "changed elsewhere" (gone, refused by the service).
    #[ts(optional)]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub problem: Option<String>,
    /// When the change was kept, Unix milliseconds.
    pub saved_at: f64,
}

/// The selected profile's outbox.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct DraftsStatus {
    /// Changes kept on this computer, waiting for the service (conflicts not counted).
    pub waiting: u32,
    /// The cards of the waiting changes.
    pub card_ids: Vec<String>,
    pub conflicts: Vec<DraftConflict>,
    /// Every kept change (card edits and moves, planner writes), in the order they are sent, each with
    /// what it does (the "changes waiting" list).
    pub changes: Vec<KeptChange>,
    /// Changes sent by this call (`drafts_sync`, `drafts_resolve`); 0 from `drafts_status`.
    pub sent: u32,
    /// `drafts_sync`: the service still did not answer.
    pub offline: bool,
    /// Stages and spaces made offline whose creates were sent (while this core runs): local id → the id
    /// the service gave. The UI swaps the local id where it still shows or remembers it.
    #[ts(optional)]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub made: Option<std::collections::BTreeMap<String, String>>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub enum DraftAction {
    SendMine,
    DiscardMine,
}

#[derive(Debug, Clone, Deserialize, Serialize, TS)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct DraftsResolveArgs {
    pub card_id: String,
    pub action: DraftAction,
}

/// `drafts_change_resolve`: one kept change of the list by its id (a card change's id is its card id).
#[derive(Debug, Clone, Deserialize, Serialize, TS)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct DraftsChangeArgs {
    pub id: String,
    pub action: DraftAction,
}

impl DraftAction {
    /// The outbox's one word for it.
    pub fn resolution(self) -> Resolution {
        match self {
            DraftAction::SendMine => Resolution::KeepMine,
            DraftAction::DiscardMine => Resolution::TakeTheirs,
        }
    }
}

// --- a kept card change, as the outbox file holds it

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub(crate) struct CardChange {
    pub(super) card_id: String,
    update: UpdateCard,
    /// The card's `updatedAt` the change was made from; `None`: unknown (sent without the check).
    #[serde(default)]
    base_updated_at: Option<String>,
    /// The notes revision the change was made from.
    #[serde(default)]
    base_revision: Option<i64>,
    /// Unix milliseconds of the last change kept.
    saved_at: f64,
    /// Bumped at every merge, so a sync does not drop a change kept while it was sending.
    #[serde(default)]
    seq: u64,
    #[serde(default)]
    title: Option<String>,
    #[serde(default)]
    conflict: Option<Conflict>,
}

impl CardChange {
    pub(super) fn waiting(&self) -> bool {
        self.conflict.is_none()
    }

    /// A stage or space made offline will never be made (its create was dropped): the change no longer
    /// moves the card there.
    pub(super) fn forget_place(&mut self, local_id: &str) {
        if self.update.stage.as_deref() == Some(local_id) || self.update.space_id.as_deref() == Some(local_id) {
            self.update.stage = None;
            self.update.space_id = None;
            self.update.before_card_id = None;
            self.update.board_order = None;
        }
    }

    /// A kept planner change of this card (its archive) was sent: a change made on the same base is now
    /// on top of it.
    pub(super) fn rebase_after(&mut self, card_id: &str, old: Option<&str>, new: &str) {
        if self.card_id == card_id && self.base_updated_at.as_deref() == old {
            self.base_updated_at = Some(new.to_string());
        }
    }

    pub(super) fn is_empty(&self) -> bool {
        fields(&self.update).is_empty()
    }

    fn view(&self) -> KeptChange {
        let fields = fields(&self.update);
        let moves = !fields.is_empty() && fields.iter().all(|f| matches!(f.as_str(), "stage" | "spaceId" | "boardOrder"));
        KeptChange {
            id: self.card_id.clone(),
            kind: if moves { KeptKind::CardMove } else { KeptKind::CardEdit },
            subject: self.title.clone(),
            name: None,
            color: None,
            fields,
            theirs: self.conflict.as_ref().and_then(|c| c.theirs_updated_at.clone()),
            problem: self.conflict.as_ref().and_then(|c| c.problem.clone()),
            conflict: self.conflict.is_some(),
            saved_at: self.saved_at,
        }
    }
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
struct Conflict {
    #[serde(default)]
    theirs_updated_at: Option<String>,
    #[serde(default)]
    problem: Option<String>,
}

/// Runs `f` over the kept card changes of one profile and saves the outbox when `f` says it changed.
fn with_cards<T>(session: &impl WithOutbox, profile: &str, f: impl FnOnce(&mut Vec<CardChange>) -> (T, bool)) -> IpcResult<T> {
    with_profile(session, profile, |kept| f(&mut kept.cards))
}

fn changes_of(session: &impl WithOutbox, profile: &str) -> IpcResult<Vec<CardChange>> {
    with_cards(session, profile, |d| (d.clone(), false))
}

// --- what the core last saw of each card (the base of an offline edit when the caller gives none)

#[derive(Clone)]
pub(super) struct Seen {
    updated_at: Option<String>,
    revision: Option<i64>,
    title: String,
}

/// Notes a card as read from the service (`card_get`, `card_update`'s read back), for the selected profile.
pub(crate) fn saw_card(session: &impl WithOutbox, card: &CardDetail) {
    let Ok(profile) = session.profile_id() else { return };
    let s = Seen {
        updated_at: card.summary.updated_at.clone(),
        revision: Some(card.revision),
        title: card.summary.title.clone(),
    };
    session.outbox().seen.lock().unwrap_or_else(|e| e.into_inner()).insert((profile, card.summary.id.clone()), s);
}

/// Notes a card summary as read from the service (`card_move`'s answer), for the selected profile.
pub(crate) fn saw_summary(session: &impl WithOutbox, card: &api_types::CardSummary) {
    let Ok(profile) = session.profile_id() else { return };
    let mut map = session.outbox().seen.lock().unwrap_or_else(|e| e.into_inner());
    let key = (profile, card.id.clone());
    let revision = map.get(&key).and_then(|s| s.revision);
    map.insert(key, Seen { updated_at: card.updated_at.clone(), revision, title: card.title.clone() });
}

/// What the core last read of a card (its `updatedAt`, its title), for the selected profile.
pub(crate) fn seen_card(session: &impl WithOutbox, card_id: &str) -> Option<(Option<String>, String)> {
    let profile = session.profile_id().ok()?;
    seen_of(session, &profile, card_id).map(|s| (s.updated_at, s.title))
}

/// Notes a card as the board has it (its summary's `updatedAt` and title), unless the core read it itself.
pub(crate) fn saw_board_card(session: &impl WithOutbox, card_id: &str, updated_at: Option<String>, title: String) {
    let Ok(profile) = session.profile_id() else { return };
    let mut map = session.outbox().seen.lock().unwrap_or_else(|e| e.into_inner());
    map.entry((profile, card_id.to_string())).or_insert(Seen { updated_at, revision: None, title });
}

fn seen_of(session: &impl WithOutbox, profile: &str, card_id: &str) -> Option<Seen> {
    let map = session.outbox().seen.lock().unwrap_or_else(|e| e.into_inner());
    map.get(&(profile.to_string(), card_id.to_string())).cloned()
}

// --- merging

/// `later` on top of `earlier`: later fields win; a later move replaces the whole placement.
fn merge(earlier: &mut UpdateCard, later: UpdateCard) {
    macro_rules! take {
        ($($f:ident),*) => {$( if later.$f.is_some() { earlier.$f = later.$f; } )*};
    }
    if later.stage.is_some() || later.space_id.is_some() || later.before_card_id.is_some() || later.board_order.is_some() {
        earlier.before_card_id = later.before_card_id.clone();
        earlier.board_order = later.board_order;
    }
    take!(
        title, platform, stage, space_id, is_favorite, cover_url, cover_output_id, cover_position, content_type,
        tags, scheduled_at, metadata, posts, assets
    );
    if later.notes.is_some() {
        earlier.notes = later.notes;
        // The revision the notes were first edited from stays: it is the one the service must still have.
        if earlier.expected_revision.is_none() {
            earlier.expected_revision = later.expected_revision;
        }
    }
}

/// The camelCase names of the fields an update sets.
fn fields(u: &UpdateCard) -> Vec<String> {
    match serde_json::to_value(u) {
        Ok(serde_json::Value::Object(m)) => {
            m.keys().filter(|k| *k != "expectedRevision" && *k != "beforeCardId").cloned().collect()
        }
        _ => Vec::new(),
    }
}

// --- keeping a change

fn waiting_text(n: usize) -> String {
    if n == 1 { "1 change waiting".to_string() } else { format!("{n} changes waiting") }
}

/// The `queued` answer: the change is kept here and will be sent when the service answers.
pub fn queued_error(waiting: usize) -> IpcError {
    IpcError::new(
        IpcCode::Queued,
        format!(
            "The service cannot be reached, so your change is kept on this computer and will be sent when the \
             service answers ({}).",
            waiting_text(waiting)
        ),
    )
}

/// Keeps `update` of `card_id` in the selected profile's outbox (merged into the card's kept change when
/// it has one) and answers the `queued` error to return. `base_updated_at`: the card's `updatedAt` the
/// change was made from (else what the core last read of it).
pub(crate) fn keep(session: &impl WithOutbox, card_id: &str, update: UpdateCard, base_updated_at: Option<String>) -> IpcError {
    match keep_inner(session, card_id, update, base_updated_at) {
        Ok(n) => queued_error(n),
        Err(e) => e,
    }
}

fn keep_inner(session: &impl WithOutbox, card_id: &str, update: UpdateCard, base_updated_at: Option<String>) -> IpcResult<usize> {
    let profile = session.profile_id()?;
    let seen = seen_of(session, &profile, card_id);
    let base_updated_at = base_updated_at.or_else(|| seen.as_ref().and_then(|s| s.updated_at.clone()));
    let base_revision = update.expected_revision.or_else(|| seen.as_ref().and_then(|s| s.revision));
    let title = update.title.clone().or_else(|| seen.map(|s| s.title));
    with_cards(session, &profile, |changes| {
        match changes.iter_mut().find(|d| d.card_id == card_id) {
            Some(d) => {
                merge(&mut d.update, update);
                d.saved_at = now_ms();
                d.seq += 1;
                if title.is_some() {
                    d.title = title;
                }
                if d.base_updated_at.is_none() {
                    d.base_updated_at = base_updated_at;
                }
                if d.base_revision.is_none() {
                    d.base_revision = base_revision;
                }
            }
            None => changes.push(CardChange {
                card_id: card_id.to_string(),
                update,
                base_updated_at,
                base_revision,
                saved_at: now_ms(),
                seq: 0,
                title,
                conflict: None,
            }),
        }
        ((), true)
    })?;
    with_profile(session, &profile, |kept| (planner::waiting_in(kept), false))
}

/// Whether the selected profile has a kept change for this card (a new edit then goes through it, so
/// the two are sent in order).
pub(crate) fn has_kept_change(session: &impl WithOutbox, card_id: &str) -> bool {
    session.profile_id()
        .and_then(|p| changes_of(session, &p))
        .map(|d| d.iter().any(|d| d.card_id == card_id))
        .unwrap_or(false)
}

// --- sending

enum Outcome {
    Sent(Box<CardDetail>),
    /// Nothing answered: the change waits.
    Offline,
    /// Kept as a conflict.
    Conflict,
    /// It moves the card to a stage or space made offline whose create was not sent yet: it waits.
    Blocked,
    /// Another error (a key problem, ...): the change waits, the error is answered.
    Failed(IpcError),
}

/// Nothing answered, or the service failed (a 5xx after the client's retries): the change waits, as a
/// planner write does (`planner::is_unanswered`).
fn is_network(e: &IpcError) -> bool {
    planner::is_unanswered(e)
}

/// Sends one change of `profile` (its current state in the file). `force`: without the `updatedAt` check,
/// and notes over the current revision (`sendMine`).
async fn send_one(session: &impl WithOutbox, profile: &str, card_id: &str, force: bool) -> IpcResult<Outcome> {
    let Some(change) = changes_of(session, profile)?.into_iter().find(|d| d.card_id == card_id) else {
        return Err(IpcError::new(IpcCode::NotFound, "That change is no longer waiting: it was sent or discarded."));
    };
    if change.conflict.is_some() && !force {
        return Ok(Outcome::Conflict);
    }
    // A stage or space made offline is sent under the id the service gave it.
    let ids = with_profile(session, profile, |k| (k.ids.clone(), false))?;
    let mut update = change.update.clone();
    for id in [&mut update.stage, &mut update.space_id] {
        if let Some(local) = id.as_deref().filter(|i| planner::is_local(i)) {
            match planner::real(&ids, local) {
                Some(real) => *id = Some(real),
                None => return Ok(Outcome::Blocked),
            }
        }
    }
    let client = session.client_for(profile).await?;
    let current = match client.cards().get(card_id).await {
        Ok(c) => c,
        Err(e) => {
            let e = IpcError::from(e);
            if is_network(&e) {
                return Ok(Outcome::Offline);
            }
            if e.code == IpcCode::NotFound {
                mark_conflict(session, profile, card_id, None, Some("The card was deleted elsewhere.".into()))?;
                return Ok(Outcome::Conflict);
            }
            return Ok(Outcome::Failed(e));
        }
    };
    let theirs = current.summary.updated_at.clone();
    if !force && change.base_updated_at.is_some() && change.base_updated_at != theirs {
        if landed(&current, &update) {
            // An earlier send whose answer was a 5xx (or lost) landed: done, not a change made elsewhere.
            tracing::info!(card = %card_id, "a kept card change had landed before its answer failed; not sent again");
            settle(session, profile, card_id, change.seq, theirs)?;
            saw_card(session, &current);
            return Ok(Outcome::Sent(Box::new(current)));
        }
        mark_conflict(session, profile, card_id, theirs, None)?;
        return Ok(Outcome::Conflict);
    }
    if update.notes.is_some() {
        update.expected_revision = if force { Some(current.revision) } else { update.expected_revision.or(change.base_revision) };
    }
    match client.cards().update(card_id, &update).await {
        Ok(_) => {}
        Err(e) => {
            let e = IpcError::from(e);
            if is_network(&e) {
                return Ok(Outcome::Offline);
            }
            return match e.code {
                IpcCode::NotesConflict | IpcCode::Conflict => {
                    mark_conflict(session, profile, card_id, theirs, None)?;
                    Ok(Outcome::Conflict)
                }
                IpcCode::Validation | IpcCode::NotFound => {
                    mark_conflict(session, profile, card_id, theirs, Some(format!("The service refused it: {}", e.message)))?;
                    Ok(Outcome::Conflict)
                }
                _ => Ok(Outcome::Failed(e)),
            };
        }
    }
    // Sent: drop the change, unless a change was kept meanwhile (then it waits on top of what landed).
    let card = client.cards().get(card_id).await.ok();
    settle(session, profile, card_id, change.seq, card.as_ref().and_then(|c| c.summary.updated_at.clone()))?;
    match card {
        Some(c) => {
            saw_card(session, &c);
            Ok(Outcome::Sent(Box::new(c)))
        }
        None => {
            let c = client.cards().get(card_id).await?;
            saw_card(session, &c);
            Ok(Outcome::Sent(Box::new(c)))
        }
    }
}

/// A change that is on the service now: dropped, unless a change was kept meanwhile (`seq` moved on: it
/// then waits on top of what landed, `new_base`).
fn settle(session: &impl WithOutbox, profile: &str, card_id: &str, seq: u64, new_base: Option<String>) -> IpcResult<()> {
    with_cards(session, profile, |changes| {
        let Some(i) = changes.iter().position(|d| d.card_id == card_id) else { return ((), false) };
        if changes[i].seq == seq {
            changes.remove(i);
        } else {
            changes[i].base_updated_at = new_base.clone();
            changes[i].conflict = None;
        }
        ((), true)
    })
}

/// Whether the card already holds every field of `u`: a PATCH kept after a 5xx may have landed (its answer
/// failed, not its write), and the card's `updatedAt` then differs from the change's base although nobody
/// else changed it. Only fields that read back as they were sent are compared (title, platform, stage,
/// space, favourite, content type, time, notes); a change naming any other (posts, assets, cover, tags,
/// order, ...) is never judged landed, and stays a conflict for the user to settle.
fn landed(card: &CardDetail, u: &UpdateCard) -> bool {
    const COMPARED: [&str; 8] = ["title", "platform", "stage", "spaceId", "isFavorite", "contentType", "scheduledAt", "notes"];
    let names = fields(u);
    if names.is_empty() || names.iter().any(|f| !COMPARED.contains(&f.as_str())) {
        return false;
    }
    let at = |t: &str| time::OffsetDateTime::parse(t, &time::format_description::well_known::Rfc3339).ok();
    let s = &card.summary;
    let same_time = match (&u.scheduled_at, &s.scheduled_at) {
        (None, _) | (Some(None), None) => true,
        (Some(Some(a)), Some(b)) => at(a).is_some() && at(a) == at(b),
        _ => false,
    };
    same_time
        && u.title.as_ref().is_none_or(|t| *t == s.title)
        && u.platform.as_ref().is_none_or(|p| s.platform.as_ref() == Some(p))
        && u.stage.as_ref().is_none_or(|x| s.stage_id.as_ref() == Some(x))
        && u.space_id.as_ref().is_none_or(|x| s.space_id.as_ref() == Some(x))
        && u.is_favorite.is_none_or(|f| f == s.is_favorite)
        && u.content_type.as_ref().is_none_or(|c| s.content_type.as_ref() == Some(c))
        && u.notes.as_ref().is_none_or(|n| card.notes.as_ref() == Some(n))
}

fn mark_conflict(session: &impl WithOutbox, profile: &str, card_id: &str, theirs: Option<String>, problem: Option<String>) -> IpcResult<()> {
    with_cards(session, profile, |changes| {
        if let Some(d) = changes.iter_mut().find(|d| d.card_id == card_id) {
            d.conflict = Some(Conflict { theirs_updated_at: theirs, problem });
        }
        ((), true)
    })
}

/// `card_update`/`card_move` on a card that has a kept change: merges the new edit into it and tries to
/// send the whole. Sent → the card; nothing answered → `queued`; changed elsewhere → `conflict`.
pub(crate) async fn keep_and_send(
    session: &impl WithOutbox,
    card_id: &str,
    update: UpdateCard,
    base_updated_at: Option<String>,
) -> IpcResult<CardDetail> {
    keep_inner(session, card_id, update, base_updated_at)?;
    let profile = session.profile_id()?;
    let _sync = session.outbox().sync.lock().await;
    match send_one(session, &profile, card_id, false).await? {
        Outcome::Sent(card) => Ok(*card),
        Outcome::Offline | Outcome::Blocked => Err(queued_error(waiting_count(session, &profile)?)),
        Outcome::Conflict => Err(IpcError::new(
            IpcCode::Conflict,
            "This card changed elsewhere while your earlier change was waiting. Nothing was sent; your changes are \
             kept: choose “Keep mine” or “Take theirs” in the waiting changes.",
        )),
        Outcome::Failed(e) => Err(e),
    }
}

fn waiting_count(session: &impl WithOutbox, profile: &str) -> IpcResult<usize> {
    with_profile(session, profile, |k| (planner::waiting_in(k), false))
}

/// The profile's status now.
fn status(session: &impl WithOutbox, profile: &str, sent: u32, offline: bool) -> IpcResult<DraftsStatus> {
    let mut s = with_profile(session, profile, |k| (status_of(k, sent, offline), false))?;
    s.made = Some(super::made_of(session, profile)).filter(|m| !m.is_empty());
    Ok(s)
}

fn status_of(kept: &Kept, sent: u32, offline: bool) -> DraftsStatus {
    let changes = &kept.cards;
    let waiting: Vec<&CardChange> = changes.iter().filter(|d| d.conflict.is_none()).collect();
    // In the order they are sent: the planner's first (a card may move into a stage made offline).
    let mut all: Vec<KeptChange> = kept.planner.iter().map(|c| c.view()).collect();
    all.extend(changes.iter().map(|c| c.view()));
    DraftsStatus {
        waiting: planner::waiting_in(kept) as u32,
        changes: all,
        card_ids: waiting.iter().map(|d| d.card_id.clone()).collect(),
        conflicts: changes
            .iter()
            .filter_map(|d| {
                d.conflict.as_ref().map(|c| DraftConflict {
                    card_id: d.card_id.clone(),
                    title: d.title.clone(),
                    fields: fields(&d.update),
                    theirs_updated_at: c.theirs_updated_at.clone(),
                    problem: c.problem.clone(),
                    saved_at: d.saved_at,
                })
            })
            .collect(),
        sent,
        offline,
        made: None,
    }
}

// --- the commands

/// The selected profile's kept changes. No profile selected: nothing waits.
pub async fn drafts_status(session: &impl WithOutbox) -> IpcResult<DraftsStatus> {
    let Some(profile) = session.selected_profile() else { return Ok(status_of(&Kept::default(), 0, false)) };
    status(session, &profile, 0, false)
}

/// Tries every waiting change of the selected profile now: the planner writes in the order they were
/// made, then the card changes, oldest first. Stops at the first network failure (the rest would fail
/// alike); a change in conflict or refused blocks only the changes that depend on it.
pub async fn drafts_sync(session: &impl WithOutbox) -> IpcResult<DraftsStatus> {
    let Some(profile) = session.selected_profile() else { return Ok(status_of(&Kept::default(), 0, false)) };
    let _sync = session.outbox().sync.lock().await;
    let (planner_sent, planner_offline, planner_failure) = planner::send_all(session, &profile).await?;
    if planner_offline {
        return status(session, &profile, planner_sent, true);
    }
    let mut pending: Vec<CardChange> =
        changes_of(session, &profile)?.into_iter().filter(|d| d.conflict.is_none()).collect();
    pending.sort_by(|a, b| a.saved_at.total_cmp(&b.saved_at));
    let (mut sent, mut offline) = (planner_sent, false);
    let mut failure = planner_failure;
    for d in pending {
        match send_one(session, &profile, &d.card_id, false).await {
            Ok(Outcome::Sent(_)) => sent += 1,
            Ok(Outcome::Conflict | Outcome::Blocked) => {}
            Ok(Outcome::Offline) => {
                offline = true;
                break;
            }
            Ok(Outcome::Failed(e)) | Err(e) => {
                failure.get_or_insert(e);
                break;
            }
        }
    }
    if let Some(e) = failure {
        if sent == 0 {
            return Err(e);
        }
        tracing::warn!(error = %e.message, "a kept change could not be sent");
    }
    status(session, &profile, sent, offline)
}

/// A change in conflict (or any kept change): send it anyway over what the service has now (keep mine), or
/// drop it (take theirs).
pub async fn drafts_resolve(session: &impl WithOutbox, args: DraftsResolveArgs) -> IpcResult<DraftsStatus> {
    let profile = session.profile_id()?;
    let _sync = session.outbox().sync.lock().await;
    match args.action.resolution() {
        Resolution::TakeTheirs => {
            let found = with_cards(session, &profile, |changes| {
                let before = changes.len();
                changes.retain(|d| d.card_id != args.card_id);
                let found = changes.len() != before;
                (found, found)
            })?;
            if !found {
                return Err(IpcError::new(IpcCode::NotFound, "That change is no longer waiting: it was sent or discarded."));
            }
            status(session, &profile, 0, false)
        }
        Resolution::KeepMine => match send_one(session, &profile, &args.card_id, true).await? {
            Outcome::Sent(_) => status(session, &profile, 1, false),
            Outcome::Blocked => Err(IpcError::new(
                IpcCode::Conflict,
                "This change moves the card to a stage or space made offline that is not on the service yet: settle that change first.",
            )),
            Outcome::Offline => {
                // It waits again, rebased: sent as is when the service answers.
                with_cards(session, &profile, |changes| {
                    if let Some(d) = changes.iter_mut().find(|d| d.card_id == args.card_id) {
                        d.conflict = None;
                        d.base_updated_at = None;
                    }
                    ((), true)
                })?;
                Err(queued_error(waiting_count(session, &profile)?))
            }
            Outcome::Conflict => {
                let d = changes_of(session, &profile)?;
                let problem = d.iter().find(|d| d.card_id == args.card_id).and_then(|d| d.conflict.clone()).and_then(|c| c.problem);
                Err(IpcError::new(IpcCode::Conflict, problem.unwrap_or_else(|| "The card changed again; try once more.".into())))
            }
            Outcome::Failed(e) => Err(e),
        },
    }
}

/// One kept change of the list, by its id: a planner write's (take theirs drops it, with what names the
/// stage or space it would have made; keep mine sends it over what the service has now), or a card's
/// (its card id: as `drafts_resolve`).
pub async fn drafts_change_resolve(session: &impl WithOutbox, args: DraftsChangeArgs) -> IpcResult<DraftsStatus> {
    let profile = session.profile_id()?;
    {
        let _sync = session.outbox().sync.lock().await;
        if let Some(sent) = planner::resolve(session, &profile, &args.id, args.action.resolution()).await? {
            return status(session, &profile, sent, false);
        }
    }
    drafts_resolve(session, DraftsResolveArgs { card_id: args.id, action: args.action }).await
}

/// Tries to send the selected profile's waiting changes right away and then every `every` while some
/// wait. Started by the desktop and web-shell mains (never when the core starts, so tests choose).
pub fn spawn_sync_loop(session: impl WithOutbox, every: Duration) -> tokio::task::JoinHandle<()> {
    tokio::spawn(async move {
        loop {
            let waiting = drafts_status(&session).await.map(|s| s.waiting).unwrap_or(0);
            if waiting > 0 {
                match drafts_sync(&session).await {
                    Ok(s) if s.sent > 0 => tracing::info!(sent = s.sent, waiting = s.waiting, "kept changes sent"),
                    Ok(_) => {}
                    Err(e) => tracing::debug!(error = %e.message, "kept changes not sent yet"),
                }
            }
            tokio::time::sleep(every).await;
        }
    })
}
