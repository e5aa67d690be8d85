//! The archive flag of the records that carry their own `archived_at` (cards, spaces, projects): archiving
//! is a timestamp only, never a delete; `false` restores, keeping the schedule and all else.
use crate::error::{ApiError, ApiResult};
use crate::time;
use rusqlite::{params, Connection};

/// A record archived by stamping its own row. The table name comes from this closed set only.
#[derive(Debug, Clone, Copy)]
pub enum Archivable {
    Card,
    Space,
    Project,
}

impl Archivable {
    fn update(self) -> &'static str {
        match self {
            Archivable::Card => "UPDATE cards SET archived_at = CASE WHEN ?3 THEN COALESCE(archived_at, ?4) ELSE NULL END, updated_at = ?4 WHERE id = ?1 AND account_id = ?2",
            Archivable::Space => "UPDATE spaces SET archived_at = CASE WHEN ?3 THEN COALESCE(archived_at, ?4) ELSE NULL END, updated_at = ?4 WHERE id = ?1 AND account_id = ?2",
            Archivable::Project => "UPDATE projects SET archived_at = CASE WHEN ?3 THEN COALESCE(archived_at, ?4) ELSE NULL END, updated_at = ?4 WHERE id = ?1 AND account_id = ?2",
        }
    }

    fn noun(self) -> &'static str {
        match self {
            Archivable::Card => "Card",
            Archivable::Space => "Space",
            Archivable::Project => "Project",
        }
    }
}

/// `POST /archive` (and a card's `archived` field): stamps or clears `archived_at`; 404 when the record is
/// not the caller's.
pub fn set_archived(
    conn: &Connection,
    what: Archivable,
    account_id: &str,
    id: &str,
    archived: bool,
) -> ApiResult<()> {
    let n = conn.execute(
        what.update(),
        params![id, account_id, archived, time::now_str()],
    )?;
    if n == 0 {
        return Err(ApiError::not_found(what.noun()));
    }
    Ok(())
}
