//! What the core last read of each card, stage and space, per profile: the base of a change kept offline
//! when the caller gives none (one map per profile, by the thing's id: cards, stages and spaces have
//! ids of their own).
use api_types::CardDetail;

use super::{StageBase, WithOutbox};

/// How the core (or the board) last had a card, stage or space.
#[derive(Debug, Clone, Default)]
pub(crate) struct Base {
    /// A card's or space's `updatedAt`.
    pub(crate) updated_at: Option<String>,
    /// A card's notes revision.
    pub(crate) revision: Option<i64>,
    /// A stage's name and colour (stages carry no `updatedAt`).
    pub(crate) stage: Option<StageBase>,
    /// What the list calls it: a card's title, a stage's or space's name.
    pub(crate) subject: Option<String>,
}

/// Runs `f` over the selected profile's map (nothing without a profile).
fn with_seen<T>(session: &impl WithOutbox, f: impl FnOnce(&mut std::collections::HashMap<String, Base>) -> T) -> Option<T> {
    let profile = session.profile_id().ok()?;
    let mut all = session.outbox().seen.lock().unwrap_or_else(|e| e.into_inner());
    Some(f(all.entry(profile).or_default()))
}

/// Notes a card as read from the service (`card_get`, `card_update`'s read back).
pub(crate) fn saw_card(session: &impl WithOutbox, card: &CardDetail) {
    let base = Base {
        updated_at: card.summary.updated_at.clone(),
        revision: Some(card.revision),
        stage: None,
        subject: Some(card.summary.title.clone()),
    };
    with_seen(session, |m| m.insert(card.summary.id.clone(), base));
}

/// Notes a card summary as read from the service (`card_move`'s answer): the notes revision stays.
pub(crate) fn saw_summary(session: &impl WithOutbox, card: &api_types::CardSummary) {
    with_seen(session, |m| {
        let b = m.entry(card.id.clone()).or_default();
        b.updated_at = card.updated_at.clone();
        b.subject = Some(card.title.clone());
    });
}

/// Notes a card as the board has it (its summary's `updatedAt` and title), unless the core read it itself.
pub(crate) fn saw_board_card(session: &impl WithOutbox, card_id: &str, updated_at: Option<String>, title: String) {
    with_seen(session, |m| {
        m.entry(card_id.to_string()).or_insert(Base { updated_at, subject: Some(title), ..Base::default() });
    });
}

/// Notes the stages of a board as read from the service (`board_load`).
pub(crate) fn saw_stages(session: &impl WithOutbox, stages: &[api_types::Stage]) {
    with_seen(session, |m| {
        for s in stages {
            let stage = StageBase { name: s.name.clone(), color: s.color.clone() };
            m.insert(s.id.clone(), Base { subject: Some(s.name.clone()), stage: Some(stage), ..Base::default() });
        }
    });
}

/// Notes spaces as read from the service (`spaces_list`).
pub(crate) fn saw_spaces(session: &impl WithOutbox, spaces: &[api_types::Space]) {
    with_seen(session, |m| {
        for s in spaces {
            m.insert(s.id.clone(), Base { updated_at: s.updated_at.clone(), subject: Some(s.name.clone()), ..Base::default() });
        }
    });
}

/// How the core last had this card, stage or space (empty when never read here).
pub(crate) fn seen_base(session: &impl WithOutbox, id: &str) -> Base {
    with_seen(session, |m| m.get(id).cloned()).flatten().unwrap_or_default()
}
