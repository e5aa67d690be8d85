//! Account balance, models and voices, and the auth and error rules (spec §5, §7, §8): 401 for a bad or
//! revoked key, 403 naming the scope, 429 retried by the client, and the key never shown.
mod common;
use api_types::{scopes, ContentType, GenerateRequest};
use common::*;
use contentdesk_api_client::{ApiError, ApiKey, Client, Method, RetryConfig};
use contentdesk_sandbox::{Config, RateLimit};
use std::time::{Duration, Instant};

#[tokio::test]
async fn balance_returns_the_credits_and_a_200_confirms_the_key() {
    let (sb, client) = start().await;
    let b = ok(client.account().balance().await);
    assert_eq!(b.balance, sb.balance());
    assert!(!b.tier.is_empty());
}

#[tokio::test]
async fn balance_alias_path_answers_the_same() {
    let (_sb, client) = start().await;
    let via_alias = ok(client.send_json(Method::GET, "/balance", None).await);
    let b = ok(client.account().balance().await);
    assert_eq!(via_alias["balance"].as_f64(), Some(b.balance));
}

#[tokio::test]
async fn reads_of_account_models_and_voices_need_no_scope() {
    let (sb, _) = start().await;
    let bare = client_with(&sb, &[]);
    ok(bare.account().balance().await);
    let models = ok(bare.models().list(None).await);
    assert!(!models.is_empty(), "the registry lists models");
    ok(bare.voices().list().await);
}

#[tokio::test]
async fn models_filter_by_content_type_and_get_by_id() {
    let (_sb, client) = start().await;
    let images = ok(client.models().list(Some(ContentType::Image)).await);
    assert!(!images.is_empty());
    assert!(images.iter().all(|m| m.content_type == ContentType::Image));
    let one = ok(client.models().get(&images[0].model_id).await);
    assert_eq!(one.model_id, images[0].model_id);
    let missing = client.models().get("no-such-model").await.unwrap_err();
    assert!(matches!(missing, ApiError::NotFound { .. }), "{missing:?}");
}

#[tokio::test]
async fn voices_list_and_get() {
    let (_sb, client) = start().await;
    let voices = ok(client.voices().list().await);
    assert!(!voices.is_empty(), "voices are listed");
    let v = ok(client.voices().get(&voices[0].voice_id).await);
    assert_eq!(v.voice_id, voices[0].voice_id);
}

#[tokio::test]
async fn unknown_key_is_401() {
    let (sb, _) = start().await;
    let stranger = client(&sb, "ch_live_notarealkeynotarealkeynotareal1");
    let e = stranger.account().balance().await.unwrap_err();
    assert!(matches!(e, ApiError::Unauthorized { .. }), "{e:?}");
    assert_eq!(e.status(), Some(401));
    assert!(!e.is_retryable());
}

#[tokio::test]
async fn malformed_key_is_401() {
    let (sb, _) = start().await;
    let e = client(&sb, "not-a-key")
        .account()
        .balance()
        .await
        .unwrap_err();
    assert!(matches!(e, ApiError::Unauthorized { .. }), "{e:?}");
}

#[tokio::test]
async fn revoking_a_key_is_immediate() {
    let (sb, _) = start().await;
    let key = sb.key_with(scopes::ALL);
    let c = client(&sb, &key);
    ok(c.account().balance().await);
    sb.revoke(&key);
    let e = c.account().balance().await.unwrap_err();
    assert!(matches!(e, ApiError::Unauthorized { .. }), "{e:?}");
}

#[tokio::test]
async fn missing_scope_is_403_naming_generate_scope() {
    let (sb, _) = start().await;
    let c = client_with(&sb, &[scopes::PLANNER_WRITE]);
    let req = GenerateRequest {
        model_id: "any".into(),
        prompt: Some("x".into()),
        ..Default::default()
    };
    let e = c.studio().quote(&req).await.unwrap_err();
    match &e {
        ApiError::MissingScope { scope, message, .. } => {
            assert_eq!(scope.as_deref(), Some("generate:*"));
            assert!(
                message.contains("generate:*"),
                "the message names the scope: {message}"
            );
        }
        other => panic!("expected MissingScope, got {other:?}"),
    }
    assert_eq!(e.status(), Some(403));
}

#[tokio::test]
async fn missing_scope_is_403_naming_brandkit_read() {
    let (sb, _) = start().await;
    let c = client_with(&sb, &[scopes::BRANDKIT_WRITE]);
    let e = c.brand_kits().list().await.unwrap_err();
    assert!(
        matches!(e, ApiError::MissingScope { scope: Some(ref s), .. } if s == "brandkit:read"),
        "{e:?}"
    );
}

#[tokio::test]
async fn errors_never_contain_the_key() {
    let (sb, _) = start().await;
    let secret = "ch_live_SECRETSECRETSECRETSECRETSECRET12";
    // a 401 from the server
    let c = client(&sb, secret);
    let e = c.account().balance().await.unwrap_err();
    for shown in [e.to_string(), format!("{e:?}"), format!("{c:?}")] {
        assert!(!shown.contains("SECRETSECRET"), "leaked: {shown}");
    }
    // a network error (nothing listens on port 9)
    let c = Client::builder(ApiKey::new(secret))
        .base_url("http://127.0.0.1:9/api/v1")
        .retry(RetryConfig::none())
        .build()
        .unwrap();
    let e = c.account().balance().await.unwrap_err();
    assert!(matches!(e, ApiError::Network { .. }), "{e:?}");
    for shown in [e.to_string(), format!("{e:?}")] {
        assert!(!shown.contains("SECRETSECRET"), "leaked: {shown}");
    }
}

#[tokio::test]
async fn unknown_endpoint_is_404() {
    let (_sb, client) = start().await;
    let e = client
        .send_json(Method::GET, "/no-such-thing", None)
        .await
        .unwrap_err();
    assert!(matches!(e, ApiError::NotFound { .. }), "{e:?}");
}

fn limited(requests: u32) -> Config {
    Config {
        rate_limit: Some(RateLimit {
            requests,
            window: Duration::from_secs(1),
        }),
        ..Config::for_tests()
    }
}

#[tokio::test]
async fn rate_limit_429_is_retried_then_succeeds() {
    let sb = TestSandbox::start_with(limited(2)).await;
    let c = client(&sb, &sb.key);
    let started = Instant::now();
    for i in 0..6 {
        let b = c.account().balance().await;
        assert!(b.is_ok(), "call {i}: {b:?}");
    }
    // six calls at two a second cannot all land in the first window
    assert!(
        started.elapsed() >= Duration::from_millis(900),
        "{:?}",
        started.elapsed()
    );
}

#[tokio::test]
async fn rate_limit_429_without_retries_surfaces_retry_after() {
    let sb = TestSandbox::start_with(limited(2)).await;
    let c = Client::builder(ApiKey::new(sb.key.clone()))
        .base_url(sb.base_url())
        .retry(RetryConfig::none())
        .build()
        .unwrap();
    let mut limited_err = None;
    for _ in 0..4 {
        if let Err(e) = c.account().balance().await {
            limited_err = Some(e);
            break;
        }
    }
    let e = limited_err.expect("the third call within a second is refused");
    match &e {
        ApiError::RateLimited {
            retry_after: Some(d),
            ..
        } => assert!(*d <= Duration::from_secs(1), "{d:?}"),
        other => panic!("expected RateLimited with retryAfter, got {other:?}"),
    }
    assert!(e.is_retryable());
}

#[tokio::test]
async fn the_rate_limit_is_per_key() {
    let sb = TestSandbox::start_with(limited(2)).await;
    let none = |key: &str| {
        Client::builder(ApiKey::new(key))
            .base_url(sb.base_url())
            .retry(RetryConfig::none())
            .build()
            .unwrap()
    };
    let a = none(&sb.key);
    let b = none(&sb.key_with(scopes::ALL));
    ok(a.account().balance().await);
    ok(a.account().balance().await);
    let e = a.account().balance().await.unwrap_err();
    assert!(matches!(e, ApiError::RateLimited { .. }), "a's third call within the window is refused: {e:?}");
    // b's window is its own: a being limited takes nothing from it, and it is limited at its own third.
    ok(b.account().balance().await);
    ok(b.account().balance().await);
    let e = b.account().balance().await.unwrap_err();
    assert!(matches!(e, ApiError::RateLimited { .. }), "b's third call is refused too: {e:?}");
}

/// Clones of a client share one connection pool: calls made one after another through eight clones reach
/// the sandbox over one kept-alive TCP connection. A counting relay stands between them (a real TCP hop:
/// the sandbox itself does not report its connections); clones that each built their own pool would
/// open eight.
#[tokio::test]
async fn one_client_is_shared_by_clones() {
    use std::sync::atomic::{AtomicUsize, Ordering};
    use std::sync::Arc;
    let sb = TestSandbox::start().await;
    let base = sb.base_url();
    let rest = base.strip_prefix("http://").expect("a loopback http sandbox");
    let (upstream, path) = rest.split_at(rest.find('/').unwrap_or(rest.len()));
    let upstream = upstream.to_string();
    let relay = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let relay_base = format!("http://{}{path}", relay.local_addr().unwrap());
    let accepted = Arc::new(AtomicUsize::new(0));
    let counter = accepted.clone();
    tokio::spawn(async move {
        while let Ok((mut inbound, _)) = relay.accept().await {
            counter.fetch_add(1, Ordering::SeqCst);
            let upstream = upstream.clone();
            tokio::spawn(async move {
                let mut outbound = tokio::net::TcpStream::connect(upstream).await.unwrap();
                let _ = tokio::io::copy_bidirectional(&mut inbound, &mut outbound).await;
            });
        }
    });
    let client = Client::builder(ApiKey::new(&sb.key)).base_url(relay_base).build().expect("client");
    for _ in 0..8 {
        let c = client.clone();
        ok(c.account().balance().await);
    }
    assert_eq!(accepted.load(Ordering::SeqCst), 1, "eight calls in a row through eight clones, one connection");
}
