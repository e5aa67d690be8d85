//! knowledge: adding.
use super::*;

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
