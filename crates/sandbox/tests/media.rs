//! Uploads and imports over real HTTP: the ticket, the unauthenticated PUT, completion, imports
//! idempotent by content, scopes, and uploaded media used as an output token.
mod common;
use api_types::scopes;
use base64::Engine;
use common::{msg, Http, TestSandbox};
use contentdesk_sandbox::Config;
use serde_json::{json, Value};

async fn ticket(http: &Http, key: &str, file_name: &str, content_type: &str) -> Value {
    let (s, v) = http
        .post(
            key,
            "/media/uploads",
            json!({"fileName": file_name, "contentType": content_type, "sizeBytes": 16}),
        )
        .await;
    assert_eq!(s, 200, "{v}");
    v
}

/// PUTs `bytes` with `content_type` and no auth header.
async fn put(url: &str, content_type: &str, bytes: Vec<u8>) -> (u16, String) {
    let resp = reqwest::Client::new()
        .put(url)
        .header("content-type", content_type)
        .body(bytes)
        .send()
        .await
        .expect("put");
    (
        resp.status().as_u16(),
        resp.text().await.unwrap_or_default(),
    )
}

#[tokio::test]
async fn upload_flow_end_to_end() {
    let sb = TestSandbox::start().await;
    let http = Http::new(&sb);
    let t = ticket(&http, &sb.key, "holiday photo.png", "image/png").await;
    let upload_url = t["uploadUrl"].as_str().unwrap();
    assert!(
        upload_url.starts_with(&format!("{}/uploads/", sb.running.origin())),
        "{t}"
    );
    assert_eq!(t["uploadHeaders"]["Content-Type"], "image/png");
    assert!(t["storagePath"]
        .as_str()
        .unwrap()
        .contains(t["outputId"].as_str().unwrap()));
    assert!(t["expiresAt"].as_str().unwrap().ends_with('Z'));
    let bytes: Vec<u8> = b"\x89PNG\r\n\x1a\n-not-really-a-png".to_vec();
    let (s, body) = put(upload_url, "image/png", bytes.clone()).await;
    assert_eq!(s, 200, "{body}");
    let id = t["outputId"].as_str().unwrap();
    let (s, v) = http
        .post(&sb.key, &format!("/media/uploads/{id}/complete"), json!({}))
        .await;
    assert_eq!(s, 200, "{v}");
    assert_eq!(v["outputId"], id);
    let url = v["url"].as_str().unwrap();
    let resp = reqwest::get(url).await.unwrap();
    assert_eq!(resp.status().as_u16(), 200);
    assert_eq!(resp.headers()["content-type"], "image/png");
    assert!(
        resp.headers().get("x-sandbox-render").is_none(),
        "an upload is not a render"
    );
    assert_eq!(resp.bytes().await.unwrap().to_vec(), bytes);
    // Completing again answers the same.
    let (s, again) = http
        .post(&sb.key, &format!("/media/uploads/{id}/complete"), json!({}))
        .await;
    assert_eq!(s, 200);
    assert_eq!(again["url"], v["url"]);
    // The upload is an output the caller owns: usable as a reference token.
    let (s, v) = http
        .post(&sb.key, "/studio/generate", json!({"modelId": "veo-3.1-fast", "prompt": "x", "references": {"startFrame": format!("{id}-1")}}))
        .await;
    assert_eq!(s, 200, "{v}");
    // And to nobody else.
    let (_, other) = sb.other_account(50.0);
    let (s, _) = http
        .post(
            &other,
            "/studio/generate",
            json!({"modelId": "veo-3.1-fast", "prompt": "x", "references": {"startFrame": id}}),
        )
        .await;
    assert_eq!(s, 404);
    let (s, _) = http
        .post(&other, &format!("/media/uploads/{id}/complete"), json!({}))
        .await;
    assert_eq!(s, 404);
    // A completed upload takes no more bytes.
    let (s, _) = put(upload_url, "image/png", b"more".to_vec()).await;
    assert_eq!(s, 409);
}

#[tokio::test]
async fn completing_before_any_bytes_is_400() {
    let sb = TestSandbox::start().await;
    let http = Http::new(&sb);
    let t = ticket(&http, &sb.key, "clip.mp4", "video/mp4").await;
    let id = t["outputId"].as_str().unwrap();
    let (s, v) = http
        .post(&sb.key, &format!("/media/uploads/{id}/complete"), json!({}))
        .await;
    assert_eq!(s, 400, "{v}");
    assert!(msg(&v).contains("PUT"), "{v}");
}

#[tokio::test]
async fn the_put_checks_content_type_and_size() {
    let sb = TestSandbox::start_with(Config {
        max_upload_bytes: 1000,
        ..Config::for_tests()
    })
    .await;
    let http = Http::new(&sb);
    let t = ticket(&http, &sb.key, "voice.wav", "audio/wav").await;
    let url = t["uploadUrl"].as_str().unwrap();
    let (s, body) = put(url, "image/png", vec![1, 2, 3]).await;
    assert_eq!(s, 400, "{body}");
    assert!(body.contains("audio/wav"));
    let (s, body) = put(url, "audio/wav", vec![0; 2000]).await;
    assert_eq!(s, 413, "{body}");
    let (s, _) = put(url, "audio/wav", vec![0; 1000]).await;
    assert_eq!(s, 200);
    let (s, _) = put(
        &format!("{}/uploads/nosuchtoken", sb.running.origin()),
        "audio/wav",
        vec![0; 10],
    )
    .await;
    assert_eq!(s, 404);
    // The ticket refuses non-media types and sizes past the limit.
    let (s, v) = http
        .post(
            &sb.key,
            "/media/uploads",
            json!({"fileName": "a.pdf", "contentType": "application/pdf"}),
        )
        .await;
    assert_eq!(s, 400, "{v}");
    assert_eq!(v["field"], "contentType");
    let (s, v) = http
        .post(
            &sb.key,
            "/media/uploads",
            json!({"fileName": "a.wav", "contentType": "audio/wav", "sizeBytes": 5000}),
        )
        .await;
    assert_eq!(s, 400, "{v}");
    assert_eq!(v["field"], "sizeBytes");
    let (s, v) = http
        .post(
            &sb.key,
            "/media/uploads",
            json!({"fileName": " ", "contentType": "audio/wav"}),
        )
        .await;
    assert_eq!(s, 400, "{v}");
    assert_eq!(v["field"], "fileName");
}

#[tokio::test]
async fn import_is_idempotent_by_content() {
    let sb = TestSandbox::start().await;
    let http = Http::new(&sb);
    let png = b"\x89PNG\r\n\x1a\nimported".to_vec();
    let data_url = format!(
        "data:image/png;base64,{}",
        base64::engine::general_purpose::STANDARD.encode(&png)
    );
    let (s, first) = http
        .post(&sb.key, "/media/imports", json!({"url": data_url}))
        .await;
    assert_eq!(s, 200, "{first}");
    assert_eq!(first["alreadyExisted"], false);
    let served = first["url"].as_str().unwrap();
    assert_eq!(
        reqwest::get(served)
            .await
            .unwrap()
            .bytes()
            .await
            .unwrap()
            .to_vec(),
        png
    );
    let (_, again) = http
        .post(
            &sb.key,
            "/media/imports",
            json!({"url": data_url, "fileName": "other name.png"}),
        )
        .await;
    assert_eq!(again["alreadyExisted"], true);
    assert_eq!(again["outputId"], first["outputId"]);
    assert_eq!(again["url"], first["url"]);
    // The same bytes through the sandbox's own file URL are the same content.
    let (_, via_url) = http
        .post(&sb.key, "/media/imports", json!({"url": served}))
        .await;
    assert_eq!(via_url["alreadyExisted"], true, "{via_url}");
    assert_eq!(via_url["outputId"], first["outputId"]);

    // A URL the sandbox cannot fetch is recorded as it is and de-duplicated by the URL.
    let remote = "https://cdn.example.com/clips/intro.mp4";
    let (s, r1) = http
        .post(&sb.key, "/media/imports", json!({"url": remote}))
        .await;
    assert_eq!(s, 200, "{r1}");
    assert_eq!(r1["url"], remote);
    assert_eq!(r1["alreadyExisted"], false);
    let (_, r2) = http
        .post(&sb.key, "/media/imports", json!({"url": remote}))
        .await;
    assert_eq!(r2["alreadyExisted"], true);
    assert_eq!(r2["outputId"], r1["outputId"]);
    // Imports are per account.
    let (_, other) = sb.other_account(0.0);
    let (_, theirs) = http
        .post(&other, "/media/imports", json!({"url": remote}))
        .await;
    assert_eq!(theirs["alreadyExisted"], false);
    assert_ne!(theirs["outputId"], r1["outputId"]);
    // An imported video chains as a reference of its kind only.
    let token = r1["outputId"].as_str().unwrap();
    let (s, v) = http
        .post(
            &sb.key,
            "/studio/generate",
            json!({"modelId": "topaz-video-upscale", "references": {"videos": [token]}}),
        )
        .await;
    assert_eq!(s, 200, "{v}");
    let (s, v) = http
        .post(
            &sb.key,
            "/studio/generate",
            json!({"modelId": "veo-3.1-fast", "prompt": "x", "references": {"startFrame": token}}),
        )
        .await;
    assert_eq!(s, 400, "{v}");
}

#[tokio::test]
async fn bad_imports_are_400_naming_the_field() {
    let sb = TestSandbox::start().await;
    let http = Http::new(&sb);
    let cases = [
        (json!({"url": ""}), "url"),
        (json!({"url": "ftp://files.example/a.png"}), "url"),
        (json!({"url": "data:image/png;base64,%%%"}), "url"),
        (
            json!({"url": format!("{}/files/nothing-here.png", sb.running.origin())}),
            "url",
        ),
        (json!({"url": "https://example.com/page"}), "contentType"),
        (
            json!({"url": "https://example.com/a.png", "contentType": "text/html"}),
            "contentType",
        ),
        (
            json!({"url": "https://example.com/a.png", "extra": 1}),
            "extra",
        ),
    ];
    for (body, field) in cases {
        let (s, v) = http.post(&sb.key, "/media/imports", body.clone()).await;
        assert_eq!(s, 400, "{body}: {v}");
        assert_eq!(v["field"], field, "{body}: {v}");
    }
    // With contentType the kind is known.
    let (s, v) = http
        .post(
            &sb.key,
            "/media/imports",
            json!({"url": "https://example.com/page", "contentType": "image"}),
        )
        .await;
    assert_eq!(s, 200, "{v}");
}

#[tokio::test]
async fn media_writes_need_assets_write() {
    let sb = TestSandbox::start().await;
    let http = Http::new(&sb);
    let key = sb.key_with(&[scopes::GENERATE]);
    let id = uuid::Uuid::new_v4();
    for (path, body) in [
        (
            "/media/uploads".to_string(),
            json!({"fileName": "a.png", "contentType": "image/png"}),
        ),
        (format!("/media/uploads/{id}/complete"), json!({})),
        (
            "/media/imports".to_string(),
            json!({"url": "https://example.com/a.png"}),
        ),
    ] {
        let (s, v) = http.post(&key, &path, body).await;
        assert_eq!(s, 403, "{path}: {v}");
        assert!(msg(&v).contains("assets:write"), "{v}");
        assert_eq!(v["scope"], "assets:write");
    }
}
