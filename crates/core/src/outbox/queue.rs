//! The queue and its commands: every kept change of a profile, sent in the order it was kept
//! (`drafts_sync`, and the app's sync task), shown (`drafts_status`), and settled by the user one by one
//! (`drafts_resolve`: take theirs drops it, keep mine sends it over what the service has now).
//!
//! A change that meets no answer stops the round (the rest would fail alike) and waits; one in conflict
//! or refused stays, and blocks only the later changes that name the same thing (or what it would have
//! made); one that names a stage or space made offline whose create was not sent yet waits for it (a
//! round goes over such changes again once something was sent).
use api_types::CardDetail;
use serde::{Deserialize, Serialize};
use std::collections::{BTreeMap, HashSet};
use std::time::Duration;
use ts_rs::TS;

use super::keep::{keep_card, queued_error, waiting_in};
use super::{is_local, made_of, with_profile, Conflict, Kept, Op, Resolution, WithOutbox};
use crate::error::{IpcCode, IpcError, IpcResult};

/// The selected profile's outbox.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct DraftsStatus {
    /// Changes kept on this computer, waiting for the service (conflicts not counted).
    pub waiting: u32,
    /// The cards with a waiting edit or move.
    pub card_ids: Vec<String>,
    /// Every kept change, in the order they are sent, each with what it does (the "changes waiting"
    /// list; the ones in conflict have `conflict`).
    pub changes: Vec<super::KeptChange>,
    /// Changes sent by this call (`drafts_sync`, `drafts_resolve`); 0 from `drafts_status`.
    pub sent: u32,
    /// `drafts_sync`: the service still did not answer.
    pub offline: bool,
    /// Stages and spaces made offline whose creates were sent (while this core runs): local id → the id
    /// the service gave. The UI swaps the local id where it still shows or remembers it.
    #[ts(optional)]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub made: Option<BTreeMap<String, String>>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub enum DraftAction {
    SendMine,
    DiscardMine,
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

/// `drafts_resolve`: one kept change of the list, by its id.
#[derive(Debug, Clone, Deserialize, Serialize, TS)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct DraftsResolveArgs {
    pub id: String,
    pub action: DraftAction,
}

// --- sending

pub(super) enum Delivery {
    /// Sent (a card edit: the card as it is now).
    Sent(Option<Box<CardDetail>>),
    /// Nothing answered: the change waits.
    Offline,
    /// Kept as a conflict.
    Conflict,
    /// Names something made offline whose create was not sent: it waits.
    Blocked,
    /// Another error (a key problem, ...): the change waits, the error is answered.
    Failed(IpcError),
}

/// The real id of `id` (a local id once its create was sent), or `None` while its create waits.
pub(super) fn real(ids: &BTreeMap<String, String>, id: &str) -> Option<String> {
    if is_local(id) { ids.get(id).cloned() } else { Some(id.to_string()) }
}

/// Keeps a change as a conflict.
pub(super) fn mark_conflict(session: &impl WithOutbox, profile: &str, id: &str, conflict: Conflict) -> IpcResult<()> {
    with_profile(session, profile, |k| match k.changes.iter_mut().find(|c| c.id == id) {
        Some(c) => {
            c.conflict = Some(conflict);
            ((), true)
        }
        None => ((), false),
    })
}

const GONE: &str = "That change is no longer waiting: it was sent or discarded.";

/// Sends one kept change of `profile` (its current state in the file). `force`: without the base check
/// (keep mine).
async fn send_one(session: &impl WithOutbox, profile: &str, id: &str, force: bool) -> IpcResult<Delivery> {
    let (change, ids) = with_profile(session, profile, |k| ((k.changes.iter().find(|c| c.id == id).cloned(), k.ids.clone()), false))?;
    let Some(change) = change else { return Err(IpcError::new(IpcCode::NotFound, GONE)) };
    if change.conflict.is_some() && !force {
        return Ok(Delivery::Conflict);
    }
    match change.op {
        Op::CardUpdate { .. } => super::send_card::send_card(session, profile, &change, &ids, force).await,
        _ => super::send_op::send_op(session, profile, &change, &ids, force).await,
    }
}

/// Sends every waiting change of `profile`, in order: `(sent, offline, the first failure)`.
async fn send_all(session: &impl WithOutbox, profile: &str) -> IpcResult<(u32, bool, Option<IpcError>)> {
    let (mut sent, mut failure) = (0u32, None);
    loop {
        let changes = with_profile(session, profile, |k| (k.changes.clone(), false))?;
        let mut blocked: HashSet<String> = HashSet::new();
        let (mut sent_now, mut waiting_for_made) = (0u32, false);
        for change in changes {
            if change.conflict.is_some() || change.op.refs().iter().any(|r| blocked.contains(*r)) {
                blocked.insert(change.op.target().to_string());
                continue;
            }
            match send_one(session, profile, &change.id, false).await {
                Ok(Delivery::Sent(_)) => sent_now += 1,
                Ok(Delivery::Offline) => return Ok((sent + sent_now, true, failure)),
                Ok(Delivery::Blocked) => {
                    waiting_for_made = true;
                    blocked.insert(change.op.target().to_string());
                }
                Ok(Delivery::Conflict) => {
                    blocked.insert(change.op.target().to_string());
                }
                Ok(Delivery::Failed(e)) | Err(e) => {
                    blocked.insert(change.op.target().to_string());
                    failure.get_or_insert(e);
                }
            }
        }
        sent += sent_now;
        // A change that waited for something made earlier in this round goes now.
        if sent_now == 0 || !waiting_for_made {
            return Ok((sent, false, failure));
        }
    }
}

/// Take theirs (the change is dropped, with what names the stage or space it would have made) or keep
/// mine (sent over what the service has now).
async fn resolve(session: &impl WithOutbox, profile: &str, id: &str, r: Resolution) -> IpcResult<u32> {
    match r {
        Resolution::TakeTheirs => {
            let found = with_profile(session, profile, |k| {
                let Some(i) = k.changes.iter().position(|c| c.id == id) else { return (false, false) };
                let dropped = k.changes.remove(i);
                if let Op::StageCreate { local_id, .. } | Op::SpaceCreate { local_id, .. } = &dropped.op {
                    // What names the stage or space that will now never be made goes with it (a card's
                    // edit keeps its other fields).
                    let local = local_id.as_str();
                    k.changes.retain_mut(|c| if c.op.card_update().is_some() { c.forget_place(local) } else { !c.op.refs().contains(&local) });
                }
                (true, true)
            })?;
            if !found {
                return Err(IpcError::new(IpcCode::NotFound, GONE));
            }
            Ok(0)
        }
        Resolution::KeepMine => match send_one(session, profile, id, true).await? {
            Delivery::Sent(_) => Ok(1),
            Delivery::Offline => {
                // It waits again, without the check: sent as it is when the service answers.
                with_profile(session, profile, |k| {
                    if let Some(c) = k.changes.iter_mut().find(|c| c.id == id) {
                        c.conflict = None;
                        c.base_updated_at = None;
                        c.base_stage = None;
                    }
                    ((), true)
                })?;
                Err(queued_error(with_profile(session, profile, |k| (waiting_in(k), false))?))
            }
            Delivery::Blocked => Err(IpcError::new(
                IpcCode::Conflict,
                "This change names a stage or space made offline that is not on the service yet: settle that change first.",
            )),
            Delivery::Conflict => {
                let problem = with_profile(session, profile, |k| {
                    (k.changes.iter().find(|c| c.id == id).and_then(|c| c.conflict.clone()).and_then(|c| c.problem), false)
                })?;
                Err(IpcError::new(IpcCode::Conflict, problem.unwrap_or_else(|| "It changed again; try once more.".into())))
            }
            Delivery::Failed(e) => Err(e),
        },
    }
}

/// `card_update`/`card_move` on a card that has a kept change: merges the new edit into it and tries to
/// send the whole. Sent → the card; nothing answered → `queued`; changed elsewhere → `conflict`.
pub(crate) async fn keep_and_send(
    session: &impl WithOutbox,
    card_id: &str,
    update: api_types::UpdateCard,
    base_updated_at: Option<String>,
) -> IpcResult<CardDetail> {
    keep_card(session, card_id, update, base_updated_at)?;
    let profile = session.profile_id()?;
    let _sync = session.outbox().sync.lock().await;
    let id = with_profile(session, &profile, |k| (k.changes.iter().find(|c| c.op.card_update() == Some(card_id)).map(|c| c.id.clone()), false))?;
    let Some(id) = id else { return Err(IpcError::new(IpcCode::NotFound, GONE)) };
    match send_one(session, &profile, &id, false).await? {
        Delivery::Sent(Some(card)) => Ok(*card),
        Delivery::Sent(None) | Delivery::Offline | Delivery::Blocked => {
            Err(queued_error(with_profile(session, &profile, |k| (waiting_in(k), false))?))
        }
        Delivery::Conflict => Err(IpcError::new(
            IpcCode::Conflict,
            "This card changed elsewhere while your earlier change was waiting. Nothing was sent; your changes are \
             kept: choose “Keep mine” or “Take theirs” in the waiting changes.",
        )),
        Delivery::Failed(e) => Err(e),
    }
}

// --- the commands

fn status_of(kept: &Kept, sent: u32, offline: bool) -> DraftsStatus {
    DraftsStatus {
        waiting: waiting_in(kept) as u32,
        card_ids: kept.changes.iter().filter(|c| c.waiting()).filter_map(|c| c.op.card_update().map(str::to_string)).collect(),
        changes: kept.changes.iter().map(|c| c.view()).collect(),
        sent,
        offline,
        made: None,
    }
}

/// The profile's status now.
fn status(session: &impl WithOutbox, profile: &str, sent: u32, offline: bool) -> IpcResult<DraftsStatus> {
    let mut s = with_profile(session, profile, |k| (status_of(k, sent, offline), false))?;
    s.made = Some(made_of(session, profile)).filter(|m| !m.is_empty());
    Ok(s)
}

/// The selected profile's kept changes. No profile selected: nothing waits.
pub async fn drafts_status(session: &impl WithOutbox) -> IpcResult<DraftsStatus> {
    let Some(profile) = session.selected_profile() else { return Ok(status_of(&Kept::default(), 0, false)) };
    status(session, &profile, 0, false)
}

/// Tries every waiting change of the selected profile now, in the order they were kept. Stops at the
/// first network failure (the rest would fail alike); a change in conflict or refused blocks only the
/// changes that depend on it.
pub async fn drafts_sync(session: &impl WithOutbox) -> IpcResult<DraftsStatus> {
    let Some(profile) = session.selected_profile() else { return Ok(status_of(&Kept::default(), 0, false)) };
    let _sync = session.outbox().sync.lock().await;
    let (sent, offline, failure) = send_all(session, &profile).await?;
    if let Some(e) = failure {
        if sent == 0 {
            return Err(e);
        }
        tracing::warn!(error = %e.message, "a kept change could not be sent");
    }
    status(session, &profile, sent, offline)
}

/// One kept change of the list, by its id: take theirs (`discardMine`: dropped; a stage or space made
/// offline with the changes that name it) or keep mine (`sendMine`: sent over what the service has now).
pub async fn drafts_resolve(session: &impl WithOutbox, args: DraftsResolveArgs) -> IpcResult<DraftsStatus> {
    let profile = session.profile_id()?;
    let _sync = session.outbox().sync.lock().await;
    let sent = resolve(session, &profile, &args.id, args.action.resolution()).await?;
    status(session, &profile, sent, false)
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
