//! Media: uploads (`POST /media/uploads`, a PUT of the bytes, `POST /media/uploads/{outputId}/complete`),
//! imports (`POST /media/imports`, idempotent by content) and the stored files themselves.
//!
//! Every file the sandbox serves (renders, uploads, imports) is a BLOB in the one SQLite file, served at
//! `{origin}/files/{name}` with no auth: those routes and the upload PUT stand in for object storage and
//! its CDN, which take no API key either (fact sheet 2.4). Uploaded and imported media become outputs the
//! caller owns (index 1), so output tokens and cards resolve them like renders.
//!
//! Imports: the sandbox cannot reach the internet. It fetches only `data:` URLs and URLs of its own
//! files (`{origin}/files/...`); any other http(s) URL is recorded without fetching, served as that URL,
//! and de-duplicated by a hash of the URL instead of the content.
use crate::db::CachedRow as _;
use crate::auth::Caller;
use crate::db::new_id;
use crate::error::{ApiError, ApiResult};
use crate::extract::{read_body, AppJson};
use crate::state::AppState;
use crate::time;
use api_types::scopes::ASSETS_WRITE;
use api_types::{
    ContentType, CreateUpload, ImportMedia, ImportedMedia, UploadTicket, UploadedMedia,
};
use axum::extract::{DefaultBodyLimit, Path, Request, State};
use axum::http::{header, HeaderMap, HeaderValue, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, put};
use axum::{Json, Router};
use base64::Engine;
use rand::distributions::Alphanumeric;
use rand::Rng;
use rusqlite::{params, Connection, OptionalExtension};
use sha2::{Digest, Sha256};
use std::collections::BTreeMap;

pub const SCHEMA: &str = "
CREATE TABLE IF NOT EXISTS stored_files (
    name TEXT PRIMARY KEY,
    account_id TEXT NOT NULL,
    mime TEXT NOT NULL,
    bytes BLOB NOT NULL,
    sha256 TEXT NOT NULL,
    -- 1 for placeholder renders: served with X-Sandbox-Render: true
    sandbox_render INTEGER NOT NULL DEFAULT 0,
    created_at TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS uploads (
    output_id TEXT PRIMARY KEY,
    account_id TEXT NOT NULL REFERENCES accounts(id),
    token TEXT NOT NULL UNIQUE,
    file_name TEXT NOT NULL,
    mime TEXT NOT NULL,
    size_bytes INTEGER,
    expires_at_ms INTEGER NOT NULL,
    -- what the PUT delivered; NULL until then
    bytes BLOB,
    completed_at TEXT,
    created_at TEXT NOT NULL
);
CREATE INDEX IF NOT EXISTS uploads_pending ON uploads (expires_at_ms) WHERE completed_at IS NULL;
CREATE TABLE IF NOT EXISTS media_imports (
    account_id TEXT NOT NULL,
    -- sha256 of the content, or of 'url:' + the URL when it was not fetched
    hash TEXT NOT NULL,
    output_id TEXT NOT NULL,
    created_at TEXT NOT NULL,
    PRIMARY KEY (account_id, hash)
);
CREATE TABLE IF NOT EXISTS storage_origin (
    id INTEGER PRIMARY KEY CHECK (id = 1),
    origin TEXT NOT NULL
);
";

mod files;
pub(crate) mod imports;
use files::*;
use crate::tables::generations;
use crate::tables::files::{file_url, store_file};

/// Routes outside `/api/v1` that stand in for object storage: upload PUTs and stored files.
pub fn storage_router(state: &AppState) -> Router<AppState> {
    record_origin(state);
    let conn = state.db().lock();
    if let Err(e) = purge_expired_uploads(&conn, time::now_ms()) {
        tracing::warn!(%e, "could not purge expired uploads");
    }
    match crate::oauth::purge_expired(&conn, crate::oauth::now_s()) {
        Ok(0) => {}
        Ok(n) => tracing::info!(purged = n, "expired OAuth codes and tokens purged"),
        Err(e) => tracing::warn!(%e, "could not purge expired OAuth codes and tokens"),
    }
    drop(conn);
    Router::new()
        .route(
            "/uploads/{token}",
            put(put_upload).layer(DefaultBodyLimit::max(state.config().max_upload_bytes)),
        )
        .route("/files/{name}", get(serve_file))
}

/// Keeps the serving origin in the database, for code that builds file URLs with only a connection
/// (`generations::resolve_output`). Called when the router is built, which is after the port is bound.
fn record_origin(state: &AppState) {
    let conn = state.db().lock();
    if let Err(e) = conn.execute(
        "INSERT INTO storage_origin (id, origin) VALUES (1, ?1) ON CONFLICT(id) DO UPDATE SET origin = excluded.origin",
        [state.origin()],
    ) {
        tracing::warn!(%e, "could not record the storage origin");
    }
}

/// Deletes every upload ticket that expired before `now_ms` without being completed, with the bytes its PUT
/// delivered; answers how many. A completed upload keeps its record (its bytes already moved to
/// `stored_files`).
pub fn purge_expired_uploads(conn: &Connection, now_ms: i64) -> rusqlite::Result<usize> {
    let n = conn.execute("DELETE FROM uploads WHERE completed_at IS NULL AND expires_at_ms < ?1", [now_ms])?;
    if n > 0 {
        tracing::info!(purged = n, "expired uploads purged");
    }
    Ok(n)
}

/// `image/png; charset=x` → `image/png`, lower case.
fn mime_essence(mime: &str) -> String {
    mime.split(';')
        .next()
        .unwrap_or("")
        .trim()
        .to_ascii_lowercase()
}

/// The content type of a MIME type, if it is media the studio handles.
fn media_kind(mime: &str) -> Option<ContentType> {
    match mime_essence(mime).split('/').next()? {
        "image" => Some(ContentType::Image),
        "video" => Some(ContentType::Video),
        "audio" => Some(ContentType::Audio),
        _ => None,
    }
}

/// A file extension for a stored file: the name's own when it has a plain one, else from the MIME type.
fn extension(file_name: Option<&str>, mime: &str) -> String {
    let from_name = file_name
        .and_then(|n| n.rsplit_once('.'))
        .map(|(_, e)| e.to_ascii_lowercase())
        .filter(|e| !e.is_empty() && e.len() <= 5 && e.chars().all(|c| c.is_ascii_alphanumeric()));
    from_name.unwrap_or_else(|| {
        match mime_essence(mime).as_str() {
            "image/png" => "png",
            "image/jpeg" => "jpg",
            "image/webp" => "webp",
            "image/gif" => "gif",
            "video/mp4" => "mp4",
            "video/webm" => "webm",
            "video/quicktime" => "mov",
            "audio/wav" | "audio/x-wav" | "audio/wave" => "wav",
            "audio/mpeg" => "mp3",
            "audio/mp4" | "audio/x-m4a" => "m4a",
            "audio/ogg" => "ogg",
            _ => "bin",
        }
        .to_string()
    })
}

/// The media kind a URL's extension suggests.
fn kind_from_extension(url: &str) -> Option<ContentType> {
    let path = url.split(['?', '#']).next().unwrap_or("");
    let ext = path.rsplit_once('.')?.1.to_ascii_lowercase();
    match ext.as_str() {
        "png" | "jpg" | "jpeg" | "webp" | "gif" | "avif" | "heic" => Some(ContentType::Image),
        "mp4" | "mov" | "webm" | "m4v" | "mkv" => Some(ContentType::Video),
        "mp3" | "wav" | "m4a" | "aac" | "ogg" | "flac" => Some(ContentType::Audio),
        _ => None,
    }
}

// ---------------------------------------------------------------------------------------------------
// Uploads
// ---------------------------------------------------------------------------------------------------

pub(crate) async fn create_upload(
    State(state): State<AppState>,
    caller: Caller,
    AppJson(req): AppJson<CreateUpload>,
) -> ApiResult<Json<UploadTicket>> {
    caller.require(ASSETS_WRITE)?;
    let file_name = req.file_name.trim().to_string();
    if file_name.is_empty() || file_name.chars().count() > 255 {
        return Err(ApiError::bad(
            "fileName",
            "`fileName` must be 1 to 255 characters",
        ));
    }
    let mime = mime_essence(&req.content_type);
    let valid_mime = mime
        .split_once('/')
        .is_some_and(|(a, b)| !a.is_empty() && !b.is_empty());
    if !valid_mime || media_kind(&mime).is_none() {
        return Err(ApiError::bad(
            "contentType",
            format!(
                "`contentType` must be an image/, video/ or audio/ MIME type; got `{}`",
                req.content_type
            ),
        ));
    }
    let max = state.config().max_upload_bytes as u64;
    if let Some(size) = req.size_bytes {
        if size > max {
            return Err(ApiError::bad(
                "sizeBytes",
                format!("`sizeBytes` {size} is over the upload limit of {max} bytes"),
            ));
        }
    }
    let output_id = new_id();
    let token: String = rand::thread_rng()
        .sample_iter(&Alphanumeric)
        .take(40)
        .map(char::from)
        .collect();
    let now_ms = time::now_ms();
    let expires_ms = now_ms + state.config().upload_ttl.as_millis() as i64;
    let expires_at = time::fmt(
        ::time::OffsetDateTime::from_unix_timestamp_nanos(expires_ms as i128 * 1_000_000)
            .unwrap_or_else(|_| time::now()),
    );
    {
        let conn = state.db().lock();
        // Each upload start clears the ones abandoned before it.
        purge_expired_uploads(&conn, now_ms)?;
        conn.execute(
            "INSERT INTO uploads (output_id, account_id, token, file_name, mime, size_bytes, expires_at_ms, created_at)
             VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8)",
            params![output_id, caller.account_id, token, file_name, mime, req.size_bytes.map(|s| s as i64), expires_ms, time::now_str()],
        )?;
    }
    let safe_name: String = file_name
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || "._-".contains(c) {
                c
            } else {
                '_'
            }
        })
        .collect();
    Ok(Json(UploadTicket {
        upload_url: format!("{}/uploads/{token}", state.origin()),
        upload_headers: Some(BTreeMap::from([("Content-Type".to_string(), mime.clone())])),
        storage_path: Some(format!(
            "uploads/{}/{output_id}/{safe_name}",
            caller.account_id
        )),
        expires_at: Some(expires_at),
        output_id,
    }))
}

/// The storage PUT: raw bytes, no auth (the token in the URL is the credential), the ticket's
/// Content-Type, at most `Config.max_upload_bytes` (413 past it). A second PUT before completion
/// replaces the first, as object storage does.
async fn put_upload(
    State(state): State<AppState>,
    Path(token): Path<String>,
    headers: HeaderMap,
    req: Request,
) -> ApiResult<Response> {
    let ticket: Option<(String, String, i64, Option<String>)> = {
        let conn = state.db().lock();
        conn.cached_row(
            "SELECT output_id, mime, expires_at_ms, completed_at FROM uploads WHERE token = ?1",
            [&token],
            |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?, r.get(3)?)),
        )
        .optional()?
    };
    let (output_id, mime, expires_ms, completed) =
        ticket.ok_or_else(|| ApiError::not_found("Upload"))?;
    if completed.is_some() {
        return Err(ApiError::Conflict(
            "This upload is already completed; request a new upload URL".into(),
        ));
    }
    if time::now_ms() > expires_ms {
        return Err(ApiError::bad(
            "uploadUrl",
            "The upload URL has expired; request a new one with POST /media/uploads",
        ));
    }
    let sent = headers
        .get(header::CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .map(mime_essence)
        .unwrap_or_default();
    if sent != mime {
        return Err(ApiError::bad(
            "Content-Type",
            format!("The PUT must carry `Content-Type: {mime}` (from uploadHeaders); got `{sent}`"),
        ));
    }
    let bytes = read_body(req, &state).await?;
    if bytes.len() > state.config().max_upload_bytes {
        return Err(ApiError::TooLarge);
    }
    {
        let conn = state.db().lock();
        conn.execute(
            "UPDATE uploads SET bytes = ?2 WHERE output_id = ?1",
            params![output_id, bytes.as_ref()],
        )?;
    }
    let etag = format!("\"{}\"", hex::encode(Sha256::digest(&bytes)));
    let mut resp = StatusCode::OK.into_response();
    if let Ok(v) = HeaderValue::from_str(&etag) {
        resp.headers_mut().insert(header::ETAG, v);
    }
    Ok(resp)
}

/// `(file_name, mime, bytes, completed_at)` of an upload ticket.
type UploadRow = (String, String, Option<Vec<u8>>, Option<String>);

pub(crate) async fn complete_upload(
    State(state): State<AppState>,
    caller: Caller,
    Path(raw): Path<String>,
) -> ApiResult<Json<UploadedMedia>> {
    caller.require(ASSETS_WRITE)?;
    let not_found = || ApiError::not_found("Upload");
    let output_id = uuid::Uuid::parse_str(raw.trim())
        .map_err(|_| not_found())?
        .hyphenated()
        .to_string();
    let origin = state.origin();
    state.db().tx(|tx| {
        let row: Option<UploadRow> = tx
            .cached_row(
                "SELECT file_name, mime, bytes, completed_at FROM uploads WHERE output_id = ?1 AND account_id = ?2",
                params![output_id, caller.account_id],
                |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?, r.get(3)?)),
            )
            .optional()?;
        let (file_name, mime, bytes, completed) = row.ok_or_else(not_found)?;
        let name = format!("{output_id}-1.{}", extension(Some(&file_name), &mime));
        // Completing twice answers the same: the client may retry after a lost reply.
        if completed.is_some() {
            return Ok(Json(UploadedMedia { output_id: output_id.clone(), url: file_url(&origin, &name) }));
        }
        let bytes = bytes.ok_or_else(|| {
            ApiError::bad("uploadUrl", "No bytes were uploaded for this outputId: PUT the file to its uploadUrl first")
        })?;
        let kind = media_kind(&mime).unwrap_or(ContentType::Image);
        store_file(tx, &name, &caller.account_id, &mime, &bytes, false)?;
        generations::record_media_output(tx, &output_id, &caller.account_id, false, kind, &file_name, Some(&name), None)?;
        // The bytes now live in stored_files; the ticket keeps only its record.
        tx.execute(
            "UPDATE uploads SET completed_at = ?2, bytes = NULL WHERE output_id = ?1",
            params![output_id, time::now_str()],
        )?;
        Ok(Json(UploadedMedia { output_id: output_id.clone(), url: file_url(&origin, &name) }))
    })
}
