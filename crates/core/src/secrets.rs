//! Where API keys live: the OS keyring (service `contentdesk`, account = profile id), or memory.
//!
//! The trait is synchronous because the platform stores are; `AppState` calls it on the blocking pool.
//! Errors carry the backend's text (which never holds the secret: the backends report dbus and platform
//! failures, not the values) and turn into a message that says what to do.
use serde::{Deserialize, Serialize};
use std::collections::HashMap;
use std::sync::Mutex;
use ts_rs::TS;

/// Where keys are kept in this run.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub enum KeyStorage {
    /// The OS keyring: keys survive a restart.
    Keyring,
    /// No keyring reachable: keys are kept for this run only.
    Memory,
}

#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum SecretError {
    /// No Secret Service (or platform store) answered.
    #[error("no keyring is reachable: {reason}")]
    Unavailable { reason: String },
    /// The store answered but is locked.
    #[error("the keyring is locked: {reason}")]
    Locked { reason: String },
    #[error("the keyring failed: {reason}")]
    Other { reason: String },
}

impl SecretError {
    /// Classifies a backend's error text (dbus, Secret Service, platform) into what the user can act on.
    pub fn from_backend_text(text: &str) -> SecretError {
        let t = text.to_lowercase();
        let reason = text.to_string();
        // "no result found": gnome-keyring runs but has no login keyring and nothing can show the
        // prompt that would create or unlock it (measured: keyring 3.6 on a headless session).
        if t.contains("locked") || t.contains("no result found") {
            SecretError::Locked { reason }
        } else if t.contains("dbus")
            || t.contains("d-bus")
            || t.contains("org.freedesktop.secrets")
            || t.contains("not provided by any .service")
            || t.contains("no such file")
            || t.contains("connection refused")
            || t.contains("$display")
            || t.contains("no storage access")
        {
            SecretError::Unavailable { reason }
        } else {
            SecretError::Other { reason }
        }
    }

    /// What the user reads: what is wrong and what to install or unlock.
    pub fn user_message(&self) -> String {
        match self {
            SecretError::Unavailable { reason } => format!(
                "No keyring is reachable, so API keys are kept in memory for this run only ({reason}). \
                 On Linux, install and start a Secret Service provider (GNOME Keyring: package gnome-keyring; \
                 or KeePassXC with its Secret Service integration) in your desktop session, then restart Content Desk."
            ),
            SecretError::Locked { reason } => format!(
                "The keyring is locked or has no login keyring yet ({reason}). Create or unlock your login keyring \
                 (for example by logging in again, or with Seahorse / “Passwords and Keys”), then try again."
            ),
            SecretError::Other { reason } => format!("The keyring failed: {reason}. Try again, or restart Content Desk."),
        }
    }
}

/// Keys by account (the profile id). Object safe so the app can pick a store at start.
pub trait SecretStore: Send + Sync {
    fn get(&self, account: &str) -> Result<Option<String>, SecretError>;
    fn set(&self, account: &str, secret: &str) -> Result<(), SecretError>;
    /// Deleting what is not there is not an error.
    fn delete(&self, account: &str) -> Result<(), SecretError>;
    fn storage(&self) -> KeyStorage;
}

/// For tests and for runs with no keyring.
#[derive(Default)]
pub struct MemoryStore {
    items: Mutex<HashMap<String, String>>,
}

impl MemoryStore {
    pub fn new() -> Self {
        Self::default()
    }
}

impl SecretStore for MemoryStore {
    fn get(&self, account: &str) -> Result<Option<String>, SecretError> {
        Ok(self.items.lock().unwrap_or_else(|e| e.into_inner()).get(account).cloned())
    }
    fn set(&self, account: &str, secret: &str) -> Result<(), SecretError> {
        self.items.lock().unwrap_or_else(|e| e.into_inner()).insert(account.to_string(), secret.to_string());
        Ok(())
    }
    fn delete(&self, account: &str) -> Result<(), SecretError> {
        self.items.lock().unwrap_or_else(|e| e.into_inner()).remove(account);
        Ok(())
    }
    fn storage(&self) -> KeyStorage {
        KeyStorage::Memory
    }
}

/// The keyring's service name: development and release builds keep their keys apart (tests choose their
/// own through `CoreConfig::from_env`).
pub fn default_keyring_service() -> String {
    if cfg!(debug_assertions) { "contentdesk-dev" } else { "contentdesk" }.to_string()
}

/// The OS keyring (Secret Service on Linux, Keychain on macOS, Credential Manager on Windows).
pub struct KeyringStore {
    service: String,
}

impl KeyringStore {
    pub fn new(service: impl Into<String>) -> Self {
        KeyringStore { service: service.into() }
    }

    /// Writes and deletes a probe item: the only way to learn both that a store answers and that it is
    /// unlocked for writing (reading a missing item succeeds on a locked collection).
    pub fn probe(&self) -> Result<(), SecretError> {
        let account = "contentdesk-probe";
        self.set(account, "probe")?;
        self.delete(account)
    }

    fn entry(&self, account: &str) -> Result<keyring::Entry, SecretError> {
        keyring::Entry::new(&self.service, account).map_err(map_keyring)
    }
}

fn map_keyring(e: keyring::Error) -> SecretError {
    match e {
        keyring::Error::NoStorageAccess(inner) => SecretError::from_backend_text(&format!("no storage access: {inner}")),
        keyring::Error::PlatformFailure(inner) => SecretError::from_backend_text(&inner.to_string()),
        other => SecretError::Other { reason: other.to_string() },
    }
}

impl SecretStore for KeyringStore {
    fn get(&self, account: &str) -> Result<Option<String>, SecretError> {
        match self.entry(account)?.get_password() {
            Ok(s) => Ok(Some(s)),
            Err(keyring::Error::NoEntry) => Ok(None),
            Err(e) => Err(map_keyring(e)),
        }
    }
    fn set(&self, account: &str, secret: &str) -> Result<(), SecretError> {
        self.entry(account)?.set_password(secret).map_err(map_keyring)
    }
    fn delete(&self, account: &str) -> Result<(), SecretError> {
        match self.entry(account)?.delete_credential() {
            Ok(()) | Err(keyring::Error::NoEntry) => Ok(()),
            Err(e) => Err(map_keyring(e)),
        }
    }
    fn storage(&self) -> KeyStorage {
        KeyStorage::Keyring
    }
}

/// The keyring when it answers and is writable, else memory with the reason kept for the user.
pub fn keyring_or_memory(service: impl Into<String>) -> (std::sync::Arc<dyn SecretStore>, Option<SecretError>) {
    let store = KeyringStore::new(service);
    match store.probe() {
        Ok(()) => (std::sync::Arc::new(store), None),
        Err(e) => {
            tracing::warn!(error = %e, "keyring unavailable; keys kept in memory for this run");
            (std::sync::Arc::new(MemoryStore::new()), Some(e))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn backend_texts_become_what_to_do() {
        let cases = [
            ("Unable to autolaunch a dbus-daemon without a $DISPLAY for X11", "Unavailable"),
            ("The name org.freedesktop.secrets was not provided by any .service files", "Unavailable"),
            ("Cannot create an item in a locked collection", "Locked"),
            ("no storage access: Secret Service: no result found", "Locked"),
            ("something else", "Other"),
        ];
        for (text, want) in cases {
            let got = SecretError::from_backend_text(text);
            assert!(format!("{got:?}").starts_with(want), "{text} → {got:?}");
        }
        assert!(SecretError::from_backend_text("Cannot create an item in a locked collection")
            .user_message()
            .contains("unlock your login keyring"));
        assert!(SecretError::from_backend_text("org.freedesktop.secrets was not provided by any .service files")
            .user_message()
            .contains("gnome-keyring"));
    }

    #[test]
    fn memory_store_round_trip_and_delete_of_nothing() {
        let m = MemoryStore::new();
        assert_eq!(m.get("p").unwrap(), None);
        m.set("p", "s").unwrap();
        assert_eq!(m.get("p").unwrap().as_deref(), Some("s"));
        m.delete("p").unwrap();
        m.delete("p").unwrap();
        assert_eq!(m.get("p").unwrap(), None);
    }
}
