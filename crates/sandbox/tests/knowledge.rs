//! The knowledge base over real HTTP: add (text, url, youtube, file by base64 or hosted URL), list,
//! read, search, delete; the plan cap (402 `limitReached`), base64 rules, scopes and ownership.
mod common;
use api_types::scopes;
use base64::Engine;
use common::{msg, Http, TestSandbox};
use contentdesk_sandbox::Config;
use serde_json::{json, Value};

async fn kits(http: &Http, key: &str) -> (String, String) {
    let (s, v) = http.get(key, "/brand-kits").await;
    assert_eq!(s, 200, "{v}");
    (
        v["brandKits"][0]["id"].as_str().unwrap().into(),
        v["brandKits"][1]["id"].as_str().unwrap().into(),
    )
}

fn b64(bytes: &[u8]) -> String {
    base64::engine::general_purpose::STANDARD.encode(bytes)
}

async fn add(http: &Http, key: &str, kit: &str, body: Value) -> (u16, Value) {
    http.post(key, &format!("/brand-kits/{kit}/knowledge"), body)
        .await
}

#[tokio::test]
async fn the_demo_kit_has_three_items_paged() {
    let sb = TestSandbox::start().await;
    let http = Http::new(&sb);
    let (kit, _) = kits(&http, &sb.key).await;
    let (s, v) = http
        .get(&sb.key, &format!("/brand-kits/{kit}/knowledge"))
        .await;
    assert_eq!(s, 200, "{v}");
    assert_eq!(v["total"], 3);
    assert_eq!(v["hasMore"], false);
    assert_eq!(v["items"].as_array().unwrap().len(), 3);
    assert!(
        v["items"][0].get("content").is_none(),
        "lists carry no content"
    );
    let (_, v) = http
        .get(
            &sb.key,
            &format!("/brand-kits/{kit}/knowledge?limit=2&offset=0"),
        )
        .await;
    assert_eq!(v["items"].as_array().unwrap().len(), 2);
    assert_eq!(v["hasMore"], true);
    let (_, v2) = http
        .get(
            &sb.key,
            &format!("/brand-kits/{kit}/knowledge?limit=2&offset=2"),
        )
        .await;
    assert_eq!(v2["items"].as_array().unwrap().len(), 1);
    assert_eq!(v2["hasMore"], false);
    assert_ne!(v["items"][0]["id"], v2["items"][0]["id"]);
    for bad in ["limit=0", "limit=101", "offset=-1", "limit=lots"] {
        let (s, v) = http
            .get(&sb.key, &format!("/brand-kits/{kit}/knowledge?{bad}"))
            .await;
        assert_eq!(s, 400, "{bad}: {v}");
    }
}

#[tokio::test]
async fn add_text_then_read_list_and_delete() {
    let sb = TestSandbox::start().await;
    let http = Http::new(&sb);
    let (kit, _) = kits(&http, &sb.key).await;
    let (s, v) = add(
        &http,
        &sb.key,
        &kit,
        json!({"sourceType": "text", "text": "# Studio hours\n\nWe shoot Tuesday to Saturday, 7am to 4pm."}),
    )
    .await;
    assert_eq!(s, 200, "{v}");
    assert_eq!(v["limitReached"], false);
    let item = &v["item"];
    let id = item["id"].as_str().unwrap().to_string();
    assert_eq!(item["title"], "Studio hours");
    assert_eq!(item["sourceType"], "text");
    assert!(item["content"].as_str().unwrap().contains("Tuesday"));
    assert!(item["createdAt"].as_str().unwrap().ends_with('Z'));
    let (s, v) = http
        .get(&sb.key, &format!("/brand-kits/{kit}/knowledge/{id}"))
        .await;
    assert_eq!(s, 200, "{v}");
    assert_eq!(
        v["item"]["content"],
        "# Studio hours\n\nWe shoot Tuesday to Saturday, 7am to 4pm."
    );
    let (_, v) = http
        .get(&sb.key, &format!("/brand-kits/{kit}/knowledge"))
        .await;
    assert_eq!(v["total"], 4);
    assert_eq!(v["items"][0]["id"], id.as_str(), "newest first");
    // The full kit read lists it with a preview.
    let (_, k) = http.get(&sb.key, &format!("/brand-kits/{kit}")).await;
    let r = k["knowledge"]
        .as_array()
        .unwrap()
        .iter()
        .find(|r| r["id"] == id.as_str())
        .unwrap()
        .clone();
    assert!(r["contentPreview"]
        .as_str()
        .unwrap()
        .starts_with("# Studio hours We shoot"));
    let (s, v) = http
        .delete(&sb.key, &format!("/brand-kits/{kit}/knowledge/{id}"), None)
        .await;
    assert_eq!(s, 200, "{v}");
    assert_eq!(v, json!({"id": id}));
    assert_eq!(
        http.get(&sb.key, &format!("/brand-kits/{kit}/knowledge/{id}"))
            .await
            .0,
        404
    );
    assert_eq!(
        http.delete(&sb.key, &format!("/brand-kits/{kit}/knowledge/{id}"), None)
            .await
            .0,
        404
    );
    let (_, v) = http
        .get(&sb.key, &format!("/brand-kits/{kit}/knowledge"))
        .await;
    assert_eq!(v["total"], 3);
    let (s, v) = http
        .get(
            &sb.key,
            &format!("/brand-kits/{kit}/knowledge/search?q=Tuesday+Saturday&threshold=0"),
        )
        .await;
    assert_eq!(s, 200);
    assert!(
        v["matches"].as_array().unwrap().is_empty(),
        "a deleted item is not searched: {v}"
    );
}

#[tokio::test]
async fn add_needs_the_fields_of_its_source_type() {
    let sb = TestSandbox::start().await;
    let http = Http::new(&sb);
    let (kit, _) = kits(&http, &sb.key).await;
    let cases = [
        (json!({"sourceType": "pdf"}), "sourceType"),
        (json!({"sourceType": "text"}), "text"),
        (json!({"sourceType": "text", "text": "   "}), "text"),
        (
            json!({"sourceType": "text", "text": "hi", "url": "https://x.example"}),
            "url",
        ),
        (json!({"sourceType": "url"}), "url"),
        (
            json!({"sourceType": "url", "url": "ftp://x.example/a"}),
            "url",
        ),
        (
            json!({"sourceType": "youtube", "url": "https://vimeo.com/123"}),
            "url",
        ),
        (json!({"sourceType": "file"}), "fileData"),
        (
            json!({"sourceType": "text", "text": "x", "fileName": "a.txt"}),
            "fileName",
        ),
        (json!({"text": "x"}), "sourceType"),
    ];
    for (body, field) in cases {
        let (s, v) = add(&http, &sb.key, &kit, body.clone()).await;
        assert_eq!(s, 400, "{body}: {v}");
        assert_eq!(v["field"], field, "{body}: {v}");
    }
    let (_, v) = http
        .get(&sb.key, &format!("/brand-kits/{kit}/knowledge"))
        .await;
    assert_eq!(v["total"], 3, "nothing added");
}

#[tokio::test]
async fn urls_and_hosted_files_are_recorded_without_fetching() {
    let sb = TestSandbox::start().await;
    let http = Http::new(&sb);
    let (kit, _) = kits(&http, &sb.key).await;
    let (s, v) = add(
        &http,
        &sb.key,
        &kit,
        json!({"sourceType": "url", "url": "https://example.com/about"}),
    )
    .await;
    assert_eq!(s, 200, "{v}");
    assert_eq!(v["item"]["sourceUrl"], "https://example.com/about");
    assert_eq!(v["item"]["content"], "");
    let (s, v) = add(
        &http,
        &sb.key,
        &kit,
        json!({"sourceType": "youtube", "url": "https://youtu.be/dQw4w9WgXcQ", "title": "Talk"}),
    )
    .await;
    assert_eq!(s, 200, "{v}");
    assert_eq!(v["item"]["title"], "Talk");
    // Video goes by hosted URL; the extension is inferred from it.
    let (s, v) = add(
        &http,
        &sb.key,
        &kit,
        json!({"sourceType": "file", "fileUrl": "https://cdn.example.com/media/showreel.mp4?sig=1"}),
    )
    .await;
    assert_eq!(s, 200, "{v}");
    assert_eq!(v["item"]["fileExt"], "mp4");
    assert_eq!(v["item"]["title"], "showreel.mp4");
    assert_eq!(
        v["item"]["sourceUrl"],
        "https://cdn.example.com/media/showreel.mp4?sig=1"
    );
}

#[tokio::test]
async fn base64_file_data_rules() {
    let config = Config {
        knowledge_max_file_bytes: 2048,
        ..Config::for_tests()
    };
    let sb = TestSandbox::start_with(config).await;
    let http = Http::new(&sb);
    let (kit, _) = kits(&http, &sb.key).await;
    // A small Markdown document: its text is extracted and searchable.
    let md = "# Packing list\n\nTwo LED panels, a lavalier microphone and a gimbal.";
    let (s, v) = add(
        &http,
        &sb.key,
        &kit,
        json!({"sourceType": "file", "fileData": b64(md.as_bytes()), "fileExt": "md"}),
    )
    .await;
    assert_eq!(s, 200, "{v}");
    assert_eq!(v["item"]["title"], "Packing list");
    assert_eq!(v["item"]["sizeBytes"], md.len());
    assert_eq!(v["item"]["content"], md);
    let (_, found) = http
        .get(
            &sb.key,
            &format!("/brand-kits/{kit}/knowledge/search?q=lavalier+microphone"),
        )
        .await;
    assert_eq!(
        found["matches"][0]["knowledgeId"], v["item"]["id"],
        "{found}"
    );
    // A data: URL prefix and line breaks are tolerated; an image is stored by size.
    let png = [0x89, b'P', b'N', b'G', 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13];
    let (s, v) = add(
        &http,
        &sb.key,
        &kit,
        json!({"sourceType": "file", "fileData": format!("data:image/png;base64,{}\n", b64(&png)), "fileExt": ".PNG"}),
    )
    .await;
    assert_eq!(s, 200, "{v}");
    assert_eq!(v["item"]["fileExt"], "png");
    assert_eq!(v["item"]["sizeBytes"], png.len());
    assert_eq!(v["item"]["content"], "");
    // Not base64.
    let (s, v) = add(
        &http,
        &sb.key,
        &kit,
        json!({"sourceType": "file", "fileData": "%%% not base64 %%%", "fileExt": "txt"}),
    )
    .await;
    assert_eq!(s, 400, "{v}");
    assert_eq!(v["field"], "fileData");
    assert!(msg(&v).contains("base64"));
    // Over the size: use a hosted fileUrl.
    let big = vec![b'a'; 2049];
    let (s, v) = add(
        &http,
        &sb.key,
        &kit,
        json!({"sourceType": "file", "fileData": b64(&big), "fileExt": "txt"}),
    )
    .await;
    assert_eq!(s, 400, "{v}");
    assert_eq!(v["field"], "fileData");
    assert!(msg(&v).contains("fileUrl"), "{v}");
    let exact = vec![b'a'; 2048];
    let (s, v) = add(
        &http,
        &sb.key,
        &kit,
        json!({"sourceType": "file", "fileData": b64(&exact), "fileExt": "txt"}),
    )
    .await;
    assert_eq!(s, 200, "the limit itself is allowed: {v}");
    // Video and audio never as base64.
    for ext in ["mp4", "mov", "mp3", "wav"] {
        let (s, v) = add(
            &http,
            &sb.key,
            &kit,
            json!({"sourceType": "file", "fileData": b64(b"abc"), "fileExt": ext}),
        )
        .await;
        assert_eq!(s, 400, "{ext}: {v}");
        assert_eq!(v["field"], "fileData");
        assert!(msg(&v).contains("fileUrl"), "{v}");
    }
    // Other kinds: 400 naming the allowed ones.
    let (s, v) = add(
        &http,
        &sb.key,
        &kit,
        json!({"sourceType": "file", "fileData": b64(b"abc"), "fileExt": "exe"}),
    )
    .await;
    assert_eq!(s, 400, "{v}");
    assert_eq!(v["field"], "fileExt");
    assert!(v["validValues"]
        .as_array()
        .unwrap()
        .iter()
        .any(|e| e == "pdf"));
    // fileData needs fileExt; fileData and fileUrl are exclusive.
    let (s, v) = add(
        &http,
        &sb.key,
        &kit,
        json!({"sourceType": "file", "fileData": b64(b"abc")}),
    )
    .await;
    assert_eq!(s, 400, "{v}");
    assert_eq!(v["field"], "fileExt");
    let (s, v) = add(
        &http,
        &sb.key,
        &kit,
        json!({"sourceType": "file", "fileData": b64(b"abc"), "fileExt": "txt", "fileUrl": "https://x.example/a.txt"}),
    )
    .await;
    assert_eq!(s, 400, "{v}");
    assert!(msg(&v).contains("exactly one"));
}

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
