//! Shared setup for the integration tests: a real sandbox and clients of given keys.
#![allow(dead_code)]
use contentdesk_api_client::{ApiKey, Client, RetryConfig};
pub use contentdesk_sandbox::testing::TestSandbox;
use std::time::Duration;

/// A sandbox with the demo seed and a client whose key holds every scope.
pub async fn start() -> (TestSandbox, Client) {
    let sb = TestSandbox::start().await;
    let client = client(&sb, &sb.key);
    (sb, client)
}

pub fn client(sb: &TestSandbox, key: &str) -> Client {
    Client::builder(ApiKey::new(key))
        .base_url(sb.base_url())
        .timeout(Duration::from_secs(20))
        .retry(RetryConfig {
            base: Duration::from_millis(20),
            ..RetryConfig::default()
        })
        .build()
        .expect("client")
}

/// A client of the demo account holding exactly `scopes`.
pub fn client_with(sb: &TestSandbox, scopes: &[&str]) -> Client {
    let key = sb.key_with(scopes);
    client(sb, &key)
}

/// A second account's client (with every scope and `credits`).
pub fn other_client(sb: &TestSandbox, credits: f64) -> Client {
    let (_, key) = sb.other_account(credits);
    client(sb, &key)
}

/// Panics with the error when a call the contract says must work does not.
#[track_caller]
pub fn ok<T>(r: contentdesk_api_client::Result<T>) -> T {
    match r {
        Ok(v) => v,
        Err(e) => panic!("expected success, got {e:?}"),
    }
}
