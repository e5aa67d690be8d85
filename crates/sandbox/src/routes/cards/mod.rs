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
use crate::state::AppState;
use crate::time;
use api_types::scopes::{ASSETS_WRITE, PIPELINE_WRITE, PUBLISH_WRITE};
use api_types::{
    CardAsset, CardAssetInput, CardDetail, CardEnvelope, CardList, CardQuery, CardSummary,
    CreateCard, Position, Post, PostInput, PublishOutcome, PublishRequest, PublishResult,
    ResolvedSpace, UpdateCard, PLATFORMS,
};
use axum::extract::{Path, Request, State};
use axum::Json;
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

/// Card paging (fact sheet 1.7): 50 by default, at most 100.
mod assets;
pub(crate) mod publish;
pub(crate) mod read;
mod seed;
pub(crate) mod write;
use assets::*;
pub use read::read_detail;
use read::*;
use write::*;
pub use seed::seed_demo;

const DEFAULT_LIMIT: u32 = 50;
const MAX_LIMIT: u32 = 100;

/// A time as stored (normalised RFC 3339), or a 400 naming `field`; `None` stays `None` (clears).
fn rfc3339(field: &dyn std::fmt::Display, value: Option<&str>) -> ApiResult<Option<String>> {
    value
        .map(|s| {
            time::normalise(s)
                .ok_or_else(|| ApiError::bad(field.to_string(), format!("{field} must be an RFC 3339 time, not {s:?}")))
        })
        .transpose()
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
