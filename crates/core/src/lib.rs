//! Content Desk's behaviour, written once and free of Tauri: profiles, keys in the OS keyring, the
//! embedded sandbox, and every command the UI calls (docs/ipc.md). The desktop shell and web-shell are
//! thin layers over `commands` and `ipc::dispatch`.
// Every command fails with the one `IpcError` (docs/ipc.md), a flat record of what the UI shows: it is built
// once per failed command and serialised, so its size on the stack costs nothing worth a Box per error.
#![allow(clippy::result_large_err)]
pub mod attach;
pub mod backup;
pub mod brand_kit;
pub mod calendar;
mod command_table;
pub mod commands;
pub mod connect;
pub mod embedded;
pub mod error;
pub mod granted_apps;
pub mod io;
pub mod ipc;
pub mod jsonfile;
pub mod library;
pub mod outbox;
pub mod planner;
pub mod profiles;
pub mod secrets;
pub mod session;
pub mod settings;
pub mod state;
pub mod studio;
pub mod update;

/// The service's wire types, as the command table names them.
pub use api_types as api;
/// The outbox's earlier name (the faces start its sync loop as `drafts::spawn_sync_loop`).
pub use outbox as drafts;
pub use error::{IpcCode, IpcConflict, IpcError, IpcResult};
pub use profiles::{Profile, ProfileKind, ProfilesView, REMOTE_DEFAULT_BASE_URL};
pub use secrets::{KeyStorage, KeyringStore, MemoryStore, SecretError, SecretStore};
pub use settings::{JsonFileSettings, MemorySettings, SettingsBackend};
pub use state::{AppState, CoreConfig, Secrets};
