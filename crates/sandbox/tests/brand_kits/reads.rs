//! brand_kits: lists and read modes.
use super::*;


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
