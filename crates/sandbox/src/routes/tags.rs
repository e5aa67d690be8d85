//! Tags: an account's labels for cards (fact sheet 2.10). Names are stored lower-case and unique per
//! account; cards name them by name. Deleting a tag takes it off every card.
use crate::db::CachedRow as _;
use crate::auth::Caller;
use crate::db::new_id;
use crate::error::{ApiError, ApiResult};
use crate::extract::AppJson;
use crate::state::AppState;
use api_types::{Deleted, Tag, TagEnvelope, TagInput, TagList};
use axum::extract::{Path, State};
use axum::Json;
use rusqlite::{params, Connection, OptionalExtension};
use crate::tables::tags::insert;

pub const SCHEMA: &str = "
CREATE TABLE IF NOT EXISTS tags (
    id TEXT PRIMARY KEY,
    account_id TEXT NOT NULL REFERENCES accounts(id),
    name TEXT NOT NULL,
    created_at TEXT NOT NULL,
    UNIQUE (account_id, name)
);
";

pub(crate) async fn list(State(state): State<AppState>, caller: Caller) -> ApiResult<Json<TagList>> {
    let conn = state.db().reader()?;
    let mut stmt = conn.prepare_cached("SELECT id, name FROM tags WHERE account_id = ?1 ORDER BY name")?;
    let tags = stmt
        .query_map([&caller.account_id], |r| {
            Ok(Tag {
                id: r.get(0)?,
                name: r.get(1)?,
            })
        })?
        .collect::<rusqlite::Result<Vec<_>>>()?;
    Ok(Json(TagList { tags }))
}

pub(crate) async fn create(
    State(state): State<AppState>,
    caller: Caller,
    AppJson(body): AppJson<TagInput>,
) -> ApiResult<Json<TagEnvelope>> {
    let name = normalise(&body.name)?;
    let tag = state.db().tx(|tx| {
        refuse_duplicate(tx, &caller.account_id, &name, None)?;
        let tag = Tag { id: new_id(), name };
        insert(tx, &caller.account_id, &tag)?;
        Ok::<_, ApiError>(tag)
    })?;
    Ok(Json(TagEnvelope { tag }))
}

pub(crate) async fn rename(
    State(state): State<AppState>,
    caller: Caller,
    Path(id): Path<String>,
    AppJson(body): AppJson<TagInput>,
) -> ApiResult<Json<TagEnvelope>> {
    let name = normalise(&body.name)?;
    let tag = state.db().tx(|tx| {
        find(tx, &caller.account_id, &id)?;
        refuse_duplicate(tx, &caller.account_id, &name, Some(&id))?;
        tx.execute("UPDATE tags SET name = ?2 WHERE id = ?1", params![id, name])?;
        Ok::<_, ApiError>(Tag {
            id: id.clone(),
            name,
        })
    })?;
    Ok(Json(TagEnvelope { tag }))
}

pub(crate) async fn remove(
    State(state): State<AppState>,
    caller: Caller,
    Path(id): Path<String>,
) -> ApiResult<Json<Deleted>> {
    state.db().tx(|tx| {
        find(tx, &caller.account_id, &id)?;
        tx.execute("DELETE FROM card_tags WHERE tag_id = ?1", [&id])?;
        tx.execute("DELETE FROM tags WHERE id = ?1", [&id])?;
        Ok::<_, ApiError>(())
    })?;
    Ok(Json(Deleted { id }))
}

/// The caller's tag `id`, or 404.
fn find(conn: &Connection, account_id: &str, id: &str) -> ApiResult<Tag> {
    conn.cached_row(
        "SELECT id, name FROM tags WHERE id = ?1 AND account_id = ?2",
        params![id, account_id],
        |r| {
            Ok(Tag {
                id: r.get(0)?,
                name: r.get(1)?,
            })
        },
    )
    .optional()?
    .ok_or_else(|| ApiError::not_found("Tag"))
}

fn normalise(name: &str) -> ApiResult<String> {
    let name = name.trim().to_lowercase();
    if name.is_empty() || name.chars().count() > 50 {
        return Err(ApiError::bad("name", "name must be 1 to 50 characters"));
    }
    Ok(name)
}

fn refuse_duplicate(
    conn: &Connection,
    account_id: &str,
    name: &str,
    except: Option<&str>,
) -> ApiResult<()> {
    let clash: Option<String> = conn
        .cached_row(
            "SELECT id FROM tags WHERE account_id = ?1 AND name = ?2 AND id IS NOT ?3",
            params![account_id, name, except],
            |r| r.get(0),
        )
        .optional()?;
    match clash {
        Some(_) => Err(ApiError::Conflict(format!(
            "A tag named \"{name}\" already exists"
        ))),
        None => Ok(()),
    }
}
