//! Where the key and the base URL come from (spec §5.8, fact sheet 4.2), first found wins:
//! `--api-key`, then `CONTENTHERO_API_KEY`, then what is stored: the OS keyring entry of a Content Desk
//! profile (`--profile NAME`, else the app's selected remote profile), cdesk's own keyring entry (what
//! `cdesk login --with-key` stores without a profile), then the official CLI's credential
//! file `$CONTENTHERO_CONFIG_DIR/credentials` (default `~/.contenthero/credentials`), read only when no one
//! else may read it (mode 0600, as ssh insists). The base URL: `--base-url`, `CONTENTHERO_BASE_URL`, the
//! profile's, the official CLI's `config.json`, the service's default.
use contentdesk_core::profiles::ProfileRecord;
use contentdesk_core::{JsonFileSettings, KeyringStore, ProfileKind, SecretStore, SettingsBackend, REMOTE_DEFAULT_BASE_URL};
use serde::Serialize;
use std::path::{Path, PathBuf};

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum KeySource {
    Flag,
    Env,
    Keyring,
    File,
    /// A key minted in the app's local sandbox for this one command (revoked when it ends), when the
    /// app's own sandbox key cannot be read from the keyring.
    Sandbox,
    None,
}

/// What the ladder found. `key` is never printed.
pub struct Resolved {
    pub key: Option<String>,
    pub source: KeySource,
    pub base_url: String,
    /// The Content Desk profile the key came from, when it did.
    pub profile: Option<String>,
    /// The app's local sandbox was asked for: `key` and `base_url` are found by `local::open`.
    pub local: Option<LocalTarget>,
}

/// The desktop app's local sandbox: its data folder and its profile (none when the app has not made one).
#[derive(Debug, Clone)]
pub struct LocalTarget {
    pub data_dir: PathBuf,
    pub profile_id: Option<String>,
    pub profile_name: Option<String>,
}

/// What the command line and the environment give the ladder.
#[derive(Default)]
pub struct Given {
    pub api_key: Option<String>,
    pub base_url: Option<String>,
    pub profile: Option<String>,
    /// `--sandbox`: the app's local sandbox.
    pub sandbox: bool,
}

fn env(name: &str) -> Option<String> {
    std::env::var(name).ok().map(|v| v.trim().to_string()).filter(|v| !v.is_empty())
}

/// The official CLI's folder: `$CONTENTHERO_CONFIG_DIR` or `~/.contenthero`.
pub fn config_dir() -> Option<PathBuf> {
    env("CONTENTHERO_CONFIG_DIR").map(PathBuf::from).or_else(|| home().map(|h| h.join(".contenthero")))
}

fn home() -> Option<PathBuf> {
    env("HOME").map(PathBuf::from)
}

/// The desktop app's data folder: `CONTENTDESK_DATA_DIR`, else the platform's app data folder (where
/// Tauri puts it for the identifier `ai.contentdesk.app`).
pub fn app_data_dir() -> Option<PathBuf> {
    if let Some(d) = env("CONTENTDESK_DATA_DIR") {
        return Some(PathBuf::from(d));
    }
    let base = if cfg!(target_os = "macos") {
        home().map(|h| h.join("Library/Application Support"))
    } else if cfg!(windows) {
        env("APPDATA").map(PathBuf::from)
    } else {
        env("XDG_DATA_HOME").map(PathBuf::from).or_else(|| home().map(|h| h.join(".local/share")))
    };
    base.map(|b| b.join("ai.contentdesk.app"))
}

/// The keyring service the desktop app uses (`CONTENTDESK_KEYRING_SERVICE` for tests, as the app).
pub fn keyring_service() -> String {
    env("CONTENTDESK_KEYRING_SERVICE").unwrap_or_else(contentdesk_core::secrets::default_keyring_service)
}

/// The app's profiles and the selected one's id, from its settings file (none when there is none).
pub fn app_profiles() -> (Vec<ProfileRecord>, Option<String>) {
    let Some(dir) = app_data_dir() else { return (Vec::new(), None) };
    let path = dir.join("settings.json");
    if !path.exists() {
        return (Vec::new(), None);
    }
    let settings = JsonFileSettings::open(path);
    let profiles = settings.get("profiles").and_then(|v| serde_json::from_value(v).ok()).unwrap_or_default();
    let selected = settings.get("selectedProfileId").and_then(|v| v.as_str().map(String::from));
    (profiles, selected)
}

/// The profile named (by name, case-insensitive, or id).
pub fn find_profile(name: &str) -> Result<ProfileRecord, String> {
    pick_profile(Some(name)).map(|p| p.expect("a named profile is found or refused"))
}

/// The profile `--profile` names (by name, case-insensitive, or id), or the app's selected one.
fn pick_profile(name: Option<&str>) -> Result<Option<ProfileRecord>, String> {
    let (profiles, selected) = app_profiles();
    match name {
        Some(n) => profiles
            .iter()
            .find(|p| p.id == n || p.name.eq_ignore_ascii_case(n))
            .cloned()
            .map(Some)
            .ok_or_else(|| {
                let names: Vec<&str> = profiles.iter().map(|p| p.name.as_str()).collect();
                if names.is_empty() {
                    format!("no Content Desk profile named `{n}`: the app has none yet on this computer")
                } else {
                    format!("no Content Desk profile named `{n}`; there are: {}", names.join(", "))
                }
            }),
        None => Ok(selected.and_then(|s| profiles.into_iter().find(|p| p.id == s))),
    }
}

/// The credential file's key, when the file is there, private and readable. A file others may read is
/// refused with the command that fixes it.
pub fn file_key(dir: &Path) -> Result<Option<String>, String> {
    let path = dir.join("credentials");
    let Ok(meta) = std::fs::metadata(&path) else { return Ok(None) };
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        let mode = meta.permissions().mode() & 0o777;
        if mode & 0o077 != 0 {
            return Err(format!(
                "{} is readable by others (mode {mode:o}); refusing to use it. Run: chmod 600 {}",
                path.display(),
                path.display()
            ));
        }
    }
    #[cfg(not(unix))]
    let _ = meta;
    let text = std::fs::read_to_string(&path).map_err(|e| format!("cannot read {}: {e}", path.display()))?;
    // Missing or corrupt: ignored, as the official CLI does.
    Ok(serde_json::from_str::<serde_json::Value>(&text)
        .ok()
        .and_then(|v| v.get("apiKey").and_then(|k| k.as_str()).map(str::to_string))
        .filter(|k| !k.trim().is_empty()))
}

fn file_base_url(dir: &Path) -> Option<String> {
    let text = std::fs::read_to_string(dir.join("config.json")).ok()?;
    serde_json::from_str::<serde_json::Value>(&text).ok()?.get("baseUrl")?.as_str().map(str::to_string)
}

/// The base URL asked for by `--base-url` or `CONTENTHERO_BASE_URL`, when one is.
pub fn explicit_base_url(given: &Given) -> Option<String> {
    given.base_url.clone().or_else(|| env("CONTENTHERO_BASE_URL"))
}

/// The base URL when no profile gives one: asked for, else the official CLI's `config.json`, else the
/// service's default.
pub fn default_base_url(given: &Given) -> String {
    explicit_base_url(given)
        .or_else(|| config_dir().as_deref().and_then(file_base_url))
        .unwrap_or_else(|| REMOTE_DEFAULT_BASE_URL.to_string())
}

/// Walks the ladder. An error is a rung that is there but unusable (a profile not found, a credential
/// file others may read): said plainly rather than skipped.
pub fn resolve(given: &Given) -> Result<Resolved, String> {
    let explicit_base = explicit_base_url(given);
    let config = config_dir();
    let fallback_base = || default_base_url(given);
    // The local sandbox, asked for by name (`--sandbox`, or `--profile` naming the app's sandbox profile):
    // before the environment's key, which cannot be one of the local sandbox's.
    if let Some(target) = local_target(given)? {
        let profile = target.profile_name.clone();
        return Ok(Resolved { key: None, source: KeySource::None, base_url: String::new(), profile, local: Some(target) });
    }
    if let Some(k) = given.api_key.clone().filter(|k| !k.trim().is_empty()) {
        return Ok(Resolved { key: Some(k), source: KeySource::Flag, base_url: fallback_base(), profile: None, local: None });
    }
    if let Some(k) = env("CONTENTHERO_API_KEY") {
        return Ok(Resolved { key: Some(k), source: KeySource::Env, base_url: fallback_base(), profile: None, local: None });
    }
    let mut keyless = None;
    if let Some(p) = pick_profile(given.profile.as_deref())? {
        // The app's selected profile being its sandbox is not a request for it (asked for by name above).
        if p.kind != ProfileKind::Sandbox {
            let store = KeyringStore::new(keyring_service());
            match store.get(&p.id) {
                Ok(Some(key)) => {
                    let base = explicit_base.clone().unwrap_or_else(|| p.base_url.clone());
                    return Ok(Resolved { key: Some(key), source: KeySource::Keyring, base_url: base, profile: Some(p.name), local: None });
                }
                Ok(None) if given.profile.is_some() => return Err(no_key(&p.name)),
                Err(e) if given.profile.is_some() => {
                    return Err(format!(
                        "'{}' has no key cdesk can read: the OS keyring cannot be read here ({e}). Pass --api-key, set CONTENTHERO_API_KEY, or run `cdesk login --file`",
                        p.name
                    ))
                }
                // The app's selected profile without a key: said at the end of the ladder if nothing else has one.
                Ok(None) | Err(_) => keyless = Some(p.name),
            }
        }
    }
    // cdesk's own keyring entry (`cdesk login --with-key` without a profile).
    if given.profile.is_none() {
        if let Ok(Some(key)) = KeyringStore::new(keyring_service()).get(crate::login::CLI_ENTRY) {
            return Ok(Resolved { key: Some(key), source: KeySource::Keyring, base_url: fallback_base(), profile: None, local: None });
        }
    }
    if let Some(dir) = config.as_deref() {
        if let Some(k) = file_key(dir)? {
            return Ok(Resolved { key: Some(k), source: KeySource::File, base_url: fallback_base(), profile: None, local: None });
        }
    }
    Ok(Resolved { key: None, source: KeySource::None, base_url: fallback_base(), profile: keyless, local: None })
}

/// What to say when a profile has no key: its name and what to run.
pub fn no_key(profile: &str) -> String {
    format!("'{profile}' has no key: add one in Content Desk's Settings, or run `cdesk login --profile '{profile}'` (or pass --api-key, set CONTENTHERO_API_KEY)")
}

/// The local sandbox target when the command line names it: `--sandbox` (the app's sandbox profile if
/// it has one, else the data folder alone) or `--profile` naming a profile of the sandbox kind.
fn local_target(given: &Given) -> Result<Option<LocalTarget>, String> {
    let profile = if given.sandbox {
        app_profiles().0.into_iter().find(|p| p.kind == ProfileKind::Sandbox)
    } else if let Some(name) = given.profile.as_deref() {
        match pick_profile(Some(name)) {
            Ok(Some(p)) if p.kind == ProfileKind::Sandbox => Some(p),
            Ok(_) => return Ok(None),
            // No app settings yet and the default sandbox name: the data folder alone.
            Err(_) if name.eq_ignore_ascii_case(SANDBOX_PROFILE_NAME) => None,
            Err(_) => return Ok(None),
        }
    } else {
        return Ok(None);
    };
    if !given.sandbox && profile.is_none() && given.profile.is_none() {
        return Ok(None);
    }
    let data_dir = app_data_dir().ok_or("cannot find the app's data folder: set CONTENTDESK_DATA_DIR (or HOME)")?;
    Ok(Some(LocalTarget { data_dir, profile_id: profile.as_ref().map(|p| p.id.clone()), profile_name: profile.map(|p| p.name) }))
}

/// The name the app gives its local sandbox profile on first start.
pub const SANDBOX_PROFILE_NAME: &str = "Sandbox";

/// The posting queue's place for this process (the app's data folder and the profile the key came
/// from), noted once the ladder has run ([`note_queue_place`]); `None` without a profile.
static QUEUE_PLACE: std::sync::OnceLock<Option<contentdesk_ops::planner::QueuePlace>> = std::sync::OnceLock::new();

/// Notes where `queue_card` finds the slots: the app's own profiles (as [`app_profiles`] reads them),
/// in the app's data folder (`--sandbox`: the local target's). The profile the key came from, else the
/// one `--profile` names (its slots with a key given by flag or environment).
pub fn note_queue_place(resolved: &Resolved, named: Option<&str>) {
    let place = match &resolved.local {
        Some(t) => t.profile_id.clone().map(|id| contentdesk_ops::planner::QueuePlace { data_dir: t.data_dir.clone(), profile_id: id }),
        None => resolved.profile.as_deref().or(named).and_then(|name| {
            let p = find_profile(name).ok()?;
            Some(contentdesk_ops::planner::QueuePlace { data_dir: app_data_dir()?, profile_id: p.id })
        }),
    };
    let _ = QUEUE_PLACE.set(place);
}

/// See [`note_queue_place`].
pub fn queue_place() -> Option<contentdesk_ops::planner::QueuePlace> {
    QUEUE_PLACE.get().cloned().flatten()
}
