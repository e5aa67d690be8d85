//! The brand-kit commands (docs/ipc.md, "Brand kit") against a real sandbox over HTTP: the summary page,
//! filtered reads, all-or-nothing saves with `expectedVersion`, two editors racing on one section (the
//! loser's text kept as a draft across a restart), history and a revert of a revert, add / archive /
//! restore, the knowledge base and its plan cap, and the removed field-model inputs.
mod common;
use api_client::{ApiError, Method, SectionFilter};
use common::{app_on, start_app, Remote};
use contentdesk_core::commands::{self as c, *};
use contentdesk_core::{ipc, AppState, IpcCode};
use serde_json::json;

async fn kit_id(app: &AppState) -> String {
    let kits = c::brand_kits_list(app).await.unwrap();
    kits.iter().find(|k| k.is_default).unwrap_or(&kits[0]).id.clone()
}

async fn version_of(app: &AppState, kit: &str, key: &str) -> i64 {
    let page = c::brand_kit_page(app, BrandKitIdArgs { brand_kit_id: kit.into() }).await.unwrap();
    page.sections.iter().find(|s| s.key == key).unwrap_or_else(|| panic!("no section {key}")).version
}

/// What the service has now, read by someone else.
async fn body_on_service(remote: &Remote, kit: &str, key: &str) -> (i64, String) {
    let v = remote.client().brand_kits().get_sections(kit, &SectionFilter::keys([key])).await.unwrap();
    let s = &v.sections[0];
    (s.version, s.body.clone())
}

fn edit(key: &str, body: &str, expected_version: i64) -> SectionEdit {
    SectionEdit { key: key.into(), body: Some(body.into()), expected_version, ..Default::default() }
}

async fn save(app: &AppState, kit: &str, sections: Vec<SectionEdit>) -> contentdesk_core::IpcResult<Vec<api_types::BrandKitSection>> {
    c::brand_kit_save(app, BrandKitSaveArgs { brand_kit_id: kit.into(), sections }).await
}

#[tokio::test]
async fn the_page_is_the_summary_and_sections_load_by_filter() {
    let remote = Remote::start().await;
    let (app, _, _) = app_on(&remote).await;
    let kit = kit_id(&app).await;
    let page = c::brand_kit_page(&app, BrandKitIdArgs { brand_kit_id: kit.clone() }).await.unwrap();
    assert_eq!(page.id, kit);
    assert_eq!(page.sections.len(), 8, "the eight starter sections");
    for s in &page.sections {
        assert!(["full", "half"].contains(&s.width.as_str()), "{s:?}");
        assert!(["overview", "voice", "visual"].contains(&s.tab.as_str()));
        assert!(s.version >= 1);
    }
    let about = page.sections.iter().find(|s| s.key == "about").unwrap();
    assert_eq!(about.role.as_deref(), Some("about"));
    assert!(about.char_count > 0 && !about.outline.is_empty(), "{about:?}");
    // No bodies in the page's wire shape.
    let wire = serde_json::to_value(&page).unwrap();
    assert!(wire["sections"].as_array().unwrap().iter().all(|s| s.get("body").is_none()), "{wire}");
    assert!(page.drafts.is_empty() && page.archived.is_empty());

    // Bodies by tab, by role, by key (AND-combined).
    let voice = c::brand_kit_sections(&app, BrandKitSectionsArgs { brand_kit_id: kit.clone(), tabs: Some(vec!["voice".into()]), ..Default::default() })
        .await
        .unwrap();
    assert_eq!(voice.sections.len(), 3);
    assert!(voice.sections.iter().all(|s| s.tab == "voice" && !s.body.is_empty()));
    let one = c::brand_kit_sections(
        &app,
        BrandKitSectionsArgs { brand_kit_id: kit.clone(), roles: Some(vec!["offer".into()]), tabs: Some(vec!["overview".into()]), ..Default::default() },
    )
    .await
    .unwrap();
    assert_eq!(one.sections.iter().map(|s| s.key.as_str()).collect::<Vec<_>>(), ["offer"]);

    // An unknown role or tab: the service's 400 with the valid values.
    let e = c::brand_kit_sections(&app, BrandKitSectionsArgs { brand_kit_id: kit.clone(), roles: Some(vec!["villain".into()]), ..Default::default() })
        .await
        .unwrap_err();
    assert_eq!(e.code, IpcCode::Validation);
    assert_eq!(e.status, Some(400), "the service said so: {e:?}");
    assert_eq!(e.field.as_deref(), Some("roles"));
    assert!(e.valid_values.contains(&"about".to_string()) && e.valid_values.contains(&"design_guidelines".to_string()), "{e:?}");
    assert_eq!(e.valid_values.len(), 8);
    let e = c::brand_kit_sections(&app, BrandKitSectionsArgs { brand_kit_id: kit.clone(), tabs: Some(vec!["sidebar".into()]), ..Default::default() })
        .await
        .unwrap_err();
    assert_eq!(e.valid_values, vec!["overview", "voice", "visual"]);
    // No filter at all is a local validation (nothing sent).
    let e = c::brand_kit_sections(&app, BrandKitSectionsArgs { brand_kit_id: kit, ..Default::default() }).await.unwrap_err();
    assert_eq!((e.code, e.status), (IpcCode::Validation, None));
}

#[tokio::test]
async fn two_editors_race_the_loser_keeps_its_text_across_a_restart_and_keep_mine_wins() {
    let remote = Remote::start().await;
    let (alice, _, _) = app_on(&remote).await;
    let (bob, bob_dir, bob_store) = app_on(&remote).await;
    let kit = kit_id(&alice).await;
    // Both open the page at the same version.
    let v = version_of(&alice, &kit, "voice_and_tone").await;
    assert_eq!(version_of(&bob, &kit, "voice_and_tone").await, v);
    let offer_v = version_of(&bob, &kit, "offer").await;
    let (_, offer_before) = body_on_service(&remote, &kit, "offer").await;

    let alices = "## Voice\nWarm, direct, a little dry.";
    let saved = save(&alice, &kit, vec![edit("voice_and_tone", alices, v)]).await.unwrap();
    assert_eq!(saved.len(), 1, "only the saved section comes back");
    assert_eq!((saved[0].version, saved[0].body.as_str()), (v + 1, alices));

    // Bob saves on the old version, together with a fresh edit of another section: all or nothing.
    let bobs = "## Voice\nLoud and playful!";
    let e = save(&bob, &kit, vec![edit("offer", "## Offer\nBob's offer", offer_v), edit("voice_and_tone", bobs, v)])
        .await
        .unwrap_err();
    assert_eq!(e.code, IpcCode::Conflict, "{e:?}");
    assert_eq!(e.status, Some(409));
    assert_eq!(e.conflicts.len(), 1, "{e:?}");
    assert_eq!(e.conflicts[0].key, "voice_and_tone");
    assert_eq!(e.conflicts[0].version, v + 1);
    assert_eq!(e.conflicts[0].body, alices, "the current body, to show beside Bob's");
    assert!(e.message.contains("Nothing was written"), "{}", e.message);
    // Nothing was written, not even the fresh section.
    assert_eq!(body_on_service(&remote, &kit, "voice_and_tone").await, (v + 1, alices.to_string()));
    assert_eq!(body_on_service(&remote, &kit, "offer").await, (offer_v, offer_before));

    // Bob's text is kept as a draft, and survives a restart of his core.
    let drafts = c::brand_kit_drafts(&bob, BrandKitIdArgs { brand_kit_id: kit.clone() }).await.unwrap();
    let d = drafts.iter().find(|d| d.key == "voice_and_tone").expect("kept");
    assert_eq!((d.body.as_deref(), d.expected_version, d.theirs_version), (Some(bobs), v, Some(v + 1)));
    assert_eq!(d.reason, DraftReason::Conflict);
    assert!(drafts.iter().any(|d| d.key == "offer" && d.body.as_deref() == Some("## Offer\nBob's offer")), "the whole refused write is kept");
    drop(bob);
    let bob = start_app(&bob_dir, &bob_store).await;
    let page = c::brand_kit_page(&bob, BrandKitIdArgs { brand_kit_id: kit.clone() }).await.unwrap();
    let d = page.drafts.iter().find(|d| d.key == "voice_and_tone").expect("still kept after a restart");
    assert_eq!(d.body.as_deref(), Some(bobs));
    // Alice (another profile, another computer) has no drafts.
    assert!(c::brand_kit_drafts(&alice, BrandKitIdArgs { brand_kit_id: kit.clone() }).await.unwrap().is_empty());

    // "Keep mine": Bob saves again over the current version. His draft of that section is cleared.
    let saved = save(&bob, &kit, vec![edit("voice_and_tone", bobs, e.conflicts[0].version)]).await.unwrap();
    assert_eq!((saved[0].version, saved[0].body.as_str()), (v + 2, bobs));
    let drafts = c::brand_kit_drafts(&bob, BrandKitIdArgs { brand_kit_id: kit.clone() }).await.unwrap();
    assert!(drafts.iter().all(|d| d.key != "voice_and_tone"), "{drafts:?}");
    // "Take theirs" for the other section: the draft is dropped on purpose.
    let rest = c::brand_kit_draft_discard(&bob, SectionKeyInput { brand_kit_id: kit.clone(), key: "offer".into() }).await.unwrap();
    assert!(rest.is_empty());
    let e = c::brand_kit_draft_discard(&bob, SectionKeyInput { brand_kit_id: kit.clone(), key: "offer".into() }).await.unwrap_err();
    assert_eq!(e.code, IpcCode::NotFound);

    // Both texts survive in the history.
    let h = c::brand_kit_history(&alice, SectionKeyInput { brand_kit_id: kit.clone(), key: "voice_and_tone".into() }).await.unwrap();
    assert_eq!((h.section.version, h.section.body.as_str()), (v + 2, bobs));
    assert_eq!(h.earlier[0].version, v + 1);
    assert_eq!(h.earlier[0].body, alices);
    assert!(h.section.revisions.is_none(), "the earlier versions are in `earlier`");
}

#[tokio::test]
async fn a_save_nothing_answers_keeps_the_text_and_renames_and_widths_save_without_a_new_version() {
    let mut remote = Remote::start().await;
    let (app, _, _) = app_on(&remote).await;
    let kit = kit_id(&app).await;
    let v = version_of(&app, &kit, "about").await;
    // Width and name only: the version stays (it moves on body changes only).
    let saved = save(
        &app,
        &kit,
        vec![SectionEdit { key: "about".into(), width: Some("half".into()), name: Some("Who we are".into()), expected_version: v, ..Default::default() }],
    )
    .await
    .unwrap();
    assert_eq!((saved[0].width.as_str(), saved[0].section_name.as_str(), saved[0].version), ("half", "Who we are", v));

    remote.stop().await;
    let e = save(&app, &kit, vec![edit("about", "## About\nWritten offline", v)]).await.unwrap_err();
    assert_eq!(e.code, IpcCode::Network, "{e:?}");
    assert!(e.message.contains("kept as a draft"), "{}", e.message);
    let drafts = c::brand_kit_drafts(&app, BrandKitIdArgs { brand_kit_id: kit.clone() }).await.unwrap();
    assert_eq!(drafts.len(), 1);
    assert_eq!((drafts[0].reason, drafts[0].theirs_version), (DraftReason::Offline, None));
    remote.restart().await;
    save(&app, &kit, vec![edit("about", "## About\nWritten offline", v)]).await.unwrap();
    assert!(c::brand_kit_drafts(&app, BrandKitIdArgs { brand_kit_id: kit }).await.unwrap().is_empty());
}

/// The keys of one tab in page order.
async fn tab_keys(app: &AppState, kit: &str, tab: &str) -> Vec<String> {
    let page = c::brand_kit_page(app, BrandKitIdArgs { brand_kit_id: kit.into() }).await.unwrap();
    page.sections.into_iter().filter(|s| s.tab == tab).map(|s| s.key).collect()
}

fn place(key: &str, expected_version: i64) -> SectionEdit {
    SectionEdit { key: key.into(), expected_version, ..Default::default() }
}

#[tokio::test]
async fn sections_move_to_another_tab_and_reorder_through_the_save_with_conflicts_and_offline_kept() {
    let mut remote = Remote::start().await;
    let (app, dir, store) = app_on(&remote).await;
    let kit = kit_id(&app).await;
    let page = c::brand_kit_page(&app, BrandKitIdArgs { brand_kit_id: kit.clone() }).await.unwrap();
    let id = |k: &str| page.sections.iter().find(|s| s.key == k).unwrap().id.clone();
    assert_eq!(tab_keys(&app, &kit, "overview").await, ["about", "audience", "offer", "content_strategy"]);
    // Reorder within the tab: offer before about.
    let v = version_of(&app, &kit, "offer").await;
    save(&app, &kit, vec![SectionEdit { before_id: Some(id("about")), ..place("offer", v) }]).await.unwrap();
    assert_eq!(tab_keys(&app, &kit, "overview").await, ["offer", "about", "audience", "content_strategy"]);
    // Move to another tab, after a section there; the version stays (it counts body changes).
    let saved = save(&app, &kit, vec![SectionEdit { tab: Some("voice".into()), after_id: Some(id("voice_and_tone")), ..place("offer", v) }])
        .await
        .unwrap();
    assert_eq!((saved[0].tab.as_str(), saved[0].version), ("voice", v));
    assert_eq!(tab_keys(&app, &kit, "voice").await, ["voice_and_tone", "offer", "writing_style", "speaking_style"]);
    // Placed two ways: refused before sending.
    let e = save(&app, &kit, vec![SectionEdit { position: Some("top".into()), after_id: Some(id("about")), ..place("offer", v) }])
        .await
        .unwrap_err();
    assert_eq!((e.code, e.field.as_deref(), e.status), (IpcCode::Validation, Some("sections[0].position"), None));

    // Someone else changes the body meanwhile: the move is a conflict, nothing moves, the move is kept.
    remote.client().brand_kits().write_sections(&kit, vec![api_types::SectionWrite { key: Some("offer".into()), body: Some("theirs".into()), expected_version: Some(v), ..Default::default() }])
        .await
        .unwrap();
    let e = save(&app, &kit, vec![SectionEdit { position: Some("top".into()), ..place("offer", v) }]).await.unwrap_err();
    assert_eq!(e.code, IpcCode::Conflict, "{e:?}");
    assert_eq!(tab_keys(&app, &kit, "voice").await[1], "offer", "nothing moved");
    let drafts = c::brand_kit_drafts(&app, BrandKitIdArgs { brand_kit_id: kit.clone() }).await.unwrap();
    assert_eq!((drafts[0].key.as_str(), drafts[0].position.as_deref(), drafts[0].reason), ("offer", Some("top"), DraftReason::Conflict));

    // Offline: the move is kept on this computer across a restart, then sent.
    remote.stop().await;
    let e = save(&app, &kit, vec![SectionEdit { tab: Some("visual".into()), position: Some("top".into()), ..place("offer", v + 1) }]).await.unwrap_err();
    assert_eq!(e.code, IpcCode::Network, "{e:?}");
    drop(app);
    let app = start_app(&dir, &store).await;
    let drafts = c::brand_kit_drafts(&app, BrandKitIdArgs { brand_kit_id: kit.clone() }).await.unwrap();
    let d = drafts.iter().find(|d| d.key == "offer").unwrap();
    assert_eq!((d.tab.as_deref(), d.position.as_deref(), d.expected_version, d.reason), (Some("visual"), Some("top"), v + 1, DraftReason::Offline));
    remote.restart().await;
    save(&app, &kit, vec![SectionEdit { tab: d.tab.clone(), position: d.position.clone(), ..place("offer", d.expected_version) }]).await.unwrap();
    assert_eq!(tab_keys(&app, &kit, "visual").await, ["offer", "design_guidelines"]);
    assert!(c::brand_kit_drafts(&app, BrandKitIdArgs { brand_kit_id: kit }).await.unwrap().is_empty());
}

#[tokio::test]
async fn a_revert_lands_as_a_new_version_and_can_itself_be_reverted() {
    let remote = Remote::start().await;
    let (app, _, _) = app_on(&remote).await;
    let kit = kit_id(&app).await;
    let key = "writing_style";
    let v1 = version_of(&app, &kit, key).await;
    let (_, original) = body_on_service(&remote, &kit, key).await;
    let b = save(&app, &kit, vec![edit(key, "## Style\nShort sentences.", v1)]).await.unwrap()[0].version;
    let c3 = save(&app, &kit, vec![edit(key, "## Style\nLong, winding sentences.", b)]).await.unwrap()[0].version;

    let reverted = c::brand_kit_revert(&app, BrandKitRevertArgs { brand_kit_id: kit.clone(), key: key.into(), version: v1, expected_version: c3 })
        .await
        .unwrap();
    assert_eq!(reverted.version, c3 + 1, "a revert is a new version");
    assert_eq!(reverted.body, original);

    // Revert the revert: back to the text before it, again as a new version.
    let again = c::brand_kit_revert(&app, BrandKitRevertArgs { brand_kit_id: kit.clone(), key: key.into(), version: c3, expected_version: reverted.version })
        .await
        .unwrap();
    assert_eq!(again.version, c3 + 2);
    assert_eq!(again.body, "## Style\nLong, winding sentences.");

    let h = c::brand_kit_history(&app, SectionKeyInput { brand_kit_id: kit.clone(), key: key.into() }).await.unwrap();
    let versions: Vec<i64> = h.earlier.iter().map(|r| r.version).collect();
    assert_eq!(versions, (1..=c3 + 1).rev().collect::<Vec<_>>(), "every version kept, newest first");
    assert_eq!(h.earlier[0].body, original, "the revert itself is in the history");

    // A stale revert is a conflict; nothing changes.
    let e = c::brand_kit_revert(&app, BrandKitRevertArgs { brand_kit_id: kit.clone(), key: key.into(), version: v1, expected_version: c3 })
        .await
        .unwrap_err();
    assert_eq!(e.code, IpcCode::Conflict);
    assert_eq!(e.conflicts[0].version, c3 + 2);
    // An unknown version: the service's 400.
    let e = c::brand_kit_revert(&app, BrandKitRevertArgs { brand_kit_id: kit, key: key.into(), version: 99, expected_version: c3 + 2 })
        .await
        .unwrap_err();
    assert_eq!((e.code, e.status), (IpcCode::Validation, Some(400)));
}

#[tokio::test]
async fn a_section_is_added_archived_and_restored() {
    let remote = Remote::start().await;
    let (app, _, _) = app_on(&remote).await;
    let kit = kit_id(&app).await;
    let add = |name: &str, tab: &str| BrandKitSectionAddArgs {
        brand_kit_id: kit.clone(),
        name: name.into(),
        tab: tab.into(),
        width: Some("half".into()),
        role: None,
        body: Some("## Hook one\n- Start with the result".into()),
    };
    let s = c::brand_kit_section_add(&app, add("Hooks", "voice")).await.unwrap();
    assert!(s.key.starts_with("custom_"), "{s:?}");
    assert_eq!((s.role.as_deref(), s.tab.as_str(), s.width.as_str(), s.version), (None, "voice", "half", 1));
    let page = c::brand_kit_page(&app, BrandKitIdArgs { brand_kit_id: kit.clone() }).await.unwrap();
    let listed = page.sections.iter().find(|p| p.key == s.key).unwrap();
    assert_eq!(listed.outline, vec!["Hook one"]);

    // Name and tab are required, checked before sending.
    for (args, field) in [(add(" ", "voice"), "name"), (add("X", ""), "tab"), (add("X", "sidebar"), "tab")] {
        let e = c::brand_kit_section_add(&app, args).await.unwrap_err();
        assert_eq!((e.code, e.field.as_deref(), e.status), (IpcCode::Validation, Some(field), None), "{e:?}");
    }
    let e = c::brand_kit_section_add(&app, BrandKitSectionAddArgs { role: Some("about".into()), ..add("X", "voice") }).await.unwrap_err();
    assert_eq!(e.field.as_deref(), Some("role"));
    let e = ipc::dispatch(&app, "brand_kit_section_add", json!({ "brandKitId": kit, "name": "X" })).await.unwrap_err();
    assert_eq!((e.code, e.field.as_deref()), (IpcCode::Validation, Some("tab")));
    assert_eq!(c::brand_kit_page(&app, BrandKitIdArgs { brand_kit_id: kit.clone() }).await.unwrap().sections.len(), 9, "nothing else added");

    // Archive: gone from the page, offered for restore.
    let r = c::brand_kit_section_archive(&app, BrandKitSectionArchiveArgs { brand_kit_id: kit.clone(), key: s.key.clone(), archived: true, section_id: None })
        .await
        .unwrap();
    assert!(r.archived);
    let page = c::brand_kit_page(&app, BrandKitIdArgs { brand_kit_id: kit.clone() }).await.unwrap();
    assert!(page.sections.iter().all(|p| p.key != s.key));
    assert_eq!(page.archived.len(), 1);
    assert_eq!((page.archived[0].key.as_str(), page.archived[0].id.as_str(), page.archived[0].section_name.as_str()), (s.key.as_str(), s.id.as_str(), "Hooks"));

    // Restore: back with its version and body.
    let r = c::brand_kit_section_archive(&app, BrandKitSectionArchiveArgs { brand_kit_id: kit.clone(), key: s.key.clone(), archived: false, section_id: None })
        .await
        .unwrap();
    assert!(!r.archived);
    let page = c::brand_kit_page(&app, BrandKitIdArgs { brand_kit_id: kit.clone() }).await.unwrap();
    assert!(page.sections.iter().any(|p| p.key == s.key && p.version == 1));
    assert!(page.archived.is_empty());

    // A starter section archived on this computer is listed on another (read from the service, not from
    // what this computer remembers) and restored there by its key alone.
    c::brand_kit_section_archive(&app, BrandKitSectionArchiveArgs { brand_kit_id: kit.clone(), key: "speaking_style".into(), archived: true, section_id: None })
        .await
        .unwrap();
    let (other, _, _) = app_on(&remote).await;
    let there = c::brand_kit_page(&other, BrandKitIdArgs { brand_kit_id: kit.clone() }).await.unwrap();
    assert_eq!(there.archived.iter().map(|a| (a.key.as_str(), a.tab.as_str())).collect::<Vec<_>>(), [("speaking_style", "voice")]);
    c::brand_kit_section_archive(&other, BrandKitSectionArchiveArgs { brand_kit_id: kit.clone(), key: "speaking_style".into(), archived: false, section_id: None })
        .await
        .unwrap();
    let e = c::brand_kit_section_archive(&other, BrandKitSectionArchiveArgs { brand_kit_id: kit.clone(), key: "speaking_style".into(), archived: false, section_id: None })
        .await
        .unwrap_err();
    assert_eq!(e.code, IpcCode::NotFound, "restored already: {e:?}");
    // Restored elsewhere: no longer offered here.
    let page = c::brand_kit_page(&app, BrandKitIdArgs { brand_kit_id: kit }).await.unwrap();
    assert!(page.sections.iter().any(|p| p.key == "speaking_style"));
    assert!(page.archived.is_empty());
}

#[tokio::test]
async fn the_knowledge_base_lists_searches_adds_and_removes() {
    let remote = Remote::start().await;
    let (app, _, _) = app_on(&remote).await;
    let kit = kit_id(&app).await;
    let list = c::knowledge_list(&app, KnowledgeListArgs { brand_kit_id: kit.clone(), limit: Some(2), offset: None }).await.unwrap();
    assert_eq!(list.items.len(), 2);
    assert!(list.has_more && list.total >= 3, "{list:?}");
    let page2 = c::knowledge_list(&app, KnowledgeListArgs { brand_kit_id: kit.clone(), limit: Some(2), offset: Some(2) }).await.unwrap();
    assert!(page2.items.iter().all(|i| list.items.iter().all(|j| j.id != i.id)));
    let e = c::knowledge_list(&app, KnowledgeListArgs { brand_kit_id: kit.clone(), limit: Some(0), offset: None }).await.unwrap_err();
    assert_eq!(e.field.as_deref(), Some("limit"));

    let add = |f: fn(&mut KnowledgeAddArgs)| {
        let mut a = KnowledgeAddArgs { brand_kit_id: kit.clone(), ..Default::default() };
        f(&mut a);
        a
    };
    let text = c::knowledge_add(&app, add(|a| {
        a.text = Some("Our studio ships every parcel in recycled kraft boxes with a handwritten thank-you card.".into());
        a.title = Some("Packaging".into());
    }))
    .await
    .unwrap();
    assert_eq!((text.item.as_ref().expect("an item").source_type.as_str(), text.item.as_ref().expect("an item").title.as_deref(), text.limit_reached), ("text", Some("Packaging"), false));
    // A small document as base64 (the bytes of "# Returns\nThirty days, no questions.").
    let md = c::knowledge_add(&app, add(|a| {
        a.file_data = Some("IyBSZXR1cm5zClRoaXJ0eSBkYXlzLCBubyBxdWVzdGlvbnMu".into());
        a.file_name = Some("returns.md".into());
    }))
    .await
    .unwrap();
    assert_eq!((md.item.as_ref().expect("an item").source_type.as_str(), md.item.as_ref().expect("an item").file_ext.as_deref()), ("file", Some("md")));
    let page = c::knowledge_add(&app, add(|a| a.url = Some("https://demostudio.example/about".into()))).await.unwrap();
    assert_eq!(page.item.as_ref().expect("an item").source_type, "url");
    let video = c::knowledge_add(&app, add(|a| a.file_url = Some("https://cdn.example.com/launch-talk.mp4".into()))).await.unwrap();
    assert_eq!((video.item.as_ref().expect("an item").source_type.as_str(), video.item.as_ref().expect("an item").file_ext.as_deref()), ("file", Some("mp4")));

    let matches = c::knowledge_search(&app, KnowledgeSearchInput { brand_kit_id: kit.clone(), query: "recycled kraft boxes".into(), limit: None, threshold: None })
        .await
        .unwrap();
    assert_eq!(matches[0].knowledge_id.as_deref(), Some(text.item.as_ref().expect("an item").id.as_str()), "{matches:?}");
    assert!(matches[0].similarity > 0.0 && matches[0].similarity <= 1.0);
    let e = c::knowledge_search(&app, KnowledgeSearchInput { brand_kit_id: kit.clone(), query: "  ".into(), limit: None, threshold: None }).await.unwrap_err();
    assert_eq!(e.field.as_deref(), Some("query"));
    // The search's rules are the catalogue's (`KnowledgeSearchInput::check`, as in `cdesk knowledge search`
    // and `search_brand_knowledge`): 1 to 50 passages, refused before anything is sent.
    for limit in [0, 51] {
        let e = ipc::dispatch(&app, "knowledge_search", json!({ "brandKitId": kit, "query": "kraft", "limit": limit })).await.unwrap_err();
        assert_eq!((e.code, e.field.as_deref(), e.status), (IpcCode::Validation, Some("limit"), None), "{e:?}");
        assert_eq!(e.message, "Ask for 1 to 50 matches.");
    }

    let total = c::knowledge_list(&app, KnowledgeListArgs { brand_kit_id: kit.clone(), limit: None, offset: None }).await.unwrap().total;
    let gone = c::knowledge_remove(&app, KnowledgeItemInput { brand_kit_id: kit.clone(), knowledge_id: text.item.as_ref().expect("an item").id.clone() }).await.unwrap();
    assert_eq!(gone.id, text.item.as_ref().expect("an item").id);
    let after = c::knowledge_list(&app, KnowledgeListArgs { brand_kit_id: kit.clone(), limit: None, offset: None }).await.unwrap();
    assert_eq!(after.total, total - 1);
    assert!(after.items.iter().all(|i| i.id != text.item.as_ref().expect("an item").id));
    let e = c::knowledge_remove(&app, KnowledgeItemInput { brand_kit_id: kit, knowledge_id: text.item.as_ref().expect("an item").id.clone() }).await.unwrap_err();
    assert_eq!(e.code, IpcCode::NotFound);
}

#[tokio::test]
async fn large_files_and_video_as_base64_are_refused_before_sending_with_the_hosted_url_way() {
    let remote = Remote::start().await;
    let (app, _, _) = app_on(&remote).await;
    let kit = kit_id(&app).await;
    let before = c::knowledge_list(&app, KnowledgeListArgs { brand_kit_id: kit.clone(), limit: None, offset: None }).await.unwrap().total;
    // 5 MiB of zero bytes, as base64.
    let big = "A".repeat(5 * 1024 * 1024 / 3 * 4);
    let e = c::knowledge_add(&app, KnowledgeAddArgs { brand_kit_id: kit.clone(), file_data: Some(big), file_name: Some("catalogue.pdf".into()), ..Default::default() })
        .await
        .unwrap_err();
    assert_eq!((e.code, e.field.as_deref(), e.status), (IpcCode::Validation, Some("fileData"), None), "{e:?}");
    assert!(e.message.contains("fileUrl") && e.message.contains("hosted"), "{}", e.message);
    let e = c::knowledge_add(
        &app,
        KnowledgeAddArgs { brand_kit_id: kit.clone(), file_data: Some("AAAA".into()), file_name: Some("interview.mov".into()), ..Default::default() },
    )
    .await
    .unwrap_err();
    assert!(e.message.contains("Video and audio") && e.message.contains("fileUrl"), "{}", e.message);
    let e = c::knowledge_add(
        &app,
        KnowledgeAddArgs { brand_kit_id: kit.clone(), file_data: Some("AAAA".into()), file_ext: Some("dat".into()), mime_type: Some("audio/wav".into()), ..Default::default() },
    )
    .await
    .unwrap_err();
    assert_eq!(e.status, None);
    let after = c::knowledge_list(&app, KnowledgeListArgs { brand_kit_id: kit, limit: None, offset: None }).await.unwrap().total;
    assert_eq!(after, before, "nothing was sent");
}

#[tokio::test]
async fn the_knowledge_cap_is_limit_reached_saying_the_kit_is_at_its_plans_cap() {
    let mut config = sandbox::Config::for_tests();
    config.knowledge_cap = 4;
    let remote = Remote::start_with(config).await;
    let (app, _, _) = app_on(&remote).await;
    let kit = kit_id(&app).await;
    let list = |app: &AppState| {
        let kit = kit.clone();
        let app = app.clone();
        async move { c::knowledge_list(&app, KnowledgeListArgs { brand_kit_id: kit, limit: None, offset: None }).await.unwrap().total }
    };
    let mut added = 0;
    let e = loop {
        let n = list(&app).await;
        match c::knowledge_add(&app, KnowledgeAddArgs { brand_kit_id: kit.clone(), text: Some(format!("note {added}")), ..Default::default() }).await {
            Ok(_) => {
                added += 1;
                assert!(added <= 4, "the cap held");
            }
            Err(e) => {
                assert_eq!(n, 4, "refused exactly at the cap");
                break e;
            }
        }
    };
    assert!(added >= 1);
    assert_eq!(e.code, IpcCode::LimitReached, "{e:?}");
    assert_eq!(e.status, Some(402));
    let m = e.message.to_lowercase();
    assert!(m.contains("this kit is at its plan's cap"), "{}", e.message);
    assert!(m.contains("4 of 4") && m.contains("remove an item") && m.contains("upgrade the plan"), "{}", e.message);
    assert_eq!(list(&app).await, 4, "nothing was added");
    // Removing one makes room again.
    let first = c::knowledge_list(&app, KnowledgeListArgs { brand_kit_id: kit.clone(), limit: Some(1), offset: None }).await.unwrap().items[0].id.clone();
    c::knowledge_remove(&app, KnowledgeItemInput { brand_kit_id: kit.clone(), knowledge_id: first }).await.unwrap();
    c::knowledge_add(&app, KnowledgeAddArgs { brand_kit_id: kit, text: Some("fits again".into()), ..Default::default() }).await.unwrap();
}

const REMOVED: [&str; 10] = [
    "businessName", "primaryOffer", "nicheDefinition", "positioning", "audience", "voiceProfile", "contentStrategy",
    "visualStyle", "designPrinciples", "fields",
];

#[tokio::test]
async fn the_removed_field_model_inputs_are_refused_by_the_core_before_anything_is_sent() {
    let remote = Remote::start().await;
    let (app, _, _) = app_on(&remote).await;
    let kit = kit_id(&app).await;
    let v = version_of(&app, &kit, "design_guidelines").await;
    let (_, body) = body_on_service(&remote, &kit, "design_guidelines").await;
    let sections_before = c::brand_kit_page(&app, BrandKitIdArgs { brand_kit_id: kit.clone() }).await.unwrap().sections;
    assert_eq!(REMOVED.len(), api_types::REMOVED_INPUTS.len());
    for name in REMOVED {
        let entry = json!({ "key": "design_guidelines", "body": "## Bold", "expectedVersion": v });
        // Beside the sections, inside a section entry, and on an added section.
        let tries = [
            ("brand_kit_save", json!({ "brandKitId": kit, "sections": [entry.clone()], name: "bold" }), name.to_string()),
            ("brand_kit_save", json!({ "brandKitId": kit, "sections": [{ "key": "design_guidelines", "body": "## Bold", "expectedVersion": v, name: "bold" }] }), format!("sections[0].{name}")),
            ("brand_kit_section_add", json!({ "brandKitId": kit, "name": "Look", "tab": "visual", name: "bold" }), name.to_string()),
        ];
        for (command, args, field) in tries {
            let e = ipc::dispatch(&app, command, args).await.unwrap_err();
            assert_eq!(e.code, IpcCode::Validation, "{command} {name}: {e:?}");
            assert_eq!(e.status, None, "{command} {name}: nothing went over the wire");
            assert_eq!(e.field.as_deref(), Some(field.as_str()), "{command} {name}: {e:?}");
            assert!(e.message.contains(name), "{command}: {}", e.message);
        }
    }
    // Nothing reached the service.
    assert_eq!(body_on_service(&remote, &kit, "design_guidelines").await, (v, body));
    assert_eq!(c::brand_kit_page(&app, BrandKitIdArgs { brand_kit_id: kit }).await.unwrap().sections, sections_before);
}

#[tokio::test]
async fn the_sandbox_answers_each_removed_input_with_a_400_naming_the_section_to_write() {
    let remote = Remote::start().await;
    let client = remote.client();
    let kit = client.brand_kits().list().await.unwrap()[0].id.clone();
    let expected = |name: &str| match name {
        "businessName" | "nicheDefinition" | "positioning" => Some("about"),
        "primaryOffer" => Some("offer"),
        "audience" => Some("audience"),
        "voiceProfile" => Some("voice_and_tone"),
        "contentStrategy" => Some("content_strategy"),
        "visualStyle" | "designPrinciples" => Some("design_guidelines"),
        _ => None,
    };
    for name in REMOVED {
        let e = client.send_json(Method::PATCH, &format!("/brand-kits/{kit}"), Some(&json!({ name: "old" }))).await.unwrap_err();
        assert_eq!(e.status(), Some(400), "{name}: {e:?}");
        let ApiError::Validation { message, field, .. } = &e else { panic!("{name}: {e:?}") };
        assert_eq!(field.as_deref(), Some(name));
        assert!(message.contains(name) && message.contains("sections") && message.contains("detail=summary"), "{message}");
        if let Some(section) = expected(name) {
            assert!(message.contains(&format!("`{section}`")), "{name} names {section}: {message}");
        }
    }
    let e = client.send_json(Method::PATCH, &format!("/brand-kits/{kit}"), Some(&json!({ "designPrinciples": "x" }))).await.unwrap_err();
    assert!(e.to_string().contains("Visual style and design principles belong in the `design_guidelines` section"), "{e}");
}

#[tokio::test]
async fn every_brand_kit_command_answers_through_dispatch_by_name() {
    let remote = Remote::start().await;
    let (app, _, _) = app_on(&remote).await;
    let kit = kit_id(&app).await;
    let names = [
        "brand_kit_page", "brand_kit_sections", "brand_kit_save", "brand_kit_drafts", "brand_kit_draft_discard",
        "brand_kit_section_add", "brand_kit_section_archive", "brand_kit_history", "brand_kit_revert", "knowledge_list",
        "knowledge_search", "knowledge_add", "knowledge_remove",
    ];
    for n in names {
        assert!(ipc::COMMANDS.contains(&n), "{n} is listed");
    }
    let call = |name: &'static str, args: serde_json::Value| {
        let app = app.clone();
        async move { ipc::dispatch(&app, name, args).await }
    };
    let page = call("brand_kit_page", json!({ "brandKitId": kit })).await.unwrap();
    let offer = page["sections"].as_array().unwrap().iter().find(|s| s["key"] == "offer").unwrap().clone();
    assert!(offer["charCount"].as_i64().unwrap() > 0 && offer.get("body").is_none(), "{offer}");
    assert_eq!(page["drafts"], json!([]));
    let v = offer["version"].as_i64().unwrap();
    let read = call("brand_kit_sections", json!({ "brandKitId": kit, "keys": ["offer"] })).await.unwrap();
    assert_eq!(read["sections"][0]["key"], "offer");
    let saved = call("brand_kit_save", json!({ "brandKitId": kit, "sections": [{ "key": "offer", "body": "## Offer\nNew", "expectedVersion": v }] }))
        .await
        .unwrap();
    assert_eq!(saved[0]["version"], v + 1);
    let e = call("brand_kit_save", json!({ "brandKitId": kit, "sections": [{ "key": "offer", "body": "## Offer\nStale", "expectedVersion": v }] }))
        .await
        .unwrap_err();
    let wire = serde_json::to_value(&e).unwrap();
    assert_eq!(wire["code"], "conflict");
    assert_eq!(wire["conflicts"], json!([{ "key": "offer", "version": v + 1, "body": "## Offer\nNew" }]));
    let drafts = call("brand_kit_drafts", json!({ "brandKitId": kit })).await.unwrap();
    assert_eq!(drafts[0]["key"], "offer");
    assert_eq!(drafts[0]["reason"], "conflict");
    assert_eq!(drafts[0]["theirsVersion"], v + 1);
    assert_eq!(call("brand_kit_draft_discard", json!({ "brandKitId": kit, "key": "offer" })).await.unwrap(), json!([]));
    let added = call("brand_kit_section_add", json!({ "brandKitId": kit, "name": "FAQ", "tab": "overview" })).await.unwrap();
    assert_eq!(added["width"], "full");
    let key = added["key"].as_str().unwrap();
    assert_eq!(call("brand_kit_section_archive", json!({ "brandKitId": kit, "key": key, "archived": true })).await.unwrap(), json!({ "archived": true }));
    assert_eq!(call("brand_kit_section_archive", json!({ "brandKitId": kit, "key": key, "archived": false })).await.unwrap(), json!({ "archived": false }));
    let h = call("brand_kit_history", json!({ "brandKitId": kit, "key": "offer" })).await.unwrap();
    assert_eq!(h["earlier"][0]["version"], v);
    let r = call("brand_kit_revert", json!({ "brandKitId": kit, "key": "offer", "version": v, "expectedVersion": v + 1 })).await.unwrap();
    assert_eq!(r["version"], v + 2);
    let list = call("knowledge_list", json!({ "brandKitId": kit, "limit": 1 })).await.unwrap();
    assert_eq!(list["items"].as_array().unwrap().len(), 1);
    assert!(list["hasMore"].as_bool().unwrap());
    let item = call("knowledge_add", json!({ "brandKitId": kit, "text": "We answer every email within a day." })).await.unwrap();
    assert_eq!(item["limitReached"], false);
    let found = call("knowledge_search", json!({ "brandKitId": kit, "query": "answer every email" })).await.unwrap();
    assert_eq!(found[0]["knowledgeId"], item["item"]["id"]);
    let gone = call("knowledge_remove", json!({ "brandKitId": kit, "knowledgeId": item["item"]["id"] })).await.unwrap();
    assert_eq!(gone["id"], item["item"]["id"]);
    // A missing field is named.
    let e = call("brand_kit_revert", json!({ "brandKitId": kit, "key": "offer", "version": 1 })).await.unwrap_err();
    assert_eq!(e.field.as_deref(), Some("expectedVersion"));
}

/// A service that refuses to list archived sections (`detail=summary&archived=true` answering 400: the
/// query is our inference, the spec is silent) falls back to the sections archived from this computer,
/// less those live again. The sandbox lists them, so a front on the same sandbox (its own router behind a
/// rule, `common::faulty_front`) answers that one read with the 400 such a service would give; every other
/// request, the archive and restore included, is the sandbox's own.
#[tokio::test]
async fn a_service_that_will_not_list_archived_sections_falls_back_to_this_computers_list() {
    use std::sync::atomic::Ordering;
    let remote = Remote::start().await;
    let rule = |m: &axum::http::Method, u: &axum::http::Uri| {
        let q = u.query().unwrap_or("");
        (m == axum::http::Method::GET && u.path().starts_with("/api/v1/brand-kits/") && q.contains("archived=true"))
            .then(|| (400, json!({ "error": "Unknown query parameter: archived", "field": "archived" }), false))
    };
    let (front, _on, refused) = common::faulty_front(remote.state.clone(), rule).await;
    let (app, _dir) = common::app_at(format!("http://{front}{}", api_types::API_PREFIX), &remote.key).await;
    let kit = kit_id(&app).await;
    let page = |app: &AppState| {
        let kit = kit.clone();
        let app = app.clone();
        async move { c::brand_kit_page(&app, BrandKitIdArgs { brand_kit_id: kit }).await.unwrap() }
    };
    let archive = |key: &str, archived: bool| BrandKitSectionArchiveArgs { brand_kit_id: kit.clone(), key: key.into(), archived, section_id: None };

    // Archived here: offered for restore from this computer's list.
    c::brand_kit_section_archive(&app, archive("speaking_style", true)).await.unwrap();
    let p = page(&app).await;
    assert!(refused.load(Ordering::SeqCst) >= 1, "the service refused the archived read");
    assert_eq!(p.archived.iter().map(|a| a.key.as_str()).collect::<Vec<_>>(), ["speaking_style"], "{:?}", p.archived);
    assert!(p.sections.iter().all(|s| s.key != "speaking_style"));

    // Archived elsewhere (straight to the service): this computer cannot know it, and says nothing wrong.
    let direct = remote.client();
    let other = direct.brand_kits().get_summary(&kit).await.unwrap().sections.into_iter().find(|s| s.key == "about").unwrap();
    direct.archive(&api_types::ArchiveRequest { asset_type: "brand_kit_section".into(), id: other.id, archived: Some(true), ..Default::default() }).await.unwrap();
    let p = page(&app).await;
    assert_eq!(p.archived.iter().map(|a| a.key.as_str()).collect::<Vec<_>>(), ["speaking_style"]);

    // Restored here from the fallback list (by the id this computer kept): live again, no longer offered.
    c::brand_kit_section_archive(&app, archive("speaking_style", false)).await.unwrap();
    let p = page(&app).await;
    assert!(p.sections.iter().any(|s| s.key == "speaking_style"));
    assert!(p.archived.is_empty(), "{:?}", p.archived);

    // Archived here again, then restored elsewhere: live again, so the fallback no longer offers it.
    c::brand_kit_section_archive(&app, archive("speaking_style", true)).await.unwrap();
    assert_eq!(page(&app).await.archived.len(), 1);
    let kept_id = page(&app).await.archived[0].id.clone();
    direct.archive(&api_types::ArchiveRequest { asset_type: "brand_kit_section".into(), id: kept_id, archived: Some(false), ..Default::default() }).await.unwrap();
    let p = page(&app).await;
    assert!(p.sections.iter().any(|s| s.key == "speaking_style"));
    assert!(p.archived.is_empty(), "restored elsewhere: {:?}", p.archived);
}
