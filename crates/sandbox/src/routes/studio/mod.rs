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
mod plan;
mod render;
mod reply;
mod seed;
mod tokens;
use plan::*;
pub(crate) use render::*;
use reply::*;
pub use seed::*;
pub use tokens::*;

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
