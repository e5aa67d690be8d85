//! A `sandbox.db` made by an older build opens, and what that build kept and this one does not (the
//! epoch tables and the triggers that bumped them, on `api_keys` and on the seven tables of a card's
//! parts) is dropped at open: left behind, a trigger naming a dropped table would fail every write.
use contentdesk_sandbox::{auth, AppState, Config};
use rusqlite::Connection;

/// The triggers and tables the build before this one created.
fn older_builds_epochs(conn: &Connection) {
    let mut sql = String::from(
        "CREATE TABLE api_keys_epoch (id INTEGER PRIMARY KEY CHECK (id = 0), n INTEGER NOT NULL);
         INSERT INTO api_keys_epoch (id, n) VALUES (0, 0);
         CREATE TABLE card_parts_epoch (id INTEGER PRIMARY KEY CHECK (id = 0), n INTEGER NOT NULL);
         INSERT INTO card_parts_epoch (id, n) VALUES (0, 0);",
    );
    for (name, event) in [("insert", "INSERT"), ("update", "UPDATE"), ("delete", "DELETE")] {
        sql += &format!(
            "CREATE TRIGGER api_keys_epoch_on_{name} AFTER {event} ON api_keys
             BEGIN UPDATE api_keys_epoch SET n = n + 1 WHERE id = 0; END;"
        );
        for table in ["card_posts", "card_assets", "card_tags", "tags", "tracked_content", "tracked_accounts", "projects"] {
            sql += &format!(
                "CREATE TRIGGER card_parts_epoch_{table}_{name} AFTER {event} ON {table}
                 BEGIN UPDATE card_parts_epoch SET n = n + 1 WHERE id = 0; END;"
            );
        }
    }
    conn.execute_batch(&sql).unwrap();
}

fn epoch_things(conn: &Connection) -> Vec<String> {
    let mut stmt = conn.prepare("SELECT name FROM sqlite_master WHERE name LIKE '%epoch%' ORDER BY name").unwrap();
    stmt.query_map([], |r| r.get(0)).unwrap().collect::<Result<_, _>>().unwrap()
}

#[test]
fn a_file_of_the_build_before_opens_without_its_epoch_triggers() {
    let dir = std::env::temp_dir().join(format!("contentdesk-older-file-{}", uuid::Uuid::new_v4()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("sandbox.db");
    drop(AppState::open(&path, Config::for_tests()).unwrap());
    {
        let conn = Connection::open(&path).unwrap();
        older_builds_epochs(&conn);
        assert_eq!(epoch_things(&conn).len(), 2 + 3 + 21);
    }
    let state = AppState::open(&path, Config::for_tests()).unwrap();
    let conn = state.db().lock();
    assert_eq!(epoch_things(&conn), Vec::<String>::new());
    // Writes to the tables the triggers were on go through.
    let account = auth::create_account(&conn, "Older", 10.0).unwrap();
    let (key, _) = auth::create_key(&conn, &account, "k", &[]).unwrap();
    assert!(auth::revoke_key(&conn, &key.id).unwrap());
    conn.execute(
        "INSERT INTO tags (id, account_id, name, created_at) VALUES ('t1', ?1, 'x', '2026-01-01T00:00:00.000Z')",
        [&account],
    )
    .unwrap();
    drop(conn);
    drop(state);
    std::fs::remove_dir_all(&dir).ok();
}
