//! Generation over real HTTP: quotes, idempotency, smart-wait and polling, 402, output tokens as
//! references, scopes, revocation mid-wait, placeholder files, restart survival and the failure marker;
//! plus the model registry and voices.
#[path = "../common/mod.rs"]
mod common;
use api_types::scopes;
use common::{msg, Http, TestSandbox};
use contentdesk_sandbox::{AppState, Config, RenderTimes};
use serde_json::{json, Value};
use std::time::Duration;

fn image(prompt: &str) -> Value {
    json!({"modelId": "nano-banana-2", "prompt": prompt})
}

/// Test timings with every render taking `render` and a smart-wait of `wait`.
fn slow(render_ms: u64, wait_ms: u64) -> Config {
    Config {
        render: RenderTimes::all(Duration::from_millis(render_ms)),
        smart_wait: Duration::from_millis(wait_ms),
        ..Config::for_tests()
    }
}

fn generation_count(sb: &TestSandbox) -> i64 {
    let conn = sb.state().db().lock();
    conn.query_row("SELECT COUNT(*) FROM generations", [], |r| r.get(0))
        .unwrap()
}

/// A finished image of `key`'s account: its outputId.
async fn finished_image(http: &Http, key: &str) -> String {
    let (s, v) = http
        .post(key, "/studio/generate", image("a red bicycle"))
        .await;
    assert_eq!(s, 200, "{v}");
    assert_eq!(v["status"], "completed", "{v}");
    v["outputId"].as_str().unwrap().to_string()
}

/// Polls until the generation is terminal (or 5 s pass).
async fn poll_done(http: &Http, key: &str, id: &str) -> Value {
    for _ in 0..100 {
        let (s, v) = http.get(key, &format!("/studio/generate/{id}")).await;
        assert_eq!(s, 200, "{v}");
        if v["status"] == "completed" || v["status"] == "failed" {
            return v;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    panic!("generation {id} did not finish");
}

async fn fetch(url: &str) -> (u16, reqwest::header::HeaderMap, Vec<u8>) {
    let resp = reqwest::get(url).await.expect("fetch");
    let status = resp.status().as_u16();
    let headers = resp.headers().clone();
    (status, headers, resp.bytes().await.unwrap().to_vec())
}


mod charging_and_waiting;
mod references_and_input;
mod lifecycle;
mod registry_and_fields;
#[allow(unused_imports)]
use charging_and_waiting::*;
#[allow(unused_imports)]
use references_and_input::*;
#[allow(unused_imports)]
use lifecycle::*;
#[allow(unused_imports)]
use registry_and_fields::*;
