//! `cdesk` as a separate process against the real sandbox over HTTP: JSON output field by field, the key
//! ladder, one test per exit code, idempotent generation (the balance moves once), paging, schema and
//! completions. Each run gets an empty HOME, config folder and app data folder, so no key of this machine
//! is found by accident.
use contentdesk_sandbox::testing::TestSandbox;
use contentdesk_sandbox::Config;
use serde_json::Value;
use std::path::{Path, PathBuf};
use std::process::Output;
use std::time::Duration;

struct Run {
    code: i32,
    stdout: String,
    stderr: String,
}

impl Run {
    fn json(&self) -> Value {
        serde_json::from_str(&self.stdout).unwrap_or_else(|e| panic!("stdout is not JSON ({e}): {}\nstderr: {}", self.stdout, self.stderr))
    }
    fn err_json(&self) -> Value {
        serde_json::from_str(self.stderr.trim()).unwrap_or_else(|e| panic!("stderr is not JSON ({e}): {}", self.stderr))
    }
}

/// A clean environment: its own HOME, official-CLI folder and app data folder.
struct Env {
    dir: PathBuf,
    vars: Vec<(String, String)>,
}

impl Env {
    fn new() -> Env {
        let dir = std::env::temp_dir().join(format!("cdesk-test-{}", uuid()));
        std::fs::create_dir_all(dir.join("home")).unwrap();
        Env { dir, vars: Vec::new() }
    }
    fn var(mut self, k: &str, v: &str) -> Env {
        self.vars.push((k.into(), v.into()));
        self
    }
    fn config_dir(&self) -> PathBuf {
        self.dir.join("contenthero")
    }

    async fn run(&self, args: &[&str]) -> Run {
        self.run_with(&[], args).await
    }

    /// A run with more variables (another key for one call).
    async fn run_with(&self, more: &[(&str, &str)], args: &[&str]) -> Run {
        let mut cmd = std::process::Command::new(env!("CARGO_BIN_EXE_cdesk"));
        cmd.args(args)
            .env_clear()
            .env("PATH", std::env::var("PATH").unwrap_or_default())
            .env("HOME", self.dir.join("home"))
            .env("CONTENTHERO_CONFIG_DIR", self.config_dir())
            .env("CONTENTDESK_DATA_DIR", self.dir.join("app"))
            .env("CONTENTDESK_KEYRING_SERVICE", format!("cdesk-test-{}", uuid()))
            .stdin(std::process::Stdio::null());
        for (k, v) in &self.vars {
            cmd.env(k, v);
        }
        for (k, v) in more {
            cmd.env(k, v);
        }
        let out: Output = tokio::task::spawn_blocking(move || cmd.output()).await.unwrap().expect("cdesk runs");
        Run {
            code: out.status.code().unwrap_or(-1),
            stdout: String::from_utf8_lossy(&out.stdout).into_owned(),
            stderr: String::from_utf8_lossy(&out.stderr).into_owned(),
        }
    }
}

impl Drop for Env {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.dir);
    }
}

fn uuid() -> String {
    format!("{:x}", std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).unwrap().as_nanos() ^ (std::process::id() as u128) << 64)
}

fn write_credentials(dir: &Path, key: &str, mode: u32) {
    use std::os::unix::fs::PermissionsExt;
    std::fs::create_dir_all(dir).unwrap();
    let path = dir.join("credentials");
    std::fs::write(&path, format!("{{\"apiKey\": \"{key}\", \"label\": \"test\"}}")).unwrap();
    std::fs::set_permissions(&path, std::fs::Permissions::from_mode(mode)).unwrap();
}

#[tokio::test(flavor = "multi_thread")]
async fn balance_prints_the_services_reply_as_json_when_piped_and_nothing_on_stderr() {
    let sb = TestSandbox::start().await;
    let url = sb.base_url();
    let r = Env::new().run(&["account", "balance", "--api-key", &sb.key, "--base-url", &url]).await;
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert_eq!(r.stderr, "", "piped: stderr stays quiet");
    let v = r.json();
    assert_eq!(v["balance"].as_f64(), Some(sb.balance()));
    assert!(v["tier"].is_string(), "{v}");
    // Pretty JSON with two spaces, as the official CLI prints.
    assert!(r.stdout.contains("\n  \"balance\""), "{}", r.stdout);
}

/// `CONTENTHERO_BASE_URL` as the official client reads it (the host alone: it adds `/api/v1`) and as a
/// full base both reach the API; `auth status` shows the base the client uses.
#[tokio::test(flavor = "multi_thread")]
async fn the_base_url_may_be_the_host_alone_or_the_full_base() {
    let sb = TestSandbox::start().await;
    let full = sb.base_url();
    let host = full.strip_suffix("/api/v1").expect("a sandbox's base ends in /api/v1").to_string();
    let mut balances = Vec::new();
    for base in [host.clone(), format!("{host}/"), full.clone(), format!("{full}/")] {
        let env = Env::new().var("CONTENTHERO_API_KEY", &sb.key).var("CONTENTHERO_BASE_URL", &base);
        let r = env.run(&["account", "balance"]).await;
        assert_eq!(r.code, 0, "{base}: {}", r.stderr);
        balances.push(r.json());
        let s = env.run(&["auth", "status"]).await.json();
        assert_eq!((s["authenticated"].as_bool(), s["baseUrl"].as_str()), (Some(true), Some(full.as_str())), "{base}");
        let flag = Env::new().run(&["tag", "list", "--api-key", &sb.key, "--base-url", &base]).await;
        assert_eq!(flag.code, 0, "--base-url {base}: {}", flag.stderr);
    }
    assert!(balances.windows(2).all(|w| w[0] == w[1]), "{balances:?}");
}

#[tokio::test(flavor = "multi_thread")]
async fn the_key_ladder_flag_then_env_then_file_and_the_source_is_reported() {
    let sb = TestSandbox::start().await;
    let url = sb.base_url();
    let other = sb.key_with(&["planner:write"]);
    // Nothing anywhere: exit 3, saying what to set.
    // `auth status` prints the status (no key) and exits 3, as the exit codes say.
    let none = Env::new().run(&["auth", "status", "--base-url", &url]).await;
    assert_eq!(none.code, 3, "{}", none.stderr);
    assert_eq!((none.json()["keySource"].as_str(), none.json()["authenticated"].as_bool()), (Some("none"), Some(false)));
    assert!(none.err_json()["error"].as_str().unwrap().contains("cdesk login"), "{}", none.stderr);
    let r = Env::new().run(&["account", "balance", "--base-url", &url]).await;
    assert_eq!(r.code, 3, "{}", r.stderr);
    assert!(r.err_json()["error"].as_str().unwrap().contains("CONTENTHERO_API_KEY"), "{}", r.stderr);

    // File (0600).
    let env = Env::new();
    write_credentials(&env.config_dir(), &other, 0o600);
    let s = env.run(&["auth", "status", "--base-url", &url]).await;
    assert_eq!(s.code, 0, "{}", s.stderr);
    assert_eq!((s.json()["keySource"].as_str(), s.json()["authenticated"].as_bool()), (Some("file"), Some(true)));
    // Env beats the file; the flag beats both.
    let env = env.var("CONTENTHERO_API_KEY", &sb.key);
    assert_eq!(env.run(&["auth", "status", "--base-url", &url]).await.json()["keySource"], "env");
    let s = env.run(&["auth", "status", "--base-url", &url, "--api-key", "ch_live_wrong"]).await;
    assert_eq!(s.code, 3, "a wrong flag key is used, not skipped: {}", s.stderr);
    // The base URL from the environment.
    let e = Env::new().var("CONTENTHERO_API_KEY", &sb.key).var("CONTENTHERO_BASE_URL", &url);
    let s = e.run(&["auth", "status"]).await;
    assert_eq!((s.json()["keySource"].as_str(), s.json()["baseUrl"].as_str()), (Some("env"), Some(url.as_str())));
    // The key itself is never printed.
    assert!(!s.stdout.contains(&sb.key) && !s.stderr.contains(&sb.key));
}

#[tokio::test(flavor = "multi_thread")]
async fn a_credential_file_others_may_read_is_refused_with_the_chmod_to_run() {
    let sb = TestSandbox::start().await;
    let url = sb.base_url();
    let env = Env::new();
    write_credentials(&env.config_dir(), &sb.key, 0o644);
    let r = env.run(&["account", "balance", "--base-url", &url]).await;
    assert_eq!(r.code, 3, "{}", r.stderr);
    let msg = r.err_json()["error"].as_str().unwrap().to_string();
    assert!(msg.contains("chmod 600") && msg.contains("credentials"), "{msg}");
    assert!(!r.stderr.contains(&sb.key));
}

#[tokio::test(flavor = "multi_thread")]
async fn a_key_over_plain_http_to_another_host_is_refused_before_any_request() {
    let r = Env::new().run(&["account", "balance", "--api-key", "ch_live_secretvalue", "--base-url", "http://example.com/api/v1"]).await;
    assert_eq!(r.code, 1, "{}", r.stderr);
    assert!(r.stderr.contains("plain http") && !r.stderr.contains("secretvalue"), "{}", r.stderr);
}

#[tokio::test(flavor = "multi_thread")]
async fn exit_codes_2_for_a_400_3_for_a_403_naming_the_scope_1_for_a_404_5_for_a_409() {
    let sb = TestSandbox::start().await;
    let url = sb.base_url();
    let env = Env::new().var("CONTENTHERO_BASE_URL", &url);
    let all = [("CONTENTHERO_API_KEY", sb.key.as_str())];

    // 2: usage (clap) and a 400 the service sent, naming the field.
    let r = env.run_with(&all, &["card", "create", "Hi"]).await;
    assert_eq!(r.code, 2, "{}", r.stderr);
    let r = env.run_with(&all, &["generate", "image", "a mug", "--aspect", "7:3", "--cost"]).await;
    assert_eq!(r.code, 2, "{}", r.stderr);
    assert_eq!(r.err_json()["status"], 400);
    assert_eq!(r.err_json()["field"], "aspectRatio", "{}", r.stderr);

    // 3: a key without planner:write; the scope is named.
    let reader = sb.key_with(&["brandkit:read"]);
    let r = env.run_with(&[("CONTENTHERO_API_KEY", reader.as_str())], &["card", "create", "Hi", "--platform", "instagram"]).await;
    assert_eq!(r.code, 3, "{}", r.stderr);
    assert_eq!(r.err_json()["scope"], "planner:write", "{}", r.stderr);
    assert!(r.err_json()["error"].as_str().unwrap().contains("planner:write"));

    // 1: not found.
    let r = env.run_with(&all, &["card", "get", "no-such-card"]).await;
    assert_eq!((r.code, r.err_json()["status"].as_i64()), (1, Some(404)), "{}", r.stderr);

    // 5: notes written on a stale revision: the current notes come back, nothing is written.
    let made = env.run_with(&all, &["card", "create", "Notes race", "--platform", "instagram", "--notes", "first"]).await;
    assert_eq!(made.code, 0, "{}", made.stderr);
    let id = made.json()["id"].as_str().unwrap().to_string();
    let card = env.run_with(&all, &["card", "get", &id]).await.json();
    let rev = card["revision"].as_i64().unwrap_or_else(|| panic!("a revision: {card}"));
    let ok = env.run_with(&all, &["card", "update", &id, "--notes", "second", "--expected-revision", &rev.to_string()]).await;
    assert_eq!(ok.code, 0, "{}", ok.stderr);
    let stale = env.run_with(&all, &["card", "update", &id, "--notes", "mine", "--expected-revision", &rev.to_string()]).await;
    assert_eq!(stale.code, 5, "{}", stale.stderr);
    assert_eq!(stale.err_json()["notes"], "second");
    assert_eq!(env.run_with(&all, &["card", "get", &id]).await.json()["notes"], "second");
}

#[tokio::test(flavor = "multi_thread")]
async fn a_render_not_finished_in_time_exits_4_and_still_gives_its_output_id() {
    let sb = TestSandbox::start_with(Config {
        smart_wait: Duration::from_millis(50),
        render: contentdesk_sandbox::config::RenderTimes::all(Duration::from_secs(30)),
        ..Config::for_tests()
    })
    .await;
    let env = Env::new().var("CONTENTHERO_BASE_URL", &sb.base_url()).var("CONTENTHERO_API_KEY", &sb.key);
    let r = env.run(&["generate", "image", "a slow mug", "--timeout", "2"]).await;
    assert_eq!(r.code, 4, "{}", r.stderr);
    let out = r.json();
    assert!(out["outputId"].as_str().is_some_and(|s| s.len() >= 8), "{}", r.stdout);
    assert_eq!(r.err_json()["outputId"], out["outputId"]);
    // Follow it without waiting: the same id, still running.
    let id = out["outputId"].as_str().unwrap();
    let s = env.run(&["generation", "status", id, "--no-wait"]).await;
    assert_eq!((s.code, s.json()["outputId"].as_str()), (0, Some(id)), "{}", s.stderr);
}

#[tokio::test(flavor = "multi_thread")]
async fn a_generate_retried_with_the_same_output_id_is_charged_once() {
    let sb = TestSandbox::start().await;
    let env = Env::new().var("CONTENTHERO_BASE_URL", &sb.base_url()).var("CONTENTHERO_API_KEY", &sb.key);
    let quote = env.run(&["generate", "image", "a mug on a table", "--cost"]).await;
    assert_eq!(quote.code, 0, "{}", quote.stderr);
    let price = quote.json()["creditsEstimate"].as_f64().unwrap_or_else(|| panic!("a price: {}", quote.stdout));
    let before = sb.balance();
    assert_eq!(sb.balance(), before, "a quote charges nothing");
    let id = "4f1c1a52-2b7e-4d0c-9a8e-6d2f8f0c1a11";
    let first = env.run(&["generate", "image", "a mug on a table", "--output-id", id]).await;
    assert_eq!(first.code, 0, "{}", first.stderr);
    assert_eq!(first.json()["outputId"], id);
    assert_eq!(first.json()["status"], "completed");
    let again = env.run(&["generate", "image", "a mug on a table", "--output-id", id]).await;
    assert_eq!(again.code, 0, "{}", again.stderr);
    assert_eq!(before - sb.balance(), price, "one charge for two submissions of one outputId");
}

#[tokio::test(flavor = "multi_thread")]
async fn card_list_all_pages_through_every_card() {
    let sb = TestSandbox::start().await;
    let env = Env::new().var("CONTENTHERO_BASE_URL", &sb.base_url()).var("CONTENTHERO_API_KEY", &sb.key);
    for i in 0..130 {
        let r = env.run(&["card", "create", &format!("Bulkcard {i}"), "--platform", "tiktok"]).await;
        assert_eq!(r.code, 0, "{}", r.stderr);
    }
    // A page prints the bare array (as the official CLI prints lists); that there is more is said on
    // stderr with --verbose (piped without it, stderr stays quiet), and --envelope prints the service's
    // envelope with its paging fields.
    let one = env.run(&["card", "list", "--search", "Bulkcard", "--limit", "10"]).await;
    assert_eq!((one.code, one.stderr.as_str()), (0, ""));
    assert_eq!(one.json().as_array().unwrap().len(), 10);
    let told = env.run(&["card", "list", "--search", "Bulkcard", "--limit", "10", "--verbose"]).await;
    assert!(told.stderr.contains("10 of 130 listed, there are more: --offset 10"), "{}", told.stderr);
    assert_eq!(told.json(), one.json());
    let enveloped = env.run(&["card", "list", "--search", "Bulkcard", "--limit", "10", "--envelope"]).await.json();
    assert_eq!((enveloped["total"].as_i64(), enveloped["hasMore"].as_bool()), (Some(130), Some(true)));
    assert_eq!(enveloped["cards"], one.json());
    let all = env.run(&["card", "list", "--search", "Bulkcard", "--all", "--verbose"]).await;
    assert_eq!(all.code, 0, "{}", all.stderr);
    assert!(!all.stderr.contains("there are more"), "every page fetched: {}", all.stderr);
    let cards = all.json().as_array().unwrap().clone();
    assert_eq!(cards.len(), 130);
    let mut ids: Vec<&str> = cards.iter().map(|c| c["id"].as_str().unwrap()).collect();
    ids.sort_unstable();
    ids.dedup();
    assert_eq!(ids.len(), 130, "no card twice");
}

#[tokio::test(flavor = "multi_thread")]
async fn schema_describes_every_command_and_completions_print() {
    let env = Env::new();
    let all = env.run(&["schema"]).await.json();
    let all = all.as_array().unwrap();
    assert_eq!(all.len(), contentdesk_ops::catalogue().len());
    for c in all {
        assert_eq!(c["input"]["type"], "object", "{c}");
        assert!(c["summary"].as_str().is_some_and(|s| !s.is_empty()));
    }
    let one = env.run(&["schema", "card", "update"]).await.json();
    assert_eq!(one["tool"], "update_card");
    assert_eq!(one["effect"], "write");
    for field in ["cardId", "title", "stage", "posts", "assets", "expectedRevision"] {
        assert!(one["input"]["properties"][field].is_object(), "{field}: {}", one["input"]);
    }
    let gen = env.run(&["schema", "generate", "image"]).await.json();
    assert_eq!(gen["effect"], "spend");
    assert!(gen["input"]["properties"]["getCost"].is_object());
    for shell in ["bash", "zsh", "fish"] {
        let c = env.run(&["completions", shell]).await;
        assert_eq!(c.code, 0);
        assert!(c.stdout.contains("cdesk") && c.stdout.contains("generate"), "{shell}");
    }
    let help = env.run(&["--help"]).await;
    assert_eq!(help.code, 0);
    assert!(help.stdout.contains("Exit codes"));
    let bad = env.run(&["card", "fly"]).await;
    assert_eq!(bad.code, 2, "{}", bad.stderr);
}


#[tokio::test(flavor = "multi_thread")]
async fn login_with_a_key_checks_it_first_stores_it_0600_and_logout_removes_it() {
    use std::os::unix::fs::PermissionsExt;
    let sb = TestSandbox::start().await;
    let url = sb.base_url();
    let env = Env::new();
    let creds = env.config_dir().join("credentials");
    // A refused key stores nothing.
    let bad = env.run(&["login", "--with-key", "ch_live_not_a_key", "--file", "--base-url", &url]).await;
    assert_eq!(bad.code, 3, "{}", bad.stderr);
    assert!(!creds.exists(), "nothing stored for a refused key");
    assert!(!bad.stderr.contains("ch_live_not_a_key"), "the key is not echoed: {}", bad.stderr);
    // An empty key is a usage error.
    let empty = env.run(&["login", "--with-key", " ", "--file", "--base-url", &url]).await;
    assert_eq!(empty.code, 2, "{}", empty.stderr);
    // A good key: checked, stored in the file at 0600 in a 0700 folder, and used.
    let ok = env.run(&["login", "--with-key", &sb.key, "--file", "--base-url", &url]).await;
    assert_eq!(ok.code, 0, "{}", ok.stderr);
    let v = ok.json();
    assert_eq!((v["authenticated"].as_bool(), v["storedIn"].as_str()), (Some(true), Some("file")));
    assert!(!ok.stdout.contains(&sb.key));
    assert_eq!(std::fs::metadata(&creds).unwrap().permissions().mode() & 0o777, 0o600);
    assert_eq!(std::fs::metadata(env.config_dir()).unwrap().permissions().mode() & 0o777, 0o700);
    let saved: Value = serde_json::from_str(&std::fs::read_to_string(&creds).unwrap()).unwrap();
    assert_eq!(saved["apiKey"], sb.key.as_str());
    let s = env.run(&["auth", "status", "--base-url", &url]).await;
    assert_eq!((s.json()["keySource"].as_str(), s.json()["authenticated"].as_bool()), (Some("file"), Some(true)));
    // Logout removes it; then there is no key.
    let out = env.run(&["logout"]).await;
    assert_eq!(out.code, 0, "{}", out.stderr);
    assert_eq!(out.json()["removed"], serde_json::json!(["file"]));
    assert!(!creds.exists());
    assert_eq!(env.run(&["auth", "status", "--base-url", &url]).await.json()["keySource"], "none");
}

#[tokio::test(flavor = "multi_thread")]
async fn a_429_is_waited_out_and_said_on_stderr() {
    let sb = TestSandbox::start_with(Config {
        rate_limit: Some(contentdesk_sandbox::RateLimit { requests: 2, window: Duration::from_secs(2) }),
        ..Config::for_tests()
    })
    .await;
    let env = Env::new().var("CONTENTHERO_BASE_URL", &sb.base_url()).var("CONTENTHERO_API_KEY", &sb.key);
    for _ in 0..2 {
        assert_eq!(env.run(&["account", "balance"]).await.code, 0);
    }
    let r = env.run(&["account", "balance", "--verbose"]).await;
    assert_eq!(r.code, 0, "the third call waits and succeeds: {}", r.stderr);
    assert!(r.stderr.contains("rate limited by the service: waiting"), "{}", r.stderr);
    assert_eq!(r.json()["balance"].as_f64(), Some(sb.balance()));
}

/// `cdesk mcp --http` acts only with each client's OAuth grant: a key on its command line is refused as a
/// usage error before anything starts (and not echoed); one in the environment is named as unused.
#[tokio::test]
async fn the_hosted_mcp_server_refuses_an_api_key() {
    let env = Env::new();
    let secret = "ch_live_NotUsedByTheHostedServer000000";
    let run = env.run(&["mcp", "--http", "127.0.0.1:0", "--issuer", "http://127.0.0.1:1", "--api-key", secret]).await;
    assert_eq!(run.code, 2, "stderr: {}", run.stderr);
    assert!(run.stderr.contains("takes no API key"), "{}", run.stderr);
    assert!(!run.stderr.contains(secret) && !run.stdout.contains(secret));
    // From the environment: said on stderr, then the server goes on to its issuer (none here: exit 1).
    let run = env.run_with(&[("CONTENTHERO_API_KEY", secret)], &["mcp", "--http", "127.0.0.1:0", "--issuer", "http://127.0.0.1:1"]).await;
    assert_eq!(run.code, 1, "stderr: {}", run.stderr);
    assert!(run.stderr.contains("CONTENTHERO_API_KEY is set and not used"), "{}", run.stderr);
    assert!(!run.stderr.contains(secret));
}
