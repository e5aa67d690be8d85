//! Sending a kept card edit or move. The card is read first: when its `updatedAt` differs from the
//! change's base the card changed elsewhere meanwhile, and the change stays as a conflict until the user
//! keeps theirs or mine; a notes 409 is a conflict too. A change whose earlier send landed although its
//! answer failed (a 5xx) is recognised and not sent again.
use api_types::{CardDetail, UpdateCard};
use std::collections::BTreeMap;

use super::queue::{mark_conflict, real, Delivery};
use super::{is_local, keep::fields, keep::is_unanswered, saw_card, with_profile, Change, Conflict, Op, WithOutbox};
use crate::error::{IpcCode, IpcError, IpcResult};

/// Sends one kept card change. `force`: without the `updatedAt` check, and notes over the current
/// revision (keep mine).
pub(super) async fn send_card(
    session: &impl WithOutbox,
    profile: &str,
    change: &Change,
    ids: &BTreeMap<String, String>,
    force: bool,
) -> IpcResult<Delivery> {
    let Op::CardUpdate { card_id, update, base_revision, seq } = &change.op else { unreachable!("a card change") };
    let conflict = |theirs_updated_at: Option<String>, problem: Option<String>| {
        mark_conflict(session, profile, &change.id, Conflict { theirs: None, theirs_updated_at, problem }).map(|_| Delivery::Conflict)
    };
    // A stage or space made offline is sent under the id the service gave it.
    let mut update = UpdateCard::clone(update);
    for id in [&mut update.stage, &mut update.space_id] {
        if let Some(local) = id.as_deref().filter(|i| is_local(i)) {
            match real(ids, local) {
                Some(real) => *id = Some(real),
                None => return Ok(Delivery::Blocked),
            }
        }
    }
    let client = session.client_for(profile).await?;
    let current = match client.cards().get(card_id).await {
        Ok(c) => c,
        Err(e) => {
            let e = IpcError::from(e);
            if is_unanswered(&e) {
                return Ok(Delivery::Offline);
            }
            if e.code == IpcCode::NotFound {
                return conflict(None, Some("The card was deleted elsewhere.".into()));
            }
            return Ok(Delivery::Failed(e));
        }
    };
    let theirs = current.summary.updated_at.clone();
    if !force && change.base_updated_at.is_some() && change.base_updated_at != theirs {
        if landed(&current, &update) {
            // An earlier send whose answer was a 5xx (or lost) landed: done, not a change made elsewhere.
            tracing::info!(card = %card_id, "a kept card change had landed before its answer failed; not sent again");
            settle(session, profile, &change.id, *seq, theirs)?;
            saw_card(session, &current);
            return Ok(Delivery::Sent(Some(Box::new(current))));
        }
        return conflict(theirs, None);
    }
    if update.notes.is_some() {
        update.expected_revision = if force { Some(current.revision) } else { update.expected_revision.or(*base_revision) };
    }
    if let Err(e) = client.cards().update(card_id, &update).await {
        let e = IpcError::from(e);
        if is_unanswered(&e) {
            return Ok(Delivery::Offline);
        }
        return match e.code {
            IpcCode::NotesConflict | IpcCode::Conflict => conflict(theirs, None),
            IpcCode::Validation | IpcCode::NotFound => conflict(theirs, Some(format!("The service refused it: {}", e.message))),
            _ => Ok(Delivery::Failed(e)),
        };
    }
    // Sent: drop the change, unless a change was kept meanwhile (then it waits on top of what landed).
    let card = client.cards().get(card_id).await.ok();
    settle(session, profile, &change.id, *seq, card.as_ref().and_then(|c| c.summary.updated_at.clone()))?;
    let card = match card {
        Some(c) => c,
        None => client.cards().get(card_id).await?,
    };
    saw_card(session, &card);
    Ok(Delivery::Sent(Some(Box::new(card))))
}

/// A card change that is on the service now: dropped, unless a change was kept meanwhile (`seq` moved
/// on: it then waits on top of what landed, `new_base`).
fn settle(session: &impl WithOutbox, profile: &str, id: &str, sent_seq: u64, new_base: Option<String>) -> IpcResult<()> {
    with_profile(session, profile, |k| {
        let Some(i) = k.changes.iter().position(|c| c.id == id) else { return ((), false) };
        match &k.changes[i].op {
            Op::CardUpdate { seq, .. } if *seq != sent_seq => {
                k.changes[i].base_updated_at = new_base;
                k.changes[i].conflict = None;
            }
            _ => {
                k.changes.remove(i);
            }
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
