//! The studio's jobs kept on this computer (SQLite, per profile) and the session's caches (quotes, balances, pollers).
use super::*;

pub(crate) fn now_ms() -> i64 {
    std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map(|d| d.as_millis() as i64).unwrap_or(0)
}

/// What the studio needs of the running app: the session, and the studio's own part of it.
pub trait WithStudio: Session {
    fn studio(&self) -> &Studio;
}

/// The studio's part of the running app (kept by the implementer of [`WithStudio`]).
pub struct Studio {
    pub(super) db: Mutex<Connection>,
    pub(super) events: broadcast::Sender<StudioEvent>,
    pub(super) pollers: Mutex<HashMap<String, (u64, CancellationToken)>>,
    pub(super) next_poller: std::sync::atomic::AtomicU64,
    pub(super) models: Mutex<HashMap<(String, ContentType), Vec<ModelInfo>>>,
    pub(super) voices: Mutex<HashMap<String, Vec<Voice>>>,
    pub(super) quotes: Mutex<HashMap<(String, String), f64>>,
    pub(super) balance: Mutex<HashMap<String, f64>>,
    /// Profiles whose key the service refused while polling (a 401): their pollers wait for a key.
    pub(super) paused: Mutex<std::collections::HashSet<String>>,
    /// Stops every poller (the app is closing, or a test stops "the app").
    pub(super) shutdown: CancellationToken,
    /// Render times learned from the account's library, per profile (`learned.rs`).
    pub(super) learned: Learned,
}

pub(super) const SCHEMA: &str = "CREATE TABLE IF NOT EXISTS jobs (
    output_id TEXT PRIMARY KEY,
    profile_id TEXT NOT NULL,
    status TEXT NOT NULL,
    created_at INTEGER NOT NULL,
    job TEXT NOT NULL,
    request TEXT NOT NULL
);
CREATE INDEX IF NOT EXISTS jobs_profile ON jobs (profile_id, created_at);";

/// How many jobs a list returns (newest first).
pub(super) const LIST_LIMIT: usize = 500;

impl Studio {
    /// Opens `studio.db` in `data_dir`. A file that is not a sound SQLite database (truncated, overwritten,
    /// garbage) is set aside as `studio.db.damaged-<UTC time>` and a fresh queue opened; the second value
    /// says so, for the user.
    pub fn open(data_dir: &Path) -> IpcResult<(Studio, Option<String>)> {
        let path = data_dir.join("studio.db");
        let mut notice = None;
        let conn = match open_checked(&path) {
            Ok(c) => c,
            Err(e) if path.exists() => {
                let to = crate::jsonfile::set_aside(&path)
                    .map_err(|e2| IpcError::internal(format!("the render queue {} cannot be read ({e}) nor set aside ({e2})", path.display())))?;
                notice = Some(crate::jsonfile::set_aside_notice("The render queue", &path, &to, &e.to_string()));
                open_checked(&path)
                    .map_err(|e| IpcError::internal(format!("cannot open the render queue {}: {e}", path.display())))?
            }
            Err(e) => return Err(IpcError::internal(format!("cannot open the render queue {}: {e}", path.display()))),
        };
        Ok((Self::with(conn), notice))
    }

    fn with(conn: Connection) -> Studio {
        Studio {
            db: Mutex::new(conn),
            events: broadcast::channel(256).0,
            pollers: Mutex::new(HashMap::new()),
            next_poller: std::sync::atomic::AtomicU64::new(0),
            models: Mutex::new(HashMap::new()),
            voices: Mutex::new(HashMap::new()),
            quotes: Mutex::new(HashMap::new()),
            balance: Mutex::new(HashMap::new()),
            paused: Mutex::new(Default::default()),
            shutdown: CancellationToken::new(),
            learned: Learned::default(),
        }
    }

    pub fn subscribe(&self) -> broadcast::Receiver<StudioEvent> {
        self.events.subscribe()
    }

    pub(super) fn emit(&self, e: StudioEvent) {
        let _ = self.events.send(e);
    }

    pub(super) fn db(&self) -> std::sync::MutexGuard<'_, Connection> {
        self.db.lock().unwrap_or_else(|e| e.into_inner())
    }

    pub(super) fn insert(&self, profile_id: &str, job: &StudioJob, request: &StoredRequest) -> IpcResult<()> {
        let job_json = serde_json::to_string(job).map_err(|e| IpcError::internal(e.to_string()))?;
        let req_json = serde_json::to_string(request).map_err(|e| IpcError::internal(e.to_string()))?;
        self.db()
            .execute(
                "INSERT INTO jobs (output_id, profile_id, status, created_at, job, request) VALUES (?1, ?2, ?3, ?4, ?5, ?6)",
                params![job.output_id, profile_id, job.status.as_str(), job.created_at, job_json, req_json],
            )
            .map_err(db_error)?;
        Ok(())
    }

    /// Writes the job and tells the UI.
    pub(super) fn save(&self, job: &StudioJob) {
        let Ok(json) = serde_json::to_string(job) else { return };
        let written = self.db().execute(
            "UPDATE jobs SET status = ?2, job = ?3 WHERE output_id = ?1",
            params![job.output_id, job.status.as_str(), json],
        );
        if let Err(e) = written {
            tracing::error!(error = %e, "cannot write the render queue");
        }
        self.emit(StudioEvent::Job { job: job.clone() });
    }

    /// Writes a poller's view of a job only while the stored job is still under way (a cancel or another
    /// writer may have ended it meanwhile), or when it completed after a cancel; `false` when not written.
    pub(super) fn save_live(&self, job: &StudioJob) -> bool {
        let Ok(json) = serde_json::to_string(job) else { return false };
        let written = self.db().execute(
            // A render that completed after all is kept even when waiting for it was cancelled: it was paid for.
            "UPDATE jobs SET status = ?2, job = ?3 WHERE output_id = ?1
               AND (status IN ('submitting', 'processing') OR (status = 'cancelled' AND ?2 = 'completed'))",
            params![job.output_id, job.status.as_str(), json],
        );
        match written {
            Ok(n) if n > 0 => {
                self.emit(StudioEvent::Job { job: job.clone() });
                true
            }
            Ok(_) => false,
            Err(e) => {
                tracing::error!(error = %e, "cannot write the render queue");
                false
            }
        }
    }

    pub(super) fn remove(&self, output_id: &str) {
        let _ = self.db().execute("DELETE FROM jobs WHERE output_id = ?1", params![output_id]);
        self.emit(StudioEvent::Removed { output_id: output_id.to_string() });
    }

    pub(super) fn get(&self, output_id: &str) -> Option<(String, StudioJob, StoredRequest)> {
        let row: Option<(String, String, String)> = self
            .db()
            .query_row(
                "SELECT profile_id, job, request FROM jobs WHERE output_id = ?1",
                params![output_id],
                |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?)),
            )
            .optional()
            .ok()
            .flatten();
        let (profile, job, req) = row?;
        Some((profile, serde_json::from_str(&job).ok()?, serde_json::from_str(&req).ok()?))
    }

    pub(super) fn list(&self, profile_id: &str) -> Vec<StudioJob> {
        let db = self.db();
        let Ok(mut stmt) = db.prepare("SELECT job FROM jobs WHERE profile_id = ?1 ORDER BY created_at DESC LIMIT ?2") else {
            return Vec::new();
        };
        let rows = stmt.query_map(params![profile_id, LIST_LIMIT as i64], |r| r.get::<_, String>(0));
        rows.map(|it| it.flatten().filter_map(|s| serde_json::from_str(&s).ok()).collect()).unwrap_or_default()
    }

    /// How many jobs each profile has in the queue (all states).
    pub(crate) fn jobs_per_profile(&self) -> Vec<(String, usize)> {
        let db = self.db();
        let Ok(mut stmt) = db.prepare("SELECT profile_id, COUNT(*) FROM jobs GROUP BY profile_id") else {
            return Vec::new();
        };
        stmt.query_map([], |r| Ok((r.get::<_, String>(0)?, r.get::<_, i64>(1)? as usize)))
            .map(|it| it.flatten().collect())
            .unwrap_or_default()
    }

    /// Jobs still under way, of every profile.
    pub(super) fn unfinished(&self) -> Vec<(String, String)> {
        let db = self.db();
        let Ok(mut stmt) = db.prepare("SELECT output_id, profile_id FROM jobs WHERE status IN ('submitting', 'processing')") else {
            return Vec::new();
        };
        stmt.query_map([], |r| Ok((r.get(0)?, r.get(1)?))).map(|it| it.flatten().collect()).unwrap_or_default()
    }

    /// How long this model's renders took here lately: the shortest of the last five completed ones, each
    /// counted to the last moment it was seen still rendering (a lower bound: it finished after that),
    /// so that waiting for it never overshoots a completion.
    pub(super) fn typical_duration(&self, profile_id: &str, model_id: &str) -> Option<Duration> {
        let db = self.db();
        let mut stmt = db
            .prepare("SELECT job FROM jobs WHERE profile_id = ?1 AND status = 'completed' ORDER BY created_at DESC LIMIT 50")
            .ok()?;
        let rows = stmt.query_map(params![profile_id], |r| r.get::<_, String>(0)).ok()?;
        rows.flatten()
            .filter_map(|j| serde_json::from_str::<StudioJob>(&j).ok())
            .filter(|j| j.model_id == model_id && !j.idempotent_replay)
            .filter_map(|j| j.last_running_at.or(j.completed_at).map(|c| c - j.created_at).filter(|ms| *ms > 0))
            .take(5)
            .min()
            .map(|ms| Duration::from_millis(ms as u64))
    }

    pub(super) fn cached_balance(&self, profile_id: &str) -> Option<f64> {
        self.balance.lock().unwrap_or_else(|e| e.into_inner()).get(profile_id).copied()
    }

    /// Keeps the balance and tells the UI: always after a charge or a refund (`news`), otherwise only when
    /// it changed from what was known (a quote's first read is no news, and an event makes the UI price
    /// its form again).
    pub(super) fn set_balance(&self, profile_id: &str, b: f64, news: bool) {
        let before = self.balance.lock().unwrap_or_else(|e| e.into_inner()).insert(profile_id.to_string(), b);
        if news || before.is_some_and(|old| old != b) {
            self.emit(StudioEvent::Balance { balance: b });
        }
    }

    /// Whether a poller is running for this render (a stopped one is gone from the table at once, its
    /// token cancelled, so it reads nothing more).
    pub fn is_polling(&self, output_id: &str) -> bool {
        self.pollers.lock().unwrap_or_else(|e| e.into_inner()).get(output_id).is_some_and(|(_, t)| !t.is_cancelled())
    }

    /// Stops every poller; the jobs stay in the file and resume on the next start.
    pub fn shutdown(&self) {
        self.shutdown.cancel();
    }
}

/// Opens a SQLite file and checks it is sound (`quick_check`) before anything is written to it.
pub(crate) fn open_checked(path: &Path) -> rusqlite::Result<Connection> {
    let c = Connection::open(path)?;
    let check: String = c.query_row("PRAGMA quick_check", [], |r| r.get(0))?;
    if check != "ok" {
        return Err(rusqlite::Error::SqliteFailure(
            rusqlite::ffi::Error::new(rusqlite::ffi::SQLITE_CORRUPT),
            Some(format!("the database is damaged: {check}")),
        ));
    }
    c.execute_batch("PRAGMA journal_mode = WAL; PRAGMA synchronous = NORMAL;")?;
    c.execute_batch(SCHEMA)?;
    Ok(c)
}

pub(super) fn db_error(e: rusqlite::Error) -> IpcError {
    IpcError::internal(format!("the render queue could not be written: {e}"))
}
