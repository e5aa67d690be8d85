//! `cdesk login` without a key: the browser flow, end to end against the sandbox's consent page. The test
//! plays the browser (reads the page, posts its form, follows the redirect to the CLI's loopback
//! listener) and checks what the CLI stored, with the scopes the user left ticked. Wrong answers to the
//! listener are refused while it keeps waiting; Cancel stores nothing.
use contentdesk_sandbox::testing::{consent_form, TestSandbox};
use std::io::{BufRead, BufReader};
use std::process::{Child, Command, Stdio};
use std::time::Duration;

struct Login {
    child: Child,
    url: String,
    home: std::path::PathBuf,
}

fn start(sb: &TestSandbox) -> Login {
    let home = std::env::temp_dir().join(format!("cdesk-login-{}-{}", std::process::id(), sb.running.addr.port()));
    let mut child = Command::new(env!("CARGO_BIN_EXE_cdesk"))
        .args(["login", "--file", "--base-url", &sb.base_url()])
        .env_clear()
        .env("PATH", std::env::var("PATH").unwrap_or_default())
        .env("HOME", &home)
        .env("CONTENTHERO_CONFIG_DIR", home.join("ch"))
        .env("CONTENTDESK_DATA_DIR", home.join("app"))
        .env("CONTENTHERO_NO_BROWSER", "1")
        .env("CDESK_LOGIN_TIMEOUT_S", "30")
        .env("HOSTNAME", "test-laptop")
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("cdesk runs");
    let mut lines = BufReader::new(child.stderr.take().unwrap()).lines();
    let url = loop {
        let line = lines.next().expect("cdesk prints the page to open").unwrap();
        if let Some(u) = line.trim().strip_prefix("http") {
            break format!("http{u}");
        }
    };
    Login { child, url, home }
}

fn browser() -> reqwest::Client {
    reqwest::Client::builder().redirect(reqwest::redirect::Policy::none()).timeout(Duration::from_secs(10)).build().unwrap()
}

#[tokio::test(flavor = "multi_thread")]
async fn the_browser_flow_mints_a_key_with_the_scopes_left_ticked_and_stores_it() {
    let sb = TestSandbox::start().await;
    let mut login = tokio::task::block_in_place(|| start(&sb));
    let b = browser();
    let page = b.get(&login.url).send().await.unwrap();
    assert_eq!(page.status(), 200);
    assert_eq!(page.headers()["x-frame-options"], "DENY");
    let page = page.text().await.unwrap();
    assert!(page.contains("Connect cdesk on test-laptop?"), "{page}");
    assert!(page.contains("Spend credits on renders"), "scopes in words");
    let origin = sb.running.origin();

    // A form whose token does not match mints nothing.
    let mut forged = consent_form(&page, "connect", &["planner:write"]);
    forged.iter_mut().find(|(k, _)| k == "token").unwrap().1 = "0".repeat(64);
    let r = b.post(format!("{origin}/cli/auth")).form(&forged).send().await.unwrap();
    assert_eq!(r.status(), 400);

    // Connect with two scopes left ticked.
    let r = b.post(format!("{origin}/cli/auth")).form(&consent_form(&page, "connect", &["planner:write", "brandkit:read"])).send().await.unwrap();
    assert_eq!(r.status(), 302);
    let callback = r.headers()["location"].to_str().unwrap().to_string();
    assert!(callback.starts_with("http://127.0.0.1:") && callback.contains("/callback?state="), "{callback}");
    let listener = callback[..callback.find("/callback").unwrap()].to_string();

    // The listener refuses what is not its answer, and goes on waiting.
    assert_eq!(b.get(format!("{listener}/favicon.ico")).send().await.unwrap().status(), 404);
    let wrong = callback.replacen("state=", "state=x", 1);
    assert_eq!(b.get(&wrong).send().await.unwrap().status(), 400);

    let r = b.get(&callback).send().await.unwrap();
    assert_eq!(r.status(), 302);
    assert_eq!(r.headers()["location"].to_str().unwrap(), format!("{origin}/cli/auth/done?status=connected"));
    let out = tokio::task::block_in_place(|| login.child.wait_with_output_stdout());
    assert_eq!(out.0, 0);
    let v: serde_json::Value = serde_json::from_str(&out.1).unwrap();
    assert_eq!(v["storedIn"], "file");
    let saved: serde_json::Value = serde_json::from_str(&std::fs::read_to_string(login.home.join("ch/credentials")).unwrap()).unwrap();
    let key = saved["apiKey"].as_str().unwrap();
    // The key holds exactly the scopes left ticked, under the name the page announced.
    let conn = sb.state().db().lock();
    let (name, scopes): (String, String) = conn
        .query_row("SELECT name, scopes FROM api_keys WHERE secret_hash = ?1", [contentdesk_sandbox::auth::hash_secret(key)], |r| Ok((r.get(0)?, r.get(1)?)))
        .unwrap();
    assert_eq!(name, "CLI (test-laptop)");
    let mut got: Vec<&str> = scopes.split([' ', ',']).filter(|s| !s.is_empty()).collect();
    got.sort_unstable();
    assert_eq!(got, ["brandkit:read", "planner:write"]);
    let _ = std::fs::remove_dir_all(&login.home);
}

#[tokio::test(flavor = "multi_thread")]
async fn cancel_in_the_browser_exits_3_and_stores_nothing() {
    let sb = TestSandbox::start().await;
    let mut login = tokio::task::block_in_place(|| start(&sb));
    let b = browser();
    let page = b.get(&login.url).send().await.unwrap().text().await.unwrap();
    let r = b.post(format!("{}/cli/auth", sb.running.origin())).form(&consent_form(&page, "cancel", &[])).send().await.unwrap();
    let callback = r.headers()["location"].to_str().unwrap().to_string();
    assert!(callback.contains("error=cancelled"), "{callback}");
    let r = b.get(&callback).send().await.unwrap();
    assert!(r.headers()["location"].to_str().unwrap().ends_with("/cli/auth/done?status=cancelled"));
    let out = tokio::task::block_in_place(|| login.child.wait_with_output_stdout());
    assert_eq!(out.0, 3);
    assert!(!login.home.join("ch/credentials").exists());
    let _ = std::fs::remove_dir_all(&login.home);
}

trait WaitOut {
    fn wait_with_output_stdout(&mut self) -> (i32, String);
}

impl WaitOut for Child {
    fn wait_with_output_stdout(&mut self) -> (i32, String) {
        let mut s = String::new();
        std::io::Read::read_to_string(self.stdout.as_mut().unwrap(), &mut s).unwrap();
        (self.wait().unwrap().code().unwrap_or(-1), s)
    }
}
