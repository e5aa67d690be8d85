//! Stored files (`files`): where one is served, the origin files are served on, and a new one.
use crate::db::CachedRow as _;
use crate::time;
use sha2::{Digest, Sha256};
use rusqlite::{params, Connection, OptionalExtension};

/// `{origin}/files/{name}`.
pub fn file_url(origin: &str, name: &str) -> String {
    format!("{origin}/files/{name}")
}

/// The origin recorded by the serving sandbox (loopback without a port when none has served yet).
pub fn recorded_origin(conn: &Connection) -> String {
    conn.cached_row("SELECT origin FROM storage_origin WHERE id = 1", [], |r| {
        r.get(0)
    })
    .optional()
    .ok()
    .flatten()
    .unwrap_or_else(|| "http://127.0.0.1".to_string())
}

/// Stores (or replaces) a served file.
pub fn store_file(
    conn: &Connection,
    name: &str,
    account_id: &str,
    mime: &str,
    bytes: &[u8],
    sandbox_render: bool,
) -> rusqlite::Result<()> {
    conn.execute(
        "INSERT OR REPLACE INTO stored_files (name, account_id, mime, bytes, sha256, sandbox_render, created_at)
         VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)",
        params![name, account_id, mime, bytes, hex::encode(Sha256::digest(bytes)), sandbox_render, time::now_str()],
    )?;
    Ok(())
}
