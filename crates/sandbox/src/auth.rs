//! Accounts and API keys: `ch_live_` secrets stored as SHA-256, shown once, revoked at once (soft
//! delete), and the `Caller` a live key makes (read from a request by `gate`).
use crate::db::CachedRow as _;
use crate::db::new_id;
use crate::error::{ApiError, ApiResult};
use crate::time;
use rand::distributions::Alphanumeric;
use rand::Rng;
use rusqlite::{params, Connection, OptionalExtension};
use serde::Serialize;
use sha2::{Digest, Sha256};

pub const SCHEMA: &str = "
CREATE TABLE IF NOT EXISTS accounts (
    id TEXT PRIMARY KEY,
    name TEXT NOT NULL,
    balance REAL NOT NULL DEFAULT 0,
    tier TEXT NOT NULL DEFAULT 'hero',
    auto_topup INTEGER NOT NULL DEFAULT 0,
    created_at TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS api_keys (
    id TEXT PRIMARY KEY,
    account_id TEXT NOT NULL REFERENCES accounts(id),
    name TEXT NOT NULL,
    prefix TEXT NOT NULL,
    secret_hash TEXT NOT NULL UNIQUE,
    scopes TEXT NOT NULL,
    created_at TEXT NOT NULL,
    revoked_at TEXT
);
-- Left by an older build (a cache of the live keys kept fresh by triggers): dropped when a file it made is opened.
DROP TRIGGER IF EXISTS api_keys_epoch_on_insert;
DROP TRIGGER IF EXISTS api_keys_epoch_on_update;
DROP TRIGGER IF EXISTS api_keys_epoch_on_delete;
DROP TABLE IF EXISTS api_keys_epoch;
";

pub const KEY_PREFIX: &str = "ch_live_";

/// A key as listed: never the secret.
#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct KeyInfo {
    pub id: String,
    pub account_id: String,
    pub name: String,
    /// The first characters of the secret, to recognise it.
    pub prefix: String,
    pub scopes: Vec<String>,
    pub created_at: String,
    pub revoked_at: Option<String>,
}

pub fn hash_secret(secret: &str) -> String {
    hex::encode(Sha256::digest(secret.as_bytes()))
}

pub fn create_account(conn: &Connection, name: &str, balance: f64) -> rusqlite::Result<String> {
    let id = new_id();
    conn.execute(
        "INSERT INTO accounts (id, name, balance, tier, created_at) VALUES (?1, ?2, ?3, 'hero', ?4)",
        params![id, name, balance, time::now_str()],
    )?;
    Ok(id)
}

/// The first account (the one `serve --seed demo` fills), if any.
pub fn first_account(conn: &Connection) -> rusqlite::Result<Option<String>> {
    conn.cached_row("SELECT id FROM accounts ORDER BY created_at, rowid LIMIT 1", [], |r| r.get(0))
        .optional()
}

/// Mints a key; the secret is returned once and only its hash is kept.
pub fn create_key(
    conn: &Connection,
    account_id: &str,
    name: &str,
    scopes: &[&str],
) -> rusqlite::Result<(KeyInfo, String)> {
    let body: String = rand::thread_rng().sample_iter(&Alphanumeric).take(32).map(char::from).collect();
    let secret = format!("{KEY_PREFIX}{body}");
    let info = KeyInfo {
        id: new_id(),
        account_id: account_id.to_string(),
        name: name.to_string(),
        prefix: secret[..KEY_PREFIX.len() + 4].to_string(),
        scopes: scopes.iter().map(|s| s.to_string()).collect(),
        created_at: time::now_str(),
        revoked_at: None,
    };
    conn.execute(
        "INSERT INTO api_keys (id, account_id, name, prefix, secret_hash, scopes, created_at)
         VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)",
        params![info.id, info.account_id, info.name, info.prefix, hash_secret(&secret), info.scopes.join(" "), info.created_at],
    )?;
    Ok((info, secret))
}

/// Soft-deletes a key; from now on it authenticates nothing. `false` when there is no such live key.
pub fn revoke_key(conn: &Connection, key_id: &str) -> rusqlite::Result<bool> {
    let n = conn.execute(
        "UPDATE api_keys SET revoked_at = ?2 WHERE id = ?1 AND revoked_at IS NULL",
        params![key_id, time::now_str()],
    )?;
    Ok(n == 1)
}

pub fn list_keys(conn: &Connection) -> rusqlite::Result<Vec<KeyInfo>> {
    let mut stmt = conn.prepare_cached(
        "SELECT id, account_id, name, prefix, scopes, created_at, revoked_at FROM api_keys ORDER BY created_at, rowid",
    )?;
    let rows = stmt.query_map([], |r| {
        let scopes: String = r.get(4)?;
        Ok(KeyInfo {
            id: r.get(0)?,
            account_id: r.get(1)?,
            name: r.get(2)?,
            prefix: r.get(3)?,
            scopes: scopes.split_whitespace().map(String::from).collect(),
            created_at: r.get(5)?,
            revoked_at: r.get(6)?,
        })
    })?;
    rows.collect()
}

/// Who is calling: the account and key behind a valid bearer key.
#[derive(Debug, Clone)]
pub struct Caller {
    pub account_id: String,
    pub key_id: String,
    pub scopes: Vec<String>,
}

impl Caller {
    pub fn has(&self, scope: &str) -> bool {
        self.scopes.iter().any(|s| s == scope)
    }

    /// 403 naming `scope` unless the key holds it.
    pub fn require(&self, scope: &str) -> ApiResult<()> {
        if self.has(scope) {
            Ok(())
        } else {
            Err(ApiError::MissingScope(scope.to_string()))
        }
    }
}

/// The live (not revoked) key whose secret is `secret`, as the caller it makes: one indexed lookup by the
/// secret's hash (`secret_hash` is UNIQUE).
pub fn caller_for_secret(conn: &Connection, secret: &str) -> rusqlite::Result<Option<Caller>> {
    live_key(conn, Sha256::digest(secret.as_bytes()).into())
}

/// Whether the key `key_id` is still live (not revoked).
pub fn key_is_live(conn: &Connection, key_id: &str) -> rusqlite::Result<bool> {
    let live: Option<i64> = conn
        .cached_row("SELECT 1 FROM api_keys WHERE id = ?1 AND revoked_at IS NULL", [key_id], |r| r.get(0))
        .optional()?;
    Ok(live.is_some())
}

/// The live (not revoked) key whose secret hashes to `hash`, as the caller it makes.
fn live_key(conn: &Connection, hash: [u8; 32]) -> rusqlite::Result<Option<Caller>> {
    conn.cached_row(
        "SELECT id, account_id, scopes FROM api_keys WHERE secret_hash = ?1 AND revoked_at IS NULL",
        [hex::encode(hash)],
        |r| {
            let scopes: String = r.get(2)?;
            Ok(Caller { key_id: r.get(0)?, account_id: r.get(1)?, scopes: scopes.split_whitespace().map(String::from).collect() })
        },
    )
    .optional()
}
