//! Dynamic client registration (RFC 7591) for public clients, and redirect-URI rules: `https`, or `http`
//! on a loopback host (`127.0.0.1`, `[::1]`, `localhost`); no fragment. At authorization time the URI
//! must equal a registered one exactly, except that the port of a loopback URI may differ (RFC 8252 7.3:
//! a native app listens on whatever port is free).
use super::{oauth_error, TOKEN_EXCHANGE};
use crate::db::{new_id, CachedRow as _};
use crate::state::AppState;
use crate::time;
use axum::extract::State;
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use axum::Json;
use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use base64::Engine as _;
use rusqlite::{params, Connection, OptionalExtension};
use serde::Deserialize;
use serde_json::{json, Value};
use sha2::{Digest, Sha256};

/// A redirect URI taken apart: scheme, host (brackets kept for IPv6), port, and the rest (path and query).
#[derive(Debug, PartialEq)]
pub(super) struct Uri<'a> {
    pub(super) scheme: &'a str,
    pub(super) host: &'a str,
    pub(super) port: Option<&'a str>,
    pub(super) rest: &'a str,
}

pub(super) fn split(uri: &str) -> Option<Uri<'_>> {
    let (scheme, after) = uri.split_once("://")?;
    if uri.contains('#') || uri.chars().any(|c| c.is_whitespace() || c.is_control()) {
        return None;
    }
    let end = after.find(['/', '?']).unwrap_or(after.len());
    let (authority, rest) = after.split_at(end);
    if authority.contains('@') || authority.is_empty() {
        return None;
    }
    let (host, port) = if let Some(v6) = authority.strip_prefix('[') {
        let close = v6.find(']')?;
        let host = &authority[..close + 2];
        let tail = &v6[close + 1..];
        match tail.strip_prefix(':') {
            Some(p) => (host, Some(p)),
            None if tail.is_empty() => (host, None),
            None => return None,
        }
    } else {
        match authority.rsplit_once(':') {
            Some((h, p)) => (h, Some(p)),
            None => (authority, None),
        }
    };
    if let Some(p) = port {
        if p.is_empty() || p.parse::<u16>().is_err() {
            return None;
        }
    }
    Some(Uri { scheme, host, port, rest })
}

fn is_loopback(host: &str) -> bool {
    matches!(host.to_ascii_lowercase().as_str(), "127.0.0.1" | "[::1]" | "localhost")
}

/// Why `uri` cannot be registered, if it cannot.
pub fn check_redirect_uri(uri: &str) -> Result<(), String> {
    let u = split(uri).ok_or_else(|| format!("redirect URI `{uri}` is not an absolute http(s) URI without a fragment"))?;
    match u.scheme {
        "https" => Ok(()),
        "http" if is_loopback(u.host) => Ok(()),
        "http" => Err(format!(
            "redirect URI `{uri}`: plain http is allowed only on a loopback host (127.0.0.1, [::1], localhost); use https"
        )),
        other => Err(format!("redirect URI `{uri}`: scheme `{other}` is not supported; use https or http on loopback")),
    }
}

/// Whether `asked` may be used where `registered` was registered.
pub fn redirect_matches(registered: &str, asked: &str) -> bool {
    if registered == asked {
        return true;
    }
    match (split(registered), split(asked)) {
        (Some(r), Some(a)) => {
            r.scheme == "http" && a.scheme == "http" && is_loopback(r.host) && r.host == a.host && r.rest == a.rest
        }
        _ => false,
    }
}

/// The most redirect URIs one client registers (a native app needs one or two; RFC 7591 sets no bound).
pub const MAX_REDIRECT_URIS: usize = 10;
/// The longest redirect URI, in bytes (the length browsers and servers reliably carry in a URL).
pub const MAX_REDIRECT_URI_BYTES: usize = 2048;
/// The largest registration request body, in bytes: ten URIs at the limit and the other metadata fit.
pub const MAX_REGISTRATION_BYTES: usize = 32 * 1024;
/// A registered client that never completed an authorization (nor, for a resource server, an exchange)
/// is deleted this long after its registration: registration is open to anyone, so without it the table
/// grows with every abandoned or hostile registration.
pub const UNUSED_CLIENT_TTL_S: i64 = 86_400;

#[derive(Debug, Deserialize)]
pub struct Registration {
    #[serde(default)]
    redirect_uris: Vec<String>,
    client_name: Option<String>,
    grant_types: Option<Vec<String>>,
    response_types: Option<Vec<String>>,
    token_endpoint_auth_method: Option<String>,
    scope: Option<String>,
    /// A resource server registering for token exchange: the resource it is (RFC 8707 `resource`).
    resource: Option<String>,
    /// Its proof of controlling `resource`: the secret whose SHA-256 it publishes in its metadata.
    resource_proof: Option<String>,
}

fn bad_metadata(description: String) -> Response {
    super::no_store(
        (StatusCode::BAD_REQUEST, Json(json!({ "error": "invalid_client_metadata", "error_description": description })))
            .into_response(),
    )
}

/// The checks on `redirect_uris`: at least one, at most [`MAX_REDIRECT_URIS`], each at most
/// [`MAX_REDIRECT_URI_BYTES`] and https or loopback http. `Err` is the `invalid_redirect_uri` description.
pub fn check_redirect_uris(uris: &[String]) -> Result<(), String> {
    if uris.is_empty() {
        return Err("redirect_uris must list at least one URI".into());
    }
    if uris.len() > MAX_REDIRECT_URIS {
        return Err(format!("redirect_uris lists {} URIs; at most {MAX_REDIRECT_URIS} are accepted", uris.len()));
    }
    for uri in uris {
        if uri.len() > MAX_REDIRECT_URI_BYTES {
            return Err(format!(
                "redirect_uris: a URI of {} bytes; each may be at most {MAX_REDIRECT_URI_BYTES}",
                uri.len()
            ));
        }
        check_redirect_uri(uri)?;
    }
    Ok(())
}

/// Deletes the clients registered more than [`UNUSED_CLIENT_TTL_S`] before `now_s` that were never used
/// (no authorization completed, no exchange made) and hold no grant; answers how many went. The clock
/// is the caller's (a test gives a later one rather than waiting).
pub fn purge_unused(conn: &Connection, now_s: i64) -> rusqlite::Result<usize> {
    conn.execute(
        "DELETE FROM oauth_clients WHERE used_s IS NULL AND created_s < ?1
           AND NOT EXISTS (SELECT 1 FROM oauth_grants g WHERE g.client_id = oauth_clients.id)",
        [now_s - UNUSED_CLIENT_TTL_S],
    )
}

/// Records that `client_id` completed an authorization or an exchange (it is then never purged as unused).
pub fn mark_used(conn: &Connection, client_id: &str, now_s: i64) -> rusqlite::Result<()> {
    conn.execute("UPDATE oauth_clients SET used_s = ?2 WHERE id = ?1 AND used_s IS NULL", params![client_id, now_s])?;
    Ok(())
}

/// `POST /oauth/register` (RFC 7591; deprecated by the MCP authorization spec in favour of Client ID
/// Metadata Documents, kept for the clients that still use it). Two kinds of client:
/// - a public client (the code flow): `token_endpoint_auth_method` is always `none` (a client asking for
///   a secret method is registered as `none` and told so in the answer, as RFC 7591 3.2.1 allows);
/// - a resource server that exchanges its users' tokens (RFC 8693): `grant_types` is the token-exchange
///   grant alone, it authenticates with a secret issued here (`client_secret_basic` or
///   `client_secret_post`), and it names the `resource` it is with a `resource_proof`: its RFC 9728
///   metadata must carry `contentdesk_registration_proof` = BASE64URL(SHA-256(resource_proof)), which
///   only whoever serves that resource can publish ([`resource_server`]).
///
/// Bounded: the body at most [`MAX_REGISTRATION_BYTES`], [`MAX_REDIRECT_URIS`] URIs of at most
/// [`MAX_REDIRECT_URI_BYTES`]; each refusal a 400 naming the field. Unknown metadata is ignored. Every
/// registration first purges the clients left unused past [`UNUSED_CLIENT_TTL_S`].
pub async fn register(State(state): State<AppState>, peer: super::Peer, body: axum::body::Body) -> Response {
    if let Some(limited) = super::limit_address(&state, &peer) {
        return limited;
    }
    let Ok(body) = axum::body::to_bytes(body, MAX_REGISTRATION_BYTES).await else {
        return bad_metadata(format!("the registration request is larger than {MAX_REGISTRATION_BYTES} bytes"));
    };
    let reg: Registration = match serde_json::from_slice(&body) {
        Ok(r) => r,
        Err(e) => return bad_metadata(format!("the body must be a JSON client metadata object: {e}")),
    };
    let now = super::now_s();
    {
        let conn = state.db().lock();
        if let Err(e) = purge_unused(&conn, now) {
            tracing::warn!(%e, "could not purge unused OAuth clients");
        }
    }
    let name = reg.client_name.clone().map(|n| n.trim().to_string()).filter(|n| !n.is_empty()).unwrap_or_else(|| "Unnamed app".into());
    if name.chars().count() > 100 || name.chars().any(char::is_control) {
        return bad_metadata("client_name must be at most 100 characters, without control characters".into());
    }
    if reg.scope.as_ref().is_some_and(|s| s.len() > 1000) {
        return bad_metadata("scope must be at most 1000 characters".into());
    }
    if let Some(r) = reg.response_types.iter().flatten().find(|r| *r != "code") {
        return bad_metadata(format!("response type `{r}` is not supported; only `code`"));
    }
    let exchange = reg.grant_types.as_ref().is_some_and(|g| g.iter().any(|g| g == TOKEN_EXCHANGE));
    if exchange {
        return resource_server(&state, reg, name, now).await;
    }
    if let Err(why) = check_redirect_uris(&reg.redirect_uris) {
        return oauth_error("invalid_redirect_uri", why);
    }
    let supported = ["authorization_code", "refresh_token"];
    let grant_types = reg.grant_types.unwrap_or_else(|| vec!["authorization_code".into(), "refresh_token".into()]);
    if let Some(g) = grant_types.iter().find(|g| !supported.contains(&g.as_str())) {
        return bad_metadata(format!("grant type `{g}` is not supported; supported: {}", supported.join(", ")));
    }
    let id = new_id();
    let stored = {
        let conn = state.db().lock();
        conn.execute(
            "INSERT INTO oauth_clients (id, name, redirect_uris, grant_types, created_at, created_s) VALUES (?1, ?2, ?3, ?4, ?5, ?6)",
            params![id, name, serde_json::to_string(&reg.redirect_uris).unwrap_or_default(), grant_types.join(" "), time::now_str(), now],
        )
    };
    if let Err(e) = stored {
        tracing::error!(%e, "oauth client registration");
        return oauth_error("server_error", "the sandbox could not store the client; try again");
    }
    let mut body = json!({
        "client_id": id,
        "client_id_issued_at": now,
        "client_name": name,
        "redirect_uris": reg.redirect_uris,
        "grant_types": grant_types,
        "response_types": ["code"],
        "token_endpoint_auth_method": "none",
    });
    if let Some(scope) = reg.scope {
        body["scope"] = Value::String(scope);
    }
    super::no_store((StatusCode::CREATED, Json(body)).into_response())
}

/// The metadata field a resource server publishes to prove it registered: BASE64URL(SHA-256(proof)).
pub const PROOF_FIELD: &str = "contentdesk_registration_proof";

/// Registers a resource server for token exchange (see [`register`]). The proof: the sandbox reads the
/// resource's RFC 9728 metadata ([`super::fetch`], fenced) and finds there the hash of the secret the
/// registration carries. Whoever merely holds a user's token for that resource cannot publish it, so
/// cannot register an exchanging client for it.
async fn resource_server(state: &AppState, reg: Registration, name: String, now: i64) -> Response {
    let grants = reg.grant_types.unwrap_or_default();
    if grants.len() != 1 {
        return bad_metadata(format!(
            "grant_types: a token-exchange client has that grant alone ({TOKEN_EXCHANGE}); register the code flow as another client"
        ));
    }
    let method = reg.token_endpoint_auth_method.unwrap_or_else(|| "client_secret_basic".into());
    if method != "client_secret_basic" && method != "client_secret_post" {
        return bad_metadata(format!(
            "token_endpoint_auth_method `{method}`: a token-exchange client authenticates with client_secret_basic or client_secret_post"
        ));
    }
    if !reg.redirect_uris.is_empty() {
        return oauth_error("invalid_redirect_uri", "redirect_uris: a token-exchange client has none (it never sends a browser here)");
    }
    let Some(resource) = reg.resource.map(|r| r.trim_end_matches('/').to_string()) else {
        return bad_metadata("resource: a token-exchange client names the resource it is (its RFC 8707 identifier)".into());
    };
    if resource.len() > MAX_REDIRECT_URI_BYTES || split(&resource).is_none() || !resource.starts_with("http") {
        return bad_metadata(format!("resource must be an absolute http(s) URI of at most {MAX_REDIRECT_URI_BYTES} bytes, without a fragment"));
    }
    if super::same_resource(&resource, &super::api_audience(state)) || resource.starts_with(&state.origin()) {
        return bad_metadata("resource: the API is not a resource server that exchanges tokens".into());
    }
    let Some(proof) = reg.resource_proof.filter(|p| (32..=256).contains(&p.len())) else {
        return bad_metadata(format!(
            "resource_proof: 32 to 256 characters of secret, whose BASE64URL(SHA-256) the resource's metadata carries as {PROOF_FIELD}"
        ));
    };
    let Some(meta_url) = super::fetch::metadata_url(&resource) else {
        return bad_metadata("resource must have no query or fragment".into());
    };
    let meta = match super::fetch::json(&meta_url, state.config().oauth_fetch_loopback, state.config().oauth_fetch_ca.as_deref()).await {
        Ok(m) => m,
        Err(why) => return bad_metadata(format!("resource: its metadata could not be read: {why}")),
    };
    let named = meta.get("resource").and_then(Value::as_str).unwrap_or_default();
    if !super::same_resource(named, &resource) {
        return bad_metadata(format!("resource: the metadata at {meta_url} names another resource (`{named}`)"));
    }
    let expected = URL_SAFE_NO_PAD.encode(Sha256::digest(proof.as_bytes()));
    if meta.get(PROOF_FIELD).and_then(Value::as_str) != Some(expected.as_str()) {
        return bad_metadata(format!(
            "resource_proof: the metadata at {meta_url} does not carry {PROOF_FIELD} = BASE64URL(SHA-256(resource_proof)); only the resource itself can register for it"
        ));
    }
    let id = new_id();
    let secret = super::new_secret("cho_cs_");
    let stored = {
        let conn = state.db().lock();
        conn.execute(
            "INSERT INTO oauth_clients (id, name, redirect_uris, grant_types, created_at, created_s, auth_method, secret_hash, resource)
             VALUES (?1, ?2, '[]', ?3, ?4, ?5, ?6, ?7, ?8)",
            params![id, name, TOKEN_EXCHANGE, time::now_str(), now, method, crate::auth::hash_secret(&secret), resource],
        )
    };
    if let Err(e) = stored {
        tracing::error!(%e, "oauth client registration");
        return oauth_error("server_error", "the sandbox could not store the client; try again");
    }
    super::no_store(
        (
            StatusCode::CREATED,
            Json(json!({
                "client_id": id,
                "client_secret": secret,
                "client_secret_expires_at": 0,
                "client_id_issued_at": now,
                "client_name": name,
                "grant_types": [TOKEN_EXCHANGE],
                "token_endpoint_auth_method": method,
                "resource": resource,
            })),
        )
            .into_response(),
    )
}

/// A resource server's exchanging client, authenticated: its id and the resource it is.
pub struct Exchanger {
    pub id: String,
    pub resource: String,
}

/// Authenticates the client of a token request (RFC 6749 2.3.1: HTTP Basic, or `client_id` and
/// `client_secret` in the body), as a token-exchange client. `Err` is the `invalid_client` description.
pub fn authenticate_exchanger(conn: &Connection, basic: Option<(String, String)>, form_id: Option<&String>, form_secret: Option<&String>) -> Result<Exchanger, String> {
    let (id, secret, method) = match (basic, form_secret) {
        (Some(_), Some(_)) => return Err("use one client authentication method, not both".into()),
        (Some((id, secret)), None) => (id, secret, "client_secret_basic"),
        (None, Some(secret)) => match form_id {
            Some(id) => (id.clone(), secret.clone(), "client_secret_post"),
            None => return Err("client_secret without client_id".into()),
        },
        (None, None) => {
            return Err(
                "token exchange needs client authentication: a resource server registered for it (grant_types [token-exchange], resource, resource_proof) sends its client_id and client_secret"
                    .into(),
            )
        }
    };
    let row: Option<(String, Option<String>, Option<String>, String)> = conn
        .cached_row(
            "SELECT auth_method, secret_hash, resource, grant_types FROM oauth_clients WHERE id = ?1",
            [&id],
            |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?, r.get(3)?)),
        )
        .optional()
        .map_err(|e| format!("the sandbox could not read its clients: {e}"))?;
    let Some((registered_method, Some(hash), Some(resource), grants)) = row else {
        return Err("unknown client, or a public client (only a registered resource server may exchange tokens)".into());
    };
    let given = crate::auth::hash_secret(&secret);
    if !constant_time_eq(given.as_bytes(), hash.as_bytes()) {
        return Err("client authentication failed".into());
    }
    if registered_method != method {
        return Err(format!("this client registered {registered_method}; authenticate with that method"));
    }
    if !grants.split_whitespace().any(|g| g == TOKEN_EXCHANGE) {
        return Err("this client is not registered for token exchange".into());
    }
    Ok(Exchanger { id, resource })
}

fn constant_time_eq(a: &[u8], b: &[u8]) -> bool {
    a.len() == b.len() && a.iter().zip(b).fold(0u8, |acc, (x, y)| acc | (x ^ y)) == 0
}

/// Whether `client_id` names a Client ID Metadata Document (an `https` URL; `http` on loopback when the
/// sandbox may fetch from loopback) rather than a registered id.
pub fn is_document_url(client_id: &str) -> bool {
    client_id.starts_with("https://") || client_id.starts_with("http://")
}

/// Client ID Metadata Documents (draft-ietf-oauth-client-id-metadata-document, which the MCP
/// authorization spec prefers to registration): the `client_id` is an https URL with a path, and the
/// document there describes the client. Fetched (fenced, [`super::fetch`]: public addresses only, no
/// redirects, 5 s, 5 KiB) each time the consent page is shown, validated, and kept as a client row under
/// that id (so codes, grants and the granted-apps list treat it as any client; unused, it is purged as
/// registered ones are). The document must: carry `client_id` equal to the URL, character for character;
/// list `redirect_uris` under the registration's rules (at most 10, each https or loopback http, at most
/// 2,048 bytes); be a public client (`token_endpoint_auth_method` absent or `none`, no `client_secret`);
/// ask only for the code flow's grants. `Err` says why, for the error page.
pub async fn load_document(state: &AppState, url: &str) -> Result<(), String> {
    let u = url::Url::parse(url).map_err(|e| format!("the client_id `{url}` is not a URL: {e}"))?;
    let loopback = state.config().oauth_fetch_loopback;
    match u.scheme() {
        "https" => {}
        "http" if loopback && u.host_str().is_some_and(|h| is_loopback(h) || h == "[::1]") => {}
        _ => return Err(format!("the client_id `{url}` must be an https URL (a Client ID Metadata Document)")),
    }
    if u.path().trim_start_matches('/').is_empty() || u.fragment().is_some() || !u.username().is_empty() || u.password().is_some() {
        return Err(format!("the client_id `{url}` must have a path, and no fragment or user name"));
    }
    if url.split('/').any(|seg| seg == "." || seg == "..") || url.len() > MAX_REDIRECT_URI_BYTES {
        return Err(format!("the client_id `{url}` must not have dot segments and must be at most {MAX_REDIRECT_URI_BYTES} bytes"));
    }
    let doc = super::fetch::json(url, loopback, state.config().oauth_fetch_ca.as_deref()).await.map_err(|why| format!("the app's metadata document could not be read: {why}"))?;
    if doc.get("client_id").and_then(Value::as_str) != Some(url) {
        return Err(format!("the metadata document at {url} names another client_id; it must be the document's own URL"));
    }
    let uris: Vec<String> = match doc.get("redirect_uris") {
        Some(v) => serde_json::from_value(v.clone()).map_err(|_| "the metadata document's redirect_uris is not a list of strings".to_string())?,
        None => Vec::new(),
    };
    check_redirect_uris(&uris).map_err(|why| format!("the metadata document's {why}"))?;
    match doc.get("token_endpoint_auth_method").and_then(Value::as_str) {
        None | Some("none") => {}
        Some(other) => return Err(format!("the metadata document asks for token_endpoint_auth_method `{other}`; this sandbox takes public clients (`none`) by metadata document")),
    }
    if doc.get("client_secret").is_some() || doc.get("client_secret_expires_at").is_some() {
        return Err("a metadata document must not carry a client_secret (it is public)".into());
    }
    let grants: Vec<String> = doc
        .get("grant_types")
        .map(|g| serde_json::from_value(g.clone()).unwrap_or_else(|_| vec!["?".into()]))
        .unwrap_or_else(|| vec!["authorization_code".into(), "refresh_token".into()]);
    if let Some(g) = grants.iter().find(|g| *g != "authorization_code" && *g != "refresh_token") {
        return Err(format!("the metadata document asks for grant type `{g}`; only authorization_code and refresh_token"));
    }
    let name = doc
        .get("client_name")
        .and_then(Value::as_str)
        .map(|n| n.trim().to_string())
        .filter(|n| !n.is_empty())
        .unwrap_or_else(|| u.host_str().unwrap_or("Unnamed app").to_string());
    if name.chars().count() > 100 || name.chars().any(char::is_control) {
        return Err("the metadata document's client_name must be at most 100 characters, without control characters".into());
    }
    let conn = state.db().lock();
    conn.execute(
        "INSERT INTO oauth_clients (id, name, redirect_uris, grant_types, created_at, created_s) VALUES (?1, ?2, ?3, ?4, ?5, ?6)
         ON CONFLICT(id) DO UPDATE SET name = excluded.name, redirect_uris = excluded.redirect_uris, grant_types = excluded.grant_types
         WHERE oauth_clients.secret_hash IS NULL",
        params![url, name, serde_json::to_string(&uris).unwrap_or_default(), grants.join(" "), time::now_str(), super::now_s()],
    )
    .map_err(|e| format!("the sandbox could not store the client: {e}"))?;
    Ok(())
}

/// A registered client: its name and redirect URIs.
pub struct Client {
    pub id: String,
    pub name: String,
    pub redirect_uris: Vec<String>,
}

pub fn find(conn: &Connection, id: &str) -> rusqlite::Result<Option<Client>> {
    // A resource server's exchanging client never takes part in the code flow.
    conn.cached_row("SELECT id, name, redirect_uris FROM oauth_clients WHERE id = ?1 AND secret_hash IS NULL", [id], |r| {
        let uris: String = r.get(2)?;
        Ok(Client { id: r.get(0)?, name: r.get(1)?, redirect_uris: serde_json::from_str(&uris).unwrap_or_default() })
    })
    .optional()
}

impl Client {
    pub fn allows(&self, redirect_uri: &str) -> bool {
        self.redirect_uris.iter().any(|r| redirect_matches(r, redirect_uri))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn redirect_uris_are_https_or_loopback_http() {
        for ok in ["https://app.example/cb", "http://127.0.0.1:3000/callback", "http://[::1]:8080/cb", "http://localhost/cb?x=1"] {
            assert!(check_redirect_uri(ok).is_ok(), "{ok}");
        }
        for bad in ["http://evil.example/cb", "ftp://x/y", "https://a/b#frag", "not a uri", "http://user@127.0.0.1/cb", "http://127.0.0.1:99999/cb"] {
            assert!(check_redirect_uri(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn only_a_loopback_port_may_vary() {
        assert!(redirect_matches("http://127.0.0.1:3000/callback", "http://127.0.0.1:49152/callback"));
        assert!(redirect_matches("http://[::1]/cb", "http://[::1]:5000/cb"));
        assert!(!redirect_matches("http://127.0.0.1:3000/callback", "http://127.0.0.1:3000/other"));
        assert!(!redirect_matches("http://127.0.0.1:3000/callback", "http://localhost:3000/callback"));
        assert!(!redirect_matches("https://app.example/cb", "https://app.example:444/cb"));
        assert!(!redirect_matches("https://app.example/cb", "https://app.example/cb?x=1"));
    }
}
