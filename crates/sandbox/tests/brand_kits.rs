//! Brand kits over real HTTP: the three read modes, the section write rules of spec §4 (each rule has a
//! test named after it), optimistic concurrency with 409s, archive/restore, scopes and ownership.
mod common;
use api_types::scopes;
use common::{msg, Http, TestSandbox};
use contentdesk_sandbox::routes::brand_kits;
use serde_json::{json, Value};

async fn default_kit(http: &Http, key: &str) -> String {
    let (s, v) = http.get(key, "/brand-kits").await;
    assert_eq!(s, 200, "{v}");
    let first = &v["brandKits"][0];
    assert_eq!(first["isDefault"], true, "{v}");
    first["id"].as_str().unwrap().to_string()
}

/// One section, read through the filtered mode (with history).
async fn section(http: &Http, key: &str, kit: &str, section_key: &str) -> Value {
    let (s, v) = http
        .get(
            key,
            &format!("/brand-kits/{kit}?keys={section_key}&history=true"),
        )
        .await;
    assert_eq!(s, 200, "{v}");
    assert_eq!(v["sections"].as_array().unwrap().len(), 1, "{v}");
    v["sections"][0].clone()
}

async fn patch(http: &Http, key: &str, kit: &str, body: Value) -> (u16, Value) {
    http.patch(key, &format!("/brand-kits/{kit}"), body).await
}

fn find<'a>(kit: &'a Value, section_key: &str) -> &'a Value {
    kit["sections"]
        .as_array()
        .unwrap()
        .iter()
        .find(|s| s["key"] == section_key)
        .expect("section present")
}

// --- lists and read modes ------------------------------------------------------------------------

#[tokio::test]
async fn list_puts_the_default_kit_first_and_filters() {
    let sb = TestSandbox::start().await;
    let http = Http::new(&sb);
    let (s, v) = http.get(&sb.key, "/brand-kits").await;
    assert_eq!(s, 200, "{v}");
    let kits = v["brandKits"].as_array().unwrap();
    assert_eq!(kits.len(), 2);
    assert_eq!(kits[0]["name"], "Demo Studio");
    assert_eq!(kits[0]["isDefault"], true);
    assert_eq!(kits[1]["isDefault"], false);
    let (_, v) = http.get(&sb.key, "/brand-kits?favorited=true").await;
    assert_eq!(v["brandKits"].as_array().unwrap().len(), 1);
    let (_, v) = http.get(&sb.key, "/brand-kits?archived=true").await;
    assert_eq!(v["brandKits"].as_array().unwrap().len(), 0);
    let (s, v) = http.get(&sb.key, "/brand-kits?colour=red").await;
    assert_eq!(s, 400, "{v}");
    assert_eq!(v["field"], "colour");
}

#[tokio::test]
async fn full_read_has_eight_starter_sections_and_knowledge() {
    let sb = TestSandbox::start().await;
    let http = Http::new(&sb);
    let kit = default_kit(&http, &sb.key).await;
    for path in [
        format!("/brand-kits/{kit}"),
        format!("/brand-kits/{kit}?detail=full"),
    ] {
        let (s, v) = http.get(&sb.key, &path).await;
        assert_eq!(s, 200, "{v}");
        let sections = v["sections"].as_array().unwrap();
        assert_eq!(sections.len(), 8);
        for (key, tab, name) in api_types::STARTER_SECTIONS {
            let sec = find(&v, key);
            assert_eq!(sec["role"], *key);
            assert_eq!(sec["tab"], *tab);
            assert_eq!(sec["sectionName"], *name);
            assert!(
                sec["body"].as_str().unwrap().len() > 300,
                "{key} has a real body"
            );
            assert!(sec["version"].as_i64().unwrap() >= 2, "{key} has history");
            assert!(sec.get("revisions").is_none());
        }
        let widths: Vec<&str> = sections
            .iter()
            .map(|s| s["width"].as_str().unwrap())
            .collect();
        assert!(widths.contains(&"full") && widths.contains(&"half"));
        assert!(find(&v, "design_guidelines")["body"]
            .as_str()
            .unwrap()
            .contains("#1F6F6B"));
        assert_eq!(v["knowledge"].as_array().unwrap().len(), 3, "{v}");
        assert_eq!(v["websiteUrls"][0], "https://demostudio.example");
        assert_eq!(v["isDefault"], true);
    }
}

#[tokio::test]
async fn summary_read_has_outline_and_char_count_without_bodies() {
    let sb = TestSandbox::start().await;
    let http = Http::new(&sb);
    let kit = default_kit(&http, &sb.key).await;
    let (s, v) = http
        .get(&sb.key, &format!("/brand-kits/{kit}?detail=summary"))
        .await;
    assert_eq!(s, 200, "{v}");
    assert_eq!(v["id"], kit.as_str());
    assert_eq!(v["name"], "Demo Studio");
    assert_eq!(v["sections"].as_array().unwrap().len(), 8);
    let full = http.get(&sb.key, &format!("/brand-kits/{kit}")).await.1;
    for sec in v["sections"].as_array().unwrap() {
        assert!(sec.get("body").is_none(), "{sec}");
        let body = find(&full, sec["key"].as_str().unwrap())["body"]
            .as_str()
            .unwrap()
            .to_string();
        assert_eq!(
            sec["charCount"].as_i64().unwrap(),
            body.chars().count() as i64
        );
        let headings: Vec<String> = body
            .lines()
            .filter_map(|l| l.strip_prefix("## "))
            .map(|h| h.trim().to_string())
            .collect();
        let outline: Vec<String> = sec["outline"]
            .as_array()
            .unwrap()
            .iter()
            .map(|h| h.as_str().unwrap().to_string())
            .collect();
        assert_eq!(outline, headings);
    }
    let design = v["sections"]
        .as_array()
        .unwrap()
        .iter()
        .find(|s| s["key"] == "design_guidelines")
        .unwrap();
    assert!(
        design["outline"]
            .as_array()
            .unwrap()
            .iter()
            .any(|h| h == "Colour palette"),
        "{design}"
    );
}

#[tokio::test]
async fn outline_is_only_the_sections_own_level_two_headings() {
    let body = "# Title\n## One\ntext\n### Sub\n```\n## not a heading\n```\n## Two ##\n";
    assert_eq!(brand_kits::outline(body), vec!["One", "Two"]);
}

#[tokio::test]
async fn filtered_read_combines_keys_roles_and_tabs() {
    let sb = TestSandbox::start().await;
    let http = Http::new(&sb);
    let kit = default_kit(&http, &sb.key).await;
    let keys_of = |v: &Value| -> Vec<String> {
        v["sections"]
            .as_array()
            .unwrap()
            .iter()
            .map(|s| s["key"].as_str().unwrap().to_string())
            .collect()
    };
    let (s, v) = http
        .get(&sb.key, &format!("/brand-kits/{kit}?tabs=voice"))
        .await;
    assert_eq!(s, 200, "{v}");
    assert_eq!(
        keys_of(&v),
        vec!["voice_and_tone", "writing_style", "speaking_style"]
    );
    assert!(v["sections"][0]["body"].as_str().unwrap().len() > 100);
    assert!(v["sections"][0].get("revisions").is_none());
    let (_, v) = http
        .get(
            &sb.key,
            &format!("/brand-kits/{kit}?roles=about,offer,voice_and_tone"),
        )
        .await;
    assert_eq!(keys_of(&v), vec!["about", "offer", "voice_and_tone"]);
    // AND: roles within a tab
    let (_, v) = http
        .get(
            &sb.key,
            &format!("/brand-kits/{kit}?roles=about,offer,voice_and_tone&tabs=voice"),
        )
        .await;
    assert_eq!(keys_of(&v), vec!["voice_and_tone"]);
    let (_, v) = http
        .get(
            &sb.key,
            &format!("/brand-kits/{kit}?keys=about,audience&tabs=visual"),
        )
        .await;
    assert!(keys_of(&v).is_empty());
    let (s, v) = http
        .get(
            &sb.key,
            &format!("/brand-kits/{kit}?keys=design_guidelines&detail=full"),
        )
        .await;
    assert_eq!(s, 200);
    assert_eq!(keys_of(&v), vec!["design_guidelines"]);
}

#[tokio::test]
async fn history_read_lists_earlier_versions_newest_first() {
    let sb = TestSandbox::start().await;
    let http = Http::new(&sb);
    let kit = default_kit(&http, &sb.key).await;
    let sec = section(&http, &sb.key, &kit, "about").await;
    let version = sec["version"].as_i64().unwrap();
    let revisions = sec["revisions"].as_array().unwrap();
    assert_eq!(revisions.len() as i64, version - 1, "{sec}");
    let versions: Vec<i64> = revisions
        .iter()
        .map(|r| r["version"].as_i64().unwrap())
        .collect();
    let mut sorted = versions.clone();
    sorted.sort_by(|a, b| b.cmp(a));
    assert_eq!(versions, sorted);
    assert_eq!(revisions.last().unwrap()["bodySource"], "extraction");
    assert!(revisions[0]["createdAt"].as_str().is_some());
    // A write adds to the history with bodySource "api".
    let (s, _) = patch(
        &http,
        &sb.key,
        &kit,
        json!({"sections": [{"key": "about", "body": "## New\nshort", "expectedVersion": version}]}),
    )
    .await;
    assert_eq!(s, 200);
    let sec2 = section(&http, &sb.key, &kit, "about").await;
    assert_eq!(sec2["revisions"][0]["version"], version);
    assert_eq!(sec2["revisions"][0]["body"], sec["body"]);
    let all = http
        .get(
            &sb.key,
            &format!("/brand-kits/{kit}?keys=about&history=true"),
        )
        .await
        .1;
    assert_eq!(all["sections"][0]["version"], version + 1);
}

#[tokio::test]
async fn unknown_role_or_tab_is_400_naming_the_valid_values() {
    let sb = TestSandbox::start().await;
    let http = Http::new(&sb);
    let kit = default_kit(&http, &sb.key).await;
    let (s, v) = http
        .get(&sb.key, &format!("/brand-kits/{kit}?roles=about,mission"))
        .await;
    assert_eq!(s, 400, "{v}");
    assert_eq!(v["field"], "roles");
    assert!(
        msg(&v).contains("mission") && msg(&v).contains("design_guidelines"),
        "{v}"
    );
    assert_eq!(v["validValues"].as_array().unwrap().len(), 8);
    let (s, v) = http
        .get(&sb.key, &format!("/brand-kits/{kit}?tabs=brand"))
        .await;
    assert_eq!(s, 400, "{v}");
    assert_eq!(v["field"], "tabs");
    assert_eq!(v["validValues"], json!(["overview", "voice", "visual"]));
    assert!(msg(&v).contains("overview, voice, visual"), "{v}");
}

#[tokio::test]
async fn read_mode_mistakes_are_400_naming_the_valid_values() {
    let sb = TestSandbox::start().await;
    let http = Http::new(&sb);
    let kit = default_kit(&http, &sb.key).await;
    let (s, v) = http
        .get(&sb.key, &format!("/brand-kits/{kit}?detail=brief"))
        .await;
    assert_eq!(s, 400, "{v}");
    assert_eq!(v["field"], "detail");
    assert_eq!(v["validValues"], json!(["summary", "full"]));
    // A summary has no bodies, so it has no history either.
    let (s, v) = http
        .get(
            &sb.key,
            &format!("/brand-kits/{kit}?detail=summary&history=true"),
        )
        .await;
    assert_eq!(s, 400, "{v}");
    assert_eq!(v["field"], "history");
    let (s, v) = http
        .get(
            &sb.key,
            &format!("/brand-kits/{kit}?history=yes&keys=about"),
        )
        .await;
    assert_eq!(s, 400, "{v}");
    assert_eq!(v["field"], "history");
}

/// Spec §4 "Read modes": `detail=summary`, optionally with a filter by role or tab.
#[tokio::test]
async fn summary_may_be_filtered_by_role_or_tab() {
    let sb = TestSandbox::start().await;
    let http = Http::new(&sb);
    let kit = default_kit(&http, &sb.key).await;
    let (s, v) = http.get(&sb.key, &format!("/brand-kits/{kit}?detail=summary&tabs=voice")).await;
    assert_eq!(s, 200, "{v}");
    let sections = v["sections"].as_array().unwrap();
    assert!(!sections.is_empty());
    assert!(sections.iter().all(|x| x["tab"] == "voice" && x.get("body").is_none()), "{v}");
    assert!(sections.iter().all(|x| x["charCount"].is_number()), "summary form: {v}");
    let (s, v) = http.get(&sb.key, &format!("/brand-kits/{kit}?detail=summary&roles=about,offer")).await;
    assert_eq!(s, 200, "{v}");
    let keys: Vec<&str> = v["sections"].as_array().unwrap().iter().map(|x| x["key"].as_str().unwrap()).collect();
    assert_eq!(keys.len(), 2, "{keys:?}");
    assert!(keys.contains(&"about") && keys.contains(&"offer"), "{keys:?}");
    // The filter's values are still checked.
    let (s, v) = http.get(&sb.key, &format!("/brand-kits/{kit}?detail=summary&roles=mission")).await;
    assert_eq!(s, 400, "{v}");
    assert_eq!(v["field"], "roles");
}

/// Spec §4 "Read modes": a history read without a filter returns earlier versions (of every section).
#[tokio::test]
async fn history_without_a_filter_returns_every_section_with_revisions() {
    let sb = TestSandbox::start().await;
    let http = Http::new(&sb);
    let kit = default_kit(&http, &sb.key).await;
    let (_, full) = http.get(&sb.key, &format!("/brand-kits/{kit}")).await;
    let live = full["sections"].as_array().unwrap().len();
    let (s, v) = http.get(&sb.key, &format!("/brand-kits/{kit}?history=true")).await;
    assert_eq!(s, 200, "{v}");
    let sections = v["sections"].as_array().unwrap();
    assert_eq!(sections.len(), live, "every live section");
    assert!(sections.iter().all(|x| x["body"].is_string() && x["revisions"].is_array()), "{v}");
    assert!(
        sections.iter().any(|x| !x["revisions"].as_array().unwrap().is_empty()),
        "the demo kit's sections have earlier versions: {v}"
    );
}

#[tokio::test]
async fn another_accounts_kit_is_404() {
    let sb = TestSandbox::start().await;
    let http = Http::new(&sb);
    let kit = default_kit(&http, &sb.key).await;
    let (_, other) = sb.other_account(10.0);
    let (s, v) = http.get(&other, &format!("/brand-kits/{kit}")).await;
    assert_eq!(s, 404, "{v}");
    assert!(msg(&v).contains("not found"));
    let (s, _) = patch(&http, &other, &kit, json!({"name": "Mine now"})).await;
    assert_eq!(s, 404);
    let (s, v) = http.get(&other, "/brand-kits").await;
    assert_eq!(s, 200);
    assert!(v["brandKits"].as_array().unwrap().is_empty());
    assert_eq!(
        http.get(&sb.key, &format!("/brand-kits/{}", uuid::Uuid::new_v4()))
            .await
            .0,
        404
    );
}

// --- rule 1: edits ---------------------------------------------------------------------------------

#[tokio::test]
async fn rule1_body_replaces_the_whole_section_and_bumps_the_version() {
    let sb = TestSandbox::start().await;
    let http = Http::new(&sb);
    let kit = default_kit(&http, &sb.key).await;
    let before = section(&http, &sb.key, &kit, "offer").await;
    let v0 = before["version"].as_i64().unwrap();
    let (s, v) = patch(
        &http,
        &sb.key,
        &kit,
        json!({"sections": [{"key": "offer", "body": "## Offer\nOne package.", "expectedVersion": v0}]}),
    )
    .await;
    assert_eq!(s, 200, "{v}");
    // The reply is the full kit.
    assert_eq!(v["sections"].as_array().unwrap().len(), 8);
    let offer = find(&v, "offer");
    assert_eq!(offer["body"], "## Offer\nOne package.");
    assert_eq!(offer["version"], v0 + 1);
    assert_eq!(offer["sectionName"], before["sectionName"]);
    // The same body again changes nothing: the version counts body changes only.
    let (s, v) = patch(
        &http,
        &sb.key,
        &kit,
        json!({"sections": [{"key": "offer", "body": "## Offer\nOne package.", "expectedVersion": v0 + 1}]}),
    )
    .await;
    assert_eq!(s, 200, "{v}");
    assert_eq!(find(&v, "offer")["version"], v0 + 1);
}

#[tokio::test]
async fn rule1_revert_lands_as_a_new_version_and_a_revert_can_be_reverted() {
    let sb = TestSandbox::start().await;
    let http = Http::new(&sb);
    let kit = default_kit(&http, &sb.key).await;
    let sec = section(&http, &sb.key, &kit, "audience").await;
    let v0 = sec["version"].as_i64().unwrap();
    let current = sec["body"].as_str().unwrap().to_string();
    let first = sec["revisions"].as_array().unwrap().last().unwrap().clone();
    assert_eq!(first["version"], 1);
    // Revert to version 1: a new version with v1's body.
    let (s, v) = patch(
        &http,
        &sb.key,
        &kit,
        json!({"sections": [{"key": "audience", "revertTo": 1, "expectedVersion": v0}]}),
    )
    .await;
    assert_eq!(s, 200, "{v}");
    assert_eq!(find(&v, "audience")["version"], v0 + 1);
    assert_eq!(find(&v, "audience")["body"], first["body"]);
    // Revert the revert: back to the body before it, again as a new version.
    let (s, v) = patch(
        &http,
        &sb.key,
        &kit,
        json!({"sections": [{"key": "audience", "revertTo": v0, "expectedVersion": v0 + 1}]}),
    )
    .await;
    assert_eq!(s, 200, "{v}");
    assert_eq!(find(&v, "audience")["version"], v0 + 2);
    assert_eq!(find(&v, "audience")["body"], current.as_str());
    let history = section(&http, &sb.key, &kit, "audience").await;
    let versions: Vec<i64> = history["revisions"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r["version"].as_i64().unwrap())
        .collect();
    assert_eq!(versions, (1..=v0 + 1).rev().collect::<Vec<_>>());
    assert_eq!(history["revisions"][0]["bodySource"], "api");
}

#[tokio::test]
async fn rule1_rename_and_width_keep_the_version() {
    let sb = TestSandbox::start().await;
    let http = Http::new(&sb);
    let kit = default_kit(&http, &sb.key).await;
    let sec = section(&http, &sb.key, &kit, "writing_style").await;
    let v0 = sec["version"].as_i64().unwrap();
    let (s, v) = patch(
        &http,
        &sb.key,
        &kit,
        json!({"sections": [{"key": "writing_style", "sectionName": "House Style", "width": "full", "expectedVersion": v0}]}),
    )
    .await;
    assert_eq!(s, 200, "{v}");
    let w = find(&v, "writing_style");
    assert_eq!(w["sectionName"], "House Style");
    assert_eq!(w["width"], "full");
    assert_eq!(w["version"], v0);
    assert_eq!(w["key"], "writing_style", "the key never changes");
    assert_eq!(w["role"], "writing_style");
    assert_eq!(w["body"], sec["body"]);
}

#[tokio::test]
async fn rule1_width_other_than_full_or_half_is_400_naming_width() {
    let sb = TestSandbox::start().await;
    let http = Http::new(&sb);
    let kit = default_kit(&http, &sb.key).await;
    let v0 = section(&http, &sb.key, &kit, "about").await["version"]
        .as_i64()
        .unwrap();
    let (s, v) = patch(
        &http,
        &sb.key,
        &kit,
        json!({"sections": [{"key": "about", "width": "third", "expectedVersion": v0}]}),
    )
    .await;
    assert_eq!(s, 400, "{v}");
    assert_eq!(v["field"], "sections[0].width");
    assert_eq!(v["validValues"], json!(["full", "half"]));
}

#[tokio::test]
async fn rule1_body_and_revert_to_together_is_400() {
    let sb = TestSandbox::start().await;
    let http = Http::new(&sb);
    let kit = default_kit(&http, &sb.key).await;
    let v0 = section(&http, &sb.key, &kit, "about").await["version"]
        .as_i64()
        .unwrap();
    let (s, v) = patch(
        &http,
        &sb.key,
        &kit,
        json!({"sections": [{"key": "about", "body": "x", "revertTo": 1, "expectedVersion": v0}]}),
    )
    .await;
    assert_eq!(s, 400, "{v}");
    assert_eq!(v["field"], "sections[0].revertTo");
    assert_eq!(section(&http, &sb.key, &kit, "about").await["version"], v0);
}

#[tokio::test]
async fn rule1_unknown_key_is_400_naming_the_keys() {
    let sb = TestSandbox::start().await;
    let http = Http::new(&sb);
    let kit = default_kit(&http, &sb.key).await;
    let (s, v) = patch(
        &http,
        &sb.key,
        &kit,
        json!({"sections": [{"key": "mission", "body": "x", "expectedVersion": 1}]}),
    )
    .await;
    assert_eq!(s, 400, "{v}");
    assert_eq!(v["field"], "sections[0].key");
    assert!(
        v["validValues"]
            .as_array()
            .unwrap()
            .iter()
            .any(|k| k == "design_guidelines"),
        "{v}"
    );
    assert!(msg(&v).contains("detail=summary"));
}

#[tokio::test]
async fn rule1_revert_to_a_version_that_never_existed_is_400() {
    let sb = TestSandbox::start().await;
    let http = Http::new(&sb);
    let kit = default_kit(&http, &sb.key).await;
    let v0 = section(&http, &sb.key, &kit, "about").await["version"]
        .as_i64()
        .unwrap();
    for bad in [v0 + 1, 0, 99] {
        let (s, v) = patch(
            &http,
            &sb.key,
            &kit,
            json!({"sections": [{"key": "about", "revertTo": bad, "expectedVersion": v0}]}),
        )
        .await;
        assert_eq!(s, 400, "{v}");
        assert_eq!(v["field"], "sections[0].revertTo");
    }
    assert_eq!(section(&http, &sb.key, &kit, "about").await["version"], v0);
}

// --- rule 2: adds ------------------------------------------------------------------------------

#[tokio::test]
async fn rule2_an_entry_without_key_adds_a_section() {
    let sb = TestSandbox::start().await;
    let http = Http::new(&sb);
    let kit = default_kit(&http, &sb.key).await;
    let (s, v) = patch(
        &http,
        &sb.key,
        &kit,
        json!({"sections": [{"sectionName": "Competitors", "tab": "overview", "body": "## Who else\n- Big agency"}]}),
    )
    .await;
    assert_eq!(s, 200, "{v}");
    let added = v["sections"]
        .as_array()
        .unwrap()
        .iter()
        .find(|s| s["sectionName"] == "Competitors")
        .unwrap();
    let key = added["key"].as_str().unwrap();
    assert!(
        key.starts_with("custom_") && key.len() > "custom_".len(),
        "{key}"
    );
    assert_eq!(added["role"], Value::Null);
    assert_eq!(added["version"], 1);
    assert_eq!(added["tab"], "overview");
    assert_eq!(added["width"], "full");
    // It is editable by its key like any other.
    let (s, v) = patch(
        &http,
        &sb.key,
        &kit,
        json!({"sections": [{"key": key, "body": "## Who else\n- Nobody", "expectedVersion": 1}]}),
    )
    .await;
    assert_eq!(s, 200, "{v}");
    assert_eq!(find(&v, key)["version"], 2);
    // A roles filter never returns it; a tab filter does.
    let (_, v) = http
        .get(&sb.key, &format!("/brand-kits/{kit}?tabs=overview"))
        .await;
    assert!(v["sections"]
        .as_array()
        .unwrap()
        .iter()
        .any(|s| s["key"] == key));
}

#[tokio::test]
async fn rule2_an_add_needs_section_name_and_tab() {
    let sb = TestSandbox::start().await;
    let http = Http::new(&sb);
    let kit = default_kit(&http, &sb.key).await;
    let (s, v) = patch(
        &http,
        &sb.key,
        &kit,
        json!({"sections": [{"tab": "voice", "body": "x"}]}),
    )
    .await;
    assert_eq!(s, 400, "{v}");
    assert_eq!(v["field"], "sections[0].sectionName");
    let (s, v) = patch(
        &http,
        &sb.key,
        &kit,
        json!({"sections": [{"sectionName": "Extra"}]}),
    )
    .await;
    assert_eq!(s, 400, "{v}");
    assert_eq!(v["field"], "sections[0].tab");
    assert_eq!(v["validValues"], json!(["overview", "voice", "visual"]));
    let (s, v) = patch(
        &http,
        &sb.key,
        &kit,
        json!({"sections": [{"sectionName": "Extra", "tab": "brand"}]}),
    )
    .await;
    assert_eq!(s, 400, "{v}");
    assert_eq!(v["field"], "sections[0].tab");
    let (_, full) = http.get(&sb.key, &format!("/brand-kits/{kit}")).await;
    assert_eq!(full["sections"].as_array().unwrap().len(), 8);
}

// --- rule 3: expectedVersion --------------------------------------------------------------------

#[tokio::test]
async fn rule3_an_edit_without_expected_version_is_400() {
    let sb = TestSandbox::start().await;
    let http = Http::new(&sb);
    let kit = default_kit(&http, &sb.key).await;
    let (s, v) = patch(
        &http,
        &sb.key,
        &kit,
        json!({"sections": [{"key": "about", "body": "x"}]}),
    )
    .await;
    assert_eq!(s, 400, "{v}");
    assert_eq!(v["field"], "sections[0].expectedVersion");
    assert!(msg(&v).contains("expectedVersion"));
}

// --- rule 4: all or nothing, sections first ---------------------------------------------------------

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
    let sb = TestSandbox::start().await;
    let http = Http::new(&sb);
    let kit = default_kit(&http, &sb.key).await;
    let sec = section(&http, &sb.key, &kit, "speaking_style").await;
    let id = sec["id"].as_str().unwrap().to_string();
    {
        let conn = sb.state().db().lock();
        brand_kits::set_archived(&conn, &sb.account_id, "brand_kit_section", &id, true).unwrap();
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
        brand_kits::set_archived(&conn, &sb.account_id, "brand_kit_section", &id, false).unwrap();
        // Another account cannot reach it, and an unknown id is "not found".
        let other = contentdesk_sandbox::auth::create_account(&conn, "Stranger", 0.0).unwrap();
        assert!(brand_kits::set_archived(&conn, &other, "brand_kit_section", &id, true).is_err());
        assert!(
            brand_kits::set_archived(&conn, &sb.account_id, "brand_kit_section", "nope", true)
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
        brand_kits::set_archived(&conn, &sb.account_id, "brand_kit", &kit, true).unwrap();
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
