//! `AppState`: the profiles, where keys live, the embedded sandbox and one API client per profile; the
//! command layer's running state. The domain modules never see it: it implements `session::Session`
//! (and the parts they keep per running app, `outbox::WithOutbox`, `studio::WithStudio`), and they take
//! that.
//!
//! Locks are std mutexes held for short synchronous work only, never across an `.await`. Secret-store
//! calls (blocking dbus or platform calls) run on the blocking pool.
use api_client::{ApiKey, Client};
use serde_json::json;
use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};

use crate::embedded::Embedded;
use crate::error::{IpcCode, IpcError, IpcResult};
use crate::profiles::{Profile, ProfileKind, ProfileRecord, ProfilesView};
use crate::secrets::{self, KeyStorage, SecretError, SecretStore};
use crate::session::Session;
use crate::settings::{JsonFileSettings, SettingsBackend};

/// How the app keeps keys.
pub enum Secrets {
    /// The OS keyring under this service name; memory (with the reason shown) when none answers.
    KeyringOrMemory { service: String },
    /// A given store (tests: `MemoryStore`).
    Store(Arc<dyn SecretStore>),
}

pub struct CoreConfig {
    pub data_dir: PathBuf,
    /// `None`: `settings.json` in `data_dir`.
    pub settings: Option<Arc<dyn SettingsBackend>>,
    pub secrets: Secrets,
    /// Start the local sandbox (and create its profile on first launch).
    pub embedded_sandbox: bool,
    /// The local sandbox's render times and smart-wait.
    pub embedded_sandbox_config: sandbox::Config,
}

impl CoreConfig {
    /// The app's defaults: settings file, OS keyring, embedded sandbox.
    pub fn new(data_dir: impl Into<PathBuf>) -> Self {
        CoreConfig {
            data_dir: data_dir.into(),
            settings: None,
            secrets: Secrets::KeyringOrMemory { service: secrets::default_keyring_service() },
            embedded_sandbox: true,
            embedded_sandbox_config: sandbox::Config::default(),
        }
    }

    /// [`CoreConfig::new`], then what the environment asks for, read here once (the faces call this; the
    /// library itself reads no variable): `CONTENTDESK_KEYRING_SERVICE` (tests, journeys, benchmarks keep
    /// their keys apart), and `CONTENTDESK_SANDBOX_RENDER_MS` / `_SMART_WAIT_MS` / `_RATE_LIMIT` for the
    /// local sandbox's pace and limit (see `embedded::sandbox_config_from`).
    pub fn from_env(data_dir: impl Into<PathBuf>) -> Self {
        let mut config = CoreConfig::new(data_dir);
        if let Some(service) = env_set("CONTENTDESK_KEYRING_SERVICE") {
            config.secrets = Secrets::KeyringOrMemory { service };
        }
        config.embedded_sandbox_config = crate::embedded::sandbox_config_from(env_set);
        config
    }
}

/// An environment variable that is set and not blank (a blank one is as if unset). For the faces' reading
/// of the environment ([`CoreConfig::from_env`], `cdesk`'s local sandbox); the library reads none itself.
pub fn env_set(name: &str) -> Option<String> {
    std::env::var(name).ok().filter(|v| !v.trim().is_empty())
}

#[derive(Clone)]
pub struct AppState {
    inner: Arc<Inner>,
}

struct Inner {
    data_dir: PathBuf,
    settings: Arc<dyn SettingsBackend>,
    secrets: Arc<dyn SecretStore>,
    keyring_problem: Option<SecretError>,
    embedded: Option<Embedded>,
    profiles: Mutex<Vec<ProfileRecord>>,
    selected: Mutex<Option<String>>,
    has_key: Mutex<HashMap<String, bool>>,
    clients: Mutex<HashMap<String, Client>>,
    studio: crate::studio::Studio,
    outbox: crate::outbox::Outbox,
    notices: Mutex<Vec<String>>,
    /// "Connect ContentHero": the URL opener and the browser sign-in under way.
    connect: crate::connect::Connect,
    /// The data folder's lock: released when the last handle of this core is dropped.
    _lock: DataDirLock,
}

/// The lock file `contentdesk.lock` in the data folder, held (`flock` / `LockFileEx`, released by the OS
/// when the process ends, even on `kill -9`) while a core runs on that folder, or while `cdesk` serves the
/// folder's local sandbox itself for one command. The holder writes who it is into the file (`app <pid>`,
/// `cdesk <pid>`), so the one refused can say who has it. On Windows the lock (`LockFileEx` over the whole
/// file) also bars other processes from reading it, so the note goes in a file of its own beside it,
/// `contentdesk.holder` ([`holder_note`]; not built on this Linux machine).
pub struct DataDirLock(#[allow(dead_code)] std::fs::File);

/// The file that says who holds the lock: the lock file itself, or on Windows a file beside it (a file
/// locked there cannot be read by another process).
fn holder_note(dir: &Path) -> std::path::PathBuf {
    if cfg!(windows) {
        dir.join("contentdesk.holder")
    } else {
        dir.join("contentdesk.lock")
    }
}

/// What a second start on a locked data folder answers.
pub const ALREADY_RUNNING: &str = "Content Desk is already running with this data folder";

/// How long a starting core waits for a `cdesk` command that serves the folder's sandbox to end.
const WAIT_FOR_TERMINAL: std::time::Duration = std::time::Duration::from_secs(15);

impl DataDirLock {
    /// Takes the lock for `holder` (`"app"`, `"cdesk"`); `Ok(None)` when someone else holds it.
    pub fn try_take(dir: &Path, holder: &str) -> IpcResult<Option<DataDirLock>> {
        #[cfg(not(windows))]
        use std::io::{Seek, Write};
        let path = dir.join("contentdesk.lock");
        #[cfg_attr(windows, allow(unused_mut))]
        let mut file = std::fs::OpenOptions::new()
            .read(true)
            .write(true)
            .create(true)
            .truncate(false)
            .open(&path)
            .map_err(|e| IpcError::internal(format!("cannot open the lock file {}: {e}", path.display())))?;
        match file.try_lock() {
            Ok(()) => {
                let note = format!("{holder} {}\n", std::process::id());
                #[cfg(not(windows))]
                let _ = file.set_len(0).and_then(|()| file.rewind()).and_then(|()| file.write_all(note.as_bytes()));
                #[cfg(windows)]
                let _ = std::fs::write(holder_note(dir), note.as_bytes());
                Ok(Some(DataDirLock(file)))
            }
            Err(std::fs::TryLockError::WouldBlock) => Ok(None),
            Err(std::fs::TryLockError::Error(e)) => {
                Err(IpcError::internal(format!("cannot lock the data folder ({}): {e}", path.display())))
            }
        }
    }

    /// Who holds (or last held) the folder's lock: `("cdesk", pid)`, `("app", pid)`.
    pub fn holder(dir: &Path) -> Option<(String, u32)> {
        let text = std::fs::read_to_string(holder_note(dir)).ok()?;
        let (who, pid) = text.trim().split_once(' ')?;
        Some((who.to_string(), pid.parse().ok()?))
    }

    /// The core's lock: refused at once when another core has the folder; when `cdesk` serves its
    /// sandbox for a command, waited for (a command is short), then refused naming it.
    async fn take(dir: &Path) -> IpcResult<DataDirLock> {
        let started = std::time::Instant::now();
        loop {
            if let Some(lock) = Self::try_take(dir, "app")? {
                return Ok(lock);
            }
            match Self::holder(dir) {
                Some((who, pid)) if who == "cdesk" => {
                    if started.elapsed() >= WAIT_FOR_TERMINAL {
                        return Err(IpcError::internal(format!(
                            "The terminal command cdesk (process {pid}) is using this data folder's local sandbox ({}). Content Desk starts when it ends: let it finish, or stop it (e.g. a `cdesk mcp --sandbox` session), then open Content Desk again.",
                            dir.display()
                        )));
                    }
                    tracing::info!(pid, "cdesk serves this data folder's sandbox; waiting for it to end");
                    tokio::time::sleep(std::time::Duration::from_millis(100)).await;
                }
                _ => {
                    return Err(IpcError::internal(format!(
                        "{ALREADY_RUNNING} ({}). Switch to its window, or close it first.",
                        dir.display()
                    )))
                }
            }
        }
    }
}

/// The profiles in the settings. A `profiles` value that cannot be read whole keeps the records that
/// can, and the raw value is written beside the settings (`settings-profiles.damaged-<UTC time>.json`)
/// before anything is saved over it.
fn read_profiles(settings: &dyn SettingsBackend, dir: &Path, notices: &mut Vec<String>) -> Vec<ProfileRecord> {
    let Some(raw) = settings.get(PROFILES) else { return Vec::new() };
    if let Ok(all) = serde_json::from_value::<Vec<ProfileRecord>>(raw.clone()) {
        return all;
    }
    let kept: Vec<ProfileRecord> = match &raw {
        serde_json::Value::Array(items) => items.iter().filter_map(|v| serde_json::from_value(v.clone()).ok()).collect(),
        _ => Vec::new(),
    };
    let aside = dir.join(format!("settings-profiles.damaged-{}.json", crate::jsonfile::utc_stamp()));
    let written = serde_json::to_vec_pretty(&raw)
        .map_err(|e| e.to_string())
        .and_then(|b| crate::jsonfile::write_bytes(&aside, &b));
    notices.push(match written {
        Ok(()) => format!(
            "Some profiles in the settings could not be read; {} were kept. The profiles as they were are set aside in {}.",
            kept.len(),
            aside.display()
        ),
        Err(e) => format!("Some profiles in the settings could not be read, and could not be set aside ({e})."),
    });
    kept
}

const PROFILES: &str = "profiles";
const SELECTED: &str = "selectedProfileId";

impl AppState {
    /// Reads the settings, chooses the secret store, starts the embedded sandbox and makes sure its
    /// profile has a working key.
    pub async fn start(config: CoreConfig) -> IpcResult<AppState> {
        std::fs::create_dir_all(&config.data_dir).map_err(|e| {
            IpcError::internal(format!("cannot create the data folder {}: {e}", config.data_dir.display()))
        })?;
        // One running core per data folder: a second one would revoke the first's sandbox key and race it
        // on every file. Held (an OS lock, gone with the process) until the last handle is dropped.
        let lock = DataDirLock::take(&config.data_dir).await?;
        // Holding the lock: a sandbox URL file here was left by a core that did not stop cleanly.
        crate::embedded::remove_stale_url(&config.data_dir);
        let mut notices = Vec::new();
        // A restore chosen in Settings replaces the files now, before anything opens them.
        notices.extend(crate::backup::apply_pending(&config.data_dir));
        let settings = config
            .settings
            .unwrap_or_else(|| Arc::new(JsonFileSettings::open(config.data_dir.join("settings.json"))));
        // The keyring probe (dbus round trips) runs while the sandbox opens its database.
        let probe = match config.secrets {
            Secrets::Store(s) => Err((s, None)),
            Secrets::KeyringOrMemory { service } => {
                Ok(tokio::task::spawn_blocking(move || secrets::keyring_or_memory(service)))
            }
        };
        let mut profiles = read_profiles(&*settings, &config.data_dir, &mut notices);
        let mut selected: Option<String> =
            settings.get(SELECTED).and_then(|v| v.as_str().map(String::from));

        let embedded = if config.embedded_sandbox {
            if profiles.is_empty() {
                // A settings file that could not be read is set aside by its first save (below), never
                // written over: this fresh profile does not replace anything.
                let id = uuid::Uuid::new_v4().to_string();
                profiles.push(ProfileRecord { id: id.clone(), name: "Sandbox".into(), base_url: String::new(), kind: ProfileKind::Sandbox });
                selected = Some(id);
            }
            if profiles.iter().any(|p| p.kind == ProfileKind::Sandbox) {
                let (mut e, notice) = Embedded::start(&config.data_dir, config.embedded_sandbox_config.clone()).await?;
                notices.extend(notice);
                // For `cdesk --sandbox` (the URL, never a key); removed when the sandbox stops.
                e.publish_url(&config.data_dir)?;
                Some(e)
            } else {
                None
            }
        } else {
            None
        };
        let (secrets, keyring_problem) = match probe {
            Err(given) => given,
            Ok(task) => task.await.map_err(|e| IpcError::internal(e.to_string()))?,
        };
        if selected.as_ref().is_none_or(|s| !profiles.iter().any(|p| &p.id == s)) {
            selected = profiles.first().map(|p| p.id.clone());
        }

        let (studio, notice) = crate::studio::Studio::open(&config.data_dir)?;
        notices.extend(notice);
        notices.extend(crate::outbox::set_aside_if_damaged(&config.data_dir));
        // Reads the kept changes of earlier versions' files into the one outbox, once.
        let outbox = crate::outbox::Outbox::open(&config.data_dir);
        let state = AppState {
            inner: Arc::new(Inner {
                data_dir: config.data_dir,
                settings,
                secrets,
                keyring_problem,
                embedded,
                profiles: Mutex::new(profiles),
                selected: Mutex::new(selected),
                has_key: Mutex::new(HashMap::new()),
                clients: Mutex::new(HashMap::new()),
                studio,
                outbox,
                notices: Mutex::new(Vec::new()),
                connect: crate::connect::Connect::default(),
                _lock: lock,
            }),
        };
        state.persist()?;
        notices.extend(state.inner.settings.notice());
        state.ensure_sandbox_key().await?;
        for p in state.records() {
            let has = state.secret_get(&p.id).await.map(|k| k.is_some()).unwrap_or(false);
            state.set_has_key(&p.id, has);
        }
        // Renders under way when the app last closed are polled again (and unsent ones sent again); those
        // of a profile that no longer exists are kept and shown, never polled.
        let ids: Vec<String> = state.records().into_iter().map(|p| p.id).collect();
        let under_way = crate::studio::resume(&state, &ids);
        // Render times learned from each profile's library, so a model's first render here is looked at
        // near its finish even when the service sends no `pollAfterSeconds`.
        let keyed: Vec<String> = state.records().into_iter().filter(|p| state.view(p).has_key).map(|p| p.id).collect();
        crate::studio::learn_at_start(&state, &keyed).await;
        let orphans = |counts: Vec<(String, usize)>| -> usize { counts.into_iter().filter(|(id, _)| !ids.contains(id)).map(|(_, n)| n).sum() };
        let orphan_jobs = orphans(state.studio().jobs_per_profile());
        let orphan_kept = orphans(crate::outbox::kept_per_profile(state.data_dir()));
        if orphan_jobs + orphan_kept > 0 {
            notices.push(format!(
                "{orphan_jobs} render(s) ({under_way} still under way) and {orphan_kept} change(s) kept on this computer belong to a profile \
                 that no longer exists. They are kept (studio.db, outbox.json in {}) and not sent or checked.",
                state.data_dir().display()
            ));
        }
        for n in &notices {
            tracing::warn!(notice = %n, "start-up notice");
        }
        *state.inner.notices.lock().unwrap_or_else(|e| e.into_inner()) = notices;
        Ok(state)
    }

    /// What the user is told about this start: files that could not be read and were set aside (and
    /// where), kept work of a profile that no longer exists.
    pub fn notices(&self) -> Vec<String> {
        self.inner.notices.lock().unwrap_or_else(|e| e.into_inner()).clone()
    }

    pub(crate) fn connect(&self) -> &crate::connect::Connect {
        &self.inner.connect
    }

    /// Replaces how this core opens a URL in a browser (the consent page of "Connect ContentHero"; the
    /// default is the system's browser).
    pub fn set_url_opener(&self, opener: crate::connect::UrlOpener) {
        self.inner.connect.set_opener(opener);
    }

    /// The studio: caches, the render queue and its events.
    pub fn studio(&self) -> &crate::studio::Studio {
        &self.inner.studio
    }

    /// The settings store (profiles, update preferences).
    pub fn settings(&self) -> &dyn SettingsBackend {
        &*self.inner.settings
    }

    pub fn data_dir(&self) -> &Path {
        &self.inner.data_dir
    }

    pub fn key_storage(&self) -> KeyStorage {
        self.inner.secrets.storage()
    }

    pub fn keyring_problem(&self) -> Option<String> {
        self.inner.keyring_problem.as_ref().map(|e| e.user_message())
    }

    /// The embedded sandbox's live URL, when it runs.
    pub fn sandbox_url(&self) -> Option<String> {
        self.inner.embedded.as_ref().map(|e| e.base_url())
    }

    /// The sandbox profile's key: the stored one while it is live, else a fresh one (stored).
    async fn ensure_sandbox_key(&self) -> IpcResult<()> {
        let Some(embedded) = &self.inner.embedded else { return Ok(()) };
        let Some(profile) = self.records().into_iter().find(|p| p.kind == ProfileKind::Sandbox) else {
            return Ok(());
        };
        let stored = match self.secret_get(&profile.id).await {
            Ok(k) => k,
            Err(e) => {
                tracing::warn!(error = %e, "cannot read the sandbox key; minting a new one");
                None
            }
        };
        if stored.as_deref().is_some_and(|k| embedded.key_is_live(k.as_str())) {
            return Ok(());
        }
        let key = embedded.mint_key()?;
        self.secret_set(&profile.id, key).await?;
        Ok(())
    }

    // --- profiles

    pub(crate) fn records(&self) -> Vec<ProfileRecord> {
        self.inner.profiles.lock().unwrap_or_else(|e| e.into_inner()).clone()
    }

    pub(crate) fn record(&self, id: &str) -> IpcResult<ProfileRecord> {
        self.records().into_iter().find(|p| p.id == id).ok_or_else(|| {
            IpcError::new(IpcCode::NoProfile, "That profile no longer exists; pick another one in Settings.")
        })
    }

    pub(crate) fn selected_id(&self) -> Option<String> {
        self.inner.selected.lock().unwrap_or_else(|e| e.into_inner()).clone()
    }

    pub(crate) fn set_selected(&self, id: Option<String>) -> IpcResult<()> {
        *self.inner.selected.lock().unwrap_or_else(|e| e.into_inner()) = id;
        self.persist()
    }

    pub(crate) fn update_records(&self, f: impl FnOnce(&mut Vec<ProfileRecord>)) -> IpcResult<()> {
        f(&mut self.inner.profiles.lock().unwrap_or_else(|e| e.into_inner()));
        self.persist()
    }

    fn persist(&self) -> IpcResult<()> {
        let s = &self.inner.settings;
        s.set(PROFILES, json!(self.records()));
        s.set(SELECTED, json!(self.selected_id()));
        s.save().map_err(|e| IpcError::internal(format!("cannot save the settings: {e}")))
    }

    pub(crate) fn view(&self, p: &ProfileRecord) -> Profile {
        let base_url = match p.kind {
            ProfileKind::Sandbox => self.sandbox_url().unwrap_or_default(),
            ProfileKind::Remote => p.base_url.clone(),
        };
        let has_key = *self.inner.has_key.lock().unwrap_or_else(|e| e.into_inner()).get(&p.id).unwrap_or(&false);
        Profile { id: p.id.clone(), name: p.name.clone(), base_url, kind: p.kind, has_key }
    }

    pub(crate) fn profiles_view(&self) -> ProfilesView {
        ProfilesView { profiles: self.records().iter().map(|p| self.view(p)).collect(), selected_id: self.selected_id() }
    }

    fn set_has_key(&self, id: &str, has: bool) {
        self.inner.has_key.lock().unwrap_or_else(|e| e.into_inner()).insert(id.to_string(), has);
    }

    // --- keys and clients

    /// The stored key, zeroized when dropped.
    pub(crate) async fn secret_get(&self, id: &str) -> Result<Option<zeroize::Zeroizing<String>>, SecretError> {
        let store = self.inner.secrets.clone();
        let id = id.to_string();
        tokio::task::spawn_blocking(move || store.get(&id).map(|k| k.map(zeroize::Zeroizing::new)))
            .await
            .unwrap_or_else(|e| Err(SecretError::Other { reason: e.to_string() }))
    }

    pub(crate) async fn secret_set(&self, id: &str, key: String) -> IpcResult<()> {
        let key = zeroize::Zeroizing::new(key);
        let store = self.inner.secrets.clone();
        let account = id.to_string();
        tokio::task::spawn_blocking(move || store.set(&account, &key))
            .await
            .unwrap_or_else(|e| Err(SecretError::Other { reason: e.to_string() }))?;
        self.set_has_key(id, true);
        self.forget_client(id);
        Ok(())
    }

    pub(crate) async fn secret_delete(&self, id: &str) -> IpcResult<()> {
        let store = self.inner.secrets.clone();
        let account = id.to_string();
        tokio::task::spawn_blocking(move || store.delete(&account))
            .await
            .unwrap_or_else(|e| Err(SecretError::Other { reason: e.to_string() }))?;
        self.set_has_key(id, false);
        self.forget_client(id);
        Ok(())
    }

    pub(crate) fn forget_client(&self, id: &str) {
        self.inner.clients.lock().unwrap_or_else(|e| e.into_inner()).remove(id);
    }

    /// The base URL requests of this profile go to.
    pub(crate) fn base_url_of(&self, p: &ProfileRecord) -> IpcResult<String> {
        match p.kind {
            ProfileKind::Remote => Ok(p.base_url.clone()),
            ProfileKind::Sandbox => self.sandbox_url().ok_or_else(|| {
                IpcError::internal("The local sandbox is not running in this window; restart Content Desk.")
            }),
        }
    }

    /// A client for `base_url` with `key`, not cached (for checking a key before it is stored).
    pub(crate) fn client_with(base_url: &str, key: &str) -> IpcResult<Client> {
        Client::new(base_url, ApiKey::new(key)).map_err(IpcError::from)
    }

    /// The cached client of a profile, built from its stored key.
    async fn cached_client(&self, id: &str) -> IpcResult<Client> {
        if let Some(c) = self.inner.clients.lock().unwrap_or_else(|e| e.into_inner()).get(id) {
            return Ok(c.clone());
        }
        let p = self.record(id)?;
        let key = self.secret_get(id).await?.ok_or_else(|| IpcError::no_key(&p.name))?;
        let client = Self::client_with(&self.base_url_of(&p)?, &key)?;
        self.inner.clients.lock().unwrap_or_else(|e| e.into_inner()).insert(id.to_string(), client.clone());
        Ok(client)
    }
}

impl Session for AppState {
    fn data_dir(&self) -> &Path {
        &self.inner.data_dir
    }

    fn selected_profile(&self) -> Option<String> {
        self.selected_id()
    }

    fn client_for(&self, profile: &str) -> impl std::future::Future<Output = IpcResult<Client>> + Send {
        self.cached_client(profile)
    }
}

impl crate::studio::WithStudio for AppState {
    fn studio(&self) -> &crate::studio::Studio {
        &self.inner.studio
    }
}

impl crate::outbox::WithOutbox for AppState {
    fn outbox(&self) -> &crate::outbox::Outbox {
        &self.inner.outbox
    }
}
