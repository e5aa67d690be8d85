//! A card read keeps the card's parts (posts, tags, assets and what they point at) in memory for one value
//! of `card_parts_epoch` (routes/cards/read.rs, `PartsCache`). These tests change every table those parts
//! come from through another connection on the same file, as another process (`contentdesk-sandbox` run
//! by hand, the app's own writer) would, and check that the very next `GET` and `PATCH /cards/{id}` answer
//! the card as read afresh (without the cache), and differ from what they answered before.
mod common;
use common::{Http, TestSandbox};
use contentdesk_sandbox::routes::cards::read_detail;
use rusqlite::Connection;
use serde_json::{json, Value};

/// A sandbox, its HTTP client, and another connection on its file, outside the sandbox's own connections
/// and routes (as another process would have).
async fn start() -> (TestSandbox, Http, Connection) {
    let sb = TestSandbox::start().await;
    let http = Http::new(&sb);
    let other = Connection::open(sb.db_path()).unwrap();
    other.busy_timeout(std::time::Duration::from_secs(5)).unwrap();
    (sb, http, other)
}

/// The card as read afresh, with no cache: what every reply must be.
fn fresh(sb: &TestSandbox, card: &str) -> Value {
    let detail = sb.state().db().read(|c| read_detail(c, &sb.account_id, card)).expect("read");
    serde_json::to_value(detail).unwrap()
}

/// `GET`, then `PATCH {title}`, then `GET` again: each equal to a fresh read. Answers the last `GET`.
async fn replies_are_fresh(sb: &TestSandbox, http: &Http, card: &str, what: &str) -> Value {
    let path = format!("/cards/{card}");
    let (s, got) = http.get(&sb.key, &path).await;
    assert_eq!(s, 200, "{got}");
    assert_eq!(got["post"], fresh(sb, card), "GET after {what} answers the card as it was");
    let (s, patched) = http.patch(&sb.key, &path, json!({"title": format!("After {what}")})).await;
    assert_eq!(s, 200, "{patched}");
    assert_eq!(patched["post"], fresh(sb, card), "the PATCH reply after {what} has the card as it was");
    let (s, got) = http.get(&sb.key, &path).await;
    assert_eq!(s, 200, "{got}");
    assert_eq!(got["post"], fresh(sb, card));
    got["post"].clone()
}

#[tokio::test]
async fn a_change_to_any_table_of_a_cards_parts_by_another_connection_shows_at_once() {
    let (sb, http, other) = start().await;
    // A demo card with posts, tags and an inspiration post.
    let card: String = other
        .query_row(
            "SELECT a.card_id FROM card_assets a
             WHERE a.content_id IS NOT NULL
               AND EXISTS (SELECT 1 FROM card_posts p WHERE p.card_id = a.card_id)
               AND EXISTS (SELECT 1 FROM card_tags t WHERE t.card_id = a.card_id)
             LIMIT 1",
            [],
            |r| r.get(0),
        )
        .expect("a demo card with posts, tags and an inspiration post");
    // A project on it, through the API.
    let (s, v) = http.post(&sb.key, "/projects", json!({"title": "Cut one", "cardId": card})).await;
    assert!(s == 200 || s == 201, "{v}");
    let mut before = replies_are_fresh(&sb, &http, &card, "the start").await;

    let changes: &[(&str, &str)] = &[
        ("a tag renamed", "UPDATE tags SET name = 'renamed-elsewhere' WHERE id = (SELECT tag_id FROM card_tags WHERE card_id = ?1 LIMIT 1)"),
        ("a post's settings", "UPDATE card_posts SET platform_settings = '{\"caption\":\"written elsewhere\"}' WHERE card_id = ?1"),
        ("a post added", "INSERT INTO card_posts (id, card_id, platform, sort_order) VALUES ('p-elsewhere', ?1, 'linkedin', 99)"),
        ("an asset renamed", "UPDATE card_assets SET display_name = 'Named elsewhere' WHERE card_id = ?1"),
        ("the inspiration post's figures", "UPDATE tracked_content SET view_count = 42 WHERE id = (SELECT content_id FROM card_assets WHERE card_id = ?1 AND content_id IS NOT NULL)"),
        ("the inspiration creator renamed", "UPDATE tracked_accounts SET name = 'Creator elsewhere' WHERE id = (SELECT c.tracked_account_id FROM tracked_content c JOIN card_assets a ON a.content_id = c.id WHERE a.card_id = ?1)"),
        ("the project renamed", "UPDATE projects SET title = 'Renamed elsewhere', thumbnail_url = 'https://example.com/t.jpg' WHERE linked_card_id = ?1"),
        ("a tag taken off", "DELETE FROM card_tags WHERE card_id = ?1 AND tag_id = (SELECT tag_id FROM card_tags WHERE card_id = ?1 LIMIT 1)"),
        ("the inspiration post deleted", "DELETE FROM tracked_content WHERE id = (SELECT content_id FROM card_assets WHERE card_id = ?1 AND content_id IS NOT NULL)"),
        ("an asset deleted", "DELETE FROM card_assets WHERE card_id = ?1 AND id = (SELECT id FROM card_assets WHERE card_id = ?1 ORDER BY sort_order LIMIT 1)"),
        ("the posts deleted", "DELETE FROM card_posts WHERE card_id = ?1"),
    ];
    other.execute_batch("PRAGMA foreign_keys = OFF").unwrap();
    for (what, sql) in changes {
        let n = other.execute(sql, [&card]).unwrap();
        assert!(n > 0, "{what}: the change touched no row");
        let after = replies_are_fresh(&sb, &http, &card, what).await;
        let strip = |v: &Value| {
            let mut v = v.clone();
            for k in ["title", "updatedAt"] {
                v.as_object_mut().unwrap().remove(k);
            }
            v
        };
        assert_ne!(strip(&after), strip(&before), "{what} changed nothing a reply shows");
        before = after;
    }
}

#[tokio::test]
async fn a_posts_time_follows_the_cards_time_changed_elsewhere() {
    // The card's own row is read every time: its schedule, which posts without their own time show,
    // changed by another connection (no part of the card changes) shows at once on each post.
    let (sb, http, other) = start().await;
    let card: String = other
        .query_row(
            "SELECT card_id FROM card_posts WHERE scheduled_at IS NULL LIMIT 1",
            [],
            |r| r.get(0),
        )
        .unwrap();
    replies_are_fresh(&sb, &http, &card, "the start").await;
    for when in ["2031-01-02T03:04:05.000Z", "2032-06-07T08:09:10.000Z"] {
        other.execute("UPDATE cards SET scheduled_at = ?2 WHERE id = ?1", [&card, when]).unwrap();
        let got = replies_are_fresh(&sb, &http, &card, "the card's time changed").await;
        let posts = got["posts"].as_array().unwrap();
        assert!(posts.iter().any(|p| p["scheduledAt"] == when), "{got}");
    }
}
