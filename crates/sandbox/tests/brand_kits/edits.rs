//! brand_kits: rule 1: edits.
use super::*;


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
