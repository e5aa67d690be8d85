//! Kept on this computer: section drafts and archived sections, per profile and kit (`brand_kit.json`).
use super::*;

/// What the brand kit's local file needs of the running app: the session, and the file's lock (kept by
/// the running app, never process-global).
pub trait WithBrandKitFile: Session {
    /// Read-modify-write of the brand kit's local file, one at a time.
    fn brand_kit_file_lock(&self) -> &std::sync::Mutex<()>;
}

#[derive(Debug, Clone, Default, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub(super) struct Local {
    #[serde(default)]
    pub(super) version: u32,
    /// profile id → kit id → what is kept.
    #[serde(default)]
    pub(super) profiles: BTreeMap<String, BTreeMap<String, KitLocal>>,
}

#[derive(Debug, Clone, Default, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub(super) struct KitLocal {
    #[serde(default)]
    pub(super) drafts: Vec<SectionDraft>,
    #[serde(default)]
    pub(super) archived: Vec<ArchivedSection>,
}

pub(super) fn path(dir: &Path) -> PathBuf {
    dir.join(FILE)
}

pub(super) fn read_local(dir: &Path) -> IpcResult<Local> {
    crate::jsonfile::read(&path(dir), "The kept brand-kit drafts")
}

pub(super) fn write_local(dir: &Path, local: &Local) -> IpcResult<()> {
    let mut local = local.clone();
    local.version = 1;
    for kits in local.profiles.values_mut() {
        kits.retain(|_, k| !k.drafts.is_empty() || !k.archived.is_empty());
    }
    local.profiles.retain(|_, kits| !kits.is_empty());
    crate::jsonfile::write(&path(dir), &local, "the draft")
}

/// Runs `f` over one kit's local record and saves the file when `f` says it changed.
pub(super) fn with_kit<T>(session: &impl WithBrandKitFile, kit_id: &str, f: impl FnOnce(&mut KitLocal) -> (T, bool)) -> IpcResult<T> {
    let profile = session.profile_id()?;
    let dir = session.data_dir();
    let _guard = session.brand_kit_file_lock().lock().unwrap_or_else(|e| e.into_inner());
    let mut local = read_local(dir)?;
    let kit = local.profiles.entry(profile).or_default().entry(kit_id.to_string()).or_default();
    let (out, changed) = f(kit);
    if changed {
        write_local(dir, &local)?;
    }
    Ok(out)
}

pub(super) fn kit_local(session: &impl WithBrandKitFile, kit_id: &str) -> IpcResult<KitLocal> {
    with_kit(session, kit_id, |k| (k.clone(), false))
}

pub(super) fn now_ms() -> f64 {
    SystemTime::now().duration_since(UNIX_EPOCH).map(|d| d.as_millis() as f64).unwrap_or(0.0)
}
