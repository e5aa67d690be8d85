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
    /// What the user should be told about this store at start (a file that could not be read, set
    /// aside); `None` when all is well.
    fn notice(&self) -> Option<String> {
        None
    }
}

/// `settings.json` in the data folder (the only copy of the profiles), written through the core's
/// atomic write (temp file, fsync, rename, fsync of the folder), so a crash or a full disk mid-write
/// leaves the previous settings, never half of them.
///
/// A file that cannot be read is never written over: opening it only notes the damage (so a reader such
/// as `cdesk` changes nothing); the first save sets it aside as `settings.json.damaged-<UTC time>` before
/// writing the new one, and [`SettingsBackend::notice`] says where it went.
pub struct JsonFileSettings {
    path: PathBuf,
    values: Mutex<Map<String, Value>>,
    damage: Mutex<Damage>,
}

enum Damage {
    None,
    /// Could not be read (why); still in place.
    Unread(String),
    /// Could not be read (why); moved here.
    SetAside(String, PathBuf),
}

impl JsonFileSettings {
    /// Reads the file if there is one; a file that is not a JSON object starts empty (see above).
    pub fn open(path: impl Into<PathBuf>) -> Self {
        let path = path.into();
        let (values, damage) = match std::fs::read(&path) {
            Ok(bytes) => match serde_json::from_slice::<Value>(&bytes) {
                Ok(Value::Object(m)) => (m, Damage::None),
                Ok(_) => (Map::new(), Damage::Unread("not a JSON object".into())),
                Err(e) => (Map::new(), Damage::Unread(if bytes.is_empty() { "it is empty".into() } else { e.to_string() })),
            },
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => (Map::new(), Damage::None),
            Err(e) => (Map::new(), Damage::Unread(e.to_string())),
        };
        if let Damage::Unread(why) = &damage {
            tracing::warn!(path = %path.display(), why, "settings file unreadable; it is set aside before anything is saved");
        }
        JsonFileSettings { path, values: Mutex::new(values), damage: Mutex::new(damage) }
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
        {
            let mut damage = self.damage.lock().unwrap_or_else(|e| e.into_inner());
            if let Damage::Unread(why) = &*damage {
                // Never written over: moved aside first, or nothing is written.
                let to = crate::jsonfile::set_aside(&self.path).map_err(|e| {
                    format!("{} could not be read ({why}) nor moved aside ({e}); nothing was written over it", self.path.display())
                })?;
                *damage = Damage::SetAside(why.clone(), to);
            }
        }
        crate::jsonfile::write_bytes(&self.path, &text).map_err(|e| format!("cannot write {}: {e}", self.path.display()))
    }

    fn notice(&self) -> Option<String> {
        match &*self.damage.lock().unwrap_or_else(|e| e.into_inner()) {
            Damage::SetAside(why, to) => Some(crate::jsonfile::set_aside_notice(
                "The settings file, with the profiles,",
                &self.path,
                to,
                why,
            )),
            Damage::Unread(why) => Some(format!("The settings file {} could not be read ({why}); it is left as it is.", self.path.display())),
            Damage::None => None,
        }
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
        assert_eq!(std::fs::read_dir(&dir).unwrap().count(), 1, "no temp file left");
        assert_eq!(JsonFileSettings::open(&path).get("a"), Some(serde_json::json!({"b": 1})));
        std::fs::write(&path, "not json").unwrap();
        let s = JsonFileSettings::open(&path);
        assert_eq!(s.get("a"), None);
        assert_eq!(std::fs::read(&path).unwrap(), b"not json", "opening changes nothing");
        s.save().unwrap();
        let aside: Vec<_> = std::fs::read_dir(&dir).unwrap().map(|e| e.unwrap().file_name().to_string_lossy().into_owned()).filter(|n| n.starts_with("settings.json.damaged-")).collect();
        assert_eq!(aside.len(), 1, "set aside before the save");
        assert_eq!(std::fs::read(dir.join(&aside[0])).unwrap(), b"not json");
        assert!(s.notice().unwrap().contains(&aside[0]));
        let _ = std::fs::remove_dir_all(dir);
    }
}
