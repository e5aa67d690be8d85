//! The session: what a domain module (planner, studio, brand kit, the outbox, …) needs of the running
//! app, and nothing more: the data folder, the selected profile and a client of the service for a
//! profile.
//!
//! This module is a leaf: it imports nothing of the core but its error type. `AppState` (the command
//! layer's running state) implements [`Session`]; the domain modules take `&impl Session` (or a trait of
//! their own built on it, e.g. `outbox::WithOutbox`, `studio::WithStudio`, for the memory they keep per
//! running app), so they never import `state.rs` and the core's imports have no circle:
//! `commands`/`ipc` → `state` → domain modules → `session`.
//!
//! There is no process-global state behind it: every value comes from the one implementing it.
use api_client::Client;
use std::future::Future;
use std::path::Path;

use crate::error::{IpcCode, IpcError, IpcResult};

/// The running app as the domain modules see it. Cheap to clone (a handle), so a background task (a
/// render's poller, the outbox's sync loop) keeps its own.
pub trait Session: Clone + Send + Sync + 'static {
    /// The folder the app keeps its files in (`outbox.json`, `studio.db`, …).
    fn data_dir(&self) -> &Path;

    /// The selected profile's id; `None` when there is none.
    fn selected_profile(&self) -> Option<String>;

    /// The client of one profile (built from its stored key; cached by the implementer).
    fn client_for(&self, profile: &str) -> impl Future<Output = IpcResult<Client>> + Send;

    /// The selected profile's id, or the `noProfile` error the UI shows.
    fn profile_id(&self) -> IpcResult<String> {
        self.selected_profile().ok_or_else(no_profile)
    }

    /// The selected profile's client.
    fn client(&self) -> impl Future<Output = IpcResult<Client>> + Send {
        async move {
            let id = self.profile_id()?;
            self.client_for(&id).await
        }
    }
}

/// No profile is selected.
pub fn no_profile() -> IpcError {
    IpcError::new(IpcCode::NoProfile, "No profile is selected: add or pick one in Settings.")
}
