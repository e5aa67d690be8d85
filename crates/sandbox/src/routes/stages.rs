//! Stages: the ordered columns of a space (fact sheet 2.7, 3.8). A space that has never had stages gets
//! the default six on first access. The slug is derived from the name and unique within the space; the
//! order is a number with gaps, so a move normally writes one row, and the whole board is renumbered
//! (`respaced: true`) only when a gap runs out. Deleting a stage moves its cards in the same transaction.
use crate::db::CachedRow as _;
use crate::auth::Caller;
use crate::db::new_id;
use crate::error::{ApiError, ApiResult};
use crate::extract::{AppJson, AppQuery};
use crate::state::AppState;
use crate::time;
use api_types::{
    CreateStage, DeleteStage, StageDeleted, StageEnvelope, StageList, StageUpdated,
    UpdateStage,
};
use axum::extract::{Path, State};
use axum::Json;
use rusqlite::{params, Connection, OptionalExtension};
use serde::Deserialize;
use crate::tables::board;
use crate::tables::board::{ORDER_STEP, ensure_stages, find_in_space, in_space, renumber, slot, slugify};

pub const SCHEMA: &str = "
CREATE TABLE IF NOT EXISTS stages (
    id TEXT PRIMARY KEY,
    account_id TEXT NOT NULL REFERENCES accounts(id),
    space_id TEXT NOT NULL REFERENCES spaces(id),
    name TEXT NOT NULL,
    slug TEXT NOT NULL,
    color TEXT,
    sort_order REAL NOT NULL,
    created_at TEXT NOT NULL,
    UNIQUE (space_id, slug)
);
";

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct StageQuery {
    #[serde(default, alias = "spaceId")]
    space_id: Option<String>,
}

pub(crate) async fn list(
    State(state): State<AppState>,
    caller: Caller,
    AppQuery(q): AppQuery<StageQuery>,
) -> ApiResult<Json<StageList>> {
    let space = state.db().tx(|tx| {
        let space = board::given_or_default(tx, &caller.account_id, q.space_id.as_deref())?;
        ensure_stages(tx, &caller.account_id, &space.id)?;
        Ok::<_, ApiError>(space)
    })?;
    let conn = state.db().lock();
    Ok(Json(StageList {
        stages: in_space(&conn, &space.id)?,
        space,
    }))
}

pub(crate) async fn create(
    State(state): State<AppState>,
    caller: Caller,
    AppJson(body): AppJson<CreateStage>,
) -> ApiResult<Json<StageEnvelope>> {
    let (name, slug) = check_name(&body.name)?;
    let color = body.color.as_deref().map(check_color).transpose()?;
    let stage = state.db().tx(|tx| {
        let space = board::given_or_default(tx, &caller.account_id, body.space_id.as_deref())?;
        ensure_stages(tx, &caller.account_id, &space.id)?;
        refuse_duplicate_slug(tx, &space.id, &slug, None)?;
        let seq = orders(tx, &space.id, None)?;
        let at_after = body.after_id.as_deref().map(|a| index_of(&seq, a, "after_id").map(|i| i + 1)).transpose()?;
        let at_before = body.before_id.as_deref().map(|b| index_of(&seq, b, "before_id")).transpose()?;
        let index = agree(at_after, at_before)?.unwrap_or(seq.len());
        let id = new_id();
        let order = slot(&seq, index).unwrap_or(0.0);
        tx.execute(
            "INSERT INTO stages (id, account_id, space_id, name, slug, color, sort_order, created_at)
             VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8)",
            params![id, caller.account_id, space.id, name, slug, color, order, time::now_str()],
        )?;
        if slot(&seq, index).is_none() {
            let mut ids: Vec<String> = seq.iter().map(|(id, _)| id.clone()).collect();
            ids.insert(index, id.clone());
            renumber(tx, "stages", &ids)?;
        }
        find_in_space(tx, &space.id, &id)?.ok_or_else(|| ApiError::internal("stage vanished"))
    })?;
    Ok(Json(StageEnvelope { stage }))
}

pub(crate) async fn update(
    State(state): State<AppState>,
    caller: Caller,
    Path(id): Path<String>,
    AppJson(body): AppJson<UpdateStage>,
) -> ApiResult<Json<StageUpdated>> {
    let named = body.name.as_deref().map(check_name).transpose()?;
    let color = body.color.as_deref().map(check_color).transpose()?;
    let (stage, respaced) = state.db().tx(|tx| {
        let space = board::resolve(tx, &caller.account_id, &body.space_id)?;
        find_in_space(tx, &space.id, &id)?
            .filter(|s| s.id == id)
            .ok_or_else(|| ApiError::not_found("Stage"))?;
        if let Some((name, slug)) = &named {
            // A rename re-derives the slug, which must stay unique in the space.
            refuse_duplicate_slug(tx, &space.id, slug, Some(&id))?;
            tx.execute(
                "UPDATE stages SET name = ?2, slug = ?3 WHERE id = ?1",
                params![id, name, slug],
            )?;
        }
        if let Some(color) = &color {
            tx.execute(
                "UPDATE stages SET color = ?2 WHERE id = ?1",
                params![id, color],
            )?;
        }
        let seq = orders(tx, &space.id, Some(&id))?;
        // after_id: null → far left; before_id: null → far right.
        let at_after = match &body.after_id {
            None => None,
            Some(None) => Some(0),
            Some(Some(a)) => Some(index_of(&seq, a, "after_id")? + 1),
        };
        let at_before = match &body.before_id {
            None => None,
            Some(None) => Some(seq.len()),
            Some(Some(b)) => Some(index_of(&seq, b, "before_id")?),
        };
        let mut respaced = false;
        if let Some(index) = agree(at_after, at_before)? {
            match slot(&seq, index) {
                Some(order) => {
                    tx.execute(
                        "UPDATE stages SET sort_order = ?2 WHERE id = ?1",
                        params![id, order],
                    )?;
                }
                None => {
                    let mut ids: Vec<String> = seq.iter().map(|(id, _)| id.clone()).collect();
                    ids.insert(index, id.clone());
                    renumber(tx, "stages", &ids)?;
                    respaced = true;
                }
            }
        }
        let stage = find_in_space(tx, &space.id, &id)?
            .ok_or_else(|| ApiError::internal("stage vanished"))?;
        Ok::<_, ApiError>((stage, respaced))
    })?;
    Ok(Json(StageUpdated { stage, respaced }))
}

pub(crate) async fn remove(
    State(state): State<AppState>,
    caller: Caller,
    Path(id): Path<String>,
    AppJson(body): AppJson<DeleteStage>,
) -> ApiResult<Json<StageDeleted>> {
    let (moved, stages) = state.db().tx(|tx| {
        let space = board::resolve(tx, &caller.account_id, &body.space_id)?;
        find_in_space(tx, &space.id, &id)?.filter(|s| s.id == id).ok_or_else(|| ApiError::not_found("Stage"))?;
        let count: i64 = tx.cached_row("SELECT COUNT(*) FROM cards WHERE stage_id = ?1", [&id], |r| r.get(0))?;
        let all = in_space(tx, &space.id)?;
        if all.len() <= 1 {
            return Err(ApiError::bad("id", "A space keeps at least one stage; this is its last one"));
        }
        let mut moved = 0;
        match &body.target_stage_id {
            None if count > 0 => {
                return Err(ApiError::bad(
                    "target_stage_id",
                    format!(
                        "This stage holds {count} card(s); give target_stage_id, the stage of this space to move them to"
                    ),
                ));
            }
            None => {}
            Some(target) => {
                if target == &id || !all.iter().any(|s| &s.id == target) {
                    return Err(ApiError::bad(
                        "target_stage_id",
                        "target_stage_id must be another stage of the same space",
                    ));
                }
                // The cards keep their order and go to the end of the target column.
                let (src_min, tgt_max): (Option<f64>, Option<f64>) = tx.cached_row(
                    "SELECT (SELECT MIN(board_order) FROM cards WHERE stage_id = ?1),
                            (SELECT MAX(board_order) FROM cards WHERE stage_id = ?2)",
                    params![id, target],
                    |r| Ok((r.get(0)?, r.get(1)?)),
                )?;
                let shift = tgt_max.unwrap_or(0.0) + ORDER_STEP - src_min.unwrap_or(0.0);
                moved = tx.execute(
                    "UPDATE cards SET stage_id = ?2, board_order = board_order + ?3, updated_at = ?4 WHERE stage_id = ?1",
                    params![id, target, shift, time::now_str()],
                )? as i64;
            }
        }
        tx.execute("DELETE FROM stages WHERE id = ?1", [&id])?;
        Ok((moved, in_space(tx, &space.id)?))
    })?;
    Ok(Json(StageDeleted {
        id,
        moved_cards: moved,
        stages,
    }))
}

/// `(id, sort_order)` of a space's stages in order, leaving out `except`.
fn orders(
    conn: &Connection,
    space_id: &str,
    except: Option<&str>,
) -> rusqlite::Result<Vec<(String, f64)>> {
    Ok(in_space(conn, space_id)?
        .into_iter()
        .filter(|s| Some(s.id.as_str()) != except)
        .map(|s| (s.id, s.sort_order))
        .collect())
}

fn index_of(seq: &[(String, f64)], id: &str, field: &str) -> ApiResult<usize> {
    seq.iter().position(|(s, _)| s == id).ok_or_else(|| {
        ApiError::bad(
            field,
            format!("{field} must be another stage of the same space"),
        )
    })
}

/// `after_id` and `before_id` given together must name the same gap.
fn agree(at_after: Option<usize>, at_before: Option<usize>) -> ApiResult<Option<usize>> {
    match (at_after, at_before) {
        (Some(a), Some(b)) if a != b => Err(ApiError::bad(
            "after_id",
            "after_id and before_id do not name neighbouring stages; give one of them",
        )),
        (a, b) => Ok(a.or(b)),
    }
}

fn check_name(name: &str) -> ApiResult<(String, String)> {
    let name = name.trim();
    if name.is_empty() || name.chars().count() > 100 {
        return Err(ApiError::bad("name", "name must be 1 to 100 characters"));
    }
    let slug = slugify(name);
    if slug.is_empty() {
        return Err(ApiError::bad(
            "name",
            "name needs at least one letter or digit (the slug is derived from it)",
        ));
    }
    Ok((name.to_string(), slug))
}

/// Colours are `#RRGGBB`; stored upper-case.
fn check_color(color: &str) -> ApiResult<String> {
    let hex = color
        .strip_prefix('#')
        .filter(|h| h.len() == 6 && h.chars().all(|c| c.is_ascii_hexdigit()));
    match hex {
        Some(h) => Ok(format!("#{}", h.to_ascii_uppercase())),
        None => Err(ApiError::bad(
            "color",
            format!("color must be a hex colour #RRGGBB, not {color:?}"),
        )),
    }
}

/// A second stage whose name derives the same slug is refused with 409 Conflict: the request is well
/// formed but collides with a stage that exists (the same status a duplicate tag name gets).
fn refuse_duplicate_slug(
    conn: &Connection,
    space_id: &str,
    slug: &str,
    except: Option<&str>,
) -> ApiResult<()> {
    let clash: Option<String> = conn
        .cached_row(
            "SELECT name FROM stages WHERE space_id = ?1 AND slug = ?2 AND id IS NOT ?3",
            params![space_id, slug, except],
            |r| r.get(0),
        )
        .optional()?;
    match clash {
        Some(name) => Err(ApiError::Conflict(format!(
            "The stage \"{name}\" in this space already has the slug \"{slug}\"; choose another name"
        ))),
        None => Ok(()),
    }
}
