//! brand_kits: a section's place (`afterId`/`beforeId`/`position`, the newest era's `Placement`) and tab
//! moves, and the archived sections listed by `detail=summary&archived=true`.
use super::*;

/// The keys of one tab, in the order a summary read gives them.
async fn tab_keys(http: &Http, key: &str, kit: &str, tab: &str) -> Vec<String> {
    let (s, v) = http.get(key, &format!("/brand-kits/{kit}?detail=summary&tabs={tab}")).await;
    assert_eq!(s, 200, "{v}");
    v["sections"].as_array().unwrap().iter().map(|s| s["key"].as_str().unwrap().to_string()).collect()
}

fn id_of(kit: &Value, section_key: &str) -> String {
    find(kit, section_key)["id"].as_str().unwrap().to_string()
}

#[tokio::test]
async fn a_section_moves_within_its_tab_and_to_another_tab_with_its_version_checked() {
    let sb = TestSandbox::start().await;
    let http = Http::new(&sb);
    let kit = default_kit(&http, &sb.key).await;
    let (_, full) = http.get(&sb.key, &format!("/brand-kits/{kit}")).await;
    assert_eq!(tab_keys(&http, &sb.key, &kit, "overview").await, ["about", "audience", "offer", "content_strategy"]);
    let v = |k: &str| find(&full, k)["version"].clone();
    // Before a neighbour.
    let (s, r) = patch(&http, &sb.key, &kit,
        json!({"sections": [{"key": "offer", "beforeId": id_of(&full, "about"), "expectedVersion": v("offer")}]})).await;
    assert_eq!(s, 200, "{r}");
    assert_eq!(tab_keys(&http, &sb.key, &kit, "overview").await, ["offer", "about", "audience", "content_strategy"]);
    // A move keeps the version (it counts body changes).
    assert_eq!(find(&r, "offer")["version"], v("offer"));
    // After a neighbour, and to the bottom.
    let (s, r) = patch(&http, &sb.key, &kit, json!({"sections": [
        {"key": "offer", "afterId": id_of(&full, "audience"), "expectedVersion": v("offer")},
        {"key": "about", "position": "bottom", "expectedVersion": v("about")}]})).await;
    assert_eq!(s, 200, "{r}");
    assert_eq!(tab_keys(&http, &sb.key, &kit, "overview").await, ["audience", "offer", "content_strategy", "about"]);
    // To another tab, at its top.
    let (s, r) = patch(&http, &sb.key, &kit,
        json!({"sections": [{"key": "offer", "tab": "voice", "position": "top", "expectedVersion": v("offer")}]})).await;
    assert_eq!(s, 200, "{r}");
    assert_eq!(tab_keys(&http, &sb.key, &kit, "voice").await, ["offer", "voice_and_tone", "writing_style", "speaking_style"]);
    assert_eq!(tab_keys(&http, &sb.key, &kit, "overview").await, ["audience", "content_strategy", "about"]);
    // A stale version refuses the move with 409 and moves nothing.
    let (s, r) = patch(&http, &sb.key, &kit, json!({"sections": [{"key": "offer", "body": "new", "expectedVersion": v("offer")}]})).await;
    assert_eq!(s, 200, "{r}");
    let (s, r) = patch(&http, &sb.key, &kit,
        json!({"sections": [{"key": "offer", "position": "bottom", "expectedVersion": v("offer")}]})).await;
    assert_eq!(s, 409, "{r}");
    assert_eq!(r["conflicts"][0]["key"], "offer");
    assert_eq!(tab_keys(&http, &sb.key, &kit, "voice").await[0], "offer");
}

#[tokio::test]
async fn a_bad_placement_is_a_400_naming_the_field() {
    let sb = TestSandbox::start().await;
    let http = Http::new(&sb);
    let kit = default_kit(&http, &sb.key).await;
    let (_, full) = http.get(&sb.key, &format!("/brand-kits/{kit}")).await;
    let ver = find(&full, "about")["version"].clone();
    let cases = [
        (json!({"key": "about", "position": "middle", "expectedVersion": ver}), "sections[0].position", "top, bottom"),
        (json!({"key": "about", "position": "top", "afterId": id_of(&full, "offer"), "expectedVersion": ver}),
            "sections[0].position", "not several"),
        // A neighbour in another tab.
        (json!({"key": "about", "afterId": id_of(&full, "voice_and_tone"), "expectedVersion": ver}),
            "sections[0].afterId", "overview"),
        (json!({"key": "about", "beforeId": id_of(&full, "about"), "expectedVersion": ver}), "sections[0].beforeId", "not another"),
    ];
    for (entry, field, says) in cases {
        let (s, v) = patch(&http, &sb.key, &kit, json!({"sections": [entry]})).await;
        assert_eq!(s, 400, "{entry}: {v}");
        assert_eq!(v["field"], field, "{entry}: {v}");
        assert!(msg(&v).contains(says), "{entry}: {v}");
    }
    assert_eq!(tab_keys(&http, &sb.key, &kit, "overview").await, ["about", "audience", "offer", "content_strategy"]);
}

#[tokio::test]
async fn the_archived_sections_are_listed_in_summary_form_until_restored() {
    let sb = TestSandbox::start().await;
    let http = Http::new(&sb);
    let kit = default_kit(&http, &sb.key).await;
    let (_, full) = http.get(&sb.key, &format!("/brand-kits/{kit}")).await;
    let (s, v) = http.get(&sb.key, &format!("/brand-kits/{kit}?detail=summary&archived=true")).await;
    assert_eq!(s, 200, "{v}");
    assert!(v["sections"].as_array().unwrap().is_empty(), "{v}");
    let id = id_of(&full, "writing_style");
    let (s, v) = http.post(&sb.key, "/archive", json!({"assetType": "brand_kit_section", "id": id})).await;
    assert_eq!(s, 200, "{v}");
    let (_, v) = http.get(&sb.key, &format!("/brand-kits/{kit}?detail=summary&archived=true")).await;
    let listed = v["sections"].as_array().unwrap();
    assert_eq!(listed.len(), 1, "{v}");
    assert_eq!(listed[0]["key"], "writing_style");
    assert_eq!(listed[0]["id"], id.as_str());
    assert!(listed[0].get("body").is_none(), "summary form: {v}");
    // Only with a summary read.
    let (s, v) = http.get(&sb.key, &format!("/brand-kits/{kit}?archived=true")).await;
    assert_eq!(s, 400, "{v}");
    assert_eq!(v["field"], "archived");
    let (s, _) = http.post(&sb.key, "/archive", json!({"assetType": "brand_kit_section", "id": id, "archived": false})).await;
    assert_eq!(s, 200);
    let (_, v) = http.get(&sb.key, &format!("/brand-kits/{kit}?detail=summary&archived=true")).await;
    assert!(v["sections"].as_array().unwrap().is_empty(), "{v}");
}
