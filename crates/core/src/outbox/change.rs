//! One kept change ([`Change`]): what to send ([`Op`]: a card's edit or move, its archive, a stage's or a
//! space's change), the base it was made on (a card's or space's `updatedAt`, a stage's name and colour:
//! stages carry no `updatedAt`, spec §2 and contract facts §2.7), what the list calls it, when it was
//! kept, and, once the service's copy moved past it or refused it, the conflict the user settles.
//! [`KeptChange`] is how the "changes waiting" list shows one.
use api_types::UpdateCard;
use serde::{Deserialize, Serialize};
use ts_rs::TS;

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

/// What a kept change sends, as the outbox file holds it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "camelCase", rename_all_fields = "camelCase")]
pub(crate) enum Op {
    /// A card's edit or move: a later offline edit of the same card is merged in (later fields win, whole
    /// `posts`/`assets` lists replace); `seq` is bumped at every merge, so that a send does not drop a
    /// change kept while it was sending.
    CardUpdate {
        card_id: String,
        update: Box<UpdateCard>,
        #[serde(default)]
        base_revision: Option<i64>,
        #[serde(default)]
        seq: u64,
    },
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

impl Op {
    /// The id of the thing it changes (for a create: the local id it made).
    pub(super) fn target(&self) -> &str {
        match self {
            Op::CardUpdate { card_id, .. } | Op::CardArchive { card_id, .. } => card_id,
            Op::StageCreate { local_id, .. } | Op::SpaceCreate { local_id, .. } => local_id,
            Op::StageUpdate { stage_id, .. } | Op::StageDelete { stage_id, .. } => stage_id,
            Op::SpaceRename { space_id, .. } | Op::SpaceArchive { space_id, .. } => space_id,
        }
    }

    /// Every id it names (its target and what it is placed by or moves cards to).
    pub(super) fn refs(&self) -> Vec<&str> {
        let mut v = vec![self.target()];
        match self {
            Op::CardUpdate { update, .. } => {
                v.extend(update.stage.as_deref());
                v.extend(update.space_id.as_deref());
            }
            Op::StageCreate { space_id, after_id, .. } => {
                v.extend(after_id.as_deref());
                v.push(space_id);
            }
            Op::StageUpdate { space_id, after_id, before_id, .. } => {
                v.extend(after_id.as_deref());
                v.extend(before_id.as_deref());
                v.push(space_id);
            }
            Op::StageDelete { space_id, target_stage_id, .. } => {
                v.extend(target_stage_id.as_deref());
                v.push(space_id);
            }
            _ => {}
        }
        v
    }

    /// The card whose edit or move this is.
    pub(super) fn card_update(&self) -> Option<&str> {
        match self {
            Op::CardUpdate { card_id, .. } => Some(card_id),
            _ => None,
        }
    }
}

/// One kept change: what to send, the base it was made on, and what the list says of it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub(crate) struct Change {
    /// This change's own id (the user drops or resolves it by it).
    pub(super) id: String,
    pub(super) op: Op,
    /// The card's or space's `updatedAt` the change was made on; `None`: unknown (sent without the check).
    #[serde(default)]
    pub(super) base_updated_at: Option<String>,
    /// The stage as the board had it; `None`: unknown, or a stage made offline.
    #[serde(default)]
    pub(super) base_stage: Option<StageBase>,
    /// What the list calls the thing changed: the card's title, the stage's or space's name then.
    #[serde(default)]
    pub(super) subject: Option<String>,
    /// Unix milliseconds of the last change kept.
    pub(super) saved_at: f64,
    #[serde(default)]
    pub(super) conflict: Option<Conflict>,
}

/// Why a kept change was not sent: changed elsewhere (what it is now), or another problem.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub(crate) struct Conflict {
    /// What the service has now, in words ("changed elsewhere, now “Review”").
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub(super) theirs: Option<String>,
    /// The card's `updatedAt` on the service now (a card edit's conflict).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub(super) theirs_updated_at: Option<String>,
    /// Why it was not sent when it is not "changed elsewhere" (deleted, refused).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub(super) problem: Option<String>,
}

impl Change {
    pub(crate) fn new(op: Op, base_updated_at: Option<String>, base_stage: Option<StageBase>, subject: Option<String>) -> Change {
        Change { id: uuid::Uuid::new_v4().to_string(), op, base_updated_at, base_stage, subject, saved_at: super::now_ms(), conflict: None }
    }

    pub(super) fn waiting(&self) -> bool {
        self.conflict.is_none()
    }

    /// A stage or space made offline will never be made (its create was dropped): a card change no longer
    /// moves the card there. Answers whether anything is left of the change.
    pub(super) fn forget_place(&mut self, local_id: &str) -> bool {
        let Op::CardUpdate { update, .. } = &mut self.op else { return true };
        if update.stage.as_deref() == Some(local_id) || update.space_id.as_deref() == Some(local_id) {
            update.stage = None;
            update.space_id = None;
            update.before_card_id = None;
            update.board_order = None;
        }
        !super::keep::fields(update).is_empty()
    }
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
    /// The change's id (what `drafts_resolve` takes).
    pub id: String,
    pub kind: KeptKind,
    /// The card it changes (a card's edit, move, archive or restore): the list opens it.
    #[ts(optional)]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub card_id: Option<String>,
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
    /// Set when it was not sent because the thing changed elsewhere: what it is now, in words.
    #[ts(optional)]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub theirs: Option<String>,
    /// Set when a card edit was not sent because the card changed elsewhere: its `updatedAt` now.
    #[ts(optional)]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub theirs_updated_at: Option<String>,
    /// Set when it was not sent for another reason (deleted elsewhere, refused by the service).
    #[ts(optional)]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub problem: Option<String>,
    /// In conflict: waits for the user's choice (Take theirs / Keep mine).
    pub conflict: bool,
    pub saved_at: f64,
}

impl Change {
    pub(super) fn view(&self) -> KeptChange {
        let mut fields = Vec::new();
        let (kind, name, color) = match &self.op {
            Op::CardUpdate { update, .. } => {
                fields = super::keep::fields(update);
                let moves = !fields.is_empty() && fields.iter().all(|f| matches!(f.as_str(), "stage" | "spaceId" | "boardOrder"));
                (if moves { KeptKind::CardMove } else { KeptKind::CardEdit }, None, None)
            }
            Op::CardArchive { archived: true, .. } => (KeptKind::CardArchive, None, None),
            Op::CardArchive { .. } => (KeptKind::CardRestore, None, None),
            Op::StageCreate { name, color, .. } => (KeptKind::StageCreate, Some(name.clone()), color.clone()),
            Op::StageUpdate { name: Some(n), color, .. } => (KeptKind::StageRename, Some(n.clone()), color.clone()),
            Op::StageUpdate { color: Some(c), .. } => (KeptKind::StageRecolor, None, Some(c.clone())),
            Op::StageUpdate { .. } => (KeptKind::StageMove, None, None),
            Op::StageDelete { .. } => (KeptKind::StageDelete, None, None),
            Op::SpaceCreate { name, .. } => (KeptKind::SpaceCreate, Some(name.clone()), None),
            Op::SpaceRename { name, .. } => (KeptKind::SpaceRename, Some(name.clone()), None),
            Op::SpaceArchive { archived: true, .. } => (KeptKind::SpaceArchive, None, None),
            Op::SpaceArchive { .. } => (KeptKind::SpaceRestore, None, None),
        };
        let card_id = match &self.op {
            Op::CardUpdate { card_id, .. } | Op::CardArchive { card_id, .. } => Some(card_id.clone()),
            _ => None,
        };
        let c = self.conflict.clone().unwrap_or_default();
        KeptChange {
            id: self.id.clone(),
            kind,
            card_id,
            subject: self.subject.clone(),
            name,
            color,
            fields,
            theirs: c.theirs,
            theirs_updated_at: c.theirs_updated_at,
            problem: c.problem,
            conflict: self.conflict.is_some(),
            saved_at: self.saved_at,
        }
    }
}
