//! The app core against real sandboxes: the embedded one (in a temp data folder) and a second one playing
//! the remote service. Keys live in a shared `MemoryStore`, so a "restart" (a second `AppState` on the
//! same folder and store) sees what the first one kept.
use contentdesk_core::commands::{self as c, *};
use contentdesk_core::{ipc, AppState, CoreConfig, IpcCode, KeyStorage, MemoryStore, ProfileKind, Secrets, SecretStore};
use sandbox::testing::TestSandbox;
use serde_json::json;
use std::path::{Path, PathBuf};
use std::sync::Arc;

/// The `*Args` types the core declares at most today (issue 25 wants 15: see the test at the end).
const ARGS_TYPES_AT_MOST: usize = 22;

fn temp_dir() -> PathBuf {
    let d = std::env::temp_dir().join(format!("contentdesk-core-{}", uuid::Uuid::new_v4()));
    std::fs::create_dir_all(&d).unwrap();
    d
}

async fn start(dir: &Path, store: &Arc<MemoryStore>) -> AppState {
    AppState::start(CoreConfig {
        data_dir: dir.to_path_buf(),
        settings: None,
        secrets: Secrets::Store(store.clone()),
        embedded_sandbox: true,
        embedded_sandbox_config: Default::default(),
    })
    .await
    .expect("core starts")
}

/// Everything a test could have leaked into: serialised replies and errors, and the settings file.
struct Leaks(Vec<String>);
impl Leaks {
    fn record(&mut self, v: &impl serde::Serialize) {
        self.0.push(serde_json::to_string(v).unwrap());
    }
    fn assert_absent(&self, dir: &Path, secret: &str) {
        for s in &self.0 {
            assert!(!s.contains(secret), "the key leaked into a reply: {s}");
        }
        let settings = std::fs::read_to_string(dir.join("settings.json")).unwrap();
        assert!(!settings.contains(secret) && !settings.contains("ch_live_"), "settings hold a key: {settings}");
    }
}

#[tokio::test]
async fn first_launch_creates_the_sandbox_profile_with_the_demo_and_a_restart_keeps_it() {
    let dir = temp_dir();
    let store = Arc::new(MemoryStore::new());
    let app = start(&dir, &store).await;

    let view = c::profiles_list(&app).await.unwrap();
    assert_eq!(view.profiles.len(), 1);
    let sandbox = &view.profiles[0];
    assert_eq!((sandbox.kind, sandbox.name.as_str(), sandbox.has_key), (ProfileKind::Sandbox, "Sandbox", true));
    assert_eq!(view.selected_id.as_deref(), Some(sandbox.id.as_str()));
    assert!(sandbox.base_url.starts_with("http://127.0.0.1:") && sandbox.base_url.ends_with("/api/v1"));

    let spaces = c::spaces_list(&app, SpaceListInput::default()).await.unwrap();
    assert!(!spaces.is_empty(), "the demo space is there");
    let demo = &spaces[0];
    let board = c::board_load(&app, serde_json::from_value(json!({ "spaceId": demo.id })).unwrap()).await.unwrap();
    assert!(!board.stages.is_empty());
    assert!(board.total > 0);
    let before = c::balance(&app).await.unwrap().balance;
    assert!(before > 0.0);
    let key = store.get(&sandbox.id).unwrap().expect("the sandbox key is in the store");
    drop(app);

    // Restart on the same folder and store: same profile, same key, the demo not seeded twice.
    let again = start(&dir, &store).await;
    let view2 = c::profiles_list(&again).await.unwrap();
    assert_eq!(view2.profiles.len(), 1);
    assert_eq!(view2.profiles[0].id, sandbox.id);
    assert_eq!(store.get(&sandbox.id).unwrap().as_deref(), Some(key.as_str()), "the stored key is reused");
    let spaces2 = c::spaces_list(&again, SpaceListInput::default()).await.unwrap();
    assert_eq!(spaces2.len(), spaces.len(), "not seeded twice");
    assert_eq!(c::balance(&again).await.unwrap().balance, before);
}

#[tokio::test]
async fn a_missing_or_revoked_sandbox_key_is_replaced_at_start() {
    let dir = temp_dir();
    let store = Arc::new(MemoryStore::new());
    let app = start(&dir, &store).await;
    let id = c::profiles_list(&app).await.unwrap().profiles[0].id.clone();
    drop(app);
    store.delete(&id).unwrap();
    let app = start(&dir, &store).await;
    assert!(store.get(&id).unwrap().is_some());
    c::balance(&app).await.expect("a fresh key works");
}

#[tokio::test]
async fn remote_profile_key_is_checked_before_it_is_stored_and_a_missing_scope_is_named() {
    let dir = temp_dir();
    let store = Arc::new(MemoryStore::new());
    let app = start(&dir, &store).await;
    let remote = TestSandbox::start().await;
    let mut leaks = Leaks(Vec::new());

    let p = c::profile_add(&app, ProfileAddArgs { name: "Work".into(), base_url: Some(format!("{}/", remote.base_url())) })
        .await
        .unwrap();
    assert_eq!(p.base_url, remote.base_url());
    assert!(!p.has_key);
    leaks.record(&p);

    // The host alone, as the official client reads CONTENTHERO_BASE_URL: the profile shows the base with
    // `/api/v1` added, and its key is checked against the real sandbox there.
    let host = remote.base_url().strip_suffix("/api/v1").expect("a sandbox's base ends in /api/v1").to_string();
    let h = c::profile_add(&app, ProfileAddArgs { name: "Host alone".into(), base_url: Some(host) }).await.unwrap();
    assert_eq!(h.base_url, remote.base_url());
    let balance = c::key_set(&app, KeySetArgs { profile_id: h.id.clone(), key: remote.key.clone() }).await.unwrap();
    leaks.record(&balance);
    leaks.record(&h);

    // A wrong key: 401, nothing stored.
    let bad = "ch_live_thisisnotarealkeyatall000000";
    let e = c::key_set(&app, KeySetArgs { profile_id: p.id.clone(), key: bad.into() }).await.unwrap_err();
    assert_eq!(e.code, IpcCode::Unauthorized);
    assert!(e.message.contains("Settings"));
    assert_eq!(store.get(&p.id).unwrap(), None);
    leaks.record(&e);
    leaks.assert_absent(&dir, bad);

    // A key without brandkit:read: stored (the balance answers), and the brand kits name the scope.
    let scopes: Vec<&str> = api_types::scopes::ALL.iter().copied().filter(|s| *s != "brandkit:read").collect();
    let key = remote.key_with(&scopes);
    let balance = c::key_set(&app, KeySetArgs { profile_id: p.id.clone(), key: key.clone() }).await.unwrap();
    leaks.record(&balance);
    assert_eq!(store.get(&p.id).unwrap().as_deref(), Some(key.as_str()));
    c::profile_select(&app, ProfileRefArgs { profile_id: p.id.clone() }).await.unwrap();
    let e = c::brand_kits_list(&app).await.unwrap_err();
    assert_eq!(e.code, IpcCode::MissingScope);
    assert_eq!(e.scope.as_deref(), Some("brandkit:read"));
    assert!(e.message.contains("brandkit:read"), "{}", e.message);
    leaks.record(&e);
    let json = serde_json::to_value(&e).unwrap();
    assert_eq!(json["code"], "missingScope");
    assert_eq!(json["scope"], "brandkit:read");
    assert_eq!(json["status"], 403);
    assert!(json.get("field").is_none() && json.get("conflicts").is_none(), "absent details are omitted: {json}");

    // Revoked on the service: the next call says so.
    remote.revoke(&key);
    let e = c::balance(&app).await.unwrap_err();
    assert_eq!(e.code, IpcCode::Unauthorized);

    // Sign out deletes the key; the profile stays and asks for one.
    let view = c::sign_out(&app, ProfileRefArgs { profile_id: p.id.clone() }).await.unwrap();
    leaks.record(&view);
    assert_eq!(store.get(&p.id).unwrap(), None);
    assert!(!view.profiles.iter().find(|x| x.id == p.id).unwrap().has_key);
    let e = c::balance(&app).await.unwrap_err();
    assert_eq!(e.code, IpcCode::NoKey);
    leaks.record(&e);
    leaks.assert_absent(&dir, &key);
}

#[tokio::test]
async fn profiles_rename_select_remove_and_their_rules() {
    let dir = temp_dir();
    let store = Arc::new(MemoryStore::new());
    let app = start(&dir, &store).await;
    let sandbox_id = c::profiles_list(&app).await.unwrap().profiles[0].id.clone();

    let e = c::profile_add(&app, ProfileAddArgs { name: "X".into(), base_url: Some("ftp://nope".into()) }).await.unwrap_err();
    assert_eq!((e.code, e.field.as_deref()), (IpcCode::Validation, Some("baseUrl")));
    let p = c::profile_add(&app, ProfileAddArgs { name: "Client A".into(), base_url: None }).await.unwrap();
    assert_eq!(p.base_url, contentdesk_core::REMOTE_DEFAULT_BASE_URL);
    let e = c::profile_add(&app, ProfileAddArgs { name: "client a".into(), base_url: None }).await.unwrap_err();
    assert_eq!(e.field.as_deref(), Some("name"));

    let renamed = c::profile_rename(&app, ProfileRenameArgs { id: p.id.clone(), name: "Client B".into() }).await.unwrap();
    assert_eq!(renamed.name, "Client B");
    c::profile_select(&app, ProfileRefArgs { profile_id: p.id.clone() }).await.unwrap();
    let e = c::balance(&app).await.unwrap_err();
    assert_eq!(e.code, IpcCode::NoKey, "{e:?}");

    let e = c::profile_remove(&app, ProfileRefArgs { profile_id: sandbox_id.clone() }).await.unwrap_err();
    assert_eq!(e.code, IpcCode::Validation);
    store.set(&p.id, "ch_live_placeholder").unwrap();
    let view = c::profile_remove(&app, ProfileRefArgs { profile_id: p.id.clone() }).await.unwrap();
    assert_eq!(view.profiles.len(), 1);
    assert_eq!(view.selected_id.as_deref(), Some(sandbox_id.as_str()), "selection falls back to the sandbox");
    assert_eq!(store.get(&p.id).unwrap(), None, "its key went with it");
    let e = c::profile_select(&app, ProfileRefArgs { profile_id: p.id }).await.unwrap_err();
    assert_eq!(e.code, IpcCode::NoProfile);

    // Persisted: a restart sees the rename and the removal.
    drop(app);
    let again = start(&dir, &store).await;
    assert_eq!(c::profiles_list(&again).await.unwrap().profiles.len(), 1);
}

#[tokio::test]
async fn dispatch_names_the_bad_field_and_unknown_commands_and_answers_the_wire_shape() {
    // The loop below calls every command, update_check among them: it asks a closed local port, never
    // the release server (without this the test reached for the internet, and hung offline).
    std::env::set_var(contentdesk_core::update::ENDPOINT_ENV, "http://127.0.0.1:9/latest.json");
    let dir = temp_dir();
    let store = Arc::new(MemoryStore::new());
    let app = start(&dir, &store).await;

    let e = ipc::dispatch(&app, "board_load", json!({})).await.unwrap_err();
    assert_eq!((e.code, e.field.as_deref()), (IpcCode::Validation, Some("spaceId")), "{e:?}");
    let e = ipc::dispatch(&app, "profile_add", json!({"name": 5})).await.unwrap_err();
    assert_eq!(e.field.as_deref(), Some("name"), "{e:?}");
    let e = ipc::dispatch(&app, "profile_add", json!({"name": "A", "colour": "red"})).await.unwrap_err();
    assert_eq!(e.code, IpcCode::Validation, "unknown fields are refused: {e:?}");
    // The profile commands take one `ProfileRefArgs` (`profileId`); the old `{ id }` is refused by name.
    let e = ipc::dispatch(&app, "profile_select", json!({"id": "p1"})).await.unwrap_err();
    assert_eq!((e.code, e.field.as_deref()), (IpcCode::Validation, Some("id")), "{e:?}");
    let e = ipc::dispatch(&app, "rm_rf", json!({})).await.unwrap_err();
    assert_eq!(e.code, IpcCode::Internal);

    let info = ipc::dispatch(&app, "app_info", serde_json::Value::Null).await.unwrap();
    assert_eq!(info["keyStorage"], "memory");
    let view = ipc::dispatch(&app, "profiles_list", json!({})).await.unwrap();
    assert_eq!(view["profiles"][0]["kind"], "sandbox");
    assert_eq!(view["profiles"][0]["hasKey"], true);
    let bal = ipc::dispatch(&app, "balance", json!({})).await.unwrap();
    assert!(bal["balance"].as_f64().unwrap() > 0.0);
    for cmd in ipc::COMMANDS {
        // Every listed command is known to dispatch (an empty body may be refused, never "unknown").
        if *cmd == "connect_browser_finish" {
            // connect_browser_start (earlier in the list) began a real sign-in, and finishing it waits
            // up to 3 minutes for a browser that never comes: stop it, so finish answers at once.
            ipc::dispatch(&app, "connect_browser_cancel", json!({})).await.expect("cancel");
        }
        let r = ipc::dispatch(&app, cmd, json!({})).await;
        if let Err(e) = r {
            assert!(!e.message.starts_with("Unknown command"), "{cmd}: {e:?}");
        }
    }
    let _ = KeyStorage::Memory;
}

/// The catalogue's inputs the app takes refuse a field they do not have, naming it (an old or misspelt
/// name is never dropped silently): the move's `stageId` (now `stage`), a card's, a section's and a
/// knowledge item's inputs.
#[tokio::test]
async fn the_catalogue_inputs_refuse_an_unknown_field_by_name() {
    let dir = temp_dir();
    let store = Arc::new(MemoryStore::new());
    let app = start(&dir, &store).await;
    let cases = [
        ("card_move", json!({ "cardId": "c1", "stage": "s1", "stageId": "s1" }), "stageId"),
        ("card_get", json!({ "cardId": "c1", "card": "c1" }), "card"),
        ("card_duplicate", json!({ "cardId": "c1", "title": "x" }), "title"),
        ("knowledge_search", json!({ "brandKitId": "k", "query": "q", "limt": 3 }), "limt"),
        ("knowledge_remove", json!({ "brandKitId": "k", "knowledgeId": "i", "id": "i" }), "id"),
        ("brand_kit_history", json!({ "brandKitId": "k", "key": "about", "version": 2 }), "version"),
        // The listing inputs flatten their Paging: their `Unknown` refuses the rest by name.
        ("knowledge_list", json!({ "brandKitId": "k", "limt": 3 }), "limt"),
        ("content_list", json!({ "serach": "launch" }), "serach"),
        ("media_library", json!({ "limit": 5, "ofset": 5 }), "ofset"),
        ("models_list", json!({ "contentType": "image", "refesh": true }), "refesh"),
        ("project_create", json!({ "cardId": "c1", "title": "Cut", "name": "Cut" }), "name"),
    ];
    for (cmd, args, field) in cases {
        let e = ipc::dispatch(&app, cmd, args).await.unwrap_err();
        assert_eq!((e.code, e.field.as_deref()), (IpcCode::Validation, Some(field)), "{cmd}: {e:?}");
        assert!(e.message.contains(&format!("unknown field `{field}`")), "{cmd}: {}", e.message);
    }
}

#[tokio::test]
async fn the_key_never_shows_in_debug_output_of_the_arguments() {
    let args: KeySetArgs = serde_json::from_value(json!({"profileId": "p", "key": "ch_live_secretsecretsecret"})).unwrap();
    let dbg = format!("{args:?}");
    assert!(!dbg.contains("secretsecret"), "{dbg}");
}

#[tokio::test]
async fn without_the_embedded_sandbox_and_no_profiles_the_app_asks_for_one() {
    let dir = temp_dir();
    let app = AppState::start(CoreConfig {
        data_dir: dir,
        settings: None,
        secrets: Secrets::Store(Arc::new(MemoryStore::new())),
        embedded_sandbox: false,
        embedded_sandbox_config: Default::default(),
    })
    .await
    .unwrap();
    let e = c::balance(&app).await.unwrap_err();
    assert_eq!(e.code, IpcCode::NoProfile);
}

/// Issue 25 point 4: one input type per operation. The core's own `*Args` types are only the app's own
/// commands' (profiles, outbox, settings, calendar windows); the operations the catalogue has take its
/// inputs. The goal is at most 15; this is the count reached so far, so it can only go down.
#[test]
fn the_core_declares_few_args_types_of_its_own() {
    const AT_MOST: usize = ARGS_TYPES_AT_MOST;
    fn walk(dir: &Path, found: &mut Vec<String>) {
        for entry in std::fs::read_dir(dir).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                walk(&path, found);
            } else if path.extension().is_some_and(|e| e == "rs") {
                let text = std::fs::read_to_string(&path).unwrap();
                for line in text.lines() {
                    let Some(rest) = line.trim_start().strip_prefix("pub struct ") else { continue };
                    let name: String = rest.chars().take_while(|c| c.is_ascii_alphanumeric() || *c == '_').collect();
                    if name.ends_with("Args") {
                        found.push(format!("{name} ({})", path.display()));
                    }
                }
            }
        }
    }
    let mut found = Vec::new();
    walk(&Path::new(env!("CARGO_MANIFEST_DIR")).join("src"), &mut found);
    assert!(found.len() > 5, "the walk found the core's sources: {found:?}");
    assert!(found.len() <= AT_MOST, "{} *Args types (at most {AT_MOST}):\n{}", found.len(), found.join("\n"));
}
