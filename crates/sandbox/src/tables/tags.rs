//! Tags (`tags`): by name, and a new one.
use crate::db::CachedRow as _;
use crate::time;
use api_types::Tag;
use rusqlite::{params, Connection, OptionalExtension};

/// The id of the caller's tag named `name` (any case), if there is one.
pub fn id_by_name(
    conn: &Connection,
    account_id: &str,
    name: &str,
) -> rusqlite::Result<Option<String>> {
    conn.cached_row(
        "SELECT id FROM tags WHERE account_id = ?1 AND name = ?2",
        params![account_id, name.trim().to_lowercase()],
        |r| r.get(0),
    )
    .optional()
}

pub fn insert(conn: &Connection, account_id: &str, tag: &Tag) -> rusqlite::Result<()> {
    conn.execute(
        "INSERT INTO tags (id, account_id, name, created_at) VALUES (?1, ?2, ?3, ?4)",
        params![tag.id, account_id, tag.name, time::now_str()],
    )?;
    Ok(())
}
