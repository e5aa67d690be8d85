//! The studio: the live model registry and voices (cached per session), price quotes (`getCost: true`,
//! cached per identical form), generation with a client-minted `outputId`, and the render queue.
//!
//! The queue is a SQLite file (`studio.db` in the data folder). A job is written *before* its generate
//! request goes out, with the exact request (its `outputId` included), so a window closed mid-request
//! or a lost connection ends in the same place: on the next start (or the next retry) the same bytes go
//! out again and the service answers with the existing job (`idempotentReplay`), never a second charge.
//! Polling runs here, one task per job, at the server's `pollAfterSeconds` when it gives one and
//! otherwise from a per-kind first interval growing ×1.5 to a cap; every change is broadcast as a
//! [`StudioEvent`] (Tauri events in the desktop window, server-sent events in web-shell).
use api_client::wait::{default_interval, next_interval};
use api_client::{ApiError, CancellationToken, Client};
use api_types::{
    BoardRequest, ContentType, CostEstimate, GenerateRequest, GenerateResult, Generation, GenerationStatus,
    ModelInfo, References, Voice,
};
use rusqlite::{params, Connection, OptionalExtension};
use serde::{Deserialize, Serialize};
use std::collections::HashMap;
use std::path::Path;
use std::sync::Mutex;
use std::time::Duration;
use tokio::sync::broadcast;
use ts_rs::TS;

use crate::error::{IpcCode, IpcError, IpcResult};
use crate::state::AppState;

// ---------------------------------------------------------------------------------------------------
// Types of the contract (docs/ipc.md)
// ---------------------------------------------------------------------------------------------------

/// What the studio makes. Lip-sync is a video generation with a lip-sync model; a board is the
/// reference-board pipeline, not a registry model.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize, TS)]
#[serde(rename_all = "kebab-case")]
pub enum StudioMedia {
    Image,
    Video,
    Audio,
    Board,
    LipSync,
}

impl StudioMedia {
    pub fn content_type(self) -> ContentType {
        match self {
            StudioMedia::Image | StudioMedia::Board => ContentType::Image,
            StudioMedia::Video | StudioMedia::LipSync => ContentType::Video,
            StudioMedia::Audio => ContentType::Audio,
        }
    }
}

/// The studio form as the UI holds it. Empty strings count as absent.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct StudioForm {
    pub media: StudioMedia,
    /// Required except for boards.
    #[serde(default)]
    #[ts(optional)]
    pub model_id: Option<String>,
    #[serde(default)]
    #[ts(optional)]
    pub prompt: Option<String>,
    #[serde(default)]
    #[ts(optional)]
    pub aspect_ratio: Option<String>,
    #[serde(default)]
    #[ts(optional)]
    pub resolution: Option<String>,
    /// `numImages` for images and boards, `numGenerations` for video.
    #[serde(default)]
    #[ts(optional)]
    pub num_outputs: Option<u32>,
    /// Video clip length, seconds.
    #[serde(default)]
    #[ts(optional)]
    pub duration: Option<f64>,
    #[serde(default)]
    #[ts(optional)]
    pub negative_prompt: Option<String>,
    #[serde(default)]
    #[ts(optional)]
    pub references: Option<References>,
    /// Speech words or the lip-sync script.
    #[serde(default)]
    #[ts(optional)]
    pub text: Option<String>,
    #[serde(default)]
    #[ts(optional)]
    pub voice_id: Option<String>,
    /// Music / sound-effect length, or the lip-sync audio length.
    #[serde(default)]
    #[ts(optional)]
    pub duration_seconds: Option<f64>,
    /// Boards only: `character | pose | mascot | ...`.
    #[serde(default)]
    #[ts(optional)]
    pub board_type: Option<String>,
    #[serde(default)]
    #[ts(optional)]
    pub board_name: Option<String>,
}

#[derive(Debug, Clone, Deserialize, Serialize, TS)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct ModelsListArgs {
    pub content_type: ContentType,
    /// Ask the registry again instead of this session's copy.
    #[serde(default)]
    #[ts(optional)]
    pub refresh: Option<bool>,
}

#[derive(Debug, Clone, Deserialize, Serialize, TS)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct StudioQuoteArgs {
    pub form: StudioForm,
}

/// The price of a form, and what the balance would be after it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct StudioQuote {
    pub credits: f64,
    pub balance: f64,
    pub balance_after: f64,
    /// `false`: the price exceeds the balance; `reason` says by how much.
    pub affordable: bool,
    pub reason: Option<String>,
    /// Answered from this session's copy of an identical form's quote.
    pub cached: bool,
}

#[derive(Debug, Clone, Deserialize, Serialize, TS)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct StudioGenerateArgs {
    pub form: StudioForm,
    /// A UUID minted by the UI once per click; a retry of that click sends the same one.
    pub output_id: String,
}

#[derive(Debug, Clone, Deserialize, Serialize, TS)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct StudioJobArgs {
    pub output_id: String,
}

#[derive(Debug, Clone, Deserialize, Serialize, TS)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct CardAttachOutputArgs {
    pub card_id: String,
    /// An output token: `<uuid>` or `<uuid>-<N>` (N from 1).
    pub token: String,
}

/// Where a job is. `submitting`: written here, its request not answered yet (it is sent again with the
/// same `outputId` until it is); `cancelled`: this app stopped waiting (the render may still finish);
/// `abandoned`: the service dropped the render without failing it (newest era, e.g. a duplicate).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(rename_all = "lowercase")]
pub enum JobStatus {
    Submitting,
    Processing,
    Completed,
    Failed,
    Cancelled,
    Abandoned,
}

impl JobStatus {
    pub fn is_terminal(self) -> bool {
        matches!(self, JobStatus::Completed | JobStatus::Failed | JobStatus::Cancelled | JobStatus::Abandoned)
    }
    fn as_str(self) -> &'static str {
        match self {
            JobStatus::Submitting => "submitting",
            JobStatus::Processing => "processing",
            JobStatus::Completed => "completed",
            JobStatus::Failed => "failed",
            JobStatus::Cancelled => "cancelled",
            JobStatus::Abandoned => "abandoned",
        }
    }
}

impl JobStatus {
    /// The job's status from the service's: a status this build does not know is still rendering (polled
    /// on until the service says more).
    fn from_service(s: &api_types::Open<GenerationStatus>) -> Self {
        match s.get() {
            Some(GenerationStatus::Completed) => JobStatus::Completed,
            Some(GenerationStatus::Failed) => JobStatus::Failed,
            Some(GenerationStatus::Abandoned) => JobStatus::Abandoned,
            Some(GenerationStatus::Pending | GenerationStatus::Processing) | None => JobStatus::Processing,
        }
    }

    /// A status read: `completed` counts only once settled (`settled` is not `false`).
    fn of(g: &Generation) -> Self {
        if g.status == GenerationStatus::Completed && !g.is_done() {
            JobStatus::Processing
        } else {
            JobStatus::from_service(&g.status)
        }
    }
}

/// A render in the queue (and, once completed, in the gallery).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct StudioJob {
    pub output_id: String,
    pub form: StudioForm,
    pub model_id: String,
    pub content_type: ContentType,
    pub status: JobStatus,
    /// Why it failed, or what is wrong right now while it keeps trying (lost connection).
    pub error: Option<String>,
    pub credits: Option<f64>,
    /// One per output; the output token of the N-th is `<outputId>-<N>`.
    pub output_urls: Vec<String>,
    /// The service had this `outputId` already: the existing job, nothing charged again.
    pub idempotent_replay: bool,
    /// Status reads so far.
    pub polls: u32,
    /// Epoch ms.
    pub created_at: i64,
    pub updated_at: i64,
    pub completed_at: Option<i64>,
    /// When the next status read is due (epoch ms), while waiting.
    pub next_poll_at: Option<i64>,
    /// Taken off the queue list ("clear finished"); still in the gallery.
    pub cleared: bool,
    /// The last time (epoch ms) the service said it was still rendering: the render finished after it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub last_running_at: Option<i64>,
}

/// What the studio tells the UI as it happens.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
#[serde(tag = "type", rename_all = "camelCase")]
pub enum StudioEvent {
    /// A job was added or changed.
    Job { job: StudioJob },
    /// A job was taken away (its request was refused: nothing was charged).
    Removed {
        #[serde(rename = "outputId")]
        output_id: String,
    },
    /// The balance after a charge or a refund.
    Balance { balance: f64 },
}

/// The Tauri event name the desktop shell emits every [`StudioEvent`] under.
pub const EVENT_NAME: &str = "studio://event";

// ---------------------------------------------------------------------------------------------------
// The form → the wire request, checked before anything is sent
// ---------------------------------------------------------------------------------------------------

/// The request actually sent; stored with the job so a resend is byte-for-byte the same.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "endpoint", content = "body", rename_all = "camelCase")]
pub enum StoredRequest {
    Generate(GenerateRequest),
    Board(BoardRequest),
}

fn clean(v: &Option<String>) -> Option<String> {
    v.as_ref().map(|s| s.trim().to_string()).filter(|s| !s.is_empty())
}

/// `true` for `<uuid>`, `<uuid>-<N>` (N ≥ 1) and the 8-character short forms (facts 3.1): the uuid's first
/// 8 characters or the newest era's `shortId` (letters and digits), each optionally `-<N>`. The cases are
/// `crates/api-types/fixtures/output-tokens.json`, shared with the UI's check.
pub fn is_output_token(s: &str) -> bool {
    let hex = |p: &str, n: usize| p.len() == n && p.bytes().all(|b| b.is_ascii_hexdigit());
    let short = |p: &str| p.len() == 8 && p.bytes().all(|b| b.is_ascii_alphanumeric());
    let variation = |p: &str| !p.starts_with('+') && p.parse::<u32>().is_ok_and(|n| n >= 1);
    let parts: Vec<&str> = s.split('-').collect();
    match parts.len() {
        1 => short(parts[0]),
        2 => short(parts[0]) && variation(parts[1]),
        5 | 6 => {
            let uuid = hex(parts[0], 8) && hex(parts[1], 4) && hex(parts[2], 4) && hex(parts[3], 4) && hex(parts[4], 12);
            uuid && (parts.len() == 5 || variation(parts[5]))
        }
        _ => false,
    }
}

/// A reference is an http(s) URL or an output token.
fn check_reference(field: &str, v: &str) -> IpcResult<String> {
    let v = v.trim();
    if is_output_token(v) {
        return Ok(v.to_string());
    }
    match url::Url::parse(v) {
        Ok(u) if (u.scheme() == "https" || u.scheme() == "http") && u.host_str().is_some() => Ok(v.to_string()),
        _ => Err(IpcError::validation(
            field,
            format!("“{v}” is neither a web address (https://…) nor an output token (<uuid>-<N>, e.g. from the gallery's “Copy token”)."),
        )),
    }
}

fn check_references(r: &Option<References>) -> IpcResult<Option<References>> {
    let Some(r) = r else { return Ok(None) };
    let list = |field: &str, vs: &[String]| -> IpcResult<Vec<String>> {
        vs.iter().filter(|v| !v.trim().is_empty()).map(|v| check_reference(field, v)).collect()
    };
    let one = |field: &str, v: &Option<String>| -> IpcResult<Option<String>> {
        clean(v).map(|v| check_reference(field, &v)).transpose()
    };
    let out = References {
        images: list("references.images", &r.images)?,
        videos: list("references.videos", &r.videos)?,
        audio: list("references.audio", &r.audio)?,
        start_frame: one("references.startFrame", &r.start_frame)?,
        end_frame: one("references.endFrame", &r.end_frame)?,
        ..Default::default()
    };
    Ok((!out.is_empty()).then_some(out))
}

/// The wire request for a form, with everything checked that can be without asking the service.
pub fn request_for(form: &StudioForm) -> IpcResult<StoredRequest> {
    if let Some(n) = form.num_outputs {
        if !(1..=4).contains(&n) {
            return Err(IpcError::validation("numOutputs", "Ask for 1 to 4 outputs."));
        }
    }
    for (field, v) in [("duration", form.duration), ("durationSeconds", form.duration_seconds)] {
        if v.is_some_and(|d| !d.is_finite() || d <= 0.0) {
            return Err(IpcError::validation(field, "A length is a number of seconds above 0."));
        }
    }
    let references = check_references(&form.references)?;
    if form.media == StudioMedia::Board {
        let board_type = clean(&form.board_type)
            .ok_or_else(|| IpcError::validation("boardType", "Choose what the board shows (character, pose, location, …)."))?;
        if !api_types::BOARD_TYPES.contains(&board_type.as_str()) {
            return Err(IpcError {
                valid_values: api_types::BOARD_TYPES.iter().map(|s| s.to_string()).collect(),
                ..IpcError::validation("boardType", format!("“{board_type}” is not a board type."))
            });
        }
        let images = references.map(|r| r.images).unwrap_or_default();
        let prompt = clean(&form.prompt);
        if prompt.is_none() && images.is_empty() {
            return Err(IpcError::validation("prompt", "Describe the board, or give it reference images."));
        }
        return Ok(StoredRequest::Board(BoardRequest {
            board_type,
            prompt,
            reference_images: images,
            num_images: form.num_outputs,
            board_name: clean(&form.board_name),
            output_id: None,
            get_cost: None,
            ..Default::default()
        }));
    }
    let model_id = clean(&form.model_id).ok_or_else(|| IpcError::validation("modelId", "Choose a model."))?;
    let (num_images, num_generations) = match form.media {
        StudioMedia::Image => (form.num_outputs, None),
        StudioMedia::Video => (None, form.num_outputs),
        _ => (None, None),
    };
    Ok(StoredRequest::Generate(GenerateRequest {
        model_id,
        content_type: Some(form.media.content_type()),
        prompt: clean(&form.prompt),
        aspect_ratio: clean(&form.aspect_ratio),
        resolution: clean(&form.resolution),
        num_images,
        num_generations,
        duration: form.duration,
        negative_prompt: clean(&form.negative_prompt),
        references,
        text: clean(&form.text),
        voice_id: clean(&form.voice_id),
        duration_seconds: form.duration_seconds,
        ..Default::default()
    }))
}

impl StoredRequest {
    fn with_output_id(self, id: &str) -> StoredRequest {
        match self {
            StoredRequest::Generate(r) => StoredRequest::Generate(GenerateRequest { output_id: Some(id.into()), ..r }),
            StoredRequest::Board(r) => StoredRequest::Board(BoardRequest { output_id: Some(id.into()), ..r }),
        }
    }
    fn model_id(&self) -> String {
        match self {
            StoredRequest::Generate(r) => r.model_id.clone(),
            StoredRequest::Board(r) => format!("reference-board:{}", r.board_type),
        }
    }
    async fn quote(&self, client: &Client) -> Result<CostEstimate, ApiError> {
        match self {
            StoredRequest::Generate(r) => client.studio().quote(r).await,
            StoredRequest::Board(r) => client.studio().quote_board(r).await,
        }
    }
    async fn send(&self, client: &Client) -> Result<GenerateResult, ApiError> {
        match self {
            StoredRequest::Generate(r) => client.studio().generate(r).await,
            StoredRequest::Board(r) => client.studio().board(r).await,
        }
    }
}

// ---------------------------------------------------------------------------------------------------
// Poll cadence
// ---------------------------------------------------------------------------------------------------

/// The shortest wait between two reads, whatever the server hints.
pub const MIN_POLL: Duration = Duration::from_millis(250);
/// The longest a server hint is followed for; own intervals stop growing at [`OWN_CAP`].
pub const MAX_HINT: Duration = Duration::from_secs(30);
pub const OWN_CAP: Duration = Duration::from_secs(15);

/// The wait before the next read, in order of what is known:
/// 1. the server's `pollAfterSeconds` (clamped to [`MIN_POLL`, `MAX_HINT`]);
/// 2. with no hint, how long this model's renders took here before (`typical`, the shortest of the last
///    few): wait until then (at most [`MAX_HINT`] at a time), then look every [`AFTER_TYPICAL`] growing;
/// 3. else this app's own interval: the kind's default, growing ×1.5 to [`OWN_CAP`].
#[derive(Debug, Default, Clone)]
pub struct Cadence {
    own: Option<Duration>,
    past_typical: bool,
}

/// The first interval once a render has run past its model's typical time.
pub const AFTER_TYPICAL: Duration = Duration::from_secs(2);

impl Cadence {
    pub fn next(&mut self, hint: Option<f64>, first: Duration) -> Duration {
        self.next_known(hint, first, Duration::ZERO, None)
    }

    /// `elapsed`: since the job was made; `typical`: how long this model's renders took before.
    pub fn next_known(&mut self, hint: Option<f64>, first: Duration, elapsed: Duration, typical: Option<Duration>) -> Duration {
        if let Some(h) = hint.filter(|h| h.is_finite() && *h > 0.0) {
            return Duration::from_secs_f64(h).clamp(MIN_POLL, MAX_HINT);
        }
        let mut first = first;
        if let Some(t) = typical {
            if elapsed + MIN_POLL < t {
                return (t - elapsed).clamp(MIN_POLL, MAX_HINT);
            }
            if !self.past_typical {
                self.past_typical = true;
                self.own = None;
            }
            first = AFTER_TYPICAL;
        }
        let d = match self.own {
            None => first.min(OWN_CAP),
            Some(d) => next_interval(d, OWN_CAP),
        };
        self.own = Some(d);
        d
    }
}

fn first_interval(job: &StudioJob) -> Duration {
    let g = Generation {
        output_id: job.output_id.clone(),
        status: GenerationStatus::Processing.into(),
        content_type: Some(job.content_type.into()),
        model_id: Some(job.model_id.clone()),
        output_urls: Vec::new(),
        error: None,
        created_at: None,
        completed_at: None,
        settled: None,
        poll_after_seconds: None,
        credits_charged: None,
        outputs: Vec::new(),
        charge: None,
    };
    default_interval(&g)
}

// ---------------------------------------------------------------------------------------------------
// The store and the session caches
// ---------------------------------------------------------------------------------------------------

pub(crate) fn now_ms() -> i64 {
    std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map(|d| d.as_millis() as i64).unwrap_or(0)
}

/// The studio's part of `AppState`.
pub struct Studio {
    db: Mutex<Connection>,
    events: broadcast::Sender<StudioEvent>,
    pollers: Mutex<HashMap<String, (u64, CancellationToken)>>,
    next_poller: std::sync::atomic::AtomicU64,
    models: Mutex<HashMap<(String, ContentType), Vec<ModelInfo>>>,
    voices: Mutex<HashMap<String, Vec<Voice>>>,
    quotes: Mutex<HashMap<(String, String), f64>>,
    balance: Mutex<HashMap<String, f64>>,
    /// Stops every poller (the app is closing, or a test stops "the app").
    shutdown: CancellationToken,
}

const SCHEMA: &str = "CREATE TABLE IF NOT EXISTS jobs (
    output_id TEXT PRIMARY KEY,
    profile_id TEXT NOT NULL,
    status TEXT NOT NULL,
    created_at INTEGER NOT NULL,
    job TEXT NOT NULL,
    request TEXT NOT NULL
);
CREATE INDEX IF NOT EXISTS jobs_profile ON jobs (profile_id, created_at);";

/// How many jobs a list returns (newest first).
const LIST_LIMIT: usize = 500;

impl Studio {
    pub fn open(data_dir: &Path) -> IpcResult<Studio> {
        let path = data_dir.join("studio.db");
        let conn = Connection::open(&path)
            .and_then(|c| {
                c.execute_batch("PRAGMA journal_mode = WAL; PRAGMA synchronous = NORMAL;")?;
                c.execute_batch(SCHEMA)?;
                Ok(c)
            })
            .map_err(|e| IpcError::internal(format!("cannot open the render queue {}: {e}", path.display())))?;
        Ok(Studio {
            db: Mutex::new(conn),
            events: broadcast::channel(256).0,
            pollers: Mutex::new(HashMap::new()),
            next_poller: std::sync::atomic::AtomicU64::new(0),
            models: Mutex::new(HashMap::new()),
            voices: Mutex::new(HashMap::new()),
            quotes: Mutex::new(HashMap::new()),
            balance: Mutex::new(HashMap::new()),
            shutdown: CancellationToken::new(),
        })
    }

    pub fn subscribe(&self) -> broadcast::Receiver<StudioEvent> {
        self.events.subscribe()
    }

    fn emit(&self, e: StudioEvent) {
        let _ = self.events.send(e);
    }

    fn db(&self) -> std::sync::MutexGuard<'_, Connection> {
        self.db.lock().unwrap_or_else(|e| e.into_inner())
    }

    fn insert(&self, profile_id: &str, job: &StudioJob, request: &StoredRequest) -> IpcResult<()> {
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
    fn save(&self, job: &StudioJob) {
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
    fn save_live(&self, job: &StudioJob) -> bool {
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

    fn remove(&self, output_id: &str) {
        let _ = self.db().execute("DELETE FROM jobs WHERE output_id = ?1", params![output_id]);
        self.emit(StudioEvent::Removed { output_id: output_id.to_string() });
    }

    fn get(&self, output_id: &str) -> Option<(String, StudioJob, StoredRequest)> {
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

    fn list(&self, profile_id: &str) -> Vec<StudioJob> {
        let db = self.db();
        let Ok(mut stmt) = db.prepare("SELECT job FROM jobs WHERE profile_id = ?1 ORDER BY created_at DESC LIMIT ?2") else {
            return Vec::new();
        };
        let rows = stmt.query_map(params![profile_id, LIST_LIMIT as i64], |r| r.get::<_, String>(0));
        rows.map(|it| it.flatten().filter_map(|s| serde_json::from_str(&s).ok()).collect()).unwrap_or_default()
    }

    /// Jobs still under way, of every profile.
    fn unfinished(&self) -> Vec<(String, String)> {
        let db = self.db();
        let Ok(mut stmt) = db.prepare("SELECT output_id, profile_id FROM jobs WHERE status IN ('submitting', 'processing')") else {
            return Vec::new();
        };
        stmt.query_map([], |r| Ok((r.get(0)?, r.get(1)?))).map(|it| it.flatten().collect()).unwrap_or_default()
    }

    /// How long this model's renders took here lately: the shortest of the last five completed ones, each
    /// counted to the last moment it was seen still rendering (a lower bound: it finished after that),
    /// so that waiting for it never overshoots a completion.
    fn typical_duration(&self, profile_id: &str, model_id: &str) -> Option<Duration> {
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

    fn cached_balance(&self, profile_id: &str) -> Option<f64> {
        self.balance.lock().unwrap_or_else(|e| e.into_inner()).get(profile_id).copied()
    }

    /// Keeps the balance and tells the UI: always after a charge or a refund (`news`), otherwise only when
    /// it changed from what was known (a quote's first read is no news, and an event makes the UI price
    /// its form again).
    fn set_balance(&self, profile_id: &str, b: f64, news: bool) {
        let before = self.balance.lock().unwrap_or_else(|e| e.into_inner()).insert(profile_id.to_string(), b);
        if news || before.is_some_and(|old| old != b) {
            self.emit(StudioEvent::Balance { balance: b });
        }
    }

    /// Stops every poller; the jobs stay in the file and resume on the next start.
    pub fn shutdown(&self) {
        self.shutdown.cancel();
    }
}

fn db_error(e: rusqlite::Error) -> IpcError {
    IpcError::internal(format!("the render queue could not be written: {e}"))
}

// ---------------------------------------------------------------------------------------------------
// Commands
// ---------------------------------------------------------------------------------------------------

fn profile_id(state: &AppState) -> IpcResult<String> {
    state
        .selected_id()
        .ok_or_else(|| IpcError::new(IpcCode::NoProfile, "No profile is selected: add or pick one in Settings."))
}

/// The live registry's models of one content type, asked once per session (and profile).
pub async fn models_list(state: &AppState, args: ModelsListArgs) -> IpcResult<Vec<ModelInfo>> {
    let profile = profile_id(state)?;
    let key = (profile, args.content_type);
    if args.refresh != Some(true) {
        if let Some(m) = state.studio().models.lock().unwrap_or_else(|e| e.into_inner()).get(&key) {
            return Ok(m.clone());
        }
    }
    let models = state.client().await?.models().list(Some(args.content_type)).await?;
    state.studio().models.lock().unwrap_or_else(|e| e.into_inner()).insert(key, models.clone());
    Ok(models)
}

/// The voices for speech and lip-sync, asked once per session (and profile).
pub async fn voices_list(state: &AppState) -> IpcResult<Vec<Voice>> {
    let profile = profile_id(state)?;
    if let Some(v) = state.studio().voices.lock().unwrap_or_else(|e| e.into_inner()).get(&profile) {
        return Ok(v.clone());
    }
    let voices = state.client().await?.voices().list().await?;
    state.studio().voices.lock().unwrap_or_else(|e| e.into_inner()).insert(profile, voices.clone());
    Ok(voices)
}

async fn balance_of(state: &AppState, client: &Client, profile: &str) -> IpcResult<f64> {
    if let Some(b) = state.studio().cached_balance(profile) {
        return Ok(b);
    }
    let b = client.account().balance().await?.balance;
    state.studio().set_balance(profile, b, false);
    Ok(b)
}

/// Fetches the balance again (after a charge or a refund) and tells the UI.
async fn refresh_balance(state: &AppState, client: &Client, profile: &str) {
    match client.account().balance().await {
        Ok(b) => state.studio().set_balance(profile, b.balance, true),
        Err(e) => tracing::info!(error = %e, "balance not refreshed"),
    }
}

/// The price of a form (`getCost: true`: nothing runs, nothing is charged), answered from this
/// session's copy when an identical form was priced already, with the balance after it.
pub async fn studio_quote(state: &AppState, args: StudioQuoteArgs) -> IpcResult<StudioQuote> {
    let profile = profile_id(state)?;
    let request = request_for(&args.form)?;
    let form_key = serde_json::to_string(&request).map_err(|e| IpcError::internal(e.to_string()))?;
    let key = (profile.clone(), form_key);
    let client = state.client().await?;
    let known = state.studio().quotes.lock().unwrap_or_else(|e| e.into_inner()).get(&key).copied();
    let (credits, cached) = match known {
        Some(c) => (c, true),
        None => {
            let c = request.quote(&client).await?.credits_estimate;
            state.studio().quotes.lock().unwrap_or_else(|e| e.into_inner()).insert(key, c);
            (c, false)
        }
    };
    let balance = balance_of(state, &client, &profile).await?;
    Ok(quote_view(credits, balance, cached))
}

pub fn quote_view(credits: f64, balance: f64, cached: bool) -> StudioQuote {
    let affordable = credits <= balance;
    StudioQuote {
        credits,
        balance,
        balance_after: balance - credits,
        affordable,
        reason: (!affordable).then(|| {
            format!(
                "This costs {} credits and the balance is {}: {} more are needed. Top up, or choose fewer outputs, a shorter length or a cheaper model.",
                fmt_num(credits),
                fmt_num(balance),
                fmt_num(credits - balance)
            )
        }),
        cached,
    }
}

fn fmt_num(v: f64) -> String {
    if v.fract() == 0.0 {
        format!("{v:.0}")
    } else {
        format!("{v:.2}")
    }
}

fn check_uuid(field: &str, v: &str) -> IpcResult<String> {
    uuid::Uuid::parse_str(v.trim())
        .map(|u| u.hyphenated().to_string())
        .map_err(|_| IpcError::validation(field, "The outputId must be a UUID minted for this click."))
}

/// Starts a generation. The job is written to the queue first; then the request goes out with the
/// click's `outputId`. A render finished within the service's smart-wait comes back completed; a longer
/// one comes back `processing` and is polled here. A refused request (400/402/403) is taken off the
/// queue (nothing was charged) and returned as the error. A request nothing answered stays
/// `submitting` and is sent again, with the same `outputId`, until the service answers.
/// Calling this again with the same `outputId` (a retry of the click) never makes a second job.
pub async fn studio_generate(state: &AppState, args: StudioGenerateArgs) -> IpcResult<StudioJob> {
    let profile = profile_id(state)?;
    let output_id = check_uuid("outputId", &args.output_id)?;
    let studio = state.studio();
    if let Some((owner, job, _)) = studio.get(&output_id) {
        if owner != profile {
            return Err(IpcError::validation("outputId", "This outputId belongs to another profile's job; mint a new one."));
        }
        if job.status == JobStatus::Submitting {
            // A retry of a click whose request is not answered yet: send it again now.
            ensure_poller(state, &profile, &output_id);
        }
        return Ok(job);
    }
    let request = request_for(&args.form)?.with_output_id(&output_id);
    let client = state.client().await?;
    let now = now_ms();
    let mut job = StudioJob {
        output_id: output_id.clone(),
        form: args.form,
        model_id: request.model_id(),
        content_type: match &request {
            StoredRequest::Generate(r) => r.content_type.unwrap_or(ContentType::Image),
            StoredRequest::Board(_) => ContentType::Image,
        },
        status: JobStatus::Submitting,
        error: None,
        credits: None,
        output_urls: Vec::new(),
        idempotent_replay: false,
        polls: 0,
        created_at: now,
        updated_at: now,
        completed_at: None,
        next_poll_at: None,
        cleared: false,
        last_running_at: None,
    };
    studio.insert(&profile, &job, &request)?;
    studio.emit(StudioEvent::Job { job: job.clone() });
    match request.send(&client).await {
        Ok(r) => {
            apply_result(&mut job, &r);
            // Cancelled while the service smart-waited: that choice stands.
            let live = studio.save_live(&job);
            if !job.idempotent_replay {
                refresh_balance(state, &client, &profile).await;
            }
            if live && !job.status.is_terminal() {
                start_poller(state, &profile, &output_id, Some(r.poll_after_seconds));
            }
            Ok(studio.get(&output_id).map(|(_, j, _)| j).unwrap_or(job))
        }
        Err(e) if kept_for_resend(&e) => {
            job.error = Some(format!("Not answered yet ({}); it is sent again with the same outputId, so it is never charged twice.", short(e)));
            job.updated_at = now_ms();
            if studio.save_live(&job) {
                ensure_poller(state, &profile, &output_id);
            }
            Ok(job)
        }
        Err(e) => {
            studio.remove(&output_id);
            Err(IpcError::from(e))
        }
    }
}

/// Every job of the selected profile, newest first (the queue and the gallery).
pub async fn studio_jobs(state: &AppState) -> IpcResult<Vec<StudioJob>> {
    Ok(state.studio().list(&profile_id(state)?))
}

fn own_job(state: &AppState, output_id: &str) -> IpcResult<(String, StudioJob, StoredRequest)> {
    let profile = profile_id(state)?;
    match state.studio().get(output_id) {
        Some(found) if found.0 == profile => Ok(found),
        _ => Err(IpcError::new(IpcCode::NotFound, "That render is not in this profile's queue any more.")),
    }
}

/// Stops waiting for a job. The service cannot stop a render: it may still finish (and be charged);
/// it then shows in the service's library, not in this queue.
pub async fn studio_cancel(state: &AppState, args: StudioJobArgs) -> IpcResult<StudioJob> {
    let (_, mut job, _) = own_job(state, &args.output_id)?;
    if job.status.is_terminal() {
        return Ok(job);
    }
    stop_poller(state, &job.output_id);
    job.status = JobStatus::Cancelled;
    job.error = Some(if job.credits.is_some() {
        "Stopped waiting. The service may still finish this render; it was charged when it started.".into()
    } else {
        "Stopped waiting before the service answered; if the request had reached it, the render may still finish.".into()
    });
    job.next_poll_at = None;
    job.updated_at = now_ms();
    state.studio().save(&job);
    Ok(job)
}

/// A failed or cancelled job again, as a new job (a new `outputId`, so a new charge: the failed one was
/// refunded). A job still being sent is sent again at once with its own `outputId`.
pub async fn studio_retry(state: &AppState, args: StudioJobArgs) -> IpcResult<StudioJob> {
    let (profile, job, _) = own_job(state, &args.output_id)?;
    match job.status {
        JobStatus::Submitting | JobStatus::Processing => {
            stop_poller(state, &job.output_id);
            ensure_poller(state, &profile, &job.output_id);
            Ok(job)
        }
        JobStatus::Completed => Err(IpcError::validation("outputId", "This render finished; generate again to make another.")),
        JobStatus::Failed | JobStatus::Cancelled | JobStatus::Abandoned => {
            let fresh = uuid::Uuid::new_v4().to_string();
            studio_generate(state, StudioGenerateArgs { form: job.form, output_id: fresh }).await
        }
    }
}

/// Takes finished jobs (completed, failed, cancelled) off the queue list; completed ones stay in the
/// gallery. Returns how many were cleared.
pub async fn studio_clear_finished(state: &AppState) -> IpcResult<u32> {
    let profile = profile_id(state)?;
    let mut n = 0;
    for mut job in state.studio().list(&profile) {
        if job.status.is_terminal() && !job.cleared {
            job.cleared = true;
            job.updated_at = now_ms();
            state.studio().save(&job);
            n += 1;
        }
    }
    Ok(n)
}

/// Appends an output to a card's assets by its token, through the declarative card edit (the whole
/// list, checked against the spec's rules first).
pub async fn card_attach_output(state: &AppState, args: CardAttachOutputArgs) -> IpcResult<api_types::CardDetail> {
    let token = args.token.trim();
    if !is_output_token(token) {
        return Err(IpcError::validation("token", "That is not an output token (<uuid>-<N>)."));
    }
    let card = state.client().await?.cards().get(&args.card_id).await?;
    let mut edit = api_client::CardEdit::from_card(&card);
    edit.add_output(token);
    let update = api_types::UpdateCard { assets: Some(edit.assets), ..Default::default() };
    crate::planner::card_update(state, crate::planner::CardUpdateArgs { card_id: args.card_id, update }).await
}

// ---------------------------------------------------------------------------------------------------
// The pollers
// ---------------------------------------------------------------------------------------------------

/// Failures after which a request is sent again (nothing answered, or the service failed), rather than
/// shown as the answer.
fn kept_for_resend(e: &ApiError) -> bool {
    matches!(e, ApiError::Network { .. } | ApiError::Server { .. } | ApiError::RateLimited { .. })
}

fn short(e: ApiError) -> String {
    let s = IpcError::from(e).message;
    s.chars().take(160).collect()
}

fn apply_result(job: &mut StudioJob, r: &GenerateResult) {
    job.status = JobStatus::from_service(&r.status);
    if !job.status.is_terminal() {
        job.last_running_at = Some(now_ms());
    }
    job.idempotent_replay = job.idempotent_replay || r.idempotent_replay;
    if r.credits().is_some() {
        job.credits = r.credits();
    }
    job.output_urls = r.urls();
    job.error = None;
    job.updated_at = now_ms();
    if job.status.is_terminal() {
        job.completed_at = Some(job.updated_at);
    }
}

fn apply_status(job: &mut StudioJob, g: &Generation) {
    job.status = JobStatus::of(g);
    if !job.status.is_terminal() {
        job.last_running_at = Some(now_ms());
    }
    job.output_urls = g.urls();
    job.error = g.error.clone();
    if g.credits().is_some() {
        job.credits = g.credits();
    }
    job.updated_at = now_ms();
    if job.status.is_terminal() {
        job.completed_at = Some(job.updated_at);
    }
}

/// Starts the pollers of every unfinished job (all profiles). Called once when the core starts.
pub fn resume(state: &AppState) {
    for (output_id, profile) in state.studio().unfinished() {
        ensure_poller(state, &profile, &output_id);
    }
}

fn stop_poller(state: &AppState, output_id: &str) {
    if let Some((_, t)) = state.studio().pollers.lock().unwrap_or_else(|e| e.into_inner()).remove(output_id) {
        t.cancel();
    }
}

/// A poller that reads the job's state at once (on start-up, after a retry: how long it has been is
/// unknown).
fn ensure_poller(state: &AppState, profile: &str, output_id: &str) {
    start_poller(state, profile, output_id, None);
}

/// `first`: the generate reply's hint, when the job was just submitted: the first read waits for it.
fn start_poller(state: &AppState, profile: &str, output_id: &str, first: Option<Option<f64>>) {
    let studio = state.studio();
    let (id, token) = {
        let mut pollers = studio.pollers.lock().unwrap_or_else(|e| e.into_inner());
        if pollers.contains_key(output_id) {
            return;
        }
        let id = studio.next_poller.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        let t = studio.shutdown.child_token();
        pollers.insert(output_id.to_string(), (id, t.clone()));
        (id, t)
    };
    let (state, profile, output_id) = (state.clone(), profile.to_string(), output_id.to_string());
    tokio::spawn(async move {
        drive(&state, &profile, &output_id, &token, first).await;
        let mut pollers = state.studio().pollers.lock().unwrap_or_else(|e| e.into_inner());
        if pollers.get(&output_id).is_some_and(|(i, _)| *i == id) {
            pollers.remove(&output_id);
        }
    });
}

/// How long to wait after a failure to reach the service: 2 s doubling to a minute.
fn retry_delay(failures: u32) -> Duration {
    Duration::from_secs(2u64.saturating_mul(1 << failures.min(5)).min(60))
}

/// One job's loop: send it (while `submitting`) or read its state, until it is terminal or stopped.
async fn drive(state: &AppState, profile: &str, output_id: &str, stop: &CancellationToken, first: Option<Option<f64>>) {
    let studio = state.studio();
    let mut cadence = Cadence::default();
    let mut failures = 0u32;
    let mut first = first;
    let mut model_history: Option<Option<Duration>> = None;
    loop {
        if stop.is_cancelled() {
            return;
        }
        let Some((_, mut job, request)) = studio.get(output_id) else { return };
        let typical = *model_history.get_or_insert_with(|| studio.typical_duration(profile, &job.model_id));
        let elapsed = Duration::from_millis((now_ms() - job.created_at).max(0) as u64);
        if let Some(hint) = first.take() {
            // Just submitted: the reply said when to look (or this model's history, or the kind's default).
            let wait = cadence.next_known(hint, first_interval(&job), elapsed, typical);
            if !pause(stop, wait, &mut job, studio).await {
                return;
            }
            continue;
        }
        if job.status.is_terminal() {
            return;
        }
        let client = match state.client_for(profile).await {
            Ok(c) => c,
            Err(e) => {
                job.error = Some(format!("Waiting: {}", e.message));
                failures += 1;
                if !pause(stop, retry_delay(failures), &mut job, studio).await {
                    return;
                }
                continue;
            }
        };
        let hint = if job.status == JobStatus::Submitting {
            let sent = tokio::select! {
                biased;
                _ = stop.cancelled() => return,
                r = request.send(&client) => r,
            };
            match sent {
                Ok(r) => {
                    failures = 0;
                    apply_result(&mut job, &r);
                    if !job.idempotent_replay {
                        refresh_balance(state, &client, profile).await;
                    }
                    r.poll_after_seconds
                }
                Err(e) if kept_for_resend(&e) => {
                    failures += 1;
                    job.error = Some(format!("Not answered yet ({}); sent again with the same outputId.", short(e)));
                    if !pause(stop, retry_delay(failures), &mut job, studio).await {
                        return;
                    }
                    continue;
                }
                Err(e) => {
                    // Refused on resend (e.g. the balance fell meanwhile): nothing was charged.
                    job.status = JobStatus::Failed;
                    job.error = Some(IpcError::from(e).message);
                    job.completed_at = Some(now_ms());
                    job.updated_at = now_ms();
                    studio.save_live(&job);
                    return;
                }
            }
        } else {
            let api = client.studio();
            let read = tokio::select! {
                biased;
                _ = stop.cancelled() => return,
                r = api.status(output_id) => r,
            };
            job.polls += 1;
            match read {
                Ok(g) => {
                    failures = 0;
                    apply_status(&mut job, &g);
                    if job.status == JobStatus::Failed {
                        refresh_balance(state, &client, profile).await;
                    }
                    g.poll_after_seconds
                }
                Err(ApiError::NotFound { .. }) => {
                    job.status = JobStatus::Failed;
                    job.error = Some("The service does not know this render (deleted, or made with another account's key).".into());
                    job.completed_at = Some(now_ms());
                    job.updated_at = now_ms();
                    studio.save_live(&job);
                    return;
                }
                Err(e) => {
                    failures += 1;
                    job.error = Some(format!("Lost contact while waiting ({}); still waiting.", short(e)));
                    if !pause(stop, retry_delay(failures), &mut job, studio).await {
                        return;
                    }
                    continue;
                }
            }
        };
        if job.status.is_terminal() {
            job.next_poll_at = None;
            studio.save_live(&job);
            return;
        }
        let elapsed = Duration::from_millis((now_ms() - job.created_at).max(0) as u64);
        let wait = cadence.next_known(hint, first_interval(&job), elapsed, typical);
        if !pause(stop, wait, &mut job, studio).await {
            return;
        }
    }
}

/// Records when the next read is due, tells the UI, and sleeps; `false` when stopped meanwhile.
async fn pause(stop: &CancellationToken, wait: Duration, job: &mut StudioJob, studio: &Studio) -> bool {
    job.next_poll_at = Some(now_ms() + wait.as_millis() as i64);
    job.updated_at = now_ms();
    if !studio.save_live(job) {
        return false;
    }
    tokio::select! {
        biased;
        _ = stop.cancelled() => false,
        _ = tokio::time::sleep(wait) => true,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn output_tokens_in_every_documented_form() {
        let id = "0f8fad5b-d9cb-469f-a165-70867728950e";
        assert!(is_output_token(id));
        assert!(is_output_token(&format!("{id}-2")));
        assert!(is_output_token("0f8fad5b"));
        assert!(is_output_token("0f8fad5b-1"));
        assert!(!is_output_token(&format!("{id}-0")));
        assert!(!is_output_token(&format!("{id}-x")));
        assert!(!is_output_token("https://example.com/a.png"));
        assert!(!is_output_token("0f8fad5"));
    }

    #[test]
    fn output_tokens_follow_the_shared_cases() {
        let cases: serde_json::Value =
            serde_json::from_str(include_str!("../../api-types/fixtures/output-tokens.json")).unwrap();
        for v in cases["valid"].as_array().unwrap() {
            assert!(is_output_token(v.as_str().unwrap()), "valid: {v}");
        }
        for v in cases["invalid"].as_array().unwrap() {
            assert!(!is_output_token(v.as_str().unwrap()), "invalid: {v}");
        }
    }

    #[test]
    fn cadence_follows_the_hint_else_grows_to_the_cap() {
        let mut c = Cadence::default();
        assert_eq!(c.next(Some(3.0), Duration::from_secs(5)), Duration::from_secs(3));
        assert_eq!(c.next(Some(0.01), Duration::from_secs(5)), MIN_POLL);
        assert_eq!(c.next(Some(600.0), Duration::from_secs(5)), MAX_HINT);
        let own: Vec<f64> = (0..5).map(|_| c.next(None, Duration::from_secs(5)).as_secs_f64()).collect();
        assert_eq!(own, vec![5.0, 7.5, 11.25, 15.0, 15.0]);
    }

    #[test]
    fn with_no_hint_a_models_typical_time_is_awaited_then_short_reads() {
        let mut c = Cadence::default();
        let t = Some(Duration::from_secs(300));
        let first = Duration::from_secs(5);
        assert_eq!(c.next_known(None, first, Duration::ZERO, t), MAX_HINT);
        assert_eq!(c.next_known(None, first, Duration::from_secs(290), t), Duration::from_secs(10));
        let after: Vec<f64> = [300, 302, 305]
            .iter()
            .map(|s| c.next_known(None, first, Duration::from_secs(*s), t).as_secs_f64())
            .collect();
        assert_eq!(after, vec![2.0, 3.0, 4.5]);
        // A hint still wins.
        assert_eq!(c.next_known(Some(1.0), first, Duration::from_secs(400), t), Duration::from_secs(1));
    }

    fn form(media: StudioMedia) -> StudioForm {
        StudioForm {
            media,
            model_id: Some("nano-banana-2".into()),
            prompt: Some("a fox".into()),
            aspect_ratio: None,
            resolution: None,
            num_outputs: None,
            duration: None,
            negative_prompt: None,
            references: None,
            text: None,
            voice_id: None,
            duration_seconds: None,
            board_type: None,
            board_name: None,
        }
    }

    #[test]
    fn a_form_maps_to_its_endpoint_and_bad_fields_are_named() {
        let mut f = form(StudioMedia::Video);
        f.num_outputs = Some(2);
        f.references = Some(References { start_frame: Some("0f8fad5b-d9cb-469f-a165-70867728950e-1".into()), ..Default::default() });
        let StoredRequest::Generate(r) = request_for(&f).unwrap() else { panic!() };
        assert_eq!(r.num_generations, Some(2));
        assert_eq!(r.num_images, None);
        assert_eq!(r.content_type, Some(ContentType::Video));

        f.references = Some(References { start_frame: Some("not a link".into()), ..Default::default() });
        assert_eq!(request_for(&f).unwrap_err().field.as_deref(), Some("references.startFrame"));

        f.references = None;
        f.num_outputs = Some(9);
        assert_eq!(request_for(&f).unwrap_err().field.as_deref(), Some("numOutputs"));

        let mut b = form(StudioMedia::Board);
        assert_eq!(request_for(&b).unwrap_err().field.as_deref(), Some("boardType"));
        b.board_type = Some("dragon".into());
        assert!(!request_for(&b).unwrap_err().valid_values.is_empty());
        b.board_type = Some("character".into());
        assert!(matches!(request_for(&b).unwrap(), StoredRequest::Board(_)));

        let mut m = form(StudioMedia::Image);
        m.model_id = Some("  ".into());
        assert_eq!(request_for(&m).unwrap_err().field.as_deref(), Some("modelId"));
    }

    #[test]
    fn a_quote_above_the_balance_says_how_much_is_missing() {
        let q = quote_view(40.0, 25.0, false);
        assert!(!q.affordable);
        assert_eq!(q.balance_after, -15.0);
        assert!(q.reason.unwrap().contains("15 more"));
        assert!(quote_view(10.0, 25.0, true).affordable);
    }
}
