//! Cards (`cards`, `card_assets`): whether one is the caller's, a project linked to one, and the demo's card of a title.
use crate::db::{new_id, CachedRow as _};
use crate::time;
use rusqlite::{params, Connection, OptionalExtension};

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

/// The title of the demo card the demo project is linked to.
pub const DEMO_PROJECT_CARD: &str = "Launch teaser: spring collection";

/// The demo card the demo project is linked to (projects seed after cards).
pub fn demo_card(conn: &Connection, account_id: &str) -> rusqlite::Result<Option<String>> {
    conn.cached_row(
        "SELECT id FROM cards WHERE account_id = ?1 AND title = ?2",
        params![account_id, DEMO_PROJECT_CARD],
        |r| r.get(0),
    )
    .optional()
}
