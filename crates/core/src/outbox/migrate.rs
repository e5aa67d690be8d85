//! The files of earlier versions, read into the one outbox when it is opened:
//! - `drafts.json` (version 1's kept card changes: `{ "version": 1, "profiles": { "<profile id>":
//!   [OldCardChange, ...] } }`) and `brand_kit.json` (`{ "version": 1, "profiles": { "<profile id>":
//!   { "<kit id>": { "drafts": [SectionDraft, ...], "archived": [ArchivedSection, ...] } } } }`): their
//!   entries move over (a card change as a kept change of the queue); an entry the outbox already has (the
//!   same card, or the same kit and section key) stays as the outbox has it. Once `outbox.json` is written
//!   each old file is renamed `*.migrated`, so this runs once.
//! - `outbox.json` of version 2 (`cards`) and 3 (`cards` and `planner` apart): every read folds the two
//!   lists into the one queue ([`into_queue`]: the planner writes first, then the card changes oldest
//!   first, the order version 3 sent them in), and the file is rewritten as version 4 when the outbox is
//!   opened, so that an older core finding it later is not mistaken about what it holds.
//!
//! A file that cannot be read or moved stays where it is (with a warning in the log): nothing kept is
//! lost, and the app still starts.
use api_types::UpdateCard;
use serde::Deserialize;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use super::{read, write, Change, Conflict, Kept, KitKept, Op};
use crate::error::IpcResult;

/// The file of kept card changes before the outbox (version 1).
const OLD_CARDS: &str = "drafts.json";
/// The file of kept brand-kit changes before the outbox (version 1).
const OLD_BRAND_KIT: &str = "brand_kit.json";

/// A kept card change as versions 1 to 3 wrote it.
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(rename_all = "camelCase")]
pub(super) struct OldCardChange {
    card_id: String,
    update: UpdateCard,
    #[serde(default)]
    base_updated_at: Option<String>,
    #[serde(default)]
    base_revision: Option<i64>,
    saved_at: f64,
    #[serde(default)]
    seq: u64,
    #[serde(default)]
    title: Option<String>,
    #[serde(default)]
    conflict: Option<OldConflict>,
}

#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(rename_all = "camelCase")]
struct OldConflict {
    #[serde(default)]
    theirs_updated_at: Option<String>,
    #[serde(default)]
    problem: Option<String>,
}

impl OldCardChange {
    /// The same change in the queue; its id is its card id (what the list and `drafts_resolve` called a
    /// card change then, so a list still shown keeps working).
    fn into_change(self) -> Change {
        Change {
            id: self.card_id.clone(),
            op: Op::CardUpdate { card_id: self.card_id, update: Box::new(self.update), base_revision: self.base_revision, seq: self.seq },
            base_updated_at: self.base_updated_at,
            base_stage: None,
            subject: self.title,
            saved_at: self.saved_at,
            conflict: self.conflict.map(|c| Conflict { theirs: None, theirs_updated_at: c.theirs_updated_at, problem: c.problem }),
        }
    }
}

/// Folds a version 2 or 3 profile's two lists into its queue, after what the queue has: the planner writes
/// first, then the card changes oldest first (the order version 3 sent them in); a card that already has
/// a kept edit in the queue keeps that one.
pub(super) fn into_queue(kept: &mut Kept) {
    if kept.cards.is_empty() && kept.planner.is_empty() {
        return;
    }
    let mut cards = std::mem::take(&mut kept.cards);
    cards.sort_by(|a, b| a.saved_at.total_cmp(&b.saved_at));
    let mut queue = std::mem::take(&mut kept.planner);
    queue.extend(cards.into_iter().map(OldCardChange::into_change));
    let same = |h: &Change, c: &Change| h.id == c.id || (h.op.card_update().is_some() && h.op.card_update() == c.op.card_update());
    queue.retain(|c| !kept.changes.iter().any(|h| same(h, c)));
    kept.changes.extend(queue);
}

#[derive(Default, Deserialize)]
struct OldCards {
    #[serde(default)]
    profiles: BTreeMap<String, Vec<OldCardChange>>,
}

#[derive(Default, Deserialize)]
struct OldBrandKit {
    /// Profile id → kit id → what was kept (its `drafts` read as the outbox's `sections`).
    #[serde(default)]
    profiles: BTreeMap<String, BTreeMap<String, KitKept>>,
}

/// Reads the old files of `dir` into `outbox.json`, then renames them. Never fails: what cannot be moved
/// stays in its old file and is said in the log.
pub(super) fn migrate(dir: &Path) {
    upgrade(dir);
    let old_cards = dir.join(OLD_CARDS);
    let old_kits = dir.join(OLD_BRAND_KIT);
    if !old_cards.exists() && !old_kits.exists() {
        return;
    }
    if let Err(e) = migrate_files(dir, &old_cards, &old_kits) {
        tracing::warn!(error = %e.message, "the kept changes of an earlier version were not moved into the outbox; their files stay");
    }
}

/// `outbox.json` of an earlier version (2, 3) → the current one, its kept changes in one queue.
fn upgrade(dir: &Path) {
    let Ok(outbox) = read(dir) else { return };
    if outbox.version == 0 || outbox.version >= super::VERSION {
        return;
    }
    if let Err(e) = write(dir, &outbox) {
        tracing::warn!(error = %e.message, "the outbox of an earlier version could not be rewritten; it is read as it is");
    }
}

fn migrate_files(dir: &Path, old_cards: &Path, old_kits: &Path) -> IpcResult<()> {
    let mut outbox = read(dir)?;
    let cards: OldCards = crate::jsonfile::read(old_cards, "The kept offline changes of an earlier version")?;
    let kits: OldBrandKit = crate::jsonfile::read(old_kits, "The kept brand-kit drafts of an earlier version")?;
    for (profile, changes) in cards.profiles {
        let kept = outbox.profiles.entry(profile).or_default();
        kept.cards = changes;
        into_queue(kept);
    }
    for (profile, old) in kits.profiles {
        let kept = outbox.profiles.entry(profile).or_default();
        for (kit_id, old) in old {
            let kit = kept.brand_kits.entry(kit_id).or_default();
            for d in old.sections {
                if !kit.sections.iter().any(|k| k.key == d.key) {
                    kit.sections.push(d);
                }
            }
            for a in old.archived {
                if !kit.archived.iter().any(|k| k.key == a.key) {
                    kit.archived.push(a);
                }
            }
        }
    }
    write(dir, &outbox)?;
    for old in [old_cards, old_kits] {
        if old.exists() {
            if let Err(e) = std::fs::rename(old, migrated(old)) {
                tracing::warn!(error = %e, file = %old.display(), "moved into the outbox, but the old file could not be renamed");
            }
        }
    }
    Ok(())
}

/// `drafts.json` → `drafts.json.migrated`.
fn migrated(old: &Path) -> PathBuf {
    let mut name = old.as_os_str().to_owned();
    name.push(".migrated");
    PathBuf::from(name)
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::{json, Value};

    fn temp_dir() -> PathBuf {
        let d = std::env::temp_dir().join(format!("contentdesk-outbox-migrate-{}", uuid::Uuid::new_v4()));
        std::fs::create_dir_all(&d).unwrap();
        d
    }

    fn read_json(path: &Path) -> Value {
        serde_json::from_slice(&std::fs::read(path).unwrap()).unwrap()
    }

    /// Two kept card changes (one in conflict) of profile `p1`, as version 1 wrote them.
    fn old_cards() -> Value {
        json!({ "version": 1, "profiles": { "p1": [
            { "cardId": "c1", "update": { "title": "Written offline", "tags": ["launch"] },
              "baseUpdatedAt": "2025-01-01T00:00:00Z", "baseRevision": 3, "savedAt": 1700000000000.0, "seq": 2,
              "title": "Written offline", "conflict": null },
            { "cardId": "c2", "update": { "stage": "s2", "beforeCardId": null },
              "baseUpdatedAt": null, "baseRevision": null, "savedAt": 1700000000500.0, "seq": 0,
              "title": "Moved", "conflict": { "theirsUpdatedAt": "2025-01-02T00:00:00Z", "problem": null } }
        ] } })
    }

    /// A kept section change and an archived section of kit `k1` of profile `p1`, and one of profile `p2`.
    fn old_brand_kit() -> Value {
        json!({ "version": 1, "profiles": {
            "p1": { "k1": {
                "drafts": [{ "key": "voice", "body": "# Mine", "expectedVersion": 2, "theirsVersion": 3,
                             "reason": "conflict", "savedAt": 1700000001000.0 }],
                "archived": [{ "key": "old", "id": "sec-1", "sectionName": "Old", "tab": "overview",
                               "archivedAt": 1700000002000.0 }] } },
            "p2": { "k2": { "drafts": [{ "key": "visual", "name": "Look", "expectedVersion": 1,
                                         "reason": "offline", "savedAt": 1700000003000.0 }], "archived": [] } }
        } })
    }

    /// The old card changes of a file, as the queue holds them.
    fn as_queue(old: &Value) -> Value {
        let old: Vec<OldCardChange> = serde_json::from_value(old.clone()).unwrap();
        serde_json::to_value(old.into_iter().map(OldCardChange::into_change).collect::<Vec<_>>()).unwrap()
    }

    #[test]
    fn the_old_files_come_out_as_the_same_kept_changes() {
        let dir = temp_dir();
        std::fs::write(dir.join(OLD_CARDS), serde_json::to_vec(&old_cards()).unwrap()).unwrap();
        std::fs::write(dir.join(OLD_BRAND_KIT), serde_json::to_vec(&old_brand_kit()).unwrap()).unwrap();

        migrate(&dir);

        let outbox = read_json(&dir.join("outbox.json"));
        assert_eq!(outbox["version"], 4);
        // Every kept card change, field for field, in its order, in the one queue (its id its card's).
        let changes = &outbox["profiles"]["p1"]["changes"];
        assert_eq!(*changes, as_queue(&old_cards()["profiles"]["p1"]));
        assert_eq!(changes[0]["id"], "c1");
        assert_eq!(changes[0]["op"]["kind"], "cardUpdate");
        assert_eq!(changes[0]["op"]["update"], json!({ "title": "Written offline", "tags": ["launch"] }));
        assert_eq!((changes[0]["baseUpdatedAt"].clone(), changes[0]["op"]["baseRevision"].clone()), (json!("2025-01-01T00:00:00Z"), json!(3)));
        assert_eq!(changes[1]["conflict"]["theirsUpdatedAt"], "2025-01-02T00:00:00Z");
        assert_eq!(changes[1]["subject"], "Moved");
        // Every kept section change and archived section, per profile and kit.
        let old = old_brand_kit();
        for (profile, kit) in [("p1", "k1"), ("p2", "k2")] {
            let was = &old["profiles"][profile][kit];
            let now = &outbox["profiles"][profile]["brandKits"][kit];
            assert_eq!(now["sections"], was["drafts"], "{profile}/{kit}");
            assert_eq!(now["archived"], was["archived"], "{profile}/{kit}");
        }
        assert_eq!(outbox["profiles"]["p2"]["changes"], json!([]));
        // The old files are renamed (kept, not read again).
        assert!(!dir.join(OLD_CARDS).exists() && !dir.join(OLD_BRAND_KIT).exists());
        assert_eq!(read_json(&dir.join("drafts.json.migrated")), old_cards());

        // Opening again changes nothing.
        migrate(&dir);
        assert_eq!(read_json(&dir.join("outbox.json")), outbox);
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn a_version_2_outbox_becomes_version_4_with_its_kept_changes() {
        let dir = temp_dir();
        // As version 2 wrote it: cards and brand kits, no planner, no ids.
        let v2 = json!({ "version": 2, "profiles": {
            "p1": { "cards": [
                { "cardId": "c1", "update": { "title": "Written offline" }, "baseUpdatedAt": "2025-01-01T00:00:00Z",
                  "baseRevision": 3, "savedAt": 1700000000000.0, "seq": 1, "title": "Written offline", "conflict": null } ],
                "brandKits": { "k1": { "sections": [], "archived": [{ "key": "old", "id": "sec-1", "sectionName": "Old",
                                                                    "tab": "overview", "archivedAt": 1700000002000.0 }] } } } } });
        std::fs::write(dir.join("outbox.json"), serde_json::to_vec(&v2).unwrap()).unwrap();
        migrate(&dir);
        let now = read_json(&dir.join("outbox.json"));
        assert_eq!(now["version"], 4);
        assert!(now["profiles"]["p1"].get("cards").is_none() && now["profiles"]["p1"].get("planner").is_none(), "{now}");
        assert_eq!(now["profiles"]["p1"]["changes"], as_queue(&v2["profiles"]["p1"]["cards"]));
        assert_eq!(now["profiles"]["p1"]["brandKits"], v2["profiles"]["p1"]["brandKits"]);
        // A local id is kept beside them, and the file reads back.
        let mut file = read(&dir).unwrap();
        file.profiles.get_mut("p1").unwrap().ids.insert("local-1".into(), "s1".into());
        write(&dir, &file).unwrap();
        assert_eq!(read(&dir).unwrap().profiles["p1"].changes.len(), 1);
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn what_the_outbox_has_already_wins_and_an_unreadable_old_file_stays() {
        let dir = temp_dir();
        let newer = json!({ "version": 2, "profiles": { "p1": { "cards": [
            { "cardId": "c1", "update": { "title": "Newer" }, "savedAt": 1800000000000.0, "seq": 0 }
        ] } } });
        std::fs::write(dir.join("outbox.json"), serde_json::to_vec(&newer).unwrap()).unwrap();
        std::fs::write(dir.join(OLD_CARDS), serde_json::to_vec(&old_cards()).unwrap()).unwrap();
        migrate(&dir);
        let changes = read_json(&dir.join("outbox.json"))["profiles"]["p1"]["changes"].clone();
        assert_eq!(changes.as_array().unwrap().len(), 2, "{changes}");
        assert_eq!(changes[0]["op"]["update"]["title"], "Newer");
        assert_eq!(changes[1]["op"]["cardId"], "c2");

        std::fs::write(dir.join(OLD_BRAND_KIT), b"{ not json").unwrap();
        migrate(&dir);
        assert!(dir.join(OLD_BRAND_KIT).exists(), "an unreadable old file is left as it is");
        let _ = std::fs::remove_dir_all(&dir);
    }
}
