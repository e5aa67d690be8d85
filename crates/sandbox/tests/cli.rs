//! The `contentdesk-sandbox` binary: `serve --seed demo` prints its URL and a working key; `keys create`
//! prints the secret once, `keys list` never shows it, `keys revoke` stops it at once.
use std::io::{BufRead, BufReader};
use std::process::{Command, Stdio};

const BIN: &str = env!("CARGO_BIN_EXE_contentdesk-sandbox");

fn temp_db() -> std::path::PathBuf {
    std::env::temp_dir().join(format!("contentdesk-cli-{}.db", uuid::Uuid::new_v4()))
}

fn run(args: &[&str]) -> (bool, String, String) {
    let out = Command::new(BIN).args(args).output().expect("run sandbox binary");
    (out.status.success(), String::from_utf8_lossy(&out.stdout).into(), String::from_utf8_lossy(&out.stderr).into())
}

fn free_port() -> u16 {
    std::net::TcpListener::bind("127.0.0.1:0").unwrap().local_addr().unwrap().port()
}

#[tokio::test]
async fn serve_seed_demo_prints_url_and_a_working_key_and_keys_can_be_revoked() {
    let db = temp_db();
    let dbs = db.to_str().unwrap();
    let addr = format!("127.0.0.1:{}", free_port());
    let mut child = Command::new(BIN)
        .args(["serve", "--db", dbs, "--addr", &addr, "--seed", "demo"])
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let mut lines = BufReader::new(child.stdout.take().unwrap()).lines();
    let url_line = lines.next().unwrap().unwrap();
    let key_line = lines.next().unwrap().unwrap();
    assert!(url_line.contains(&format!("http://{addr}/api/v1")), "{url_line}");
    let key = key_line.rsplit(' ').next().unwrap().to_string();
    assert!(key.starts_with("ch_live_"), "{key_line}");
    let http = reqwest::Client::new();
    let base = format!("http://{addr}/api/v1");
    let resp = http.get(format!("{base}/account/balance")).bearer_auth(&key).send().await.unwrap();
    assert_eq!(resp.status().as_u16(), 200);

    // A second key minted by the CLI while the server runs works at once …
    let (ok, secret, _) = run(&["keys", "create", "--db", dbs, "--scopes", "planner:write,brandkit:read", "--name", "cli test"]);
    assert!(ok);
    let secret = secret.trim().to_string();
    assert!(secret.starts_with("ch_live_"));
    let resp = http.get(format!("{base}/account/balance")).bearer_auth(&secret).send().await.unwrap();
    assert_eq!(resp.status().as_u16(), 200);

    // … is listed without its secret …
    let (ok, list, _) = run(&["keys", "list", "--db", dbs]);
    assert!(ok);
    assert!(!list.contains(&secret), "keys list printed a secret");
    let line = list.lines().find(|l| l.contains("cli test")).expect("listed");
    assert!(line.contains("planner:write,brandkit:read") && line.contains("live"), "{line}");
    let id = line.split('\t').next().unwrap();

    // … and revoked at once.
    let (ok, _, _) = run(&["keys", "revoke", "--db", dbs, id]);
    assert!(ok);
    let resp = http.get(format!("{base}/account/balance")).bearer_auth(&secret).send().await.unwrap();
    assert_eq!(resp.status().as_u16(), 401);
    let (ok, _, err) = run(&["keys", "revoke", "--db", dbs, id]);
    assert!(!ok, "revoking twice must fail");
    assert!(err.contains("no live key"), "{err}");

    child.kill().ok();
    child.wait().ok();
    for ext in ["", "-wal", "-shm"] {
        let _ = std::fs::remove_file(format!("{dbs}{ext}"));
    }
}

#[test]
fn keys_create_new_accounts_mints_one_key_on_each_of_n_new_accounts() {
    let db = temp_db();
    let dbs = db.to_str().unwrap();
    let (ok, out, err) = run(&["keys", "create", "--db", dbs, "--new-accounts", "3", "--scopes", "planner:write"]);
    assert!(ok, "{err}");
    let secrets: Vec<&str> = out.lines().collect();
    assert_eq!(secrets.len(), 3, "{out}");
    assert!(secrets.iter().all(|s| s.starts_with("ch_live_")), "{out}");
    let conn = rusqlite::Connection::open(&db).unwrap();
    let (keys, accounts): (i64, i64) = conn
        .query_row("SELECT COUNT(*), COUNT(DISTINCT account_id) FROM api_keys WHERE scopes = 'planner:write'", [], |r| Ok((r.get(0)?, r.get(1)?)))
        .unwrap();
    assert_eq!((keys, accounts), (3, 3), "one key on each of three accounts");
    let (ok, _, err) = run(&["keys", "create", "--db", dbs, "--new-accounts", "2", "--account", "x"]);
    assert!(!ok && err.contains("cannot be used with"), "{err}");
    drop(conn);
    for ext in ["", "-wal", "-shm"] {
        let _ = std::fs::remove_file(format!("{dbs}{ext}"));
    }
}

#[test]
fn keys_create_refuses_an_unknown_scope() {
    let db = temp_db();
    let (ok, _, err) = run(&["keys", "create", "--db", db.to_str().unwrap(), "--scopes", "planner:wrte"]);
    assert!(!ok);
    assert!(err.contains("unknown scope `planner:wrte`"), "{err}");
    let _ = std::fs::remove_file(&db);
}

#[tokio::test]
async fn ready_json_is_one_line_with_the_url_and_key_and_except_leaves_scopes_out() {
    let db = temp_db();
    let dbs = db.to_str().unwrap();
    let mut child = Command::new(BIN)
        .args(["serve", "--db", dbs, "--addr", "127.0.0.1:0", "--seed", "demo", "--ready-json"])
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let mut lines = BufReader::new(child.stdout.take().unwrap()).lines();
    let line = lines.next().unwrap().unwrap();
    let ready: serde_json::Value = serde_json::from_str(&line).unwrap_or_else(|e| panic!("not JSON ({e}): {line}"));
    assert_eq!(ready["ready"], true, "{line}");
    let (url, key) = (ready["url"].as_str().unwrap(), ready["key"].as_str().unwrap());
    assert!(url.starts_with("http://127.0.0.1:") && url.ends_with("/api/v1"), "{line}");
    let http = reqwest::Client::new();
    let resp = http.get(format!("{url}/account/balance")).bearer_auth(key).send().await.unwrap();
    assert_eq!(resp.status().as_u16(), 200);

    // `--scopes all --except brandkit:read`: every scope but that one.
    let (ok, lacking, err) = run(&["keys", "create", "--db", dbs, "--scopes", "all", "--except", "brandkit:read"]);
    assert!(ok, "{err}");
    let resp = http.get(format!("{url}/brand-kits")).bearer_auth(lacking.trim()).send().await.unwrap();
    assert_eq!(resp.status().as_u16(), 403, "brandkit:read was left out");
    let resp = http.get(format!("{url}/projects")).bearer_auth(lacking.trim()).send().await.unwrap();
    assert_eq!(resp.status().as_u16(), 200, "editor:read is kept");
    let _ = child.kill();
    let _ = child.wait();
    let _ = std::fs::remove_file(&db);
}

#[tokio::test]
async fn serve_binds_loopback_unless_public_is_given() {
    // Issue 12: `serve --addr` was not checked, so `--addr 0.0.0.0:8787` served the keyless files and upload
    // URLs to the network. A non-loopback address is now refused, before the database is opened, with a
    // message that says to add `--public`; with `--public` it serves.
    let db = temp_db();
    let dbs = db.to_str().unwrap();
    let mut refused = Command::new(BIN)
        .args(["serve", "--db", dbs, "--addr", "0.0.0.0:0", "--seed", "demo", "--ready-json"])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(10);
    while refused.try_wait().unwrap().is_none() && std::time::Instant::now() < deadline {
        std::thread::sleep(std::time::Duration::from_millis(50));
    }
    if refused.try_wait().unwrap().is_none() {
        let _ = refused.kill();
        let out = refused.wait_with_output().unwrap();
        panic!("served on 0.0.0.0 without --public: {}", String::from_utf8_lossy(&out.stdout));
    }
    let out = refused.wait_with_output().unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(!out.status.success());
    assert!(err.contains("loopback") && err.contains("add --public"), "{err}");
    assert!(!db.exists(), "nothing opened before the refusal");

    let port = free_port();
    let mut child = Command::new(BIN)
        .args(["serve", "--db", dbs, "--addr", &format!("0.0.0.0:{port}"), "--public", "--ready-json"])
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let line = BufReader::new(child.stdout.take().unwrap()).lines().next().unwrap().unwrap();
    assert!(line.contains("\"ready\":true"), "{line}");
    let resp = reqwest::get(format!("http://127.0.0.1:{port}/api/v1/models")).await.unwrap();
    assert_eq!(resp.status().as_u16(), 401, "served, and still asks for a key");
    let _ = child.kill();
    let _ = child.wait();
    for ext in ["", "-wal", "-shm"] {
        let _ = std::fs::remove_file(format!("{dbs}{ext}"));
    }

    // Loopback names need nothing more.
    let (ok, _, err) = run(&["serve", "--db", dbs, "--addr", "localhost:99999"]);
    assert!(!ok && !err.contains("--public"), "a bad port is refused for what it is: {err}");
}
