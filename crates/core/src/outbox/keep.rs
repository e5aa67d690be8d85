//! Keeping a change: a write the service did not answer goes to the end of the profile's one queue (a
//! card's edit or move is merged into the card's kept edit when it has one, where that one stands) and
//! the caller is answered `queued`.
use api_types::UpdateCard;

use super::{now_ms, seen_base, with_profile, Base, Change, Kept, Op, WithOutbox};
use crate::error::{IpcCode, IpcError, IpcResult};

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

/// Kept changes of a profile that wait to be sent (conflicts not counted).
pub(super) fn waiting_in(kept: &Kept) -> usize {
    kept.changes.iter().filter(|c| c.waiting()).count()
}

/// A failure after which a write is kept: nothing answered, or the service failed (5xx after the client's
/// retries). Anything else (refused, not found, a key problem) is answered as it is.
pub(crate) fn is_unanswered(e: &IpcError) -> bool {
    e.code == IpcCode::Network || (e.code == IpcCode::Server && e.status.is_some_and(|s| s >= 500))
}

/// Keeps `op` (made on `base`) at the end of the selected profile's queue and answers the `queued` error
/// to return. A card's edit or move goes through [`keep`] instead.
pub(crate) fn keep_op(session: &impl WithOutbox, op: Op, base: Base) -> IpcError {
    let kept = session.profile_id().and_then(|profile| {
        with_profile(session, &profile, |kept| {
            kept.changes.push(Change::new(op, base.updated_at, base.stage, base.subject));
            (waiting_in(kept), true)
        })
    });
    match kept {
        Ok(n) => queued_error(n),
        Err(e) => e,
    }
}

/// Whether a write must be kept rather than sent: it names something made offline, or an earlier kept
/// change waits for the same thing (it is sent after it, in order).
pub(crate) fn must_keep(session: &impl WithOutbox, op: &Op) -> IpcResult<bool> {
    let made = match op {
        Op::StageCreate { local_id, .. } | Op::SpaceCreate { local_id, .. } => Some(local_id.as_str()),
        _ => None,
    };
    if op.refs().iter().any(|r| super::is_local(r) && Some(*r) != made) {
        return Ok(true);
    }
    let profile = session.profile_id()?;
    let target = op.target().to_string();
    with_profile(session, &profile, |kept| (kept.changes.iter().any(|c| c.op.target() == target && c.op.card_update().is_none()), false))
}

/// Keeps `update` of `card_id` in the selected profile's queue (merged into the card's kept edit when it
/// has one) and answers the `queued` error to return. `base_updated_at`: the card's `updatedAt` the
/// change was made from (else what the core last read of it).
pub(crate) fn keep(session: &impl WithOutbox, card_id: &str, update: UpdateCard, base_updated_at: Option<String>) -> IpcError {
    match keep_card(session, card_id, update, base_updated_at) {
        Ok(n) => queued_error(n),
        Err(e) => e,
    }
}

/// As [`keep`]; answers how many changes wait.
pub(super) fn keep_card(session: &impl WithOutbox, card_id: &str, update: UpdateCard, base_updated_at: Option<String>) -> IpcResult<usize> {
    let profile = session.profile_id()?;
    let seen = seen_base(session, card_id);
    let base_updated_at = base_updated_at.or(seen.updated_at);
    let revision = update.expected_revision.or(seen.revision);
    let title = update.title.clone().or(seen.subject);
    with_profile(session, &profile, |kept| {
        let mine = kept.changes.iter_mut().find(|c| c.op.card_update() == Some(card_id));
        match mine {
            Some(Change { op: Op::CardUpdate { update: earlier, base_revision, seq, .. }, base_updated_at: base, subject, saved_at, .. }) => {
                merge(earlier, update);
                *saved_at = now_ms();
                *seq += 1;
                if title.is_some() {
                    *subject = title;
                }
                if base.is_none() {
                    *base = base_updated_at;
                }
                if base_revision.is_none() {
                    *base_revision = revision;
                }
            }
            _ => {
                let op = Op::CardUpdate { card_id: card_id.to_string(), update: Box::new(update), base_revision: revision, seq: 0 };
                kept.changes.push(Change::new(op, base_updated_at, None, title));
            }
        }
        (waiting_in(kept), true)
    })
}

/// Whether the selected profile has a kept edit or move of this card (a new edit then goes through it,
/// so the two are sent in order).
pub(crate) fn has_kept_change(session: &impl WithOutbox, card_id: &str) -> bool {
    session
        .profile_id()
        .and_then(|p| with_profile(session, &p, |k| (k.changes.iter().any(|c| c.op.card_update() == Some(card_id)), false)))
        .unwrap_or(false)
}

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
pub(super) fn fields(u: &UpdateCard) -> Vec<String> {
    match serde_json::to_value(u) {
        Ok(serde_json::Value::Object(m)) => m.keys().filter(|k| *k != "expectedRevision" && *k != "beforeCardId").cloned().collect(),
        _ => Vec::new(),
    }
}
