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
use crate::state::AppState;
use crate::time;
use api_types::scopes::GENERATE;
use api_types::{
    BoardRequest, ContentType, CostEstimate, GenerateRequest, GenerateResult, Generation,
    GenerationStatus, ModelInfo, ModelKind, BOARD_TYPES,
};
use axum::extract::{Path, State};
use axum::response::{IntoResponse, Response};
use axum::Json;
use rusqlite::{params, Connection, OptionalExtension};
use serde::Serialize;
use std::time::{Duration, Instant};

/// A video with sound (`audioEnabled: true`) costs half as much again.
mod generation;
mod plan;
pub(crate) mod reply;
mod seed;
use generation::*;
use plan::*;
use reply::*;
pub use seed::*;
pub use crate::tables::generations::FAIL_MARKER;
use crate::tables::generations::*;

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

/// The pseudo model id of reference boards (a pipeline, not a registry model: fact sheet 2.3).
pub const BOARD_MODEL_ID: &str = "reference-board";

/// Longest speech text.
const MAX_TEXT_CHARS: usize = 5000;
/// Longest reference list of a board.
const MAX_BOARD_REFERENCES: usize = 8;
/// Default clip length of a video generation when `duration` is absent, kept inside the model's range.
const DEFAULT_VIDEO_SECONDS: f64 = 5.0;
/// Speaking rate used to length speech from text (about 150 words a minute).
const SPEECH_CHARS_PER_SECOND: f64 = 15.0;
/// The length a lip-sync from `references.audio` is priced on when `durationSeconds` is not given (the
/// sandbox does not read the clip): the official client sends the length only to improve the estimate.
pub(crate) const LIP_SYNC_ESTIMATE_SECONDS: f64 = 10.0;

// ---------------------------------------------------------------------------------------------------
// Prices. The registry carries none (fact sheet 3.13); these are the sandbox's, in credits:
//   image generation     4 per output (nano-banana-pro and flux-2-pro: 8 per output)
//   image upscale        8
//   video generation     5 per second (rounded up) per generation; `duration` defaults to 5 s
//   video upscale        8
//   lip-sync             6 per second of speech (rounded up): `durationSeconds`, else the text's length
//                        at 15 characters a second, else (a clip of unknown length) 10 s
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
