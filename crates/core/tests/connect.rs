//! "Connect ContentHero" against a real sandbox playing the service: a pasted key and the browser sign-in
//! (the shared `api_client::browser_login`, the sandbox's consent page answered by this test as the
//! user's browser, opened through the core's URL opener). A key makes a remote profile that is selected;
//! a refused key, Cancel in the browser or a stopped sign-in make nothing; the key reaches the store and
//! never a reply.
use contentdesk_core::commands::{self as c, *};
use contentdesk_core::{AppState, CoreConfig, IpcCode, MemoryStore, ProfileKind, Secrets, SecretStore};
use sandbox::testing::{consent_form, TestSandbox};
use std::path::PathBuf;
use std::sync::Arc;
use std::time::Duration;

async fn start() -> (AppState, Arc<MemoryStore>, PathBuf) {
    let dir = std::env::temp_dir().join(format!("contentdesk-connect-{}", uuid::Uuid::new_v4()));
    std::fs::create_dir_all(&dir).unwrap();
    let store = Arc::new(MemoryStore::new());
    let app = AppState::start(CoreConfig {
        data_dir: dir.clone(),
        settings: None,
        secrets: Secrets::Store(store.clone()),
        embedded_sandbox: true,
        embedded_sandbox_config: Default::default(),
    })
    .await
    .expect("core starts");
    (app, store, dir)
}

/// The URLs the core asked to open, instead of a system browser.
fn capture_opened(app: &AppState) -> tokio::sync::mpsc::UnboundedReceiver<String> {
    let (tx, rx) = tokio::sync::mpsc::unbounded_channel();
    app.set_url_opener(Arc::new(move |url: &str| tx.send(url.to_string()).map_err(|e| e.to_string())));
    rx
}

fn browser() -> reqwest::Client {
    reqwest::Client::builder().redirect(reqwest::redirect::Policy::none()).timeout(Duration::from_secs(10)).build().unwrap()
}

/// Plays the user's browser on the consent page: `connect` or `cancel`, then follows to the app's listener.
async fn consent(origin: &str, url: &str, action: &str) -> String {
    let b = browser();
    let page = b.get(url).send().await.unwrap().text().await.unwrap();
    let form = consent_form(&page, action, &["planner:write", "brandkit:read", "generate:*"]);
    let r = b.post(format!("{origin}/cli/auth")).form(&form).send().await.unwrap();
    let callback = r.headers()["location"].to_str().unwrap().to_string();
    let done = b.get(&callback).send().await.unwrap();
    done.headers()["location"].to_str().unwrap().to_string()
}

#[tokio::test(flavor = "multi_thread")]
async fn a_pasted_key_makes_a_selected_remote_profile_a_refused_one_makes_nothing() {
    let sb = TestSandbox::start().await;
    let (app, store, dir) = start().await;
    let before = c::profiles_list(&app).await.unwrap();

    let refused = c::connect_with_key(&app, serde_json::from_value(serde_json::json!({ "key": "ch_live_nope", "baseUrl": sb.base_url() })).unwrap())
        .await
        .unwrap_err();
    assert_eq!(refused.code, IpcCode::Unauthorized);
    assert_eq!(c::profiles_list(&app).await.unwrap(), before, "a refused key makes no profile and keeps the selection");

    let args: ConnectKeyArgs = serde_json::from_value(serde_json::json!({ "key": sb.key, "baseUrl": sb.base_url() })).unwrap();
    let made = c::connect_with_key(&app, args).await.unwrap();
    assert_eq!(made.profile.name, "ContentHero");
    assert_eq!(made.profile.kind, ProfileKind::Remote);
    assert!(made.profile.has_key);
    assert_eq!(made.profiles.selected_id.as_deref(), Some(made.profile.id.as_str()), "the new profile is the selected one");
    assert_eq!(made.balance.balance, sb.balance());
    assert_eq!(store.get(&made.profile.id).unwrap().as_deref(), Some(sb.key.as_str()), "the key is in the store");
    assert!(!serde_json::to_string(&made).unwrap().contains(&sb.key), "the key is not in the reply");
    // The selected profile works at once: the board's first read goes to the service.
    assert_eq!(c::balance(&app).await.unwrap().balance, sb.balance());

    let args: ConnectKeyArgs = serde_json::from_value(serde_json::json!({ "key": sb.key, "baseUrl": sb.base_url() })).unwrap();
    assert_eq!(c::connect_with_key(&app, args).await.unwrap().profile.name, "ContentHero 2");
    let settings = std::fs::read_to_string(dir.join("settings.json")).unwrap();
    assert!(!settings.contains("ch_live_"), "{settings}");
    drop(app);
    let _ = std::fs::remove_dir_all(dir);
}

#[tokio::test(flavor = "multi_thread")]
async fn the_browser_sign_in_opens_the_consent_page_and_its_key_becomes_the_selected_profile() {
    let sb = TestSandbox::start().await;
    let (app, store, dir) = start().await;
    let mut opened = capture_opened(&app);
    let started = c::connect_browser_start(&app, ConnectStartArgs { base_url: Some(sb.base_url()) }).await.unwrap();
    assert!(started.opened);
    let url = opened.recv().await.unwrap();
    assert_eq!(url, started.url);
    assert!(url.starts_with(&format!("{}/cli/auth?port=", sb.running.origin())), "{url}");
    let waiting = tokio::spawn({
        let app = app.clone();
        async move { c::connect_browser_finish(&app).await }
    });
    let done = consent(&sb.running.origin(), &url, "connect").await;
    assert!(done.ends_with("/cli/auth/done?status=connected"), "{done}");
    let made = waiting.await.unwrap().unwrap();
    assert_eq!(made.profiles.selected_id.as_deref(), Some(made.profile.id.as_str()));
    assert_eq!(made.profile.base_url, sb.base_url());
    let key = store.get(&made.profile.id).unwrap().expect("the key the page minted is stored");
    assert!(key.starts_with("ch_live_") && key != sb.key);
    assert!(!serde_json::to_string(&made).unwrap().contains(&key), "the key is not in the reply");
    assert_eq!(c::balance(&app).await.unwrap().balance, sb.balance());
    drop(app);
    let _ = std::fs::remove_dir_all(dir);
}

#[tokio::test(flavor = "multi_thread")]
async fn cancel_in_the_browser_or_a_stopped_sign_in_makes_nothing() {
    let sb = TestSandbox::start().await;
    let (app, _store, dir) = start().await;
    let mut opened = capture_opened(&app);
    let before = c::profiles_list(&app).await.unwrap();

    c::connect_browser_start(&app, ConnectStartArgs { base_url: Some(sb.base_url()) }).await.unwrap();
    let url = opened.recv().await.unwrap();
    let waiting = tokio::spawn({
        let app = app.clone();
        async move { c::connect_browser_finish(&app).await }
    });
    assert!(consent(&sb.running.origin(), &url, "cancel").await.ends_with("status=cancelled"));
    let e = waiting.await.unwrap().unwrap_err();
    assert_eq!((e.code, e.field.as_deref()), (IpcCode::Validation, Some("browser")));
    assert!(e.message.contains("Cancel"), "{}", e.message);

    c::connect_browser_start(&app, ConnectStartArgs { base_url: Some(sb.base_url()) }).await.unwrap();
    let url = opened.recv().await.unwrap();
    let waiting = tokio::spawn({
        let app = app.clone();
        async move { c::connect_browser_finish(&app).await }
    });
    // Stopped in the app while the browser has not answered: the listener is gone.
    while !c::connect_browser_cancel(&app).await.unwrap() {
        tokio::task::yield_now().await;
    }
    let e = waiting.await.unwrap().unwrap_err();
    assert_eq!(e.field.as_deref(), Some("browser"));
    let port = url::Url::parse(&url).unwrap().query_pairs().find(|(k, _)| k == "port").unwrap().1.to_string();
    assert!(browser().get(format!("http://127.0.0.1:{port}/callback?state=x")).send().await.is_err(), "the listener is closed");
    assert_eq!(c::profiles_list(&app).await.unwrap(), before);
    assert!(!c::connect_browser_cancel(&app).await.unwrap(), "nothing left to stop");
    drop(app);
    let _ = std::fs::remove_dir_all(dir);
}

#[tokio::test(flavor = "multi_thread")]
async fn no_browser_opened_still_answers_the_page_to_open_by_hand() {
    let (app, _store, dir) = start().await;
    app.set_url_opener(Arc::new(|_url: &str| Err("xdg-open: not found".to_string())));
    let started = c::connect_browser_start(&app, ConnectStartArgs { base_url: Some("http://127.0.0.1:9/api/v1".into()) }).await.unwrap();
    assert!(!started.opened);
    assert!(started.url.starts_with("http://127.0.0.1:9/cli/auth?port="));
    assert!(c::connect_browser_cancel(&app).await.unwrap());
    drop(app);
    let _ = std::fs::remove_dir_all(dir);
}
