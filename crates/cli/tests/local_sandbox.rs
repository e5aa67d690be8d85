//! `cdesk --sandbox` / `--profile Sandbox`: the desktop app's local sandbox from the terminal, on the
//! same `sandbox.db` the window shows. Both cases with real parts: the app's core running in this test
//! process (its embedded sandbox on a temp data folder, keys in memory, as the core's own tests start
//! it), and the folder alone (cdesk serves it for one command). Then the rule that only one sandbox
//! server runs on a database: the app waits for a cdesk that holds the folder, and two cdesk commands
//! take turns.
mod desk;

use contentdesk_core::state::DataDirLock;
use contentdesk_core::{AppState, CoreConfig, MemoryStore, Secrets};
use desk::Desk;
use serde_json::{json, Value};
use std::io::{BufRead, BufReader, Write};
use std::path::Path;
use std::sync::Arc;

async fn start_app(dir: &Path) -> AppState {
    AppState::start(CoreConfig {
        data_dir: dir.to_path_buf(),
        settings: None,
        secrets: Secrets::Store(Arc::new(MemoryStore::new())),
        embedded_sandbox: true,
        embedded_sandbox_config: Default::default(),
    })
    .await
    .expect("the app's core starts")
}

/// The titles of the cards in `sandbox.db`, read in the database (what the window's board lists).
fn titles_in_db(dir: &Path) -> Vec<String> {
    let db = rusqlite_open(dir);
    let conn = db.lock();
    let mut stmt = conn.prepare("SELECT title FROM cards ORDER BY title").unwrap();
    stmt.query_map([], |r| r.get::<_, String>(0)).unwrap().map(Result::unwrap).collect()
}

/// The terminal keys minted in `sandbox.db`: (how many, how many still live).
fn terminal_keys(dir: &Path) -> (i64, i64) {
    let db = rusqlite_open(dir);
    let conn = db.lock();
    conn.query_row(
        "SELECT COUNT(*), COUNT(*) FILTER (WHERE revoked_at IS NULL) FROM api_keys WHERE name = ?1",
        [contentdesk_core::embedded::TERMINAL_KEY_NAME],
        |r| Ok((r.get(0)?, r.get(1)?)),
    )
    .unwrap()
}

fn rusqlite_open(dir: &Path) -> contentdesk_sandbox::db::Db {
    contentdesk_sandbox::db::Db::open(&dir.join("sandbox.db"), &contentdesk_sandbox::SCHEMA).expect("sandbox.db opens")
}

fn card_titles(list: &Value) -> Vec<String> {
    list.as_array().unwrap_or_else(|| panic!("a card list: {list}")).iter().map(|c| c["title"].as_str().unwrap().to_string()).collect()
}

#[tokio::test(flavor = "multi_thread")]
async fn with_the_folder_alone_cdesk_serves_the_sandbox_for_one_command_and_lets_go() {
    let desk = Desk::local();
    let dir = desk.data_dir();

    // No app has ever run here: the sandbox is created and seeded as the app would.
    let made = desk.run(&["--sandbox", "card", "create", "Made in the terminal", "--platform", "instagram"]).await.ok();
    assert_eq!(made["title"], "Made in the terminal");
    assert!(titles_in_db(&dir).contains(&"Made in the terminal".to_string()));
    // `--profile Sandbox` is the same thing (the app's default name for it).
    let listed = desk.run(&["--profile", "Sandbox", "card", "list", "--search", "terminal"]).await.ok();
    assert_eq!(card_titles(&listed), vec!["Made in the terminal"]);
    // Each command minted its own key and revoked it; the folder is free again and no URL file is left.
    assert_eq!(terminal_keys(&dir), (2, 0), "one key per command, none left live");
    assert!(DataDirLock::try_take(&dir, "test").unwrap().is_some(), "cdesk let go of the folder");
    assert!(!dir.join(contentdesk_core::embedded::URL_FILE).exists());
    let status = desk.run(&["--sandbox", "auth", "status"]).await.ok();
    assert_eq!((status["keySource"].as_str(), status["authenticated"].as_bool()), (Some("sandbox"), Some(true)), "{status}");

    // The app opens the same folder afterwards: the card is on its board.
    let app = start_app(&dir).await;
    let board = titles_in_db(app.data_dir());
    assert!(app.sandbox_url().is_some());
    assert!(board.contains(&"Made in the terminal".to_string()), "{board:?}");
}

#[tokio::test(flavor = "multi_thread")]
async fn with_the_app_running_cdesk_uses_its_sandbox_and_the_url_file_names_no_key() {
    let desk = Desk::local();
    let dir = desk.data_dir();
    std::fs::create_dir_all(&dir).unwrap();
    let app = start_app(&dir).await;
    let url = app.sandbox_url().unwrap();

    // The app published its sandbox's URL and pid, nothing else (no key).
    let published: Value = serde_json::from_slice(&std::fs::read(dir.join(contentdesk_core::embedded::URL_FILE)).unwrap()).unwrap();
    assert_eq!(published, json!({ "url": url, "pid": std::process::id() }));

    let status = desk.run(&["--sandbox", "auth", "status"]).await.ok();
    assert_eq!(status["baseUrl"], url.as_str(), "cdesk talks to the app's sandbox: {status}");
    assert_eq!(status["localSandbox"], "the app's");
    // Keys in memory (no keyring to read): a key minted for the command, revoked after it.
    assert_eq!(status["keySource"], "sandbox");
    let made = desk.run(&["--profile", "sandbox", "card", "create", "While the window is open", "--platform", "tiktok"]).await.ok();
    assert_eq!(made["title"], "While the window is open");
    assert!(titles_in_db(&dir).contains(&"While the window is open".to_string()));
    assert_eq!(terminal_keys(&dir).1, 0, "no terminal key left live");
    // The app's own sandbox key was not touched: its profile still reads.
    let view = contentdesk_core::commands::profiles_list(&app).await.unwrap();
    assert!(view.profiles.iter().any(|p| p.kind == contentdesk_core::ProfileKind::Sandbox && p.has_key));

    // A clean stop removes the URL file; then cdesk serves the folder itself and still finds the card.
    drop(app);
    assert!(!dir.join(contentdesk_core::embedded::URL_FILE).exists(), "removed on a clean stop");
    let listed = desk.run(&["--sandbox", "card", "list", "--search", "window"]).await.ok();
    assert_eq!(card_titles(&listed), vec!["While the window is open"]);
}

#[tokio::test(flavor = "multi_thread")]
async fn a_url_file_left_by_a_crash_is_not_used() {
    let desk = Desk::local();
    let dir = desk.data_dir();
    std::fs::create_dir_all(&dir).unwrap();
    // A core that died without cleaning up: its file names a port nobody serves; nobody holds the lock.
    std::fs::write(dir.join(contentdesk_core::embedded::URL_FILE), r#"{"url":"http://127.0.0.1:9/api/v1","pid":1}"#).unwrap();
    let status = desk.run(&["--sandbox", "auth", "status"]).await.ok();
    assert_eq!(status["authenticated"], true, "{status}");
    assert_ne!(status["baseUrl"], "http://127.0.0.1:9/api/v1");
    assert!(!dir.join(contentdesk_core::embedded::URL_FILE).exists(), "the stale file is removed");
}

#[tokio::test(flavor = "multi_thread")]
async fn one_sandbox_server_per_database_the_app_waits_for_cdesk_and_cdesks_take_turns() {
    let desk = Desk::local();
    let dir = desk.data_dir();

    // `cdesk mcp --sandbox` with no app: it serves the folder's sandbox and holds the lock for the session.
    let mut mcp = desk
        .command(&["mcp", "--sandbox"])
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let mut stdin = mcp.stdin.take().unwrap();
    let mut stdout = BufReader::new(mcp.stdout.take().unwrap());
    let mut call = |msg: Value, answer: bool| -> Option<Value> {
        writeln!(stdin, "{msg}").unwrap();
        stdin.flush().unwrap();
        answer.then(|| {
            let mut line = String::new();
            stdout.read_line(&mut line).unwrap();
            serde_json::from_str(&line).unwrap_or_else(|e| panic!("{e}: {line}"))
        })
    };
    let init = json!({"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"test","version":"0"}}});
    assert!(call(init, true).unwrap()["result"]["serverInfo"].is_object());
    call(json!({"jsonrpc":"2.0","method":"notifications/initialized"}), false);
    let made = call(json!({"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"create_card","arguments":{"title":"From an agent","platform":"instagram"}}}), true).unwrap();
    assert_ne!(made["result"]["isError"], true, "{made}");
    assert_eq!(DataDirLock::holder(&dir).map(|h| h.0), Some("cdesk".to_string()), "cdesk holds the folder while it serves");

    // The app starts meanwhile: it waits for cdesk (never a second server on the file) and starts when the
    // session ends. Without the wait it refuses at once (checked by breaking it: ALREADY_RUNNING).
    let starting = tokio::spawn({
        let dir = dir.clone();
        async move {
            AppState::start(CoreConfig {
                data_dir: dir,
                settings: None,
                secrets: Secrets::Store(Arc::new(MemoryStore::new())),
                embedded_sandbox: true,
                embedded_sandbox_config: Default::default(),
            })
            .await
        }
    });
    // Another cdesk command meanwhile waits its turn too (here: until the session ends and the app serves).
    let second = tokio::spawn({
        let mut cmd = desk.command(&["--sandbox", "card", "list", "--search", "agent"]);
        async move { tokio::task::spawn_blocking(move || cmd.output().unwrap()).await.unwrap() }
    });
    assert!(!starting.is_finished() && !second.is_finished(), "both wait while cdesk mcp serves");
    drop(stdin); // the MCP client goes away: the session ends, cdesk lets go
    assert!(mcp.wait().unwrap().success());
    let app = starting.await.unwrap().expect("the app starts once cdesk has let go");
    let out = second.await.unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let listed: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(card_titles(&listed), vec!["From an agent"]);
    assert!(app.sandbox_url().is_some());
}
