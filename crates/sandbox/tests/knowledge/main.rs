//! The knowledge base over real HTTP: add (text, url, youtube, file by base64 or hosted URL), list,
//! read, search, delete; the plan cap (402 `limitReached`), base64 rules, scopes and ownership.
#[path = "../common/mod.rs"]
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


mod adding;
mod search_cap_and_scopes;
#[allow(unused_imports)]
use adding::*;
#[allow(unused_imports)]
use search_cap_and_scopes::*;
