//! A key is revoked, narrowed or widened at once (spec: keys are revocable at once): each key is used a
//! few times first, then changed by the serving process's own writer, by a second process
//! (`contentdesk-sandbox keys revoke`, as a user would), and by another connection on the same file (as
//! cdesk's terminal key does), and the very next request, a read or a write, must see the change.
mod common;
use common::{Http, TestSandbox};
use std::process::Command;

const BIN: &str = env!("CARGO_BIN_EXE_contentdesk-sandbox");

async fn status(sb: &TestSandbox, key: &str, path: &str) -> u16 {
    Http::new(sb).get(key, path).await.0
}

/// Used a few times while it works.
async fn warm(sb: &TestSandbox, key: &str, path: &str) {
    for _ in 0..3 {
        assert_eq!(status(sb, key, path).await, 200);
    }
}

#[tokio::test]
async fn a_key_revoked_by_the_serving_process_is_refused_at_once() {
    let sb = TestSandbox::start().await;
    let key = sb.key_with(&[]);
    warm(&sb, &key, "/account/balance").await;
    sb.revoke(&key);
    assert_eq!(status(&sb, &key, "/account/balance").await, 401);
    // The other keys still work (and are read again after the change).
    warm(&sb, &sb.key, "/account/balance").await;
}

#[tokio::test]
async fn a_key_revoked_by_another_process_on_the_same_file_is_refused_at_once() {
    let sb = TestSandbox::start().await;
    let key = sb.key_with(&[]);
    let id = sb.key_id(&key);
    warm(&sb, &key, "/account/balance").await;
    let out = Command::new(BIN)
        .args(["keys", "revoke", "--db", sb.db_path().to_str().unwrap(), &id])
        .output()
        .expect("run contentdesk-sandbox keys revoke");
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    assert_eq!(status(&sb, &key, "/account/balance").await, 401);
    warm(&sb, &sb.key, "/account/balance").await;
}

#[tokio::test]
async fn a_key_revoked_or_narrowed_through_another_connection_is_refused_at_once() {
    let sb = TestSandbox::start().await;
    let narrowed = sb.key_with(&[api_types::scopes::EDITOR_READ]);
    let revoked = sb.key_with(&[]);
    warm(&sb, &narrowed, "/projects").await;
    warm(&sb, &revoked, "/account/balance").await;
    // A connection of its own, as cdesk opens the app's sandbox file to revoke its terminal key.
    let other = rusqlite::Connection::open(sb.db_path()).unwrap();
    other.busy_timeout(std::time::Duration::from_secs(5)).unwrap();
    let hash = contentdesk_sandbox::auth::hash_secret(&narrowed);
    other.execute("UPDATE api_keys SET scopes = '' WHERE secret_hash = ?1", [&hash]).unwrap();
    assert_eq!(status(&sb, &narrowed, "/projects").await, 403, "the scope taken away elsewhere still let it in");
    let id = sb.key_id(&revoked);
    assert!(contentdesk_sandbox::auth::revoke_key(&other, &id).unwrap());
    assert_eq!(status(&sb, &revoked, "/account/balance").await, 401);
}

/// The same rule on a write, and the 401 comes before the body's 400.
#[tokio::test]
async fn a_key_revoked_elsewhere_is_refused_at_once_on_a_write() {
    let sb = TestSandbox::start().await;
    let http = Http::new(&sb);
    let key = sb.key_with(&[api_types::scopes::PLANNER_WRITE]);
    let (s, v) = http.post(&sb.key, "/cards", serde_json::json!({"title": "Kept", "platform": "instagram"})).await;
    assert_eq!(s, 200, "{v}");
    let path = format!("/cards/{}", v["post"]["id"].as_str().unwrap());
    for i in 0..3 {
        let (s, v) = http.patch(&key, &path, serde_json::json!({"title": format!("Edit {i}")})).await;
        assert_eq!(s, 200, "{v}");
    }
    // Revoked by another process, then by another connection after a second key is narrowed there.
    let out = Command::new(BIN)
        .args(["keys", "revoke", "--db", sb.db_path().to_str().unwrap(), &sb.key_id(&key)])
        .output()
        .expect("run contentdesk-sandbox keys revoke");
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let (s, v) = http.patch(&key, &path, serde_json::json!({"title": "After the revocation"})).await;
    assert_eq!(s, 401, "a key revoked by another process still wrote: {v}");
    // A body that does not parse is still answered 401 first.
    let (s, v) = http.send_raw("PATCH", &key, &path, "{not json").await;
    assert_eq!(s, 401, "a revoked key was told its body does not parse: {v}");
    let narrowed = sb.key_with(&[api_types::scopes::PLANNER_WRITE]);
    for _ in 0..3 {
        assert_eq!(http.patch(&narrowed, &path, serde_json::json!({"title": "Edit"})).await.0, 200);
    }
    let other = rusqlite::Connection::open(sb.db_path()).unwrap();
    other.busy_timeout(std::time::Duration::from_secs(5)).unwrap();
    let hash = contentdesk_sandbox::auth::hash_secret(&narrowed);
    other.execute("UPDATE api_keys SET scopes = '' WHERE secret_hash = ?1", [&hash]).unwrap();
    for _ in 0..2 {
        let (s, v) = http.patch(&narrowed, &path, serde_json::json!({"title": "After the narrowing"})).await;
        assert_eq!(s, 403, "a key narrowed through another connection still wrote: {v}");
    }
    let (s, v) = http.get(&sb.key, &path).await;
    assert_eq!(s, 200, "{v}");
    assert_eq!(v["post"]["title"], "Edit", "{v}");
}

/// A key widened through another connection writes at once (not refused on the scopes it had before).
#[tokio::test]
async fn a_key_widened_elsewhere_may_write_at_once() {
    let sb = TestSandbox::start().await;
    let http = Http::new(&sb);
    let (s, v) = http.post(&sb.key, "/cards", serde_json::json!({"title": "Kept", "platform": "instagram"})).await;
    assert_eq!(s, 200, "{v}");
    let path = format!("/cards/{}", v["post"]["id"].as_str().unwrap());
    let key = sb.key_with(&[api_types::scopes::EDITOR_READ]);
    warm(&sb, &key, "/cards").await;
    assert_eq!(http.patch(&key, &path, serde_json::json!({"title": "Not yet"})).await.0, 403);
    let other = rusqlite::Connection::open(sb.db_path()).unwrap();
    other.busy_timeout(std::time::Duration::from_secs(5)).unwrap();
    let scopes = format!("{} {}", api_types::scopes::EDITOR_READ, api_types::scopes::PLANNER_WRITE);
    let hash = contentdesk_sandbox::auth::hash_secret(&key);
    other.execute("UPDATE api_keys SET scopes = ?1 WHERE secret_hash = ?2", [&scopes, &hash]).unwrap();
    let (s, v) = http.patch(&key, &path, serde_json::json!({"title": "Widened"})).await;
    assert_eq!(s, 200, "a key widened through another connection was refused on its old scopes: {v}");
    assert_eq!(v["post"]["title"], "Widened", "{v}");
}
