//! Connected accounts (`connected_accounts`): one, and the default of a platform.
use crate::db::CachedRow as _;
use api_types::ConnectedAccount;
use rusqlite::{params, Connection, OptionalExtension, Row};

/// The columns a read may see; `credentials_enc` is deliberately absent.
pub const COLS: &str = "id, platform, platform_account_id, account_name, account_handle, account_url, \
                    connection_status, connection_type, capabilities, is_default, created_at";

pub fn from_row(r: &Row) -> rusqlite::Result<ConnectedAccount> {
    let caps: Option<String> = r.get(8)?;
    Ok(ConnectedAccount {
        id: r.get(0)?,
        platform: r.get(1)?,
        account_id: r.get(2)?,
        account_name: r.get(3)?,
        account_handle: r.get(4)?,
        account_url: r.get(5)?,
        connection_status: r.get(6)?,
        connection_type: r.get(7)?,
        capabilities: caps.and_then(|c| serde_json::from_str(&c).ok()),
        is_default: r.get::<_, i64>(9)? != 0,
        created_at: r.get(10)?,
    })
}

/// The caller's connected account `id`, if it is theirs.
pub fn find(
    conn: &Connection,
    account_id: &str,
    id: &str,
) -> rusqlite::Result<Option<ConnectedAccount>> {
    conn.cached_row(
        &format!("SELECT {COLS} FROM connected_accounts WHERE id = ?1 AND account_id = ?2"),
        params![id, account_id],
        from_row,
    )
    .optional()
}

/// The account's default connected account for `platform` (the demo seed uses it for posts).
pub fn default_for(
    conn: &Connection,
    account_id: &str,
    platform: &str,
) -> rusqlite::Result<Option<String>> {
    conn.cached_row(
        "SELECT id FROM connected_accounts WHERE account_id = ?1 AND platform = ?2
         ORDER BY is_default DESC, created_at, rowid LIMIT 1",
        params![account_id, platform],
        |r| r.get(0),
    )
    .optional()
}
