//! Cards: the unit of work on a board, with their posts (one per platform) and assets (carousel order).
//! Spec section 4 "Cards" and fact sheet 2.8, 3.9. `PATCH /cards/{id}` follows the spec's rules:
//! `posts` and `assets` are declarative, `scheduledAt` sets the card and every post (a post's own time
//! overrides), asset entries name exactly one reference and never the same thing twice, and the scopes a
//! write needs depend on what it carries. Card replies are enveloped as `post` (docs/api.md).
use crate::db::CachedRow as _;
use crate::auth::Caller;
use crate::db::new_id;
use crate::error::{ApiError, ApiResult};
use crate::extract::{parse_json, read_body, AppJson, AppQuery, Reply};
use crate::routes::{connected_accounts, inspiration, projects, spaces, stages, studio, tags};
use crate::state::AppState;
use crate::time;
use api_types::scopes::{ASSETS_WRITE, PIPELINE_WRITE, PUBLISH_WRITE};
use api_types::{
    CardAsset, CardAssetInput, CardDetail, CardEnvelope, CardList, CardQuery, CardSummary,
    CreateCard, Position, Post, PostInput, PublishOutcome, PublishRequest, PublishResult,
    ResolvedSpace, UpdateCard, PLATFORMS,
};
use axum::extract::{Path, Request, State};
use axum::routing::{get, post};
use axum::{Json, Router};
use rusqlite::{params, params_from_iter, Connection, OptionalExtension, Row};

pub const SCHEMA: &str = "
CREATE TABLE IF NOT EXISTS cards (
    id TEXT PRIMARY KEY,
    account_id TEXT NOT NULL REFERENCES accounts(id),
    space_id TEXT NOT NULL REFERENCES spaces(id),
    stage_id TEXT REFERENCES stages(id),
    board_order REAL NOT NULL,
    title TEXT NOT NULL,
    platform TEXT,
    content_type TEXT,
    cover_url TEXT,
    cover_output_id TEXT,
    cover_x REAL,
    cover_y REAL,
    is_favorite INTEGER NOT NULL DEFAULT 0,
    archived_at TEXT,
    scheduled_at TEXT,
    published_at TEXT,
    publish_url TEXT,
    notes TEXT,
    revision INTEGER NOT NULL DEFAULT 0,
    metadata TEXT,
    created_at TEXT NOT NULL,
    updated_at TEXT NOT NULL
);
CREATE INDEX IF NOT EXISTS cards_by_board ON cards(space_id, stage_id, board_order);
CREATE INDEX IF NOT EXISTS cards_by_account ON cards(account_id);
CREATE TABLE IF NOT EXISTS card_posts (
    id TEXT PRIMARY KEY,
    card_id TEXT NOT NULL REFERENCES cards(id) ON DELETE CASCADE,
    platform TEXT NOT NULL,
    format TEXT,
    connected_account_id TEXT,
    -- The post's own time; NULL inherits the card's.
    scheduled_at TEXT,
    status TEXT,
    platform_settings TEXT,
    published_at TEXT,
    publish_url TEXT,
    sort_order INTEGER NOT NULL,
    UNIQUE (card_id, platform)
);
-- In order: a card's posts are always read by sort_order, so the index gives them sorted (no sort step).
DROP INDEX IF EXISTS card_posts_by_card;
CREATE INDEX IF NOT EXISTS card_posts_in_order ON card_posts(card_id, sort_order);
CREATE TABLE IF NOT EXISTS card_assets (
    id TEXT PRIMARY KEY,
    card_id TEXT NOT NULL REFERENCES cards(id) ON DELETE CASCADE,
    sort_order INTEGER NOT NULL,
    asset_type TEXT,
    output_id TEXT,
    asset_url TEXT,
    content_id TEXT,
    project_id TEXT,
    display_name TEXT,
    preview_url TEXT,
    metadata TEXT
);
DROP INDEX IF EXISTS card_assets_by_card;
CREATE INDEX IF NOT EXISTS card_assets_in_order ON card_assets(card_id, sort_order);
CREATE TABLE IF NOT EXISTS card_tags (
    card_id TEXT NOT NULL REFERENCES cards(id) ON DELETE CASCADE,
    tag_id TEXT NOT NULL REFERENCES tags(id) ON DELETE CASCADE,
    PRIMARY KEY (card_id, tag_id)
);
";

/// Left by an older build (a cache of cards' posts, tags and assets kept fresh by triggers on seven
/// tables): dropped when a file it made is opened. After every table's `SCHEMA`.
pub const RETIRED_SCHEMA: &str = "
DROP TRIGGER IF EXISTS card_parts_epoch_card_posts_insert; DROP TRIGGER IF EXISTS card_parts_epoch_card_posts_update; DROP TRIGGER IF EXISTS card_parts_epoch_card_posts_delete;
DROP TRIGGER IF EXISTS card_parts_epoch_card_assets_insert; DROP TRIGGER IF EXISTS card_parts_epoch_card_assets_update; DROP TRIGGER IF EXISTS card_parts_epoch_card_assets_delete;
DROP TRIGGER IF EXISTS card_parts_epoch_card_tags_insert; DROP TRIGGER IF EXISTS card_parts_epoch_card_tags_update; DROP TRIGGER IF EXISTS card_parts_epoch_card_tags_delete;
DROP TRIGGER IF EXISTS card_parts_epoch_tags_insert; DROP TRIGGER IF EXISTS card_parts_epoch_tags_update; DROP TRIGGER IF EXISTS card_parts_epoch_tags_delete;
DROP TRIGGER IF EXISTS card_parts_epoch_tracked_content_insert; DROP TRIGGER IF EXISTS card_parts_epoch_tracked_content_update; DROP TRIGGER IF EXISTS card_parts_epoch_tracked_content_delete;
DROP TRIGGER IF EXISTS card_parts_epoch_tracked_accounts_insert; DROP TRIGGER IF EXISTS card_parts_epoch_tracked_accounts_update; DROP TRIGGER IF EXISTS card_parts_epoch_tracked_accounts_delete;
DROP TRIGGER IF EXISTS card_parts_epoch_projects_insert; DROP TRIGGER IF EXISTS card_parts_epoch_projects_update; DROP TRIGGER IF EXISTS card_parts_epoch_projects_delete;
DROP TABLE IF EXISTS card_parts_epoch;
";

/// `(method, path)` of every route this module serves under `/api/v1` (kept in step with
/// `docs/openapi.yaml` by a test).
pub const ROUTES: &[(&str, &str)] = &[
    ("GET", "/cards"),
    ("POST", "/cards"),
    ("GET", "/cards/{id}"),
    ("PATCH", "/cards/{id}"),
    ("POST", "/cards/{id}/publish"),
];

/// Card paging (fact sheet 1.7): 50 by default, at most 100.
mod assets;
mod publish;
mod read;
mod seed;
mod write;
use assets::*;
use publish::*;
pub use read::read_detail;
use read::*;
use write::*;
pub use seed::{demo_card, seed_demo, DEMO_PROJECT_CARD};

const DEFAULT_LIMIT: u32 = 50;
const MAX_LIMIT: u32 = 100;

pub fn router() -> Router<AppState> {
    Router::new()
        .route("/cards", get(list).post(create))
        .route("/cards/{id}", get(one).patch(update))
        .route("/cards/{id}/publish", post(publish))
}

/// Appends a project asset to a card (a project created with `cardId`).
pub fn link_project(conn: &Connection, card_id: &str, project_id: &str) -> rusqlite::Result<()> {
    let next: i64 = conn.cached_row(
        "SELECT COALESCE(MAX(sort_order) + 1, 0) FROM card_assets WHERE card_id = ?1",
        [card_id],
        |r| r.get(0),
    )?;
    conn.execute(
        "INSERT INTO card_assets (id, card_id, sort_order, asset_type, project_id) VALUES (?1, ?2, ?3, 'project', ?4)",
        params![new_id(), card_id, next, project_id],
    )?;
    conn.execute(
        "UPDATE cards SET updated_at = ?2 WHERE id = ?1",
        params![card_id, time::now_str()],
    )?;
    Ok(())
}

/// Whether `card_id` is the caller's.
pub fn exists(conn: &Connection, account_id: &str, card_id: &str) -> rusqlite::Result<bool> {
    Ok(conn
        .cached_row(
            "SELECT 1 FROM cards WHERE id = ?1 AND account_id = ?2",
            params![card_id, account_id],
            |r| r.get::<_, i64>(0),
        )
        .optional()?
        .is_some())
}

/// A time as stored (normalised RFC 3339), or a 400 naming `field`; `None` stays `None` (clears).
fn rfc3339(field: &dyn std::fmt::Display, value: Option<&str>) -> ApiResult<Option<String>> {
    value
        .map(|s| {
            time::normalise(s)
                .ok_or_else(|| ApiError::bad(field.to_string(), format!("{field} must be an RFC 3339 time, not {s:?}")))
        })
        .transpose()
}

/// `POST /archive` with `assetType: card`. A timestamp only: restoring keeps the schedule and the rest.
pub fn set_archived(
    conn: &Connection,
    account_id: &str,
    id: &str,
    archived: bool,
) -> ApiResult<()> {
    let n = conn.execute(
        "UPDATE cards SET archived_at = CASE WHEN ?3 THEN COALESCE(archived_at, ?4) ELSE NULL END, updated_at = ?4
         WHERE id = ?1 AND account_id = ?2",
        params![id, account_id, archived, time::now_str()],
    )?;
    if n == 0 {
        return Err(ApiError::not_found("Card"));
    }
    Ok(())
}

fn check_title(title: &str) -> ApiResult<String> {
    let t = title.trim();
    if t.is_empty() || t.chars().count() > 300 {
        return Err(ApiError::bad("title", "title must be 1 to 300 characters"));
    }
    Ok(t.to_string())
}

fn check_platform(field: &str, platform: &str) -> ApiResult<()> {
    if PLATFORMS.contains(&platform) {
        return Ok(());
    }
    Err(ApiError::InvalidValue {
        message: format!(
            "{field} must be one of {}, not {platform:?}",
            PLATFORMS.join(", ")
        ),
        field: field.to_string(),
        valid: PLATFORMS.iter().map(|p| p.to_string()).collect(),
    })
}

