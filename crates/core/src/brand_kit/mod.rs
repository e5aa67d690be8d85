//! The brand-kit page's commands (docs/ipc.md, "Brand kit"): sections read in summary or by filter,
//! saved all or nothing with `expectedVersion`, added, archived and restored, their history and revert;
//! and the kit's knowledge base.
//!
//! A refused save (409, or no answer) writes nothing on the service, so the user's unsaved text is kept
//! here until they choose what to do with it: in the outbox (`crate::outbox`, `outbox.json` in the data
//! folder, per profile and kit, written atomically). A later successful save of the section clears it;
//! `brand_kit_draft_discard` drops it on purpose ("take theirs"). The outbox also remembers the sections
//! archived from this computer (key, id, name): the archived sections are read from the service
//! (`detail=summary&archived=true`, any computer's), and this record is what a service that does not
//! list them still lets the user restore.
//!
//! The old field model's inputs (`businessName`, … `designPrinciples`, `fields`) have no field in any
//! input here, and every input refuses a field it does not name (serde's `deny_unknown_fields`, or the
//! catalogue's `Unknown` beside a flattened group), so the UI has no way to send one.
use api_client::{ApiError, SectionFilter, SectionWriteExt};
use api_types::{
    ArchiveResult, BrandKitSection, BrandKitSectionsView, Deleted, KnowledgeAdded, KnowledgeList,
    KnowledgeMatch, SectionRevision, SectionSummary, SectionWrite, SECTION_POSITIONS, TABS, WIDTHS,
};
use serde::{Deserialize, Serialize};
use std::collections::HashSet;
use ts_rs::TS;

use crate::error::{IpcCode, IpcError, IpcResult};
use crate::outbox::{kit_kept, now_ms, with_kit, WithOutbox};
use crate::session::Session;
/// The kept changes the page shows live in the outbox; the commands' types keep their names here.
pub use crate::outbox::{ArchivedSection, DraftReason, SectionDraft};
/// The catalogue's inputs these commands take (one input type per operation).
pub use contentdesk_ops::brand_kit::{BrandKitGetInput, SectionAddInput, SectionArchiveInput, SectionKeyInput, SectionRevertInput};
use contentdesk_ops::brand_kit::SectionRef;
pub use contentdesk_ops::knowledge::{KnowledgeAddInput, KnowledgeItemInput, KnowledgeListInput, KnowledgeSearchInput};

mod checks;
mod knowledge;
mod sections;
use checks::*;
pub use knowledge::*;
pub use sections::*;

/// The largest file sent from this computer as base64 `fileData` (declared once in api-types).
pub use api_types::values::KNOWLEDGE_MAX_FILE_BYTES;

// --- results

/// The page: every live section in summary form (no bodies), plus what this computer keeps for the kit.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct BrandKitPage {
    pub id: String,
    pub name: String,
    /// In page order (tab, then the kit's order): key, role, tab, sectionName, width, version, charCount,
    /// outline (the section's own `##` headings).
    pub sections: Vec<SectionSummary>,
    /// The kit's archived sections as the service lists them (`detail=summary&archived=true`), wherever
    /// they were archived, which `brand_kit_section_archive` can restore. A service that does not list
    /// archived sections: those archived from this computer.
    pub archived: Vec<ArchivedSection>,
    /// Unsaved texts kept after a refused save, until resolved.
    pub drafts: Vec<SectionDraft>,
}

/// A section with its earlier versions.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct SectionHistory {
    /// The section now, with its body.
    pub section: BrandKitSection,
    /// Every earlier version, newest first (a revert is one of them once reverted past).
    pub earlier: Vec<SectionRevision>,
}

// --- args

#[derive(Debug, Clone, Deserialize, Serialize, TS)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct BrandKitIdArgs {
    pub brand_kit_id: String,
}

/// One changed section of a save. Only what changed is given; `expectedVersion` is the version read.
#[derive(Debug, Clone, Default, Deserialize, Serialize, TS)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct SectionEdit {
    pub key: String,
    /// The whole new Markdown body.
    #[serde(default)]
    #[ts(optional)]
    pub body: Option<String>,
    /// The display name (the key never changes).
    #[serde(default)]
    #[ts(optional)]
    pub name: Option<String>,
    /// `full` or `half`.
    #[serde(default)]
    #[ts(optional)]
    pub width: Option<String>,
    /// Moves the section to another tab.
    #[serde(default)]
    #[ts(optional)]
    pub tab: Option<String>,
    /// Places the section right after this section id of its (new) tab …
    #[serde(default)]
    #[ts(optional)]
    pub after_id: Option<String>,
    /// … or right before this one …
    #[serde(default)]
    #[ts(optional)]
    pub before_id: Option<String>,
    /// … or at the tab's `top` or `bottom`. At most one of the three.
    #[serde(default)]
    #[ts(optional)]
    pub position: Option<String>,
    /// A role cannot be changed: accepted only as the section's own (a starter section's role is its key).
    #[serde(default)]
    #[ts(optional)]
    pub role: Option<String>,
    pub expected_version: i64,
}

#[derive(Debug, Clone, Deserialize, Serialize, TS)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct BrandKitSaveArgs {
    pub brand_kit_id: String,
    pub sections: Vec<SectionEdit>,
}

#[cfg(test)]
mod tests {
    use super::*;

    fn edit(key: &str) -> SectionEdit {
        SectionEdit { key: key.into(), body: Some("# x".into()), expected_version: 1, ..Default::default() }
    }

    #[test]
    fn a_save_sends_only_what_changed_with_the_version_read() {
        let w = check_edits(&[SectionEdit { width: Some("half".into()), ..edit("about") }]).unwrap();
        assert_eq!(
            serde_json::to_value(&w).unwrap(),
            serde_json::json!([{"key": "about", "body": "# x", "width": "half", "expectedVersion": 1}])
        );
        let w = check_edits(&[SectionEdit { name: Some(" Who we are ".into()), body: None, ..edit("about") }]).unwrap();
        assert_eq!(serde_json::to_value(&w).unwrap()[0]["sectionName"], "Who we are");
    }

    #[test]
    fn a_save_is_checked_before_sending() {
        let field = |edits: &[SectionEdit]| check_edits(edits).unwrap_err().field.unwrap();
        assert_eq!(field(&[]), "sections");
        assert_eq!(field(&[edit("about"), edit("about")]), "sections[1].key");
        assert_eq!(field(&[SectionEdit { key: " ".into(), ..edit("x") }]), "sections[0].key");
        assert_eq!(field(&[SectionEdit { expected_version: 0, ..edit("about") }]), "sections[0].expectedVersion");
        assert_eq!(field(&[SectionEdit { body: None, ..edit("about") }]), "sections[0].body");
        let e = check_edits(&[SectionEdit { width: Some("wide".into()), ..edit("about") }]).unwrap_err();
        assert_eq!(e.field.as_deref(), Some("sections[0].width"));
        assert_eq!(e.valid_values, vec!["full", "half"]);
        let e = check_edits(&[SectionEdit { tab: Some("sidebar".into()), ..edit("about") }]).unwrap_err();
        assert_eq!(e.valid_values, vec!["overview", "voice", "visual"]);
        // A role is only ever the section's own: a starter section's role is its key.
        assert!(check_edits(&[SectionEdit { role: Some("about".into()), ..edit("about") }]).is_ok());
        assert_eq!(field(&[SectionEdit { role: Some("offer".into()), ..edit("about") }]), "sections[0].role");
        assert_eq!(field(&[SectionEdit { role: Some("about".into()), ..edit("custom_1") }]), "sections[0].role");
    }

    #[test]
    fn the_removed_field_model_inputs_cannot_be_expressed() {
        for name in api_types::REMOVED_INPUTS.iter().map(|r| r.0) {
            let save = serde_json::json!({ "brandKitId": "k", "sections": [], name: "x" });
            assert!(serde_json::from_value::<BrandKitSaveArgs>(save).is_err(), "{name}");
            let entry = serde_json::json!({ "key": "about", "expectedVersion": 1, name: "x" });
            assert!(serde_json::from_value::<SectionEdit>(entry).is_err(), "{name}");
            let add = serde_json::json!({ "brandKitId": "k", "sectionName": "n", "tab": "voice", name: "x" });
            let add: SectionAddInput = serde_json::from_value(add).unwrap();
            assert_eq!(add.check().unwrap_err().to_json()["field"], name, "{name}");
        }
    }
}
