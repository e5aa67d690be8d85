//! Spaces: the boards cards live on (fact sheet 2.6, 3.8). Bodies and queries are snake_case in the spec
//! era, camelCase accepted (the api-types structs do that). Every space belongs to one account; another
//! account's is "not found". `postCount` counts the live (not archived) cards.
use crate::db::CachedRow as _;
use crate::auth::Caller;
use crate::db::new_id;
use crate::error::{ApiError, ApiResult};
use crate::extract::{AppJson, AppQuery};
use crate::state::AppState;
use crate::time;
use api_types::{
    CreateSpace, Position, SpaceEnvelope, SpaceList, UpdateSpace,
};
use axum::extract::{Path, State};
use axum::Json;
use rusqlite::params;
use serde::Deserialize;
use crate::tables::board;
use crate::tables::board::{COLS, check_url, from_row, read};

pub const SCHEMA: &str = "
CREATE TABLE IF NOT EXISTS spaces (
    id TEXT PRIMARY KEY,
    account_id TEXT NOT NULL REFERENCES accounts(id),
    name TEXT NOT NULL,
    cover_url TEXT,
    cover_x REAL,
    cover_y REAL,
    is_favorite INTEGER NOT NULL DEFAULT 0,
    archived_at TEXT,
    created_at TEXT NOT NULL,
    updated_at TEXT NOT NULL
);
CREATE INDEX IF NOT EXISTS spaces_by_account ON spaces(account_id);
";

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct SpaceQuery {
    #[serde(default, alias = "includeArchived")]
    include_archived: Option<bool>,
}

pub(crate) async fn list(
    State(state): State<AppState>,
    caller: Caller,
    AppQuery(q): AppQuery<SpaceQuery>,
) -> ApiResult<Json<SpaceList>> {
    let conn = state.db().reader()?;
    let archived = if q.include_archived == Some(true) {
        ""
    } else {
        "AND s.archived_at IS NULL"
    };
    // Creation order is rowid order: the stored times are strings whose whole seconds carry no
    // fraction, so they do not sort reliably within a second.
    let mut stmt = conn.prepare_cached(&format!(
        "SELECT {COLS} FROM spaces s WHERE s.account_id = ?1 {archived} ORDER BY s.rowid"
    ))?;
    let spaces = stmt
        .query_map([&caller.account_id], from_row)?
        .collect::<rusqlite::Result<Vec<_>>>()?;
    Ok(Json(SpaceList { spaces }))
}

pub(crate) async fn one(
    State(state): State<AppState>,
    caller: Caller,
    Path(id): Path<String>,
) -> ApiResult<Json<SpaceEnvelope>> {
    let conn = state.db().reader()?;
    Ok(Json(SpaceEnvelope {
        space: read(&conn, &caller.account_id, &id)?,
    }))
}

pub(crate) async fn create(
    State(state): State<AppState>,
    caller: Caller,
    AppJson(body): AppJson<CreateSpace>,
) -> ApiResult<Json<SpaceEnvelope>> {
    let name = check_name(&body.name)?;
    if let Some(url) = &body.cover_url {
        check_url("cover_url", url)?;
    }
    if let Some(p) = &body.cover_position {
        check_position(p)?;
        if body.cover_url.is_none() {
            return Err(ApiError::bad(
                "cover_position",
                "cover_position needs a cover: give cover_url too",
            ));
        }
    }
    let space = state.db().tx(|tx| {
        let source = match &body.duplicate_from {
            Some(src) => Some(read(tx, &caller.account_id, src)?.id),
            None => None,
        };
        let id = new_id();
        let now = time::now_str();
        let pos = body.cover_position;
        tx.execute(
            "INSERT INTO spaces (id, account_id, name, cover_url, cover_x, cover_y, created_at, updated_at)
             VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?7)",
            params![id, caller.account_id, name, body.cover_url, pos.map(|p| p.x), pos.map(|p| p.y), now],
        )?;
        // duplicate_from copies the stages only, never the cards (fact sheet 2.6).
        if let Some(src) = source {
            board::ensure_stages(tx, &caller.account_id, &src)?;
            board::copy_stages(tx, &caller.account_id, &src, &id)?;
        }
        read(tx, &caller.account_id, &id)
    })?;
    Ok(Json(SpaceEnvelope { space }))
}

/// `DELETE /spaces/{id}` (fact sheet 2.6): refused while the space holds cards, archived ones included
/// (the error names the count); its stages go with it.
pub(crate) async fn remove(
    State(state): State<AppState>,
    caller: Caller,
    Path(id): Path<String>,
) -> ApiResult<Json<api_types::Deleted>> {
    state.db().tx(|tx| {
        read(tx, &caller.account_id, &id)?;
        let cards: i64 = tx.cached_row("SELECT COUNT(*) FROM cards WHERE space_id = ?1", [&id], |r| r.get(0))?;
        if cards > 0 {
            let s = if cards == 1 { "" } else { "s" };
            return Err(ApiError::bad(
                "id",
                format!("This space holds {cards} card{s} (archived ones count); move or delete them first, or archive the space"),
            ));
        }
        tx.execute("DELETE FROM stages WHERE space_id = ?1", [&id])?;
        tx.execute("DELETE FROM spaces WHERE id = ?1", [&id])?;
        Ok(())
    })?;
    Ok(Json(api_types::Deleted { id }))
}

pub(crate) async fn update(
    State(state): State<AppState>,
    caller: Caller,
    Path(id): Path<String>,
    AppJson(body): AppJson<UpdateSpace>,
) -> ApiResult<Json<SpaceEnvelope>> {
    let name = body.name.as_deref().map(check_name).transpose()?;
    if let Some(Some(url)) = &body.cover_url {
        check_url("cover_url", url)?;
    }
    if let Some(p) = &body.cover_position {
        check_position(p)?;
    }
    let space = state.db().tx(|tx| {
        read(tx, &caller.account_id, &id)?;
        let now = time::now_str();
        if let Some(name) = name {
            tx.execute("UPDATE spaces SET name = ?2, updated_at = ?3 WHERE id = ?1", params![id, name, now])?;
        }
        match &body.cover_url {
            // null removes the cover and its framing.
            Some(None) => {
                tx.execute(
                    "UPDATE spaces SET cover_url = NULL, cover_x = NULL, cover_y = NULL, updated_at = ?2 WHERE id = ?1",
                    params![id, now],
                )?;
            }
            Some(Some(url)) => {
                tx.execute("UPDATE spaces SET cover_url = ?2, updated_at = ?3 WHERE id = ?1", params![id, url, now])?;
            }
            None => {}
        }
        if let Some(p) = body.cover_position {
            // Framing belongs to a cover; with no cover (and none given) it is refused rather than kept.
            let has_cover: Option<String> =
                tx.cached_row("SELECT cover_url FROM spaces WHERE id = ?1", [&id], |r| r.get(0))?;
            if has_cover.is_none() {
                return Err(ApiError::bad("cover_position", "cover_position needs a cover: set cover_url first"));
            }
            tx.execute(
                "UPDATE spaces SET cover_x = ?2, cover_y = ?3, updated_at = ?4 WHERE id = ?1",
                params![id, p.x, p.y, now],
            )?;
        }
        read(tx, &caller.account_id, &id)
    })?;
    Ok(Json(SpaceEnvelope { space }))
}

fn check_name(name: &str) -> ApiResult<String> {
    let name = name.trim();
    if name.is_empty() {
        return Err(ApiError::bad("name", "name must not be empty"));
    }
    if name.chars().count() > 200 {
        return Err(ApiError::bad("name", "name is at most 200 characters"));
    }
    Ok(name.to_string())
}

/// Cover framing is a point in percent.
fn check_position(p: &Position) -> ApiResult<()> {
    let ok = |v: f64| v.is_finite() && (0.0..=100.0).contains(&v);
    if ok(p.x) && ok(p.y) {
        Ok(())
    } else {
        Err(ApiError::bad(
            "cover_position",
            "cover_position x and y are percentages between 0 and 100",
        ))
    }
}
