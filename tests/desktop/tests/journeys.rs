//! The desktop journeys: the real window shows the sandbox, drags a card, renders an image, shows the
//! brand kit, keeps a key in the OS keyring across a restart and signs out. Run by
//! scripts/desktop-e2e.sh (Xvfb, tauri-driver, WebKitWebDriver, gnome-keyring); skipped (saying why)
//! unless `CONTENTDESK_DESKTOP_E2E=1`. The harness is this crate's library (`src/lib.rs`).
use contentdesk_desktop_e2e::{env, free_port, remote_sandbox, save, screen_point, secret_accounts, session, tauri_driver, wait_css, wait_text};
use fantoccini::{Client, Locator};
use std::path::PathBuf;
use std::process::Command;
use std::time::Duration;

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

/// The planner's calendar in the real window: the Calendar view, an unscheduled demo card scheduled by
/// keyboard (Space picks it up, ArrowRight a day on, Enter drops) lands on the month grid; a screenshot;
/// back to the board (the view is remembered, the later steps expect the board).
async fn the_calendar(c: &Client, artifacts: &std::path::Path) {
    wait_css(c, "[data-testid=view-calendar]").await.click().await.unwrap();
    wait_css(c, "[data-testid=calendar-month]").await;
    let card = wait_css(c, "[data-testid=calendar-unscheduled] [data-card]").await;
    let id = card.attr("data-card").await.unwrap().unwrap();
    card.send_keys(" ").await.unwrap();
    wait_text(c, "[data-testid=board-status]", "Picked up").await;
    card.send_keys("\u{E014}").await.unwrap(); // ArrowRight
    card.send_keys("\u{E007}").await.unwrap(); // Enter
    wait_css(c, &format!("[data-testid=calendar-month] [data-testid=calendar-item][data-card='{id}']")).await;
    wait_text(c, "[data-testid=board-status]", "rescheduled to").await;
    save(c, artifacts, "desktop-calendar").await;
    // Export: the file is saved by the shell (WebKitGTK's own download would land in the working folder,
    // unnamed) and the status names where; it is there, an iCalendar file, and is removed after.
    wait_css(c, "[data-testid=calendar-export]").await.click().await.unwrap();
    wait_css(c, "[data-testid=export-ics]").await.click().await.unwrap();
    let said = wait_text(c, "[data-testid=calendar-export-status]", ".ics.").await.text().await.unwrap();
    let path = said.rsplit_once(" to ").map(|(_, p)| p.trim_end_matches('.')).unwrap_or_default().to_string();
    assert!(path.starts_with('/') && path.ends_with(".ics"), "the status names the saved file's path: {said}");
    let ics = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path} was not saved: {e}"));
    assert!(ics.starts_with("BEGIN:VCALENDAR") && ics.contains("BEGIN:VEVENT"), "{path} is an iCalendar file with the scheduled posts");
    std::fs::remove_file(&path).unwrap();
    wait_css(c, "[data-testid=view-board]").await.click().await.unwrap();
    wait_css(c, "section.column[data-stage-id]").await;
}

/// The app launched again on `data` outside D-Bus: it must exit, non-zero, naming the running instance.
async fn second_start_without_dbus_exits_saying_so(data: &std::path::Path) {
    let mut second = Command::new(env("CONTENTDESK_APP_BIN"));
    second
        .env("CONTENTDESK_DATA_DIR", data)
        .env_remove("DBUS_SESSION_BUS_ADDRESS")
        .stdin(std::process::Stdio::null())
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::piped());
    let child = second.spawn().expect("the app starts a second time");
    let out = tokio::time::timeout(Duration::from_secs(60), tokio::task::spawn_blocking(move || child.wait_with_output()))
        .await
        .expect("the second instance exits by itself")
        .unwrap()
        .unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(!out.status.success(), "the second instance exits with an error: {stderr}");
    assert!(stderr.contains("already running with this data folder"), "it says why: {stderr}");
}

/// The app launched again on `data` inside the session's D-Bus: it hands over to the running window and
/// exits without starting a core.
async fn second_start_with_dbus_hands_over(data: &std::path::Path) {
    let child = Command::new(env("CONTENTDESK_APP_BIN"))
        .env("CONTENTDESK_DATA_DIR", data)
        .stdin(std::process::Stdio::null())
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .expect("the app starts a second time");
    let out = tokio::time::timeout(Duration::from_secs(60), tokio::task::spawn_blocking(move || child.wait_with_output()))
        .await
        .expect("the second instance hands over and exits by itself")
        .unwrap()
        .unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(!stderr.contains("already running with this data folder"), "it handed over, not refused: {stderr}");
}

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

/// The page's background colour as WebKit paints it (`rgb(…)` of the body), and the theme it says it has.
async fn painted_theme(c: &Client) -> (String, String) {
    let v = c
        .execute("return [document.documentElement.dataset.theme || '', getComputedStyle(document.body).backgroundColor];", vec![])
        .await
        .expect("the theme and the page's colour");
    let pair: Vec<String> = v.as_array().unwrap().iter().map(|x| x.as_str().unwrap_or_default().to_string()).collect();
    (pair[0].clone(), pair[1].clone())
}

/// Every screen in the real window, in the light theme and the dark one, chosen in Settings →
/// Appearance (WebKitWebDriver cannot emulate the system's setting): a screenshot of each, named
/// `desktop-<screen>-<theme>.png`; WebKit paints each theme's own background (the dark palette reaches
/// the real window, not only Chromium); back to System at the end.
async fn every_screen_in_both_themes(c: &Client, artifacts: &std::path::Path) {
    let mut backgrounds = Vec::new();
    for theme in ["light", "dark"] {
        wait_css(c, "a[href='#/settings']").await.click().await.unwrap();
        wait_css(c, &format!("[data-testid=theme-choice] input[value={theme}]")).await.click().await.unwrap();
        let (said, background) = painted_theme(c).await;
        assert_eq!(said, theme, "the window took the {theme} theme");
        backgrounds.push(background);
        save(c, artifacts, &format!("desktop-settings-{theme}")).await;
        wait_css(c, "a[href='#/planner']").await.click().await.unwrap();
        wait_css(c, "[data-testid=view-board]").await.click().await.unwrap();
        wait_css(c, "section.column[data-stage-id] [data-card-id]").await;
        save(c, artifacts, &format!("desktop-board-{theme}")).await;
        wait_css(c, "[data-testid=view-calendar]").await.click().await.unwrap();
        wait_css(c, "[data-testid=calendar-month]").await;
        save(c, artifacts, &format!("desktop-calendar-{theme}")).await;
        wait_css(c, "[data-testid=view-board]").await.click().await.unwrap();
        wait_css(c, "section.column[data-stage-id] [data-card-id] .open").await.click().await.unwrap();
        wait_css(c, "[data-testid=card-editor]").await;
        save(c, artifacts, &format!("desktop-card-editor-{theme}")).await;
        wait_css(c, "[data-testid=card-editor] button.close").await.click().await.unwrap();
        wait_css(c, "a[href='#/studio']").await.click().await.unwrap();
        wait_css(c, "[data-testid=gallery-item] img").await;
        save(c, artifacts, &format!("desktop-studio-{theme}")).await;
        wait_css(c, "a[href='#/brand-kit']").await.click().await.unwrap();
        wait_css(c, "[data-testid=section-grid] [data-width=full]").await;
        save(c, artifacts, &format!("desktop-brand-kit-{theme}")).await;
    }
    assert_ne!(backgrounds[0], backgrounds[1], "the dark theme paints another background than the light one");
    wait_css(c, "a[href='#/settings']").await.click().await.unwrap();
    wait_css(c, "[data-testid=theme-choice] input[value=system]").await.click().await.unwrap();
    wait_css(c, "a[href='#/planner']").await.click().await.unwrap();
    wait_css(c, "section.column[data-stage-id]").await;
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

    // The calendar: shown, a card scheduled on it by keyboard, a screenshot.
    the_calendar(&c, &artifacts).await;

    // The studio: an image generated in the real window goes through the queue into the gallery.
    generate_an_image(&c, &artifacts).await;

    // The brand kit: the demo kit's section cards, full and half width side by side, in the real window.
    wait_css(&c, "a[href='#/brand-kit']").await.click().await.unwrap();
    wait_css(&c, "[data-testid=section-grid] [data-width=full]").await;
    wait_css(&c, "[data-testid=section-grid] [data-width=half]").await;
    save(&c, &artifacts, "desktop-brand-kit").await;

    // Every screen, light and dark, in the real window.
    every_screen_in_both_themes(&c, &artifacts).await;

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

    // A second start on the same data folder with no session D-Bus (the single-instance plugin cannot
    // hand over): it exits with a message that says so, and the first window goes on.
    second_start_without_dbus_exits_saying_so(&data).await;
    wait_css(&c, "[data-testid=balance]").await;
    // With D-Bus the single-instance plugin hands over to the first window: the second exits at once,
    // without reaching the core's refusal.
    second_start_with_dbus_hands_over(&data).await;
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
