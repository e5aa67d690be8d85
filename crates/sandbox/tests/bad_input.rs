//! Bad input never yields a 500: malformed JSON, wrong types, unknown fields and oversized bodies get a
//! 400 (or 413) that names the field; and an acknowledged write is on disk.
mod common;
use common::{msg, Http, TestSandbox};
use contentdesk_sandbox::{AppState, Config};
use serde_json::json;

async fn first_card(http: &Http, key: &str) -> String {
    let (s, v) = http.get(key, "/cards?limit=1").await;
    assert_eq!(s, 200, "{v}");
    v["cards"][0]["id"].as_str().expect("a demo card").to_string()
}

#[tokio::test]
async fn malformed_json_is_a_400_naming_the_body() {
    let sb = TestSandbox::start().await;
    let http = Http::new(&sb);
    let card = first_card(&http, &sb.key).await;
    let (s, v) = http.send_raw("PATCH", &sb.key, &format!("/cards/{card}"), "{\"title\": ").await;
    assert_eq!(s, 400, "{v}");
    assert_eq!(v["field"], "body");
    assert!(msg(&v).contains("Malformed JSON"), "{v}");
}

#[tokio::test]
async fn a_wrong_type_is_a_400_naming_the_field_path() {
    let sb = TestSandbox::start().await;
    let http = Http::new(&sb);
    let card = first_card(&http, &sb.key).await;
    let (s, v) = http.patch(&sb.key, &format!("/cards/{card}"), json!({"title": 5})).await;
    assert_eq!(s, 400, "{v}");
    assert_eq!(v["field"], "title");
    let (s, v) = http.patch(&sb.key, &format!("/cards/{card}"), json!({"assets": [{"outputId": 3}]})).await;
    assert_eq!(s, 400, "{v}");
    assert_eq!(v["field"], "assets[0].outputId", "{v}");
}

#[tokio::test]
async fn an_unknown_field_is_a_400_naming_it() {
    let sb = TestSandbox::start().await;
    let http = Http::new(&sb);
    let card = first_card(&http, &sb.key).await;
    let (s, v) = http.patch(&sb.key, &format!("/cards/{card}"), json!({"title": "ok", "colour": "red"})).await;
    assert_eq!(s, 400, "{v}");
    assert_eq!(v["field"], "colour");
    let (s, v) = http.get(&sb.key, "/cards?colour=red").await;
    assert_eq!(s, 400, "{v}");
    assert_eq!(v["field"], "colour");
}

#[tokio::test]
async fn a_wrong_query_type_is_a_400_naming_it() {
    let sb = TestSandbox::start().await;
    let http = Http::new(&sb);
    let (s, v) = http.get(&sb.key, "/cards?limit=many").await;
    assert_eq!(s, 400, "{v}");
    assert_eq!(v["field"], "limit");
}

#[tokio::test]
async fn an_oversized_body_is_a_413() {
    let sb = TestSandbox::start().await;
    let http = Http::new(&sb);
    let card = first_card(&http, &sb.key).await;
    let big = "x".repeat(Config::default().max_json_bytes + 10);
    let (s, v) = http.patch(&sb.key, &format!("/cards/{card}"), json!({ "title": big })).await;
    assert_eq!(s, 413, "{v}");
    assert!(msg(&v).contains("too large"));
}

#[tokio::test]
async fn an_acknowledged_write_is_on_disk() {
    let sb = TestSandbox::start().await;
    let http = Http::new(&sb);
    let card = first_card(&http, &sb.key).await;
    let (s, v) = http.patch(&sb.key, &format!("/cards/{card}"), json!({"title": "Durable title"})).await;
    assert_eq!(s, 200, "{v}");
    // A second sandbox over the same file, on its own connection, sees the write.
    let second = AppState::open(sb.db_path(), Config::for_tests()).expect("reopen");
    let running = contentdesk_sandbox::spawn(second, "127.0.0.1:0").await.unwrap();
    let other = reqwest::Client::new()
        .get(format!("{}/cards/{card}", running.base_url()))
        .bearer_auth(&sb.key)
        .send()
        .await
        .unwrap();
    assert_eq!(other.status().as_u16(), 200);
    let v: serde_json::Value = other.json().await.unwrap();
    assert_eq!(v["post"]["title"], "Durable title");
}
