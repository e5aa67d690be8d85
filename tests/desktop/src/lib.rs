//! The harness of the desktop journeys (`tests/journeys.rs`): the app's release or debug binary under
//! Xvfb, driven over WebDriver (tauri-driver + Debian's WebKitWebDriver), a second sandbox playing the
//! remote service, keys in a real Secret Service. scripts/desktop-e2e.sh builds the binaries and runs
//! the journeys inside `dbus-run-session` with an unlocked gnome-keyring.
//!
//! Env: CONTENTDESK_APP_BIN, CONTENTDESK_SANDBOX_BIN, E2E_ARTIFACTS, E2E_SECRETS_FILE,
//! CONTENTDESK_KEYRING_SERVICE, TAURI_DRIVER (optional).
use fantoccini::{elements::Element, Client, ClientBuilder, Locator};
use std::io::{BufRead, BufReader};
use std::os::unix::process::CommandExt;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

/// An environment variable the run needs; its absence says how to run the journeys.
pub fn env(name: &str) -> String {
    std::env::var(name).unwrap_or_else(|_| panic!("{name} is not set: run scripts/desktop-e2e.sh"))
}

/// A child in its own process group, ended with the whole group (tauri-driver's WebKitWebDriver and
/// the app it launched must not outlive a failed test and hold their ports).
pub struct Kill(pub Child);
impl Drop for Kill {
    fn drop(&mut self) {
        // `--` before the negative id: procps' `kill -TERM -<pgid>` reads the id as an option and signals
        // every process there is (kill(-1)), which ended whole CI runs.
        let _ = Command::new("kill").args(["-s", "TERM", "--", &format!("-{}", self.0.id())]).status();
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

/// A loopback port free right now.
pub fn free_port() -> u16 {
    std::net::TcpListener::bind("127.0.0.1:0").unwrap().local_addr().unwrap().port()
}

/// A second sandbox playing the remote service: (process, base URL, full key).
pub fn remote_sandbox(dir: &std::path::Path) -> (Kill, String, String) {
    let mut child = Command::new(env("CONTENTDESK_SANDBOX_BIN"))
        .process_group(0)
        .args(["serve", "--db"])
        .arg(dir.join("remote.db"))
        .args(["--addr", "127.0.0.1:0", "--seed", "demo", "--ready-json"])
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("sandbox starts");
    let mut lines = BufReader::new(child.stdout.take().unwrap()).lines();
    let (mut url, mut key) = (String::new(), String::new());
    // The one JSON line `--ready-json` prints once it serves.
    while let Some(Ok(line)) = lines.next() {
        if let Ok(ready) = serde_json::from_str::<serde_json::Value>(&line) {
            url = ready["url"].as_str().unwrap_or_default().to_string();
            key = ready["key"].as_str().unwrap_or_default().to_string();
            break;
        }
    }
    assert!(!url.is_empty() && !key.is_empty(), "the remote sandbox printed its URL and key");
    std::thread::spawn(move || for _ in lines {});
    (Kill(child), url, key)
}

/// tauri-driver on `port` (Debian's WebKitWebDriver behind it); the app it launches keeps its data in
/// `data_dir` and renders at a pace the run can wait for. Returns once the driver listens.
pub fn tauri_driver(port: u16, data_dir: &std::path::Path) -> Kill {
    let child = Command::new(std::env::var("TAURI_DRIVER").unwrap_or_else(|_| "tauri-driver".into()))
        .args(["--port", &port.to_string(), "--native-port", &free_port().to_string()])
        .args(["--native-driver", "/usr/bin/WebKitWebDriver"])
        .process_group(0)
        .env("CONTENTDESK_DATA_DIR", data_dir)
        // The embedded sandbox renders images in 1.5 s and answers generate after 0.8 s, so the studio's
        // render goes through the queue (polled by the core, events to the window) within the run.
        .env("CONTENTDESK_SANDBOX_RENDER_MS", "image:1500,video:4000")
        .env("CONTENTDESK_SANDBOX_SMART_WAIT_MS", "800")
        // Never our stdin: the driver and the app it launches must not read what is meant for the shell.
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::inherit())
        .spawn()
        .expect("tauri-driver starts (cargo install tauri-driver)");
    let deadline = Instant::now() + Duration::from_secs(20);
    while std::net::TcpStream::connect(("127.0.0.1", port)).is_err() {
        assert!(Instant::now() < deadline, "tauri-driver did not listen");
        std::thread::sleep(Duration::from_millis(100));
    }
    Kill(child)
}

/// A WebDriver session on a fresh launch of the app (CONTENTDESK_APP_BIN).
pub async fn session(port: u16) -> Client {
    // Two TLS providers are linked (reqwest's and fantoccini's): name one. The driver is plain HTTP anyway.
    let _ = rustls::crypto::ring::default_provider().install_default();
    let mut caps = serde_json::Map::new();
    caps.insert("browserName".into(), "wry".into());
    caps.insert("tauri:options".into(), serde_json::json!({ "application": env("CONTENTDESK_APP_BIN") }));
    ClientBuilder::rustls()
        .expect("tls")
        .capabilities(caps)
        .connect(&format!("http://127.0.0.1:{port}"))
        .await
        .expect("a WebDriver session on the app")
}

/// The first element matching `css`, waiting 30 s at most.
pub async fn wait_css(c: &Client, css: &str) -> Element {
    c.wait().at_most(Duration::from_secs(30)).for_element(Locator::Css(css)).await.unwrap_or_else(|e| panic!("{css}: {e}"))
}

/// The first element matching `css` whose text contains `needle`, waiting 30 s at most.
pub async fn wait_text(c: &Client, css: &str, needle: &str) -> Element {
    let deadline = Instant::now() + Duration::from_secs(30);
    loop {
        for e in c.find_all(Locator::Css(css)).await.unwrap_or_default() {
            if e.text().await.unwrap_or_default().contains(needle) {
                return e;
            }
        }
        assert!(Instant::now() < deadline, "no {css} containing {needle:?}");
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
}

/// A screenshot and the DOM of the page, as `<name>.png` and `<name>.html` in `dir`.
pub async fn save(c: &Client, dir: &std::path::Path, name: &str) {
    tokio::time::sleep(Duration::from_millis(300)).await; // WebKit may hand back the previous frame
    let png = c.screenshot().await.expect("screenshot");
    std::fs::write(dir.join(format!("{name}.png")), png).unwrap();
    std::fs::write(dir.join(format!("{name}.html")), c.source().await.unwrap_or_default()).unwrap();
}

/// Where a point of an element is on the X screen: the window's place plus the element's place in the
/// page; `fx`, `fy` are fractions of its width and height.
pub async fn screen_point(c: &Client, e: &Element, fx: f64, fy: f64) -> (i64, i64) {
    let js = "const r = arguments[0].getBoundingClientRect(); \
              return [window.screenX, window.screenY + (window.outerHeight - window.innerHeight), r.left, r.top, r.width, r.height];";
    let v = c.execute(js, vec![serde_json::to_value(e).unwrap()]).await.expect("element rect");
    let n: Vec<f64> = v.as_array().unwrap().iter().map(|x| x.as_f64().unwrap_or(0.0)).collect();
    ((n[0] + n[2] + n[4] * fx).round() as i64, (n[1] + n[3] + n[5] * fy).round() as i64)
}

/// The accounts the Secret Service holds for `service` (read with `secret-tool`).
pub fn secret_accounts(service: &str) -> Vec<String> {
    let out = Command::new("secret-tool").args(["search", "--all", "service", service]).output().expect("secret-tool");
    let text = String::from_utf8_lossy(&out.stdout).to_string() + &String::from_utf8_lossy(&out.stderr);
    text.lines().filter_map(|l| l.strip_prefix("attribute.username = ").map(|s| s.trim().to_string())).collect()
}
