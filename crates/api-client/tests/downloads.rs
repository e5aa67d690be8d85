//! Downloads of output files and uploads with byte progress: the key goes only to the API's own origin
//! (never to another host, nor after a redirect to one); a render's file comes back byte for byte; an
//! upload reports its bytes as they go and sends a `Content-Length`, not a chunked body.
mod common;
use api_types::{ContentType, GenerateRequest};
use common::*;
use contentdesk_api_client::{ApiKey, Client, RetryConfig};
use contentdesk_sandbox::db::CachedRow as _;
use std::sync::{Arc, Mutex};
use std::time::Duration;
use wiremock::matchers::{method, path};
use wiremock::{Mock, MockServer, ResponseTemplate};

fn client_at(base: &str) -> Client {
    Client::builder(ApiKey::new("ch_live_downloadsecret"))
        .base_url(base)
        .timeout(Duration::from_secs(10))
        .retry(RetryConfig { base: Duration::from_millis(10), ..RetryConfig::default() })
        .build()
        .expect("client")
}

fn auth_of(req: &wiremock::Request) -> Option<String> {
    req.headers.get("authorization").and_then(|v| v.to_str().ok()).map(str::to_string)
}

#[tokio::test]
async fn the_key_goes_to_the_apis_origin_only() {
    let api = MockServer::start().await;
    let cdn = MockServer::start().await;
    for server in [&api, &cdn] {
        Mock::given(method("GET"))
            .and(path("/files/a.png"))
            .respond_with(ResponseTemplate::new(200).set_body_bytes(b"PNGDATA".to_vec()).insert_header("content-type", "image/png; charset=binary"))
            .mount(server)
            .await;
    }
    let client = client_at(&format!("{}/api/v1", api.uri()));
    assert!(client.is_api_origin(&format!("{}/files/a.png", api.uri())));
    assert!(!client.is_api_origin(&format!("{}/files/a.png", cdn.uri())), "another port is another origin");

    let own = client.download(&format!("{}/files/a.png", api.uri())).await.expect("download");
    assert_eq!((own.bytes.as_ref(), own.content_type.as_deref()), (&b"PNGDATA"[..], Some("image/png")));
    let relative = client.download("/files/a.png").await.expect("a path is on the API's origin");
    assert_eq!(relative.bytes.as_ref(), b"PNGDATA");
    let other = client.download(&format!("{}/files/a.png", cdn.uri())).await.expect("download");
    assert_eq!(other.bytes.as_ref(), b"PNGDATA");

    let api_seen = api.received_requests().await.unwrap();
    assert_eq!(api_seen.len(), 2);
    for r in &api_seen {
        assert_eq!(auth_of(r).as_deref(), Some("Bearer ch_live_downloadsecret"));
    }
    let cdn_seen = cdn.received_requests().await.unwrap();
    assert_eq!(cdn_seen.len(), 1);
    assert_eq!(auth_of(&cdn_seen[0]), None, "no key to another host");
}

#[tokio::test]
async fn a_redirect_from_the_api_to_another_host_drops_the_key() {
    let api = MockServer::start().await;
    let cdn = MockServer::start().await;
    Mock::given(method("GET"))
        .and(path("/files/moved.wav"))
        .respond_with(ResponseTemplate::new(302).insert_header("location", format!("{}/store/moved.wav", cdn.uri()).as_str()))
        .mount(&api)
        .await;
    Mock::given(method("GET"))
        .and(path("/store/moved.wav"))
        .respond_with(ResponseTemplate::new(200).set_body_bytes(b"RIFF".to_vec()))
        .mount(&cdn)
        .await;
    let client = client_at(&format!("{}/api/v1", api.uri()));
    let got = client.download(&format!("{}/files/moved.wav", api.uri())).await.expect("download");
    assert_eq!(got.bytes.as_ref(), b"RIFF");
    let cdn_seen = cdn.received_requests().await.unwrap();
    assert_eq!(cdn_seen.len(), 1);
    assert_eq!(auth_of(&cdn_seen[0]), None);
}

#[tokio::test]
async fn a_missing_file_is_an_error_with_its_status_and_a_non_http_url_is_refused() {
    let api = MockServer::start().await;
    let client = client_at(&format!("{}/api/v1", api.uri()));
    let e = client.download(&format!("{}/files/none.png", api.uri())).await.unwrap_err();
    assert_eq!(e.status(), Some(404), "{e:?}");
    let e = client.download("file:///etc/passwd").await.unwrap_err();
    assert!(e.to_string().contains("not an http(s) URL"), "{e}");
}

#[tokio::test]
async fn a_renders_file_downloads_byte_for_byte() {
    let (sb, client) = start().await;
    let model = ok(client.models().list(Some(ContentType::Image)).await).remove(0);
    let done = ok(client
        .studio()
        .generate(&GenerateRequest { model_id: model.model_id, prompt: Some("a blue mug".into()), ..Default::default() })
        .await);
    let done = ok(client.studio().wait(&done.output_id, Default::default()).await).generation;
    let url = done.urls().remove(0);
    let got = ok(client.download(&url).await);
    let name = url.rsplit('/').next().unwrap().to_string();
    let stored: Vec<u8> = {
        let conn = sb.state().db().lock();
        conn.cached_row("SELECT bytes FROM stored_files WHERE name = ?1", [&name], |r| r.get(0)).expect("stored")
    };
    assert_eq!(got.bytes.as_ref(), stored.as_slice());
    assert_eq!(got.content_type.as_deref(), Some("image/png"));
}

#[tokio::test]
async fn an_upload_reports_its_bytes_and_sends_its_length() {
    let api = MockServer::start().await;
    let ticket = serde_json::json!({
        "outputId": "9b0f8a43-70a4-4a0e-9d55-2d7f5c3c1e01",
        "uploadUrl": format!("{}/upload/t1", api.uri()),
        "uploadHeaders": { "Content-Type": "video/mp4" },
    });
    Mock::given(method("POST")).and(path("/api/v1/media/uploads")).respond_with(ResponseTemplate::new(200).set_body_json(ticket)).mount(&api).await;
    Mock::given(method("PUT")).and(path("/upload/t1")).respond_with(ResponseTemplate::new(200)).mount(&api).await;
    Mock::given(method("POST"))
        .and(path("/api/v1/media/uploads/9b0f8a43-70a4-4a0e-9d55-2d7f5c3c1e01/complete"))
        .respond_with(ResponseTemplate::new(200).set_body_json(serde_json::json!({ "outputId": "9b0f8a43-70a4-4a0e-9d55-2d7f5c3c1e01", "url": "https://cdn.example/x.mp4" })))
        .mount(&api)
        .await;
    let client = client_at(&format!("{}/api/v1", api.uri()));
    let bytes: Vec<u8> = (0..300_000u32).map(|i| (i % 251) as u8).collect();
    let seen = Arc::new(Mutex::new(Vec::new()));
    let s = seen.clone();
    let done = client
        .media()
        .upload_with_progress("clip.mp4", "video/mp4", bytes.clone(), Arc::new(move |d, t| s.lock().unwrap().push((d, t))))
        .await
        .expect("upload");
    assert_eq!(done.url, "https://cdn.example/x.mp4");
    let seen = seen.lock().unwrap().clone();
    assert!(seen.len() >= 4, "several chunks reported: {seen:?}");
    assert!(seen.windows(2).all(|w| w[0].0 < w[1].0), "growing: {seen:?}");
    assert!(seen.iter().all(|&(_, t)| t == 300_000));
    assert_eq!(seen.last(), Some(&(300_000, 300_000)));

    let put = api.received_requests().await.unwrap().into_iter().find(|r| r.method.as_str() == "PUT").expect("a PUT");
    assert_eq!(put.body, bytes, "the bytes arrive whole");
    assert_eq!(put.headers.get("content-length").and_then(|v| v.to_str().ok()), Some("300000"));
    assert!(put.headers.get("transfer-encoding").is_none(), "not chunked");
    assert_eq!(auth_of(&put), None, "object storage gets no key");
    assert_eq!(put.headers.get("content-type").and_then(|v| v.to_str().ok()), Some("video/mp4"));
}

#[tokio::test]
async fn an_upload_with_progress_lands_in_the_sandbox_whole() {
    let (sb, client) = start().await;
    let bytes: Vec<u8> = (0..150_000u32).map(|i| (i % 13) as u8).collect();
    let last = Arc::new(Mutex::new((0, 0)));
    let l = last.clone();
    let up = ok(client
        .media()
        .upload_with_progress("blob.png", "image/png", bytes.clone(), Arc::new(move |d, t| *l.lock().unwrap() = (d, t)))
        .await);
    assert_eq!(*last.lock().unwrap(), (150_000, 150_000));
    let got = ok(client.download(&up.url).await);
    assert_eq!(got.bytes.as_ref(), bytes.as_slice());
    drop(sb);
}
