//! brand kit: the removed field-model inputs, dispatch by name, and a service that will not list archived sections.
use super::*;

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
            ("brand_kit_section_add", json!({ "brandKitId": kit, "sectionName": "Look", "tab": "visual", name: "bold" }), name.to_string()),
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
        "brand_kit_section_add", "brand_kit_section_archive", "brand_kit_section_restore", "brand_kit_history", "brand_kit_revert", "knowledge_list",
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
    let added = call("brand_kit_section_add", json!({ "brandKitId": kit, "sectionName": "FAQ", "tab": "overview" })).await.unwrap();
    assert_eq!(added["width"], "full");
    let key = added["key"].as_str().unwrap();
    assert_eq!(call("brand_kit_section_archive", json!({ "brandKitId": kit, "key": key })).await.unwrap(), json!({ "archived": true }));
    assert_eq!(call("brand_kit_section_restore", json!({ "brandKitId": kit, "key": key })).await.unwrap(), json!({ "archived": false }));
    // The catalogue's input (as `cdesk brand-kit section archive` and `restore`): the old `archived` is refused by name.
    let e = call("brand_kit_section_archive", json!({ "brandKitId": kit, "key": key, "archived": false })).await.unwrap_err();
    assert!(e.message.contains("unknown field `archived`"), "{e:?}");
    let h = call("brand_kit_history", json!({ "brandKitId": kit, "key": "offer" })).await.unwrap();
    assert_eq!(h["earlier"][0]["version"], v);
    let r = call("brand_kit_revert", json!({ "brandKitId": kit, "key": "offer", "to": v, "expectedVersion": v + 1 })).await.unwrap();
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
    let e = call("brand_kit_revert", json!({ "brandKitId": kit, "key": "offer", "to": 1 })).await.unwrap_err();
    assert_eq!(e.field.as_deref(), Some("expectedVersion"));
    // The catalogue's input (`to`, as `cdesk brand-kit section revert --to`): the old `version` is refused by name.
    let e = call("brand_kit_revert", json!({ "brandKitId": kit, "key": "offer", "version": 1, "expectedVersion": 2 })).await.unwrap_err();
    assert!(e.message.contains("unknown field `version`"), "{e:?}");
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
    let section = |key: &str| SectionArchiveInput { brand_kit_id: kit.clone(), key: key.into(), section_id: None };

    // Archived here: offered for restore from this computer's list.
    c::brand_kit_section_archive(&app, section("speaking_style")).await.unwrap();
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
    c::brand_kit_section_restore(&app, section("speaking_style")).await.unwrap();
    let p = page(&app).await;
    assert!(p.sections.iter().any(|s| s.key == "speaking_style"));
    assert!(p.archived.is_empty(), "{:?}", p.archived);

    // Archived here again, then restored elsewhere: live again, so the fallback no longer offers it.
    c::brand_kit_section_archive(&app, section("speaking_style")).await.unwrap();
    assert_eq!(page(&app).await.archived.len(), 1);
    let kept_id = page(&app).await.archived[0].id.clone();
    direct.archive(&api_types::ArchiveRequest { asset_type: "brand_kit_section".into(), id: kept_id, archived: Some(false), ..Default::default() }).await.unwrap();
    let p = page(&app).await;
    assert!(p.sections.iter().any(|s| s.key == "speaking_style"));
    assert!(p.archived.is_empty(), "restored elsewhere: {:?}", p.archived);
}
