//! Projects (`projects`): one read (archiving: `tables::archived`).
use crate::db::CachedRow as _;
use api_types::Project;
use rusqlite::{params, Connection, OptionalExtension, Row};

pub const COLS: &str =
    "id, type, title, orientation, width, height, thumbnail_url, archived_at, favorited_at, \
                    brand_kit_id, linked_card_id, created_at, updated_at";

pub fn from_row(r: &Row) -> rusqlite::Result<Project> {
    Ok(Project {
        id: r.get(0)?,
        r#type: r.get(1)?,
        title: r.get(2)?,
        orientation: r.get(3)?,
        width: r.get(4)?,
        height: r.get(5)?,
        thumbnail_url: r.get(6)?,
        is_archived: r.get::<_, Option<String>>(7)?.is_some(),
        is_favorited: r.get::<_, Option<String>>(8)?.is_some(),
        brand_kit_id: r.get(9)?,
        linked_card_id: r.get(10)?,
        created_at: r.get(11)?,
        updated_at: r.get(12)?,
    })
}

/// The caller's project `id`, if it is theirs.
pub fn find(conn: &Connection, account_id: &str, id: &str) -> rusqlite::Result<Option<Project>> {
    conn.cached_row(
        &format!("SELECT {COLS} FROM projects WHERE id = ?1 AND account_id = ?2"),
        params![id, account_id],
        from_row,
    )
    .optional()
}
