//! knowledge: search_cap_and_scopes.
use super::*;

#[tokio::test]
async fn search_returns_the_matching_chunk_first() {
    let sb = TestSandbox::start().await;
    let http = Http::new(&sb);
    let (kit, _) = kits(&http, &sb.key).await;
    let filler = "We plan every shoot with the owner and keep the crew small so the business keeps running. ";
    let text = format!(
        "# Studio handbook\n\n{}\n\n{}\n\n## Weather\n\nWhen rain is forecast we move exterior shots indoors and \
         film the window light instead; umbrellas and a rain cover for the camera live in the van.\n\n{}",
        filler.repeat(6),
        filler.repeat(6),
        filler.repeat(6)
    );
    let (s, v) = add(
        &http,
        &sb.key,
        &kit,
        json!({"sourceType": "text", "text": text, "title": "Handbook"}),
    )
    .await;
    assert_eq!(s, 200, "{v}");
    let id = v["item"]["id"].as_str().unwrap().to_string();
    let (s, v) = http.get(&sb.key, &format!("/brand-kits/{kit}/knowledge/search?q=what+if+it+rains+on+the+shoot%3F&threshold=0.2")).await;
    assert_eq!(s, 200, "{v}");
    let matches = v["matches"].as_array().unwrap();
    assert!(!matches.is_empty(), "{v}");
    let top = &matches[0];
    assert_eq!(top["knowledgeId"], id.as_str());
    assert_eq!(top["title"], "Handbook");
    assert!(
        top["content"]
            .as_str()
            .unwrap()
            .contains("rain is forecast"),
        "{top}"
    );
    assert!(top["chunkIndex"].as_i64().unwrap() > 0);
    assert!(top["content"].as_str().unwrap().chars().count() <= 500);
    let sims: Vec<f64> = matches
        .iter()
        .map(|m| m["similarity"].as_f64().unwrap())
        .collect();
    assert!(sims.windows(2).all(|w| w[0] >= w[1]), "sorted: {sims:?}");
    assert!(sims.iter().all(|s| (0.2..=1.0).contains(s)));
    // The demo's own FAQ answers a pricing question; the default threshold applies.
    let (_, v) = http
        .get(
            &sb.key,
            &format!("/brand-kits/{kit}/knowledge/search?q=retainer+price"),
        )
        .await;
    assert!(
        v["matches"][0]["content"]
            .as_str()
            .unwrap()
            .contains("£850"),
        "{v}"
    );
    assert!(v["matches"].as_array().unwrap().len() <= 8);
    // limit caps the answer; unrelated text finds nothing.
    let (_, v) = http
        .get(
            &sb.key,
            &format!("/brand-kits/{kit}/knowledge/search?q=shoot&limit=1&threshold=0"),
        )
        .await;
    assert_eq!(v["matches"].as_array().unwrap().len(), 1);
    let (_, v) = http
        .get(
            &sb.key,
            &format!("/brand-kits/{kit}/knowledge/search?q=quantum+chromodynamics"),
        )
        .await;
    assert!(v["matches"].as_array().unwrap().is_empty(), "{v}");
}

#[tokio::test]
async fn search_parameters_are_checked() {
    let sb = TestSandbox::start().await;
    let http = Http::new(&sb);
    let (kit, _) = kits(&http, &sb.key).await;
    for (query, field) in [
        ("", "q"),
        ("q=", "q"),
        ("q=%20%20", "q"),
        ("q=a&limit=0", "limit"),
        ("q=a&limit=51", "limit"),
        ("q=a&threshold=1.5", "threshold"),
        ("q=a&threshold=-0.1", "threshold"),
        ("q=a&threshold=high", "threshold"),
    ] {
        let (s, v) = http
            .get(
                &sb.key,
                &format!("/brand-kits/{kit}/knowledge/search?{query}"),
            )
            .await;
        assert_eq!(s, 400, "{query}: {v}");
        assert_eq!(v["field"], field, "{query}: {v}");
    }
    let (s, _) = http
        .get(
            &sb.key,
            &format!("/brand-kits/{kit}/knowledge/search?q=a&limit=50&threshold=1"),
        )
        .await;
    assert_eq!(s, 200);
}

#[tokio::test]
async fn the_cap_answers_402_limit_reached_and_adds_nothing() {
    let sb = TestSandbox::start_with(Config {
        knowledge_cap: 2,
        ..Config::for_tests()
    })
    .await;
    let http = Http::new(&sb);
    let (demo, second) = kits(&http, &sb.key).await;
    for n in 0..2 {
        let (s, v) = add(
            &http,
            &sb.key,
            &second,
            json!({"sourceType": "text", "text": format!("note {n}")}),
        )
        .await;
        assert_eq!(s, 200, "{v}");
        assert_eq!(v["limitReached"], false);
    }
    let (s, v) = add(
        &http,
        &sb.key,
        &second,
        json!({"sourceType": "text", "text": "one too many"}),
    )
    .await;
    assert_eq!(s, 402, "{v}");
    assert_eq!(v["limitReached"], true);
    assert_eq!(v["limit"], 2);
    assert_eq!(v["current"], 2);
    assert!(msg(&v).contains("nothing was added"));
    let (_, list) = http
        .get(&sb.key, &format!("/brand-kits/{second}/knowledge"))
        .await;
    assert_eq!(list["total"], 2);
    // The demo kit is past this cap already (3 seeded items).
    let (s, v) = add(
        &http,
        &sb.key,
        &demo,
        json!({"sourceType": "text", "text": "x"}),
    )
    .await;
    assert_eq!(s, 402, "{v}");
    assert_eq!(v["current"], 3);
    // Removing one makes room again.
    let id = list["items"][0]["id"].as_str().unwrap();
    assert_eq!(
        http.delete(
            &sb.key,
            &format!("/brand-kits/{second}/knowledge/{id}"),
            None
        )
        .await
        .0,
        200
    );
    let (s, _) = add(
        &http,
        &sb.key,
        &second,
        json!({"sourceType": "text", "text": "fits now"}),
    )
    .await;
    assert_eq!(s, 200);
}

#[tokio::test]
async fn scopes_brandkit_read_reads_and_brandkit_write_adds_and_removes() {
    let sb = TestSandbox::start().await;
    let http = Http::new(&sb);
    let (kit, _) = kits(&http, &sb.key).await;
    let read_only = sb.key_with(&[scopes::BRANDKIT_READ]);
    let none = sb.key_with(&[]);
    let (s, v) = add(
        &http,
        &read_only,
        &kit,
        json!({"sourceType": "text", "text": "x"}),
    )
    .await;
    assert_eq!(s, 403, "{v}");
    assert_eq!(v["scope"], "brandkit:write");
    let (_, list) = http
        .get(&read_only, &format!("/brand-kits/{kit}/knowledge"))
        .await;
    let id = list["items"][0]["id"].as_str().unwrap();
    let (s, v) = http
        .delete(
            &read_only,
            &format!("/brand-kits/{kit}/knowledge/{id}"),
            None,
        )
        .await;
    assert_eq!(s, 403, "{v}");
    assert!(msg(&v).contains("brandkit:write"));
    for path in [
        format!("/brand-kits/{kit}/knowledge"),
        format!("/brand-kits/{kit}/knowledge/{id}"),
        format!("/brand-kits/{kit}/knowledge/search?q=price"),
    ] {
        let (s, v) = http.get(&none, &path).await;
        assert_eq!(s, 403, "{path}: {v}");
        assert!(msg(&v).contains("brandkit:read"));
        assert_eq!(http.get(&read_only, &path).await.0, 200, "{path}");
    }
}

#[tokio::test]
async fn another_accounts_kit_and_items_are_404() {
    let sb = TestSandbox::start().await;
    let http = Http::new(&sb);
    let (kit, _) = kits(&http, &sb.key).await;
    let (_, list) = http
        .get(&sb.key, &format!("/brand-kits/{kit}/knowledge"))
        .await;
    let id = list["items"][0]["id"].as_str().unwrap();
    let (_, other) = sb.other_account(0.0);
    for path in [
        format!("/brand-kits/{kit}/knowledge"),
        format!("/brand-kits/{kit}/knowledge/{id}"),
        format!("/brand-kits/{kit}/knowledge/search?q=price"),
    ] {
        let (s, v) = http.get(&other, &path).await;
        assert_eq!(s, 404, "{path}: {v}");
    }
    let (s, _) = add(
        &http,
        &other,
        &kit,
        json!({"sourceType": "text", "text": "x"}),
    )
    .await;
    assert_eq!(s, 404);
    assert_eq!(
        http.delete(&other, &format!("/brand-kits/{kit}/knowledge/{id}"), None)
            .await
            .0,
        404
    );
    let (_, list2) = http
        .get(&sb.key, &format!("/brand-kits/{kit}/knowledge"))
        .await;
    assert_eq!(list2["total"], 3);
    // An item read through the wrong kit is not found either.
    let (_, second) = kits(&http, &sb.key).await;
    assert_eq!(
        http.get(&sb.key, &format!("/brand-kits/{second}/knowledge/{id}"))
            .await
            .0,
        404
    );
}

/// Fact sheet 3.7: `tags: [{id}]` on an add is stored and read back; a tag named twice is a 400.
#[tokio::test]
async fn tags_on_an_add_are_stored_and_read_back() {
    let sb = TestSandbox::start().await;
    let http = Http::new(&sb);
    let (kit, _) = kits(&http, &sb.key).await;
    let (s, v) = add(&http, &sb.key, &kit, json!({"sourceType": "text", "text": "Tagged", "title": "T", "tags": [{"id": "t-1"}, {"id": "t-2"}]})).await;
    assert_eq!(s, 200, "{v}");
    assert_eq!(v["item"]["tags"], json!([{"id": "t-1"}, {"id": "t-2"}]));
    let id = v["item"]["id"].as_str().unwrap();
    let (s, v) = http.get(&sb.key, &format!("/brand-kits/{kit}/knowledge/{id}")).await;
    assert_eq!(s, 200, "{v}");
    assert_eq!(v["item"]["tags"], json!([{"id": "t-1"}, {"id": "t-2"}]));
    let (s, v) = add(&http, &sb.key, &kit, json!({"sourceType": "text", "text": "x", "tags": [{"id": "t-1"}, {"id": "t-1"}]})).await;
    assert_eq!(s, 400, "{v}");
    assert_eq!(v["field"], "tags[1]");
}
