//! Spaces, stages, tags and connected accounts over real HTTP, and the demo board the seed makes.
#[path = "../common/mod.rs"]
mod common;
use api_types::scopes::*;
use common::{msg, Http, TestSandbox};
use contentdesk_sandbox::seed::{self, DemoOptions};
use contentdesk_sandbox::{AppState, Config};
use serde_json::{json, Value};

async fn default_space(http: &Http, key: &str) -> String {
    let (s, v) = http.get(key, "/stages").await;
    assert_eq!(s, 200, "{v}");
    v["space"]["id"].as_str().unwrap().to_string()
}

async fn new_space(http: &Http, key: &str, name: &str) -> String {
    let (s, v) = http.post(key, "/spaces", json!({"name": name})).await;
    assert_eq!(s, 200, "{v}");
    v["space"]["id"].as_str().unwrap().to_string()
}

async fn stages(http: &Http, key: &str, space: &str) -> Vec<Value> {
    let (s, v) = http.get(key, &format!("/stages?space_id={space}")).await;
    assert_eq!(s, 200, "{v}");
    v["stages"].as_array().unwrap().clone()
}

fn names(stages: &[Value]) -> Vec<String> {
    stages
        .iter()
        .map(|s| s["name"].as_str().unwrap().to_string())
        .collect()
}

mod spaces;
mod stages_tags_accounts;
#[allow(unused_imports)]
use spaces::*;
#[allow(unused_imports)]
use stages_tags_accounts::*;
