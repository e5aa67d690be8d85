//! The brand-kit page's commands (docs/ipc.md, "Brand kit"): sections read in summary or by filter,
//! saved all or nothing with `expectedVersion`, added, archived and restored, their history and revert;
//! and the kit's knowledge base.
//!
//! A refused save (409, or no answer) writes nothing on the service, so the user's unsaved text is kept
//! here until they choose what to do with it: `brand_kit.json` in the data folder, per profile and kit,
//! written atomically (a temp file, then a rename). A later successful save of the section clears it;
//! `brand_kit_draft_discard` drops it on purpose. The same file remembers the sections archived from this
//! computer (key, id, name), because the service lists no archived sections and restoring needs the id.
//!
//! The old field model's inputs (`businessName`, … `designPrinciples`, `fields`) have no field in any
//! args struct here, and every struct denies unknown fields, so the UI has no way to send one.
use api_client::{ApiError, SectionFilter, SectionWriteExt};
use api_types::{
    ArchiveRequest, ArchiveResult, BrandKitSection, BrandKitSectionsView, Deleted, KnowledgeAdded, KnowledgeList,
    KnowledgeMatch, SectionRevision, SectionSummary, SectionWrite, TABS, WIDTHS,
};
use serde::{Deserialize, Serialize};
use std::collections::{BTreeMap, HashSet};
use std::path::{Path, PathBuf};
use std::sync::{Mutex, OnceLock};
use std::time::{SystemTime, UNIX_EPOCH};
use ts_rs::TS;

use crate::error::{IpcCode, IpcError, IpcResult};
use crate::state::AppState;

const FILE: &str = "brand_kit.json";

/// The largest file sent from this computer as base64 `fileData`, decoded (the sandbox's
/// `knowledge_max_file_bytes`; the real service's limit is not published). Larger files go by `fileUrl`.
pub const KNOWLEDGE_MAX_FILE_BYTES: usize = 4 * 1024 * 1024;
/// Video and audio are added only by hosted URL (spec §4 "Knowledge base").
const MEDIA_EXTS: &[&str] = &[
    "mp4", "mov", "m4v", "webm", "avi", "mkv", "mp3", "wav", "m4a", "aac", "ogg", "flac", "opus",
];
/// `GET /brand-kits/{id}/knowledge` pages: the service's maximum.
const KNOWLEDGE_MAX_LIMIT: u32 = 100;
const SEARCH_MAX_LIMIT: u32 = 50;

// --- results

/// The page: every live section in summary form (no bodies), plus what this computer keeps for the kit.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct BrandKitPage {
    pub id: String,
    pub name: String,
    /// In page order (tab, then the kit's order): key, role, tab, sectionName, width, version, charCount,
    /// outline (the section's own `##` headings).
    pub sections: Vec<SectionSummary>,
    /// Sections archived from this computer, which `brand_kit_section_archive` can restore.
    pub archived: Vec<ArchivedSection>,
    /// Unsaved texts kept after a refused save, until resolved.
    pub drafts: Vec<SectionDraft>,
}

/// A section archived from this computer.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct ArchivedSection {
    pub key: String,
    /// The section's id (what `POST /archive` names).
    pub id: String,
    pub section_name: String,
    pub tab: String,
    /// Unix milliseconds.
    pub archived_at: f64,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub enum DraftReason {
    /// The section changed on the service since it was read (409): nothing was written.
    Conflict,
    /// Nothing answered: nothing was written.
    Offline,
}

/// The user's unsaved change of one section, kept on this computer.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct SectionDraft {
    pub key: String,
    /// The user's text (Markdown).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub body: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub name: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub width: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub tab: Option<String>,
    /// The version the change was made from (the `expectedVersion` sent).
    pub expected_version: i64,
    /// The section's version on the service when the save was refused (409 only).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub theirs_version: Option<i64>,
    pub reason: DraftReason,
    /// Unix milliseconds.
    pub saved_at: f64,
}

/// A section with its earlier versions.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct SectionHistory {
    /// The section now, with its body.
    pub section: BrandKitSection,
    /// Every earlier version, newest first (a revert is one of them once reverted past).
    pub earlier: Vec<SectionRevision>,
}

// --- args

#[derive(Debug, Clone, Deserialize, Serialize, TS)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct BrandKitIdArgs {
    pub brand_kit_id: String,
}

#[derive(Debug, Clone, Default, Deserialize, Serialize, TS)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct BrandKitSectionsArgs {
    pub brand_kit_id: String,
    #[serde(default)]
    #[ts(optional)]
    pub keys: Option<Vec<String>>,
    /// Starter-section roles (`about`, `voice_and_tone`, …); an unknown one is a validation error with
    /// `validValues`.
    #[serde(default)]
    #[ts(optional)]
    pub roles: Option<Vec<String>>,
    /// `overview`, `voice`, `visual`.
    #[serde(default)]
    #[ts(optional)]
    pub tabs: Option<Vec<String>>,
}

/// One changed section of a save. Only what changed is given; `expectedVersion` is the version read.
#[derive(Debug, Clone, Default, Deserialize, Serialize, TS)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct SectionEdit {
    pub key: String,
    /// The whole new Markdown body.
    #[serde(default)]
    #[ts(optional)]
    pub body: Option<String>,
    /// The display name (the key never changes).
    #[serde(default)]
    #[ts(optional)]
    pub name: Option<String>,
    /// `full` or `half`.
    #[serde(default)]
    #[ts(optional)]
    pub width: Option<String>,
    /// Moves the section to another tab.
    #[serde(default)]
    #[ts(optional)]
    pub tab: Option<String>,
    /// A role cannot be changed: accepted only as the section's own (a starter section's role is its key).
    #[serde(default)]
    #[ts(optional)]
    pub role: Option<String>,
    pub expected_version: i64,
}

#[derive(Debug, Clone, Deserialize, Serialize, TS)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct BrandKitSaveArgs {
    pub brand_kit_id: String,
    pub sections: Vec<SectionEdit>,
}

#[derive(Debug, Clone, Deserialize, Serialize, TS)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct BrandKitSectionKeyArgs {
    pub brand_kit_id: String,
    pub key: String,
}

#[derive(Debug, Clone, Deserialize, Serialize, TS)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct BrandKitSectionAddArgs {
    pub brand_kit_id: String,
    pub name: String,
    pub tab: String,
    /// `full` (default) or `half`.
    #[serde(default)]
    #[ts(optional)]
    pub width: Option<String>,
    /// A section you add has no role (roles belong to the eight starter sections): any value is refused.
    #[serde(default)]
    #[ts(optional)]
    pub role: Option<String>,
    #[serde(default)]
    #[ts(optional)]
    pub body: Option<String>,
}

#[derive(Debug, Clone, Deserialize, Serialize, TS)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct BrandKitSectionArchiveArgs {
    pub brand_kit_id: String,
    pub key: String,
    /// `false` restores.
    pub archived: bool,
    /// The section's id, when the caller knows it (a section archived elsewhere); else the core finds it.
    #[serde(default)]
    #[ts(optional)]
    pub section_id: Option<String>,
}

#[derive(Debug, Clone, Deserialize, Serialize, TS)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct BrandKitRevertArgs {
    pub brand_kit_id: String,
    pub key: String,
    /// The earlier version to bring back (it lands as a new version).
    pub version: i64,
    /// The section's current version, as read.
    pub expected_version: i64,
}

#[derive(Debug, Clone, Deserialize, Serialize, TS)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct KnowledgeListArgs {
    pub brand_kit_id: String,
    /// 1–100 (default 50).
    #[serde(default)]
    #[ts(optional)]
    pub limit: Option<u32>,
    #[serde(default)]
    #[ts(optional)]
    pub offset: Option<u32>,
}

#[derive(Debug, Clone, Deserialize, Serialize, TS)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct KnowledgeSearchArgs {
    pub brand_kit_id: String,
    pub query: String,
    /// 1–50 (default 8).
    #[serde(default)]
    #[ts(optional)]
    pub limit: Option<u32>,
}

/// Exactly one of `fileData` (base64: small documents and images), `fileUrl` (hosted: large files,
/// video, audio), `url` (a web page or a YouTube video) or `text`. `fileName` and `mimeType` are local
/// hints (the extension, video or audio) and are not sent.
#[derive(Clone, Default, Deserialize, Serialize, TS)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct KnowledgeAddArgs {
    pub brand_kit_id: String,
    #[serde(default)]
    #[ts(optional)]
    pub file_data: Option<String>,
    #[serde(default)]
    #[ts(optional)]
    pub file_url: Option<String>,
    #[serde(default)]
    #[ts(optional)]
    pub url: Option<String>,
    #[serde(default)]
    #[ts(optional)]
    pub text: Option<String>,
    /// Without a dot (`pdf`); else taken from `fileName` or `fileUrl`.
    #[serde(default)]
    #[ts(optional)]
    pub file_ext: Option<String>,
    #[serde(default)]
    #[ts(optional)]
    pub file_name: Option<String>,
    #[serde(default)]
    #[ts(optional)]
    pub mime_type: Option<String>,
    #[serde(default)]
    #[ts(optional)]
    pub title: Option<String>,
}

impl std::fmt::Debug for KnowledgeAddArgs {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("KnowledgeAddArgs")
            .field("brand_kit_id", &self.brand_kit_id)
            .field("file_data", &self.file_data.as_ref().map(|d| format!("<{} characters>", d.len())))
            .field("file_url", &self.file_url)
            .field("url", &self.url)
            .field("text", &self.text.as_ref().map(|t| format!("<{} characters>", t.len())))
            .field("file_ext", &self.file_ext)
            .field("file_name", &self.file_name)
            .field("mime_type", &self.mime_type)
            .field("title", &self.title)
            .finish()
    }
}

#[derive(Debug, Clone, Deserialize, Serialize, TS)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct KnowledgeRemoveArgs {
    pub brand_kit_id: String,
    pub knowledge_id: String,
}

// --- the local file: drafts and archived sections, per profile and kit

#[derive(Debug, Clone, Default, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
struct Local {
    #[serde(default)]
    version: u32,
    /// profile id → kit id → what is kept.
    #[serde(default)]
    profiles: BTreeMap<String, BTreeMap<String, KitLocal>>,
}

#[derive(Debug, Clone, Default, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
struct KitLocal {
    #[serde(default)]
    drafts: Vec<SectionDraft>,
    #[serde(default)]
    archived: Vec<ArchivedSection>,
}

fn file_lock() -> &'static Mutex<()> {
    static LOCK: OnceLock<Mutex<()>> = OnceLock::new();
    LOCK.get_or_init(|| Mutex::new(()))
}

fn path(dir: &Path) -> PathBuf {
    dir.join(FILE)
}

fn read_local(dir: &Path) -> IpcResult<Local> {
    crate::jsonfile::read(&path(dir), "The kept brand-kit drafts")
}

fn write_local(dir: &Path, local: &Local) -> IpcResult<()> {
    let mut local = local.clone();
    local.version = 1;
    for kits in local.profiles.values_mut() {
        kits.retain(|_, k| !k.drafts.is_empty() || !k.archived.is_empty());
    }
    local.profiles.retain(|_, kits| !kits.is_empty());
    crate::jsonfile::write(&path(dir), &local, "the draft")
}

/// Runs `f` over one kit's local record and saves the file when `f` says it changed.
fn with_kit<T>(state: &AppState, kit_id: &str, f: impl FnOnce(&mut KitLocal) -> (T, bool)) -> IpcResult<T> {
    let profile = profile_id(state)?;
    let dir = state.data_dir();
    let _guard = file_lock().lock().unwrap_or_else(|e| e.into_inner());
    let mut local = read_local(dir)?;
    let kit = local.profiles.entry(profile).or_default().entry(kit_id.to_string()).or_default();
    let (out, changed) = f(kit);
    if changed {
        write_local(dir, &local)?;
    }
    Ok(out)
}

fn kit_local(state: &AppState, kit_id: &str) -> IpcResult<KitLocal> {
    with_kit(state, kit_id, |k| (k.clone(), false))
}

fn profile_id(state: &AppState) -> IpcResult<String> {
    state
        .selected_id()
        .ok_or_else(|| IpcError::new(IpcCode::NoProfile, "No profile is selected: add or pick one in Settings."))
}

fn now_ms() -> f64 {
    SystemTime::now().duration_since(UNIX_EPOCH).map(|d| d.as_millis() as f64).unwrap_or(0.0)
}

// --- checks

fn required(field: &str, v: &str, what: &str) -> IpcResult<String> {
    let v = v.trim();
    if v.is_empty() {
        return Err(IpcError::validation(field, format!("Give the {what}.")));
    }
    Ok(v.to_string())
}

fn one_of(field: &str, v: &str, valid: &[&str], what: &str) -> IpcResult<String> {
    if valid.contains(&v) {
        return Ok(v.to_string());
    }
    Err(IpcError {
        valid_values: valid.iter().map(|s| s.to_string()).collect(),
        ..IpcError::validation(field, format!("“{v}” is not a {what}: use one of {}.", valid.join(", ")))
    })
}

fn check_url(field: &str, raw: &str) -> IpcResult<String> {
    let raw = raw.trim();
    let ok = url::Url::parse(raw).is_ok_and(|u| matches!(u.scheme(), "http" | "https") && u.host().is_some());
    if !ok {
        return Err(IpcError::validation(field, format!("“{raw}” is not a web address (http:// or https://).")));
    }
    Ok(raw.to_string())
}

/// What a save sends, checked: every entry names a section once, changes something, and says the
/// version it was read at.
fn check_edits(edits: &[SectionEdit]) -> IpcResult<Vec<SectionWrite>> {
    if edits.is_empty() {
        return Err(IpcError::validation("sections", "Nothing to save: no section changed."));
    }
    let starter: HashSet<&str> = api_types::roles().into_iter().collect();
    let mut seen = HashSet::new();
    let mut out = Vec::with_capacity(edits.len());
    for (i, e) in edits.iter().enumerate() {
        let at = |f: &str| format!("sections[{i}].{f}");
        let key = required(&at("key"), &e.key, "section's key")?;
        if !seen.insert(key.clone()) {
            return Err(IpcError::validation(at("key"), format!("Section “{key}” is named twice; send one entry per section.")));
        }
        if e.expected_version < 1 {
            return Err(IpcError::validation(at("expectedVersion"), "Give the version the section was read at (1 or more)."));
        }
        if let Some(role) = &e.role {
            if !(starter.contains(key.as_str()) && role == &key) {
                return Err(IpcError::validation(
                    at("role"),
                    "A section's role cannot be set or changed: roles belong to the eight starter sections.",
                ));
            }
        }
        let name = match &e.name {
            Some(n) => Some(required(&at("name"), n, "section's name")?),
            None => None,
        };
        let width = e.width.as_deref().map(|w| one_of(&at("width"), w, WIDTHS, "width")).transpose()?;
        let tab = e.tab.as_deref().map(|t| one_of(&at("tab"), t, TABS, "tab")).transpose()?;
        if e.body.is_none() && name.is_none() && width.is_none() && tab.is_none() {
            return Err(IpcError::validation(at("body"), format!("Section “{key}” has nothing to save.")));
        }
        out.push(SectionWrite {
            key: Some(key),
            section_name: name,
            tab,
            body: e.body.clone(),
            width,
            expected_version: Some(e.expected_version),
            revert_to: None,
            ..Default::default()
        });
    }
    Ok(out)
}

// --- sections

pub async fn brand_kit_page(state: &AppState, args: BrandKitIdArgs) -> IpcResult<BrandKitPage> {
    let kit_id = required("brandKitId", &args.brand_kit_id, "brand kit")?;
    let view = state.client().await?.brand_kits().get_summary(&kit_id).await?;
    let local = kit_local(state, &kit_id)?;
    // A section restored elsewhere is live again: it is no longer offered for restore.
    let live: HashSet<&str> = view.sections.iter().map(|s| s.key.as_str()).collect();
    let archived = local.archived.into_iter().filter(|a| !live.contains(a.key.as_str())).collect();
    Ok(BrandKitPage { id: view.id, name: view.name, sections: view.sections, archived, drafts: local.drafts })
}

/// Sections with their bodies, by key, role or tab (lists AND-combined). An unknown role or tab is the
/// service's 400, answered as validation with `validValues`.
pub async fn brand_kit_sections(state: &AppState, args: BrandKitSectionsArgs) -> IpcResult<BrandKitSectionsView> {
    let kit_id = required("brandKitId", &args.brand_kit_id, "brand kit")?;
    let clean = |v: Option<Vec<String>>| -> Vec<String> {
        v.unwrap_or_default().into_iter().map(|s| s.trim().to_string()).filter(|s| !s.is_empty()).collect()
    };
    let filter = SectionFilter {
        keys: clean(args.keys),
        roles: clean(args.roles),
        tabs: clean(args.tabs),
        history: false,
    };
    if filter.keys.is_empty() && filter.roles.is_empty() && filter.tabs.is_empty() {
        return Err(IpcError::validation("keys", "Say which sections to read: give keys, roles or tabs."));
    }
    Ok(state.client().await?.brand_kits().get_sections(&kit_id, &filter).await?)
}

/// Saves the changed sections in one all-or-nothing write. Refused (409) or unanswered, nothing is
/// written and the user's change is kept as a draft; saved, the sections' drafts are cleared.
pub async fn brand_kit_save(state: &AppState, args: BrandKitSaveArgs) -> IpcResult<Vec<BrandKitSection>> {
    let kit_id = required("brandKitId", &args.brand_kit_id, "brand kit")?;
    let writes = check_edits(&args.sections)?;
    let keys: Vec<String> = writes.iter().filter_map(|w| w.key.clone()).collect();
    let client = state.client().await?;
    match client.brand_kits().write_sections(&kit_id, writes).await {
        Ok(kit) => {
            with_kit(state, &kit_id, |k| {
                let before = k.drafts.len();
                k.drafts.retain(|d| !keys.contains(&d.key));
                ((), k.drafts.len() != before)
            })?;
            Ok(kit.sections.into_iter().filter(|s| keys.contains(&s.key)).collect())
        }
        Err(e) => {
            let conflict = matches!(e, ApiError::SectionConflict { .. });
            let mut err = IpcError::from(e);
            if conflict {
                keep_drafts(state, &kit_id, &args.sections, &err, DraftReason::Conflict)?;
                let changed: Vec<String> = err.conflicts.iter().map(|c| format!("“{}”", c.key)).collect();
                err.message = format!(
                    "{} changed since you opened {}. Nothing was written: your text is kept on this computer until \
                     you choose to take theirs, keep yours (save again over their version) or merge by hand.",
                    if changed.len() == 1 { format!("Section {}", changed[0]) } else { format!("Sections {}", changed.join(", ")) },
                    if changed.len() == 1 { "it" } else { "them" },
                );
            } else if err.code == IpcCode::Network {
                keep_drafts(state, &kit_id, &args.sections, &err, DraftReason::Offline)?;
                err.message.push_str(" Your unsaved text is kept as a draft on this computer.");
            }
            Err(err)
        }
    }
}

/// Keeps every entry of a refused write (nothing of it was written), merged over an earlier draft of the
/// same section: later fields win.
fn keep_drafts(state: &AppState, kit_id: &str, edits: &[SectionEdit], err: &IpcError, reason: DraftReason) -> IpcResult<()> {
    let now = now_ms();
    with_kit(state, kit_id, |k| {
        for e in edits {
            let theirs = err.conflicts.iter().find(|c| c.key == e.key).map(|c| c.version);
            let draft = match k.drafts.iter_mut().find(|d| d.key == e.key) {
                Some(d) => d,
                None => {
                    k.drafts.push(SectionDraft {
                        key: e.key.clone(),
                        body: None,
                        name: None,
                        width: None,
                        tab: None,
                        expected_version: e.expected_version,
                        theirs_version: None,
                        reason,
                        saved_at: now,
                    });
                    k.drafts.last_mut().expect("just pushed")
                }
            };
            if e.body.is_some() {
                draft.body = e.body.clone();
            }
            if e.name.is_some() {
                draft.name = e.name.clone();
            }
            if e.width.is_some() {
                draft.width = e.width.clone();
            }
            if e.tab.is_some() {
                draft.tab = e.tab.clone();
            }
            draft.expected_version = e.expected_version;
            draft.theirs_version = theirs;
            draft.reason = reason;
            draft.saved_at = now;
        }
        ((), true)
    })
}

pub async fn brand_kit_drafts(state: &AppState, args: BrandKitIdArgs) -> IpcResult<Vec<SectionDraft>> {
    let kit_id = required("brandKitId", &args.brand_kit_id, "brand kit")?;
    Ok(kit_local(state, &kit_id)?.drafts)
}

/// Drops one kept draft (the user chose "take theirs" or gave it up). Answers the kit's remaining drafts.
pub async fn brand_kit_draft_discard(state: &AppState, args: BrandKitSectionKeyArgs) -> IpcResult<Vec<SectionDraft>> {
    let kit_id = required("brandKitId", &args.brand_kit_id, "brand kit")?;
    let (found, rest) = with_kit(state, &kit_id, |k| {
        let before = k.drafts.len();
        k.drafts.retain(|d| d.key != args.key);
        let found = k.drafts.len() != before;
        ((found, k.drafts.clone()), found)
    })?;
    if !found {
        return Err(IpcError::new(IpcCode::NotFound, "There is no kept draft of that section: it was saved or discarded."));
    }
    Ok(rest)
}

/// Adds a section at the end of its tab; answers it as the service has it.
pub async fn brand_kit_section_add(state: &AppState, args: BrandKitSectionAddArgs) -> IpcResult<BrandKitSection> {
    let kit_id = required("brandKitId", &args.brand_kit_id, "brand kit")?;
    let name = required("name", &args.name, "section's name")?;
    let tab = required("tab", &args.tab, "tab the section goes in")?;
    let tab = one_of("tab", &tab, TABS, "tab")?;
    let width = args.width.as_deref().map(|w| one_of("width", w, WIDTHS, "width")).transpose()?;
    if args.role.is_some() {
        return Err(IpcError::validation(
            "role",
            "A section you add has no role: roles belong to the eight starter sections. Leave it out.",
        ));
    }
    let mut write = SectionWrite::add(name.clone(), tab.clone(), args.body.unwrap_or_default());
    write.width = width;
    let kit = state.client().await?.brand_kits().write_sections(&kit_id, vec![write]).await?;
    // A new section lands at its tab's end; the reply lists sections in page order.
    kit.sections
        .into_iter()
        .rev()
        .find(|s| s.tab == tab && s.section_name == name && s.role.is_none())
        .ok_or_else(|| IpcError::internal("The section was added but the service's answer does not list it; refresh the page."))
}

/// Archives (`POST /archive`, `assetType: brand_kit_section`) or restores a section.
pub async fn brand_kit_section_archive(state: &AppState, args: BrandKitSectionArchiveArgs) -> IpcResult<ArchiveResult> {
    let kit_id = required("brandKitId", &args.brand_kit_id, "brand kit")?;
    let key = required("key", &args.key, "section's key")?;
    let client = state.client().await?;
    let (id, found) = match args.section_id.as_deref().map(str::trim).filter(|s| !s.is_empty()) {
        Some(id) => (id.to_string(), None),
        None if args.archived => {
            let page = client.brand_kits().get_summary(&kit_id).await?;
            let s = page.sections.into_iter().find(|s| s.key == key).ok_or_else(|| {
                IpcError::new(IpcCode::NotFound, format!("This kit has no live section “{key}”: it may be archived already; refresh the page."))
            })?;
            (s.id.clone(), Some(s))
        }
        None => {
            let local = kit_local(state, &kit_id)?;
            let a = local.archived.into_iter().find(|a| a.key == key).ok_or_else(|| {
                IpcError::new(
                    IpcCode::NotFound,
                    format!(
                        "Section “{key}” was not archived from this computer, and the service does not list archived \
                         sections: restore it where it was archived."
                    ),
                )
            })?;
            (a.id, None)
        }
    };
    let req = ArchiveRequest { asset_type: "brand_kit_section".into(), id: id.clone(), archived: Some(args.archived), ..Default::default() };
    let result = client.archive(&req).await?;
    let now = now_ms();
    with_kit(state, &kit_id, |k| {
        k.archived.retain(|a| a.key != key);
        if args.archived {
            let (section_name, tab) = found.map(|s| (s.section_name, s.tab)).unwrap_or_else(|| (key.clone(), String::new()));
            k.archived.push(ArchivedSection { key: key.clone(), id, section_name, tab, archived_at: now });
        }
        ((), true)
    })?;
    Ok(result)
}

/// The section now and its earlier versions (a history read filtered by the key).
pub async fn brand_kit_history(state: &AppState, args: BrandKitSectionKeyArgs) -> IpcResult<SectionHistory> {
    let kit_id = required("brandKitId", &args.brand_kit_id, "brand kit")?;
    let key = required("key", &args.key, "section's key")?;
    let filter = SectionFilter::keys([key.clone()]).with_history();
    let view = state.client().await?.brand_kits().get_sections(&kit_id, &filter).await?;
    let mut section = view.sections.into_iter().find(|s| s.key == key).ok_or_else(|| {
        IpcError::new(IpcCode::NotFound, format!("This kit has no live section “{key}”; refresh the page."))
    })?;
    let earlier = section.revisions.take().unwrap_or_default();
    Ok(SectionHistory { section, earlier })
}

/// Brings back an earlier version (`revertTo`). It lands as a new version, so it can itself be reverted.
pub async fn brand_kit_revert(state: &AppState, args: BrandKitRevertArgs) -> IpcResult<BrandKitSection> {
    let kit_id = required("brandKitId", &args.brand_kit_id, "brand kit")?;
    let key = required("key", &args.key, "section's key")?;
    if args.version < 1 {
        return Err(IpcError::validation("version", "Pick a version to bring back (1 or more)."));
    }
    if args.version == args.expected_version {
        return Err(IpcError::validation("version", format!("Version {} is the current one already.", args.version)));
    }
    let write = SectionWrite::revert(key.clone(), args.version, args.expected_version);
    let kit = state.client().await?.brand_kits().write_sections(&kit_id, vec![write]).await?;
    kit.sections
        .into_iter()
        .find(|s| s.key == key)
        .ok_or_else(|| IpcError::internal("The version was brought back but the service's answer does not list the section; refresh the page."))
}

// --- knowledge base

pub async fn knowledge_list(state: &AppState, args: KnowledgeListArgs) -> IpcResult<KnowledgeList> {
    let kit_id = required("brandKitId", &args.brand_kit_id, "brand kit")?;
    if let Some(l) = args.limit {
        if !(1..=KNOWLEDGE_MAX_LIMIT).contains(&l) {
            return Err(IpcError::validation("limit", format!("Ask for 1 to {KNOWLEDGE_MAX_LIMIT} items at a time.")));
        }
    }
    Ok(state.client().await?.knowledge(&kit_id).list(args.limit, args.offset).await?)
}

/// The passages of the kit's knowledge that match `query`, best first, with their similarity (0–1).
pub async fn knowledge_search(state: &AppState, args: KnowledgeSearchArgs) -> IpcResult<Vec<KnowledgeMatch>> {
    let kit_id = required("brandKitId", &args.brand_kit_id, "brand kit")?;
    let query = required("query", &args.query, "words to search for")?;
    if let Some(l) = args.limit {
        if !(1..=SEARCH_MAX_LIMIT).contains(&l) {
            return Err(IpcError::validation("limit", format!("Ask for 1 to {SEARCH_MAX_LIMIT} matches.")));
        }
    }
    Ok(state.client().await?.knowledge(&kit_id).search(&query, args.limit, None).await?)
}

/// The size base64 text decodes to (padded or not), without decoding it.
fn decoded_len(b64: &str) -> usize {
    let n = b64.len();
    let pad = b64.bytes().rev().take(2).filter(|b| *b == b'=').count();
    (n - pad) * 3 / 4
}

fn ext_of(name: &str) -> Option<String> {
    let name = name.rsplit(['/', '\\']).next().unwrap_or(name);
    let name = name.split(['?', '#']).next().unwrap_or(name);
    name.rsplit_once('.').map(|(_, e)| e.trim().to_ascii_lowercase()).filter(|e| !e.is_empty() && e.len() <= 10)
}

fn is_youtube(url: &str) -> bool {
    url::Url::parse(url).ok().and_then(|u| u.host_str().map(str::to_ascii_lowercase)).is_some_and(|h| {
        h == "youtu.be" || h == "youtube.com" || h.ends_with(".youtube.com")
    })
}

const HOSTED: &str = "Put the file where it can be downloaded (a hosted link) and add it by that address (fileUrl): \
                      the service fetches and reads it.";

/// What an add sends, checked first: one source, a file small enough and neither video nor audio for
/// base64.
fn knowledge_input(args: &KnowledgeAddArgs) -> IpcResult<api_types::AddKnowledge> {
    let given = |v: &Option<String>| v.as_deref().is_some_and(|s| !s.trim().is_empty());
    let sources = [given(&args.file_data), given(&args.file_url), given(&args.url), given(&args.text)];
    if sources.iter().filter(|g| **g).count() != 1 {
        return Err(IpcError::validation(
            "source",
            "Add one thing at a time: a file (fileData), a hosted file (fileUrl), a web page (url) or text.",
        ));
    }
    let title = args.title.as_deref().map(str::trim).filter(|t| !t.is_empty()).map(String::from);
    let named_ext = args
        .file_ext
        .as_deref()
        .map(|e| e.trim().trim_start_matches('.').to_ascii_lowercase())
        .filter(|e| !e.is_empty())
        .or_else(|| args.file_name.as_deref().and_then(ext_of));
    let mut input = api_types::AddKnowledge { title, ..Default::default() };
    if let Some(text) = args.text.as_deref().filter(|t| !t.trim().is_empty()) {
        input.source_type = "text".into();
        input.text = Some(text.to_string());
    } else if let Some(url) = args.url.as_deref().filter(|u| !u.trim().is_empty()) {
        let url = check_url("url", url)?;
        input.source_type = if is_youtube(&url) { "youtube" } else { "url" }.into();
        input.url = Some(url);
    } else if let Some(url) = args.file_url.as_deref().filter(|u| !u.trim().is_empty()) {
        let url = check_url("fileUrl", url)?;
        input.source_type = "file".into();
        input.file_ext = named_ext;
        input.file_url = Some(url);
    } else {
        let data = args.file_data.as_deref().unwrap_or_default().trim();
        let data = match data.split_once(";base64,") {
            Some((head, rest)) if head.starts_with("data:") => rest,
            _ => data,
        };
        let data: String = data.chars().filter(|c| !c.is_ascii_whitespace()).collect();
        let media = args.mime_type.as_deref().is_some_and(|m| m.starts_with("video/") || m.starts_with("audio/"))
            || named_ext.as_deref().is_some_and(|e| MEDIA_EXTS.contains(&e));
        if media {
            return Err(IpcError::validation(
                "fileData",
                format!("Video and audio cannot be sent from this computer as a file. {HOSTED}"),
            ));
        }
        let size = decoded_len(&data);
        if size > KNOWLEDGE_MAX_FILE_BYTES {
            return Err(IpcError::validation(
                "fileData",
                format!(
                    "This file is {:.1} MB; files sent from this computer can be at most {} MB. {HOSTED}",
                    size as f64 / (1024.0 * 1024.0),
                    KNOWLEDGE_MAX_FILE_BYTES / (1024 * 1024)
                ),
            ));
        }
        if size == 0 {
            return Err(IpcError::validation("fileData", "The file is empty."));
        }
        let Some(ext) = named_ext else {
            return Err(IpcError::validation(
                "fileExt",
                "Say what kind of file this is (its extension, such as pdf, docx, md or png).",
            ));
        };
        input.source_type = "file".into();
        if input.title.is_none() {
            input.title = args.file_name.as_deref().map(str::trim).filter(|n| !n.is_empty()).map(String::from);
        }
        input.file_ext = Some(ext);
        input.file_data = Some(data);
    }
    Ok(input)
}

/// Adds a file, a hosted file, a web page or text. At the plan's cap nothing is added and the answer is
/// `limitReached`.
pub async fn knowledge_add(state: &AppState, args: KnowledgeAddArgs) -> IpcResult<KnowledgeAdded> {
    let kit_id = required("brandKitId", &args.brand_kit_id, "brand kit")?;
    let input = knowledge_input(&args)?;
    let client = state.client().await?;
    client.knowledge(&kit_id).add(&input).await.map_err(|e| match e {
        ApiError::LimitReached { limit, current, status, .. } => {
            let counts = match (current, limit) {
                (Some(c), Some(l)) => format!(" ({c} of {l} items)"),
                (None, Some(l)) => format!(" ({l} items)"),
                _ => String::new(),
            };
            IpcError {
                status: (status != 0).then_some(status),
                ..IpcError::new(
                    IpcCode::LimitReached,
                    format!(
                        "This kit is at its plan's cap for knowledge{counts}: nothing was added. Remove an item you no \
                         longer need, or upgrade the plan, then add this again."
                    ),
                )
            }
        }
        other => IpcError::from(other),
    })
}

pub async fn knowledge_remove(state: &AppState, args: KnowledgeRemoveArgs) -> IpcResult<Deleted> {
    let kit_id = required("brandKitId", &args.brand_kit_id, "brand kit")?;
    let id = required("knowledgeId", &args.knowledge_id, "knowledge item")?;
    Ok(state.client().await?.knowledge(&kit_id).remove(&id).await?)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn edit(key: &str) -> SectionEdit {
        SectionEdit { key: key.into(), body: Some("# x".into()), expected_version: 1, ..Default::default() }
    }

    #[test]
    fn a_save_sends_only_what_changed_with_the_version_read() {
        let w = check_edits(&[SectionEdit { width: Some("half".into()), ..edit("about") }]).unwrap();
        assert_eq!(
            serde_json::to_value(&w).unwrap(),
            serde_json::json!([{"key": "about", "body": "# x", "width": "half", "expectedVersion": 1}])
        );
        let w = check_edits(&[SectionEdit { name: Some(" Who we are ".into()), body: None, ..edit("about") }]).unwrap();
        assert_eq!(serde_json::to_value(&w).unwrap()[0]["sectionName"], "Who we are");
    }

    #[test]
    fn a_save_is_checked_before_sending() {
        let field = |edits: &[SectionEdit]| check_edits(edits).unwrap_err().field.unwrap();
        assert_eq!(field(&[]), "sections");
        assert_eq!(field(&[edit("about"), edit("about")]), "sections[1].key");
        assert_eq!(field(&[SectionEdit { key: " ".into(), ..edit("x") }]), "sections[0].key");
        assert_eq!(field(&[SectionEdit { expected_version: 0, ..edit("about") }]), "sections[0].expectedVersion");
        assert_eq!(field(&[SectionEdit { body: None, ..edit("about") }]), "sections[0].body");
        let e = check_edits(&[SectionEdit { width: Some("wide".into()), ..edit("about") }]).unwrap_err();
        assert_eq!(e.field.as_deref(), Some("sections[0].width"));
        assert_eq!(e.valid_values, vec!["full", "half"]);
        let e = check_edits(&[SectionEdit { tab: Some("sidebar".into()), ..edit("about") }]).unwrap_err();
        assert_eq!(e.valid_values, vec!["overview", "voice", "visual"]);
        // A role is only ever the section's own: a starter section's role is its key.
        assert!(check_edits(&[SectionEdit { role: Some("about".into()), ..edit("about") }]).is_ok());
        assert_eq!(field(&[SectionEdit { role: Some("offer".into()), ..edit("about") }]), "sections[0].role");
        assert_eq!(field(&[SectionEdit { role: Some("about".into()), ..edit("custom_1") }]), "sections[0].role");
    }

    #[test]
    fn the_removed_field_model_inputs_cannot_be_expressed() {
        for name in api_types::REMOVED_INPUTS.iter().map(|r| r.0) {
            let save = serde_json::json!({ "brandKitId": "k", "sections": [], name: "x" });
            assert!(serde_json::from_value::<BrandKitSaveArgs>(save).is_err(), "{name}");
            let entry = serde_json::json!({ "key": "about", "expectedVersion": 1, name: "x" });
            assert!(serde_json::from_value::<SectionEdit>(entry).is_err(), "{name}");
            let add = serde_json::json!({ "brandKitId": "k", "name": "n", "tab": "voice", name: "x" });
            assert!(serde_json::from_value::<BrandKitSectionAddArgs>(add).is_err(), "{name}");
        }
    }

    #[test]
    fn decoded_sizes_are_exact_for_padded_and_unpadded_base64() {
        use base64::Engine;
        for n in [0usize, 1, 2, 3, 4, 5, 100, 4097] {
            let bytes = vec![7u8; n];
            let padded = base64::engine::general_purpose::STANDARD.encode(&bytes);
            let bare = base64::engine::general_purpose::STANDARD_NO_PAD.encode(&bytes);
            assert_eq!(decoded_len(&padded), n);
            assert_eq!(decoded_len(&bare), n);
        }
    }

    #[test]
    fn knowledge_adds_are_checked_before_sending() {
        let args = |f: fn(&mut KnowledgeAddArgs)| {
            let mut a = KnowledgeAddArgs { brand_kit_id: "k".into(), ..Default::default() };
            f(&mut a);
            a
        };
        let e = knowledge_input(&args(|_| {})).unwrap_err();
        assert_eq!(e.field.as_deref(), Some("source"));
        let e = knowledge_input(&args(|a| {
            a.text = Some("t".into());
            a.url = Some("https://example.com".into());
        }))
        .unwrap_err();
        assert_eq!(e.field.as_deref(), Some("source"));
        // Video and audio as base64: refused, pointing at a hosted URL.
        let e = knowledge_input(&args(|a| {
            a.file_data = Some("AAAA".into());
            a.file_name = Some("talk.MP4".into());
        }))
        .unwrap_err();
        assert_eq!(e.field.as_deref(), Some("fileData"));
        assert!(e.message.contains("fileUrl"), "{}", e.message);
        let e = knowledge_input(&args(|a| {
            a.file_data = Some("AAAA".into());
            a.file_ext = Some("bin".into());
            a.mime_type = Some("audio/mpeg".into());
        }))
        .unwrap_err();
        assert!(e.message.contains("fileUrl"));
        // Too big: refused before sending, pointing at a hosted URL.
        let e = knowledge_input(&args(|a| {
            a.file_data = Some("A".repeat((KNOWLEDGE_MAX_FILE_BYTES / 3 + 1) * 4));
            a.file_ext = Some("pdf".into());
        }))
        .unwrap_err();
        assert_eq!(e.field.as_deref(), Some("fileData"));
        assert!(e.message.contains("fileUrl") && e.message.contains("4 MB"), "{}", e.message);
        let e = knowledge_input(&args(|a| a.file_data = Some("aGk=".into()))).unwrap_err();
        assert_eq!(e.field.as_deref(), Some("fileExt"));
        let ok = knowledge_input(&args(|a| {
            a.file_data = Some("data:text/markdown;base64,aGk=".into());
            a.file_name = Some("notes.md".into());
        }))
        .unwrap();
        assert_eq!(
            serde_json::to_value(&ok).unwrap(),
            serde_json::json!({"sourceType": "file", "fileData": "aGk=", "fileExt": "md", "title": "notes.md"})
        );
        let yt = knowledge_input(&args(|a| a.url = Some("https://www.youtube.com/watch?v=x".into()))).unwrap();
        assert_eq!(yt.source_type, "youtube");
        let e = knowledge_input(&args(|a| a.file_url = Some("ftp://x/y.mp4".into()))).unwrap_err();
        assert_eq!(e.field.as_deref(), Some("fileUrl"));
        let hosted = knowledge_input(&args(|a| a.file_url = Some("https://cdn.example.com/talk.mp4".into()))).unwrap();
        assert_eq!(hosted.source_type, "file");
    }
}
