//! brand_kits: rule 4: all or nothing, sections first.
use super::*;


#[tokio::test]
async fn rule4_one_invalid_entry_writes_nothing() {
    let sb = TestSandbox::start().await;
    let http = Http::new(&sb);
    let kit = default_kit(&http, &sb.key).await;
    let (_, before) = http.get(&sb.key, &format!("/brand-kits/{kit}")).await;
    let about_v = find(&before, "about")["version"].as_i64().unwrap();
    let (s, v) = patch(
        &http,
        &sb.key,
        &kit,
        json!({
            "name": "Renamed",
            "sections": [
                {"key": "about", "body": "## Changed", "expectedVersion": about_v},
                {"sectionName": "New one", "tab": "visual"},
                {"key": "offer", "width": "wide", "expectedVersion": 1}
            ]
        }),
    )
    .await;
    assert_eq!(s, 400, "{v}");
    assert_eq!(v["field"], "sections[2].width");
    let (_, after) = http.get(&sb.key, &format!("/brand-kits/{kit}")).await;
    assert_eq!(after, before, "nothing written");
}

#[tokio::test]
async fn rule4_sections_land_before_the_other_fields() {
    let sb = TestSandbox::start().await;
    let http = Http::new(&sb);
    let kit = default_kit(&http, &sb.key).await;
    let (_, before) = http.get(&sb.key, &format!("/brand-kits/{kit}")).await;
    let about_v = find(&before, "about")["version"].as_i64().unwrap();
    // Both in one patch: the sections and the name land together.
    let (s, v) = patch(
        &http,
        &sb.key,
        &kit,
        json!({
            "name": "Demo Studio Ltd",
            "websiteUrls": ["https://demostudio.example/new"],
            "sections": [{"key": "about", "body": "## About\nNew.", "expectedVersion": about_v}]
        }),
    )
    .await;
    assert_eq!(s, 200, "{v}");
    assert_eq!(v["name"], "Demo Studio Ltd");
    assert_eq!(v["websiteUrls"], json!(["https://demostudio.example/new"]));
    assert_eq!(find(&v, "about")["version"], about_v + 1);
    // A stale section refuses the whole patch: the name does not land either.
    let (s, v) = patch(
        &http,
        &sb.key,
        &kit,
        json!({"name": "Should not land", "sections": [{"key": "about", "body": "x", "expectedVersion": about_v}]}),
    )
    .await;
    assert_eq!(s, 409, "{v}");
    // A bad other field after valid sections: the sections roll back with it.
    let (s, v) = patch(
        &http,
        &sb.key,
        &kit,
        json!({"name": "  ", "sections": [{"key": "about", "body": "y", "expectedVersion": about_v + 1}]}),
    )
    .await;
    assert_eq!(s, 400, "{v}");
    assert_eq!(v["field"], "name");
    let (_, after) = http.get(&sb.key, &format!("/brand-kits/{kit}")).await;
    assert_eq!(after["name"], "Demo Studio Ltd");
    assert_eq!(find(&after, "about")["version"], about_v + 1);
    assert_eq!(find(&after, "about")["body"], "## About\nNew.");
}

#[tokio::test]
async fn is_default_moves_the_default() {
    let sb = TestSandbox::start().await;
    let http = Http::new(&sb);
    let (_, v) = http.get(&sb.key, "/brand-kits").await;
    let second = v["brandKits"][1]["id"].as_str().unwrap().to_string();
    let (s, v) = patch(&http, &sb.key, &second, json!({"isDefault": true})).await;
    assert_eq!(s, 200, "{v}");
    let (_, v) = http.get(&sb.key, "/brand-kits").await;
    assert_eq!(v["brandKits"][0]["id"], second.as_str());
    assert_eq!(v["brandKits"][1]["isDefault"], false);
    let (s, v) = patch(&http, &sb.key, &second, json!({"isDefault": false})).await;
    assert_eq!(s, 400, "{v}");
    assert_eq!(v["field"], "isDefault");
}

// --- rule 5: conflicts ----------------------------------------------------------------------------

#[tokio::test]
async fn rule5_stale_sections_are_409_with_every_current_body_and_nothing_written() {
    let sb = TestSandbox::start().await;
    let http = Http::new(&sb);
    let kit = default_kit(&http, &sb.key).await;
    let (_, before) = http.get(&sb.key, &format!("/brand-kits/{kit}")).await;
    let about = find(&before, "about").clone();
    let offer = find(&before, "offer").clone();
    let voice = find(&before, "voice_and_tone").clone();
    let (s, v) = patch(
        &http,
        &sb.key,
        &kit,
        json!({"sections": [
            {"key": "about", "body": "stale 1", "expectedVersion": about["version"].as_i64().unwrap() - 1},
            {"key": "voice_and_tone", "body": "fresh", "expectedVersion": voice["version"]},
            {"key": "offer", "body": "stale 2", "expectedVersion": 1}
        ]}),
    )
    .await;
    assert_eq!(s, 409, "{v}");
    assert!(msg(&v).contains("nothing was written"), "{v}");
    let conflicts = v["conflicts"].as_array().unwrap();
    assert_eq!(conflicts.len(), 2);
    assert_eq!(
        conflicts[0],
        json!({"key": "about", "version": about["version"], "body": about["body"]})
    );
    assert_eq!(
        conflicts[1],
        json!({"key": "offer", "version": offer["version"], "body": offer["body"]})
    );
    let (_, after) = http.get(&sb.key, &format!("/brand-kits/{kit}")).await;
    assert_eq!(after, before, "the fresh entry was not written either");
}

#[tokio::test]
async fn rule5_two_writers_race_on_one_section_and_the_second_gets_409() {
    let sb = TestSandbox::start().await;
    let http = Http::new(&sb);
    let kit = default_kit(&http, &sb.key).await;
    // Both read the same version.
    let read = section(&http, &sb.key, &kit, "voice_and_tone").await;
    let v = read["version"].as_i64().unwrap();
    let write = |body: &'static str| {
        let http = &http;
        let kit = &kit;
        let key = &sb.key;
        async move {
            patch(http, key, kit, json!({"sections": [{"key": "voice_and_tone", "body": body, "expectedVersion": v}]}))
                .await
        }
    };
    let (a, b) = tokio::join!(write("## Writer A"), write("## Writer B"));
    let (winner, loser, winner_body, loser_body) = if a.0 == 200 {
        (a, b, "## Writer A", "## Writer B")
    } else {
        (b, a, "## Writer B", "## Writer A")
    };
    assert_eq!(winner.0, 200, "{}", winner.1);
    assert_eq!(loser.0, 409, "{}", loser.1);
    assert_eq!(
        loser.1["conflicts"],
        json!([{"key": "voice_and_tone", "version": v + 1, "body": winner_body}])
    );
    let now = section(&http, &sb.key, &kit, "voice_and_tone").await;
    assert_eq!(now["version"], v + 1);
    assert_eq!(now["body"], winner_body);
    assert!(
        now["revisions"]
            .as_array()
            .unwrap()
            .iter()
            .all(|r| r["body"] != loser_body),
        "nothing of the loser"
    );
    // The loser re-reads, reapplies and succeeds.
    let (s, v2) = patch(
        &http,
        &sb.key,
        &kit,
        json!({"sections": [{"key": "voice_and_tone", "body": format!("{winner_body}\n{loser_body}"), "expectedVersion": v + 1}]}),
    )
    .await;
    assert_eq!(s, 200, "{v2}");
    assert_eq!(find(&v2, "voice_and_tone")["version"], v + 2);
}

// --- rule 6: removed inputs --------------------------------------------------------------------

#[tokio::test]
async fn rule6_removed_inputs_are_400_naming_the_replacement_section() {
    let sb = TestSandbox::start().await;
    let http = Http::new(&sb);
    let kit = default_kit(&http, &sb.key).await;
    let (_, before) = http.get(&sb.key, &format!("/brand-kits/{kit}")).await;
    for (input, section) in api_types::REMOVED_INPUTS {
        let (s, v) = patch(
            &http,
            &sb.key,
            &kit,
            json!({ *input: "old style", "name": "x" }),
        )
        .await;
        assert_eq!(s, 400, "{input}: {v}");
        assert_eq!(v["field"], *input);
        let m = msg(&v);
        assert!(m.contains(&format!("`{input}` was removed")), "{m}");
        assert!(
            m.contains("sections") && m.contains("detail=summary"),
            "{m}"
        );
        if !section.starts_with("the ") {
            assert!(m.contains(&format!("`{section}`")), "{m}");
        }
    }
    let (_, v) = patch(&http, &sb.key, &kit, json!({"visualStyle": "teal"})).await;
    assert!(msg(&v).contains("`design_guidelines` section"), "{v}");
    let (_, after) = http.get(&sb.key, &format!("/brand-kits/{kit}")).await;
    assert_eq!(after, before);
    assert!(
        after.get("visualStyle").is_none() && after.get("fields").is_none(),
        "never returned"
    );
}

// --- rule 7: no templates ------------------------------------------------------------------------

#[tokio::test]
async fn rule7_brand_kit_templates_no_longer_exists() {
    let sb = TestSandbox::start().await;
    let http = Http::new(&sb);
    let (s, v) = http.get(&sb.key, "/brand-kit-templates").await;
    assert_eq!(s, 404, "{v}");
    assert!(msg(&v).contains("No such endpoint"), "{v}");
}

// --- rule 8: scopes ----------------------------------------------------------------------------

#[tokio::test]
async fn rule8_brandkit_write_edits_and_brandkit_read_reads() {
    let sb = TestSandbox::start().await;
    let http = Http::new(&sb);
    let kit = default_kit(&http, &sb.key).await;
    let read_only = sb.key_with(&[scopes::BRANDKIT_READ]);
    let write_only = sb.key_with(&[scopes::BRANDKIT_WRITE]);
    let (s, v) = patch(&http, &read_only, &kit, json!({"name": "Nope"})).await;
    assert_eq!(s, 403, "{v}");
    assert!(msg(&v).contains("brandkit:write"));
    assert_eq!(v["scope"], "brandkit:write");
    for path in [
        "/brand-kits".to_string(),
        format!("/brand-kits/{kit}"),
        format!("/brand-kits/{kit}?detail=summary"),
    ] {
        let (s, v) = http.get(&write_only, &path).await;
        assert_eq!(s, 403, "{v}");
        assert!(msg(&v).contains("brandkit:read"));
        assert_eq!(http.get(&read_only, &path).await.0, 200);
    }
    let (s, v) = patch(&http, &write_only, &kit, json!({"name": "Write only"})).await;
    assert_eq!(s, 200, "{v}");
}

// --- archive seam and bad input ----------------------------------------------------------------

#[tokio::test]
async fn an_archived_section_vanishes_and_comes_back_with_its_versions() {
    use contentdesk_sandbox::tables::archived::{set_archived, Archivable};
    let sb = TestSandbox::start().await;
    let http = Http::new(&sb);
    let kit = default_kit(&http, &sb.key).await;
    let sec = section(&http, &sb.key, &kit, "speaking_style").await;
    let id = sec["id"].as_str().unwrap().to_string();
    {
        let conn = sb.state().db().lock();
        set_archived(&conn, Archivable::BrandKitSection, &sb.account_id, &id, true).unwrap();
    }
    let (_, full) = http.get(&sb.key, &format!("/brand-kits/{kit}")).await;
    assert_eq!(full["sections"].as_array().unwrap().len(), 7);
    let (_, summary) = http
        .get(&sb.key, &format!("/brand-kits/{kit}?detail=summary"))
        .await;
    assert!(summary["sections"]
        .as_array()
        .unwrap()
        .iter()
        .all(|s| s["key"] != "speaking_style"));
    let (_, filtered) = http
        .get(&sb.key, &format!("/brand-kits/{kit}?keys=speaking_style"))
        .await;
    assert!(filtered["sections"].as_array().unwrap().is_empty());
    let (s, v) = patch(
        &http,
        &sb.key,
        &kit,
        json!({"sections": [{"key": "speaking_style", "body": "x", "expectedVersion": sec["version"]}]}),
    )
    .await;
    assert_eq!(s, 400, "{v}");
    assert!(msg(&v).contains("archived"));
    {
        let conn = sb.state().db().lock();
        set_archived(&conn, Archivable::BrandKitSection, &sb.account_id, &id, false).unwrap();
        // Another account cannot reach it, and an unknown id is "not found".
        let other = contentdesk_sandbox::auth::create_account(&conn, "Stranger", 0.0).unwrap();
        assert!(set_archived(&conn, Archivable::BrandKitSection, &other, &id, true).is_err());
        assert!(
            set_archived(&conn, Archivable::BrandKitSection, &sb.account_id, "nope", true)
                .is_err()
        );
    }
    let back = section(&http, &sb.key, &kit, "speaking_style").await;
    assert_eq!(back["version"], sec["version"]);
    assert_eq!(back["body"], sec["body"]);
    assert_eq!(back["revisions"], sec["revisions"]);
    // Archiving the kit moves it to the archived list.
    {
        let conn = sb.state().db().lock();
        set_archived(&conn, Archivable::BrandKit, &sb.account_id, &kit, true).unwrap();
    }
    let (_, v) = http.get(&sb.key, "/brand-kits?archived=true").await;
    assert_eq!(v["brandKits"][0]["id"], kit.as_str());
    assert_eq!(v["brandKits"][0]["isArchived"], true);
}

#[tokio::test]
async fn bad_patch_bodies_are_400s_not_500s() {
    let sb = TestSandbox::start().await;
    let http = Http::new(&sb);
    let kit = default_kit(&http, &sb.key).await;
    let path = format!("/brand-kits/{kit}");
    for (body, field) in [
        ("{\"sections\": ", "body"),
        ("[1, 2]", "body"),
        ("", "body"),
        ("{\"sections\": [{\"key\": 5}]}", "sections[0].key"),
        (
            "{\"sections\": [{\"key\": \"about\", \"colour\": 1}]}",
            "sections[0].colour",
        ),
        ("{\"sections\": {}}", "sections"),
        ("{\"archiveNow\": true}", "archiveNow"),
    ] {
        let (s, v) = http.send_raw("PATCH", &sb.key, &path, body).await;
        assert_eq!(s, 400, "{body}: {v}");
        assert_eq!(v["field"], field, "{body}: {v}");
    }
    let (s, v) = patch(
        &http,
        &sb.key,
        &kit,
        json!({"sections": [{"key": "about", "key2": 1}]}),
    )
    .await;
    assert_eq!(s, 400, "{v}");
    let (s, v) = patch(
        &http,
        &sb.key,
        &kit,
        json!({"sections": [{"key": "about", "body": "a", "expectedVersion": 99}, {"key": "about", "body": "b", "expectedVersion": 99}]}),
    )
    .await;
    assert_eq!(s, 400, "{v}");
    assert_eq!(v["field"], "sections[1].key");
    let (s, v) = patch(&http, &sb.key, &kit, json!({"websiteUrls": ["not a url"]})).await;
    assert_eq!(s, 400, "{v}");
    assert_eq!(v["field"], "websiteUrls[0]");
}

#[tokio::test]
async fn an_edit_can_move_a_section_to_another_tab_keeping_its_version() {
    let sb = TestSandbox::start().await;
    let http = Http::new(&sb);
    let kit = default_kit(&http, &sb.key).await;
    let sec = section(&http, &sb.key, &kit, "content_strategy").await;
    let (s, v) = patch(
        &http,
        &sb.key,
        &kit,
        json!({"sections": [{"key": "content_strategy", "tab": "voice", "expectedVersion": sec["version"]}]}),
    )
    .await;
    assert_eq!(s, 200, "{v}");
    let moved = find(&v, "content_strategy");
    assert_eq!(moved["tab"], "voice");
    assert_eq!(moved["version"], sec["version"]);
    assert_eq!(
        moved["role"], "content_strategy",
        "the role stays whatever the tab"
    );
    let (_, voice) = http
        .get(&sb.key, &format!("/brand-kits/{kit}?tabs=voice"))
        .await;
    let keys: Vec<&str> = voice["sections"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s["key"].as_str().unwrap())
        .collect();
    assert_eq!(keys.last(), Some(&"content_strategy"), "{keys:?}");
}

/// Fact sheet 3.6 `UpdateBrandKit`: `brandColors` (replaces), `typography` (merges; null clears) and
/// `logos` (by `url` or `outputId`) are stored and read back; a wrong value is a 400 naming the field.
#[tokio::test]
async fn brand_colors_typography_and_logos_are_stored_and_checked() {
    let sb = TestSandbox::start().await;
    let http = Http::new(&sb);
    let kit = default_kit(&http, &sb.key).await;
    let (s, v) = patch(&http, &sb.key, &kit, json!({
        "brandColors": [{"hex": "#1F6F6B", "name": "Teal", "role": "primary"}, {"hex": "#F2A541"}],
        "typography": {"titleFont": "DM Serif Display"},
        "logos": [{"url": "https://demostudio.example/logo.png", "isPrimary": true, "layout": "wordmark"}]
    })).await;
    assert_eq!(s, 200, "{v}");
    assert_eq!(v["brandColors"][0]["role"], "primary");
    assert_eq!(v["brandColors"].as_array().unwrap().len(), 2);
    assert_eq!(v["typography"]["titleFont"], "DM Serif Display");
    assert_eq!(v["logos"][0]["layout"], "wordmark");
    let (s, v) = patch(&http, &sb.key, &kit, json!({"typography": {"bodyFont": "Inter"}})).await;
    assert_eq!(s, 200, "{v}");
    assert_eq!(v["typography"], json!({"titleFont": "DM Serif Display", "bodyFont": "Inter"}), "merged");
    let (s, v) = patch(&http, &sb.key, &kit, json!({"typography": null})).await;
    assert_eq!(s, 200, "{v}");
    assert_eq!(v["typography"], Value::Null, "null clears");
    for (body, field) in [
        (json!({"brandColors": [{"hex": "teal"}]}), "brandColors[0].hex"),
        (json!({"brandColors": [{"hex": "#112233", "role": "hero"}]}), "brandColors[0].role"),
        (json!({"logos": [{"url": "https://a.example/l.png", "outputId": "0f8fad5b"}]}), "logos[0]"),
        (json!({"logos": [{"url": "https://a.example/l.png", "colorMode": "neon"}]}), "logos[0].colorMode"),
        (json!({"brandAccounts": [42]}), "brandAccounts[0]"),
    ] {
        let (s, v) = patch(&http, &sb.key, &kit, body.clone()).await;
        assert_eq!(s, 400, "{body}: {v}");
        assert_eq!(v["field"], field, "{body}: {v}");
    }
}
