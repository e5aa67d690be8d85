//! The sandbox as an OAuth 2.0 authorization server (issue 15; the spec says "not shown", so this is our
//! choice, written down in `docs/api.md` "OAuth"): metadata (RFC 8414), dynamic registration of public
//! clients (RFC 7591, bounded, unused clients purged) and Client ID Metadata Documents beside it,
//! authorization code with PKCE S256 only and a consent page, refresh tokens rotated on every use, token
//! exchange (RFC 8693) for an authenticated resource server only (registered with a proof that it is the
//! resource), to the API only, so `cdesk mcp --http` calls the API with its own token rather than passing
//! the client's through; introspection (RFC 7662) and revocation (RFC 7009).
//!
//! Tokens are opaque 256-bit random strings stored as SHA-256 (as keys are), each bound to a grant, an
//! account, a client, an audience (the RFC 8707 `resource`), scopes and an expiry; a resource server asks
//! `/oauth/introspect` whether one is live. Opaque tokens with introspection rather than signed JWTs: a
//! revoked grant stops the very next call (a JWT stays valid until it expires), there is no signing key to
//! keep, rotate or publish, and the sandbox is the only issuer and the only place that can answer anyway.
//!
//! The API (`/api/v1`) takes an access token whose audience is the API's base URL beside a `ch_live_` key
//! (`bearer_caller`, called from `auth::Caller`): the caller acts as the grant's account with the token's
//! scopes only, rate-limited per grant.
use crate::auth::Caller;
use crate::db::CachedRow as _;
use crate::error::{ApiError, ApiResult};
use crate::state::AppState;
use crate::time;
use axum::http::{header, HeaderValue, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use axum::{Json, Router};
use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use base64::Engine as _;
use rand::RngCore;
use rusqlite::{params, Connection, OptionalExtension};
use serde_json::json;

pub mod authorize;
pub mod clients;
pub mod fetch;
pub mod grants;
pub mod token;

pub const SCHEMA: &str = "
CREATE TABLE IF NOT EXISTS oauth_clients (
    id TEXT PRIMARY KEY,
    name TEXT NOT NULL,
    redirect_uris TEXT NOT NULL,
    grant_types TEXT NOT NULL,
    created_at TEXT NOT NULL,
    created_s INTEGER NOT NULL DEFAULT 0,
    used_s INTEGER,
    auth_method TEXT NOT NULL DEFAULT 'none',
    secret_hash TEXT,
    resource TEXT
);
CREATE TABLE IF NOT EXISTS oauth_codes (
    code_hash TEXT PRIMARY KEY,
    client_id TEXT NOT NULL,
    account_id TEXT NOT NULL,
    redirect_uri TEXT NOT NULL,
    challenge TEXT NOT NULL,
    resource TEXT NOT NULL,
    scopes TEXT NOT NULL,
    expires_at INTEGER NOT NULL,
    grant_id TEXT
);
CREATE TABLE IF NOT EXISTS oauth_grants (
    id TEXT PRIMARY KEY,
    account_id TEXT NOT NULL REFERENCES accounts(id),
    client_id TEXT NOT NULL,
    scopes TEXT NOT NULL,
    created_at TEXT NOT NULL,
    last_used_at TEXT,
    last_used_s INTEGER NOT NULL DEFAULT 0,
    revoked_at TEXT
);
CREATE TABLE IF NOT EXISTS oauth_tokens (
    token_hash TEXT PRIMARY KEY,
    kind TEXT NOT NULL,
    grant_id TEXT NOT NULL REFERENCES oauth_grants(id),
    audience TEXT NOT NULL,
    scopes TEXT NOT NULL,
    issued_at INTEGER NOT NULL,
    expires_at INTEGER,
    used_at INTEGER
);
CREATE INDEX IF NOT EXISTS oauth_tokens_grant ON oauth_tokens(grant_id);
";

pub const ACCESS_PREFIX: &str = "cho_at_";
pub const REFRESH_PREFIX: &str = "cho_rt_";
/// How long an authorization code may wait for its exchange.
pub const CODE_TTL_S: i64 = 60;
/// `Caller::key_id` of a delegated caller: `oauth:<grant id>` (the rate-limit window is the grant's).
pub const CALLER_PREFIX: &str = "oauth:";
pub const TOKEN_EXCHANGE: &str = "urn:ietf:params:oauth:grant-type:token-exchange";
pub const ACCESS_TOKEN_TYPE: &str = "urn:ietf:params:oauth:token-type:access_token";

/// The endpoints at the sandbox's origin (not under `/api/v1`: a client, not a key, calls them).
pub fn router() -> Router<AppState> {
    Router::new()
        .route("/.well-known/oauth-authorization-server", get(metadata))
        .route("/oauth/register", post(clients::register))
        .route("/oauth/authorize", get(authorize::page).post(authorize::decide))
        .route("/oauth/token", post(token::token))
        .route("/oauth/introspect", post(token::introspect))
        .route("/oauth/revoke", post(token::revoke))
}

/// How long past its expiry a code or an access token is kept before a start purges it: a replayed code
/// is still recognised (and what it issued revoked) for that long. Refresh tokens are never purged while
/// their grant lives: an old, rotated one must stay known so that its reuse revokes the grant.
pub const PURGE_AFTER_S: i64 = 86_400;

/// Deletes the codes and access tokens that expired (or were revoked) more than [`PURGE_AFTER_S`] before
/// `now_s`, and every token of a revoked grant: without it the tables grow with each sign-in and refresh.
/// Answers how many rows went.
pub fn purge_expired(conn: &Connection, now_s: i64) -> rusqlite::Result<usize> {
    let before = now_s - PURGE_AFTER_S;
    let clients = clients::purge_unused(conn, now_s)?;
    let codes = conn.execute("DELETE FROM oauth_codes WHERE expires_at < ?1", [before])?;
    let access = conn.execute(
        "DELETE FROM oauth_tokens WHERE kind = 'access' AND expires_at IS NOT NULL AND expires_at < ?1",
        [before],
    )?;
    let revoked = conn.execute(
        "DELETE FROM oauth_tokens WHERE grant_id IN (SELECT id FROM oauth_grants WHERE revoked_at IS NOT NULL)",
        [],
    )?;
    Ok(clients + codes + access + revoked)
}

pub fn now_s() -> i64 {
    time::now().unix_timestamp()
}

/// A new secret: `prefix` and 32 random bytes, base64url (256 bits: guessing or scanning is hopeless).
pub fn new_secret(prefix: &str) -> String {
    let mut b = [0u8; 32];
    rand::thread_rng().fill_bytes(&mut b);
    format!("{prefix}{}", URL_SAFE_NO_PAD.encode(b))
}

/// The API's base URL, the audience an access token needs for `/api/v1`: `<origin>/api/v1`.
pub fn api_audience(state: &AppState) -> String {
    format!("{}{}", state.origin(), api_types::API_PREFIX)
}

/// `aud` comparisons ignore one trailing slash, and take `localhost` for the loopback address beside it
/// (`127.0.0.1` or `[::1]`) with the same scheme, port and path: the sandbox knows itself by the address it
/// is bound to (`http://127.0.0.1:PORT`, the issuer), while a client that reached it as `localhost` names
/// its resources so. Both spellings of one port are one origin.
pub fn same_resource(a: &str, b: &str) -> bool {
    let (a, b) = (a.trim_end_matches('/'), b.trim_end_matches('/'));
    if a == b {
        return true;
    }
    match (clients::split(a), clients::split(b)) {
        (Some(x), Some(y)) => {
            x.scheme.eq_ignore_ascii_case(y.scheme) && x.port == y.port && x.rest == y.rest && same_loopback(x.host, y.host)
        }
        _ => false,
    }
}

fn same_loopback(a: &str, b: &str) -> bool {
    let (a, b) = (a.to_ascii_lowercase(), b.to_ascii_lowercase());
    let beside_localhost = |h: &str| h == "127.0.0.1" || h == "[::1]";
    a == b || (a == "localhost" && beside_localhost(&b)) || (b == "localhost" && beside_localhost(&a))
}

/// The client's address, when the server was started with it (`spawn` is; a test mounting `app()` on a
/// listener of its own may not be, and its callers then share one window).
pub type Peer = Option<axum::Extension<axum::extract::ConnectInfo<std::net::SocketAddr>>>;

/// Counts one request to an OAuth endpoint a caller reaches without a token against the caller's address
/// (`Config::oauth_rate_limit`, the API's fixed windows under another key); an IPv6 caller counts by its
/// /64, as one host usually holds the whole prefix. `Some` is the 429 to answer.
pub fn limit_address(state: &AppState, peer: &Peer) -> Option<Response> {
    let who = match peer.as_ref().map(|p| p.0 .0.ip().to_canonical()) {
        Some(std::net::IpAddr::V6(v6)) => {
            let s = v6.segments();
            format!("{:x}:{:x}:{:x}:{:x}::/64", s[0], s[1], s[2], s[3])
        }
        Some(ip) => ip.to_string(),
        None => "unknown".into(),
    };
    state
        .take_rate_token_within(&format!("oauth-address:{who}"), state.config().oauth_rate_limit)
        .err()
        .map(|wait| rate_limited(wait, "Too many requests from this address to the OAuth endpoints"))
}

/// The 429 of the OAuth endpoints, in the API's shape (`Retry-After` in whole seconds, `retryAfter` in the
/// body) with RFC 6749 5.2's `error` code and `error_description` so OAuth clients read it too.
pub fn rate_limited(retry_after: f64, what: &str) -> Response {
    let secs = retry_after.ceil().max(1.0) as u64;
    let body = json!({
        "error": "rate_limited",
        "error_description": format!("{what}; retry in {secs} s"),
        "retryAfter": retry_after,
    });
    let mut r = no_store((StatusCode::TOO_MANY_REQUESTS, Json(body)).into_response());
    r.headers_mut().insert(header::RETRY_AFTER, HeaderValue::from(secs));
    r
}

async fn metadata(axum::extract::State(state): axum::extract::State<AppState>) -> Response {
    let o = state.origin();
    let body = json!({
        "issuer": o,
        "authorization_endpoint": format!("{o}/oauth/authorize"),
        "token_endpoint": format!("{o}/oauth/token"),
        "registration_endpoint": format!("{o}/oauth/register"),
        "revocation_endpoint": format!("{o}/oauth/revoke"),
        "introspection_endpoint": format!("{o}/oauth/introspect"),
        "response_types_supported": ["code"],
        "grant_types_supported": ["authorization_code", "refresh_token", TOKEN_EXCHANGE],
        "code_challenge_methods_supported": ["S256"],
        // `none` for the code flow's public clients; a secret for a resource server's token exchange.
        "token_endpoint_auth_methods_supported": ["none", "client_secret_basic", "client_secret_post"],
        "revocation_endpoint_auth_methods_supported": ["none"],
        "introspection_endpoint_auth_methods_supported": ["none"],
        "scopes_supported": api_types::scopes::ALL,
        // A client may name itself by the URL of its metadata document instead of registering.
        "client_id_metadata_document_supported": true,
        // No service_documentation: RFC 8414 wants a URL there, and the MCP SDKs drop metadata whose value is not one (then register at /register).
    });
    Json(body).into_response()
}

/// An RFC 6749 5.2 error: `{error, error_description}`, 400 (401 for `invalid_client`), never cached.
pub fn oauth_error(code: &str, description: impl Into<String>) -> Response {
    let status = if code == "invalid_client" { StatusCode::UNAUTHORIZED } else { StatusCode::BAD_REQUEST };
    no_store((status, Json(json!({ "error": code, "error_description": description.into() }))).into_response())
}

pub fn no_store(mut r: Response) -> Response {
    r.headers_mut().insert(header::CACHE_CONTROL, HeaderValue::from_static("no-store"));
    r.headers_mut().insert(header::PRAGMA, HeaderValue::from_static("no-cache"));
    r
}

/// A stored token, looked up by its secret.
#[derive(Debug, Clone)]
pub struct TokenRow {
    pub kind: String,
    pub grant_id: String,
    pub account_id: String,
    pub client_id: String,
    pub audience: String,
    pub scopes: Vec<String>,
    pub issued_at: i64,
    pub expires_at: Option<i64>,
    pub used_at: Option<i64>,
    pub grant_revoked: bool,
}

impl TokenRow {
    /// An access token that is not expired and whose grant stands.
    pub fn active_access(&self, now: i64) -> bool {
        self.kind == "access" && !self.grant_revoked && self.expires_at.is_some_and(|e| e > now)
    }
}

pub fn find_token(conn: &Connection, secret: &str) -> rusqlite::Result<Option<TokenRow>> {
    conn.cached_row(
        "SELECT t.kind, t.grant_id, g.account_id, g.client_id, t.audience, t.scopes, t.issued_at, t.expires_at,
                t.used_at, g.revoked_at IS NOT NULL
         FROM oauth_tokens t JOIN oauth_grants g ON g.id = t.grant_id WHERE t.token_hash = ?1",
        [crate::auth::hash_secret(secret)],
        |r| {
            Ok(TokenRow {
                kind: r.get(0)?,
                grant_id: r.get(1)?,
                account_id: r.get(2)?,
                client_id: r.get(3)?,
                audience: r.get(4)?,
                scopes: r.get::<_, String>(5)?.split_whitespace().map(String::from).collect(),
                issued_at: r.get(6)?,
                expires_at: r.get(7)?,
                used_at: r.get(8)?,
                grant_revoked: r.get(9)?,
            })
        },
    )
    .optional()
}

/// Stores a token of `kind` (`access` with `ttl_s`, `refresh` without expiry) and returns its secret.
pub fn mint(conn: &Connection, kind: &str, grant_id: &str, audience: &str, scopes: &[String], ttl_s: Option<i64>) -> rusqlite::Result<String> {
    let secret = new_secret(if kind == "access" { ACCESS_PREFIX } else { REFRESH_PREFIX });
    let now = now_s();
    conn.execute(
        "INSERT INTO oauth_tokens (token_hash, kind, grant_id, audience, scopes, issued_at, expires_at)
         VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)",
        params![crate::auth::hash_secret(&secret), kind, grant_id, audience, scopes.join(" "), now, ttl_s.map(|t| now + t)],
    )?;
    Ok(secret)
}

/// Revokes a grant and with it every token it issued. `false` when it was not live.
pub fn revoke_grant(conn: &Connection, grant_id: &str) -> rusqlite::Result<bool> {
    let n = conn.execute(
        "UPDATE oauth_grants SET revoked_at = ?2 WHERE id = ?1 AND revoked_at IS NULL",
        params![grant_id, time::now_str()],
    )?;
    Ok(n == 1)
}

/// The hook of `auth::Caller`: `Ok(None)` when the `Authorization` header is not a `cho_at_` token (a key
/// then); a token that is unknown, expired, for another audience or of a revoked grant is a 401.
pub fn bearer_caller(state: &AppState, header: &str) -> ApiResult<Option<Caller>> {
    let Some(secret) = header
        .strip_prefix("Bearer ")
        .or_else(|| header.strip_prefix("bearer "))
        .map(str::trim)
        .filter(|s| s.starts_with(ACCESS_PREFIX))
    else {
        return Ok(None);
    };
    let now = now_s();
    let row = {
        let conn = state.db().reader()?;
        find_token(&conn, secret)?
    };
    let row = row.ok_or(ApiError::Unauthorized)?;
    if !row.active_access(now) || !same_resource(&row.audience, &api_audience(state)) {
        return Err(ApiError::Unauthorized);
    }
    let key_id = format!("{CALLER_PREFIX}{}", row.grant_id);
    state.take_rate_token(&key_id).map_err(|retry_after| ApiError::RateLimited { retry_after })?;
    touch(state, &row.grant_id, now)?;
    Ok(Some(Caller { account_id: row.account_id, key_id, scopes: row.scopes }))
}

/// Records the grant's last use, at most once a minute (a write per call would queue every delegated
/// call behind the writer).
fn touch(state: &AppState, grant_id: &str, now: i64) -> ApiResult<()> {
    let last: i64 = {
        let conn = state.db().reader()?;
        conn.cached_row("SELECT last_used_s FROM oauth_grants WHERE id = ?1", [grant_id], |r| r.get(0))?
    };
    if now - last >= 60 {
        let conn = state.db().lock();
        conn.execute(
            "UPDATE oauth_grants SET last_used_at = ?2, last_used_s = ?3 WHERE id = ?1",
            params![grant_id, time::now_str(), now],
        )?;
    }
    Ok(())
}

/// The hook of `Caller::ensure_active` for a delegated caller: its grant must still stand.
pub fn ensure_grant_live(state: &AppState, key_id: &str) -> Option<ApiResult<()>> {
    let grant_id = key_id.strip_prefix(CALLER_PREFIX)?;
    let live = (|| -> ApiResult<bool> {
        let conn = state.db().reader()?;
        Ok(conn
            .cached_row("SELECT 1 FROM oauth_grants WHERE id = ?1 AND revoked_at IS NULL", [grant_id], |_| Ok(()))
            .optional()?
            .is_some())
    })();
    Some(live.and_then(|l| if l { Ok(()) } else { Err(ApiError::Unauthorized) }))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn secrets_are_256_bits_and_prefixed() {
        let a = new_secret(ACCESS_PREFIX);
        assert!(a.starts_with("cho_at_"));
        assert_eq!(a.len(), ACCESS_PREFIX.len() + 43);
        assert_ne!(a, new_secret(ACCESS_PREFIX));
    }

    #[test]
    fn a_start_purges_old_codes_and_access_tokens_and_keeps_what_reuse_detection_needs() {
        let dir = std::env::temp_dir().join(format!("oauth-purge-{}", crate::db::new_id()));
        std::fs::create_dir_all(&dir).unwrap();
        let schema = crate::db::Schema { tables: &[crate::auth::SCHEMA, SCHEMA], added_columns: &[] };
        let db = crate::db::Db::open(&dir.join("sandbox.db"), &schema).unwrap();
        let conn = db.lock();
        let account = crate::auth::create_account(&conn, "a", 0.0).unwrap();
        for (id, revoked) in [("live", None), ("gone", Some("2026-01-01T00:00:00Z"))] {
            conn.execute(
                "INSERT INTO oauth_grants (id, account_id, client_id, scopes, created_at, revoked_at) VALUES (?1, ?2, 'c', 's', 'x', ?3)",
                params![id, account, revoked],
            )
            .unwrap();
        }
        let now = now_s();
        let old = now - PURGE_AFTER_S - 10;
        let tokens = [
            ("old-access", "access", "live", Some(old)),
            ("revoked-access", "access", "live", Some(0)),
            ("recently-expired-access", "access", "live", Some(now - 10)),
            ("rotated-refresh", "refresh", "live", None),
            ("refresh-of-a-revoked-grant", "refresh", "gone", None),
        ];
        for (hash, kind, grant, expires) in tokens {
            conn.execute(
                "INSERT INTO oauth_tokens (token_hash, kind, grant_id, audience, scopes, issued_at, expires_at, used_at)
                 VALUES (?1, ?2, ?3, 'aud', 's', 0, ?4, 1)",
                params![hash, kind, grant, expires],
            )
            .unwrap();
        }
        for (hash, expires) in [("old-code", old), ("recent-code", now - 10)] {
            conn.execute(
                "INSERT INTO oauth_codes (code_hash, client_id, account_id, redirect_uri, challenge, resource, scopes, expires_at, grant_id)
                 VALUES (?1, 'c', ?2, 'r', 'ch', 'res', 's', ?3, 'live')",
                params![hash, account, expires],
            )
            .unwrap();
        }
        assert_eq!(purge_expired(&conn, now).unwrap(), 4);
        let left = |table: &str, column: &str| -> Vec<String> {
            let mut st = conn.prepare(&format!("SELECT {column} FROM {table} ORDER BY {column}")).unwrap();
            st.query_map([], |r| r.get(0)).unwrap().map(Result::unwrap).collect()
        };
        // A rotated refresh token of a live grant stays: its reuse must still revoke the grant.
        assert_eq!(left("oauth_tokens", "token_hash"), ["recently-expired-access", "rotated-refresh"]);
        // A code that expired a moment ago stays: a replay is still recognised.
        assert_eq!(left("oauth_codes", "code_hash"), ["recent-code"]);
        drop(conn);
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn resources_compare_without_a_trailing_slash() {
        assert!(same_resource("http://127.0.0.1:1/api/v1", "http://127.0.0.1:1/api/v1/"));
        assert!(!same_resource("http://127.0.0.1:1/api/v1", "http://127.0.0.1:1/mcp"));
    }

    #[test]
    fn localhost_and_the_bound_loopback_address_of_one_port_are_one_origin() {
        assert!(same_resource("http://localhost:8787/api/v1", "http://127.0.0.1:8787/api/v1"));
        assert!(same_resource("http://127.0.0.1:8787/api/v1/", "http://LOCALHOST:8787/api/v1"));
        assert!(same_resource("http://[::1]:8787/mcp", "http://localhost:8787/mcp"));
        // Another port, path, scheme or host is another resource; the two loopback addresses are two sockets.
        assert!(!same_resource("http://localhost:8788/api/v1", "http://127.0.0.1:8787/api/v1"));
        assert!(!same_resource("http://localhost:8787/mcp", "http://127.0.0.1:8787/api/v1"));
        assert!(!same_resource("https://localhost:8787/api/v1", "http://127.0.0.1:8787/api/v1"));
        assert!(!same_resource("http://127.0.0.1:8787/api/v1", "http://[::1]:8787/api/v1"));
        assert!(!same_resource("http://localhost.example:8787/api/v1", "http://127.0.0.1:8787/api/v1"));
    }
}
