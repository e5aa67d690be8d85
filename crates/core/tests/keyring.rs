//! The real OS keyring (Secret Service). Runs only with `CONTENTDESK_KEYRING_TESTS=1`, inside
//! `dbus-run-session` with an unlocked gnome-keyring (scripts/test.sh does that); elsewhere it says
//! why it did nothing. The no-keyring case runs everywhere: with no session bus the app must fall back
//! to memory and say what to install.
use contentdesk_core::commands as c;
use contentdesk_core::{AppState, CoreConfig, IpcCode, KeyStorage, KeyringStore, SecretStore, Secrets};

fn enabled() -> bool {
    let on = std::env::var("CONTENTDESK_KEYRING_TESTS").as_deref() == Ok("1");
    if !on {
        eprintln!("skipped: set CONTENTDESK_KEYRING_TESTS=1 inside dbus-run-session with gnome-keyring unlocked");
    }
    on
}

fn service() -> String {
    format!("contentdesk-test-{}", uuid::Uuid::new_v4())
}

#[test]
fn keyring_round_trip_and_delete() {
    if !enabled() {
        return;
    }
    let store = KeyringStore::new(service());
    store.probe().expect("the Secret Service answers and is unlocked");
    assert_eq!(store.get("p1").unwrap(), None);
    store.set("p1", "ch_live_keyringroundtrip0000000000").unwrap();
    assert_eq!(store.get("p1").unwrap().as_deref(), Some("ch_live_keyringroundtrip0000000000"));
    store.delete("p1").unwrap();
    store.delete("p1").unwrap();
    assert_eq!(store.get("p1").unwrap(), None);
}

#[tokio::test]
async fn the_app_keeps_the_sandbox_key_in_the_keyring_across_restarts() {
    if !enabled() {
        return;
    }
    let dir = std::env::temp_dir().join(format!("contentdesk-keyring-{}", uuid::Uuid::new_v4()));
    let service = service();
    let config = || CoreConfig {
        data_dir: dir.clone(),
        settings: None,
        secrets: Secrets::KeyringOrMemory { service: service.clone() },
        embedded_sandbox: true,
        embedded_sandbox_config: Default::default(),
    };
    let app = AppState::start(config()).await.unwrap();
    assert_eq!(app.key_storage(), KeyStorage::Keyring, "{:?}", app.keyring_problem());
    let id = c::profiles_list(&app).await.unwrap().profiles[0].id.clone();
    let key = KeyringStore::new(service.clone()).get(&id).unwrap().expect("stored in the keyring");
    drop(app);
    let again = AppState::start(config()).await.unwrap();
    c::balance(&again).await.expect("the key read back from the keyring works");
    assert_eq!(KeyringStore::new(service.clone()).get(&id).unwrap().as_deref(), Some(key.as_str()));
    c::sign_out(&again, c::ProfileRefArgs { profile_id: id.clone() }).await.unwrap();
    assert_eq!(KeyringStore::new(service).get(&id).unwrap(), None, "sign out deleted it");
    let settings = std::fs::read_to_string(dir.join("settings.json")).unwrap();
    assert!(!settings.contains(&key));
}

#[tokio::test]
async fn with_no_secret_service_keys_stay_in_memory_and_the_user_is_told_what_to_install() {
    // A session bus address that answers nothing: the backend fails the way a machine with no
    // Secret Service does.
    if std::env::var("CONTENTDESK_KEYRING_TESTS").as_deref() == Ok("1") {
        eprintln!("skipped here: a Secret Service is running in this session (the plain run covers it)");
        return;
    }
    std::env::set_var("DBUS_SESSION_BUS_ADDRESS", "unix:path=/nonexistent/contentdesk-no-bus");
    let dir = std::env::temp_dir().join(format!("contentdesk-nokeyring-{}", uuid::Uuid::new_v4()));
    let app = AppState::start(CoreConfig {
        data_dir: dir,
        settings: None,
        secrets: Secrets::KeyringOrMemory { service: service() },
        embedded_sandbox: true,
        embedded_sandbox_config: Default::default(),
    })
    .await
    .unwrap();
    assert_eq!(app.key_storage(), KeyStorage::Memory);
    let problem = app.keyring_problem().expect("the reason is kept");
    assert!(problem.contains("gnome-keyring") || problem.contains("unlock"), "{problem}");
    c::balance(&app).await.expect("the embedded sandbox works with the key in memory");
    let info = c::app_info(&app).await.unwrap();
    assert_eq!(info.key_storage, KeyStorage::Memory);
    let _ = IpcCode::KeyringUnavailable;
}
