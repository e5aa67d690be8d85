//! The account's media library: `GET /media` (fact sheet 2.4; `MediaSummary` in 3), newest first, one
//! entry per output (variant) of the caller's own generations, boards, uploads and imports.
//!
//! It reads the tables the studio and media routes write (`generations`, `generation_outputs`): renders
//! and boards are `creations`, uploads and imports are `uploads`, and the sandbox holds no `stock`. Jobs
//! whose render time has passed are settled first, as `GET /studio/generate/{id}` does, so a render made
//! elsewhere shows as completed with its file. A job still processing (or failed) lists one entry per
//! requested output with no `url`. Reads need no scope (fact sheet 1.4, "safest model").
use crate::auth::Caller;
use crate::error::{ApiError, ApiResult};
use crate::extract::AppQuery;
use crate::state::AppState;
use crate::time;
use api_types::{MediaList, MediaQuery, MediaSummary};
use axum::extract::State;
use axum::Json;
use rusqlite::Connection;
use crate::tables::{files, generations};

const DEFAULT_LIMIT: u32 = 50;
const MAX_LIMIT: u32 = 100;

pub const SOURCES: &[&str] = &["creations", "uploads", "stock", "all"];
pub const MEDIA_TYPES: &[&str] = &["image", "video", "audio", "transcript"];
pub const STATUSES: &[&str] = &["processing", "completed", "failed"];
pub const KINDS: &[&str] = &["creation", "board", "look", "upload"];

/// The `generations.source` values a library `source` covers.
fn sources_of(source: &str) -> &'static [&'static str] {
    match source {
        "creations" => &["creation", "board"],
        "uploads" => &["upload", "import"],
        "all" => &["creation", "board", "upload", "import"],
        _ => &[],
    }
}

/// The `generations.source` values a library `kind` covers (the sandbox makes no looks).
fn sources_of_kind(kind: &str) -> &'static [&'static str] {
    match kind {
        "creation" => &["creation"],
        "board" => &["board"],
        "upload" => &["upload", "import"],
        _ => &[],
    }
}

fn one_of(field: &str, value: &str, valid: &[&str]) -> ApiResult<String> {
    let v = value.trim().to_ascii_lowercase();
    if valid.contains(&v.as_str()) {
        return Ok(v);
    }
    Err(ApiError::InvalidValue {
        message: format!("Unknown `{field}` `{value}`; valid values: {}", valid.join(", ")),
        field: field.into(),
        valid: valid.iter().map(|s| s.to_string()).collect(),
    })
}

/// A checked query: which generation sources, content types and status to list, and the page.
#[derive(Debug)]
struct Filter {
    sources: Vec<&'static str>,
    content_types: Option<Vec<&'static str>>,
    status: Option<&'static str>,
    limit: u32,
    offset: u32,
}

impl Filter {
    fn from_query(q: &MediaQuery) -> ApiResult<Filter> {
        // Out of range is a 400 naming `limit`, as on `/cards` and `/content` (never clamped).
        let limit = q.limit.unwrap_or(DEFAULT_LIMIT);
        if !(1..=MAX_LIMIT).contains(&limit) {
            return Err(ApiError::bad("limit", format!("`limit` must be between 1 and {MAX_LIMIT}; got {limit}")));
        }
        let source = one_of("source", q.source.as_deref().unwrap_or("creations"), SOURCES)?;
        let mut sources: Vec<&'static str> = sources_of(&source).to_vec();
        if let Some(kind) = &q.kind {
            let kind = one_of("kind", kind, KINDS)?;
            let of_kind = sources_of_kind(&kind);
            sources.retain(|s| of_kind.contains(s));
        }
        let content_types = match &q.content_type {
            None => None,
            Some(csv) => {
                let parts: Vec<&str> = csv.split(',').map(str::trim).filter(|p| !p.is_empty()).collect();
                if parts.is_empty() {
                    return Err(ApiError::bad(
                        "contentType",
                        "`contentType` is empty; give image, video, audio or transcript (comma-separated)",
                    ));
                }
                let mut types = Vec::new();
                for part in parts {
                    let t = one_of("contentType", part, MEDIA_TYPES)?;
                    // The sandbox makes no transcripts: that type matches nothing.
                    types.extend(["image", "video", "audio"].into_iter().find(|k| *k == t));
                }
                Some(types)
            }
        };
        let status = match &q.status {
            None => None,
            Some(s) => {
                let s = one_of("status", s, STATUSES)?;
                STATUSES.iter().copied().find(|v| *v == s)
            }
        };
        Ok(Filter { sources, content_types, status, limit, offset: q.offset.unwrap_or(0) })
    }

    /// True when nothing can match (no stock in the sandbox, a kind outside the source, …).
    fn matches_nothing(&self) -> bool {
        self.sources.is_empty() || self.content_types.as_ref().is_some_and(|t| t.is_empty())
    }
}

pub(crate) async fn list(
    State(state): State<AppState>,
    caller: Caller,
    AppQuery(q): AppQuery<MediaQuery>,
) -> ApiResult<Json<MediaList>> {
    let filter = Filter::from_query(&q)?;
    if filter.matches_nothing() {
        return Ok(Json(MediaList { media: Vec::new() }));
    }
    let origin = state.origin();
    let conn = state.db().lock();
    settle_due(&conn, &caller.account_id)?;
    let media = list_media(&conn, &origin, &caller.account_id, &filter)?;
    Ok(Json(MediaList { media }))
}

/// Settles the account's jobs whose render time has passed.
fn settle_due(conn: &Connection, account_id: &str) -> rusqlite::Result<()> {
    let due: Vec<String> = {
        let mut stmt = conn.prepare_cached(
            "SELECT id FROM generations WHERE account_id = ?1 AND status = 'processing' AND ready_at_ms <= ?2",
        )?;
        let rows = stmt.query_map(rusqlite::params![account_id, time::now_ms()], |r| r.get(0))?;
        rows.collect::<Result<_, _>>()?
    };
    for id in due {
        generations::settle(conn, &id)?;
    }
    Ok(())
}

/// `'a', 'b'` from whitelisted values (never from the request's text).
fn sql_list(values: &[&'static str]) -> String {
    values.iter().map(|v| format!("'{v}'")).collect::<Vec<_>>().join(", ")
}

fn list_media(conn: &Connection, origin: &str, account_id: &str, f: &Filter) -> rusqlite::Result<Vec<MediaSummary>> {
    let mut conditions = vec!["g.account_id = ?1".to_string(), format!("g.source IN ({})", sql_list(&f.sources))];
    if let Some(types) = &f.content_types {
        conditions.push(format!("g.content_type IN ({})", sql_list(types)));
    }
    if let Some(status) = f.status {
        conditions.push(format!("g.status = '{status}'"));
    }
    // One row per output slot: `slots` counts up to the account's largest generation.
    let sql = format!(
        "WITH RECURSIVE slots(n) AS (
             SELECT 1
             UNION ALL
             SELECT n + 1 FROM slots
             WHERE n < (SELECT COALESCE(MAX(num_outputs), 1) FROM generations WHERE account_id = ?1)
         )
         SELECT g.id, g.source, g.content_type, g.model_id, g.prompt, g.text, g.status, g.created_at, s.n,
                o.file_name, o.external_url, g.num_outputs, g.board_type, g.seconds
         FROM generations g
         JOIN slots s ON s.n <= g.num_outputs
         LEFT JOIN generation_outputs o ON o.output_id = g.id AND o.idx = s.n
         WHERE {}
         ORDER BY g.created_at DESC, g.rowid DESC, s.n
         LIMIT {} OFFSET {}",
        conditions.join(" AND "),
        f.limit,
        f.offset
    );
    let mut stmt = conn.prepare(&sql)?;
    let rows = stmt.query_map([account_id], |r| {
        let source: String = r.get(1)?;
        let content_type: String = r.get(2)?;
        let model_id: String = r.get(3)?;
        let prompt: Option<String> = r.get(4)?;
        let text: Option<String> = r.get(5)?;
        let status: String = r.get(6)?;
        let slot: i64 = r.get(8)?;
        let file_name: Option<String> = r.get(9)?;
        let external_url: Option<String> = r.get(10)?;
        let seconds: Option<f64> = r.get(13)?;
        let uploaded = source == "upload" || source == "import";
        let url = match (external_url, file_name) {
            (Some(url), _) => Some(url),
            (None, Some(name)) => Some(files::file_url(origin, &name)),
            (None, None) => None,
        };
        let (kind, library_source) = match source.as_str() {
            "board" => ("board", "creations"),
            "upload" | "import" => ("upload", "uploads"),
            _ => ("creation", "creations"),
        };
        Ok(MediaSummary {
            id: r.get(0)?,
            r#type: content_type.clone(),
            // Uploads and imports keep their label (the file's name or URL) where a render keeps its prompt.
            model: (!uploaded).then_some(model_id),
            prompt: if uploaded { None } else { prompt.clone().or(text) },
            status,
            created_at: r.get(7)?,
            variant: (slot - 1).max(0) as u32,
            media_id: None,
            url,
            generation_size: Some(r.get::<_, i64>(11)?.max(1) as u32),
            is_favorited: false,
            kind: Some(kind.into()),
            board_type: r.get(12)?,
            source: Some(library_source.into()),
            file_name: if uploaded { prompt } else { None },
            duration_seconds: if content_type == "image" || uploaded { None } else { seconds },
        })
    })?;
    rows.collect()
}
