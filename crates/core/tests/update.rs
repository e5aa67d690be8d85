//! The update check against a real HTTP server on loopback serving `latest.json`, signed with a minisign
//! key pair made here (nothing secret is committed): a newer version is found; a manifest signed by
//! another key, a server that is down, one too slow to answer, one that answers garbage or an error are
//! each a short note. Then the app's command: the check at start runs at most once a day and not at all
//! when turned off.
mod common;

use axum::routing::get;
use base64::Engine;
use contentdesk_core::commands::{self as c, UpdateCheckArgs, UpdatePrefsSetArgs};
use contentdesk_core::update::{self as u, UpdateError, UpdateState};
use std::time::Duration;

/// A throwaway key pair in Tauri's form: the public key as base64 of its `.pub` text, and a signer that
/// writes what `cargo tauri signer sign` writes (base64 of the `.sig` text, the version in the trusted
/// comment as the bundler puts it).
struct Key {
    public: String,
    secret: minisign::SecretKey,
    pk: minisign::PublicKey,
}

impl Key {
    fn new() -> Key {
        let kp = minisign::KeyPair::generate_unencrypted_keypair().expect("key pair");
        let public = b64(&kp.pk.to_box().expect("pk box").to_string());
        Key { public, secret: kp.sk, pk: kp.pk }
    }

    fn sign(&self, data: &[u8], version: &str) -> String {
        let sig = minisign::sign(Some(&self.pk), &self.secret, std::io::Cursor::new(data), Some(&format!("timestamp:0\tfile:x\tversion:{version}")), None)
            .expect("sign");
        b64(&sig.to_string())
    }
}

fn b64(s: &str) -> String {
    base64::engine::general_purpose::STANDARD.encode(s)
}

fn manifest(version: &str, signature: &str, url: &str) -> String {
    serde_json::json!({
        "version": version,
        "notes": "The board opens faster.",
        "pub_date": "2026-11-27T12:00:00Z",
        "platforms": { format!("{}-deb", u::platform_key()): { "signature": signature, "url": url } }
    })
    .to_string()
}

/// The update server: each path a case.
async fn server(good: String, other_key: String) -> String {
    let app = axum::Router::new()
        .route("/latest.json", get(move || async move { good }))
        .route("/other-key.json", get(move || async move { other_key }))
        .route("/garbage.json", get(|| async { "<html>502 Bad Gateway</html>" }))
        .route("/half.json", get(|| async { r#"{"version": "0.2.0", "platforms": {"#.to_string() }))
        .route("/not-a-version.json", get(|| async { r#"{"version": "soon", "platforms": {}}"#.to_string() }))
        .route("/error.json", get(|| async { (axum::http::StatusCode::SERVICE_UNAVAILABLE, "down for maintenance") }))
        .route("/slow.json", get(std::future::pending::<String>));
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    tokio::spawn(async move { axum::serve(listener, app).await.unwrap() });
    format!("http://{addr}")
}

async fn dead_url() -> String {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    drop(listener);
    format!("http://{addr}/latest.json")
}

const T: Duration = Duration::from_secs(10);

#[tokio::test]
async fn a_newer_version_signed_with_the_key_is_found_and_another_key_is_refused() {
    let key = Key::new();
    let stranger = Key::new();
    let package = b"the 0.2.0 package";
    let good = manifest("0.2.0", &key.sign(package, "0.2.0"), "http://127.0.0.1:9/a.deb");
    let forged = manifest("0.2.0", &stranger.sign(package, "0.2.0"), "http://127.0.0.1:9/a.deb");
    let base = server(good, forged).await;

    let found = u::check(&format!("{base}/latest.json"), "0.1.0", &key.public, T).await.unwrap().expect("a newer version");
    assert_eq!(found.version, "0.2.0");
    assert_eq!(found.notes.as_deref(), Some("The board opens faster."));
    assert_eq!(found.url, "http://127.0.0.1:9/a.deb");
    // The same manifest for the version it names, or a later one: nothing to do.
    assert_eq!(u::check(&format!("{base}/latest.json"), "0.2.0", &key.public, T).await, Ok(None));
    assert_eq!(u::check(&format!("{base}/latest.json"), "0.3.0", &key.public, T).await, Ok(None));

    let refused = u::check(&format!("{base}/other-key.json"), "0.1.0", &key.public, T).await;
    assert_eq!(refused, Err(UpdateError::WrongKey { version: "0.2.0".into() }));
    assert_eq!(
        refused.unwrap_err().note(),
        "The update to 0.2.0 is not signed with Content Desk's key, so it was refused. Nothing was changed."
    );
}

#[tokio::test]
async fn a_server_down_slow_or_answering_garbage_is_a_short_note() {
    let key = Key::new();
    let base = server(String::new(), String::new()).await;
    let check = |path: String| {
        let public = key.public.clone();
        async move { u::check(&path, "0.1.0", &public, Duration::from_millis(300)).await }
    };
    let down = check(dead_url().await).await.unwrap_err();
    assert!(matches!(down, UpdateError::Unreachable(_)), "{down:?}");
    assert_eq!(down.note(), "Could not reach the update server (no network, or the server is down). Nothing was changed.");

    assert_eq!(check(format!("{base}/slow.json")).await, Err(UpdateError::Timeout));
    assert_eq!(check(format!("{base}/error.json")).await, Err(UpdateError::Status(503)));
    for path in ["garbage.json", "half.json", "latest.json"] {
        let e = check(format!("{base}/{path}")).await.unwrap_err();
        assert!(matches!(e, UpdateError::BadManifest(_)), "{path}: {e:?}");
        assert_eq!(e.note(), "The update server's answer is not an update manifest. Nothing was changed.");
    }
    assert_eq!(check(format!("{base}/not-a-version.json")).await, Err(UpdateError::BadVersion("soon".into())));
}

#[tokio::test]
async fn the_check_at_start_runs_at_most_once_a_day_and_not_when_turned_off() {
    // The app's command against a server that is down: the check runs (and fails with a note), is
    // recorded, and the next start the same day does not check again; a check from Settings always runs.
    std::env::set_var(u::ENDPOINT_ENV, dead_url().await);
    let app = common::embedded_app("update").await;
    let at_start = || UpdateCheckArgs { at_start: Some(true) };

    let first = c::update_check(&app, at_start()).await.unwrap();
    assert_eq!(first.state, UpdateState::Failed);
    assert_eq!(first.current, env!("CARGO_PKG_VERSION"));
    assert!(first.note.as_deref().unwrap().starts_with("Could not reach the update server"), "{first:?}");
    let checked_at = c::update_prefs(&app).await.unwrap().last_check.expect("the check time is stored");

    assert_eq!(c::update_check(&app, at_start()).await.unwrap().state, UpdateState::Skipped, "once a day");
    assert_eq!(c::update_check(&app, UpdateCheckArgs::default()).await.unwrap().state, UpdateState::Failed, "Settings always checks");

    let off = c::update_prefs_set(&app, UpdatePrefsSetArgs { auto_check: false }).await.unwrap();
    assert!(!off.auto_check);
    // A day later, with checks off: still no check at start.
    let mut prefs = u::UpdatePrefs::load(app.settings());
    prefs.last_check = Some(checked_at - u::CHECK_INTERVAL_SECS);
    prefs.store(app.settings()).unwrap();
    assert_eq!(c::update_check(&app, at_start()).await.unwrap().state, UpdateState::Skipped, "turned off");
    c::update_prefs_set(&app, UpdatePrefsSetArgs { auto_check: true }).await.unwrap();
    assert_eq!(c::update_check(&app, at_start()).await.unwrap().state, UpdateState::Failed, "on again, a day later: checks");

    // The setting is in settings.json with the profiles.
    let stored: serde_json::Value = serde_json::from_slice(&std::fs::read(app.data_dir().join("settings.json")).unwrap()).unwrap();
    assert_eq!(stored[u::SETTINGS_KEY]["autoCheck"], true);
    assert!(stored["profiles"].is_array());
}
