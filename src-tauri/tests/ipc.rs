//! The desktop commands through Tauri's IPC (mock runtime): the values the web view receives, and
//! errors as the `{code, message, ...}` object.
use contentdesk_core::{AppState, CoreConfig, MemoryStore, Secrets};
use sandbox::testing::TestSandbox;
use serde_json::{json, Value};
use std::sync::Arc;
use tauri::ipc::{CallbackFn, InvokeBody};
use tauri::test::{get_ipc_response, mock_builder, mock_context, noop_assets, MockRuntime, INVOKE_KEY};
use tauri::webview::InvokeRequest;
use tauri::WebviewWindow;

fn window(state: AppState) -> (tauri::App<MockRuntime>, WebviewWindow<MockRuntime>) {
    let app = mock_builder()
        .invoke_handler(contentdesk_desktop::invoke_handler())
        .manage(contentdesk_desktop::Core::ready_with(state))
        .build(mock_context(noop_assets()))
        .expect("mock app");
    let w = tauri::WebviewWindowBuilder::new(&app, "main", Default::default()).build().expect("window");
    (app, w)
}

fn core() -> AppState {
    let dir = std::env::temp_dir().join(format!("contentdesk-desktop-{}", uuid::Uuid::new_v4()));
    tauri::async_runtime::block_on(AppState::start(CoreConfig {
        data_dir: dir,
        settings: None,
        secrets: Secrets::Store(Arc::new(MemoryStore::new())),
        embedded_sandbox: true,
        embedded_sandbox_config: Default::default(),
    }))
    .expect("core")
}

fn invoke(w: &WebviewWindow<MockRuntime>, cmd: &str, body: Value) -> Result<Value, Value> {
    invoke_from(w, "tauri://localhost", cmd, body)
}

fn invoke_from(w: &WebviewWindow<MockRuntime>, origin: &str, cmd: &str, body: Value) -> Result<Value, Value> {
    let req = InvokeRequest {
        cmd: cmd.into(),
        callback: CallbackFn(0),
        error: CallbackFn(1),
        // The app's own origin is tauri:// on Linux: app commands are allowed only from local content.
        url: origin.parse().unwrap(),
        body: InvokeBody::Json(body),
        headers: Default::default(),
        invoke_key: INVOKE_KEY.to_string(),
    };
    get_ipc_response(w, req).map(|b| b.deserialize::<Value>().expect("json body"))
}

#[test]
fn commands_answer_through_ipc_with_the_embedded_sandbox() {
    let (_app, w) = window(core());
    let view = invoke(&w, "profiles_list", json!({})).unwrap();
    assert_eq!(view["profiles"][0]["kind"], "sandbox");
    let balance = invoke(&w, "balance", json!({})).unwrap();
    assert!(balance["balance"].as_f64().unwrap() > 0.0);
    let spaces = invoke(&w, "spaces_list", json!({"args": {}})).unwrap();
    let space_id = spaces[0]["id"].as_str().unwrap().to_string();
    let board = invoke(&w, "board_load", json!({"args": {"spaceId": space_id}})).unwrap();
    assert!(!board["stages"].as_array().unwrap().is_empty());
}

#[test]
fn errors_arrive_as_the_ipc_error_object() {
    let (_app, w) = window(core());
    // Missing argument: Tauri's own message (the command never ran).
    let e = invoke(&w, "board_load", json!({})).unwrap_err();
    assert!(e.to_string().contains("args"), "{e}");
    // Validation from the core, with its field.
    let e = invoke(&w, "profile_add", json!({"args": {"name": "X", "baseUrl": "ftp://nope"}})).unwrap_err();
    assert_eq!(e["code"], "validation");
    assert_eq!(e["field"], "baseUrl");
    assert!(e.get("scope").is_none());
}

#[test]
fn a_missing_scope_is_named_over_ipc_and_the_key_never_comes_back() {
    let remote = tauri::async_runtime::block_on(TestSandbox::start());
    let scopes: Vec<&str> = api_types::scopes::ALL.iter().copied().filter(|s| *s != "brandkit:read").collect();
    let key = remote.key_with(&scopes);
    let (_app, w) = window(core());
    let p = invoke(&w, "profile_add", json!({"args": {"name": "Remote", "baseUrl": remote.base_url()}})).unwrap();
    let id = p["id"].as_str().unwrap().to_string();
    let bal = invoke(&w, "key_set", json!({"args": {"profileId": id, "key": key}})).unwrap();
    assert!(!bal.to_string().contains(&key));
    let view = invoke(&w, "profile_select", json!({"args": {"profileId": id}})).unwrap();
    assert!(!view.to_string().contains(&key));
    let e = invoke(&w, "brand_kits_list", json!({})).unwrap_err();
    assert_eq!(e["code"], "missingScope");
    assert_eq!(e["scope"], "brandkit:read");
    assert_eq!(e["status"], 403);
    assert!(!e.to_string().contains(&key));
}

#[test]
fn a_remote_page_cannot_call_the_commands() {
    let (_app, w) = window(core());
    let e = invoke_from(&w, "https://evil.example/", "profiles_list", json!({})).unwrap_err();
    assert!(e.to_string().contains("not allowed"), "{e}");
}

#[test]
fn every_core_command_is_registered_and_the_studio_answers_over_ipc() {
    let (_app, w) = window(core());
    for cmd in contentdesk_core::ipc::COMMANDS {
        if let Err(e) = invoke(&w, cmd, json!({})) {
            assert!(!e.to_string().contains("not found"), "{cmd}: {e}");
        }
    }
    let quote = invoke(&w, "studio_quote", json!({"args": {"form": {"media": "image", "modelId": "nano-banana-2", "prompt": "a fox"}}}))
        .unwrap();
    assert!(quote["credits"].as_f64().unwrap() > 0.0, "{quote}");
    assert_eq!(quote["affordable"], true);
    let models = invoke(&w, "models_list", json!({"args": {"contentType": "video"}})).unwrap();
    assert!(models.as_array().unwrap().iter().all(|m| m["contentType"] == "video"));
}

#[test]
fn only_web_and_mail_links_open_outside_the_app() {
    for ok in ["https://example.com/a?b#c", "http://127.0.0.1:8080/x", "mailto:hi@example.com", " HTTPS://Example.com "] {
        assert!(contentdesk_desktop::external_url(ok).is_ok(), "{ok}");
    }
    assert!(contentdesk_desktop::external_url("mailto:hi@example.com?subject=Hi&body=Hello%20there&cc=a@example.com").is_ok());
    for bad in ["javascript:alert(1)", "file:///etc/passwd", "https://", "ftp://example.com", "data:text/html,x", "https://a b.com", "", "mailto:",
        "mailto:hi@example.com?attach=/home/me/.ssh/id_rsa", "mailto:hi@example.com?subject=x&ATTACHMENT=file:///etc/passwd", "mailto:?Attach=~/.config"] {
        let e = contentdesk_desktop::external_url(bad).unwrap_err();
        assert_eq!(e.field.as_deref(), Some("url"), "{bad}");
    }
    let (_app, w) = window(core());
    let e = invoke(&w, "open_external", json!({"args": {"url": "javascript:alert(1)"}})).unwrap_err();
    assert_eq!(e["code"], "validation");
}

#[test]
fn a_saved_file_never_overwrites_and_never_leaves_its_folder() {
    let dir = std::env::temp_dir().join(format!("cd-save-{}", uuid::Uuid::new_v4()));
    let first = contentdesk_desktop::save_into(&dir, "plan.ics", b"one").unwrap();
    let second = contentdesk_desktop::save_into(&dir, "plan.ics", b"two").unwrap();
    let third = contentdesk_desktop::save_into(&dir, "plan.ics", b"three").unwrap();
    assert_eq!(first, dir.join("plan.ics"));
    assert_eq!(second, dir.join("plan (2).ics"));
    assert_eq!(third, dir.join("plan (3).ics"));
    assert_eq!(std::fs::read(&first).unwrap(), b"one", "the first file is kept as it was");
    // A name is only ever a name: a path's folders are dropped.
    assert_eq!(contentdesk_desktop::save_into(&dir, "../../etc/x.json", b"{}").unwrap(), dir.join("x.json"));
    assert_eq!(contentdesk_desktop::save_into(&dir, "..", b"").unwrap(), dir.join("content-desk-file"));
    assert_eq!(contentdesk_desktop::save_into(&dir, ".env", b"").unwrap(), dir.join(".env"));
    assert_eq!(contentdesk_desktop::save_into(&dir, ".env", b"").unwrap(), dir.join(".env (2)"));
    std::fs::remove_dir_all(&dir).unwrap();
}
