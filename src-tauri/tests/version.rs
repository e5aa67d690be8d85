//! One version (issue 24, point 3): the app's Tauri config takes its version from the workspace (no
//! `version` of its own, so Tauri reads Cargo.toml's, which is `version.workspace = true`), and the About
//! line's `app_info.version` is that version. The rest: crates/cli/tests/version.rs (`cdesk --version`,
//! the MCP `serverInfo`, the man pages), crates/api-client/tests/transport.rs (the User-Agent),
//! tests/package/run.sh (the package's version, the installed `cdesk --version`).
use contentdesk_core::{AppState, CoreConfig, MemoryStore, Secrets};
use std::sync::Arc;

fn workspace_version() -> String {
    let toml = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/../Cargo.toml")).unwrap();
    let section = toml.split("[workspace.package]").nth(1).expect("a [workspace.package] section");
    let line = section.lines().find(|l| l.trim_start().starts_with("version")).expect("a version");
    line.split('"').nth(1).expect("a quoted version").to_string()
}

#[test]
fn the_tauri_config_and_the_crate_carry_the_workspace_version() {
    // Tauri 2 (tauri-utils `Config::version`): "If removed the version number from Cargo.toml is used".
    // A version written in a config would be a second one to keep in step: it must not be there at all
    // (the app's, its per-system overlays, the packaging overlays, the benchmark peer's).
    for file in ["tauri.conf.json", "tauri.macos.conf.json", "tauri.windows.conf.json", "tauri.package.conf.json", "tauri.release.conf.json", "../tests/bench/empty-window/tauri.conf.json"] {
        let path = format!("{}/{file}", env!("CARGO_MANIFEST_DIR"));
        let conf: serde_json::Value = serde_json::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap();
        assert!(conf.get("version").is_none(), "{file} must not carry a version of its own: {:?}", conf.get("version"));
    }
    assert_eq!(env!("CARGO_PKG_VERSION"), workspace_version(), "src-tauri's Cargo.toml takes version.workspace");
}

#[test]
fn the_about_line_reports_the_workspace_version() {
    let dir = std::env::temp_dir().join(format!("contentdesk-version-{}", uuid::Uuid::new_v4()));
    let state = tauri::async_runtime::block_on(AppState::start(CoreConfig {
        data_dir: dir.clone(),
        settings: None,
        secrets: Secrets::Store(Arc::new(MemoryStore::new())),
        embedded_sandbox: false,
        embedded_sandbox_config: Default::default(),
    }))
    .expect("core");
    let info = tauri::async_runtime::block_on(contentdesk_core::commands::app_info(&state)).unwrap();
    assert_eq!(info.version, workspace_version());
    drop(state);
    let _ = std::fs::remove_dir_all(&dir);
}
