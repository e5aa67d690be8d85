//! The frame of the sandbox: keys, scopes, errors, limits.
mod common;
use common::{Http, TestSandbox};
use contentdesk_sandbox::{Config, RateLimit};
use serde_json::Value;
use std::time::Duration;

async fn get(sb: &TestSandbox, key: &str, path: &str) -> (u16, Value) {
    Http::new(sb).get(key, path).await
}

#[tokio::test]
async fn balance_with_a_valid_key_and_its_alias() {
    let sb = TestSandbox::start().await;
    let (s, v) = get(&sb, &sb.key, "/account/balance").await;
    assert_eq!(s, 200, "{v}");
    assert_eq!(v["balance"], 500.0);
    let (s, _) = get(&sb, &sb.key, "/balance").await;
    assert_eq!(s, 200);
}

#[tokio::test]
async fn unknown_and_revoked_keys_get_401_with_the_error_body() {
    let sb = TestSandbox::start().await;
    let (s, v) = get(&sb, "ch_live_nope", "/account/balance").await;
    assert_eq!(s, 401);
    assert!(v["error"].as_str().unwrap().contains("Invalid"));
    let key = sb.key_with(&[]);
    assert_eq!(get(&sb, &key, "/account/balance").await.0, 200);
    sb.revoke(&key);
    assert_eq!(get(&sb, &key, "/account/balance").await.0, 401);
}

#[tokio::test]
async fn keys_are_stored_hashed() {
    let sb = TestSandbox::start().await;
    let conn = sb.state().db().lock();
    let hashes: Vec<String> = conn
        .prepare("SELECT secret_hash FROM api_keys")
        .unwrap()
        .query_map([], |r| r.get(0))
        .unwrap()
        .map(Result::unwrap)
        .collect();
    assert!(!hashes.is_empty());
    for h in hashes {
        assert!(!h.contains("ch_live_"));
        assert_eq!(h.len(), 64);
    }
}

#[tokio::test]
async fn rate_limit_answers_429_with_retry_after() {
    let config = Config {
        rate_limit: Some(RateLimit { requests: 3, window: Duration::from_secs(30) }),
        ..Config::for_tests()
    };
    let sb = TestSandbox::start_with(config).await;
    for _ in 0..3 {
        assert_eq!(get(&sb, &sb.key, "/account/balance").await.0, 200);
    }
    let (s, v) = get(&sb, &sb.key, "/account/balance").await;
    assert_eq!(s, 429);
    let retry = v["retryAfter"].as_f64().unwrap();
    assert!(retry > 0.0 && retry <= 30.0, "{retry}");
    // another key has its own window
    let other = sb.key_with(&[]);
    assert_eq!(get(&sb, &other, "/account/balance").await.0, 200);
}

#[tokio::test]
async fn unknown_endpoint_is_a_json_404() {
    let sb = TestSandbox::start().await;
    let (s, v) = get(&sb, &sb.key, "/no-such-thing").await;
    assert_eq!(s, 404);
    assert!(v["error"].as_str().unwrap().contains("No such endpoint"));
}
