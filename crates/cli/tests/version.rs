//! One version (issue 24, point 3): the workspace's `version` (`[workspace.package]` in the root
//! Cargo.toml) is what `cdesk --version` prints, what `cdesk mcp` names in its `serverInfo`, and what the
//! man pages carry. (The app's `tauri.conf.json` and `app_info`: src-tauri/tests/version.rs; the HTTP
//! User-Agent: crates/api-client/tests/transport.rs; the package: tests/package/run.sh.)
use serde_json::{json, Value};
use std::io::{BufRead, BufReader, Write};
use std::process::{Command, Stdio};

/// The root Cargo.toml's `[workspace.package]` version, read as text (not through Cargo's env, which is
/// what is being checked).
fn workspace_version() -> String {
    let toml = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/../../Cargo.toml")).unwrap();
    let section = toml.split("[workspace.package]").nth(1).expect("a [workspace.package] section");
    let line = section.lines().find(|l| l.trim_start().starts_with("version")).expect("a version");
    line.split('"').nth(1).expect("a quoted version").to_string()
}

fn temp_dir(tag: &str) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("cdesk-{tag}-{}-{:?}", std::process::id(), std::thread::current().id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

#[test]
fn cdesk_version_prints_the_workspace_version() {
    let out = Command::new(env!("CARGO_BIN_EXE_cdesk")).arg("--version").output().unwrap();
    assert!(out.status.success());
    assert_eq!(String::from_utf8_lossy(&out.stdout).trim(), format!("cdesk {}", workspace_version()));
}

#[test]
fn the_mcp_server_info_names_the_workspace_version() {
    let home = temp_dir("mcp-version");
    let mut child = Command::new(env!("CARGO_BIN_EXE_cdesk"))
        .arg("mcp")
        .env_clear()
        .env("PATH", std::env::var("PATH").unwrap_or_default())
        .env("HOME", &home)
        .env("CONTENTHERO_CONFIG_DIR", home.join("contenthero"))
        .env("CONTENTDESK_DATA_DIR", home.join("app"))
        // `initialize` needs no call to the service: a key and a base URL nothing listens on will do.
        .env("CONTENTHERO_API_KEY", "chk_version_test")
        .env("CONTENTHERO_BASE_URL", "http://127.0.0.1:9/api/v1")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let init = json!({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
        "protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {"name": "version-test", "version": "1"}}});
    let mut stdin = child.stdin.take().unwrap();
    writeln!(stdin, "{init}").unwrap();
    let mut line = String::new();
    BufReader::new(child.stdout.take().unwrap()).read_line(&mut line).unwrap();
    drop(stdin);
    let _ = child.kill();
    let _ = child.wait();
    let _ = std::fs::remove_dir_all(&home);
    let reply: Value = serde_json::from_str(&line).unwrap_or_else(|e| panic!("not JSON-RPC ({e}): {line}"));
    assert_eq!(reply["result"]["serverInfo"]["name"], "cdesk", "{reply}");
    assert_eq!(reply["result"]["serverInfo"]["version"], workspace_version(), "{reply}");
}

#[test]
fn man_pages_are_cdesk_1_and_one_per_command_group_with_the_version() {
    let dir = temp_dir("man");
    let out = Command::new(env!("CARGO_BIN_EXE_cdesk")).args(["__man"]).arg(&dir).stdout(Stdio::null()).output().unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let root = std::fs::read_to_string(dir.join("cdesk.1")).expect("cdesk.1");
    assert!(root.contains(&format!("cdesk {}", workspace_version())), "the page's source line names the version");
    // One page per group the root page lists (the shell's own commands too), never the hidden one.
    for group in ["card", "generate", "brand-kit", "account", "mcp", "login", "completions", "schema"] {
        let page = std::fs::read_to_string(dir.join(format!("cdesk-{group}.1"))).unwrap_or_else(|_| panic!("cdesk-{group}.1"));
        assert!(page.starts_with(".ie") || page.contains(".TH"), "cdesk-{group}.1 is a man page");
        // roff writes a hyphen as `\-`: cdesk.1 refers to the group's page as `cdesk\-brand\-kit(1)`.
        let reference = format!("cdesk\\-{}(1)", group.replace('-', "\\-"));
        assert!(root.contains(&reference), "cdesk.1 refers to {reference}");
    }
    assert!(!dir.join("cdesk-__man.1").exists() && !root.contains("__man"), "the packagers' command stays hidden");
    let _ = std::fs::remove_dir_all(&dir);
}
