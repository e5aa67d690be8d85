//! `cdesk version --check` (issue 24, point 4): the app's update check from a terminal, against a real
//! HTTP server on loopback serving `latest.json` (CONTENTDESK_UPDATE_URL). JSON when piped, a sentence with
//! --human; exit 0 when the check answered, 1 when it could not. (The check itself, with a key pair made at
//! test time: crates/core/tests/update.rs.)
use serde_json::Value;
use std::io::{Read, Write};
use std::process::Command;

/// A signature by a key that is not Content Desk's (made with `cargo tauri signer generate`, its secret
/// half thrown away).
const FOREIGN_SIGNATURE: &str = "dW50cnVzdGVkIGNvbW1lbnQ6IHNpZ25hdHVyZSBmcm9tIHRhdXJpIHNlY3JldCBrZXkKUlVTSzlCZHFEa0l4MWp4WEtZYUk2SlJDUHVZSFVDRTc5dWVmQm9Ic1pxWXlJUzgrV3NmWUw1VEhRMTdEaXlHaVRMK2JLTlNIc2ZEdjRFRU94bFNDNURqNjNmSE1BZDFQb0FJPQp0cnVzdGVkIGNvbW1lbnQ6IHRpbWVzdGFtcDoxNzk1NzkyOTY3CWZpbGU6ZgpMVjhFbVFKTTU1aGoxZVNHZFVIWEkyVVhGWkJ3amljZ1U1aG5TWmQrZW44N2U5U1hZV1Q0RzNoSzhGdEZXSzU3VWVRd0R5Y0piTWZZUEZncU5PSUREUT09Cg==";

/// Serves `body` to every request, on a thread, until the test ends.
fn serve(body: String) -> String {
    let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let addr = listener.local_addr().unwrap();
    std::thread::spawn(move || {
        for stream in listener.incoming() {
            let Ok(mut s) = stream else { continue };
            let mut buf = [0u8; 4096];
            let _ = s.read(&mut buf);
            let _ = write!(s, "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{body}", body.len());
        }
    });
    format!("http://{addr}/latest.json")
}

fn manifest(version: &str) -> String {
    serde_json::json!({
        "version": version, "notes": "Faster board.", "pub_date": "2026-11-27T12:00:00Z",
        "platforms": { "linux-x86_64": { "signature": FOREIGN_SIGNATURE, "url": "http://127.0.0.1:9/a.deb" },
                       "darwin-aarch64": { "signature": FOREIGN_SIGNATURE, "url": "http://127.0.0.1:9/a.tar.gz" },
                       "windows-x86_64": { "signature": FOREIGN_SIGNATURE, "url": "http://127.0.0.1:9/a.exe" } }
    })
    .to_string()
}

fn check(url: &str, extra: &[&str]) -> (i32, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_cdesk"))
        .args(["version", "--check"])
        .args(extra)
        .env("CONTENTDESK_UPDATE_URL", url)
        .output()
        .unwrap();
    (out.status.code().unwrap_or(-1), String::from_utf8_lossy(&out.stdout).into_owned())
}

#[test]
fn up_to_date_when_the_manifest_names_this_version_or_an_older_one() {
    let (code, out) = check(&serve(manifest("0.0.1")), &[]);
    assert_eq!(code, 0, "{out}");
    let v: Value = serde_json::from_str(&out).expect("JSON when piped");
    assert_eq!(v["state"], "upToDate");
    assert_eq!(v["current"], env!("CARGO_PKG_VERSION"));
    let (code, out) = check(&serve(manifest(env!("CARGO_PKG_VERSION"))), &["--human"]);
    assert_eq!((code, out.trim()), (0, format!("Content Desk {} is up to date.", env!("CARGO_PKG_VERSION")).as_str()));
}

#[test]
fn a_newer_version_signed_by_another_key_is_refused() {
    let (code, out) = check(&serve(manifest("99.0.0")), &[]);
    assert_eq!(code, 1, "{out}");
    let v: Value = serde_json::from_str(&out).unwrap();
    assert_eq!(v["state"], "failed");
    assert_eq!(v["note"], "The update to 99.0.0 is not signed with Content Desk's key, so it was refused. Nothing was changed.");
    assert_eq!(v["version"], Value::Null, "a refused version is not offered");
}

#[test]
fn a_server_that_is_down_or_answers_garbage_is_a_note_and_exit_1() {
    let dead = {
        let l = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
        format!("http://{}/latest.json", l.local_addr().unwrap())
    };
    let (code, out) = check(&dead, &["--human"]);
    assert_eq!((code, out.trim()), (1, "Could not reach the update server (no network, or the server is down). Nothing was changed."));
    let (code, out) = check(&serve("<html>oops</html>".into()), &["--json"]);
    assert_eq!(code, 1);
    assert_eq!(serde_json::from_str::<Value>(&out).unwrap()["note"], "The update server's answer is not an update manifest. Nothing was changed.");
}

#[test]
fn without_check_it_prints_the_version() {
    let out = Command::new(env!("CARGO_BIN_EXE_cdesk")).args(["version", "--json"]).output().unwrap();
    assert!(out.status.success());
    assert_eq!(serde_json::from_slice::<Value>(&out.stdout).unwrap()["version"], env!("CARGO_PKG_VERSION"));
}
