//! The one outbox (`outbox.json`): the kept changes of an earlier version's two files (`drafts.json` for
//! cards, `brand_kit.json` for brand-kit sections) are there after the app starts on their data folder,
//! and the commands show and settle them as before. No service is needed: nothing here is sent.
mod common;
use api_types::UpdateCard;
use common::{app_on, start_app, temp_dir, Remote};
use contentdesk_core::commands::{self as c, *};
use contentdesk_core::{ipc, MemoryStore};

/// The command that settles one kept change by its id, and the file's version now.
const RESOLVE: &str = "drafts_resolve";
const OUTBOX_VERSION: u32 = 4;
use serde_json::json;
use std::sync::Arc;

#[tokio::test]
async fn the_kept_changes_of_the_two_old_files_are_in_the_outbox_after_a_start() {
    let dir = temp_dir("outbox");
    let store = Arc::new(MemoryStore::new());
    let app = start_app(&dir, &store).await;
    let base_url = Some("http://127.0.0.1:9/api/v1".to_string());
    let p = c::profile_add(&app, ProfileAddArgs { name: "Work".into(), base_url }).await.unwrap();
    c::profile_select(&app, ProfileRefArgs { profile_id: p.id.clone() }).await.unwrap();
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
        s.changes[1],
        KeptChange {
            id: "c2".into(),
            kind: KeptKind::CardMove,
            card_id: Some("c2".into()),
            subject: Some("Moved".into()),
            name: None,
            color: None,
            fields: vec!["stage".into()],
            theirs: None,
            theirs_updated_at: Some("2025-01-02T00:00:00Z".into()),
            problem: None,
            conflict: true,
            saved_at: 1700000000500.0,
        }
    );
    // The section change: the same draft, field for field.
    let drafts = c::brand_kit_drafts(&app, BrandKitIdArgs { brand_kit_id: "k1".into() }).await.unwrap();
    assert_eq!(drafts, vec![serde_json::from_value::<SectionDraft>(section).unwrap()]);

    // Settled as before ("take theirs" on both kinds), in the one file.
    let s = c::drafts_resolve(&app, DraftsResolveArgs { id: "c2".into(), action: DraftAction::DiscardMine }).await.unwrap();
    assert!(s.changes.iter().all(|c| !c.conflict) && s.waiting == 1, "{s:?}");
    let key = SectionKeyInput { brand_kit_id: "k1".into(), key: "voice".into() };
    assert!(c::brand_kit_draft_discard(&app, key).await.unwrap().is_empty());
    let file: serde_json::Value = serde_json::from_slice(&std::fs::read(dir.join("outbox.json")).unwrap()).unwrap();
    let kept = &file["profiles"][p.id.as_str()];
    assert_eq!(kept["changes"].as_array().unwrap().len(), 1, "{file}");
    assert_eq!(kept["brandKits"]["k1"]["sections"], json!([]), "{file}");
    assert_eq!(kept["brandKits"]["k1"]["archived"][0]["id"], "sec-1", "{file}");
    let _ = std::fs::remove_dir_all(&dir);
}

/// `outbox.json` as version 3 wrote it, captured from that code (`fixtures/outbox_v3.json`; the ids and
/// times of the sandbox it ran on are `@…@` and filled in from this one): a card edit in conflict, a
/// card's archive, a stage renamed, a stage made offline, the space renamed and a card moved into the
/// stage made offline and retitled, kept in two lists (`cards`, `planner`). After a start they are one
/// queue in the order version 3 sent them, and a sync sends every waiting one to the real sandbox over
/// HTTP; the conflict stays until the user settles it.
#[tokio::test]
async fn a_version_3_outbox_of_both_kinds_opens_and_replays() {
    let remote = Remote::start().await;
    let (app, dir, store) = app_on(&remote).await;
    let profile = c::profiles_list(&app).await.unwrap().selected_id.unwrap();
    let space = c::spaces_list(&app, SpaceListInput::default()).await.unwrap()[0].clone();
    let board = c::board_load(&app, BoardLoadArgs { filters: BoardFilters::space(space.id.clone()), ..Default::default() }).await.unwrap();
    let (a, b, x) = (board.cards[0].clone(), board.cards[1].clone(), board.cards[2].clone());
    assert_eq!((board.stages[0].name.as_str(), board.stages[0].color.as_deref()), ("Ideas", Some("#8B5CF6")), "the base the fixture's rename was made on");
    let client = remote.client();
    client.cards().update(&x.id, &UpdateCard { title: Some("Theirs".into()), ..Default::default() }).await.unwrap();
    drop(app);
    let mut file = include_str!("fixtures/outbox_v3.json").to_string();
    for (at, value) in [
        ("@profile@", profile.clone()),
        ("@space@", space.id.clone()),
        ("@a@", a.id.clone()),
        ("@b@", b.id.clone()),
        ("@x@", x.id.clone()),
        ("@stage0@", board.stages[0].id.clone()),
        ("@a.updatedAt@", a.updated_at.clone().unwrap()),
        ("@b.updatedAt@", b.updated_at.clone().unwrap()),
        ("@x.updatedAt@", x.updated_at.clone().unwrap()),
        ("@x.theirs@", client.cards().get(&x.id).await.unwrap().summary.updated_at.unwrap()),
        ("@space.updatedAt@", space.updated_at.clone().unwrap()),
    ] {
        file = file.replace(at, &value);
    }
    assert!(!file.contains('@'), "{file}");
    std::fs::write(dir.join("outbox.json"), &file).unwrap();

    let app = start_app(&dir, &store).await;
    let s = c::drafts_status(&app).await.unwrap();
    let kinds: Vec<KeptKind> = s.changes.iter().map(|c| c.kind).collect();
    use KeptKind::*;
    assert_eq!(kinds, [CardArchive, StageRename, StageCreate, SpaceRename, CardEdit, CardEdit], "{s:?}");
    assert_eq!(s.waiting, 5, "{s:?}");
    assert_eq!(s.changes.iter().filter(|c| c.conflict).map(|c| c.id.as_str()).collect::<Vec<_>>(), [x.id.as_str()]);
    assert_eq!(s.changes[0].subject.as_deref(), Some(a.title.as_str()));
    let written: serde_json::Value = serde_json::from_slice(&std::fs::read(dir.join("outbox.json")).unwrap()).unwrap();
    assert_eq!(written["version"], OUTBOX_VERSION, "rewritten when opened: {written}");

    let s = c::drafts_sync(&app).await.unwrap();
    assert_eq!((s.sent, s.waiting, s.offline), (5, 0, false), "{s:?}");
    assert!(client.cards().get(&a.id).await.unwrap().summary.is_archived);
    let stages = client.stages().list(Some(&space.id)).await.unwrap().stages;
    assert!(stages.iter().any(|s| s.id == board.stages[0].id && s.name == "Renamed offline"), "{stages:?}");
    let made = stages.iter().find(|s| s.name == "Made offline").expect("the stage made offline is made");
    let moved = client.cards().get(&b.id).await.unwrap().summary;
    assert_eq!((moved.stage_id.as_deref(), moved.title.as_str()), (Some(made.id.as_str()), "Moved and retitled offline"));
    assert_eq!(client.spaces().get(&space.id).await.unwrap().name, "Space renamed offline");
    // The card edit in conflict was not sent (theirs stays) and is settled by the user: take theirs.
    assert_eq!(client.cards().get(&x.id).await.unwrap().summary.title, "Theirs");
    let s = ipc::dispatch(&app, RESOLVE, json!({ "id": x.id, "action": "discardMine" })).await.unwrap();
    assert_eq!(s["changes"], json!([]), "{s}");
    assert_eq!(client.cards().get(&x.id).await.unwrap().summary.title, "Theirs");
    let _ = std::fs::remove_dir_all(&dir);
}
