//! Inspiration: the accounts a user tracks (`/accounts`, their own brand accounts and others they learn
//! from) and those accounts' posts (`/content`), with the figures that make a post an outlier. Reads need
//! `brandkit:read` (docs/api.md). Everything belongs to one account; another account's record is "not
//! found". Cards attach a post by `contentId` through [`content_for_card`].
use crate::auth::Caller;
use crate::error::{ApiError, ApiResult};
use crate::extract::AppQuery;
use crate::state::AppState;
use api_types::scopes::BRANDKIT_READ;
use api_types::{
    ContentAverages, ContentDetail, ContentDetailQuery, ContentList, ContentQuery,
    ContentTranscript, TranscriptSegment,
    ContentSummary, ContentTotals, TrackedAccount, TrackedAccountDetail, TrackedAccountList,
};
use axum::extract::{Path, State};
use axum::Json;
use rusqlite::{Connection, OptionalExtension};
use serde::Deserialize;
use crate::tables::inspiration::{ContentRow, PLATFORMS, one_of, read_content_where};

mod seed;
pub use seed::seed_demo;

pub const SCHEMA: &str = "
CREATE TABLE IF NOT EXISTS tracked_accounts (
    id TEXT PRIMARY KEY,
    account_id TEXT NOT NULL REFERENCES accounts(id),
    platform TEXT NOT NULL,
    platform_account_id TEXT,
    handle TEXT,
    name TEXT,
    avatar_url TEXT,
    follower_count INTEGER,
    last_synced_at TEXT,
    sync_status TEXT,
    account_type TEXT NOT NULL,
    brand_kit_id TEXT,
    sort_order INTEGER NOT NULL DEFAULT 0,
    created_at TEXT NOT NULL
);
CREATE INDEX IF NOT EXISTS tracked_accounts_by_account ON tracked_accounts(account_id);
CREATE TABLE IF NOT EXISTS tracked_content (
    id TEXT PRIMARY KEY,
    account_id TEXT NOT NULL REFERENCES accounts(id),
    tracked_account_id TEXT NOT NULL REFERENCES tracked_accounts(id),
    platform TEXT NOT NULL,
    content_type TEXT,
    title TEXT,
    description TEXT,
    hashtags TEXT NOT NULL DEFAULT '[]',
    url TEXT,
    thumbnail_url TEXT,
    view_count INTEGER,
    like_count INTEGER,
    comment_count INTEGER,
    share_count INTEGER,
    duration_seconds REAL,
    outlier_score REAL,
    engagement_rate REAL,
    published_at TEXT,
    added_at TEXT NOT NULL
);
CREATE INDEX IF NOT EXISTS tracked_content_by_account ON tracked_content(account_id);
CREATE TABLE IF NOT EXISTS content_transcripts (
    content_id TEXT PRIMARY KEY REFERENCES tracked_content(id) ON DELETE CASCADE,
    language TEXT NOT NULL,
    segments TEXT NOT NULL
);
";

pub const ACCOUNT_TYPES: &[&str] = &["inspiration", "brand"];
pub const CONTENT_TYPES: &[&str] = &["video", "short", "reel", "carousel", "image"];
pub const CONTENT_SCOPES: &[&str] = &["all", "inspiration", "brand"];
/// `relevance` is accepted with `search` (fact sheet 2.15) and ranks like `score` here.
pub const SORT_FIELDS: &[&str] = &["score", "date", "views", "engagement", "relevance"];
pub const SORT_ORDERS: &[&str] = &["asc", "desc"];

/// Content paging (fact sheet 1.7): 20 by default, at most 100.
const CONTENT_DEFAULT_LIMIT: u32 = 20;
const CONTENT_MAX_LIMIT: u32 = 100;
/// How many posts an account detail lists as top and as recent.
const DETAIL_LIST_LEN: usize = 5;

/// Query of `GET /accounts` (spec era snake_case; camelCase accepted).
#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct AccountsQuery {
    #[serde(default, alias = "accountType")]
    account_type: Option<String>,
    #[serde(default, alias = "brandKitId")]
    brand_kit_id: Option<String>,
}

pub(crate) async fn list_accounts(
    State(state): State<AppState>,
    caller: Caller,
    AppQuery(q): AppQuery<AccountsQuery>,
) -> ApiResult<Json<TrackedAccountList>> {
    caller.require(BRANDKIT_READ)?;
    if let Some(t) = &q.account_type {
        one_of("account_type", t, ACCOUNT_TYPES)?;
    }
    let conn = state.db().lock();
    let accounts = read_accounts(&conn, &caller.account_id)?
        .into_iter()
        .filter(|a| {
            q.account_type
                .as_ref()
                .is_none_or(|t| a.account.account_type.as_ref() == Some(t))
        })
        .filter(|a| {
            q.brand_kit_id
                .as_ref()
                .is_none_or(|k| a.brand_kit_id.as_ref() == Some(k))
        })
        .map(|a| a.account)
        .collect();
    Ok(Json(TrackedAccountList { accounts }))
}

pub(crate) async fn account_detail(
    State(state): State<AppState>,
    caller: Caller,
    Path(id): Path<String>,
) -> ApiResult<Json<TrackedAccountDetail>> {
    caller.require(BRANDKIT_READ)?;
    let conn = state.db().lock();
    let account = read_accounts(&conn, &caller.account_id)?
        .into_iter()
        .find(|a| a.account.id == id)
        .ok_or_else(|| ApiError::not_found("Tracked account"))?;
    let mut posts: Vec<ContentSummary> = read_content(&conn, &caller.account_id)?
        .into_iter()
        .filter(|c| c.account_id == id)
        .map(|c| c.summary)
        .collect();
    let count = posts.len() as i64;
    let sum = |f: fn(&ContentSummary) -> Option<i64>| posts.iter().filter_map(f).sum::<i64>();
    let totals = ContentTotals {
        views: sum(|c| c.view_count),
        likes: sum(|c| c.like_count),
        comments: sum(|c| c.comment_count),
    };
    let mean = |f: fn(&ContentSummary) -> Option<f64>| {
        let vals: Vec<f64> = posts.iter().filter_map(f).collect();
        if vals.is_empty() {
            0.0
        } else {
            round(vals.iter().sum::<f64>() / vals.len() as f64, 4)
        }
    };
    let averages = ContentAverages {
        views: mean(|c| c.view_count.map(|v| v as f64)),
        engagement_rate: mean(|c| c.engagement_rate),
        outlier_score: mean(|c| c.outlier_score),
    };
    sort_content(&mut posts, "score", false);
    let top_content = posts.iter().take(DETAIL_LIST_LEN).cloned().collect();
    sort_content(&mut posts, "date", false);
    let recent_content = posts.iter().take(DETAIL_LIST_LEN).cloned().collect();
    Ok(Json(TrackedAccountDetail {
        account: account.account,
        content_count: count,
        totals,
        averages,
        top_content,
        recent_content,
    }))
}

pub(crate) async fn list_content(
    State(state): State<AppState>,
    caller: Caller,
    AppQuery(q): AppQuery<ContentQuery>,
) -> ApiResult<Json<ContentList>> {
    caller.require(BRANDKIT_READ)?;
    let scope = q.scope.as_deref().unwrap_or("all");
    one_of("scope", scope, CONTENT_SCOPES)?;
    if let Some(p) = &q.platform {
        one_of("platform", p, PLATFORMS)?;
    }
    if let Some(t) = &q.content_type {
        one_of("content_type", t, CONTENT_TYPES)?;
    }
    let sort_by = q.sort_by.as_deref().unwrap_or("score");
    one_of("sort_by", sort_by, SORT_FIELDS)?;
    let sort_order = q.sort_order.as_deref().unwrap_or("desc");
    one_of("sort_order", sort_order, SORT_ORDERS)?;
    let limit = q.limit.unwrap_or(CONTENT_DEFAULT_LIMIT);
    if limit == 0 || limit > CONTENT_MAX_LIMIT {
        return Err(ApiError::bad(
            "limit",
            format!("`limit` must be between 1 and {CONTENT_MAX_LIMIT}"),
        ));
    }
    if q.outlier_score_min.is_some_and(|m| !m.is_finite()) {
        return Err(ApiError::bad("outlier_score_min", "`outlier_score_min` must be a finite number"));
    }
    let offset = q.offset.unwrap_or(0) as usize;
    let account_ids: Option<Vec<&str>> = q.account_ids.as_deref().map(|s| {
        s.split(',')
            .map(str::trim)
            .filter(|s| !s.is_empty())
            .collect()
    });
    let search = q
        .search
        .as_deref()
        .map(|s| s.trim().to_lowercase())
        .filter(|s| !s.is_empty());

    let conn = state.db().lock();
    let mut posts: Vec<ContentSummary> = read_content(&conn, &caller.account_id)?
        .into_iter()
        .filter(|c| scope == "all" || c.account_type == scope)
        .filter(|c| {
            account_ids
                .as_ref()
                .is_none_or(|ids| ids.contains(&c.account_id.as_str()))
        })
        .filter(|c| search.as_ref().is_none_or(|s| c.matches(s)))
        .map(|c| c.summary)
        .filter(|c| q.platform.is_none() || c.platform == q.platform)
        .filter(|c| q.content_type.is_none() || c.content_type == q.content_type)
        .filter(|c| {
            q.outlier_score_min
                .is_none_or(|m| c.outlier_score.unwrap_or(0.0) >= m)
        })
        .filter(|c| q.views_min.is_none_or(|m| c.view_count.unwrap_or(0) >= m))
        .collect();
    sort_content(&mut posts, sort_by, sort_order == "asc");
    let total = posts.len();
    let outliers: Vec<ContentSummary> = posts
        .into_iter()
        .skip(offset)
        .take(limit as usize)
        .collect();
    let has_more = offset + outliers.len() < total;
    Ok(Json(ContentList {
        outliers,
        total: total as i64,
        has_more,
    }))
}

pub(crate) async fn content_detail(
    State(state): State<AppState>,
    caller: Caller,
    Path(content_id): Path<String>,
    AppQuery(q): AppQuery<ContentDetailQuery>,
) -> ApiResult<Json<ContentDetail>> {
    caller.require(BRANDKIT_READ)?;
    let shape = q.transcript.as_deref().unwrap_or("none");
    one_of("transcript", shape, TRANSCRIPT_SHAPES)?;
    for (field, v) in [("start_ms", q.start_ms), ("end_ms", q.end_ms)] {
        if v.is_some_and(|v| v < 0) {
            return Err(ApiError::bad(field, format!("`{field}` is a millisecond from the start: 0 or more")));
        }
    }
    if let (Some(a), Some(b)) = (q.start_ms, q.end_ms) {
        if a >= b {
            return Err(ApiError::bad("end_ms", "`end_ms` must come after `start_ms`"));
        }
    }
    let narrowed = q.start_ms.is_some() || q.end_ms.is_some() || q.transcript_search.is_some();
    if narrowed && shape == "none" {
        return Err(ApiError::bad("transcript", "`start_ms`, `end_ms` and `transcript_search` narrow a transcript: ask for one with `transcript=text` or `transcript=segments`"));
    }
    let conn = state.db().lock();
    let post = read_content(&conn, &caller.account_id)?
        .into_iter()
        .find(|c| c.summary.id == content_id)
        .ok_or_else(|| ApiError::not_found("Content"))?;
    let transcript = if shape == "none" { None } else { Some(transcript_of(&conn, &post.summary, shape, &q)?) };
    Ok(Json(ContentDetail {
        summary: post.summary,
        description: post.description,
        hashtags: post.hashtags,
        transcript,
    }))
}

/// `transcript` values of `GET /content/{id}` (fact sheet 2.15).
pub const TRANSCRIPT_SHAPES: &[&str] = &["none", "text", "segments"];

/// The post's transcript as asked: the segments overlapping `[start_ms, end_ms)` that contain
/// `transcript_search` (case-insensitive), as text or segments. A post with no speech (no duration) is
/// `not_applicable`; a video with none stored is `absent`.
fn transcript_of(conn: &Connection, post: &ContentSummary, shape: &str, q: &ContentDetailQuery) -> ApiResult<ContentTranscript> {
    let stored: Option<(String, String)> = conn
        .query_row("SELECT language, segments FROM content_transcripts WHERE content_id = ?1", [&post.id], |r| Ok((r.get(0)?, r.get(1)?)))
        .optional()?;
    let Some((language, segments)) = stored else {
        let status = if post.duration_seconds.is_some() { "absent" } else { "not_applicable" };
        return Ok(ContentTranscript { status: status.into(), language: None, text: None, segments: None, windowed: None });
    };
    let all: Vec<TranscriptSegment> = serde_json::from_str(&segments).map_err(|e| ApiError::Internal(e.to_string()))?;
    let needle = q.transcript_search.as_deref().map(str::to_lowercase);
    let kept: Vec<TranscriptSegment> = all
        .into_iter()
        .filter(|s| q.start_ms.is_none_or(|a| s.end_ms > a) && q.end_ms.is_none_or(|b| s.start_ms < b))
        .filter(|s| needle.as_deref().is_none_or(|n| s.text.to_lowercase().contains(n)))
        .collect();
    let windowed = (q.start_ms.is_some() || q.end_ms.is_some() || q.transcript_search.is_some()).then_some(true);
    let (text, segments) = if shape == "text" {
        (Some(kept.iter().map(|s| s.text.as_str()).collect::<Vec<_>>().join(" ")), None)
    } else {
        (None, Some(kept))
    };
    Ok(ContentTranscript { status: "complete".into(), language: Some(language), text, segments, windowed })
}

fn round(x: f64, places: i32) -> f64 {
    let f = 10f64.powi(places);
    (x * f).round() / f
}

/// Sorts by `score | date | views | engagement` (`relevance` ranks as score); ties by id so pages are
/// stable.
fn sort_content(posts: &mut [ContentSummary], sort_by: &str, ascending: bool) {
    posts.sort_by(|a, b| {
        let ord = match sort_by {
            "date" => a.published_at.cmp(&b.published_at),
            "views" => a.view_count.cmp(&b.view_count),
            "engagement" => a
                .engagement_rate
                .unwrap_or(0.0)
                .total_cmp(&b.engagement_rate.unwrap_or(0.0)),
            _ => a
                .outlier_score
                .unwrap_or(0.0)
                .total_cmp(&b.outlier_score.unwrap_or(0.0)),
        };
        let ord = if ascending { ord } else { ord.reverse() };
        ord.then_with(|| a.id.cmp(&b.id))
    });
}

struct AccountRow {
    account: TrackedAccount,
    brand_kit_id: Option<String>,
}

fn read_accounts(conn: &Connection, account_id: &str) -> ApiResult<Vec<AccountRow>> {
    let mut stmt = conn.prepare_cached(
        "SELECT id, platform, platform_account_id, handle, name, avatar_url, follower_count, last_synced_at,
                sync_status, account_type, brand_kit_id
         FROM tracked_accounts WHERE account_id = ?1 ORDER BY account_type DESC, sort_order, created_at, id",
    )?;
    let rows = stmt.query_map([account_id], |r| {
        Ok(AccountRow {
            account: TrackedAccount {
                id: r.get(0)?,
                platform: r.get(1)?,
                account_id: r.get(2)?,
                handle: r.get(3)?,
                name: r.get(4)?,
                avatar_url: r.get(5)?,
                follower_count: r.get(6)?,
                last_synced_at: r.get(7)?,
                sync_status: r.get(8)?,
                account_type: Some(r.get(9)?),
            },
            brand_kit_id: r.get(10)?,
        })
    })?;
    Ok(rows.collect::<rusqlite::Result<_>>()?)
}

fn read_content(conn: &Connection, account_id: &str) -> ApiResult<Vec<ContentRow>> {
    read_content_where(conn, account_id, None)
}
