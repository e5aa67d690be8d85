//! Connected accounts: the publishing accounts a card's posts name (fact sheet 2.16, 3.11). Read only —
//! connecting is an in-app OAuth flow — and the stored credential column is never selected, so no reply
//! can carry it. Reads need no scope (docs/api.md).
use crate::db::CachedRow as _;
use crate::auth::Caller;
use crate::db::new_id;
use crate::error::{ApiError, ApiResult};
use crate::state::AppState;
use crate::time;
use api_types::{ConnectedAccount, ConnectedAccountEnvelope, ConnectedAccountList, PLATFORMS};
use axum::extract::{Path, State};
use axum::routing::get;
use axum::{Json, Router};
use rusqlite::{params, Connection, OptionalExtension, Row};

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

/// `(method, path)` of every route this module serves under `/api/v1` (kept in step with
/// `docs/openapi.yaml` by a test).
pub const ROUTES: &[(&str, &str)] = &[
    ("GET", "/connected-accounts"),
    ("GET", "/connected-accounts/{id}"),
];

pub fn router() -> Router<AppState> {
    Router::new()
        .route("/connected-accounts", get(list))
        .route("/connected-accounts/{id}", get(one))
}

/// The columns a read may see; `credentials_enc` is deliberately absent.
const COLS: &str = "id, platform, platform_account_id, account_name, account_handle, account_url, \
                    connection_status, connection_type, capabilities, is_default, created_at";

fn from_row(r: &Row) -> rusqlite::Result<ConnectedAccount> {
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

async fn list(
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

async fn one(
    State(state): State<AppState>,
    caller: Caller,
    Path(id): Path<String>,
) -> ApiResult<Json<ConnectedAccountEnvelope>> {
    let conn = state.db().reader()?;
    let account = find(&conn, &caller.account_id, &id)?
        .ok_or_else(|| ApiError::not_found("Connected account"))?;
    Ok(Json(ConnectedAccountEnvelope { account }))
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

/// One connected account per publishing platform (every platform but `general`, which has none).
pub fn seed_demo(
    conn: &Connection,
    account_id: &str,
    _opts: &crate::seed::DemoOptions,
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
