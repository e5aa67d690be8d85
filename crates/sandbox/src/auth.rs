//! Accounts and API keys: `ch_live_` secrets stored as SHA-256, shown once, revoked at once (soft
//! delete), and the `Caller` extractor that checks the bearer key, the rate limit and scopes.
use crate::db::CachedRow as _;
use crate::db::new_id;
use crate::error::{ApiError, ApiResult};
use crate::state::AppState;
use crate::time;
use axum::extract::FromRequestParts;
use axum::http::request::Parts;
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
-- Bumped in the same transaction as every change to api_keys, by whichever connection or process makes
-- it (`contentdesk-sandbox keys revoke`, cdesk's terminal key, the app's own writer): the key cache below
-- is valid for one value of it.
CREATE TABLE IF NOT EXISTS api_keys_epoch (
    id INTEGER PRIMARY KEY CHECK (id = 0),
    n INTEGER NOT NULL
);
INSERT OR IGNORE INTO api_keys_epoch (id, n) VALUES (0, 0);
CREATE TRIGGER IF NOT EXISTS api_keys_epoch_on_insert AFTER INSERT ON api_keys
BEGIN UPDATE api_keys_epoch SET n = n + 1 WHERE id = 0; END;
CREATE TRIGGER IF NOT EXISTS api_keys_epoch_on_update AFTER UPDATE ON api_keys
BEGIN UPDATE api_keys_epoch SET n = n + 1 WHERE id = 0; END;
CREATE TRIGGER IF NOT EXISTS api_keys_epoch_on_delete AFTER DELETE ON api_keys
BEGIN UPDATE api_keys_epoch SET n = n + 1 WHERE id = 0; END;
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
    /// Shared: a caller is handed out of the key cache on every request, and its scopes are never changed.
    pub scopes: std::sync::Arc<[String]>,
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

    /// Checks again that the key is live: long requests call it before answering, so a key revoked
    /// while the request was in flight stops authenticating at once.
    pub fn ensure_active(&self, state: &AppState) -> ApiResult<()> {
        if let Some(grant_live) = crate::oauth::ensure_grant_live(state, &self.key_id) {
            return grant_live;
        }
        let conn = state.db().reader()?;
        let live: Option<i64> = conn
            .cached_row("SELECT 1 FROM api_keys WHERE id = ?1 AND revoked_at IS NULL", [&self.key_id], |r| r.get(0))
            .optional()?;
        live.map(|_| ()).ok_or(ApiError::Unauthorized)
    }
}

impl FromRequestParts<AppState> for Caller {
    type Rejection = ApiError;

    async fn from_request_parts(parts: &mut Parts, state: &AppState) -> Result<Self, Self::Rejection> {
        // The scope gate (routes::scopes) authenticates first and leaves the caller here, so the
        // request is counted once against the rate limit.
        // Taken, not copied: the handler is the one extractor of it after the gate.
        if let Some(caller) = parts.extensions.remove::<Caller>() {
            return Ok(caller);
        }
        let header = parts
            .headers
            .get(axum::http::header::AUTHORIZATION)
            .and_then(|v| v.to_str().ok())
            .ok_or(ApiError::Unauthorized)?;
        if let Some(delegated) = crate::oauth::bearer_caller(state, header)? {
            return Ok(delegated);
        }
        let secret = header
            .strip_prefix("Bearer ")
            .or_else(|| header.strip_prefix("bearer "))
            .map(str::trim)
            .filter(|s| s.starts_with(KEY_PREFIX))
            .ok_or(ApiError::Unauthorized)?;
        // A write whose handler checks the key inside its own transaction (KeyCheck) takes the key from
        // the cache as it stands, without reading the epoch here: the check is then one statement of the
        // write's transaction instead of a transaction of its own on the writer.
        // Otherwise a request that writes asks on the writer, whose pages are the newest (a reader's are
        // dropped after every write: each PATCH made the next key check on a reader read two pages and take
        // four locks); one that reads, on a reader, so it never waits for a write.
        let keys = state.db().key_cache();
        let (found, pending) = if parts.extensions.remove::<DeferKeyCheck>().is_some() {
            let (found, pending) = keys.lookup_deferred(state.db(), secret)?;
            (found, Some(pending))
        } else {
            let writes = !matches!(parts.method, axum::http::Method::GET | axum::http::Method::HEAD);
            (keys.lookup(state.db(), secret, writes)?, None)
        };
        let caller = found.ok_or(ApiError::Unauthorized)?;
        state.take_rate_token(&caller.key_id).map_err(|retry_after| ApiError::RateLimited { retry_after })?;
        if let Some(pending) = pending {
            parts.extensions.insert(pending);
        }
        Ok(caller)
    }
}

/// Live keys by the SHA-256 of their secret, as read at one value of `api_keys_epoch`: a request whose
/// read sees that same value gets the key from here without reading `api_keys` (on `GET /cards/{id}` the
/// lookup was a tenth of the request). Every change to `api_keys` (a revocation above all), by this
/// process or another one on the same file, bumps the epoch in its own transaction, and the first read
/// that sees the new value empties the cache: a revoked key is never taken from it. Unknown and revoked
/// keys are not kept (each of them is read every time).
#[derive(Default)]
pub struct KeyCache {
    inner: std::sync::Mutex<KeysAt>,
}

#[derive(Default)]
struct KeysAt {
    epoch: i64,
    live: std::collections::HashMap<[u8; 32], Caller>,
}

/// Keys kept at most: past it the cache starts again (a sandbox has a handful of keys).
const CACHED_KEYS: usize = 1024;

impl KeyCache {
    /// The live key `secret`, if any: the epoch and the key are read in one read transaction, so an entry
    /// is kept, and taken, only at the epoch of the snapshot it was read in. `on_writer`: the epoch is
    /// read on the writer connection (in autocommit, the last committed value like any reader's).
    pub fn lookup(&self, db: &crate::db::Db, secret: &str, on_writer: bool) -> ApiResult<Option<Caller>> {
        let hash: [u8; 32] = Sha256::digest(secret.as_bytes()).into();
        // The usual case in one statement: the epoch alone, and the key from the cache.
        {
            let epoch_sql = "SELECT n FROM api_keys_epoch WHERE id = 0";
            let epoch: i64 = if on_writer {
                db.lock().cached_row(epoch_sql, [], |r| r.get(0))?
            } else {
                db.reader()?.cached_row(epoch_sql, [], |r| r.get(0))?
            };
            let at = self.inner.lock().unwrap_or_else(|e| e.into_inner());
            if epoch == at.epoch {
                if let Some(caller) = at.live.get(&hash) {
                    return Ok(Some(caller.clone()));
                }
            }
        }
        Ok(self.read_key(db, hash)?.1)
    }

    /// The live key `secret` for a write that checks it inside its own transaction ([`KeyCheck`]): from
    /// the cache at the epoch it was read at, without reading the file, or else read as in [`Self::lookup`];
    /// with the epoch it is good at.
    pub fn lookup_deferred(&self, db: &crate::db::Db, secret: &str) -> ApiResult<(Option<Caller>, PendingKeyCheck)> {
        let hash: [u8; 32] = Sha256::digest(secret.as_bytes()).into();
        {
            let at = self.inner.lock().unwrap_or_else(|e| e.into_inner());
            if let Some(caller) = at.live.get(&hash) {
                return Ok((Some(caller.clone()), PendingKeyCheck { hash, epoch: at.epoch, needed: Default::default() }));
            }
        }
        let (epoch, found) = self.read_key(db, hash)?;
        Ok((found, PendingKeyCheck { hash, epoch, needed: Default::default() }))
    }

    /// Keeps what a read of committed rows at `epoch` found for `hash` (a newer epoch empties the cache
    /// first, as in [`Self::lookup`]).
    fn keep(&self, epoch: i64, hash: [u8; 32], found: Option<&Caller>) {
        let mut at = self.inner.lock().unwrap_or_else(|e| e.into_inner());
        if epoch > at.epoch {
            at.live.clear();
            at.epoch = epoch;
        }
        if let Some(caller) = found {
            if epoch == at.epoch {
                if at.live.len() >= CACHED_KEYS {
                    at.live.clear();
                }
                at.live.insert(hash, caller.clone());
            }
        }
    }

    /// The epoch and the live key of hash `hash`, read in one read transaction (kept in the cache when the
    /// cache is at that epoch).
    fn read_key(&self, db: &crate::db::Db, hash: [u8; 32]) -> ApiResult<(i64, Option<Caller>)> {
        db.read(|conn| {
            let epoch: i64 = conn.cached_row("SELECT n FROM api_keys_epoch WHERE id = 0", [], |r| r.get(0))?;
            {
                let mut at = self.inner.lock().unwrap_or_else(|e| e.into_inner());
                if epoch > at.epoch {
                    at.live.clear();
                    at.epoch = epoch;
                }
                if epoch == at.epoch {
                    if let Some(caller) = at.live.get(&hash) {
                        return Ok((epoch, Some(caller.clone())));
                    }
                }
            }
            let found = live_key(conn, hash)?;
            // A read of an older snapshot (a request that began before the last change) keeps nothing.
            self.keep(epoch, hash, found.as_ref());
            Ok((epoch, found))
        })
    }
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

/// Left by the scope gate on a route whose handler checks the key inside its own write transaction
/// (`routes::scopes::defers_key_check`): the caller's key is then taken with [`KeyCache::lookup_deferred`].
#[derive(Clone, Copy)]
pub struct DeferKeyCheck;

/// A key taken from the cache without reading the file, to be checked inside the write's transaction.
#[derive(Clone)]
pub struct PendingKeyCheck {
    hash: [u8; 32],
    epoch: i64,
    /// The route's scopes (the gate's check), checked again if the key changed since.
    pub needed: std::borrow::Cow<'static, [&'static str]>,
}

/// The key check a write makes inside its own transaction, on a route the gate defers it for: the first
/// statement of the transaction reads `api_keys_epoch`; unchanged since the key was read, the key is live
/// with the same scopes in the snapshot the write commits on (a write by another process after it makes
/// this one fail as busy, not commit). Changed, the key is read again in the transaction: revoked, 401;
/// without a scope the route needs, 403; otherwise the caller as it is now. Nothing is written before it.
pub struct KeyCheck(Option<PendingKeyCheck>);

impl PendingKeyCheck {
    /// The caller as it is now for a route needing `needed`, read in a read of its own if the key changed
    /// since it was taken from the cache (the gate asks before answering 403: a key widened elsewhere is
    /// not refused on the cache's old scopes). The write still checks it again inside its transaction.
    pub fn current(&self, db: &crate::db::Db, caller: Caller, needed: &[&'static str]) -> ApiResult<Caller> {
        let check = PendingKeyCheck { needed: std::borrow::Cow::Owned(needed.to_vec()), ..self.clone() };
        KeyCheck(Some(check)).verify_now(db, caller)
    }
}

impl KeyCheck {
    /// `caller` as it stands in the transaction `conn` is in (see [`KeyCheck`]); called before anything is
    /// written in it, so a key read again here (the epoch changed) is a committed one and goes to `keys`
    /// like a key read by [`KeyCache::lookup`] (or else every later write would read it again).
    pub fn verify(&self, keys: &KeyCache, conn: &Connection, caller: Caller) -> ApiResult<Caller> {
        let Some(p) = &self.0 else { return Ok(caller) };
        let epoch: i64 = conn.cached_row("SELECT n FROM api_keys_epoch WHERE id = 0", [], |r| r.get(0))?;
        if epoch == p.epoch {
            return Ok(caller);
        }
        let fresh = live_key(conn, p.hash)?;
        keys.keep(epoch, p.hash, fresh.as_ref());
        let fresh = fresh.ok_or(ApiError::Unauthorized)?;
        if let Some(missing) = p.needed.iter().find(|s| !fresh.has(s)) {
            return Err(ApiError::MissingScope(missing.to_string()));
        }
        Ok(fresh)
    }

    /// The same check in a read of its own, for a write that ends before its transaction (a body that
    /// does not parse): a key revoked since is still answered 401 first.
    pub fn verify_now(&self, db: &crate::db::Db, caller: Caller) -> ApiResult<Caller> {
        db.read(|conn| self.verify(db.key_cache(), conn, caller))
    }
}

impl FromRequestParts<AppState> for KeyCheck {
    type Rejection = std::convert::Infallible;

    async fn from_request_parts(parts: &mut Parts, _: &AppState) -> Result<Self, Self::Rejection> {
        Ok(KeyCheck(parts.extensions.remove::<PendingKeyCheck>()))
    }
}
