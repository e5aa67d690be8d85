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
async fn a_key_is_ch_live_and_32_alphanumerics_and_revoking_it_is_a_soft_delete() {
    let sb = TestSandbox::start().await;
    let key = sb.key_with(&[]);
    let secret = key.strip_prefix("ch_live_").expect("the ch_live_ prefix");
    assert_eq!(secret.len(), 32, "{key}");
    assert!(secret.chars().all(|c| c.is_ascii_alphanumeric()), "{key}");
    assert_eq!(get(&sb, &key, "/account/balance").await.0, 200);
    let id = sb.key_id(&key);
    sb.revoke(&key);
    assert_eq!(get(&sb, &key, "/account/balance").await.0, 401);
    // Soft delete: the key's row stays (for attribution), marked revoked, still holding only the hash.
    let conn = sb.state().db().lock();
    let (hash, revoked_at): (String, Option<String>) = conn
        .query_row("SELECT secret_hash, revoked_at FROM api_keys WHERE id = ?1", [&id], |r| {
            Ok((r.get(0)?, r.get(1)?))
        })
        .expect("the revoked key's row is kept");
    assert!(revoked_at.is_some());
    assert!(!hash.contains(secret));
}

#[tokio::test]
async fn a_429_gives_retry_after_in_the_body_and_whole_seconds_in_the_header() {
    let config = Config {
        rate_limit: Some(RateLimit { requests: 1, window: Duration::from_secs(30) }),
        ..Config::for_tests()
    };
    let sb = TestSandbox::start_with(config).await;
    assert_eq!(get(&sb, &sb.key, "/account/balance").await.0, 200);
    let resp = reqwest::Client::new()
        .get(format!("{}/account/balance", sb.base_url()))
        .bearer_auth(&sb.key)
        .send()
        .await
        .unwrap();
    assert_eq!(resp.status().as_u16(), 429);
    let header: u64 = resp
        .headers()
        .get("retry-after")
        .expect("a Retry-After header")
        .to_str()
        .unwrap()
        .parse()
        .expect("whole seconds");
    let body: Value = resp.json().await.unwrap();
    let retry = body["retryAfter"].as_f64().expect("retryAfter in the body");
    assert!(body["error"].is_string(), "{body}");
    assert!(retry > 0.0 && retry <= 30.0, "{retry}");
    assert_eq!(header, (retry.ceil() as u64).max(1), "the header is the body's figure rounded up");
}

#[test]
fn the_defaults_are_a_50_s_smart_wait_and_600_requests_a_minute_per_key() {
    let config = Config::default();
    assert_eq!(config.smart_wait, Duration::from_secs(50), "spec §8: about 50 seconds");
    let limit = config.rate_limit.expect("rate-limited by default");
    assert_eq!((limit.requests, limit.window), (600, Duration::from_secs(60)));
}

#[tokio::test]
async fn unknown_endpoint_is_a_json_404() {
    let sb = TestSandbox::start().await;
    let (s, v) = get(&sb, &sb.key, "/no-such-thing").await;
    assert_eq!(s, 404);
    assert!(v["error"].as_str().unwrap().contains("No such endpoint"));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn reads_go_on_while_a_write_holds_the_database() {
    // Issue 12: the sandbox had one SQLite connection behind a mutex, so every request (each one reads
    // its key first) queued behind a write. Now reads use a pool of read-only connections (WAL): with
    // the writer held for 3 s in the middle of a write transaction, key checks, a card, lists and a file
    // still answer at once, from the last committed state; the write is seen once it commits.
    let sb = TestSandbox::start().await;
    let http = Http::new(&sb);
    let (s, cards) = http.get(&sb.key, "/cards").await;
    assert_eq!(s, 200, "{cards}");
    let card = cards["cards"][0]["id"].as_str().expect("a demo card").to_string();
    let (_, before) = http.get(&sb.key, "/account/balance").await;
    let before = before["balance"].as_f64().unwrap();
    let (s, lib) = http.get(&sb.key, "/media").await;
    assert_eq!(s, 200);
    let file = lib["media"][0]["url"].as_str().expect("a demo render").to_string();

    let state = sb.state().clone();
    let (held, wait_held) = std::sync::mpsc::channel();
    let writer = std::thread::spawn(move || {
        let conn = state.db().lock();
        conn.execute_batch("BEGIN IMMEDIATE; UPDATE accounts SET balance = balance + 1000;").unwrap();
        held.send(()).unwrap();
        std::thread::sleep(Duration::from_secs(3));
        conn.execute_batch("COMMIT").unwrap();
    });
    wait_held.recv().unwrap();
    let started = std::time::Instant::now();
    let paths = ["/account/balance".to_string(), "/spaces".into(), "/tags".into(), format!("/cards/{card}"), "/connected-accounts".into(), "/projects".into()];
    for path in &paths {
        let (s, v) = tokio::time::timeout(Duration::from_secs(1), http.get(&sb.key, path))
            .await
            .unwrap_or_else(|_| panic!("GET {path} waited for the write"));
        assert_eq!(s, 200, "{path}: {v}");
        if path == "/account/balance" {
            assert_eq!(v["balance"].as_f64().unwrap(), before, "the committed balance, not the write in progress");
        }
    }
    let f = tokio::time::timeout(Duration::from_secs(1), reqwest::get(&file)).await.expect("a file waited for the write");
    assert_eq!(f.unwrap().status().as_u16(), 200);
    assert!(started.elapsed() < Duration::from_secs(2), "{:?}", started.elapsed());
    writer.join().unwrap();
    let (_, after) = http.get(&sb.key, "/account/balance").await;
    assert_eq!(after["balance"].as_f64().unwrap(), before + 1000.0, "the write is read once committed");
}
