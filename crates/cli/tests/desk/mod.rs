//! The harness of the studio, media and brand-kit tests: `cdesk` as a separate process against one
//! sandbox, with an empty HOME, config folder and app data folder (so no key of this machine is found by
//! accident), the base URL and a key in the environment, and what a test reads back from the sandbox's
//! own database to check that the process did what it said.
#![allow(dead_code)]
use contentdesk_sandbox::db::CachedRow as _;
use contentdesk_sandbox::testing::TestSandbox;
use serde_json::Value;
use std::io::Write;
use std::path::PathBuf;
use std::process::Stdio;

pub struct Run {
    pub code: i32,
    pub stdout: String,
    pub stderr: String,
}

impl Run {
    /// The JSON on stdout of a run that must have succeeded with nothing on stderr (piped).
    #[track_caller]
    pub fn ok(&self) -> Value {
        assert_eq!(self.stderr, "", "piped: stderr stays quiet on success (exit {})", self.code);
        self.json()
    }
    /// The JSON on stdout of a run that must have succeeded (stderr may talk, e.g. `--save`).
    #[track_caller]
    pub fn json(&self) -> Value {
        assert_eq!(self.code, 0, "exit {}: {}", self.code, self.stderr);
        serde_json::from_str(&self.stdout).unwrap_or_else(|e| panic!("stdout is not JSON ({e}): {}", self.stdout))
    }
    /// The `{error, exitCode, …}` on stderr of a run that must have failed with `code`.
    #[track_caller]
    pub fn fails(&self, code: i32) -> Value {
        assert_eq!(self.code, code, "stdout: {}\nstderr: {}", self.stdout, self.stderr);
        let v: Value = serde_json::from_str(self.stderr.trim()).unwrap_or_else(|e| panic!("stderr is not JSON ({e}): {}", self.stderr));
        assert_eq!(v["exitCode"], code, "{v}");
        v
    }
}

pub struct Desk {
    pub dir: PathBuf,
    url: String,
    key: String,
}

impl Desk {
    pub fn new(sb: &TestSandbox) -> Desk {
        let nanos = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).unwrap().as_nanos();
        let dir = std::env::temp_dir().join(format!("cdesk-studio-{}-{nanos}", std::process::id()));
        std::fs::create_dir_all(dir.join("home")).unwrap();
        Desk { dir, url: sb.base_url(), key: sb.key.clone() }
    }

    /// No service of its own: for the app's local sandbox in this run's data folder (`--sandbox`), with
    /// no base URL or key in the environment.
    pub fn local() -> Desk {
        let nanos = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).unwrap().as_nanos();
        let dir = std::env::temp_dir().join(format!("cdesk-local-{}-{nanos}", std::process::id()));
        std::fs::create_dir_all(dir.join("home")).unwrap();
        Desk { dir, url: String::new(), key: String::new() }
    }

    /// The app's data folder this run's cdesk uses (`CONTENTDESK_DATA_DIR`).
    pub fn data_dir(&self) -> PathBuf {
        self.dir.join("app")
    }

    /// The keyring service this run's cdesk reads (`CONTENTDESK_KEYRING_SERVICE`).
    pub fn keyring_service(&self) -> String {
        format!("cdesk-studio-test-{}", std::process::id())
    }

    /// `cdesk ARGS` as a command, for a test that drives the process itself (stdin, kill).
    pub fn command(&self, args: &[&str]) -> std::process::Command {
        let mut cmd = std::process::Command::new(env!("CARGO_BIN_EXE_cdesk"));
        cmd.args(args)
            .env_clear()
            .env("PATH", std::env::var("PATH").unwrap_or_default())
            .env("HOME", self.dir.join("home"))
            .env("CONTENTHERO_CONFIG_DIR", self.dir.join("contenthero"))
            .env("CONTENTDESK_DATA_DIR", self.data_dir())
            .env("CONTENTDESK_KEYRING_SERVICE", self.keyring_service())
            // A date alone is 00:00 this computer's time: UTC here, whatever the machine's zone.
            .env("TZ", "UTC");
        if !self.url.is_empty() {
            cmd.env("CONTENTHERO_BASE_URL", &self.url);
        }
        cmd
    }

    /// A path in this run's own folder.
    pub fn path(&self, name: &str) -> PathBuf {
        self.dir.join(name)
    }

    pub async fn run(&self, args: &[&str]) -> Run {
        self.exec(&self.key.clone(), args, None).await
    }

    pub async fn run_as(&self, key: &str, args: &[&str]) -> Run {
        self.exec(key, args, None).await
    }

    /// With `input` on stdin.
    pub async fn run_stdin(&self, args: &[&str], input: &str) -> Run {
        self.exec(&self.key.clone(), args, Some(input.to_string())).await
    }

    /// One agent tool called through `cdesk mcp` (stdio, this run's key): the `tools/call` reply's
    /// `result` (`isError` true for a refusal, its text saying why).
    pub async fn tool(&self, name: &str, arguments: Value) -> Value {
        use std::io::{BufRead, BufReader};
        let mut cmd = self.command(&["mcp"]);
        cmd.env("CONTENTHERO_API_KEY", &self.key).stdin(Stdio::piped()).stdout(Stdio::piped()).stderr(Stdio::null());
        let call = serde_json::json!({"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":name,"arguments":arguments}});
        tokio::task::spawn_blocking(move || {
            let mut child = cmd.spawn().expect("cdesk mcp runs");
            let mut stdin = child.stdin.take().expect("stdin");
            let mut stdout = BufReader::new(child.stdout.take().expect("stdout"));
            let init = serde_json::json!({"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"test","version":"0"}}});
            for msg in [init, serde_json::json!({"jsonrpc":"2.0","method":"notifications/initialized"}), call] {
                writeln!(stdin, "{msg}").expect("write stdin");
            }
            stdin.flush().expect("flush");
            let mut line = String::new();
            let reply = loop {
                line.clear();
                if stdout.read_line(&mut line).expect("read stdout") == 0 {
                    break Value::Null;
                }
                let v: Value = serde_json::from_str(&line).unwrap_or_else(|e| panic!("{e}: {line}"));
                if v["id"] == 2 {
                    break v["result"].clone();
                }
            };
            drop(stdin);
            let _ = child.kill();
            let _ = child.wait();
            assert!(!reply.is_null(), "cdesk mcp ended without answering the call");
            reply
        })
        .await
        .unwrap()
    }

    async fn exec(&self, key: &str, args: &[&str], input: Option<String>) -> Run {
        let mut cmd = self.command(args);
        if !key.is_empty() {
            cmd.env("CONTENTHERO_API_KEY", key);
        }
        cmd.stdin(if input.is_some() { Stdio::piped() } else { Stdio::null() })
            .stdout(Stdio::piped())
            .stderr(Stdio::piped());
        let out = tokio::task::spawn_blocking(move || {
            let mut child = cmd.spawn().expect("cdesk runs");
            if let Some(text) = input {
                let mut stdin = child.stdin.take().expect("stdin");
                stdin.write_all(text.as_bytes()).expect("write stdin");
            }
            child.wait_with_output().expect("cdesk ends")
        })
        .await
        .unwrap();
        Run {
            code: out.status.code().unwrap_or(-1),
            stdout: String::from_utf8_lossy(&out.stdout).into_owned(),
            stderr: String::from_utf8_lossy(&out.stderr).into_owned(),
        }
    }
}

impl Drop for Desk {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.dir);
    }
}

/// The bytes the sandbox serves at a file URL (`…/files/<name>`), read from its database.
pub fn stored_bytes(sb: &TestSandbox, url: &str) -> Vec<u8> {
    let name = url.rsplit('/').next().unwrap().to_string();
    let conn = sb.state().db().lock();
    conn.cached_row("SELECT bytes FROM stored_files WHERE name = ?1", [&name], |r| r.get(0))
        .unwrap_or_else(|e| panic!("no stored file {name}: {e}"))
}

/// The request body the sandbox stored for a render.
pub fn stored_request(sb: &TestSandbox, output_id: &str) -> Value {
    let conn = sb.state().db().lock();
    let text: String = conn
        .cached_row("SELECT request FROM generations WHERE id = ?1", [output_id], |r| r.get(0))
        .unwrap_or_else(|e| panic!("no generation {output_id}: {e}"));
    serde_json::from_str(&text).unwrap()
}

/// How many renders the account has.
pub fn generation_count(sb: &TestSandbox) -> i64 {
    let conn = sb.state().db().lock();
    conn.cached_row("SELECT COUNT(*) FROM generations WHERE account_id = ?1", [&sb.account_id], |r| r.get(0)).unwrap()
}
