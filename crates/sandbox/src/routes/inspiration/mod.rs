//! Inspiration: the accounts a user tracks (`/accounts`, their own brand accounts and others they learn
//! from) and those accounts' posts (`/content`), with the figures that make a post an outlier. Reads need
//! `brandkit:read` (docs/api.md). Everything belongs to one account; another account's record is "not
//! found". Cards attach a post by `contentId` through [`content_for_card`].
use crate::auth::Caller;
use crate::db::new_id;
use crate::db::CachedRow as _;
use crate::error::{ApiError, ApiResult};
use crate::extract::AppQuery;
use crate::state::AppState;
use api_types::scopes::BRANDKIT_READ;
use api_types::{
    BrandKitAccount, CardAssetInspiration, ContentAverages, ContentDetail, ContentDetailQuery, ContentList, ContentQuery,
    ContentTranscript, TranscriptSegment,
    ContentSummary, ContentTotals, TrackedAccount, TrackedAccountDetail, TrackedAccountList,
};
use axum::extract::{Path, State};
use axum::routing::get;
use axum::{Json, Router};
use rusqlite::{params, Connection, OptionalExtension};
use serde::Deserialize;

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

/// `(method, path)` of every route this module serves under `/api/v1` (kept in step with
/// `docs/openapi.yaml` by a test).
pub const ROUTES: &[(&str, &str)] = &[
    ("GET", "/accounts"),
    ("GET", "/accounts/{id}"),
    ("GET", "/content"),
    ("GET", "/content/{contentId}"),
];

pub const ACCOUNT_TYPES: &[&str] = &["inspiration", "brand"];
pub const PLATFORMS: &[&str] = &["youtube", "instagram"];
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

pub fn router() -> Router<AppState> {
    Router::new()
        .route("/accounts", get(list_accounts))
        .route("/accounts/{id}", get(account_detail))
        .route("/content", get(list_content))
        .route("/content/{contentId}", get(content_detail))
}

/// Query of `GET /accounts` (spec era snake_case; camelCase accepted).
#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
struct AccountsQuery {
    #[serde(default, alias = "accountType")]
    account_type: Option<String>,
    #[serde(default, alias = "brandKitId")]
    brand_kit_id: Option<String>,
}

async fn list_accounts(
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

async fn account_detail(
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

async fn list_content(
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

async fn content_detail(
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

/// The inspiration figures of a tracked post the caller can see, for a card asset attached by
/// `contentId`; `None` when the caller cannot see it (the card write answers 404).
pub fn content_for_card(
    conn: &rusqlite::Connection,
    account_id: &str,
    content_id: &str,
) -> crate::error::ApiResult<Option<api_types::CardAssetInspiration>> {
    // One post by its primary key: `read_content_where` with an id walked every tracked post of the
    // account (its `?2 IS NULL OR c.id = ?2` cannot use the key), a tenth of a `GET /cards/{id}`.
    Ok(conn
        .cached_row(
            "SELECT c.platform, c.content_type, a.name, a.handle, c.published_at, c.view_count, c.like_count,
                    c.comment_count, c.outlier_score, c.engagement_rate, c.thumbnail_url
             FROM tracked_content c JOIN tracked_accounts a ON a.id = c.tracked_account_id
             WHERE c.id = ?2 AND c.account_id = ?1 AND a.account_id = ?1",
            params![account_id, content_id],
            |r| {
                Ok(CardAssetInspiration {
                    platform: r.get(0)?,
                    content_type: r.get(1)?,
                    creator: r.get(2)?,
                    handle: r.get(3)?,
                    published_at: r.get(4)?,
                    view_count: r.get(5)?,
                    like_count: r.get(6)?,
                    comment_count: r.get(7)?,
                    outlier_score: r.get(8)?,
                    engagement_rate: r.get(9)?,
                    thumbnail_url: r.get(10)?,
                })
            },
        )
        .optional()?)
}

/// The ids of an account's tracked posts, highest outlier score first (for other modules' demo seeds,
/// which attach inspiration posts to cards).
pub fn content_ids(conn: &Connection, account_id: &str) -> rusqlite::Result<Vec<String>> {
    let mut stmt = conn.prepare_cached(
        "SELECT id FROM tracked_content WHERE account_id = ?1 ORDER BY outlier_score DESC, id",
    )?;
    let rows = stmt.query_map([account_id], |r| r.get(0))?;
    rows.collect()
}

/// Links the account's tracked accounts to a brand kit (the kit's brand and inspiration accounts).
pub fn link_to_brand_kit(
    conn: &Connection,
    account_id: &str,
    brand_kit_id: &str,
) -> rusqlite::Result<()> {
    conn.execute(
        "UPDATE tracked_accounts SET brand_kit_id = ?2 WHERE account_id = ?1 AND brand_kit_id IS NULL",
        params![account_id, brand_kit_id],
    )?;
    Ok(())
}

fn one_of(field: &str, value: &str, valid: &[&str]) -> ApiResult<()> {
    if valid.contains(&value) {
        return Ok(());
    }
    Err(ApiError::InvalidValue {
        message: format!(
            "Unknown `{field}` \"{value}\": use one of {}",
            valid.join(", ")
        ),
        field: field.to_string(),
        valid: valid.iter().map(|s| s.to_string()).collect(),
    })
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

/// The tracked accounts linked to a brand kit, as its full read lists them: `(brand, inspiration)`.
pub fn kit_accounts(conn: &Connection, kit_id: &str) -> ApiResult<(Vec<BrandKitAccount>, Vec<BrandKitAccount>)> {
    let mut stmt = conn.prepare_cached(
        "SELECT id, platform, name, handle, avatar_url, follower_count, account_type
         FROM tracked_accounts WHERE brand_kit_id = ?1 ORDER BY sort_order, created_at, id",
    )?;
    let rows = stmt.query_map([kit_id], |r| {
        Ok(BrandKitAccount {
            id: r.get(0)?,
            platform: r.get(1)?,
            name: r.get(2)?,
            handle: r.get(3)?,
            avatar_url: r.get(4)?,
            follower_count: r.get::<_, Option<i64>>(5)?.map(|n| n as f64),
            account_type: r.get(6)?,
        })
    })?;
    let all: Vec<BrandKitAccount> = rows.collect::<rusqlite::Result<_>>()?;
    Ok(all.into_iter().partition(|a| a.account_type.as_deref() != Some("inspiration")))
}

/// `brandAccounts` / `inspirationAccounts` on a kit PATCH: replaces the kit's accounts of that type. An
/// entry is a tracked-account id of the caller (linked; another's or an unknown one is 404 naming the
/// entry) or `{ platform?, handleOrUrl }`, which starts tracking a new account (`syncStatus: pending`; the
/// sandbox never fetches it). Entries were checked for shape before.
pub fn set_kit_accounts(
    conn: &Connection,
    account_id: &str,
    kit_id: &str,
    (field, account_type): (&str, &str),
    entries: &[serde_json::Value],
    now: &str,
) -> ApiResult<()> {
    conn.execute(
        "UPDATE tracked_accounts SET brand_kit_id = NULL WHERE account_id = ?1 AND brand_kit_id = ?2 AND account_type = ?3",
        params![account_id, kit_id, account_type],
    )?;
    for (i, entry) in entries.iter().enumerate() {
        match entry {
            serde_json::Value::String(id) => {
                let linked = conn.execute(
                    "UPDATE tracked_accounts SET brand_kit_id = ?3, account_type = ?4, sort_order = ?5
                     WHERE account_id = ?1 AND id = ?2",
                    params![account_id, id.trim(), kit_id, account_type, i as i64],
                )?;
                if linked == 0 {
                    return Err(ApiError::NotFound(format!("{field}[{i}]: tracked account {id} not found")));
                }
            }
            serde_json::Value::Object(o) => {
                let given = o.get("handleOrUrl").and_then(|h| h.as_str()).unwrap_or_default().trim();
                let platform = match o.get("platform").and_then(|p| p.as_str()) {
                    Some(p) => {
                        one_of(&format!("{field}[{i}].platform"), p, PLATFORMS)?;
                        p.to_string()
                    }
                    None if given.contains("youtube.com") || given.contains("youtu.be") => "youtube".into(),
                    None => "instagram".into(),
                };
                let tail = given.trim_end_matches('/').rsplit('/').next().unwrap_or(given).trim_start_matches('@');
                let handle = format!("@{tail}");
                conn.execute(
                    "INSERT INTO tracked_accounts (id, account_id, platform, handle, name, sync_status, account_type,
                        brand_kit_id, sort_order, created_at)
                     VALUES (?1, ?2, ?3, ?4, ?4, 'pending', ?5, ?6, ?7, ?8)",
                    params![new_id(), account_id, platform, handle, account_type, kit_id, i as i64, now],
                )?;
            }
            _ => return Err(ApiError::internal(format!("{field}[{i}] was not checked"))),
        }
    }
    Ok(())
}

/// A tracked post with what the filters need beside its wire form.
struct ContentRow {
    summary: ContentSummary,
    /// The tracked account's id.
    account_id: String,
    account_type: String,
    description: Option<String>,
    hashtags: Vec<String>,
}

impl ContentRow {
    /// `search` (already lower-case) against the title, description, hashtags and creator.
    fn matches(&self, search: &str) -> bool {
        let s = &self.summary;
        [
            &s.title,
            &self.description,
            &s.source_creator,
            &s.account_handle,
        ]
        .iter()
        .any(|f| {
            f.as_ref()
                .is_some_and(|t| t.to_lowercase().contains(search))
        }) || self
            .hashtags
            .iter()
            .any(|h| h.to_lowercase().contains(search))
    }
}

fn read_content(conn: &Connection, account_id: &str) -> ApiResult<Vec<ContentRow>> {
    read_content_where(conn, account_id, None)
}

fn read_content_where(
    conn: &Connection,
    account_id: &str,
    content_id: Option<&str>,
) -> ApiResult<Vec<ContentRow>> {
    let mut stmt = conn.prepare_cached(
        "SELECT c.id, c.platform, c.content_type, c.title, c.url, c.thumbnail_url, c.view_count, c.like_count,
                c.comment_count, c.share_count, c.duration_seconds, c.outlier_score, c.engagement_rate,
                c.published_at, a.name, a.handle, a.id, a.account_type, c.description, c.hashtags
         FROM tracked_content c JOIN tracked_accounts a ON a.id = c.tracked_account_id
         WHERE c.account_id = ?1 AND a.account_id = ?1 AND (?2 IS NULL OR c.id = ?2)",
    )?;
    let rows = stmt.query_map(params![account_id, content_id], |r| {
        let hashtags: String = r.get(19)?;
        Ok(ContentRow {
            summary: ContentSummary {
                id: r.get(0)?,
                platform: r.get(1)?,
                content_type: r.get(2)?,
                title: r.get(3)?,
                url: r.get(4)?,
                thumbnail_url: r.get(5)?,
                view_count: r.get(6)?,
                like_count: r.get(7)?,
                comment_count: r.get(8)?,
                share_count: r.get(9)?,
                duration_seconds: r.get(10)?,
                outlier_score: r.get(11)?,
                engagement_rate: r.get(12)?,
                published_at: r.get(13)?,
                source_creator: r.get(14)?,
                account_handle: r.get(15)?,
                account_id: r.get(16)?,
            },
            account_id: r.get(16)?,
            account_type: r.get(17)?,
            description: r.get(18)?,
            hashtags: serde_json::from_str(&hashtags).unwrap_or_default(),
        })
    })?;
    Ok(rows.collect::<rusqlite::Result<_>>()?)
}

