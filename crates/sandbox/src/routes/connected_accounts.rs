//! Connected accounts: the publishing accounts a card's posts name (fact sheet 2.16, 3.11). Read only —
//! connecting is an in-app OAuth flow — and the stored credential column is never selected, so no reply
//! can carry it. Reads need no scope (docs/api.md).
use crate::auth::Caller;
use crate::db::new_id;
use crate::error::{ApiError, ApiResult};
use crate::state::AppState;
use crate::time;
use api_types::{ConnectedAccountEnvelope, ConnectedAccountList, PLATFORMS};
use axum::extract::{Path, State};
use axum::Json;
use rusqlite::{params, Connection};
use crate::tables::connected_accounts::{COLS, find, from_row};

pub const SCHEMA: &str = "
CREATE TABLE IF NOT EXISTS connected_accounts (
    id TEXT PRIMARY KEY,
    account_id TEXT NOT NULL REFERENCES accounts(id),
    platform TEXT NOT NULL,
    platform_account_id TEXT,
    account_name TEXT,
    account_handle TEXT,
    account_url TEXT,
    connection_status TEXT NOT NULL DEFAULT 'connected',
    connection_type TEXT,
    capabilities TEXT,
    is_default INTEGER NOT NULL DEFAULT 0,
    -- The OAuth tokens, encrypted at rest. Never selected by any read.
    credentials_enc TEXT,
    created_at TEXT NOT NULL
);
CREATE INDEX IF NOT EXISTS connected_accounts_by_account ON connected_accounts(account_id);
";

pub(crate) async fn list(
    State(state): State<AppState>,
    caller: Caller,
) -> ApiResult<Json<ConnectedAccountList>> {
    let conn = state.db().reader()?;
    // Default accounts first (fact sheet 2.16), then by platform and name.
    let mut stmt = conn.prepare_cached(&format!(
        "SELECT {COLS} FROM connected_accounts WHERE account_id = ?1
         ORDER BY is_default DESC, platform, account_name, created_at, rowid"
    ))?;
    let accounts = stmt
        .query_map([&caller.account_id], from_row)?
        .collect::<rusqlite::Result<Vec<_>>>()?;
    Ok(Json(ConnectedAccountList { accounts }))
}

pub(crate) async fn one(
    State(state): State<AppState>,
    caller: Caller,
    Path(id): Path<String>,
) -> ApiResult<Json<ConnectedAccountEnvelope>> {
    let conn = state.db().reader()?;
    let account = find(&conn, &caller.account_id, &id)?
        .ok_or_else(|| ApiError::not_found("Connected account"))?;
    Ok(Json(ConnectedAccountEnvelope { account }))
}

/// One connected account per publishing platform (every platform but `general`, which has none).
pub fn seed_demo(
    conn: &Connection,
    account_id: &str,
) -> rusqlite::Result<()> {
    let now = time::now_str();
    let mut stmt = conn.prepare_cached(
        "INSERT INTO connected_accounts (id, account_id, platform, platform_account_id, account_name,
             account_handle, account_url, connection_status, connection_type, capabilities, is_default,
             credentials_enc, created_at)
         VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, 'connected', ?8, ?9, 1, ?10, ?11)",
    )?;
    for (i, platform) in PLATFORMS.iter().filter(|p| **p != "general").enumerate() {
        let (handle, url) = match *platform {
            "youtube" => ("@demostudio", "https://www.youtube.com/@demostudio"),
            "instagram" => ("demostudio", "https://www.instagram.com/demostudio"),
            "tiktok" => ("@demostudio", "https://www.tiktok.com/@demostudio"),
            "facebook" => ("demostudio", "https://www.facebook.com/demostudio"),
            "linkedin" => (
                "demo-studio",
                "https://www.linkedin.com/company/demo-studio",
            ),
            "x" => ("@demostudio", "https://x.com/demostudio"),
            "threads" => ("@demostudio", "https://www.threads.net/@demostudio"),
            _ => ("demostudio", "https://example.com/demostudio"),
        };
        let connection_type = if *platform == "facebook" || *platform == "linkedin" {
            "page"
        } else {
            "profile"
        };
        let caps =
            serde_json::json!({ "publish": true, "analytics": *platform != "threads" }).to_string();
        stmt.execute(params![
            new_id(),
            account_id,
            platform,
            format!("{}-{}", platform, 100_000 + i),
            "Demo Studio",
            handle,
            url,
            connection_type,
            caps,
            // A stand-in for the encrypted OAuth tokens: present in the table, never in a reply.
            format!("enc:v1:{}", new_id()),
            now,
        ])?;
    }
    Ok(())
}
