//! Every command the UI can call, as a plain async function over `AppState` (docs/ipc.md).
//!
//! The desktop shell wraps each in a one-line `#[tauri::command]`; web-shell reaches them through
//! `ipc::dispatch`. A command accepts a key (`key_set`) but never returns one.
use api_types::{Balance, BrandKitSummary, Space};
use serde::{Deserialize, Serialize};
use ts_rs::TS;

use crate::error::{IpcError, IpcResult};
use crate::profiles::{check_base_url, check_name, Profile, ProfileKind, ProfileRecord, ProfilesView, REMOTE_DEFAULT_BASE_URL};
use crate::secrets::KeyStorage;
use crate::session::Session;
use crate::state::AppState;

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct AppInfo {
    pub version: String,
    pub key_storage: KeyStorage,
    /// Why keys are in memory only, and what to do about it.
    pub keyring_problem: Option<String>,
    pub data_dir: String,
    /// What this start found and did about it: each file that could not be read and where it was set
    /// aside, kept work of a profile that no longer exists. Empty when all was well.
    pub notices: Vec<String>,
}

#[derive(Debug, Clone, Deserialize, Serialize, TS)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct ProfileAddArgs {
    pub name: String,
    #[serde(default)]
    #[ts(optional)]
    pub base_url: Option<String>,
}

#[derive(Debug, Clone, Deserialize, Serialize, TS)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct ProfileRenameArgs {
    pub id: String,
    pub name: String,
}

/// The key is write-only: it has no `Debug` output and is never serialised back.
#[derive(Clone, Deserialize, TS)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct KeySetArgs {
    pub profile_id: String,
    pub key: String,
}

impl Drop for KeySetArgs {
    fn drop(&mut self) {
        zeroize::Zeroize::zeroize(&mut self.key);
    }
}

impl std::fmt::Debug for KeySetArgs {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("KeySetArgs").field("profile_id", &self.profile_id).field("key", &"<redacted>").finish()
    }
}

/// The profile a command is about: select, remove, test its key, sign out, list its granted apps.
#[derive(Debug, Clone, Deserialize, Serialize, TS)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct ProfileRefArgs {
    pub profile_id: String,
}

pub async fn app_info(state: &AppState) -> IpcResult<AppInfo> {
    Ok(AppInfo {
        version: env!("CARGO_PKG_VERSION").to_string(),
        key_storage: state.key_storage(),
        keyring_problem: state.keyring_problem(),
        data_dir: state.data_dir().display().to_string(),
        notices: state.notices(),
    })
}

pub async fn profiles_list(state: &AppState) -> IpcResult<ProfilesView> {
    Ok(state.profiles_view())
}

pub async fn profile_add(state: &AppState, args: ProfileAddArgs) -> IpcResult<Profile> {
    let name = check_name(&args.name)?;
    let base_url = check_base_url(args.base_url.as_deref().unwrap_or(REMOTE_DEFAULT_BASE_URL))?;
    if state.records().iter().any(|p| p.name.eq_ignore_ascii_case(&name)) {
        return Err(IpcError::validation("name", format!("A profile named “{name}” exists already; choose another name.")));
    }
    let record = ProfileRecord { id: uuid::Uuid::new_v4().to_string(), name, base_url, kind: ProfileKind::Remote };
    state.update_records(|ps| ps.push(record.clone()))?;
    Ok(state.view(&record))
}

pub async fn profile_rename(state: &AppState, args: ProfileRenameArgs) -> IpcResult<Profile> {
    let name = check_name(&args.name)?;
    state.record(&args.id)?;
    if state.records().iter().any(|p| p.id != args.id && p.name.eq_ignore_ascii_case(&name)) {
        return Err(IpcError::validation("name", format!("A profile named “{name}” exists already; choose another name.")));
    }
    state.update_records(|ps| {
        if let Some(p) = ps.iter_mut().find(|p| p.id == args.id) {
            p.name = name;
        }
    })?;
    Ok(state.view(&state.record(&args.id)?))
}

/// Removes a remote profile and its key. The sandbox profile stays (it is the app's default).
pub async fn profile_remove(state: &AppState, args: ProfileRefArgs) -> IpcResult<ProfilesView> {
    let p = state.record(&args.profile_id)?;
    if p.kind == ProfileKind::Sandbox {
        return Err(IpcError::validation("profileId", "The local sandbox profile cannot be removed."));
    }
    state.secret_delete(&p.id).await?;
    state.update_records(|ps| ps.retain(|r| r.id != p.id))?;
    if state.selected_id().as_deref() == Some(p.id.as_str()) {
        state.set_selected(state.records().first().map(|r| r.id.clone()))?;
    }
    Ok(state.profiles_view())
}

pub async fn profile_select(state: &AppState, args: ProfileRefArgs) -> IpcResult<ProfilesView> {
    state.record(&args.profile_id)?;
    state.set_selected(Some(args.profile_id))?;
    Ok(state.profiles_view())
}

/// Checks the key with `GET /account/balance` and stores it only when that answers 200.
pub async fn key_set(state: &AppState, args: KeySetArgs) -> IpcResult<Balance> {
    let p = state.record(&args.profile_id)?;
    let key = zeroize::Zeroizing::new(args.key.trim().to_string());
    if key.is_empty() {
        return Err(IpcError::validation("key", "Paste the API key (it starts with ch_live_)."));
    }
    let client = AppState::client_with(&state.base_url_of(&p)?, &key)?;
    let balance = client.account().balance().await?;
    state.secret_set(&p.id, key.to_string()).await?;
    tracing::info!(profile = %p.id, "key checked and stored");
    // Renders waiting for a key (a 401 stopped their polling) are checked again now.
    crate::studio::resume_profile(state, &p.id);
    Ok(balance)
}

pub async fn key_test(state: &AppState, args: ProfileRefArgs) -> IpcResult<Balance> {
    let client = state.client_for(&args.profile_id).await?;
    Ok(client.account().balance().await?)
}

/// Deletes the profile's key from the keyring (the profile stays).
pub async fn sign_out(state: &AppState, args: ProfileRefArgs) -> IpcResult<ProfilesView> {
    let p = state.record(&args.profile_id)?;
    state.secret_delete(&p.id).await?;
    tracing::info!(profile = %p.id, "signed out: key deleted");
    Ok(state.profiles_view())
}

pub async fn balance(state: &AppState) -> IpcResult<Balance> {
    Ok(state.client().await?.account().balance().await?)
}

/// The catalogue's input (`cdesk space list`, `list_spaces`): `archived` lists the archived spaces too.
pub async fn spaces_list(state: &AppState, args: SpaceListInput) -> IpcResult<Vec<Space>> {
    let spaces = state.client().await?.spaces().list(args.archived).await?;
    crate::outbox::saw_spaces(state, &spaces);
    Ok(spaces)
}

pub async fn brand_kits_list(state: &AppState) -> IpcResult<Vec<BrandKitSummary>> {
    Ok(state.client().await?.brand_kits().list().await?)
}

pub use crate::planner::*;
/// The catalogue's inputs the commands take (one input type per operation: `cdesk`, `cdesk mcp` and the app).
pub use contentdesk_ops::planner::{
    CardRepeatInput, QueueSettings, QueueSlot, Queued, Placed,
    CardCreateInput, CardId, CardMoveInput, SpaceCreateInput, SpaceListInput, SpaceUpdateInput, StageCreateInput, StageDeleteInput, StageUpdateInput,
};
pub use crate::granted_apps::GrantRevokeArgs;
/// Import and export (issue 28 point 6): the catalogue's inputs, the report and the file (`io.rs`).
pub use crate::io::{calendar_export, card_import, ExportedFile, ImportExisting, ImportRefused, ImportReport, ImportRow};
pub use contentdesk_ops::calendar::{CalendarExportInput, ExportFormat};
pub use contentdesk_ops::import::CardImportInput;

/// The apps the profile's account granted delegated access to (Settings), oldest first.
pub async fn granted_apps(state: &AppState, args: ProfileRefArgs) -> IpcResult<Vec<api_types::OAuthGrant>> {
    crate::granted_apps::list(state, &args.profile_id).await
}

/// Revokes one granted app at once and answers the list as it is now.
pub async fn granted_app_revoke(state: &AppState, args: GrantRevokeArgs) -> IpcResult<Vec<api_types::OAuthGrant>> {
    crate::granted_apps::revoke(state, args).await
}
pub use crate::outbox::{drafts_resolve, drafts_status, drafts_sync, DraftAction, DraftsResolveArgs, DraftsStatus, KeptChange, KeptKind, is_local};
pub use crate::attach::*;
pub use crate::connect::{ConnectKeyArgs, ConnectStartArgs, ConnectStarted, Connected};
pub use crate::calendar::{calendar_posts, calendar_window, CalendarPostsArgs, CalendarWindow, CalendarWindowArgs, CardPosts, CardStamp, CALENDAR_READS_PER_CALL};
pub use crate::library::{media_library, MediaListInput};
pub use crate::brand_kit::*;
pub use crate::studio::{
    card_attach_output, models_list, studio_cancel, studio_clear_finished, studio_generate, studio_jobs, studio_quote,
    studio_retry, voices_list, CardAttachOutputArgs, JobStatus, ModelListInput, StudioEvent, StudioForm, StudioGenerateArgs,
    StudioJob, StudioJobArgs, StudioMedia, StudioQuote, StudioQuoteArgs,
};

#[derive(Debug, Clone, Deserialize, Serialize, TS)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct UpdatePrefsSetArgs {
    pub auto_check: bool,
}

#[derive(Debug, Clone, Default, Deserialize, Serialize, TS)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct UpdateCheckArgs {
    /// The check at start: only when due (on, and none in the last day).
    #[serde(default)]
    #[ts(optional)]
    pub at_start: Option<bool>,
}

pub async fn update_prefs(state: &AppState) -> IpcResult<crate::update::UpdatePrefs> {
    Ok(crate::update::UpdatePrefs::load(state.settings()))
}

pub async fn update_prefs_set(state: &AppState, args: UpdatePrefsSetArgs) -> IpcResult<crate::update::UpdatePrefs> {
    let mut prefs = crate::update::UpdatePrefs::load(state.settings());
    prefs.auto_check = args.auto_check;
    prefs.store(state.settings()).map_err(|e| IpcError::internal(format!("cannot save the settings: {e}")))?;
    Ok(prefs)
}

pub async fn update_check(state: &AppState, args: UpdateCheckArgs) -> IpcResult<crate::update::UpdateStatus> {
    use crate::update as u;
    let current = env!("CARGO_PKG_VERSION");
    let mut prefs = u::UpdatePrefs::load(state.settings());
    let now = u::now();
    if args.at_start.unwrap_or(false) && !prefs.due(now) {
        return Ok(u::UpdateStatus::skipped(current));
    }
    let result = u::check(&u::endpoint(), current, u::PUBLIC_KEY, u::CHECK_TIMEOUT).await;
    match &result {
        Ok(found) => tracing::info!(available = ?found.as_ref().map(|a| &a.version), "update check"),
        Err(e) => tracing::warn!(detail = %e.detail(), "update check failed"),
    }
    prefs.last_check = Some(now);
    // A version the user was told to install by hand that is now installed (or withdrawn) is forgotten.
    // (A failed check forgets nothing.)
    let forget = match (&prefs.manual, &result) {
        (Some(m), Ok(Some(a))) => a.version != m.version,
        (Some(_), Ok(None)) => true,
        _ => false,
    };
    if forget {
        prefs.manual = None;
    }
    if let Err(e) = prefs.store(state.settings()) {
        tracing::warn!(error = %e, "update check time not saved");
    }
    Ok(u::UpdateStatus::from_check(current, &result, &prefs))
}

/// Checks `key` at `base_url` with a balance read; on 200 makes the remote profile (“ContentHero”,
/// “ContentHero 2”, …), stores the key and selects the profile. A refused key (or a store that fails)
/// makes nothing.
async fn connect_key(state: &AppState, base_url: &str, key: &str) -> IpcResult<Connected> {
    let key = zeroize::Zeroizing::new(key.trim().to_string());
    if key.is_empty() {
        return Err(IpcError::validation("key", "Paste the API key (it starts with ch_live_)."));
    }
    let balance = AppState::client_with(base_url, &key)?.account().balance().await?;
    let records = state.records();
    let name = crate::connect::free_name(|n| records.iter().any(|p| p.name.eq_ignore_ascii_case(n)));
    let record = ProfileRecord { id: uuid::Uuid::new_v4().to_string(), name, base_url: base_url.to_string(), kind: ProfileKind::Remote };
    // The key first: a keyring that refuses it leaves no profile behind.
    state.secret_set(&record.id, key.to_string()).await?;
    if let Err(e) = state.update_records(|ps| ps.push(record.clone())) {
        let _ = state.secret_delete(&record.id).await;
        return Err(e);
    }
    state.set_selected(Some(record.id.clone()))?;
    tracing::info!(profile = %record.id, "connected: key checked and stored, profile selected");
    Ok(Connected { profile: state.view(&record), profiles: state.profiles_view(), balance })
}

/// "Connect ContentHero" with a pasted key (`connect_key`).
pub async fn connect_with_key(state: &AppState, args: ConnectKeyArgs) -> IpcResult<Connected> {
    let base_url = check_base_url(args.base_url.as_deref().unwrap_or(REMOTE_DEFAULT_BASE_URL))?;
    connect_key(state, &base_url, &args.key).await
}

/// Opens the loopback listener and the service's consent page (`connect::Connect::start`).
pub async fn connect_browser_start(state: &AppState, args: ConnectStartArgs) -> IpcResult<ConnectStarted> {
    let base_url = check_base_url(args.base_url.as_deref().unwrap_or(REMOTE_DEFAULT_BASE_URL))?;
    state.connect().start(base_url).await
}

/// Waits for the consent page's answer; its key goes through `connect_key` as a pasted one does.
pub async fn connect_browser_finish(state: &AppState) -> IpcResult<Connected> {
    state.connect().finish(|base_url, key| async move { connect_key(state, &base_url, &key).await }).await
}

/// Stops the sign-in under way; false when there was none.
pub async fn connect_browser_cancel(state: &AppState) -> IpcResult<bool> {
    Ok(state.connect().cancel())
}

/// Settings › Backup: the web view's preferences (its localStorage entries: theme, views, zones) to keep
/// in the backup beside this computer's files.
#[derive(Debug, Clone, Default, Deserialize, Serialize, TS)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct BackupCreateArgs {
    #[serde(default)]
    #[ts(optional, as = "Option<std::collections::BTreeMap<String, String>>")]
    pub ui_preferences: std::collections::BTreeMap<String, String>,
}

/// A backup file, ready to save.
#[derive(Debug, Clone, Serialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct BackupFile {
    /// `content-desk-backup-<UTC time>.json`.
    pub file_name: String,
    pub text: String,
}

#[derive(Debug, Clone, Deserialize, Serialize, TS)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct BackupRestoreArgs {
    /// The backup file's text (the web view read the file the user chose).
    pub text: String,
}

/// A restore staged for the next start, and the UI preferences it holds (the web view takes them now).
#[derive(Debug, Clone, Serialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct RestoreStaged {
    /// The files it will write (`settings.json`, `studio.db`, …).
    pub files: Vec<String>,
    /// When the backup was made.
    pub created_at: String,
    pub ui_preferences: std::collections::BTreeMap<String, String>,
}

/// What `ui-preferences.json` holds: the web view's preferences, and `restoredAt` when a restore wrote them.
#[derive(Debug, Clone, Default, Serialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct UiPreferences {
    pub prefs: std::collections::BTreeMap<String, String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub restored_at: Option<String>,
}

fn prefs_of(v: &serde_json::Value) -> std::collections::BTreeMap<String, String> {
    v.get("prefs").and_then(serde_json::Value::as_object).map(|m| m.iter().filter_map(|(k, v)| Some((k.clone(), v.as_str()?.to_string()))).collect()).unwrap_or_default()
}

/// The backup (`backup::create`): the UI preferences written to `ui-preferences.json` first, then the
/// folder's files; never a key (the keyring's keys are checked to be absent).
pub async fn backup_create(state: &AppState, args: BackupCreateArgs) -> IpcResult<BackupFile> {
    let dir = state.data_dir().to_path_buf();
    let prefs = serde_json::json!({ "version": 1, "prefs": args.ui_preferences });
    let bytes = serde_json::to_vec_pretty(&prefs).map_err(|e| IpcError::internal(e.to_string()))?;
    crate::jsonfile::write_bytes(&dir.join(crate::backup::UI_PREFERENCES), &bytes).map_err(IpcError::internal)?;
    let mut keys = Vec::new();
    for p in state.records() {
        if let Ok(Some(k)) = state.secret_get(&p.id).await {
            keys.push(k);
        }
    }
    let secrets: Vec<&str> = keys.iter().map(|k| k.as_str()).collect();
    let backup = crate::backup::create(&dir, &secrets).map_err(|e| IpcError::validation("backup", e))?;
    let text = serde_json::to_string_pretty(&backup).map_err(|e| IpcError::internal(e.to_string()))?;
    let stamp: String = crate::jsonfile::utc_stamp().chars().filter(|c| c.is_ascii_alphanumeric() || *c == '-').collect();
    Ok(BackupFile { file_name: format!("content-desk-backup-{stamp}.json"), text })
}

/// Checks the backup and stages it (`restore-pending.json`): the core holds the files open, so it replaces
/// them at the next start, before opening any (`backup::apply_pending`). Nothing is replaced now.
pub async fn backup_restore(state: &AppState, args: BackupRestoreArgs) -> IpcResult<RestoreStaged> {
    let v: serde_json::Value = serde_json::from_str(&args.text).map_err(|e| IpcError::validation("text", format!("not a Content Desk backup: it is not JSON ({e}); nothing was restored")))?;
    let (files, studio) = crate::backup::check(&v).map_err(|e| IpcError::validation("text", e))?;
    let mut names: Vec<String> = files.keys().cloned().collect();
    if studio.is_some() {
        names.push(crate::backup::STUDIO_DB.into());
    }
    crate::jsonfile::write_bytes(&state.data_dir().join(crate::backup::PENDING), args.text.as_bytes()).map_err(IpcError::internal)?;
    Ok(RestoreStaged {
        files: names,
        created_at: v.get("createdAt").and_then(serde_json::Value::as_str).unwrap_or_default().to_string(),
        ui_preferences: files.get(crate::backup::UI_PREFERENCES).map(prefs_of).unwrap_or_default(),
    })
}

/// The UI preferences kept in the data folder (a restore marks them with `restoredAt`).
pub async fn ui_preferences(state: &AppState) -> IpcResult<UiPreferences> {
    let Ok(bytes) = std::fs::read(state.data_dir().join(crate::backup::UI_PREFERENCES)) else { return Ok(UiPreferences::default()) };
    let v: serde_json::Value = serde_json::from_slice(&bytes).unwrap_or_default();
    Ok(UiPreferences { prefs: prefs_of(&v), restored_at: v.get("restoredAt").and_then(serde_json::Value::as_str).map(String::from) })
}
