//! Generations (`generations`, `generation_outputs`): a stored job and its outputs, output tokens resolved
//! to an output the caller owns, uploads and imports recorded as outputs, and a due job settled into its
//! placeholder files.
use crate::db::CachedRow as _;
use crate::error::{ApiError, ApiResult};
use crate::media_files::{self, RenderedFile};
use crate::tables::{accounts, files};
use crate::state::AppState;
use crate::time;
use std::time::Duration;
use api_types::{ContentType, GenerationStatus};
use rusqlite::{params, Connection, OptionalExtension};

mod render;
mod tokens;
pub use render::*;
pub use tokens::*;

/// Sandbox-only: a prompt or speech text containing this renders as `failed`, and the credits come back.
pub const FAIL_MARKER: &str = "[sandbox:fail]";

/// Longest placeholder audio file, in seconds (the music model's longest track).
pub const MAX_AUDIO_RENDER_SECONDS: f64 = 120.0;

/// What a job renders; decides the render time, the placeholder file and the poll hint.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum JobKind {
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
    pub fn as_str(self) -> &'static str {
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

    pub fn parse(s: &str) -> JobKind {
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

    pub fn render_time(self, state: &AppState) -> Duration {
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

pub fn content_type_str(c: ContentType) -> &'static str {
    c.as_str()
}

pub fn parse_content_type(s: &str) -> ContentType {
    match s {
        "video" => ContentType::Video,
        "audio" => ContentType::Audio,
        _ => ContentType::Image,
    }
}

pub fn parse_status(s: &str) -> GenerationStatus {
    match s {
        "completed" => GenerationStatus::Completed,
        "failed" => GenerationStatus::Failed,
        "pending" => GenerationStatus::Pending,
        _ => GenerationStatus::Processing,
    }
}

/// A stored job.
#[derive(Debug, Clone)]
pub struct Job {
    pub id: String,
    pub account_id: String,
    pub kind: JobKind,
    pub content_type: ContentType,
    pub model_id: String,
    pub prompt: Option<String>,
    pub text: Option<String>,
    pub aspect_ratio: Option<String>,
    pub seconds: Option<f64>,
    pub board_type: Option<String>,
    pub num_outputs: u32,
    pub status: GenerationStatus,
    pub error: Option<String>,
    pub credits: f64,
    pub ready_at_ms: i64,
    pub created_at: String,
    pub completed_at: Option<String>,
}

pub const JOB_COLUMNS: &str =
    "id, account_id, job_kind, content_type, model_id, prompt, text, aspect_ratio, seconds, \
     board_type, num_outputs, status, error, credits, ready_at_ms, created_at, completed_at";

pub fn job_from_row(r: &rusqlite::Row) -> rusqlite::Result<Job> {
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

pub fn load_job(conn: &Connection, id: &str) -> rusqlite::Result<Option<Job>> {
    conn.cached_row(
        &format!("SELECT {JOB_COLUMNS} FROM generations WHERE id = ?1"),
        [id],
        job_from_row,
    )
    .optional()
}

/// `(idx, file_name, external_url)` of one output.
pub type OutputRow = (u32, Option<String>, Option<String>);

/// A job's outputs, in order.
pub fn output_rows(conn: &Connection, id: &str) -> rusqlite::Result<Vec<OutputRow>> {
    let mut stmt =
        conn.prepare_cached("SELECT idx, file_name, external_url FROM generation_outputs WHERE output_id = ?1 ORDER BY idx")?;
    let rows = stmt.query_map([id], |r| {
        Ok((r.get::<_, i64>(0)? as u32, r.get(1)?, r.get(2)?))
    })?;
    rows.collect()
}

pub fn output_url(origin: &str, file_name: &Option<String>, external: &Option<String>) -> String {
    match (external, file_name) {
        (Some(url), _) => url.clone(),
        (None, Some(name)) => files::file_url(origin, name),
        (None, None) => String::new(),
    }
}

pub fn output_urls(
    conn: &Connection,
    origin: &str,
    id: &str,
) -> rusqlite::Result<Vec<String>> {
    Ok(output_rows(conn, id)?
        .iter()
        .map(|(_, f, e)| output_url(origin, f, e))
        .collect())
}

/// Records an upload or import as a finished output of its account (index 1), so output tokens, cards
/// and `GET /studio/generate/{id}` find it. `file_name` is a stored file; `external_url` an import kept
/// by URL only.
#[allow(clippy::too_many_arguments)]
pub fn record_media_output(
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
