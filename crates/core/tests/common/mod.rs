//! What the core's integration tests share: an app core on the embedded sandbox, in a fresh temp data
//! folder, with keys in memory (each test file is its own crate; not every file uses every helper).
#![allow(dead_code)]
use contentdesk_core::{AppState, CoreConfig, MemoryStore, Secrets};
use std::sync::Arc;

/// A fresh data folder under the system temp folder, named after the test file.
pub fn temp_dir(tag: &str) -> std::path::PathBuf {
    let d = std::env::temp_dir().join(format!("contentdesk-{tag}-{}", uuid::Uuid::new_v4()));
    std::fs::create_dir_all(&d).unwrap();
    d
}

/// The core with its embedded sandbox (demo seeded, its key minted), as the app starts with no account.
pub async fn embedded_app(tag: &str) -> AppState {
    AppState::start(CoreConfig {
        data_dir: temp_dir(tag),
        settings: None,
        secrets: Secrets::Store(Arc::new(MemoryStore::new())),
        embedded_sandbox: true,
    })
    .await
    .expect("core starts")
}
