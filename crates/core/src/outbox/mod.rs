//! The outbox: every change kept on this computer, in one store, per profile. A kept change is a write
//! the service did not take (no answer, or a conflict) that waits here until it is sent or the user
//! settles it:
//! - the queue (`changes`): one kind of kept change ([`Change`], `change.rs`) for every planner write:
//!   a card's edit or move (merged per card), its archive or restore, a stage or space made, renamed,
//!   recoloured, moved, archived or deleted, each with the base it was made on; kept in order
//!   (`keep.rs`), sent in that order when the service answers (`queue.rs`, over `send_card.rs` and
//!   `send_op.rs`), and settled by the user with one command (`drafts_resolve`); the real ids of what was
//!   made offline (`ids`);
//! - a brand-kit section's (`sections.rs`): the text of a refused save (409, or no answer), kept until the
//!   user takes theirs, keeps mine or merges; and the sections archived from this computer (the service
//!   lists no archived sections, and restoring needs the id).
//!
//! One file, `outbox.json` in the data folder, written atomically through `crate::jsonfile`, with one lock:
//! `{ "version": 4, "profiles": { "<profile id>": { "changes": [Change, ...],
//! "ids": { "<local id>": "<real id>" },
//! "brandKits": { "<kit id>": { "sections": [SectionDraft, ...], "archived": [ArchivedSection, ...] } } } } }`.
//! It holds card and section content only, never a key. The files of earlier versions (`drafts.json`,
//! `brand_kit.json`; `outbox.json` 2 and 3 with their two lists `cards` and `planner`) are read into it
//! when the outbox is opened (`migrate.rs`).
//!
//! What the outbox keeps in memory for one running core (its locks, what was last read of each card,
//! stage and space: `seen.rs`) is an [`Outbox`], owned by the running app and reached through
//! [`WithOutbox`]: never process-global.
use serde::{Deserialize, Serialize};
use std::collections::{BTreeMap, HashMap};
use std::path::{Path, PathBuf};
use std::sync::Mutex;
use std::time::{SystemTime, UNIX_EPOCH};

use crate::error::IpcResult;
use crate::session::Session;

mod change;
mod keep;
mod migrate;
mod queue;
mod sections;
mod seen;
mod send_card;
mod send_op;
pub use change::{is_local, KeptChange, KeptKind, StageBase, LOCAL_PREFIX};
pub(crate) use change::{new_local_id, Change, Conflict, Op};
pub use keep::queued_error;
pub(crate) use keep::{has_kept_change, is_unanswered, keep, keep_op, must_keep};
pub use queue::{drafts_resolve, drafts_status, drafts_sync, spawn_sync_loop, DraftAction, DraftsResolveArgs, DraftsStatus};
pub(crate) use queue::keep_and_send;
pub use sections::*;
pub(crate) use seen::{saw_board_card, saw_card, saw_spaces, saw_stages, saw_summary, seen_base, Base};
pub(crate) use send_op::{answer_lost, same_spaces, same_stages};

const FILE: &str = "outbox.json";
/// The file's format: 4 since the kept changes are one queue (`changes`); 3 had card changes (`cards`)
/// and planner writes (`planner`) apart; 2 since the two stores became one (1 was `drafts.json` and
/// `brand_kit.json`).
const VERSION: u32 = 4;

/// How the user settles a kept change that the service's copy moved past (the same choice for a kept
/// change and a brand-kit section; the wire keeps each command's own words).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Resolution {
    /// Drop the kept change; what the service has stays (`drafts_resolve`'s `discardMine`, a section's
    /// `brand_kit_draft_discard`).
    TakeTheirs,
    /// Send the kept change over what the service has now (`sendMine`; a section: saved again
    /// with `expectedVersion` = theirs). Merging is this too: the user's merged text is what is sent.
    KeepMine,
}

/// What the outbox needs of the running app: the session, and the outbox's memory, which the running app
/// keeps (never process-global) and hands out here.
pub trait WithOutbox: Session {
    fn outbox(&self) -> &Outbox;
}

/// What the outbox holds in memory for one running core: its locks, and what the core last read of each
/// card, stage and space, per profile.
pub struct Outbox {
    /// Read-modify-write of the outbox file, one at a time (cards and sections alike).
    file: Mutex<()>,
    /// One sync at a time (the background task and "Send now" never send a change twice).
    sync: tokio::sync::Mutex<()>,
    /// Profile id → card, stage or space id → how it was last read: the base of an offline change.
    seen: Mutex<HashMap<String, HashMap<String, Base>>>,
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

/// Profiles with kept changes, and how many each has (the queue's and brand-kit sections).
pub(crate) fn kept_per_profile(dir: &Path) -> Vec<(String, usize)> {
    read(dir)
        .map(|f| {
            f.profiles
                .into_iter()
                .map(|(id, k)| (id, k.changes.len() + k.brand_kits.values().map(|b| b.sections.len() + b.archived.len()).sum::<usize>()))
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
    /// The queue: every kept change, in the order it was kept (and is sent).
    #[serde(default)]
    pub(crate) changes: Vec<Change>,
    /// Versions 2 and 3: the kept card changes, apart (read into `changes`, never written).
    #[serde(default, skip_serializing)]
    cards: Vec<migrate::OldCardChange>,
    /// Version 3: the kept planner writes, apart (read into `changes`, never written).
    #[serde(default, skip_serializing)]
    planner: Vec<Change>,
    /// Local id of a stage or space made offline → its id on the service, once its create was sent.
    #[serde(default)]
    pub(crate) ids: BTreeMap<String, String>,
    /// Kit id → what is kept for that brand kit.
    #[serde(default)]
    pub(crate) brand_kits: BTreeMap<String, KitKept>,
}

impl Kept {
    fn is_empty(&self) -> bool {
        self.changes.is_empty() && self.ids.is_empty() && self.brand_kits.is_empty()
    }
}

fn path(dir: &Path) -> PathBuf {
    dir.join(FILE)
}

fn read(dir: &Path) -> IpcResult<OutboxFile> {
    let mut outbox: OutboxFile = crate::jsonfile::read(&path(dir), "The changes kept on this computer")?;
    for kept in outbox.profiles.values_mut() {
        migrate::into_queue(kept);
    }
    Ok(outbox)
}

fn write(dir: &Path, outbox: &OutboxFile) -> IpcResult<()> {
    let mut outbox = outbox.clone();
    outbox.version = VERSION;
    for kept in outbox.profiles.values_mut() {
        kept.brand_kits.retain(|_, k| !k.sections.is_empty() || !k.archived.is_empty());
        // The local ids are needed while a kept change may name one.
        if kept.changes.is_empty() {
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
