//! Settings: a small key → JSON map. The desktop shell implements the trait over tauri-plugin-store;
//! web-shell and the tests use the JSON file below. Nothing secret is ever written here: keys live in the
//! `SecretStore`.
use serde_json::{Map, Value};
use std::path::{Path, PathBuf};
use std::sync::Mutex;

pub trait SettingsBackend: Send + Sync {
    fn get(&self, key: &str) -> Option<Value>;
    fn set(&self, key: &str, value: Value);
    /// Writes what was set to disk.
    fn save(&self) -> Result<(), String>;
}

/// `settings.json` in the data folder, written atomically (temp file + rename) so a crash mid-write
/// leaves the previous settings, never half of them.
pub struct JsonFileSettings {
    path: PathBuf,
    values: Mutex<Map<String, Value>>,
}

impl JsonFileSettings {
    /// Reads the file if there is one. A file that is not a JSON object is kept aside as
    /// `settings.json.broken` and the app starts from defaults rather than refusing to open.
    pub fn open(path: impl Into<PathBuf>) -> Self {
        let path = path.into();
        let values = match std::fs::read(&path) {
            Ok(bytes) => match serde_json::from_slice::<Value>(&bytes) {
                Ok(Value::Object(m)) => m,
                _ => {
                    let aside = path.with_extension("json.broken");
                    tracing::warn!(path = %path.display(), "settings file unreadable; kept aside, starting from defaults");
                    let _ = std::fs::rename(&path, aside);
                    Map::new()
                }
            },
            Err(_) => Map::new(),
        };
        JsonFileSettings { path, values: Mutex::new(values) }
    }

    pub fn path(&self) -> &Path {
        &self.path
    }
}

impl SettingsBackend for JsonFileSettings {
    fn get(&self, key: &str) -> Option<Value> {
        self.values.lock().unwrap_or_else(|e| e.into_inner()).get(key).cloned()
    }

    fn set(&self, key: &str, value: Value) {
        self.values.lock().unwrap_or_else(|e| e.into_inner()).insert(key.to_string(), value);
    }

    fn save(&self) -> Result<(), String> {
        let text = {
            let values = self.values.lock().unwrap_or_else(|e| e.into_inner());
            serde_json::to_vec_pretty(&*values).map_err(|e| e.to_string())?
        };
        if let Some(dir) = self.path.parent() {
            std::fs::create_dir_all(dir).map_err(|e| format!("cannot create {}: {e}", dir.display()))?;
        }
        let tmp = self.path.with_extension("json.tmp");
        std::fs::write(&tmp, text).map_err(|e| format!("cannot write {}: {e}", tmp.display()))?;
        std::fs::rename(&tmp, &self.path).map_err(|e| format!("cannot replace {}: {e}", self.path.display()))
    }
}

/// In memory only (tests of the Tauri shell, which brings its own store).
#[derive(Default)]
pub struct MemorySettings {
    values: Mutex<Map<String, Value>>,
}

impl SettingsBackend for MemorySettings {
    fn get(&self, key: &str) -> Option<Value> {
        self.values.lock().unwrap_or_else(|e| e.into_inner()).get(key).cloned()
    }
    fn set(&self, key: &str, value: Value) {
        self.values.lock().unwrap_or_else(|e| e.into_inner()).insert(key.to_string(), value);
    }
    fn save(&self) -> Result<(), String> {
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn saves_atomically_and_reads_back_and_keeps_a_broken_file_aside() {
        let dir = std::env::temp_dir().join(format!("cd-settings-{}", uuid::Uuid::new_v4()));
        let path = dir.join("settings.json");
        let s = JsonFileSettings::open(&path);
        s.set("a", serde_json::json!({"b": 1}));
        s.save().unwrap();
        assert!(!dir.join("settings.json.tmp").exists());
        assert_eq!(JsonFileSettings::open(&path).get("a"), Some(serde_json::json!({"b": 1})));
        std::fs::write(&path, "not json").unwrap();
        assert_eq!(JsonFileSettings::open(&path).get("a"), None);
        assert!(dir.join("settings.json.broken").exists());
        let _ = std::fs::remove_dir_all(dir);
    }
}
