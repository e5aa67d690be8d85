//! The one outbox (`outbox.json`): the kept changes of an earlier version's two files (`drafts.json` for
//! cards, `brand_kit.json` for brand-kit sections) are there after the app starts on their data folder,
//! and the commands show and settle them as before. No service is needed: nothing here is sent.
mod common;
use common::{start_app, temp_dir};
use contentdesk_core::commands::{self as c, *};
use contentdesk_core::MemoryStore;
use serde_json::json;
use std::sync::Arc;

#[tokio::test]
async fn the_kept_changes_of_the_two_old_files_are_in_the_outbox_after_a_start() {
    let dir = temp_dir("outbox");
    let store = Arc::new(MemoryStore::new());
    let app = start_app(&dir, &store).await;
    let base_url = Some("http://127.0.0.1:9/api/v1".to_string());
    let p = c::profile_add(&app, ProfileAddArgs { name: "Work".into(), base_url }).await.unwrap();
    c::profile_select(&app, ProfileIdArgs { id: p.id.clone() }).await.unwrap();
    drop(app);

    // What version 1 wrote: a waiting card change and one in conflict; a section kept after a 409 and a
    // section archived from this computer.
    let cards = json!({ "version": 1, "profiles": { p.id.clone(): [
        { "cardId": "c1", "update": { "title": "Written offline" }, "baseUpdatedAt": "2025-01-01T00:00:00Z",
          "baseRevision": 3, "savedAt": 1700000000000.0, "seq": 1, "title": "Written offline", "conflict": null },
        { "cardId": "c2", "update": { "stage": "s2" }, "baseUpdatedAt": null, "baseRevision": null,
          "savedAt": 1700000000500.0, "seq": 0, "title": "Moved",
          "conflict": { "theirsUpdatedAt": "2025-01-02T00:00:00Z", "problem": null } }
    ] } });
    let section = json!({ "key": "voice", "body": "# Mine", "expectedVersion": 2, "theirsVersion": 3,
                          "reason": "conflict", "savedAt": 1700000001000.0 });
    let kits = json!({ "version": 1, "profiles": { p.id.clone(): { "k1": {
        "drafts": [section.clone()],
        "archived": [{ "key": "old", "id": "sec-1", "sectionName": "Old", "tab": "overview", "archivedAt": 1.0 }]
    } } } });
    std::fs::write(dir.join("drafts.json"), serde_json::to_vec(&cards).unwrap()).unwrap();
    std::fs::write(dir.join("brand_kit.json"), serde_json::to_vec(&kits).unwrap()).unwrap();

    let app = start_app(&dir, &store).await;
    assert!(dir.join("outbox.json").exists());
    assert!(!dir.join("drafts.json").exists() && !dir.join("brand_kit.json").exists());

    // The card changes: the same waiting one and the same conflict.
    let s = c::drafts_status(&app).await.unwrap();
    assert_eq!((s.waiting, s.card_ids.clone()), (1, vec!["c1".to_string()]), "{s:?}");
    assert_eq!(
        s.conflicts,
        vec![DraftConflict {
            card_id: "c2".into(),
            title: Some("Moved".into()),
            fields: vec!["stage".into()],
            theirs_updated_at: Some("2025-01-02T00:00:00Z".into()),
            problem: None,
            saved_at: 1700000000500.0,
        }]
    );
    // The section change: the same draft, field for field.
    let drafts = c::brand_kit_drafts(&app, BrandKitIdArgs { brand_kit_id: "k1".into() }).await.unwrap();
    assert_eq!(drafts, vec![serde_json::from_value::<SectionDraft>(section).unwrap()]);

    // Settled as before ("take theirs" on both kinds), in the one file.
    let s = c::drafts_resolve(&app, DraftsResolveArgs { card_id: "c2".into(), action: DraftAction::DiscardMine }).await.unwrap();
    assert!(s.conflicts.is_empty() && s.waiting == 1, "{s:?}");
    let key = SectionKeyInput { brand_kit_id: "k1".into(), key: "voice".into() };
    assert!(c::brand_kit_draft_discard(&app, key).await.unwrap().is_empty());
    let file: serde_json::Value = serde_json::from_slice(&std::fs::read(dir.join("outbox.json")).unwrap()).unwrap();
    let kept = &file["profiles"][p.id.as_str()];
    assert_eq!(kept["cards"].as_array().unwrap().len(), 1, "{file}");
    assert_eq!(kept["brandKits"]["k1"]["sections"], json!([]), "{file}");
    assert_eq!(kept["brandKits"]["k1"]["archived"][0]["id"], "sec-1", "{file}");
    let _ = std::fs::remove_dir_all(&dir);
}
