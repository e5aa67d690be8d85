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
use crate::state::AppState;
use crate::time;
use api_types::scopes::{BRANDKIT_READ, BRANDKIT_WRITE};
use api_types::{
    AddKnowledge, KnowledgeAdded, KnowledgeEnvelope, KnowledgeItem, KnowledgeList, KnowledgeMatch, KnowledgeSearch, KNOWLEDGE_SOURCE_TYPES,
};
use axum::extract::{Path, State};
use axum::Json;
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

/// Small documents and images may come as base64 `fileData`.
pub const FILE_DATA_EXTS: &[&str] = &[
    "pdf", "txt", "md", "markdown", "csv", "json", "html", "htm", "rtf", "doc", "docx", "png",
    "jpg", "jpeg", "webp", "gif",
];
/// Video and audio only by hosted `fileUrl` (spec §4 "Knowledge base").
mod seed;
mod similarity;
mod source;
pub use seed::seed_demo;
pub use similarity::{chunk_text, similarities, terms};
use source::*;

/// Video and audio knowledge files, by extension (declared once in api-types).
use api_types::values::KNOWLEDGE_MEDIA_EXTENSIONS as MEDIA_EXTS;
use crate::tables::brand_kits;
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

// ---------------------------------------------------------------------------------------------------
// Handlers
// ---------------------------------------------------------------------------------------------------

#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct ListQuery {
    #[serde(default)]
    limit: Option<i64>,
    #[serde(default)]
    offset: Option<i64>,
}

pub(crate) async fn list_items(
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

pub(crate) async fn read_item(
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

pub(crate) async fn delete_item(
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
pub(crate) struct Deleted {
    id: String,
}

pub(crate) async fn add_item(
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
pub(crate) struct SearchQuery {
    #[serde(default)]
    q: Option<String>,
    #[serde(default)]
    limit: Option<i64>,
    #[serde(default)]
    threshold: Option<f64>,
}

pub(crate) async fn search(
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
