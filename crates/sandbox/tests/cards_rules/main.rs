//! Cards over real HTTP: every `PATCH /cards/{id}` rule of the spec (section 4, rules 1–8) has a test
//! named after it, plus notes concurrency, moving, reads, lists, publishing and scopes.
#[path = "../common/mod.rs"]
mod common;
use api_types::scopes::*;
use common::{msg, Http, TestSandbox};
use serde_json::{json, Value};

/// A finished demo output of the demo account (the studio seed renders one image and one video).
fn output(sb: &TestSandbox, content_type: &str) -> String {
    let conn = sb.state().db().lock();
    conn.query_row(
        "SELECT id FROM generations WHERE account_id = ?1 AND status = 'completed' AND content_type = ?2 LIMIT 1",
        rusqlite::params![sb.account_id, content_type],
        |r| r.get(0),
    )
    .expect("a finished demo output")
}

/// Tracked posts of the demo account (the inspiration seed).
fn contents(sb: &TestSandbox) -> Vec<String> {
    let conn = sb.state().db().lock();
    let mut stmt = conn
        .prepare("SELECT id FROM tracked_content WHERE account_id = ?1 ORDER BY id")
        .unwrap();
    let ids: Vec<String> = stmt
        .query_map([&sb.account_id], |r| r.get(0))
        .unwrap()
        .map(Result::unwrap)
        .collect();
    assert!(ids.len() >= 2, "the inspiration seed has posts");
    ids
}

fn connected(sb: &TestSandbox, platform: &str) -> String {
    let conn = sb.state().db().lock();
    conn.query_row(
        "SELECT id FROM connected_accounts WHERE account_id = ?1 AND platform = ?2",
        rusqlite::params![sb.account_id, platform],
        |r| r.get(0),
    )
    .expect("a demo connected account")
}

/// A new, empty card of the demo account.
async fn new_card(http: &Http, key: &str) -> String {
    let (s, v) = http
        .post(
            key,
            "/cards",
            json!({"title": "Rule test", "platform": "instagram"}),
        )
        .await;
    assert_eq!(s, 200, "{v}");
    v["post"]["id"].as_str().unwrap().to_string()
}

async fn patch(http: &Http, key: &str, card: &str, body: Value) -> (u16, Value) {
    http.patch(key, &format!("/cards/{card}"), body).await
}

async fn read(http: &Http, key: &str, card: &str) -> Value {
    let (s, v) = http.get(key, &format!("/cards/{card}")).await;
    assert_eq!(s, 200, "{v}");
    v["post"].clone()
}

/// A time on the wire, compared as an instant (the wire form carries milliseconds).
fn when(v: &Value) -> Option<time::OffsetDateTime> {
    contentdesk_sandbox::time::parse(v.as_str()?)
}

fn ids(list: &Value) -> Vec<String> {
    list.as_array()
        .unwrap()
        .iter()
        .map(|a| a["id"].as_str().unwrap().to_string())
        .collect()
}

fn links(n: usize) -> Vec<Value> {
    (0..n)
        .map(|i| json!({"assetUrl": format!("https://example.com/a{i}.jpg")}))
        .collect()
}

mod declarative;
mod references;
mod scopes_and_notes;
mod reads_moves_lists;
#[allow(unused_imports)]
use declarative::*;
#[allow(unused_imports)]
use references::*;
#[allow(unused_imports)]
use scopes_and_notes::*;
#[allow(unused_imports)]
use reads_moves_lists::*;
