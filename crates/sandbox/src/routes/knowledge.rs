//! A brand kit's knowledge base (`/brand-kits/{id}/knowledge`, fact sheet 2.14 and 3.7): material added
//! as text, a web page, a YouTube video or a file, chunked for search.
//!
//! - Text, and the text of small text-like files sent as base64 `fileData`, is chunked (~500 characters
//!   at paragraph and sentence boundaries) and searchable at once.
//! - `url`, `youtube` and hosted `fileUrl` items are recorded with their address but not fetched: the
//!   sandbox does not reach the internet, so they hold no text and search does not find them.
//! - Images and binary documents (pdf, docx) sent as `fileData` are stored by size and type; the sandbox
//!   extracts no text from them unless they are plain UTF-8.
//! - Search scores every chunk of the kit against the query with a real lexical similarity (IDF-weighted
//!   coverage of the query's terms blended with TF-IDF cosine), 0 to 1, best first.
//! - Adding is capped per kit (`Config::knowledge_cap`); at the cap the answer is 402 with
//!   `limitReached: true` and nothing is added (docs/api.md).
use crate::db::CachedRow as _;
use crate::auth::Caller;
use crate::db::new_id;
use crate::error::{ApiError, ApiResult};
use crate::extract::{AppJson, AppQuery};
use crate::routes::brand_kits;
use crate::state::AppState;
use crate::time;
use api_types::scopes::{BRANDKIT_READ, BRANDKIT_WRITE};
use api_types::{
    AddKnowledge, KnowledgeAdded, KnowledgeEnvelope, KnowledgeItem, KnowledgeList, KnowledgeMatch,
    KnowledgeRef, KnowledgeSearch, KNOWLEDGE_SOURCE_TYPES,
};
use axum::extract::{Path, State};
use axum::routing::get;
use axum::{Json, Router};
use base64::Engine;
use rusqlite::{params, Connection, OptionalExtension};
use serde::{Deserialize, Serialize};
use std::collections::{HashMap, HashSet};

pub const SCHEMA: &str = "
CREATE TABLE IF NOT EXISTS knowledge_items (
    id TEXT PRIMARY KEY,
    brand_kit_id TEXT NOT NULL REFERENCES brand_kits(id),
    title TEXT,
    source_type TEXT NOT NULL,
    source_url TEXT,
    file_ext TEXT,
    size_bytes INTEGER,
    content TEXT NOT NULL DEFAULT '',
    created_at TEXT NOT NULL,
    updated_at TEXT NOT NULL
);
CREATE INDEX IF NOT EXISTS knowledge_items_by_kit ON knowledge_items(brand_kit_id);
CREATE TABLE IF NOT EXISTS knowledge_chunks (
    knowledge_id TEXT NOT NULL REFERENCES knowledge_items(id) ON DELETE CASCADE,
    chunk_index INTEGER NOT NULL,
    content TEXT NOT NULL,
    PRIMARY KEY (knowledge_id, chunk_index)
);
";

/// `(method, path)` of every route this module serves under `/api/v1` (kept in step with
/// `docs/openapi.yaml` by a test).
pub const ROUTES: &[(&str, &str)] = &[
    ("GET", "/brand-kits/{id}/knowledge"),
    ("POST", "/brand-kits/{id}/knowledge"),
    ("GET", "/brand-kits/{id}/knowledge/search"),
    ("GET", "/brand-kits/{id}/knowledge/{knowledgeId}"),
    ("DELETE", "/brand-kits/{id}/knowledge/{knowledgeId}"),
];

/// Small documents and images may come as base64 `fileData`.
pub const FILE_DATA_EXTS: &[&str] = &[
    "pdf", "txt", "md", "markdown", "csv", "json", "html", "htm", "rtf", "doc", "docx", "png",
    "jpg", "jpeg", "webp", "gif",
];
/// Video and audio only by hosted `fileUrl` (spec §4 "Knowledge base").
const MEDIA_EXTS: &[&str] = &[
    "mp4", "mov", "m4v", "webm", "avi", "mkv", "mp3", "wav", "m4a", "aac", "ogg", "flac", "opus",
];
/// `fileData` whose bytes are text as they are.
const TEXT_EXTS: &[&str] = &["txt", "md", "markdown", "csv", "json", "html", "htm", "rtf"];

/// Paging and search defaults (fact sheet 1.7, 2.14).
const LIST_DEFAULT_LIMIT: i64 = 50;
const LIST_MAX_LIMIT: i64 = 100;
const SEARCH_DEFAULT_LIMIT: i64 = 8;
const SEARCH_MAX_LIMIT: i64 = 50;
const SEARCH_DEFAULT_THRESHOLD: f64 = 0.45;
/// Target size of a chunk, in characters.
const CHUNK_CHARS: usize = 500;
/// The detail read's `content` is capped (fact sheet 3.7: "capped anchor text").
const DETAIL_CONTENT_CHARS: usize = 50_000;
const PREVIEW_CHARS: usize = 160;

pub fn router() -> Router<AppState> {
    Router::new()
        .route("/brand-kits/{id}/knowledge", get(list_items).post(add_item))
        .route("/brand-kits/{id}/knowledge/search", get(search))
        .route(
            "/brand-kits/{id}/knowledge/{knowledgeId}",
            get(read_item).delete(delete_item),
        )
}

// ---------------------------------------------------------------------------------------------------
// Handlers
// ---------------------------------------------------------------------------------------------------

#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
struct ListQuery {
    #[serde(default)]
    limit: Option<i64>,
    #[serde(default)]
    offset: Option<i64>,
}

async fn list_items(
    State(state): State<AppState>,
    caller: Caller,
    Path(kit_id): Path<String>,
    AppQuery(q): AppQuery<ListQuery>,
) -> ApiResult<Json<KnowledgeList>> {
    caller.require(BRANDKIT_READ)?;
    let limit = q.limit.unwrap_or(LIST_DEFAULT_LIMIT);
    if !(1..=LIST_MAX_LIMIT).contains(&limit) {
        return Err(ApiError::bad(
            "limit",
            format!("`limit` must be between 1 and {LIST_MAX_LIMIT}"),
        ));
    }
    let offset = q.offset.unwrap_or(0);
    if offset < 0 {
        return Err(ApiError::bad("offset", "`offset` cannot be negative"));
    }
    let conn = state.db().lock();
    brand_kits::owns_kit(&conn, &caller.account_id, &kit_id)?;
    let total: i64 = conn.cached_row(
        "SELECT COUNT(*) FROM knowledge_items WHERE brand_kit_id = ?1",
        [&kit_id],
        |r| r.get(0),
    )?;
    let mut stmt = conn.prepare_cached(&format!(
        "SELECT {ITEM_COLUMNS} FROM knowledge_items WHERE brand_kit_id = ?1
         ORDER BY created_at DESC, rowid DESC LIMIT ?2 OFFSET ?3"
    ))?;
    let items: Vec<KnowledgeItem> = stmt
        .query_map(params![kit_id, limit, offset], |r| item_from_row(r, false))?
        .collect::<rusqlite::Result<_>>()?;
    let has_more = offset + (items.len() as i64) < total;
    Ok(Json(KnowledgeList {
        items,
        total,
        has_more,
    }))
}

async fn read_item(
    State(state): State<AppState>,
    caller: Caller,
    Path((kit_id, knowledge_id)): Path<(String, String)>,
) -> ApiResult<Json<KnowledgeEnvelope>> {
    caller.require(BRANDKIT_READ)?;
    let conn = state.db().lock();
    brand_kits::owns_kit(&conn, &caller.account_id, &kit_id)?;
    let item = conn
        .cached_row(
            &format!(
                "SELECT {ITEM_COLUMNS} FROM knowledge_items WHERE id = ?1 AND brand_kit_id = ?2"
            ),
            params![knowledge_id, kit_id],
            |r| item_from_row(r, true),
        )
        .optional()?
        .ok_or_else(|| ApiError::not_found("Knowledge item"))?;
    Ok(Json(KnowledgeEnvelope { item }))
}

async fn delete_item(
    State(state): State<AppState>,
    caller: Caller,
    Path((kit_id, knowledge_id)): Path<(String, String)>,
) -> ApiResult<Json<Deleted>> {
    caller.require(BRANDKIT_WRITE)?;
    state.db().tx(|tx| {
        brand_kits::owns_kit(tx, &caller.account_id, &kit_id)?;
        tx.execute(
            "DELETE FROM knowledge_chunks WHERE knowledge_id = ?1",
            [&knowledge_id],
        )?;
        let n = tx.execute(
            "DELETE FROM knowledge_items WHERE id = ?1 AND brand_kit_id = ?2",
            params![knowledge_id, kit_id],
        )?;
        if n == 0 {
            return Err(ApiError::not_found("Knowledge item"));
        }
        Ok(())
    })?;
    Ok(Json(Deleted { id: knowledge_id }))
}

/// `tags: [{ id }]`, each id given once, stored with the item and read back.
fn tags_json(tags: &[api_types::TagRef]) -> ApiResult<String> {
    for (i, t) in tags.iter().enumerate() {
        if t.id.trim().is_empty() {
            return Err(ApiError::bad(format!("tags[{i}].id"), "a tag is named by its `id`"));
        }
        if tags[..i].iter().any(|o| o.id == t.id) {
            return Err(ApiError::bad(format!("tags[{i}]"), format!("tag `{}` is listed twice", t.id)));
        }
    }
    serde_json::to_string(tags).map_err(ApiError::internal)
}

#[derive(Debug, Serialize)]
struct Deleted {
    id: String,
}

async fn add_item(
    State(state): State<AppState>,
    caller: Caller,
    Path(kit_id): Path<String>,
    AppJson(input): AppJson<AddKnowledge>,
) -> ApiResult<Json<KnowledgeAdded>> {
    caller.require(BRANDKIT_WRITE)?;
    let tags = tags_json(&input.tags)?;
    let source = Source::from_input(input, state.config().knowledge_max_file_bytes)?;
    let cap = state.config().knowledge_cap as i64;
    let item = state.db().tx(|tx| {
        brand_kits::owns_kit(tx, &caller.account_id, &kit_id)?;
        let current: i64 =
            tx.cached_row("SELECT COUNT(*) FROM knowledge_items WHERE brand_kit_id = ?1", [&kit_id], |r| r.get(0))?;
        if current >= cap {
            return Err(ApiError::LimitReached {
                message: format!(
                    "This brand kit is at its plan's knowledge cap ({current} of {cap} items); nothing was added. \
                     Remove an item or upgrade the plan."
                ),
                limit: cap,
                current,
            });
        }
        let id = insert_item(tx, &kit_id, &source)?;
        tx.execute("UPDATE knowledge_items SET tags = ?2 WHERE id = ?1", params![id, tags])?;
        Ok::<_, ApiError>(tx.cached_row(
            &format!("SELECT {ITEM_COLUMNS} FROM knowledge_items WHERE id = ?1"),
            [&id],
            |r| item_from_row(r, true),
        )?)
    })?;
    Ok(Json(KnowledgeAdded {
        item: Some(item),
        limit_reached: false,
    }))
}

#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
struct SearchQuery {
    #[serde(default)]
    q: Option<String>,
    #[serde(default)]
    limit: Option<i64>,
    #[serde(default)]
    threshold: Option<f64>,
}

async fn search(
    State(state): State<AppState>,
    caller: Caller,
    Path(kit_id): Path<String>,
    AppQuery(q): AppQuery<SearchQuery>,
) -> ApiResult<Json<KnowledgeSearch>> {
    caller.require(BRANDKIT_READ)?;
    let Some(query) = q.q.as_deref().map(str::trim).filter(|s| !s.is_empty()) else {
        return Err(ApiError::bad(
            "q",
            "`q` is required: the text to search the knowledge base for",
        ));
    };
    let limit = q.limit.unwrap_or(SEARCH_DEFAULT_LIMIT);
    if !(1..=SEARCH_MAX_LIMIT).contains(&limit) {
        return Err(ApiError::bad(
            "limit",
            format!("`limit` must be between 1 and {SEARCH_MAX_LIMIT}"),
        ));
    }
    let threshold = q.threshold.unwrap_or(SEARCH_DEFAULT_THRESHOLD);
    if !(0.0..=1.0).contains(&threshold) {
        return Err(ApiError::bad(
            "threshold",
            "`threshold` must be between 0 and 1",
        ));
    }
    let conn = state.db().lock();
    brand_kits::owns_kit(&conn, &caller.account_id, &kit_id)?;
    let mut stmt = conn.prepare_cached(
        "SELECT c.knowledge_id, i.title, c.content, i.source_url, c.chunk_index
         FROM knowledge_chunks c JOIN knowledge_items i ON i.id = c.knowledge_id
         WHERE i.brand_kit_id = ?1 ORDER BY i.created_at, i.rowid, c.chunk_index",
    )?;
    let chunks: Vec<KnowledgeMatch> = stmt
        .query_map([&kit_id], |r| {
            Ok(KnowledgeMatch {
                knowledge_id: r.get(0)?,
                title: r.get(1)?,
                content: r.get(2)?,
                similarity: 0.0,
                source_url: r.get(3)?,
                chunk_index: r.get(4)?,
            })
        })?
        .collect::<rusqlite::Result<_>>()?;
    let texts: Vec<&str> = chunks.iter().map(|c| c.content.as_str()).collect();
    let scores = similarities(query, &texts);
    let mut matches: Vec<KnowledgeMatch> = chunks
        .into_iter()
        .zip(scores)
        .filter(|(_, s)| *s > 0.0 && *s >= threshold)
        .map(|(m, s)| KnowledgeMatch {
            similarity: (s * 10_000.0).round() / 10_000.0,
            ..m
        })
        .collect();
    // A stable sort keeps the kit's order (oldest item, first chunk) among equal scores.
    matches.sort_by(|a, b| b.similarity.total_cmp(&a.similarity));
    matches.truncate(limit as usize);
    Ok(Json(KnowledgeSearch { matches }))
}

// ---------------------------------------------------------------------------------------------------
// Items
// ---------------------------------------------------------------------------------------------------

const ITEM_COLUMNS: &str =
    "id, title, source_type, source_url, file_ext, size_bytes, created_at, updated_at, content, tags";

fn item_from_row(r: &rusqlite::Row, with_content: bool) -> rusqlite::Result<KnowledgeItem> {
    let content: Option<String> = if with_content {
        Some(
            r.get::<_, String>(8)?
                .chars()
                .take(DETAIL_CONTENT_CHARS)
                .collect(),
        )
    } else {
        None
    };
    Ok(KnowledgeItem {
        id: r.get(0)?,
        title: r.get(1)?,
        source_type: r.get(2)?,
        source_url: r.get(3)?,
        file_ext: r.get(4)?,
        size_bytes: r.get(5)?,
        created_at: r.get(6)?,
        updated_at: r.get(7)?,
        tags: serde_json::from_str(&r.get::<_, String>(9)?).unwrap_or_default(),
        content,
    })
}

/// The kit's items as the full brand-kit read lists them, newest first.
pub fn refs_for_kit(conn: &Connection, kit_id: &str) -> ApiResult<Vec<KnowledgeRef>> {
    let mut stmt = conn.prepare_cached(
        "SELECT id, title, source_type, source_url, content FROM knowledge_items WHERE brand_kit_id = ?1
         ORDER BY created_at DESC, rowid DESC",
    )?;
    let rows = stmt.query_map([kit_id], |r| {
        let content: String = r.get(4)?;
        let preview = content.split_whitespace().collect::<Vec<_>>().join(" ");
        Ok(KnowledgeRef {
            id: r.get(0)?,
            title: r.get(1)?,
            source_type: r.get(2)?,
            source_url: r.get(3)?,
            content_preview: (!preview.is_empty())
                .then(|| preview.chars().take(PREVIEW_CHARS).collect()),
        })
    })?;
    Ok(rows.collect::<rusqlite::Result<_>>()?)
}

/// A checked add: what will be stored.
struct Source {
    title: String,
    source_type: String,
    source_url: Option<String>,
    file_ext: Option<String>,
    size_bytes: Option<i64>,
    /// The searchable text; empty when the sandbox has none (unfetched address, image, binary document).
    content: String,
}

impl Source {
    fn from_input(input: AddKnowledge, max_file_bytes: usize) -> ApiResult<Source> {
        let st = input.source_type.as_str();
        if !KNOWLEDGE_SOURCE_TYPES.contains(&st) {
            return Err(ApiError::InvalidValue {
                message: format!(
                    "Unknown sourceType \"{st}\": valid values are {}",
                    KNOWLEDGE_SOURCE_TYPES.join(", ")
                ),
                field: "sourceType".into(),
                valid: KNOWLEDGE_SOURCE_TYPES
                    .iter()
                    .map(|s| s.to_string())
                    .collect(),
            });
        }
        // Fields that belong to another source type are refused, so a mistaken add is not half-read.
        let given = [
            ("text", input.text.is_some()),
            ("url", input.url.is_some()),
            ("fileData", input.file_data.is_some()),
            ("fileUrl", input.file_url.is_some()),
            ("fileExt", input.file_ext.is_some()),
        ];
        let allowed: &[&str] = match st {
            "text" => &["text"],
            "url" | "youtube" => &["url"],
            _ => &["fileData", "fileUrl", "fileExt"],
        };
        if let Some((field, _)) = given.iter().find(|(f, g)| *g && !allowed.contains(f)) {
            return Err(ApiError::bad(
                *field,
                format!("`{field}` is not used with sourceType {st}"),
            ));
        }
        let title = input
            .title
            .as_deref()
            .map(str::trim)
            .filter(|t| !t.is_empty())
            .map(String::from);
        match st {
            "text" => {
                let text = input.text.unwrap_or_default();
                if text.trim().is_empty() {
                    return Err(ApiError::bad("text", "sourceType text needs `text`"));
                }
                Ok(Source {
                    title: title.unwrap_or_else(|| first_line_title(&text, "Text note")),
                    source_type: st.into(),
                    source_url: None,
                    file_ext: None,
                    size_bytes: Some(text.len() as i64),
                    content: text,
                })
            }
            "url" | "youtube" => {
                let url = input
                    .url
                    .as_deref()
                    .map(str::trim)
                    .unwrap_or_default()
                    .to_string();
                if url.is_empty() {
                    return Err(ApiError::bad("url", format!("sourceType {st} needs `url`")));
                }
                check_http_url("url", &url)?;
                if st == "youtube" && !is_youtube(&url) {
                    return Err(ApiError::bad(
                        "url",
                        "sourceType youtube needs a youtube.com or youtu.be `url`",
                    ));
                }
                Ok(Source {
                    title: title.unwrap_or_else(|| url.clone()),
                    source_type: st.into(),
                    source_url: Some(url),
                    file_ext: None,
                    size_bytes: None,
                    // Recorded, not fetched: the sandbox has no internet.
                    content: String::new(),
                })
            }
            _ => Self::file(
                input.file_data,
                input.file_url,
                input.file_ext,
                title,
                max_file_bytes,
            ),
        }
    }

    fn file(
        data: Option<String>,
        url: Option<String>,
        ext: Option<String>,
        title: Option<String>,
        max_bytes: usize,
    ) -> ApiResult<Source> {
        let ext = ext
            .map(|e| e.trim().trim_start_matches('.').to_ascii_lowercase())
            .filter(|e| !e.is_empty());
        match (data, url) {
            (Some(_), Some(_)) | (None, None) => Err(ApiError::bad(
                "fileData",
                "sourceType file needs exactly one of `fileData` (base64, small documents and images) or `fileUrl` \
                 (hosted: large files, video, audio)",
            )),
            (None, Some(url)) => {
                let url = url.trim().to_string();
                check_http_url("fileUrl", &url)?;
                let name = url_file_name(&url);
                let ext = ext.or_else(|| {
                    name.as_deref().and_then(|n| n.rsplit_once('.')).map(|(_, e)| e.to_ascii_lowercase())
                });
                Ok(Source {
                    title: title.or(name).unwrap_or_else(|| url.clone()),
                    source_type: "file".into(),
                    source_url: Some(url),
                    file_ext: ext,
                    size_bytes: None,
                    // Recorded, not fetched: the sandbox has no internet.
                    content: String::new(),
                })
            }
            (Some(data), None) => {
                let Some(ext) = ext else {
                    return Err(ApiError::InvalidValue {
                        message: format!("`fileData` needs `fileExt` (no dot): one of {}", FILE_DATA_EXTS.join(", ")),
                        field: "fileExt".into(),
                        valid: FILE_DATA_EXTS.iter().map(|s| s.to_string()).collect(),
                    });
                };
                let hosted = "send it by hosted `fileUrl` instead; the server fetches and chunks it";
                if MEDIA_EXTS.contains(&ext.as_str()) {
                    return Err(ApiError::bad(
                        "fileData",
                        format!("Video and audio ({ext}) cannot be sent as base64 `fileData`: {hosted}"),
                    ));
                }
                if !FILE_DATA_EXTS.contains(&ext.as_str()) {
                    return Err(ApiError::InvalidValue {
                        message: format!(
                            "`fileData` is for small documents and images ({}); for a .{ext} file, {hosted}",
                            FILE_DATA_EXTS.join(", ")
                        ),
                        field: "fileExt".into(),
                        valid: FILE_DATA_EXTS.iter().map(|s| s.to_string()).collect(),
                    });
                }
                let bytes = decode_base64(&data, max_bytes, hosted)?;
                let content = extract_text(&ext, &bytes);
                Ok(Source {
                    title: title.unwrap_or_else(|| first_line_title(&content, &format!("Uploaded {ext} file"))),
                    source_type: "file".into(),
                    source_url: None,
                    file_ext: Some(ext),
                    size_bytes: Some(bytes.len() as i64),
                    content,
                })
            }
        }
    }
}

/// Decodes `fileData` (standard or URL-safe alphabet, padding optional, a `data:…;base64,` prefix and
/// line breaks tolerated) and enforces the size limit on the decoded bytes.
fn decode_base64(data: &str, max_bytes: usize, hosted: &str) -> ApiResult<Vec<u8>> {
    use base64::engine::general_purpose::{STANDARD, STANDARD_NO_PAD, URL_SAFE, URL_SAFE_NO_PAD};
    let data = match data.split_once(";base64,") {
        Some((prefix, rest)) if prefix.starts_with("data:") => rest,
        _ => data,
    };
    let clean: String = data.chars().filter(|c| !c.is_ascii_whitespace()).collect();
    if clean.is_empty() {
        return Err(ApiError::bad("fileData", "`fileData` is empty"));
    }
    let too_big = || {
        ApiError::bad(
            "fileData",
            format!("The file is larger than {max_bytes} bytes, the limit for base64 `fileData`: {hosted}"),
        )
    };
    // Refuse before decoding when even the shortest reading of the text is over the limit.
    if clean.len() / 4 * 3 > max_bytes + 3 {
        return Err(too_big());
    }
    let bytes = [STANDARD, URL_SAFE, STANDARD_NO_PAD, URL_SAFE_NO_PAD]
        .iter()
        .find_map(|engine| engine.decode(&clean).ok())
        .ok_or_else(|| ApiError::bad("fileData", "`fileData` is not valid base64"))?;
    if bytes.len() > max_bytes {
        return Err(too_big());
    }
    Ok(bytes)
}

/// The text of a file: as it is for text-like kinds; for other documents only when the bytes are plain
/// UTF-8 (the sandbox has no PDF or Word reader); images have none.
fn extract_text(ext: &str, bytes: &[u8]) -> String {
    if TEXT_EXTS.contains(&ext) {
        let text = String::from_utf8_lossy(bytes).into_owned();
        return if ext == "html" || ext == "htm" {
            strip_tags(&text)
        } else {
            text
        };
    }
    if matches!(ext, "pdf" | "doc" | "docx") {
        if let Ok(text) = std::str::from_utf8(bytes) {
            let printable = text
                .chars()
                .filter(|c| !c.is_control() || c.is_whitespace())
                .count();
            if printable * 10 >= text.chars().count() * 9 {
                return text.to_string();
            }
        }
    }
    String::new()
}

fn strip_tags(html: &str) -> String {
    let mut out = String::with_capacity(html.len());
    let mut in_tag = false;
    for c in html.chars() {
        match c {
            '<' => in_tag = true,
            '>' if in_tag => {
                in_tag = false;
                out.push(' ');
            }
            _ if !in_tag => out.push(c),
            _ => {}
        }
    }
    out
}

fn check_http_url(field: &str, url: &str) -> ApiResult<()> {
    let rest = url
        .strip_prefix("https://")
        .or_else(|| url.strip_prefix("http://"));
    match rest {
        Some(r) if !r.is_empty() && !r.starts_with('/') && !url.contains(char::is_whitespace) => {
            Ok(())
        }
        _ => Err(ApiError::bad(
            field,
            format!("`{field}` must be an http(s) URL"),
        )),
    }
}

fn is_youtube(url: &str) -> bool {
    let host = url
        .split("://")
        .nth(1)
        .unwrap_or("")
        .split(['/', '?', '#'])
        .next()
        .unwrap_or("")
        .to_ascii_lowercase();
    let host = host
        .rsplit('@')
        .next()
        .unwrap_or("")
        .split(':')
        .next()
        .unwrap_or("");
    host == "youtu.be" || host == "youtube.com" || host.ends_with(".youtube.com")
}

fn url_file_name(url: &str) -> Option<String> {
    let path = url.split(['?', '#']).next()?.split("://").nth(1)?;
    let (_, path) = path.split_once('/')?;
    path.rsplit('/')
        .next()
        .filter(|n| !n.is_empty())
        .map(String::from)
}

/// A title from the first non-empty line (Markdown heading marks dropped), at most 80 characters.
fn first_line_title(text: &str, fallback: &str) -> String {
    let line = text
        .lines()
        .map(|l| l.trim().trim_start_matches('#').trim())
        .find(|l| !l.is_empty());
    match line {
        Some(l) if l.chars().count() > 80 => format!("{}…", l.chars().take(79).collect::<String>()),
        Some(l) => l.to_string(),
        None => fallback.to_string(),
    }
}

fn insert_item(conn: &Connection, kit_id: &str, s: &Source) -> rusqlite::Result<String> {
    let id = new_id();
    let now = time::now_str();
    conn.execute(
        "INSERT INTO knowledge_items (id, brand_kit_id, title, source_type, source_url, file_ext, size_bytes, content,
             created_at, updated_at)
         VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?9)",
        params![id, kit_id, s.title, s.source_type, s.source_url, s.file_ext, s.size_bytes, s.content, now],
    )?;
    for (i, chunk) in chunk_text(&s.content, CHUNK_CHARS).iter().enumerate() {
        conn.execute(
            "INSERT INTO knowledge_chunks (knowledge_id, chunk_index, content) VALUES (?1, ?2, ?3)",
            params![id, i as i64, chunk],
        )?;
    }
    Ok(id)
}

// ---------------------------------------------------------------------------------------------------
// Chunking and similarity
// ---------------------------------------------------------------------------------------------------

/// Splits text into chunks of about `target` characters: paragraphs are kept whole where they fit, long
/// ones split at sentence ends, then at spaces. A short paragraph (a heading) travels with what follows.
pub fn chunk_text(text: &str, target: usize) -> Vec<String> {
    let mut pieces: Vec<(String, &str)> = Vec::new();
    for para in text.split("\n\n").map(str::trim).filter(|p| !p.is_empty()) {
        let mut first = true;
        for piece in split_long(para, target) {
            pieces.push((piece, if first { "\n\n" } else { " " }));
            first = false;
        }
    }
    let mut chunks: Vec<String> = Vec::new();
    let mut current = String::new();
    for (piece, sep) in pieces {
        if !current.is_empty()
            && current.chars().count() + sep.len() + piece.chars().count() > target
        {
            chunks.push(std::mem::take(&mut current));
        }
        if !current.is_empty() {
            current.push_str(sep);
        }
        current.push_str(&piece);
    }
    if !current.trim().is_empty() {
        chunks.push(current);
    }
    chunks
}

/// A paragraph longer than `target` cut at sentence ends, and a sentence longer than that at spaces.
fn split_long(para: &str, target: usize) -> Vec<String> {
    if para.chars().count() <= target {
        return vec![para.to_string()];
    }
    let mut sentences = Vec::new();
    let mut start = 0;
    let chars: Vec<(usize, char)> = para.char_indices().collect();
    for (n, (i, c)) in chars.iter().enumerate() {
        let at_end = matches!(c, '.' | '!' | '?' | '\n')
            && chars
                .get(n + 1)
                .is_none_or(|(_, next)| next.is_whitespace());
        if at_end {
            let end = i + c.len_utf8();
            sentences.push(para[start..end].trim().to_string());
            start = end;
        }
    }
    if start < para.len() {
        sentences.push(para[start..].trim().to_string());
    }
    let mut out = Vec::new();
    for s in sentences.into_iter().filter(|s| !s.is_empty()) {
        if s.chars().count() <= target {
            out.push(s);
            continue;
        }
        let mut cur = String::new();
        for word in s.split_whitespace() {
            if !cur.is_empty() && cur.chars().count() + 1 + word.chars().count() > target {
                out.push(std::mem::take(&mut cur));
            }
            if !cur.is_empty() {
                cur.push(' ');
            }
            cur.push_str(word);
        }
        if !cur.is_empty() {
            out.push(cur);
        }
    }
    out
}

const STOPWORDS: &[&str] = &[
    "a", "an", "and", "are", "as", "at", "be", "but", "by", "do", "for", "from", "has", "have",
    "how", "i", "if", "in", "into", "is", "it", "its", "of", "on", "or", "our", "so", "than",
    "that", "the", "their", "them", "then", "there", "they", "this", "to", "us", "was", "we",
    "what", "when", "which", "who", "why", "will", "with", "you", "your",
];

/// Lower-case word stems without stop words. The stemming is deliberately light (plural and common verb
/// endings) so "colours" finds "colour" and "filming" finds "film".
pub fn terms(text: &str) -> Vec<String> {
    text.split(|c: char| !c.is_alphanumeric())
        .filter(|w| !w.is_empty())
        .map(str::to_lowercase)
        .filter(|w| !STOPWORDS.contains(&w.as_str()))
        .map(|w| stem(&w))
        .filter(|w| w.chars().count() >= 2)
        .collect()
}

fn stem(w: &str) -> String {
    let mut out = w.to_string();
    for (suffix, replacement) in [("ies", "y"), ("ing", ""), ("ed", ""), ("es", ""), ("s", "")] {
        if let Some(base) = w.strip_suffix(suffix) {
            if base.chars().count() >= 3 && !(suffix == "s" && base.ends_with('s')) {
                out = format!("{base}{replacement}");
                break;
            }
        }
    }
    // A final silent e goes too, so "price" and "pricing" (and "make", "making") meet.
    if out.ends_with('e') && out.chars().count() >= 4 {
        out.pop();
    }
    out
}

/// The similarity of `query` to each of `docs`, 0 to 1: 0.7 × the share of the query's terms the chunk
/// holds, each weighted by its rarity across `docs` (IDF), plus 0.3 × the TF-IDF cosine. Coverage
/// dominates because a query is a few words and a chunk a few hundred characters, where cosine alone
/// stays low even for a perfect match.
pub fn similarities(query: &str, docs: &[&str]) -> Vec<f64> {
    let q_terms: Vec<String> = {
        let mut seen = HashSet::new();
        terms(query)
            .into_iter()
            .filter(|t| seen.insert(t.clone()))
            .collect()
    };
    let doc_tf: Vec<HashMap<String, f64>> = docs
        .iter()
        .map(|d| {
            let mut tf = HashMap::new();
            for t in terms(d) {
                *tf.entry(t).or_insert(0.0) += 1.0;
            }
            tf
        })
        .collect();
    if q_terms.is_empty() {
        return vec![0.0; docs.len()];
    }
    let n = docs.len() as f64;
    let mut df: HashMap<&str, f64> = HashMap::new();
    for tf in &doc_tf {
        for t in tf.keys() {
            *df.entry(t.as_str()).or_insert(0.0) += 1.0;
        }
    }
    let idf = |t: &str| 1.0 + ((n + 1.0) / (df.get(t).copied().unwrap_or(0.0) + 1.0)).ln();
    let q_weight: f64 = q_terms.iter().map(|t| idf(t)).sum();
    let q_norm: f64 = q_terms.iter().map(|t| idf(t).powi(2)).sum::<f64>().sqrt();
    doc_tf
        .iter()
        .map(|tf| {
            if tf.is_empty() {
                return 0.0;
            }
            let covered: f64 = q_terms
                .iter()
                .filter(|t| tf.contains_key(*t))
                .map(|t| idf(t))
                .sum();
            let coverage = covered / q_weight;
            let dot: f64 = q_terms
                .iter()
                .map(|t| idf(t) * tf.get(t).copied().unwrap_or(0.0) * idf(t))
                .sum();
            let d_norm: f64 = tf
                .iter()
                .map(|(t, f)| (f * idf(t)).powi(2))
                .sum::<f64>()
                .sqrt();
            let cosine = if d_norm > 0.0 {
                dot / (q_norm * d_norm)
            } else {
                0.0
            };
            (0.7 * coverage + 0.3 * cosine).clamp(0.0, 1.0)
        })
        .collect()
}

// ---------------------------------------------------------------------------------------------------
// Demo seed
// ---------------------------------------------------------------------------------------------------

/// Three items on the default kit: a text note, a Markdown file (as if uploaded as base64) and a web page
/// recorded by address.
pub fn seed_demo(
    conn: &rusqlite::Connection,
    account_id: &str,
    _opts: &crate::seed::DemoOptions,
) -> rusqlite::Result<()> {
    let Some(kit_id) = brand_kits::default_kit_id(conn, account_id)? else {
        return Ok(());
    };
    let items = [
        Source {
            title: "Founder story".into(),
            source_type: "text".into(),
            source_url: None,
            file_ext: None,
            size_bytes: Some(FOUNDER_STORY.len() as i64),
            content: FOUNDER_STORY.into(),
        },
        Source {
            title: "Pricing and packages FAQ".into(),
            source_type: "file".into(),
            source_url: None,
            file_ext: Some("md".into()),
            size_bytes: Some(PRICING_FAQ.len() as i64),
            content: PRICING_FAQ.into(),
        },
        Source {
            title: "Press page".into(),
            source_type: "url".into(),
            source_url: Some("https://demostudio.example/press".into()),
            file_ext: None,
            size_bytes: None,
            content: String::new(),
        },
    ];
    for item in &items {
        insert_item(conn, &kit_id, item)?;
    }
    Ok(())
}

const FOUNDER_STORY: &str = "Demo Studio began in 2019 when Maya Okafor, then a wedding camera operator, \
offered to film the menu launch of the café below her flat in exchange for a month of coffee. The reel \
reached eleven thousand people in a town of forty thousand, and three neighbouring shops asked for the same \
the following week.

Maya teamed up with Tom Reyes, an editor who had cut documentaries for regional television. They set one \
rule from the start: film the real work, never stage it. Bakers bake, joiners cut, stylists style; the \
camera waits for the moment the craft shows.

In 2021 the studio moved into the old print works and started the monthly retainer that most clients now \
use. The team is still two people, with a freelance sound recordist for longer shoots.

The studio's proudest result so far: a family bakery that went from twelve to forty-one weekend pre-orders \
after two months of weekly reels showing the 5 a.m. bake.";

const PRICING_FAQ: &str = "# Pricing and packages FAQ

## How much does the monthly retainer cost?

Studio Month costs £850 a month with a minimum of three months. It includes a planning session, a half-day \
shoot, eight short vertical videos, one longer YouTube video or carousel set, captions, thumbnails and a \
monthly report.

## Is there a cheaper way to start?

Yes. Launch Day is a one-off £390: a two-hour shoot and four edited shorts. Most retainer clients start \
with a Launch Day.

## Do you run paid ads?

No. We make the videos and can publish them, but we do not manage ad spend or promise follower growth.

## How fast do we get the videos?

Edits arrive within five working days of the shoot. A rush edit in 48 hours costs 25% extra.

## Can our staff learn to film?

Our workshop, Filming on your phone, costs £240 for up to six people and covers framing, light, sound and \
hooks in two hours.";

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn chunks_stay_near_the_target_and_keep_every_word() {
        let text = format!(
            "## Heading\n\n{}\n\nShort closing line.",
            "A sentence about light and sound. ".repeat(40)
        );
        let chunks = chunk_text(&text, 500);
        assert!(chunks.len() >= 3, "{chunks:?}");
        assert!(chunks.iter().all(|c| c.chars().count() <= 500));
        assert!(chunks[0].starts_with("## Heading"));
        let words = |s: &str| s.split_whitespace().count();
        assert_eq!(chunks.iter().map(|c| words(c)).sum::<usize>(), words(&text));
    }

    #[test]
    fn light_stemming_joins_word_forms() {
        assert_eq!(terms("Pricing prices price"), vec!["pric", "pric", "pric"]);
        assert_eq!(terms("colours colour"), vec!["colour", "colour"]);
        assert_eq!(terms("filming filmed films"), vec!["film", "film", "film"]);
        assert_eq!(terms("the and of"), Vec::<String>::new());
    }

    #[test]
    fn similarity_prefers_the_chunk_that_holds_the_query() {
        let docs = [
            "Our colour palette is teal and cream.",
            "We film bakeries at dawn.",
            "",
        ];
        let s = similarities("brand colours", &docs);
        assert!(s[0] > s[1] && s[1] == 0.0 && s[2] == 0.0, "{s:?}");
        let s = similarities("teal colour palette", &docs);
        assert!(s[0] > 0.7, "{s:?}");
    }
}
