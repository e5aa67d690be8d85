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

/// Uploads `bytes` as `file_name` of `content_type` through the ticket, the PUT and completion; the URL.
async fn upload(http: &Http, key: &str, file_name: &str, content_type: &str, bytes: &[u8]) -> String {
    let t = ticket(http, key, file_name, content_type).await;
    let (s, body) = put(t["uploadUrl"].as_str().unwrap(), content_type, bytes.to_vec()).await;
    assert_eq!(s, 200, "{body}");
    let id = t["outputId"].as_str().unwrap();
    let (s, v) = http.post(key, &format!("/media/uploads/{id}/complete"), json!({})).await;
    assert_eq!(s, 200, "{v}");
    v["url"].as_str().unwrap().to_string()
}

/// An SVG that runs script when opened as a document.
pub const SCRIPTED_SVG: &[u8] = br#"<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"><script>fetch("/svg-script-ran")</script><rect width="10" height="10"/></svg>"#;

#[tokio::test]
async fn served_files_are_nosniff_sandboxed_and_attachments_unless_plain_media() {
    // Issue 12: uploads were served with the uploader's MIME type and nothing else, so an uploaded SVG
    // ran its script on the sandbox's origin. Every file now carries nosniff and `CSP: sandbox`; an SVG
    // (or any type a browser would treat as a document) is an attachment; PNG, WAV, MP4 stay inline.
    let sb = TestSandbox::start().await;
    let http = Http::new(&sb);
    let headers = |url: String, range: bool| async move {
        let mut req = reqwest::Client::new().get(&url);
        if range {
            req = req.header("range", "bytes=0-3");
        }
        let resp = req.send().await.unwrap();
        let h = resp.headers();
        let get = |n: &str| h.get(n).map(|v| v.to_str().unwrap().to_string());
        (resp.status().as_u16(), get("x-content-type-options"), get("content-security-policy"), get("content-disposition"), get("content-type"))
    };
    let svg = upload(&http, &sb.key, "logo.svg", "image/svg+xml", SCRIPTED_SVG).await;
    for range in [false, true] {
        let (status, nosniff, csp, disposition, ctype) = headers(svg.clone(), range).await;
        assert!(status == 200 || status == 206, "{status}");
        assert_eq!(nosniff.as_deref(), Some("nosniff"));
        assert_eq!(csp.as_deref(), Some("sandbox"));
        let d = disposition.unwrap_or_default();
        assert!(d.starts_with("attachment") && d.contains(".svg"), "an SVG is an attachment: {d:?}");
        assert_eq!(ctype.as_deref(), Some("image/svg+xml"));
    }
    let png = upload(&http, &sb.key, "dot.png", "image/png", b"\x89PNG\r\n\x1a\nrest").await;
    let wav = upload(&http, &sb.key, "tone.wav", "audio/wav", b"RIFF----WAVE").await;
    let mp4 = upload(&http, &sb.key, "clip.mp4", "video/mp4", b"....ftypisom").await;
    for url in [png, wav, mp4] {
        let (status, nosniff, csp, disposition, _) = headers(url.clone(), false).await;
        assert_eq!(status, 200);
        assert_eq!((nosniff.as_deref(), csp.as_deref()), (Some("nosniff"), Some("sandbox")), "{url}");
        assert_eq!(disposition, None, "plain media stays inline: {url}");
    }
    // An SVG imported as a data: URL is served the same way.
    let data_url = format!("data:image/svg+xml;base64,{}", base64::engine::general_purpose::STANDARD.encode(SCRIPTED_SVG));
    let (s, v) = http.post(&sb.key, "/media/imports", json!({"url": data_url})).await;
    assert_eq!(s, 200, "{v}");
    let (_, nosniff, csp, disposition, _) = headers(v["url"].as_str().unwrap().to_string(), false).await;
    assert_eq!((nosniff.as_deref(), csp.as_deref()), (Some("nosniff"), Some("sandbox")));
    assert!(disposition.unwrap_or_default().starts_with("attachment"));
    // A render too.
    let (s, v) = http.post(&sb.key, "/studio/generate", json!({"modelId": "nano-banana-2", "prompt": "a kite"})).await;
    assert_eq!(s, 200, "{v}");
    let render = v["outputUrls"][0].as_str().unwrap_or_else(|| panic!("a finished render: {v}")).to_string();
    let (_, nosniff, csp, disposition, _) = headers(render, false).await;
    assert_eq!((nosniff.as_deref(), csp.as_deref(), disposition), (Some("nosniff"), Some("sandbox"), None));
}

#[tokio::test]
async fn importing_another_accounts_file_is_404_and_copies_nothing() {
    // Issue 12: `/media/imports` of a sandbox `/files/...` URL read the file whoever owned it and copied
    // it into the caller's account. Now another account's file answers 404 like a name never stored, and
    // nothing is written; the owner still imports it.
    let sb = TestSandbox::start().await;
    let http = Http::new(&sb);
    let url = upload(&http, &sb.key, "private.png", "image/png", b"\x89PNG\r\n\x1a\nprivate bytes").await;
    let (other_account, other) = sb.other_account(10.0);
    let count = |table: &str, account: &str| -> i64 {
        let conn = sb.state().db().lock();
        conn.query_row(&format!("SELECT COUNT(*) FROM {table} WHERE account_id = ?1"), [account], |r| r.get(0)).unwrap()
    };
    let before = (count("stored_files", &other_account), count("media_imports", &other_account));
    let (s, v) = http.post(&other, "/media/imports", json!({"url": url})).await;
    assert_eq!(s, 404, "another account's file: {v}");
    assert!(msg(&v).contains("not found"), "{v}");
    let (s, never) = http
        .post(&other, "/media/imports", json!({"url": format!("{}/files/nothing-here.png", sb.running.origin())}))
        .await;
    assert_eq!((s, msg(&never).replace("nothing-here.png", "")), (404, msg(&v).replace(url.rsplit('/').next().unwrap(), "")),
        "a foreign file reads exactly like a missing one");
    assert_eq!((count("stored_files", &other_account), count("media_imports", &other_account)), before, "nothing copied");
    let (s, lib) = http.get(&other, "/media").await;
    assert_eq!(s, 200);
    assert!(!lib.to_string().contains("private"), "{lib}");
    // The owner imports it.
    let (s, v) = http.post(&sb.key, "/media/imports", json!({"url": url})).await;
    assert_eq!(s, 200, "{v}");
}

#[tokio::test]
async fn abandoned_uploads_expire_and_are_purged() {
    // Issue 12: an upload never completed kept its ticket and up to 50 MiB of PUT bytes forever. With a
    // 300 ms `upload_ttl`: once expired, the next upload start deletes it (bytes and all), its URL and its
    // completion answer 404, and a completed upload is untouched; a restart purges too.
    let sb = TestSandbox::start_with(Config { upload_ttl: std::time::Duration::from_millis(300), ..Config::for_tests() }).await;
    let http = Http::new(&sb);
    let rows = |id: &str| -> (i64, i64) {
        let conn = sb.state().db().lock();
        conn.query_row(
            "SELECT COUNT(*), COALESCE(SUM(LENGTH(bytes)), 0) FROM uploads WHERE output_id = ?1",
            [id],
            |r| Ok((r.get(0)?, r.get(1)?)),
        )
        .unwrap()
    };
    let abandoned = ticket(&http, &sb.key, "half.wav", "audio/wav").await;
    let (a_id, a_url) = (abandoned["outputId"].as_str().unwrap().to_string(), abandoned["uploadUrl"].as_str().unwrap().to_string());
    let (s, _) = put(&a_url, "audio/wav", vec![7; 4000]).await;
    assert_eq!(s, 200);
    assert_eq!(rows(&a_id), (1, 4000), "the PUT's bytes wait for completion");
    let done = upload(&http, &sb.key, "done.png", "image/png", b"\x89PNG\r\n\x1a\nkept").await;
    let done_id = done.rsplit('/').next().unwrap()[..36].to_string();

    tokio::time::sleep(std::time::Duration::from_millis(400)).await;
    ticket(&http, &sb.key, "next.png", "image/png").await;
    assert_eq!(rows(&a_id), (0, 0), "the expired upload and its bytes are gone");
    assert_eq!(rows(&done_id).0, 1, "a completed upload keeps its record");
    let (s, body) = put(&a_url, "audio/wav", vec![7; 10]).await;
    assert_eq!(s, 404, "{body}");
    let (s, v) = http.post(&sb.key, &format!("/media/uploads/{a_id}/complete"), json!({})).await;
    assert_eq!(s, 404, "{v}");
    assert_eq!(reqwest::get(&done).await.unwrap().status().as_u16(), 200, "the completed file is still served");

    // Abandoned, then the sandbox restarts: the new router purges it before serving.
    let late = ticket(&http, &sb.key, "late.wav", "audio/wav").await;
    let late_id = late["outputId"].as_str().unwrap().to_string();
    let (s, _) = put(late["uploadUrl"].as_str().unwrap(), "audio/wav", vec![1; 100]).await;
    assert_eq!(s, 200);
    tokio::time::sleep(std::time::Duration::from_millis(400)).await;
    assert_eq!(rows(&late_id).0, 1);
    let reopened = contentdesk_sandbox::AppState::open(sb.db_path(), Config::for_tests()).unwrap();
    let _router = contentdesk_sandbox::app(reopened);
    assert_eq!(rows(&late_id), (0, 0), "purged when the sandbox starts");
}
