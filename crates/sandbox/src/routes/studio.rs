//! Generation: `POST /studio/generate`, `GET /studio/generate/{outputId}` and `POST
//! /studio/reference-board` (spec §4 Generation, fact sheet 2.3, 3.1–3.3), plus the output-token seam
//! [`resolve_output`] the card and media code use.
//!
//! A request is validated against the model's registry capabilities, priced, charged and stored as a job
//! in one transaction, then smart-waited: the reply is the finished render if it is ready within
//! `Config.smart_wait`, else `processing` with the `outputId` to poll. A job finishes lazily: whoever
//! reads a job whose `ready_at` has passed writes its placeholder files and marks it completed
//! ([`settle`]), so a job survives a restart with no background worker.
//!
//! Sandbox-only: a prompt (or speech text) containing [`FAIL_MARKER`] renders as `failed` with an error
//! message and its credits are refunded, so clients can exercise the failure path.
use crate::db::CachedRow as _;
use crate::auth::Caller;
use crate::db::new_id;
use crate::error::{ApiError, ApiResult};
use crate::extract::AppJson;
use crate::media_files::{self, RenderedFile};
use crate::routes::{account, media, models};
use crate::state::AppState;
use crate::time;
use api_types::scopes::GENERATE;
use api_types::{
    BoardRequest, ContentType, CostEstimate, GenerateRequest, GenerateResult, Generation,
    GenerationStatus, ModelInfo, ModelKind, BOARD_TYPES,
};
use axum::extract::{Path, State};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use axum::{Json, Router};
use rusqlite::{params, Connection, OptionalExtension};
use serde::Serialize;
use std::time::{Duration, Instant};

/// A video with sound (`audioEnabled: true`) costs half as much again.
const VIDEO_AUDIO_MULTIPLIER: f64 = 1.5;
pub const SCHEMA: &str = "
CREATE TABLE IF NOT EXISTS generations (
    id TEXT PRIMARY KEY,
    account_id TEXT NOT NULL REFERENCES accounts(id),
    -- creation | board | upload | import
    source TEXT NOT NULL,
    -- image | video | audio | board | lip_sync | image_upscale | video_upscale | upload | import
    job_kind TEXT NOT NULL,
    content_type TEXT NOT NULL,
    model_id TEXT NOT NULL,
    prompt TEXT,
    text TEXT,
    aspect_ratio TEXT,
    seconds REAL,
    board_type TEXT,
    num_outputs INTEGER NOT NULL,
    request TEXT NOT NULL DEFAULT '{}',
    -- processing | completed | failed
    status TEXT NOT NULL,
    error TEXT,
    credits REAL NOT NULL,
    ready_at_ms INTEGER NOT NULL,
    created_at TEXT NOT NULL,
    completed_at TEXT
);
CREATE INDEX IF NOT EXISTS generations_by_account ON generations(account_id, created_at);
CREATE TABLE IF NOT EXISTS generation_outputs (
    output_id TEXT NOT NULL REFERENCES generations(id),
    -- 1-based, as in output tokens
    idx INTEGER NOT NULL,
    -- served at /files/{file_name}; NULL for an import recorded by URL only
    file_name TEXT,
    external_url TEXT,
    PRIMARY KEY (output_id, idx)
);
";

/// `(method, path)` of every route this module serves under `/api/v1`.
pub const ROUTES: &[(&str, &str)] = &[
    ("POST", "/studio/generate"),
    ("GET", "/studio/generate/{outputId}"),
    ("POST", "/studio/reference-board"),
];

pub fn router() -> Router<AppState> {
    Router::new()
        .route("/studio/generate", post(generate))
        .route("/studio/generate/{outputId}", get(status))
        .route("/studio/reference-board", post(reference_board))
}

/// Sandbox-only: a prompt or speech text containing this renders as `failed`, and the credits come back.
pub const FAIL_MARKER: &str = "[sandbox:fail]";

/// The pseudo model id of reference boards (a pipeline, not a registry model: fact sheet 2.3).
pub const BOARD_MODEL_ID: &str = "reference-board";

/// Longest speech text.
const MAX_TEXT_CHARS: usize = 5000;
/// Longest reference list of a board.
const MAX_BOARD_REFERENCES: usize = 8;
/// Default clip length of a video generation when `duration` is absent, kept inside the model's range.
const DEFAULT_VIDEO_SECONDS: f64 = 5.0;
/// Longest placeholder audio file, in seconds (the music model's longest track).
const MAX_AUDIO_RENDER_SECONDS: f64 = 120.0;
/// Speaking rate used to length speech from text (about 150 words a minute).
const SPEECH_CHARS_PER_SECOND: f64 = 15.0;

// ---------------------------------------------------------------------------------------------------
// Prices. The registry carries none (fact sheet 3.13); these are the sandbox's, in credits:
//   image generation     4 per output (nano-banana-pro and flux-2-pro: 8 per output)
//   image upscale        8
//   video generation     5 per second (rounded up) per generation; `duration` defaults to 5 s
//   video upscale        8
//   lip-sync             6 per second of speech (rounded up): `durationSeconds`, else the text's length
//                        at 15 characters a second
//   text to speech       1 per 200 characters (rounded up), at least 1
//   music, sound effects 2 per started 10 s (music defaults to 30 s, sound effects to 5 s)
//   reference board      6 per image
// ---------------------------------------------------------------------------------------------------

fn image_price_per_output(model_id: &str) -> f64 {
    match model_id {
        "nano-banana-pro" | "flux-2-pro" => 8.0,
        _ => 4.0,
    }
}
const UPSCALE_PRICE: f64 = 8.0;
const VIDEO_PRICE_PER_SECOND: f64 = 5.0;
const LIP_SYNC_PRICE_PER_SECOND: f64 = 6.0;
const TTS_CHARS_PER_CREDIT: f64 = 200.0;
const AUDIO_PRICE_PER_10_SECONDS: f64 = 2.0;
const BOARD_PRICE_PER_IMAGE: f64 = 6.0;

/// What a job renders; decides the render time, the placeholder file and the poll hint.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum JobKind {
    Image,
    Video,
    Audio,
    Board,
    LipSync,
    ImageUpscale,
    VideoUpscale,
    Upload,
    Import,
}

impl JobKind {
    fn as_str(self) -> &'static str {
        match self {
            JobKind::Image => "image",
            JobKind::Video => "video",
            JobKind::Audio => "audio",
            JobKind::Board => "board",
            JobKind::LipSync => "lip_sync",
            JobKind::ImageUpscale => "image_upscale",
            JobKind::VideoUpscale => "video_upscale",
            JobKind::Upload => "upload",
            JobKind::Import => "import",
        }
    }

    fn parse(s: &str) -> JobKind {
        match s {
            "video" => JobKind::Video,
            "audio" => JobKind::Audio,
            "board" => JobKind::Board,
            "lip_sync" => JobKind::LipSync,
            "image_upscale" => JobKind::ImageUpscale,
            "video_upscale" => JobKind::VideoUpscale,
            "upload" => JobKind::Upload,
            "import" => JobKind::Import,
            _ => JobKind::Image,
        }
    }

    fn render_time(self, state: &AppState) -> Duration {
        let r = &state.config().render;
        match self {
            JobKind::Image | JobKind::ImageUpscale => r.image,
            JobKind::Video | JobKind::VideoUpscale => r.video,
            JobKind::Audio => r.audio,
            JobKind::Board => r.board,
            JobKind::LipSync => r.lip_sync,
            JobKind::Upload | JobKind::Import => Duration::ZERO,
        }
    }
}

/// `pollAfterSeconds`: the time left until the render is ready (plus 0.1 s, in tenths), at most 5 s for
/// images and audio and 15 s otherwise (docs/api.md). A server that knows its queue says when to look
/// again; a client that follows the hint learns of the result within about 0.1 s.
fn poll_after(content_type: ContentType, ready_at_ms: i64) -> f64 {
    let cap = match content_type {
        ContentType::Image | ContentType::Audio => 5.0,
        ContentType::Video => 15.0,
    };
    let left = (ready_at_ms - time::now_ms()).max(0) as f64 / 1000.0 + 0.1;
    ((left * 10.0).ceil() / 10.0).min(cap)
}

fn content_type_str(c: ContentType) -> &'static str {
    c.as_str()
}

fn parse_content_type(s: &str) -> ContentType {
    match s {
        "video" => ContentType::Video,
        "audio" => ContentType::Audio,
        _ => ContentType::Image,
    }
}

fn parse_status(s: &str) -> GenerationStatus {
    match s {
        "completed" => GenerationStatus::Completed,
        "failed" => GenerationStatus::Failed,
        "pending" => GenerationStatus::Pending,
        _ => GenerationStatus::Processing,
    }
}

/// A validated, priced request, ready to be charged and stored.
#[derive(Debug, Clone)]
struct Plan {
    kind: JobKind,
    source: &'static str,
    content_type: ContentType,
    model_id: String,
    prompt: Option<String>,
    text: Option<String>,
    aspect_ratio: Option<String>,
    /// Audio length (audio jobs) or speech/clip length (video jobs), for the placeholder and the record.
    seconds: Option<f64>,
    board_type: Option<String>,
    num_outputs: u32,
    credits: f64,
    request: String,
}

/// A stored job.
#[derive(Debug, Clone)]
struct Job {
    id: String,
    account_id: String,
    kind: JobKind,
    content_type: ContentType,
    model_id: String,
    prompt: Option<String>,
    text: Option<String>,
    aspect_ratio: Option<String>,
    seconds: Option<f64>,
    board_type: Option<String>,
    num_outputs: u32,
    status: GenerationStatus,
    error: Option<String>,
    credits: f64,
    ready_at_ms: i64,
    created_at: String,
    completed_at: Option<String>,
}

const JOB_COLUMNS: &str =
    "id, account_id, job_kind, content_type, model_id, prompt, text, aspect_ratio, seconds, \
     board_type, num_outputs, status, error, credits, ready_at_ms, created_at, completed_at";

fn job_from_row(r: &rusqlite::Row) -> rusqlite::Result<Job> {
    Ok(Job {
        id: r.get(0)?,
        account_id: r.get(1)?,
        kind: JobKind::parse(&r.get::<_, String>(2)?),
        content_type: parse_content_type(&r.get::<_, String>(3)?),
        model_id: r.get(4)?,
        prompt: r.get(5)?,
        text: r.get(6)?,
        aspect_ratio: r.get(7)?,
        seconds: r.get(8)?,
        board_type: r.get(9)?,
        num_outputs: r.get::<_, i64>(10)?.max(1) as u32,
        status: parse_status(&r.get::<_, String>(11)?),
        error: r.get(12)?,
        credits: r.get(13)?,
        ready_at_ms: r.get(14)?,
        created_at: r.get(15)?,
        completed_at: r.get(16)?,
    })
}

fn load_job(conn: &Connection, id: &str) -> rusqlite::Result<Option<Job>> {
    conn.cached_row(
        &format!("SELECT {JOB_COLUMNS} FROM generations WHERE id = ?1"),
        [id],
        job_from_row,
    )
    .optional()
}

/// `(idx, file_name, external_url)` of one output.
type OutputRow = (u32, Option<String>, Option<String>);

/// A job's outputs, in order.
fn output_rows(conn: &Connection, id: &str) -> rusqlite::Result<Vec<OutputRow>> {
    let mut stmt =
        conn.prepare_cached("SELECT idx, file_name, external_url FROM generation_outputs WHERE output_id = ?1 ORDER BY idx")?;
    let rows = stmt.query_map([id], |r| {
        Ok((r.get::<_, i64>(0)? as u32, r.get(1)?, r.get(2)?))
    })?;
    rows.collect()
}

fn output_url(origin: &str, file_name: &Option<String>, external: &Option<String>) -> String {
    match (external, file_name) {
        (Some(url), _) => url.clone(),
        (None, Some(name)) => media::file_url(origin, name),
        (None, None) => String::new(),
    }
}

pub(crate) fn output_urls(
    conn: &Connection,
    origin: &str,
    id: &str,
) -> rusqlite::Result<Vec<String>> {
    Ok(output_rows(conn, id)?
        .iter()
        .map(|(_, f, e)| output_url(origin, f, e))
        .collect())
}

// ---------------------------------------------------------------------------------------------------
// Completion
// ---------------------------------------------------------------------------------------------------

/// Finishes a job whose render time has passed: writes its placeholder files and marks it completed, or,
/// with the failure marker, marks it failed and refunds its credits. Does nothing to a job that is not
/// due. Safe to call from inside a transaction (it uses a savepoint) and from two sandboxes on one file
/// (the status change is conditional, so only one of them writes).
pub(crate) fn settle(conn: &Connection, id: &str) -> rusqlite::Result<()> {
    let Some(job) = load_job(conn, id)? else {
        return Ok(());
    };
    if job.status != GenerationStatus::Processing || time::now_ms() < job.ready_at_ms {
        return Ok(());
    }
    let fails = [&job.prompt, &job.text]
        .iter()
        .any(|s| s.as_deref().is_some_and(|s| s.contains(FAIL_MARKER)));
    // Rendering is pure work on the job's own fields: do it before the savepoint.
    let files = if fails { Vec::new() } else { render(&job) };
    conn.execute_batch("SAVEPOINT settle")?;
    let result = (|| -> rusqlite::Result<()> {
        let now = time::now_str();
        if fails {
            let error = format!(
                "The render failed (sandbox: the request carries the test marker {FAIL_MARKER}); its {} credits were refunded",
                job.credits
            );
            let n = conn.execute(
                "UPDATE generations SET status = 'failed', error = ?2, completed_at = ?3 WHERE id = ?1 AND status = 'processing'",
                params![job.id, error, now],
            )?;
            if n == 1 {
                account::refund(conn, &job.account_id, job.credits)?;
            }
            return Ok(());
        }
        let n = conn.execute(
            "UPDATE generations SET status = 'completed', completed_at = ?2 WHERE id = ?1 AND status = 'processing'",
            params![job.id, now],
        )?;
        if n == 1 {
            for (i, file) in files.iter().enumerate() {
                let idx = i as u32 + 1;
                let name = format!("{}-{idx}.{}", job.id, file.ext);
                media::store_file(conn, &name, &job.account_id, file.mime, &file.bytes, true)?;
                conn.execute(
                    "INSERT OR REPLACE INTO generation_outputs (output_id, idx, file_name, external_url) VALUES (?1, ?2, ?3, NULL)",
                    params![job.id, idx, name],
                )?;
            }
        }
        Ok(())
    })();
    match result {
        Ok(()) => conn.execute_batch("RELEASE settle"),
        Err(e) => {
            let _ = conn.execute_batch("ROLLBACK TO settle; RELEASE settle");
            Err(e)
        }
    }
}

/// The placeholder files of a job, one per output.
fn render(job: &Job) -> Vec<RenderedFile> {
    let n = job.num_outputs;
    let seed = job
        .prompt
        .clone()
        .or_else(|| job.text.clone())
        .unwrap_or_else(|| job.id.clone());
    (1..=n)
        .map(|idx| {
            let label = format!("{} {idx}/{n}", job.model_id);
            match job.kind {
                JobKind::Image | JobKind::ImageUpscale | JobKind::Upload | JobKind::Import => {
                    let (w, h) = media_files::aspect_dims(
                        job.aspect_ratio.as_deref(),
                        media_files::IMAGE_LONG_SIDE,
                    );
                    let mut caption = vec![label];
                    if job.kind == JobKind::ImageUpscale {
                        caption.insert(0, "upscaled".into());
                    }
                    caption.extend(job.prompt.clone());
                    media_files::image_png(w, h, &format!("{seed}#{idx}"), &caption)
                }
                JobKind::Board => {
                    let (w, h) =
                        media_files::aspect_dims(Some("3:4"), media_files::IMAGE_LONG_SIDE);
                    let board = job.board_type.clone().unwrap_or_default();
                    let mut caption = vec![format!("{board} board"), format!("sheet {idx}/{n}")];
                    caption.extend(job.prompt.clone());
                    media_files::image_png(w, h, &format!("{seed}#{idx}"), &caption)
                }
                JobKind::Video | JobKind::VideoUpscale => {
                    media_files::video_mp4(job.aspect_ratio.as_deref())
                }
                // Talking heads are usually vertical.
                JobKind::LipSync => {
                    media_files::video_mp4(Some(job.aspect_ratio.as_deref().unwrap_or("9:16")))
                }
                // Capped so a 5,000-character script does not store a five-minute tone.
                JobKind::Audio => media_files::tone_wav(
                    job.seconds.unwrap_or(5.0).min(MAX_AUDIO_RENDER_SECONDS),
                    &seed,
                ),
            }
        })
        .collect()
}

// ---------------------------------------------------------------------------------------------------
// Output tokens
// ---------------------------------------------------------------------------------------------------

/// An output a token names, checked to be the caller's and finished.
#[derive(Debug, Clone)]
pub struct ResolvedOutput {
    /// The generation (or upload/import) id.
    pub output_id: String,
    /// 1-based output number within the generation.
    pub index: u32,
    /// Where the file is served.
    pub url: String,
    pub content_type: api_types::ContentType,
}

/// A parsed token: the full id or its 8-character prefix, and the 1-based output number if given.
#[derive(Debug, PartialEq)]
enum TokenId {
    Full(String),
    Prefix(String),
}

fn parse_token(token: &str) -> Option<(TokenId, Option<u32>)> {
    let t = token.trim().to_ascii_lowercase();
    let suffix = |rest: &str| -> Option<Option<u32>> {
        if rest.is_empty() {
            return Some(None);
        }
        let n: u32 = rest.strip_prefix('-')?.parse().ok()?;
        (n >= 1).then_some(Some(n))
    };
    if let Some(head) = t.get(..36) {
        if uuid::Uuid::parse_str(head).is_ok() && head.len() == 36 {
            if let Some(n) = suffix(&t[36..]) {
                return Some((TokenId::Full(head.to_string()), n));
            }
        }
    }
    let head = t.get(..8)?;
    if !head.chars().all(|c| c.is_ascii_hexdigit()) {
        return None;
    }
    suffix(&t[8..]).map(|n| (TokenId::Prefix(head.to_string()), n))
}

/// Resolves an output token (`<uuid>`, `<uuid>-<N>` with N from 1, or the uuid's first 8 characters,
/// optionally `-N`) owned by `account_id`. Unknown or another account's: 404 "Output not found". Not a
/// token, or not finished: 400 naming `field`. Covers uploads and imports too.
pub fn resolve_output(
    conn: &rusqlite::Connection,
    account_id: &str,
    token: &str,
    field: &str,
) -> crate::error::ApiResult<ResolvedOutput> {
    let not_found = || ApiError::not_found("Output");
    let (id, index) = parse_token(token).ok_or_else(|| {
        ApiError::bad(
            field,
            format!("`{field}` must be an http(s) URL or an output token (<uuid>, <uuid>-N or the first 8 characters of the uuid); got `{token}`"),
        )
    })?;
    let id = match id {
        TokenId::Full(id) => {
            let owner: Option<String> = conn
                .cached_row(
                    "SELECT account_id FROM generations WHERE id = ?1",
                    [&id],
                    |r| r.get(0),
                )
                .optional()?;
            // Another account's output is "not found", never "forbidden": its existence is not disclosed.
            if owner.as_deref() != Some(account_id) {
                return Err(not_found());
            }
            id
        }
        TokenId::Prefix(prefix) => {
            // Short tokens match only the caller's own outputs, so a prefix never reaches another account.
            let mut stmt = conn.prepare_cached("SELECT id FROM generations WHERE account_id = ?1 AND substr(id, 1, 8) = ?2 LIMIT 2")?;
            let ids: Vec<String> = stmt
                .query_map(params![account_id, prefix], |r| r.get(0))?
                .collect::<Result<_, _>>()?;
            match ids.as_slice() {
                [] => return Err(not_found()),
                [one] => one.clone(),
                _ => {
                    return Err(ApiError::bad(
                        field,
                        format!("`{field}`: the short token `{token}` matches more than one output; use the full id"),
                    ))
                }
            }
        }
    };
    settle(conn, &id)?;
    let job = load_job(conn, &id)?.ok_or_else(not_found)?;
    let index = index.unwrap_or(1);
    if index > job.num_outputs {
        return Err(not_found());
    }
    match job.status {
        GenerationStatus::Completed => {}
        GenerationStatus::Failed => {
            return Err(ApiError::bad(field, format!("`{field}`: output `{token}` failed and has no file to use")))
        }
        _ => {
            return Err(ApiError::bad(
                field,
                format!("`{field}`: output `{token}` is still processing; poll GET /studio/generate/{id} until it completes, then retry"),
            ))
        }
    }
    let row = output_rows(conn, &id)?
        .into_iter()
        .find(|(i, _, _)| *i == index)
        .ok_or_else(not_found)?;
    let origin = media::recorded_origin(conn);
    Ok(ResolvedOutput {
        output_id: id,
        index,
        url: output_url(&origin, &row.1, &row.2),
        content_type: job.content_type,
    })
}

/// A reference value: an http(s) URL, or an output token of the caller's holding `expected` media.
fn check_reference(
    conn: &Connection,
    account_id: &str,
    value: &str,
    field: &str,
    expected: ContentType,
) -> ApiResult<()> {
    let v = value.trim();
    if v.starts_with("http://") || v.starts_with("https://") {
        let rest = v.split_once("://").map(|(_, r)| r).unwrap_or("");
        let host = rest.split(['/', '?', '#']).next().unwrap_or("");
        if host.is_empty() || v.chars().any(char::is_whitespace) {
            return Err(ApiError::bad(
                field,
                format!("`{field}` is not a valid URL: `{value}`"),
            ));
        }
        return Ok(());
    }
    let out = resolve_output(conn, account_id, v, field)?;
    if out.content_type != expected {
        return Err(ApiError::bad(
            field,
            format!(
                "`{field}` needs {} media, but output `{value}` is {}",
                expected.as_str(),
                out.content_type.as_str()
            ),
        ));
    }
    Ok(())
}

// ---------------------------------------------------------------------------------------------------
// Validation and pricing
// ---------------------------------------------------------------------------------------------------

fn parse_output_id(raw: &str) -> ApiResult<String> {
    uuid::Uuid::parse_str(raw.trim())
        .map(|u| u.hyphenated().to_string())
        .map_err(|_| {
            ApiError::bad(
                "outputId",
                format!("`outputId` must be a UUID (the idempotency key you mint); got `{raw}`"),
            )
        })
}

fn non_blank(s: &Option<String>) -> Option<String> {
    s.as_deref()
        .map(str::trim)
        .filter(|s| !s.is_empty())
        .map(String::from)
}

fn check_in_list(field: &str, value: &str, list: &[String], model: &str) -> ApiResult<()> {
    if list.is_empty() {
        return Err(ApiError::bad(
            field,
            format!("Model {model} does not take `{field}`"),
        ));
    }
    if !list.iter().any(|v| v == value) {
        return Err(ApiError::InvalidValue {
            message: format!(
                "`{field}` `{value}` is not offered by {model}; valid values: {}",
                list.join(", ")
            ),
            field: field.into(),
            valid: list.to_vec(),
        });
    }
    Ok(())
}

fn check_count(field: &str, n: u32, max: u32, model: &str) -> ApiResult<()> {
    if n < 1 || n > max {
        return Err(ApiError::bad(
            field,
            format!("`{field}` must be between 1 and {max} for {model}; got {n}"),
        ));
    }
    Ok(())
}

fn check_seconds(field: &str, secs: f64, model: &ModelInfo) -> ApiResult<f64> {
    let Some(range) = model.capabilities.duration_seconds else {
        return Err(ApiError::bad(
            field,
            format!("Model {} does not take `{field}`", model.model_id),
        ));
    };
    if !secs.is_finite() || secs < range.min || secs > range.max {
        return Err(ApiError::bad(
            field,
            format!(
                "`{field}` must be between {} and {} seconds for {}; got {secs}",
                range.min, range.max, model.model_id
            ),
        ));
    }
    Ok(secs)
}

/// Validates a generate request against its model and prices it. Reads only (it resolves reference
/// tokens).
fn plan_generation(conn: &Connection, account_id: &str, req: &GenerateRequest) -> ApiResult<Plan> {
    let model = models::find_model(req.model_id.trim()).ok_or_else(|| {
        let valid = models::model_ids();
        ApiError::InvalidValue {
            message: format!(
                "Unknown `modelId` `{}`; valid model ids: {}",
                req.model_id,
                valid.join(", ")
            ),
            field: "modelId".into(),
            valid,
        }
    })?;
    // The sandbox's own registry holds only values this build knows.
    let (Some(content_type), Some(kind)) = (model.content_type.get(), model.kind.get()) else {
        return Err(ApiError::internal("the sandbox registry has a model of an unknown kind"));
    };
    let id = model.model_id.as_str();
    let caps = &model.capabilities;
    if let Some(ct) = req.content_type {
        if ct != content_type {
            return Err(ApiError::bad(
                "contentType",
                format!(
                    "`contentType` is {} but model {id} makes {}",
                    ct.as_str(),
                    content_type.as_str()
                ),
            ));
        }
    }

    let prompt = non_blank(&req.prompt);
    match (caps.prompt_mode.as_deref(), &prompt) {
        (Some("required"), None) => {
            return Err(ApiError::bad(
                "prompt",
                format!("`prompt` is required for {id}"),
            ))
        }
        (Some("none"), Some(_)) => {
            let hint = if kind == ModelKind::Voice {
                " (send the words to speak as `text`)"
            } else {
                ""
            };
            return Err(ApiError::bad(
                "prompt",
                format!("Model {id} takes no `prompt`{hint}"),
            ));
        }
        _ => {}
    }
    if let (Some(max), Some(p)) = (caps.prompt_max_chars, &prompt) {
        if p.chars().count() > max as usize {
            return Err(ApiError::bad(
                "prompt",
                format!("`prompt` is longer than {max} characters for {id}"),
            ));
        }
    }
    if let Some(a) = &req.aspect_ratio {
        check_in_list("aspectRatio", a, &caps.aspect_ratios, id)?;
    }
    if let Some(r) = &req.resolution {
        check_in_list("resolution", r, &caps.resolutions, id)?;
    }
    if non_blank(&req.negative_prompt).is_some() && !caps.negative_prompt {
        return Err(ApiError::bad(
            "negativePrompt",
            format!("Model {id} does not take `negativePrompt`"),
        ));
    }

    // How many outputs.
    let max_outputs = caps.max_outputs.unwrap_or(1);
    if let Some(n) = req.num_images {
        if content_type != ContentType::Image {
            return Err(ApiError::bad(
                "numImages",
                format!("`numImages` is for image models; {id} takes `numGenerations`"),
            ));
        }
        check_count("numImages", n, max_outputs, id)?;
    }
    if let Some(n) = req.num_generations {
        if content_type != ContentType::Video {
            return Err(ApiError::bad(
                "numGenerations",
                format!("`numGenerations` is for video models; {id} does not take it"),
            ));
        }
        check_count("numGenerations", n, max_outputs, id)?;
    }
    let num_outputs = req.num_images.or(req.num_generations).unwrap_or(1);

    // Lengths: video clips take `duration`; audio and lip-sync take `durationSeconds`.
    let clip_model = content_type == ContentType::Video && kind != ModelKind::LipSync;
    let seconds_model = kind == ModelKind::LipSync
        || (content_type == ContentType::Audio && kind != ModelKind::Voice);
    let duration = match req.duration {
        Some(d) if clip_model => Some(check_seconds("duration", d, &model)?),
        Some(_) => {
            let hint = if seconds_model {
                "; use `durationSeconds`"
            } else {
                ""
            };
            return Err(ApiError::bad(
                "duration",
                format!("Model {id} does not take `duration`{hint}"),
            ));
        }
        None => None,
    };
    let duration_seconds = match req.duration_seconds {
        Some(d) if seconds_model => Some(check_seconds("durationSeconds", d, &model)?),
        Some(_) => {
            let hint = if clip_model {
                "; use `duration` for the clip length"
            } else {
                ""
            };
            return Err(ApiError::bad(
                "durationSeconds",
                format!("Model {id} does not take `durationSeconds`{hint}"),
            ));
        }
        None => None,
    };

    // Speech.
    let text = non_blank(&req.text);
    let voice_id = non_blank(&req.voice_id);
    if let Some(t) = &text {
        if !caps.text {
            return Err(ApiError::bad("text", format!("Model {id} takes no `text`")));
        }
        if t.chars().count() > MAX_TEXT_CHARS {
            return Err(ApiError::bad(
                "text",
                format!("`text` is longer than {MAX_TEXT_CHARS} characters"),
            ));
        }
    }
    if let Some(v) = &voice_id {
        if !caps.voice {
            return Err(ApiError::bad(
                "voiceId",
                format!("Model {id} takes no `voiceId`"),
            ));
        }
        if models::find_voice(v).is_none() {
            let valid: Vec<String> = models::all_voices()
                .into_iter()
                .map(|v| v.voice_id)
                .collect();
            return Err(ApiError::InvalidValue {
                message: format!("Unknown `voiceId` `{v}`; list voices with GET /voices"),
                field: "voiceId".into(),
                valid,
            });
        }
    }
    if kind == ModelKind::Voice {
        if text.is_none() {
            return Err(ApiError::bad(
                "text",
                format!("`text` (the words to speak) is required for {id}"),
            ));
        }
        if voice_id.is_none() {
            return Err(ApiError::bad(
                "voiceId",
                format!("`voiceId` is required for {id}; list voices with GET /voices"),
            ));
        }
    }

    // References.
    let refs = req.references.clone().unwrap_or_default();
    let max_images = caps.max_reference_images.unwrap_or(0) as usize;
    if refs.images.len() > max_images {
        let msg = if max_images == 0 {
            format!("Model {id} takes no reference images")
        } else {
            format!(
                "Model {id} takes at most {max_images} reference image(s); got {}",
                refs.images.len()
            )
        };
        return Err(ApiError::bad("references.images", msg));
    }
    let video_upscale =
        kind == ModelKind::Upscale && content_type == ContentType::Video;
    if video_upscale && refs.videos.len() != 1 {
        return Err(ApiError::bad(
            "references.videos",
            format!("{id} needs exactly one video to upscale in `references.videos`"),
        ));
    }
    if !video_upscale && !refs.videos.is_empty() {
        return Err(ApiError::bad(
            "references.videos",
            format!("Model {id} takes no reference videos"),
        ));
    }
    if !refs.audio.is_empty() && !caps.audio_reference {
        return Err(ApiError::bad(
            "references.audio",
            format!("Model {id} takes no reference audio"),
        ));
    }
    if refs.audio.len() > 1 {
        return Err(ApiError::bad(
            "references.audio",
            format!("Model {id} takes one audio clip"),
        ));
    }
    if refs.start_frame.is_some() && !caps.start_frame {
        return Err(ApiError::bad(
            "references.startFrame",
            format!("Model {id} takes no `startFrame`"),
        ));
    }
    if refs.end_frame.is_some() && !caps.end_frame {
        return Err(ApiError::bad(
            "references.endFrame",
            format!("Model {id} takes no `endFrame`"),
        ));
    }
    if kind == ModelKind::Upscale
        && content_type == ContentType::Image
        && refs.images.len() != 1
    {
        return Err(ApiError::bad(
            "references.images",
            format!("{id} needs exactly one image to upscale in `references.images`"),
        ));
    }
    if kind == ModelKind::LipSync {
        if refs.images.len() != 1 {
            return Err(ApiError::bad(
                "references.images",
                format!("{id} needs the portrait to animate in `references.images`"),
            ));
        }
        match (refs.audio.is_empty(), &text) {
            (true, None) => {
                return Err(ApiError::bad("text", format!("{id} needs speech: `references.audio` or `text` with `voiceId`")))
            }
            (false, Some(_)) => {
                return Err(ApiError::bad("references.audio", "Give either `references.audio` or `text`, not both"))
            }
            (true, Some(_)) if voice_id.is_none() => {
                return Err(ApiError::bad("voiceId", format!("`voiceId` is required to speak `text` with {id}")))
            }
            (false, None) if duration_seconds.is_none() => {
                return Err(ApiError::bad(
                    "durationSeconds",
                    format!("`durationSeconds` (the clip's length) is required to price a lip-sync from `references.audio` with {id}"),
                ))
            }
            _ => {}
        }
    }
    for (i, v) in refs.images.iter().enumerate() {
        check_reference(
            conn,
            account_id,
            v,
            &format!("references.images[{i}]"),
            ContentType::Image,
        )?;
    }
    for (i, v) in refs.videos.iter().enumerate() {
        check_reference(
            conn,
            account_id,
            v,
            &format!("references.videos[{i}]"),
            ContentType::Video,
        )?;
    }
    for (i, v) in refs.audio.iter().enumerate() {
        check_reference(
            conn,
            account_id,
            v,
            &format!("references.audio[{i}]"),
            ContentType::Audio,
        )?;
    }
    if let Some(v) = &refs.start_frame {
        check_reference(
            conn,
            account_id,
            v,
            "references.startFrame",
            ContentType::Image,
        )?;
    }
    if let Some(v) = &refs.end_frame {
        check_reference(
            conn,
            account_id,
            v,
            "references.endFrame",
            ContentType::Image,
        )?;
    }

    // Kind, length and price.
    let speech_seconds = |t: &str| {
        (t.chars().count() as f64 / SPEECH_CHARS_PER_SECOND)
            .ceil()
            .max(1.0)
    };
    check_documented_fields(req, id, content_type, kind)?;
    let (job_kind, seconds, credits) = match (content_type, kind) {
        (ContentType::Image, ModelKind::Upscale) => (JobKind::ImageUpscale, None, UPSCALE_PRICE * upscale_multiplier(req)),
        (ContentType::Image, _) => (
            JobKind::Image,
            None,
            image_price_per_output(id) * num_outputs as f64,
        ),
        (ContentType::Video, ModelKind::Upscale) => {
            (JobKind::VideoUpscale, duration, UPSCALE_PRICE * upscale_multiplier(req))
        }
        (ContentType::Video, ModelKind::LipSync) => {
            let secs = duration_seconds
                .or(text.as_deref().map(speech_seconds))
                .unwrap_or(1.0);
            (
                JobKind::LipSync,
                Some(secs),
                LIP_SYNC_PRICE_PER_SECOND * secs.ceil(),
            )
        }
        (ContentType::Video, _) => {
            let secs = duration.unwrap_or_else(|| {
                let r = caps.duration_seconds.unwrap_or(api_types::NumRange {
                    min: 1.0,
                    max: 60.0,
                });
                DEFAULT_VIDEO_SECONDS.clamp(r.min, r.max)
            });
            let sound = if req.audio_enabled == Some(true) { VIDEO_AUDIO_MULTIPLIER } else { 1.0 };
            (
                JobKind::Video,
                Some(secs),
                VIDEO_PRICE_PER_SECOND * secs.ceil() * num_outputs as f64 * sound,
            )
        }
        (ContentType::Audio, ModelKind::Voice) => {
            let t = text.as_deref().unwrap_or("");
            let credits = (t.chars().count() as f64 / TTS_CHARS_PER_CREDIT)
                .ceil()
                .max(1.0);
            (JobKind::Audio, Some(speech_seconds(t)), credits)
        }
        (ContentType::Audio, _) => {
            let default = if id == "elevenlabs-music" { 30.0 } else { 5.0 };
            let secs = duration_seconds.unwrap_or(default);
            (
                JobKind::Audio,
                Some(secs),
                AUDIO_PRICE_PER_10_SECONDS * (secs / 10.0).ceil(),
            )
        }
    };
    Ok(Plan {
        kind: job_kind,
        source: "creation",
        content_type,
        model_id: model.model_id.clone(),
        prompt,
        text,
        aspect_ratio: req.aspect_ratio.clone(),
        seconds,
        board_type: None,
        num_outputs,
        credits,
        request: serde_json::to_string(req).unwrap_or_else(|_| "{}".into()),
    })
}

/// The documented fields the sandbox cannot render but checks (fact sheet 3.1): a wrong value is a 400
/// naming the field, as the service's validation would be.
fn check_documented_fields(req: &GenerateRequest, id: &str, content_type: ContentType, kind: ModelKind) -> ApiResult<()> {
    let refuse = |field: &str, msg: String| Err(ApiError::bad(field, msg));
    if let Some(f) = &req.upscale_factor {
        if kind != ModelKind::Upscale {
            return refuse("upscaleFactor", format!("Model {id} does not upscale; `upscaleFactor` is for upscale models"));
        }
        if !api_types::UPSCALE_FACTORS.contains(&f.as_str()) {
            return Err(ApiError::not_one_of("upscaleFactor", f, api_types::UPSCALE_FACTORS));
        }
    }
    if req.audio_enabled.is_some() && (content_type != ContentType::Video || kind != ModelKind::Generate) {
        return refuse("audioEnabled", format!("`audioEnabled` is for video generation models; {id} does not take it"));
    }
    if req.keep_input_length.is_some() && content_type != ContentType::Video {
        return refuse("keepInputLength", format!("`keepInputLength` is for video models; {id} does not take it"));
    }
    if let Some(q) = &req.quality {
        if q.trim().is_empty() || q.len() > 32 {
            return refuse("quality", "`quality` must be a mode name of 1 to 32 characters".into());
        }
    }
    if let Some(p) = &req.parameters {
        if !p.is_object() {
            return refuse("parameters", "`parameters` must be an object of model-specific settings".into());
        }
    }
    if let Some(p) = req.prompt_influence {
        if id != "elevenlabs-sound-effects" {
            return refuse("promptInfluence", format!("`promptInfluence` is for sound effects; {id} does not take it"));
        }
        if !(0.0..=1.0).contains(&p) {
            return refuse("promptInfluence", format!("`promptInfluence` must be between 0 and 1; got {p}"));
        }
    }
    if req.voice_name.is_some() && req.voice_id.is_none() {
        return refuse("voiceName", "`voiceName` names the voice given in `voiceId`; send `voiceId` too".into());
    }
    if req.placement.as_ref().is_some_and(|p| !p.is_object()) {
        return refuse("placement", "`placement` must be an object (`{ \"mode\": \"append\" }`, …)".into());
    }
    if req.placement.is_some() && req.project_id.is_none() {
        return refuse("placement", "`placement` places the result on a project; send `projectId` too".into());
    }
    if req.playhead_frame.is_some_and(|f| f < 0.0) {
        return refuse("playheadFrame", "`playheadFrame` must be 0 or more".into());
    }
    if req.avatar_id.is_some() && content_type != ContentType::Image {
        return refuse("avatarId", format!("`avatarId` files an image as an avatar look; {id} does not make images"));
    }
    if let Some(refs) = &req.references {
        if !refs.elements.is_empty() && (content_type != ContentType::Video || kind != ModelKind::Generate) {
            return refuse("references.elements", format!("Model {id} takes no reference elements"));
        }
        for (i, e) in refs.elements.iter().enumerate() {
            if e.element_id.is_none() && e.name.as_deref().is_none_or(|n| n.trim().is_empty()) {
                return refuse(
                    &format!("references.elements[{i}]"),
                    "an element needs `elementId` (a saved element) or `name` (one described here)".into(),
                );
            }
        }
    }
    Ok(())
}

/// `4x` costs twice `2x` (the default).
fn upscale_multiplier(req: &GenerateRequest) -> f64 {
    if req.upscale_factor.as_deref() == Some("4x") { 2.0 } else { 1.0 }
}

fn plan_board(conn: &Connection, account_id: &str, req: &BoardRequest) -> ApiResult<Plan> {
    let board_type = req.board_type.trim().to_ascii_lowercase();
    if !BOARD_TYPES.contains(&board_type.as_str()) {
        let valid: Vec<String> = BOARD_TYPES.iter().map(|s| s.to_string()).collect();
        return Err(ApiError::InvalidValue {
            message: format!(
                "Unknown `boardType` `{}`; valid values: {}",
                req.board_type,
                valid.join(", ")
            ),
            field: "boardType".into(),
            valid,
        });
    }
    let prompt = non_blank(&req.prompt);
    if prompt.is_none() && req.reference_images.is_empty() {
        return Err(ApiError::bad(
            "prompt",
            "`prompt` is required when no `referenceImages` are given",
        ));
    }
    if let Some(p) = &prompt {
        if p.chars().count() > 5000 {
            return Err(ApiError::bad(
                "prompt",
                "`prompt` is longer than 5000 characters",
            ));
        }
    }
    let n = req.num_images.unwrap_or(1);
    check_count("numImages", n, 4, BOARD_MODEL_ID)?;
    if req.reference_images.len() > MAX_BOARD_REFERENCES {
        return Err(ApiError::bad(
            "referenceImages",
            format!("At most {MAX_BOARD_REFERENCES} `referenceImages`"),
        ));
    }
    for (i, v) in req.reference_images.iter().enumerate() {
        check_reference(
            conn,
            account_id,
            v,
            &format!("referenceImages[{i}]"),
            ContentType::Image,
        )?;
    }
    Ok(Plan {
        kind: JobKind::Board,
        source: "board",
        content_type: ContentType::Image,
        model_id: BOARD_MODEL_ID.into(),
        prompt,
        text: None,
        aspect_ratio: Some("3:4".into()),
        seconds: None,
        board_type: Some(board_type),
        num_outputs: n,
        credits: BOARD_PRICE_PER_IMAGE * n as f64,
        request: serde_json::to_string(req).unwrap_or_else(|_| "{}".into()),
    })
}

// ---------------------------------------------------------------------------------------------------
// Submit, wait, reply
// ---------------------------------------------------------------------------------------------------

fn insert_job(
    conn: &Connection,
    id: &str,
    account_id: &str,
    plan: &Plan,
    ready_at_ms: i64,
) -> rusqlite::Result<()> {
    conn.execute(
        "INSERT INTO generations (id, account_id, source, job_kind, content_type, model_id, prompt, text, aspect_ratio,
             seconds, board_type, num_outputs, request, status, credits, ready_at_ms, created_at)
         VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, 'processing', ?14, ?15, ?16)",
        params![
            id,
            account_id,
            plan.source,
            plan.kind.as_str(),
            content_type_str(plan.content_type),
            plan.model_id,
            plan.prompt,
            plan.text,
            plan.aspect_ratio,
            plan.seconds,
            plan.board_type,
            plan.num_outputs,
            plan.request,
            plan.credits,
            ready_at_ms,
            time::now_str(),
        ],
    )?;
    Ok(())
}

/// Whose job `id` is, if it exists.
fn owner_of(conn: &Connection, id: &str) -> rusqlite::Result<Option<String>> {
    conn.cached_row(
        "SELECT account_id FROM generations WHERE id = ?1",
        [id],
        |r| r.get(0),
    )
    .optional()
}

/// The 409 for an `outputId` another account already used. Not a replay (that would hand over another
/// account's job) and not a 404 (the id is taken, so a retry with it can never succeed): a conflict that
/// tells the client to mint a fresh UUID.
fn taken_elsewhere() -> ApiError {
    ApiError::Conflict(
        "This `outputId` is already used by another request; mint a new UUID for a new generation"
            .into(),
    )
}

/// Charges and stores the job in one transaction. `Ok((id, true))` when `outputId` named an existing job
/// of this account (nothing charged).
fn submit(
    state: &AppState,
    account_id: &str,
    output_id: Option<String>,
    plan: &Plan,
) -> ApiResult<(String, bool)> {
    let id = output_id.unwrap_or_else(new_id);
    let ready_at = time::now_ms() + plan.kind.render_time(state).as_millis() as i64;
    state.db().tx(|tx| {
        // Checked again inside the transaction: two concurrent first submits of one outputId charge once.
        match owner_of(tx, &id)? {
            Some(owner) if owner == account_id => return Ok((id.clone(), true)),
            Some(_) => return Err(taken_elsewhere()),
            None => {}
        }
        account::charge(tx, account_id, plan.credits)?;
        insert_job(tx, &id, account_id, plan, ready_at)?;
        Ok((id.clone(), false))
    })
}

/// The generate/board reply: `GenerateResult`, plus `error` when the render failed within the wait.
#[derive(Debug, Serialize)]
struct GenerateReply {
    #[serde(flatten)]
    result: GenerateResult,
    #[serde(skip_serializing_if = "Option::is_none")]
    error: Option<String>,
}

/// Waits for the job to finish, up to `Config.smart_wait`, in short sleeps without holding the database.
/// The key is checked on every step and before answering, so a key revoked mid-wait gets 401.
async fn smart_wait(
    state: &AppState,
    caller: &Caller,
    id: &str,
    replay: bool,
) -> ApiResult<GenerateReply> {
    let deadline = Instant::now() + state.config().smart_wait;
    let job = loop {
        let job = {
            let conn = state.db().lock();
            settle(&conn, id)?;
            load_job(&conn, id)?
                .ok_or_else(|| ApiError::internal("job vanished during smart-wait"))?
        };
        caller.ensure_active(state)?;
        let now = Instant::now();
        if job.status.is_terminal() || now >= deadline {
            break job;
        }
        let until_ready = Duration::from_millis((job.ready_at_ms - time::now_ms()).max(5) as u64);
        let step = until_ready
            .min(Duration::from_millis(100))
            .min(deadline - now);
        tokio::time::sleep(step).await;
    };
    caller.ensure_active(state)?;
    let urls = {
        let conn = state.db().lock();
        output_urls(&conn, &state.origin(), id)?
    };
    let processing = !job.status.is_terminal();
    Ok(GenerateReply {
        result: GenerateResult {
            output_id: job.id.clone(),
            status: job.status.into(),
            credits_estimate: Some(job.credits),
            output_urls: urls,
            idempotent_replay: replay,
            outputs: Vec::new(),
            charge: None,
            poll_after_seconds: (processing && state.config().poll_hint)
                .then(|| poll_after(job.content_type, job.ready_at_ms)),
        },
        error: job.error.clone(),
    })
}

async fn generate(
    State(state): State<AppState>,
    caller: Caller,
    AppJson(req): AppJson<GenerateRequest>,
) -> ApiResult<Response> {
    caller.require(GENERATE)?;
    let output_id = req.output_id.as_deref().map(parse_output_id).transpose()?;
    let quote = req.get_cost == Some(true);
    // A resubmitted outputId returns its job whatever the body now says: the retry of a request that
    // went through must never fail or charge.
    if let (Some(id), false) = (&output_id, quote) {
        let owner = {
            let conn = state.db().lock();
            owner_of(&conn, id)?
        };
        match owner {
            Some(o) if o == caller.account_id => {
                return Ok(Json(smart_wait(&state, &caller, id, true).await?).into_response())
            }
            Some(_) => return Err(taken_elsewhere()),
            None => {}
        }
    }
    let plan = {
        let conn = state.db().lock();
        plan_generation(&conn, &caller.account_id, &req)?
    };
    if quote {
        return Ok(Json(CostEstimate {
            credits_estimate: plan.credits,
            get_cost: true,
            model_id: Some(plan.model_id),
            content_type: Some(plan.content_type.into()),
        })
        .into_response());
    }
    let (id, replay) = submit(&state, &caller.account_id, output_id, &plan)?;
    Ok(Json(smart_wait(&state, &caller, &id, replay).await?).into_response())
}

async fn reference_board(
    State(state): State<AppState>,
    caller: Caller,
    AppJson(req): AppJson<BoardRequest>,
) -> ApiResult<Response> {
    caller.require(GENERATE)?;
    let output_id = req.output_id.as_deref().map(parse_output_id).transpose()?;
    let quote = req.get_cost == Some(true);
    if let (Some(id), false) = (&output_id, quote) {
        let owner = {
            let conn = state.db().lock();
            owner_of(&conn, id)?
        };
        match owner {
            Some(o) if o == caller.account_id => {
                return Ok(Json(smart_wait(&state, &caller, id, true).await?).into_response())
            }
            Some(_) => return Err(taken_elsewhere()),
            None => {}
        }
    }
    let plan = {
        let conn = state.db().lock();
        plan_board(&conn, &caller.account_id, &req)?
    };
    if quote {
        return Ok(Json(CostEstimate {
            credits_estimate: plan.credits,
            get_cost: true,
            model_id: Some(plan.model_id),
            content_type: Some(plan.content_type.into()),
        })
        .into_response());
    }
    let (id, replay) = submit(&state, &caller.account_id, output_id, &plan)?;
    Ok(Json(smart_wait(&state, &caller, &id, replay).await?).into_response())
}

async fn status(
    State(state): State<AppState>,
    caller: Caller,
    Path(raw): Path<String>,
) -> ApiResult<Json<Generation>> {
    let id = parse_output_id(&raw)?;
    let conn = state.db().lock();
    settle(&conn, &id)?;
    let job = load_job(&conn, &id)?
        .filter(|j| j.account_id == caller.account_id)
        .ok_or_else(|| ApiError::not_found("Generation"))?;
    let in_progress = !job.status.is_terminal();
    let output_urls = if job.status == GenerationStatus::Completed {
        output_urls(&conn, &state.origin(), &id)?
    } else {
        Vec::new()
    };
    Ok(Json(Generation {
        output_id: job.id,
        status: job.status.into(),
        content_type: Some(job.content_type.into()),
        model_id: Some(job.model_id),
        output_urls,
        outputs: Vec::new(),
        charge: None,
        error: job.error,
        created_at: Some(job.created_at),
        completed_at: job.completed_at,
        settled: Some(!in_progress),
        poll_after_seconds: (in_progress && state.config().poll_hint)
            .then(|| poll_after(job.content_type, job.ready_at_ms)),
        // A failed render was refunded: nothing stays charged.
        credits_charged: Some(if job.status == GenerationStatus::Failed {
            0.0
        } else {
            job.credits
        }),
    }))
}

// ---------------------------------------------------------------------------------------------------
// Uploads and imports as outputs; the demo seed
// ---------------------------------------------------------------------------------------------------

/// Records an upload or import as a finished output of its account (index 1), so output tokens, cards
/// and `GET /studio/generate/{id}` find it. `file_name` is a stored file; `external_url` an import kept
/// by URL only.
#[allow(clippy::too_many_arguments)]
pub(crate) fn record_media_output(
    conn: &Connection,
    id: &str,
    account_id: &str,
    imported: bool,
    content_type: ContentType,
    label: &str,
    file_name: Option<&str>,
    external_url: Option<&str>,
) -> rusqlite::Result<()> {
    let (kind, source) = if imported {
        (JobKind::Import, "import")
    } else {
        (JobKind::Upload, "upload")
    };
    let now = time::now_str();
    conn.execute(
        "INSERT INTO generations (id, account_id, source, job_kind, content_type, model_id, prompt, num_outputs, request,
             status, credits, ready_at_ms, created_at, completed_at)
         VALUES (?1, ?2, ?3, ?4, ?5, ?3, ?6, 1, '{}', 'completed', 0, ?7, ?8, ?8)",
        params![id, account_id, source, kind.as_str(), content_type_str(content_type), label, time::now_ms(), now],
    )?;
    conn.execute(
        "INSERT INTO generation_outputs (output_id, idx, file_name, external_url) VALUES (?1, 1, ?2, ?3)",
        params![id, file_name, external_url],
    )?;
    Ok(())
}

/// This resource's part of the demo seed: two finished renders, an image and a video, so the gallery is
/// not empty. Their credits are recorded as the price but not taken from the demo balance.
pub fn seed_demo(
    conn: &rusqlite::Connection,
    account_id: &str,
    _opts: &crate::seed::DemoOptions,
) -> rusqlite::Result<()> {
    let demos = [
        Plan {
            kind: JobKind::Image,
            source: "creation",
            content_type: ContentType::Image,
            model_id: "nano-banana-2".into(),
            prompt: Some(
                "Flat lay of a creator's desk at sunrise: laptop, notebook, coffee, soft shadows"
                    .into(),
            ),
            text: None,
            aspect_ratio: Some("16:9".into()),
            seconds: None,
            board_type: None,
            num_outputs: 1,
            credits: image_price_per_output("nano-banana-2"),
            request: "{}".into(),
        },
        Plan {
            kind: JobKind::Video,
            source: "creation",
            content_type: ContentType::Video,
            model_id: "veo-3.1-fast".into(),
            prompt: Some("Slow dolly shot across a neon city skyline at dusk, light rain".into()),
            text: None,
            aspect_ratio: Some("9:16".into()),
            seconds: Some(DEFAULT_VIDEO_SECONDS),
            board_type: None,
            num_outputs: 1,
            credits: VIDEO_PRICE_PER_SECOND * DEFAULT_VIDEO_SECONDS,
            request: "{}".into(),
        },
    ];
    for plan in &demos {
        let id = new_id();
        // Due at once, then settled: the same path a real render takes to its files.
        insert_job(conn, &id, account_id, plan, 0)?;
        settle(conn, &id)?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tokens_parse_in_every_documented_form() {
        let id = "0b7e2a52-3c1d-4f7e-9a55-8d2f7c0e9b11";
        assert_eq!(parse_token(id), Some((TokenId::Full(id.into()), None)));
        assert_eq!(
            parse_token(&format!("{id}-2")),
            Some((TokenId::Full(id.into()), Some(2)))
        );
        assert_eq!(
            parse_token(&id.to_uppercase()),
            Some((TokenId::Full(id.into()), None))
        );
        assert_eq!(
            parse_token("0b7e2a52"),
            Some((TokenId::Prefix("0b7e2a52".into()), None))
        );
        assert_eq!(
            parse_token("0b7e2a52-3"),
            Some((TokenId::Prefix("0b7e2a52".into()), Some(3)))
        );
        assert_eq!(parse_token(&format!("{id}-0")), None);
        assert_eq!(parse_token("not-a-token"), None);
        assert_eq!(parse_token("0b7e2a52x"), None);
        assert_eq!(parse_token("éééééééééééééééééééééééééééééééééééééé"), None);
    }
}
