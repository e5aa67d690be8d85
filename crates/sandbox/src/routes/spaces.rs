//! Spaces: the boards cards live on (fact sheet 2.6, 3.8). Bodies and queries are snake_case in the spec
//! era, camelCase accepted (the api-types structs do that). Every space belongs to one account; another
//! account's is "not found". `postCount` counts the live (not archived) cards.
use crate::db::CachedRow as _;
use crate::auth::Caller;
use crate::db::new_id;
use crate::error::{ApiError, ApiResult};
use crate::extract::{AppJson, AppQuery};
use crate::routes::stages;
use crate::state::AppState;
use crate::time;
use api_types::{
    CreateSpace, Position, ResolvedSpace, Space, SpaceEnvelope, SpaceList, UpdateSpace,
};
use axum::extract::{Path, State};
use axum::routing::get;
use axum::{Json, Router};
use rusqlite::{params, Connection, OptionalExtension, Row};
use serde::Deserialize;

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

/// `(method, path)` of every route this module serves under `/api/v1` (kept in step with
/// `docs/openapi.yaml` by a test).
pub const ROUTES: &[(&str, &str)] = &[
    ("GET", "/spaces"),
    ("POST", "/spaces"),
    ("GET", "/spaces/{id}"),
    ("PATCH", "/spaces/{id}"),
    ("DELETE", "/spaces/{id}"),
];

/// The name of the space an account gets when it first needs one.
pub const DEFAULT_SPACE_NAME: &str = "Content plan";

pub fn router() -> Router<AppState> {
    Router::new()
        .route("/spaces", get(list).post(create))
        .route("/spaces/{id}", get(one).patch(update).delete(remove))
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct SpaceQuery {
    #[serde(default, alias = "includeArchived")]
    include_archived: Option<bool>,
}

const COLS: &str =
    "s.id, s.account_id, s.name, s.cover_url, s.cover_x, s.cover_y, s.is_favorite, s.archived_at, \
     s.created_at, s.updated_at, \
     (SELECT COUNT(*) FROM cards c WHERE c.space_id = s.id AND c.archived_at IS NULL)";

fn from_row(r: &Row) -> rusqlite::Result<Space> {
    let x: Option<f64> = r.get(4)?;
    let y: Option<f64> = r.get(5)?;
    Ok(Space {
        id: r.get(0)?,
        account_id: r.get(1)?,
        name: r.get(2)?,
        cover_url: r.get(3)?,
        cover_position: x.zip(y).map(|(x, y)| Position { x, y }),
        is_favorite: r.get::<_, i64>(6)? != 0,
        archived_at: r.get(7)?,
        created_at: r.get(8)?,
        updated_at: r.get(9)?,
        post_count: Some(r.get(10)?),
    })
}

async fn list(
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

async fn one(
    State(state): State<AppState>,
    caller: Caller,
    Path(id): Path<String>,
) -> ApiResult<Json<SpaceEnvelope>> {
    let conn = state.db().reader()?;
    Ok(Json(SpaceEnvelope {
        space: read(&conn, &caller.account_id, &id)?,
    }))
}

async fn create(
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
            stages::ensure_stages(tx, &caller.account_id, &src)?;
            stages::copy_stages(tx, &caller.account_id, &src, &id)?;
        }
        read(tx, &caller.account_id, &id)
    })?;
    Ok(Json(SpaceEnvelope { space }))
}

/// `DELETE /spaces/{id}` (fact sheet 2.6): refused while the space holds cards, archived ones included
/// (the error names the count); its stages go with it.
async fn remove(
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

async fn update(
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

/// The caller's space `id`, or 404.
pub fn read(conn: &Connection, account_id: &str, id: &str) -> ApiResult<Space> {
    conn.cached_row(
        &format!("SELECT {COLS} FROM spaces s WHERE s.id = ?1 AND s.account_id = ?2"),
        params![id, account_id],
        from_row,
    )
    .optional()?
    .ok_or_else(|| ApiError::not_found("Space"))
}

/// `{id, name}` of the caller's space `id`, or 404.
pub fn resolve(conn: &Connection, account_id: &str, id: &str) -> ApiResult<ResolvedSpace> {
    conn.cached_row(
        "SELECT id, name FROM spaces WHERE id = ?1 AND account_id = ?2",
        params![id, account_id],
        |r| {
            Ok(ResolvedSpace {
                id: r.get(0)?,
                name: r.get(1)?,
            })
        },
    )
    .optional()?
    .ok_or_else(|| ApiError::not_found("Space"))
}

/// The account's default space: its first live space (oldest), else its first space, else a new one
/// named "Content plan" — reads that omit `space_id` land here (fact sheet 2.7).
pub fn default_space(conn: &Connection, account_id: &str) -> ApiResult<ResolvedSpace> {
    let found = conn
        .cached_row(
            "SELECT id, name FROM spaces WHERE account_id = ?1
             ORDER BY archived_at IS NOT NULL, rowid LIMIT 1",
            [account_id],
            |r| {
                Ok(ResolvedSpace {
                    id: r.get(0)?,
                    name: r.get(1)?,
                })
            },
        )
        .optional()?;
    if let Some(space) = found {
        return Ok(space);
    }
    let id = insert(conn, account_id, DEFAULT_SPACE_NAME)?;
    Ok(ResolvedSpace {
        id,
        name: DEFAULT_SPACE_NAME.to_string(),
    })
}

/// A space given by id, or the default one when none is given.
pub fn given_or_default(
    conn: &Connection,
    account_id: &str,
    id: Option<&str>,
) -> ApiResult<ResolvedSpace> {
    match id {
        Some(id) => resolve(conn, account_id, id),
        None => default_space(conn, account_id),
    }
}

/// Inserts a bare space (the seed and the default space).
pub fn insert(conn: &Connection, account_id: &str, name: &str) -> rusqlite::Result<String> {
    let id = new_id();
    let now = time::now_str();
    conn.execute(
        "INSERT INTO spaces (id, account_id, name, created_at, updated_at) VALUES (?1, ?2, ?3, ?4, ?4)",
        params![id, account_id, name, now],
    )?;
    Ok(id)
}

/// `POST /archive` with `assetType: space`. Archiving is a timestamp only; `false` restores.
pub fn set_archived(
    conn: &Connection,
    account_id: &str,
    id: &str,
    archived: bool,
) -> ApiResult<()> {
    let n = conn.execute(
        "UPDATE spaces SET archived_at = CASE WHEN ?3 THEN COALESCE(archived_at, ?4) ELSE NULL END, updated_at = ?4
         WHERE id = ?1 AND account_id = ?2",
        params![id, account_id, archived, time::now_str()],
    )?;
    if n == 0 {
        return Err(ApiError::not_found("Space"));
    }
    Ok(())
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

/// A cover or asset link must be an http(s) URL.
pub fn check_url(field: &str, url: &str) -> ApiResult<()> {
    let rest = url
        .strip_prefix("https://")
        .or_else(|| url.strip_prefix("http://"));
    if rest.is_some_and(|r| !r.is_empty() && !r.chars().any(char::is_whitespace)) {
        Ok(())
    } else {
        Err(ApiError::bad(
            field,
            format!("{field} must be an http(s) URL"),
        ))
    }
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
