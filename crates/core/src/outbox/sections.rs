//! Kept brand-kit changes: per profile and kit, the text of a refused section save ([`SectionDraft`]),
//! kept until the user takes theirs, keeps mine (saves again over their version) or merges by hand; and
//! the sections archived from this computer ([`ArchivedSection`]), which restoring needs. Brand-kit
//! changes are never sent by themselves (their `expectedVersion` may be stale): the brand kit's page
//! settles each (`brand_kit/sections.rs`).
use serde::{Deserialize, Serialize};
use ts_rs::TS;

use super::{with_profile, WithOutbox};
use crate::error::IpcResult;

/// A section archived from this computer.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct ArchivedSection {
    pub key: String,
    /// The section's id (what `POST /archive` names).
    pub id: String,
    pub section_name: String,
    pub tab: String,
    /// Unix milliseconds when archived from this computer; 0 for a section the service lists as archived
    /// that was archived elsewhere (a summary read gives no archive time).
    pub archived_at: f64,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub enum DraftReason {
    /// The section changed on the service since it was read (409): nothing was written.
    Conflict,
    /// Nothing answered: nothing was written.
    Offline,
}

/// The user's unsaved change of one section, kept on this computer.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct SectionDraft {
    pub key: String,
    /// The user's text (Markdown).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub body: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub name: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub width: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub tab: Option<String>,
    /// Where the section was placed in its tab (one of the three, as the save sent it).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub after_id: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub before_id: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub position: Option<String>,
    /// The version the change was made from (the `expectedVersion` sent).
    pub expected_version: i64,
    /// The section's version on the service when the save was refused (409 only).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub theirs_version: Option<i64>,
    pub reason: DraftReason,
    /// Unix milliseconds.
    pub saved_at: f64,
}

/// What the outbox keeps for one brand kit.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub(crate) struct KitKept {
    /// Kept section changes, one per section key.
    #[serde(default, alias = "drafts")]
    pub(crate) sections: Vec<SectionDraft>,
    /// Sections archived from this computer.
    #[serde(default)]
    pub(crate) archived: Vec<ArchivedSection>,
}

/// Runs `f` over what the selected profile keeps for one kit, under the outbox's one lock, and saves the
/// outbox when `f` says it changed.
pub(crate) fn with_kit<T>(session: &impl WithOutbox, kit_id: &str, f: impl FnOnce(&mut KitKept) -> (T, bool)) -> IpcResult<T> {
    let profile = session.profile_id()?;
    with_profile(session, &profile, |kept| f(kept.brand_kits.entry(kit_id.to_string()).or_default()))
}

/// What the selected profile keeps for one kit.
pub(crate) fn kit_kept(session: &impl WithOutbox, kit_id: &str) -> IpcResult<KitKept> {
    with_kit(session, kit_id, |k| (k.clone(), false))
}
