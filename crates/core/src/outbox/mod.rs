//! The outbox: every change kept on this computer, in one store. A kept change is an edit the service
//! did not take (no answer, or a conflict) and that waits here, per profile, until it is sent or the user
//! settles it:
//! - a card's (`cards.rs`): an edit or move of a card while the service did not answer, sent when it
//!   answers again (docs/ipc.md, "Offline drafts");
//! - a planner write's (`planner.rs`): a card archived or restored, a stage or space made, renamed,
//!   recoloured, moved, archived or deleted while the service did not answer, in order, with the base it
//!   was made on, and the real ids of what was made offline (`ids`);
//! - a brand-kit section's (`sections.rs`): the text of a refused save (409, or no answer), kept until the
//!   user takes theirs, keeps mine or merges; and the sections archived from this computer (the service
//!   lists no archived sections, and restoring needs the id).
//!
//! One file, `outbox.json` in the data folder, written atomically through `crate::jsonfile`, with one lock:
//! `{ "version": 3, "profiles": { "<profile id>": { "cards": [CardChange, ...], "planner": [PlannerChange, ...],
//! "ids": { "<local id>": "<real id>" },
//! "brandKits": { "<kit id>": { "sections": [SectionDraft, ...], "archived": [ArchivedSection, ...] } } } } }`.
//! It holds card and section content only, never a key. The two files of earlier versions (`drafts.json`,
//! `brand_kit.json`) are read into it when the outbox is opened (`migrate.rs`); a version 2 file (no
//! `planner`, no `ids`) is rewritten as version 3 then.
//!
//! What the outbox keeps in memory for one running core (its locks, what was last read of each card) is an
//! [`Outbox`], owned by the running app and reached through [`WithOutbox`]: never process-global.
use serde::{Deserialize, Serialize};
use std::collections::{BTreeMap, HashMap};
use std::path::{Path, PathBuf};
use std::sync::Mutex;
use std::time::{SystemTime, UNIX_EPOCH};

use crate::error::IpcResult;
use crate::session::Session;

mod cards;
mod migrate;
mod planner;
mod sections;
pub use cards::*;
pub use planner::{is_local, KeptChange, KeptKind, StageBase, LOCAL_PREFIX};
pub(crate) use planner::{
    answer_lost, is_unanswered, keep as keep_planner, must_keep, new_local_id, same_spaces, same_stages, saw_spaces, saw_stages, seen_base, Base,
    PlannerOp,
};
pub use sections::*;

const FILE: &str = "outbox.json";
/// The file's format: 3 since planner writes are kept (`planner`, `ids`); 2 since the two stores became
/// one (1 was `drafts.json` and `brand_kit.json`).
const VERSION: u32 = 3;

/// How the user settles a kept change that the service's copy moved past (the same choice for a card
/// and a brand-kit section; the wire keeps each command's own words).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Resolution {
    /// Drop the kept change; what the service has stays (a card's `discardMine`, a section's
    /// `brand_kit_draft_discard`).
    TakeTheirs,
    /// Send the kept change over what the service has now (a card's `sendMine`; a section: saved again
    /// with `expectedVersion` = theirs). Merging is this too: the user's merged text is what is sent.
    KeepMine,
}

/// What the outbox needs of the running app: the session, and the outbox's memory, which the running app
/// keeps (never process-global) and hands out here.
pub trait WithOutbox: Session {
    fn outbox(&self) -> &Outbox;
}

/// What the outbox holds in memory for one running core: its locks, and what the core last read of each
/// card, per profile.
pub struct Outbox {
    /// Read-modify-write of the outbox file, one at a time (cards and sections alike).
    file: Mutex<()>,
    /// One card sync at a time (the background task and "Send now" never send a change twice).
    sync: tokio::sync::Mutex<()>,
    /// `(profile id, card id)` → what was last read of it: the base of an offline edit.
    seen: Mutex<HashMap<(String, String), cards::Seen>>,
    /// `(profile id, stage or space id)` → how the board last had it: the base of an offline change.
    planner_seen: Mutex<HashMap<(String, String), planner::Base>>,
    /// Profile id → the local ids of stages and spaces made offline whose creates were sent while this
    /// core runs → their real ids (`DraftsStatus.made`: the UI swaps what it shows or remembers).
    made: Mutex<HashMap<String, BTreeMap<String, String>>>,
}

impl Outbox {
    /// The outbox of the data folder `dir`; the files of earlier versions found there are read into
    /// `outbox.json` first (once: they are renamed `*.migrated` after; one that cannot be read stays).
    pub fn open(dir: &Path) -> Outbox {
        migrate::migrate(dir);
        Outbox {
            file: Mutex::new(()),
            sync: tokio::sync::Mutex::new(()),
            seen: Mutex::new(HashMap::new()),
            planner_seen: Mutex::new(HashMap::new()),
            made: Mutex::new(HashMap::new()),
        }
    }
}

/// At start: an `outbox.json` that cannot be read is set aside as `outbox.json.damaged-<UTC time>` (the
/// kept changes start empty rather than every offline edit being refused); returns what the user is told.
pub(crate) fn set_aside_if_damaged(dir: &Path) -> Option<String> {
    let p = path(dir);
    let why = match std::fs::read(&p) {
        Ok(bytes) => match serde_json::from_slice::<OutboxFile>(&bytes) {
            Ok(_) => return None,
            Err(_) if bytes.is_empty() => "it is empty".to_string(),
            Err(e) => e.to_string(),
        },
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return None,
        Err(e) => e.to_string(),
    };
    match crate::jsonfile::set_aside(&p) {
        Ok(to) => Some(crate::jsonfile::set_aside_notice("The changes kept on this computer", &p, &to, &why)),
        Err(e) => Some(format!("The changes kept on this computer ({}) cannot be read ({why}) nor set aside ({e}).", p.display())),
    }
}

/// Profiles with kept changes, and how many each has (cards and brand-kit sections).
pub(crate) fn kept_per_profile(dir: &Path) -> Vec<(String, usize)> {
    read(dir)
        .map(|f| {
            f.profiles
                .into_iter()
                .map(|(id, k)| (id, k.cards.len() + k.planner.len() + k.brand_kits.values().map(|b| b.sections.len() + b.archived.len()).sum::<usize>()))
                .filter(|(_, n)| *n > 0)
                .collect()
        })
        .unwrap_or_default()
}

// --- the file

#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
struct OutboxFile {
    #[serde(default)]
    version: u32,
    #[serde(default)]
    profiles: BTreeMap<String, Kept>,
}

/// One profile's kept changes.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub(crate) struct Kept {
    /// Kept card changes, in the order they were first kept.
    #[serde(default)]
    pub(crate) cards: Vec<CardChange>,
    /// Kept planner writes (archive, stages, spaces), in the order they were made.
    #[serde(default)]
    pub(crate) planner: Vec<planner::PlannerChange>,
    /// Local id of a stage or space made offline → its id on the service, once its create was sent.
    #[serde(default)]
    pub(crate) ids: BTreeMap<String, String>,
    /// Kit id → what is kept for that brand kit.
    #[serde(default)]
    pub(crate) brand_kits: BTreeMap<String, KitKept>,
}

impl Kept {
    fn is_empty(&self) -> bool {
        self.cards.is_empty() && self.planner.is_empty() && self.ids.is_empty() && self.brand_kits.is_empty()
    }
}

fn path(dir: &Path) -> PathBuf {
    dir.join(FILE)
}

fn read(dir: &Path) -> IpcResult<OutboxFile> {
    crate::jsonfile::read(&path(dir), "The changes kept on this computer")
}

fn write(dir: &Path, outbox: &OutboxFile) -> IpcResult<()> {
    let mut outbox = outbox.clone();
    outbox.version = VERSION;
    for kept in outbox.profiles.values_mut() {
        kept.brand_kits.retain(|_, k| !k.sections.is_empty() || !k.archived.is_empty());
        // The local ids are needed while a kept change may name one.
        if kept.cards.is_empty() && kept.planner.is_empty() {
            kept.ids.clear();
        }
    }
    outbox.profiles.retain(|_, kept| !kept.is_empty());
    crate::jsonfile::write(&path(dir), &outbox, "the change")
}

/// Runs `f` over one profile's kept changes, under the outbox's one lock, and saves the file when `f`
/// says it changed.
pub(crate) fn with_profile<T>(session: &impl WithOutbox, profile: &str, f: impl FnOnce(&mut Kept) -> (T, bool)) -> IpcResult<T> {
    let _guard = session.outbox().file.lock().unwrap_or_else(|e| e.into_inner());
    let dir = session.data_dir();
    let mut outbox = read(dir)?;
    let kept = outbox.profiles.entry(profile.to_string()).or_default();
    let (out, changed) = f(kept);
    if changed {
        write(dir, &outbox)?;
    }
    Ok(out)
}

/// Unix milliseconds now (when a change was kept).
pub(crate) fn now_ms() -> f64 {
    SystemTime::now().duration_since(UNIX_EPOCH).map(|d| d.as_millis() as f64).unwrap_or(0.0)
}

/// A stage or space made offline was made on the service: `local` is `real` from now on (remembered for
/// this core's life, per profile, for `DraftsStatus.made`).
pub(crate) fn note_made(session: &impl WithOutbox, profile: &str, local: &str, real: &str) {
    let mut made = session.outbox().made.lock().unwrap_or_else(|e| e.into_inner());
    made.entry(profile.to_string()).or_default().insert(local.to_string(), real.to_string());
}

/// The local ids made real while this core runs, for `profile`.
pub(crate) fn made_of(session: &impl WithOutbox, profile: &str) -> BTreeMap<String, String> {
    session.outbox().made.lock().unwrap_or_else(|e| e.into_inner()).get(profile).cloned().unwrap_or_default()
}
