//! Brand kits over real HTTP: the three read modes, the section write rules of spec §4 (each rule has a
//! test named after it), optimistic concurrency with 409s, archive/restore, scopes and ownership.
#[path = "../common/mod.rs"]
mod common;
use api_types::scopes;
use common::{msg, Http, TestSandbox};
use contentdesk_sandbox::routes::brand_kits;
use serde_json::{json, Value};

async fn default_kit(http: &Http, key: &str) -> String {
    let (s, v) = http.get(key, "/brand-kits").await;
    assert_eq!(s, 200, "{v}");
    let first = &v["brandKits"][0];
    assert_eq!(first["isDefault"], true, "{v}");
    first["id"].as_str().unwrap().to_string()
}

/// One section, read through the filtered mode (with history).
async fn section(http: &Http, key: &str, kit: &str, section_key: &str) -> Value {
    let (s, v) = http
        .get(
            key,
            &format!("/brand-kits/{kit}?keys={section_key}&history=true"),
        )
        .await;
    assert_eq!(s, 200, "{v}");
    assert_eq!(v["sections"].as_array().unwrap().len(), 1, "{v}");
    v["sections"][0].clone()
}

async fn patch(http: &Http, key: &str, kit: &str, body: Value) -> (u16, Value) {
    http.patch(key, &format!("/brand-kits/{kit}"), body).await
}

fn find<'a>(kit: &'a Value, section_key: &str) -> &'a Value {
    kit["sections"]
        .as_array()
        .unwrap()
        .iter()
        .find(|s| s["key"] == section_key)
        .expect("section present")
}

mod reads;
mod edits;
mod rules;
mod fixture_rules;
mod placement;
#[allow(unused_imports)]
use reads::*;
#[allow(unused_imports)]
use edits::*;
#[allow(unused_imports)]
use rules::*;
