//! brand kit: the page, filtered reads, saves and races, moves, reverts, add / archive / restore.
use super::*;

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
    let voice = c::brand_kit_sections(&app, BrandKitGetInput { brand_kit_id: kit.clone(), tabs: vec!["voice".into()], ..Default::default() })
        .await
        .unwrap();
    assert_eq!(voice.sections.len(), 3);
    assert!(voice.sections.iter().all(|s| s.tab == "voice" && !s.body.is_empty()));
    let one = c::brand_kit_sections(
        &app,
        BrandKitGetInput { brand_kit_id: kit.clone(), roles: vec!["offer".into()], tabs: vec!["overview".into()], ..Default::default() },
    )
    .await
    .unwrap();
    assert_eq!(one.sections.iter().map(|s| s.key.as_str()).collect::<Vec<_>>(), ["offer"]);
    // The catalogue's input (as `cdesk brand-kit get` and `get_brand_kit`): `history` adds earlier versions,
    // `detail` is the page's (refused by name, nothing sent).
    let with = c::brand_kit_sections(&app, BrandKitGetInput { brand_kit_id: kit.clone(), keys: vec!["offer".into()], history: true, ..Default::default() })
        .await
        .unwrap();
    assert!(with.sections.iter().all(|s| s.revisions.is_some()), "{with:?}");
    let without = c::brand_kit_sections(&app, BrandKitGetInput { brand_kit_id: kit.clone(), keys: vec!["offer".into()], ..Default::default() }).await.unwrap();
    assert!(without.sections.iter().all(|s| s.revisions.is_none()), "{without:?}");
    let e = c::brand_kit_sections(&app, BrandKitGetInput { brand_kit_id: kit.clone(), keys: vec!["offer".into()], detail: Some("summary".into()), ..Default::default() })
        .await
        .unwrap_err();
    assert_eq!((e.code, e.field.as_deref(), e.status), (IpcCode::Validation, Some("detail"), None));

    // An unknown role or tab: the service's 400 with the valid values.
    let e = c::brand_kit_sections(&app, BrandKitGetInput { brand_kit_id: kit.clone(), roles: vec!["villain".into()], ..Default::default() })
        .await
        .unwrap_err();
    assert_eq!(e.code, IpcCode::Validation);
    assert_eq!(e.status, Some(400), "the service said so: {e:?}");
    assert_eq!(e.field.as_deref(), Some("roles"));
    assert!(e.valid_values.contains(&"about".to_string()) && e.valid_values.contains(&"design_guidelines".to_string()), "{e:?}");
    assert_eq!(e.valid_values.len(), 8);
    let e = c::brand_kit_sections(&app, BrandKitGetInput { brand_kit_id: kit.clone(), tabs: vec!["sidebar".into()], ..Default::default() })
        .await
        .unwrap_err();
    assert_eq!(e.valid_values, vec!["overview", "voice", "visual"]);
    // No filter at all is a local validation (nothing sent).
    let e = c::brand_kit_sections(&app, BrandKitGetInput { brand_kit_id: kit, ..Default::default() }).await.unwrap_err();
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

    let reverted = c::brand_kit_revert(&app, SectionRevertInput { brand_kit_id: kit.clone(), key: key.into(), to: v1, expected_version: Some(c3) })
        .await
        .unwrap();
    assert_eq!(reverted.version, c3 + 1, "a revert is a new version");
    assert_eq!(reverted.body, original);

    // Revert the revert: back to the text before it, again as a new version.
    let again = c::brand_kit_revert(&app, SectionRevertInput { brand_kit_id: kit.clone(), key: key.into(), to: c3, expected_version: Some(reverted.version) })
        .await
        .unwrap();
    assert_eq!(again.version, c3 + 2);
    assert_eq!(again.body, "## Style\nLong, winding sentences.");

    let h = c::brand_kit_history(&app, SectionKeyInput { brand_kit_id: kit.clone(), key: key.into() }).await.unwrap();
    let versions: Vec<i64> = h.earlier.iter().map(|r| r.version).collect();
    assert_eq!(versions, (1..=c3 + 1).rev().collect::<Vec<_>>(), "every version kept, newest first");
    assert_eq!(h.earlier[0].body, original, "the revert itself is in the history");

    // A stale revert is a conflict; nothing changes.
    let e = c::brand_kit_revert(&app, SectionRevertInput { brand_kit_id: kit.clone(), key: key.into(), to: v1, expected_version: Some(c3) })
        .await
        .unwrap_err();
    assert_eq!(e.code, IpcCode::Conflict);
    assert_eq!(e.conflicts[0].version, c3 + 2);
    // An unknown version: the service's 400.
    let e = c::brand_kit_revert(&app, SectionRevertInput { brand_kit_id: kit, key: key.into(), to: 99, expected_version: Some(c3 + 2) })
        .await
        .unwrap_err();
    assert_eq!((e.code, e.status), (IpcCode::Validation, Some(400)));
}

#[tokio::test]
async fn a_section_is_added_archived_and_restored() {
    let remote = Remote::start().await;
    let (app, _, _) = app_on(&remote).await;
    let kit = kit_id(&app).await;
    // The app's JSON, read as the catalogue's input (as the desktop shell reads it).
    let add_with = |extra: serde_json::Value| -> SectionAddInput {
        let mut v = json!({ "brandKitId": kit, "sectionName": "Hooks", "tab": "voice", "width": "half", "body": "## Hook one\n- Start with the result" });
        v.as_object_mut().unwrap().extend(extra.as_object().unwrap().clone());
        serde_json::from_value(v).unwrap()
    };
    let s = c::brand_kit_section_add(&app, add_with(json!({}))).await.unwrap();
    assert!(s.key.starts_with("custom_"), "{s:?}");
    assert_eq!((s.role.as_deref(), s.tab.as_str(), s.width.as_str(), s.version), (None, "voice", "half", 1));
    let page = c::brand_kit_page(&app, BrandKitIdArgs { brand_kit_id: kit.clone() }).await.unwrap();
    let listed = page.sections.iter().find(|p| p.key == s.key).unwrap();
    assert_eq!(listed.outline, vec!["Hook one"]);

    // The catalogue's rules (`SectionAddInput::check`, as cdesk's and agents'), checked before sending: a
    // name with words and at most 120 characters, a known width and tab, no role nor any field it does
    // not name (the old `name` among them).
    let long = "é".repeat(121);
    let refused = [
        (json!({ "sectionName": " " }), "sectionName", "Give the section's name."),
        (json!({ "sectionName": long }), "sectionName", "The section's name is too long: at most 120 characters."),
        (json!({ "tab": "" }), "tab", "Give the tab the section goes in."),
        (json!({ "tab": "sidebar" }), "tab", "“sidebar” is not a tab: use one of overview, voice, visual."),
        (json!({ "width": "third" }), "width", "“third” is not a width: use one of full, half."),
        (json!({ "role": "about" }), "role", "Invalid arguments: unknown field `role`."),
        (json!({ "name": "Hooks" }), "name", "Invalid arguments: unknown field `name`."),
    ];
    for (extra, field, message) in refused {
        let e = c::brand_kit_section_add(&app, add_with(extra.clone())).await.unwrap_err();
        assert_eq!((e.code, e.field.as_deref(), e.message.as_str(), e.status), (IpcCode::Validation, Some(field), message, None), "{extra}: {e:?}");
    }
    let e = c::brand_kit_section_add(&app, add_with(json!({ "tab": "sidebar" }))).await.unwrap_err();
    assert_eq!(e.valid_values, ["overview", "voice", "visual"]);
    let e = ipc::dispatch(&app, "brand_kit_section_add", json!({ "brandKitId": kit, "sectionName": "X" })).await.unwrap_err();
    assert_eq!((e.code, e.field.as_deref()), (IpcCode::Validation, Some("tab")));
    assert_eq!(c::brand_kit_page(&app, BrandKitIdArgs { brand_kit_id: kit.clone() }).await.unwrap().sections.len(), 9, "nothing else added");

    // Archive: gone from the page, offered for restore.
    let r = c::brand_kit_section_archive(&app, SectionArchiveInput { brand_kit_id: kit.clone(), key: s.key.clone(), section_id: None })
        .await
        .unwrap();
    assert!(r.archived);
    let page = c::brand_kit_page(&app, BrandKitIdArgs { brand_kit_id: kit.clone() }).await.unwrap();
    assert!(page.sections.iter().all(|p| p.key != s.key));
    assert_eq!(page.archived.len(), 1);
    assert_eq!((page.archived[0].key.as_str(), page.archived[0].id.as_str(), page.archived[0].section_name.as_str()), (s.key.as_str(), s.id.as_str(), "Hooks"));

    // Restore: back with its version and body.
    let r = c::brand_kit_section_restore(&app, SectionArchiveInput { brand_kit_id: kit.clone(), key: s.key.clone(), section_id: None })
        .await
        .unwrap();
    assert!(!r.archived);
    let page = c::brand_kit_page(&app, BrandKitIdArgs { brand_kit_id: kit.clone() }).await.unwrap();
    assert!(page.sections.iter().any(|p| p.key == s.key && p.version == 1));
    assert!(page.archived.is_empty());

    // A starter section archived on this computer is listed on another (read from the service, not from
    // what this computer remembers) and restored there by its key alone.
    c::brand_kit_section_archive(&app, SectionArchiveInput { brand_kit_id: kit.clone(), key: "speaking_style".into(), section_id: None })
        .await
        .unwrap();
    let (other, _, _) = app_on(&remote).await;
    let there = c::brand_kit_page(&other, BrandKitIdArgs { brand_kit_id: kit.clone() }).await.unwrap();
    assert_eq!(there.archived.iter().map(|a| (a.key.as_str(), a.tab.as_str())).collect::<Vec<_>>(), [("speaking_style", "voice")]);
    c::brand_kit_section_restore(&other, SectionArchiveInput { brand_kit_id: kit.clone(), key: "speaking_style".into(), section_id: None })
        .await
        .unwrap();
    let e = c::brand_kit_section_restore(&other, SectionArchiveInput { brand_kit_id: kit.clone(), key: "speaking_style".into(), section_id: None })
        .await
        .unwrap_err();
    assert_eq!(e.code, IpcCode::NotFound, "restored already: {e:?}");
    // The catalogue's rule (`SectionArchiveInput::check`, as cdesk's and agents'): a kit and a key are
    // named, refused before anything is sent; a section's id, when given, is used as is.
    let input = |kit: &str, key: &str, id: Option<&str>| SectionArchiveInput { brand_kit_id: kit.into(), key: key.into(), section_id: id.map(Into::into) };
    for (k, key, field, says) in [(" ", "about", "brandKitId", "Give the brand kit."), (kit.as_str(), "  ", "key", "Give the section's key.")] {
        for e in [c::brand_kit_section_archive(&app, input(k, key, None)).await.unwrap_err(), c::brand_kit_section_restore(&app, input(k, key, None)).await.unwrap_err()] {
            assert_eq!((e.code, e.field.as_deref(), e.message.as_str(), e.status), (IpcCode::Validation, Some(field), says, None), "{e:?}");
        }
    }
    let audience = c::brand_kit_page(&app, BrandKitIdArgs { brand_kit_id: kit.clone() }).await.unwrap().sections.into_iter().find(|s| s.key == "audience").unwrap();
    assert!(c::brand_kit_section_archive(&app, input(&kit, "audience", Some(&format!(" {} ", audience.id)))).await.unwrap().archived);
    assert!(!c::brand_kit_section_restore(&other, input(&kit, "audience", Some(&audience.id))).await.unwrap().archived);
    // Restored elsewhere: no longer offered here.
    let page = c::brand_kit_page(&app, BrandKitIdArgs { brand_kit_id: kit }).await.unwrap();
    assert!(page.sections.iter().any(|p| p.key == "speaking_style"));
    assert!(page.archived.is_empty());
}
