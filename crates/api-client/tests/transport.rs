//! What the sandbox cannot produce, against wiremock (and one raw TCP server): 5xx retried for GET but
//! not for a POST without `outputId`, a generate retried with the same `outputId`, a malformed body, a
//! dropped connection, the `card` envelope, a 429 with only `Retry-After`, an HTML error page, and the
//! headers every request carries.
use api_types::{DeleteStage, UploadTicket};
use contentdesk_api_client::{ApiError, ApiKey, Client, NetworkKind, RetryConfig};
use serde_json::json;
use std::collections::BTreeMap;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use wiremock::matchers::{method, path};
use wiremock::{Mock, MockServer, ResponseTemplate};

const KEY: &str = "ch_live_wiremockwiremockwiremockwire";

fn client_for(base: &str) -> Client {
    Client::builder(ApiKey::new(KEY))
        .base_url(format!("{base}/api/v1/"))
        .timeout(Duration::from_secs(5))
        .retry(RetryConfig {
            base: Duration::from_millis(10),
            ..RetryConfig::default()
        })
        .build()
        .unwrap()
}

fn balance_json() -> serde_json::Value {
    json!({"balance": 42.0, "tier": "hero", "autoTopupEnabled": false})
}

#[tokio::test]
async fn get_is_retried_on_500_502_503_then_succeeds() {
    let server = MockServer::start().await;
    for status in [500, 502, 503] {
        Mock::given(method("GET"))
            .and(path("/api/v1/account/balance"))
            .respond_with(ResponseTemplate::new(status).set_body_json(json!({"error": "upstream"})))
            .up_to_n_times(1)
            .mount(&server)
            .await;
    }
    Mock::given(method("GET"))
        .and(path("/api/v1/account/balance"))
        .respond_with(ResponseTemplate::new(200).set_body_json(balance_json()))
        .mount(&server)
        .await;
    let b = client_for(&server.uri()).account().balance().await.unwrap();
    assert_eq!(b.balance, 42.0);
    assert_eq!(server.received_requests().await.unwrap().len(), 4);
}

#[tokio::test]
async fn get_gives_up_after_max_attempts_with_a_server_error() {
    let server = MockServer::start().await;
    Mock::given(method("GET"))
        .respond_with(ResponseTemplate::new(503).set_body_json(json!({"error": "down"})))
        .expect(4)
        .mount(&server)
        .await;
    let e = client_for(&server.uri())
        .account()
        .balance()
        .await
        .unwrap_err();
    assert!(matches!(e, ApiError::Server { status: 503, .. }), "{e:?}");
    assert!(e.is_retryable());
    server.verify().await;
}

#[tokio::test]
async fn post_without_output_id_is_not_retried_on_500() {
    let server = MockServer::start().await;
    Mock::given(method("POST"))
        .and(path("/api/v1/tags"))
        .respond_with(ResponseTemplate::new(500).set_body_json(json!({"error": "boom"})))
        .expect(1)
        .mount(&server)
        .await;
    let e = client_for(&server.uri())
        .tags()
        .create("once")
        .await
        .unwrap_err();
    assert!(
        matches!(e, ApiError::Server { status: 500, ref message, .. } if message == "boom"),
        "{e:?}"
    );
    server.verify().await;
}

#[tokio::test]
async fn generate_is_retried_on_503_with_the_same_output_id_in_the_body() {
    let server = MockServer::start().await;
    Mock::given(method("POST"))
        .and(path("/api/v1/studio/generate"))
        .respond_with(ResponseTemplate::new(503).set_body_json(json!({"error": "busy"})))
        .up_to_n_times(1)
        .mount(&server)
        .await;
    Mock::given(method("POST"))
        .and(path("/api/v1/studio/generate"))
        .respond_with(ResponseTemplate::new(200).set_body_json(json!({
            "outputId": "ignored-by-test", "status": "processing", "idempotentReplay": true
        })))
        .mount(&server)
        .await;
    let req = api_types::GenerateRequest {
        model_id: "m".into(),
        prompt: Some("p".into()),
        ..Default::default()
    };
    let r = client_for(&server.uri())
        .studio()
        .generate(&req)
        .await
        .unwrap();
    assert!(r.idempotent_replay);
    let sent = server.received_requests().await.unwrap();
    assert_eq!(sent.len(), 2);
    let ids: Vec<String> = sent
        .iter()
        .map(|r| {
            serde_json::from_slice::<serde_json::Value>(&r.body).unwrap()["outputId"]
                .as_str()
                .unwrap()
                .to_string()
        })
        .collect();
    assert_eq!(ids[0], ids[1], "the retry carries the same outputId");
    assert!(uuid::Uuid::parse_str(&ids[0]).is_ok());
}

#[tokio::test]
async fn malformed_json_is_a_decode_error_keeping_the_raw_body() {
    let server = MockServer::start().await;
    Mock::given(method("GET"))
        .respond_with(
            ResponseTemplate::new(200).set_body_raw("{\"balance\": 4", "application/json"),
        )
        .mount(&server)
        .await;
    let e = client_for(&server.uri())
        .account()
        .balance()
        .await
        .unwrap_err();
    match &e {
        ApiError::Decode { status, body, .. } => {
            assert_eq!(*status, 200);
            assert_eq!(body, "{\"balance\": 4");
        }
        other => panic!("expected Decode, got {other:?}"),
    }
    assert!(e.to_string().contains("{\"balance\": 4"));
}

#[tokio::test]
async fn html_error_page_is_a_server_error_whose_message_is_not_the_html() {
    let server = MockServer::start().await;
    let html =
        "<html><head><title>502 Bad Gateway</title></head><body><h1>Bad Gateway</h1></body></html>";
    Mock::given(method("POST"))
        .respond_with(ResponseTemplate::new(502).set_body_raw(html, "text/html"))
        .expect(1)
        .mount(&server)
        .await;
    let e = client_for(&server.uri())
        .tags()
        .create("x")
        .await
        .unwrap_err();
    match &e {
        ApiError::Server {
            status,
            message,
            body,
        } => {
            assert_eq!(*status, 502);
            assert_eq!(message, "HTTP 502 (non-JSON response)");
            assert_eq!(body, html);
        }
        other => panic!("expected Server, got {other:?}"),
    }
    server.verify().await;
}

#[tokio::test]
async fn a_card_envelope_is_accepted_like_post() {
    let server = MockServer::start().await;
    let card = json!({"id": "c1", "title": "Hello", "assets": [{"id": "a1", "contentId": "k1", "assetId": "k1"}], "posts": []});
    Mock::given(method("GET"))
        .and(path("/api/v1/cards/c1"))
        .respond_with(ResponseTemplate::new(200).set_body_json(json!({"card": card})))
        .mount(&server)
        .await;
    Mock::given(method("GET"))
        .and(path("/api/v1/cards/c2"))
        .respond_with(
            ResponseTemplate::new(200).set_body_json(json!({"post": {"id": "c2", "title": "Two"}})),
        )
        .mount(&server)
        .await;
    let c = client_for(&server.uri());
    let one = c.cards().get("c1").await.unwrap();
    assert_eq!(one.summary.title, "Hello");
    assert_eq!(one.assets[0].content_id.as_deref(), Some("k1"));
    assert_eq!(c.cards().get("c2").await.unwrap().summary.id, "c2");
}

#[tokio::test]
async fn a_429_with_only_a_retry_after_header_is_retried_after_that_long() {
    let server = MockServer::start().await;
    Mock::given(method("GET"))
        .respond_with(
            ResponseTemplate::new(429)
                .insert_header("Retry-After", "1")
                .set_body_string("Too Many Requests"),
        )
        .up_to_n_times(1)
        .mount(&server)
        .await;
    Mock::given(method("GET"))
        .respond_with(ResponseTemplate::new(200).set_body_json(balance_json()))
        .mount(&server)
        .await;
    let started = Instant::now();
    client_for(&server.uri()).account().balance().await.unwrap();
    assert!(
        started.elapsed() >= Duration::from_millis(950),
        "{:?}",
        started.elapsed()
    );
    assert_eq!(server.received_requests().await.unwrap().len(), 2);
}

#[tokio::test]
async fn a_429_body_retry_after_wins_over_the_header() {
    let server = MockServer::start().await;
    Mock::given(method("POST"))
        .respond_with(
            ResponseTemplate::new(429)
                .insert_header("Retry-After", "5")
                .set_body_json(json!({"error": "slow down", "retryAfter": 0.2})),
        )
        .up_to_n_times(1)
        .mount(&server)
        .await;
    Mock::given(method("POST"))
        .respond_with(
            ResponseTemplate::new(200).set_body_json(json!({"tag": {"id": "t1", "name": "a"}})),
        )
        .mount(&server)
        .await;
    let started = Instant::now();
    // a POST without outputId: a 429 is still retried (nothing was done)
    client_for(&server.uri()).tags().create("a").await.unwrap();
    let took = started.elapsed();
    assert!(
        took >= Duration::from_millis(190) && took < Duration::from_secs(3),
        "{took:?}"
    );
}

#[tokio::test]
async fn headers_are_bearer_accept_json_and_content_type_only_with_a_body() {
    let server = MockServer::start().await;
    Mock::given(method("GET"))
        .respond_with(ResponseTemplate::new(200).set_body_json(balance_json()))
        .mount(&server)
        .await;
    Mock::given(method("DELETE"))
        .respond_with(
            ResponseTemplate::new(200)
                .set_body_json(json!({"id": "s1", "moved_cards": 2, "stages": []})),
        )
        .mount(&server)
        .await;
    let c = client_for(&server.uri());
    c.account().balance().await.unwrap();
    let deleted = c
        .stages()
        .delete(
            "s1",
            &DeleteStage {
                space_id: "sp".into(),
                target_stage_id: Some("s2".into()),
                ..Default::default()
            },
        )
        .await
        .unwrap();
    assert_eq!(deleted.moved_cards, 2);
    let sent = server.received_requests().await.unwrap();
    let get = &sent[0];
    assert_eq!(
        get.url.path(),
        "/api/v1/account/balance",
        "the trailing slash of the base is dropped"
    );
    assert_eq!(
        get.headers.get("authorization").unwrap().to_str().unwrap(),
        format!("Bearer {KEY}")
    );
    assert_eq!(
        get.headers.get("accept").unwrap().to_str().unwrap(),
        "application/json"
    );
    assert!(
        get.headers.get("content-type").is_none(),
        "no Content-Type without a body"
    );
    assert_eq!(
        get.headers.get("user-agent").unwrap().to_str().unwrap(),
        format!("ContentDesk/{}", workspace_version()),
        "the User-Agent names the workspace's version"
    );
    let delete = &sent[1];
    assert_eq!(
        delete
            .headers
            .get("content-type")
            .unwrap()
            .to_str()
            .unwrap(),
        "application/json"
    );
    let body: serde_json::Value = serde_json::from_slice(&delete.body).unwrap();
    assert_eq!(
        body,
        json!({"space_id": "sp", "target_stage_id": "s2"}),
        "snake_case body on DELETE"
    );
}

#[tokio::test]
async fn put_bytes_sends_exactly_the_upload_headers_and_no_authorization() {
    let server = MockServer::start().await;
    Mock::given(method("PUT"))
        .and(path("/storage/abc"))
        .respond_with(ResponseTemplate::new(200))
        .expect(1)
        .mount(&server)
        .await;
    let mut headers = BTreeMap::new();
    headers.insert("Content-Type".to_string(), "image/png".to_string());
    headers.insert("x-upload-token".to_string(), "t0k".to_string());
    let ticket = UploadTicket {
        output_id: "o1".into(),
        upload_url: format!("{}/storage/abc", server.uri()),
        upload_headers: Some(headers),
        storage_path: None,
        expires_at: None,
    };
    client_for(&server.uri())
        .media()
        .put_bytes(&ticket, vec![1u8, 2, 3])
        .await
        .unwrap();
    let sent = &server.received_requests().await.unwrap()[0];
    assert!(
        sent.headers.get("authorization").is_none(),
        "object storage gets no key"
    );
    assert_eq!(sent.headers.get("content-type").unwrap(), "image/png");
    assert_eq!(sent.headers.get("x-upload-token").unwrap(), "t0k");
    assert_eq!(sent.body, vec![1u8, 2, 3]);
    server.verify().await;
}

/// A server that closes the first `drops` connections without answering, then answers 200.
async fn flaky_server(drops: usize) -> (String, Arc<AtomicUsize>) {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    let seen = Arc::new(AtomicUsize::new(0));
    let counter = seen.clone();
    tokio::spawn(async move {
        loop {
            let Ok((mut sock, _)) = listener.accept().await else {
                return;
            };
            let n = counter.fetch_add(1, Ordering::SeqCst);
            tokio::spawn(async move {
                let mut buf = vec![0u8; 8192];
                let _ = sock.read(&mut buf).await;
                if n < drops {
                    drop(sock); // the connection breaks before any answer
                    return;
                }
                let body = balance_json().to_string();
                let resp = format!(
                    "HTTP/1.1 200 OK\r\ncontent-type: application/json\r\ncontent-length: {}\r\nconnection: close\r\n\r\n{body}",
                    body.len()
                );
                let _ = sock.write_all(resp.as_bytes()).await;
            });
        }
    });
    (format!("http://{addr}"), seen)
}

#[tokio::test]
async fn a_dropped_connection_is_a_network_error_retried_for_get() {
    let (base, seen) = flaky_server(2).await;
    let b = client_for(&base).account().balance().await.unwrap();
    assert_eq!(b.balance, 42.0);
    assert_eq!(seen.load(Ordering::SeqCst), 3);
}

#[tokio::test]
async fn a_dropped_connection_is_not_retried_for_a_post_without_output_id() {
    let (base, seen) = flaky_server(5).await;
    let e = client_for(&base).tags().create("x").await.unwrap_err();
    assert!(matches!(e, ApiError::Network { .. }), "{e:?}");
    assert!(!e.to_string().contains("wiremockwiremock"), "{e}");
    assert_eq!(seen.load(Ordering::SeqCst), 1);
}

#[tokio::test]
async fn a_timeout_is_a_network_error_of_kind_timeout() {
    let server = MockServer::start().await;
    Mock::given(method("GET"))
        .respond_with(
            ResponseTemplate::new(200)
                .set_body_json(balance_json())
                .set_delay(Duration::from_secs(2)),
        )
        .mount(&server)
        .await;
    let c = Client::builder(ApiKey::new(KEY))
        .base_url(format!("{}/api/v1", server.uri()))
        .timeout(Duration::from_millis(200))
        .retry(RetryConfig {
            max_attempts: 2,
            base: Duration::from_millis(10),
            ..RetryConfig::default()
        })
        .build()
        .unwrap();
    let e = c.account().balance().await.unwrap_err();
    assert!(
        matches!(
            e,
            ApiError::Network {
                kind: NetworkKind::Timeout,
                ..
            }
        ),
        "{e:?}"
    );
    assert_eq!(
        server.received_requests().await.unwrap().len(),
        2,
        "a GET timeout is retried"
    );
}

#[tokio::test]
async fn wait_starts_from_poll_after_seconds_and_grows_the_interval() {
    let server = MockServer::start().await;
    let processing = json!({
        "outputId": "g1", "status": "processing", "contentType": "image", "modelId": "m", "pollAfterSeconds": 0.2
    });
    Mock::given(method("GET"))
        .and(path("/api/v1/studio/generate/g1"))
        .respond_with(ResponseTemplate::new(200).set_body_json(processing))
        .up_to_n_times(3)
        .mount(&server)
        .await;
    Mock::given(method("GET"))
        .and(path("/api/v1/studio/generate/g1"))
        .respond_with(ResponseTemplate::new(200).set_body_json(json!({
            "outputId": "g1", "status": "completed", "contentType": "image", "modelId": "m",
            "outputUrls": ["https://files.test/g1-1.png"]
        })))
        .mount(&server)
        .await;
    let started = Instant::now();
    let done = client_for(&server.uri())
        .studio()
        .wait("g1", Default::default())
        .await
        .unwrap();
    assert_eq!(done.polls, 4);
    // sleeps of 0.2, 0.3 and 0.45 s: the hint, then ×1.5
    let took = started.elapsed();
    assert!(
        took >= Duration::from_millis(900) && took < Duration::from_millis(2500),
        "{took:?}"
    );
}

/// The `version` of the workspace's `[workspace.package]` (Cargo.toml at the root), read as text: the
/// one version every part reports (issue 24, point 3).
fn workspace_version() -> String {
    let toml = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/../../Cargo.toml")).unwrap();
    let section = toml.split("[workspace.package]").nth(1).expect("a [workspace.package] section");
    let line = section.lines().find(|l| l.trim_start().starts_with("version")).expect("a version");
    line.split('"').nth(1).expect("a quoted version").to_string()
}
