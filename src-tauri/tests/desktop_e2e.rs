//! The real window: the release or debug binary under Xvfb, driven over WebDriver (tauri-driver +
//! Debian's WebKitWebDriver), with keys in a real Secret Service. Run by scripts/desktop-e2e.sh inside
//! `dbus-run-session` with an unlocked gnome-keyring; skipped (saying why) unless
//! `CONTENTDESK_DESKTOP_E2E=1`.
//!
//! Env: CONTENTDESK_APP_BIN, CONTENTDESK_SANDBOX_BIN, E2E_ARTIFACTS, E2E_SECRETS_FILE,
//! CONTENTDESK_KEYRING_SERVICE.
use fantoccini::{elements::Element, Client, ClientBuilder, Locator};
use std::io::{BufRead, BufReader};
use std::path::PathBuf;
use std::os::unix::process::CommandExt;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

fn env(name: &str) -> String {
    std::env::var(name).unwrap_or_else(|_| panic!("{name} is not set: run scripts/desktop-e2e.sh"))
}

/// A child in its own process group, ended with the whole group (tauri-driver's WebKitWebDriver and
/// the app it launched must not outlive a failed test and hold their ports).
struct Kill(Child);
impl Drop for Kill {
    fn drop(&mut self) {
        // `--` before the negative id: procps' `kill -TERM -<pgid>` reads the id as an option and signals
        // every process there is (kill(-1)), which ended whole CI runs.
        let _ = Command::new("kill").args(["-s", "TERM", "--", &format!("-{}", self.0.id())]).status();
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

fn free_port() -> u16 {
    std::net::TcpListener::bind("127.0.0.1:0").unwrap().local_addr().unwrap().port()
}

/// A second sandbox playing the remote service: (process, base URL, full key).
fn remote_sandbox(dir: &std::path::Path) -> (Kill, String, String) {
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

fn tauri_driver(port: u16, data_dir: &std::path::Path) -> Kill {
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

async fn session(port: u16) -> Client {
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

async fn wait_css(c: &Client, css: &str) -> Element {
    c.wait().at_most(Duration::from_secs(30)).for_element(Locator::Css(css)).await.unwrap_or_else(|e| panic!("{css}: {e}"))
}

async fn wait_text(c: &Client, css: &str, needle: &str) -> Element {
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

async fn save(c: &Client, dir: &std::path::Path, name: &str) {
    tokio::time::sleep(Duration::from_millis(300)).await; // WebKit may hand back the previous frame
    let png = c.screenshot().await.expect("screenshot");
    std::fs::write(dir.join(format!("{name}.png")), png).unwrap();
    std::fs::write(dir.join(format!("{name}.html")), c.source().await.unwrap_or_default()).unwrap();
}

/// The first card of the first column that has one, dropped on the next column: it lands at the end of
/// that column at once, stays there (the service took it), and a reload shows it there.
async fn drag_a_card_to_the_next_column(c: &Client, artifacts: &std::path::Path) {
    let columns = c.find_all(Locator::Css("section.column[data-stage-id]")).await.unwrap();
    let mut pick = None;
    for (i, col) in columns.iter().enumerate().take(columns.len().saturating_sub(1)) {
        if let Ok(tile) = col.find(Locator::Css("[data-card-id]")).await {
            pick = Some((i, tile));
            break;
        }
    }
    let (i, tile) = pick.expect("the demo board has a card in a column with a column after it");
    let card_id = tile.attr("data-card-id").await.unwrap().unwrap();
    let target_stage = columns[i + 1].attr("data-stage-id").await.unwrap().unwrap();
    // WebKitGTK's WebDriver does not start a native drag from synthesised pointer actions, so the
    // pointer is the X server's own (xdotool under Xvfb): the same events a user's mouse makes.
    let from = screen_point(c, &tile, 0.5, 0.85).await;
    let to = screen_point(c, &columns[i + 1], 0.5, 0.5).await;
    let xdo = |args: &[String]| {
        let ok = Command::new("xdotool").args(args).status().expect("xdotool (Debian's package)").success();
        assert!(ok, "xdotool {args:?}");
    };
    xdo(&["mousemove".into(), from.0.to_string(), from.1.to_string()]);
    std::thread::sleep(Duration::from_millis(100));
    xdo(&["mousedown".into(), "1".into()]);
    for step in 1..=12 {
        let x = from.0 + (to.0 - from.0) * step / 12;
        let y = from.1 + (to.1 - from.1) * step / 12;
        xdo(&["mousemove".into(), x.to_string(), y.to_string()]);
        std::thread::sleep(Duration::from_millis(40));
    }
    std::thread::sleep(Duration::from_millis(150));
    xdo(&["mouseup".into(), "1".into()]);
    let in_target = format!("section.column[data-stage-id='{target_stage}'] [data-card-id='{card_id}']");
    wait_css(c, &in_target).await;
    tokio::time::sleep(Duration::from_millis(800)).await; // a refused move would roll back by now
    assert!(c.find(Locator::Css(&in_target)).await.is_ok(), "the move was kept");
    save(c, artifacts, "desktop-after-drag").await;
    c.refresh().await.unwrap();
    wait_text(c, "[data-testid=space-tab]", "Content plan").await;
    wait_css(c, &in_target).await;
}

/// Where a point of an element is on the X screen: the window's place plus the element's place in the
/// page; `fx`, `fy` are fractions of its width and height.
/// Studio: type a prompt, wait for the price, Generate; the job shows in the queue, then its image in
/// the gallery (the core polled it and told the window through a Tauri event).
async fn generate_an_image(c: &Client, artifacts: &std::path::Path) {
    wait_css(c, "a[href='#/studio']").await.click().await.unwrap();
    let prompt = wait_css(c, "#studio-prompt").await;
    prompt.send_keys("A lighthouse at dawn, seen from the desktop window").await.unwrap();
    wait_text(c, "[data-testid=studio-price]", "credit").await;
    c.find(Locator::Css("[data-testid=studio-form] button[type=submit]")).await.unwrap().click().await.unwrap();
    wait_css(c, "[data-testid=job]").await;
    wait_text(c, "[data-testid=job-status]", "Done").await;
    wait_css(c, "[data-testid=gallery-item] img").await;
    save(c, artifacts, "desktop-studio").await;
}

async fn screen_point(c: &Client, e: &Element, fx: f64, fy: f64) -> (i64, i64) {
    let js = "const r = arguments[0].getBoundingClientRect(); \
              return [window.screenX, window.screenY + (window.outerHeight - window.innerHeight), r.left, r.top, r.width, r.height];";
    let v = c.execute(js, vec![serde_json::to_value(e).unwrap()]).await.expect("element rect");
    let n: Vec<f64> = v.as_array().unwrap().iter().map(|x| x.as_f64().unwrap_or(0.0)).collect();
    ((n[0] + n[2] + n[4] * fx).round() as i64, (n[1] + n[3] + n[5] * fy).round() as i64)
}

fn secret_accounts(service: &str) -> Vec<String> {
    let out = Command::new("secret-tool").args(["search", "--all", "service", service]).output().expect("secret-tool");
    let text = String::from_utf8_lossy(&out.stdout).to_string() + &String::from_utf8_lossy(&out.stderr);
    text.lines().filter_map(|l| l.strip_prefix("attribute.username = ").map(|s| s.trim().to_string())).collect()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_window_shows_the_sandbox_keeps_a_key_in_the_keyring_across_restarts_and_signs_out() {
    if std::env::var("CONTENTDESK_DESKTOP_E2E").as_deref() != Ok("1") {
        eprintln!("skipped: the real window runs from scripts/desktop-e2e.sh (Xvfb, tauri-driver, keyring)");
        return;
    }
    let artifacts = PathBuf::from(env("E2E_ARTIFACTS"));
    std::fs::create_dir_all(&artifacts).unwrap();
    let service = env("CONTENTDESK_KEYRING_SERVICE");
    let work = std::env::temp_dir().join(format!("contentdesk-desktop-e2e-{}", std::process::id()));
    let data = work.join("data");
    std::fs::create_dir_all(&data).unwrap();
    let (_remote, remote_url, remote_key) = remote_sandbox(&work);
    // The keys the run typed, for the leak check (kept outside the artifacts it scans).
    std::fs::write(env("E2E_SECRETS_FILE"), format!("{remote_key}\n")).unwrap();

    let port = free_port();
    let _driver = tauri_driver(port, &data);

    // First launch: the sandbox's demo space and the balance, with no account.
    let c = session(port).await;
    wait_text(&c, "[data-testid=space-tab]", "Content plan").await;
    let balance = wait_css(&c, "[data-testid=balance]").await;
    assert!(balance.text().await.unwrap().contains("credits"));
    save(&c, &artifacts, "desktop-window").await;

    // Drag a card between columns with the pointer (WebDriver actions → WebKit's own drag and drop).
    drag_a_card_to_the_next_column(&c, &artifacts).await;

    // The studio: an image generated in the real window goes through the queue into the gallery.
    generate_an_image(&c, &artifacts).await;

    // The brand kit: the demo kit's section cards, full and half width side by side, in the real window.
    wait_css(&c, "a[href='#/brand-kit']").await.click().await.unwrap();
    wait_css(&c, "[data-testid=section-grid] [data-width=full]").await;
    wait_css(&c, "[data-testid=section-grid] [data-width=half]").await;
    save(&c, &artifacts, "desktop-brand-kit").await;

    // Save a key for a remote profile.
    wait_css(&c, "a[href='#/settings']").await.click().await.unwrap();
    wait_css(&c, "#new-name").await.send_keys("Remote studio").await.unwrap();
    let url = wait_css(&c, "#new-base-url").await;
    url.clear().await.unwrap();
    url.send_keys(&remote_url).await.unwrap();
    wait_css(&c, "#new-key").await.send_keys(&remote_key).await.unwrap();
    c.find(Locator::Css("form.add button[type=submit]")).await.unwrap().click().await.unwrap();
    wait_text(&c, "p.notice", "the key works").await;
    assert_eq!(secret_accounts(&service).len(), 2, "the sandbox key and the remote key are in the keyring");
    save(&c, &artifacts, "desktop-settings").await;
    c.close().await.unwrap();
    tokio::time::sleep(Duration::from_millis(500)).await;

    // Restart: the remote profile still works with the key read back from the keyring.
    let c = session(port).await;
    wait_css(&c, "[data-testid=balance]").await;
    wait_css(&c, "a[href='#/settings']").await.click().await.unwrap();
    let card = wait_css(&c, "[data-testid='profile-Remote studio']").await;
    assert!(card.text().await.unwrap().contains("Key stored in the OS keyring"));
    card.find(Locator::XPath(".//button[normalize-space()='Test key']")).await.unwrap().click().await.unwrap();
    wait_text(&c, "[data-testid='profile-Remote studio'] p.notice", "The key works").await;

    // Sign out: confirmed in a dialog, then the item is gone from the keyring.
    card.find(Locator::XPath(".//button[normalize-space()='Sign out']")).await.unwrap().click().await.unwrap();
    let dialog = wait_css(&c, "[role=alertdialog]").await;
    dialog.find(Locator::XPath(".//button[normalize-space()='Sign out']")).await.unwrap().click().await.unwrap();
    wait_text(&c, "[data-testid='profile-Remote studio'] [data-testid=key-status]", "No key").await;
    assert_eq!(secret_accounts(&service).len(), 1, "only the sandbox key is left");
    save(&c, &artifacts, "desktop-signed-out").await;
    c.close().await.unwrap();

    for f in ["settings.json", "logs/contentdesk.log"] {
        let from = data.join(f);
        if from.exists() {
            std::fs::copy(&from, artifacts.join(f.replace('/', "-"))).unwrap();
        }
    }
    eprintln!("data folder: {}", data.display());
}
