//! The planner's structure: spaces and the stages of each (`spaces`, `stages`): reads, the default space, the default stages of a new space, and board order.
use crate::db::{new_id, CachedRow as _};
use crate::error::{ApiError, ApiResult};
use crate::time;
use api_types::{Position, ResolvedSpace, Space, Stage};
use rusqlite::{params, Connection, OptionalExtension, Row};

/// The name of the space an account gets when it first needs one.
pub const DEFAULT_SPACE_NAME: &str = "Content plan";

pub const COLS: &str =
    "s.id, s.account_id, s.name, s.cover_url, s.cover_x, s.cover_y, s.is_favorite, s.archived_at, \
     s.created_at, s.updated_at, \
     (SELECT COUNT(*) FROM cards c WHERE c.space_id = s.id AND c.archived_at IS NULL)";

pub fn from_row(r: &Row) -> rusqlite::Result<Space> {
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

/// The columns a space starts with, in board order, with their colours.
pub const DEFAULT_STAGES: &[(&str, &str)] = &[
    ("Ideas", "#8B5CF6"),
    ("Scripting", "#3B82F6"),
    ("Production", "#F59E0B"),
    ("Review", "#EC4899"),
    ("Scheduled", "#10B981"),
    ("Published", "#6B7280"),
];

/// The gap between neighbours after a renumbering; moves take midpoints until a gap is this small.
pub const ORDER_STEP: f64 = 1000.0;

pub const MIN_GAP: f64 = 1e-6;

/// The stages of a space in board order; the first is the default landing stage.
pub fn in_space(conn: &Connection, space_id: &str) -> rusqlite::Result<Vec<Stage>> {
    let mut stmt = conn.prepare_cached(
        "SELECT id, name, slug, color, sort_order FROM stages WHERE space_id = ?1 ORDER BY sort_order, rowid",
    )?;
    let rows = stmt.query_map([space_id], |r| {
        Ok(Stage {
            id: r.get(0)?,
            name: r.get(1)?,
            slug: r.get(2)?,
            color: r.get(3)?,
            sort_order: r.get(4)?,
            is_default: false,
        })
    })?;
    let mut stages = rows.collect::<rusqlite::Result<Vec<_>>>()?;
    if let Some(first) = stages.first_mut() {
        first.is_default = true;
    }
    Ok(stages)
}

/// A stage of `space_id` named by id, slug or name (case-insensitive), as a card's `stage` is given.
pub fn find_in_space(
    conn: &Connection,
    space_id: &str,
    key: &str,
) -> rusqlite::Result<Option<Stage>> {
    let stages = in_space(conn, space_id)?;
    let lower = key.trim().to_lowercase();
    Ok(stages
        .iter()
        .find(|s| s.id == key)
        .or_else(|| stages.iter().find(|s| s.slug.as_deref() == Some(&lower)))
        .or_else(|| stages.iter().find(|s| s.name.to_lowercase() == lower))
        .or_else(|| {
            stages
                .iter()
                .find(|s| s.slug.as_deref() == Some(&slugify(key)))
        })
        .cloned())
}

/// `(space_id, slug)` of a stage of the account given by id.
pub fn by_id(
    conn: &Connection,
    account_id: &str,
    id: &str,
) -> rusqlite::Result<Option<(String, String)>> {
    conn.cached_row(
        "SELECT space_id, slug FROM stages WHERE id = ?1 AND account_id = ?2",
        params![id, account_id],
        |r| Ok((r.get(0)?, r.get(1)?)),
    )
    .optional()
}

/// Gives a space the default stages the first time it is used with none.
pub fn ensure_stages(conn: &Connection, account_id: &str, space_id: &str) -> rusqlite::Result<()> {
    let count: i64 = conn.cached_row(
        "SELECT COUNT(*) FROM stages WHERE space_id = ?1",
        [space_id],
        |r| r.get(0),
    )?;
    if count > 0 {
        return Ok(());
    }
    let now = time::now_str();
    let mut stmt = conn.prepare_cached(
        "INSERT INTO stages (id, account_id, space_id, name, slug, color, sort_order, created_at)
         VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8)",
    )?;
    for (i, (name, color)) in DEFAULT_STAGES.iter().enumerate() {
        stmt.execute(params![
            new_id(),
            account_id,
            space_id,
            name,
            slugify(name),
            color,
            (i as f64 + 1.0) * ORDER_STEP,
            now
        ])?;
    }
    Ok(())
}

/// Copies the stages of `from` into the empty space `to` (`duplicate_from`).
pub fn copy_stages(
    conn: &Connection,
    account_id: &str,
    from: &str,
    to: &str,
) -> rusqlite::Result<()> {
    let now = time::now_str();
    for s in in_space(conn, from)? {
        conn.execute(
            "INSERT INTO stages (id, account_id, space_id, name, slug, color, sort_order, created_at)
             VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8)",
            params![new_id(), account_id, to, s.name, s.slug, s.color, s.sort_order, now],
        )?;
    }
    Ok(())
}

/// The slug of a name: lowercase letters and digits, anything else one `-`.
pub fn slugify(name: &str) -> String {
    let mut out = String::new();
    for c in name.trim().chars().flat_map(char::to_lowercase) {
        if c.is_alphanumeric() {
            out.push(c);
        } else if !out.ends_with('-') && !out.is_empty() {
            out.push('-');
        }
    }
    out.trim_end_matches('-').to_string()
}

/// The order value for inserting at `index` of `seq` (ordered `(id, order)`), or `None` when the gap
/// there is too small and the sequence has to be renumbered.
pub fn slot(seq: &[(String, f64)], index: usize) -> Option<f64> {
    let prev = index
        .checked_sub(1)
        .and_then(|i| seq.get(i))
        .map(|(_, o)| *o);
    let next = seq.get(index).map(|(_, o)| *o);
    match (prev, next) {
        (None, None) => Some(ORDER_STEP),
        (Some(p), None) => Some(p + ORDER_STEP),
        (None, Some(n)) => Some(n - ORDER_STEP),
        (Some(p), Some(n)) if n - p > MIN_GAP => Some(p / 2.0 + n / 2.0),
        _ => None,
    }
}

/// Renumbers rows of `table` (`stages` or `cards`) in the given order, `ORDER_STEP` apart.
pub fn renumber(conn: &Connection, table: &str, ids: &[String]) -> rusqlite::Result<()> {
    let col = if table == "cards" {
        "board_order"
    } else {
        "sort_order"
    };
    let mut stmt = conn.prepare_cached(&format!("UPDATE {table} SET {col} = ?2 WHERE id = ?1"))?;
    for (i, id) in ids.iter().enumerate() {
        stmt.execute(params![id, (i as f64 + 1.0) * ORDER_STEP])?;
    }
    Ok(())
}
