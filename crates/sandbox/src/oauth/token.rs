//! `POST /oauth/token` (authorization code with PKCE, refresh with rotation, token exchange),
//! `POST /oauth/introspect` (RFC 7662) and `POST /oauth/revoke` (RFC 7009). Form-encoded bodies, RFC 6749
//! 5.2 errors.
use super::{
    find_token, mint, now_s, oauth_error, revoke_grant, same_resource, ACCESS_TOKEN_TYPE, TOKEN_EXCHANGE,
};
use crate::auth::hash_secret;
use crate::db::{new_id, CachedRow as _};
use crate::state::AppState;
use crate::time;
use super::clients;
use axum::extract::State;
use axum::http::{header, HeaderMap, HeaderValue};
use axum::response::{IntoResponse, Response};
use axum::Json;
use base64::engine::general_purpose::{STANDARD, URL_SAFE_NO_PAD};
use base64::Engine as _;
use rusqlite::{params, OptionalExtension};
use serde_json::{json, Value};
use sha2::{Digest, Sha256};
use std::collections::HashMap;

type Form = HashMap<String, String>;

fn form(body: &str) -> Form {
    serde_urlencoded::from_str::<Vec<(String, String)>>(body)
        .unwrap_or_default()
        .into_iter()
        .filter(|(_, v)| !v.is_empty())
        .collect()
}

fn access_ttl(state: &AppState) -> i64 {
    state.config().oauth_access_ttl.as_secs().max(1) as i64
}

/// `scope` narrowed from `held`: every asked scope must be held (`invalid_scope` otherwise); none asked
/// keeps all. `Err` is the `invalid_scope` description.
fn narrow(asked: Option<&String>, held: &[String]) -> Result<Vec<String>, String> {
    let Some(asked) = asked else { return Ok(held.to_vec()) };
    let mut out = Vec::new();
    for s in asked.split_whitespace() {
        if !held.iter().any(|h| h == s) {
            return Err(format!(
                "scope `{s}` is not part of this grant (it holds: {}); ask for the same or fewer scopes",
                held.join(" ")
            ));
        }
        if !out.iter().any(|o: &String| o == s) {
            out.push(s.to_string());
        }
    }
    if out.is_empty() {
        return Ok(held.to_vec());
    }
    Ok(out)
}

fn token_response(access: &str, ttl: i64, scopes: &[String], refresh: Option<&str>, exchanged: bool) -> Response {
    let mut body = json!({
        "access_token": access,
        "token_type": "Bearer",
        "expires_in": ttl,
        "scope": scopes.join(" "),
    });
    if let Some(r) = refresh {
        body["refresh_token"] = Value::String(r.into());
    }
    if exchanged {
        body["issued_token_type"] = Value::String(ACCESS_TOKEN_TYPE.into());
    }
    super::no_store(Json(body).into_response())
}

fn pkce_ok(verifier: &str, challenge: &str) -> bool {
    (43..=128).contains(&verifier.len())
        && verifier.chars().all(|c| c.is_ascii_alphanumeric() || "-._~".contains(c))
        && URL_SAFE_NO_PAD.encode(Sha256::digest(verifier.as_bytes())) == challenge
}

/// The HTTP Basic credentials of a token request (RFC 6749 2.3.1: both parts form-urlencoded), if any.
fn basic_credentials(headers: &HeaderMap) -> Result<Option<(String, String)>, ()> {
    let Some(v) = headers.get(header::AUTHORIZATION) else { return Ok(None) };
    let v = v.to_str().map_err(|_| ())?;
    let Some(b64) = v.strip_prefix("Basic ").or_else(|| v.strip_prefix("basic ")) else { return Err(()) };
    let raw = STANDARD.decode(b64.trim()).map_err(|_| ())?;
    let raw = String::from_utf8(raw).map_err(|_| ())?;
    let (id, secret) = raw.split_once(':').ok_or(())?;
    let decode = |s: &str| form_urlencoded::parse(format!("x={s}").as_bytes()).next().map(|(_, v)| v.into_owned()).unwrap_or_default();
    Ok(Some((decode(id), decode(secret))))
}

/// RFC 6749 5.2's `invalid_client`: 401, and `WWW-Authenticate: Basic` (the scheme the client may use).
fn invalid_client(description: impl Into<String>) -> Response {
    let mut r = oauth_error("invalid_client", description);
    r.headers_mut().insert(header::WWW_AUTHENTICATE, HeaderValue::from_static("Basic realm=\"oauth\""));
    r
}

pub async fn token(State(state): State<AppState>, peer: super::Peer, headers: HeaderMap, body: String) -> Response {
    let f = form(&body);
    // Every grant type counts against the caller's address (token exchange also against its grant).
    if let Some(limited) = super::limit_address(&state, &peer) {
        return limited;
    }
    match f.get("grant_type").map(String::as_str) {
        Some("authorization_code") => authorization_code(&state, &f),
        Some("refresh_token") => refresh(&state, &f),
        Some(TOKEN_EXCHANGE) => exchange(&state, &headers, &f),
        Some(other) => oauth_error(
            "unsupported_grant_type",
            format!("grant_type `{other}` is not supported; use authorization_code, refresh_token or {TOKEN_EXCHANGE}"),
        ),
        None => oauth_error("invalid_request", "grant_type is missing (the body must be form-encoded)"),
    }
}

struct Code {
    client_id: String,
    account_id: String,
    redirect_uri: String,
    challenge: String,
    resource: String,
    scopes: Vec<String>,
    expires_at: i64,
    grant_id: Option<String>,
}

fn authorization_code(state: &AppState, f: &Form) -> Response {
    let Some(code) = f.get("code") else { return oauth_error("invalid_request", "code is missing") };
    let Some(client_id) = f.get("client_id") else {
        return oauth_error("invalid_request", "client_id is missing (a public client names itself)");
    };
    let ttl = access_ttl(state);
    let mut conn = state.db().lock();
    let tx = match conn.transaction() {
        Ok(t) => t,
        Err(e) => return server_error(e),
    };
    let found = tx
        .cached_row(
            "SELECT client_id, account_id, redirect_uri, challenge, resource, scopes, expires_at, grant_id
             FROM oauth_codes WHERE code_hash = ?1",
            [hash_secret(code)],
            |r| {
                Ok(Code {
                    client_id: r.get(0)?,
                    account_id: r.get(1)?,
                    redirect_uri: r.get(2)?,
                    challenge: r.get(3)?,
                    resource: r.get(4)?,
                    scopes: r.get::<_, String>(5)?.split_whitespace().map(String::from).collect(),
                    expires_at: r.get(6)?,
                    grant_id: r.get(7)?,
                })
            },
        )
        .optional();
    let c = match found {
        Ok(Some(c)) => c,
        Ok(None) => return oauth_error("invalid_grant", "unknown authorization code; start the authorization again"),
        Err(e) => return server_error(e),
    };
    if let Some(grant) = c.grant_id.as_deref() {
        // RFC 6749 4.1.2: a code used twice revokes what it issued.
        let _ = revoke_grant(&tx, grant);
        let _ = tx.commit();
        return oauth_error(
            "invalid_grant",
            "this authorization code was already used; the tokens it issued are revoked. Start the authorization again",
        );
    }
    if c.client_id != *client_id {
        return oauth_error("invalid_grant", "this code was issued to another client");
    }
    // From here every attempt spends the code (a wrong verifier cannot be retried).
    let grant_id = new_id();
    if let Err(e) = tx.execute("UPDATE oauth_codes SET grant_id = ?2 WHERE code_hash = ?1", params![hash_secret(code), grant_id]) {
        return server_error(e);
    }
    let refusal = if c.expires_at <= now_s() {
        Some(oauth_error("invalid_grant", "the authorization code expired (codes live 60 s); start the authorization again"))
    } else if f.get("redirect_uri") != Some(&c.redirect_uri) {
        Some(oauth_error("invalid_grant", "redirect_uri must be the one the authorization request used"))
    } else if let Some(v) = f.get("code_verifier").filter(|v| !pkce_ok(v, &c.challenge)) {
        let _ = v;
        Some(oauth_error("invalid_grant", "code_verifier does not match the code_challenge (PKCE S256)"))
    } else if !f.contains_key("code_verifier") {
        Some(oauth_error("invalid_request", "code_verifier is missing (PKCE is required)"))
    } else if f.get("resource").is_some_and(|r| !same_resource(r, &c.resource)) {
        Some(oauth_error("invalid_target", "resource must be the one the authorization request named"))
    } else {
        None
    };
    if let Some(r) = refusal {
        let _ = tx.commit();
        return r;
    }
    let issued = (|| -> rusqlite::Result<(String, String)> {
        tx.execute(
            "INSERT INTO oauth_grants (id, account_id, client_id, scopes, created_at) VALUES (?1, ?2, ?3, ?4, ?5)",
            params![grant_id, c.account_id, c.client_id, c.scopes.join(" "), time::now_str()],
        )?;
        super::clients::mark_used(&tx, &c.client_id, now_s())?;
        let access = mint(&tx, "access", &grant_id, &c.resource, &c.scopes, Some(ttl))?;
        let refresh = mint(&tx, "refresh", &grant_id, &c.resource, &c.scopes, None)?;
        Ok((access, refresh))
    })();
    match issued.and_then(|t| tx.commit().map(|_| t)) {
        Ok((access, refresh)) => token_response(&access, ttl, &c.scopes, Some(&refresh), false),
        Err(e) => server_error(e),
    }
}

fn refresh(state: &AppState, f: &Form) -> Response {
    let Some(secret) = f.get("refresh_token") else { return oauth_error("invalid_request", "refresh_token is missing") };
    let ttl = access_ttl(state);
    let conn = state.db().lock();
    let row = match find_token(&conn, secret) {
        Ok(Some(r)) if r.kind == "refresh" => r,
        Ok(_) => return oauth_error("invalid_grant", "unknown refresh token; authorize again"),
        Err(e) => return server_error(e),
    };
    if row.grant_revoked {
        return oauth_error("invalid_grant", "this grant was revoked; authorize again");
    }
    if f.get("client_id").is_some_and(|c| *c != row.client_id) {
        return oauth_error("invalid_grant", "this refresh token was issued to another client");
    }
    // Rotation: a refresh token works once. Spent here, atomically, so two racing uses cannot both win.
    let spent = conn
        .execute(
            "UPDATE oauth_tokens SET used_at = ?2 WHERE token_hash = ?1 AND used_at IS NULL",
            params![hash_secret(secret), now_s()],
        )
        .unwrap_or(0);
    if spent == 0 || row.used_at.is_some() {
        let _ = revoke_grant(&conn, &row.grant_id);
        return oauth_error(
            "invalid_grant",
            "this refresh token was already used, so it may have been stolen: the whole grant is revoked. Authorize again",
        );
    }
    if f.get("resource").is_some_and(|r| !same_resource(r, &row.audience)) {
        return oauth_error("invalid_target", "a refresh keeps the grant's resource; use token exchange for another one");
    }
    let scopes = match narrow(f.get("scope"), &row.scopes) {
        Ok(s) => s,
        Err(why) => return oauth_error("invalid_scope", why),
    };
    let issued = (|| -> rusqlite::Result<(String, String)> {
        let access = mint(&conn, "access", &row.grant_id, &row.audience, &scopes, Some(ttl))?;
        let refresh = mint(&conn, "refresh", &row.grant_id, &row.audience, &row.scopes, None)?;
        Ok((access, refresh))
    })();
    match issued {
        Ok((access, refresh)) => token_response(&access, ttl, &scopes, Some(&refresh), false),
        Err(e) => server_error(e),
    }
}

/// RFC 8693, for a resource server only: the client authenticates (a token-exchange client registered
/// with a proof that it is the resource, `clients::register`); the subject token must be an active access
/// token issued for that very resource (a client cannot exchange tokens meant for someone else); the new
/// token is for the API alone (`invalid_target` otherwise: no token for a foreign resource, nor for the
/// resource server itself), on the same grant, with the same or fewer of the scopes the user consented to,
/// and no later expiry.
fn exchange(state: &AppState, headers: &HeaderMap, f: &Form) -> Response {
    let Ok(basic) = basic_credentials(headers) else {
        return invalid_client("the Authorization header is not HTTP Basic client_id:client_secret");
    };
    let exchanger = {
        let Ok(conn) = state.db().reader() else { return oauth_error("server_error", "the sandbox could not read its clients") };
        match clients::authenticate_exchanger(&conn, basic, f.get("client_id"), f.get("client_secret")) {
            Ok(e) => e,
            Err(why) => return invalid_client(why),
        }
    };
    let Some(subject) = f.get("subject_token") else { return oauth_error("invalid_request", "subject_token is missing") };
    if f.get("subject_token_type").map(String::as_str) != Some(ACCESS_TOKEN_TYPE) {
        return oauth_error("invalid_request", format!("subject_token_type must be {ACCESS_TOKEN_TYPE}"));
    }
    if f.get("requested_token_type").is_some_and(|t| t != ACCESS_TOKEN_TYPE) {
        return oauth_error("invalid_request", format!("requested_token_type can only be {ACCESS_TOKEN_TYPE}"));
    }
    if f.contains_key("actor_token") {
        return oauth_error("invalid_request", "actor_token is not supported: the authenticated client is the actor");
    }
    let api = super::api_audience(state);
    let Some(resource) = f.get("resource").or_else(|| f.get("audience")) else {
        return oauth_error("invalid_target", format!("name the resource the new token is for: the API, {api}"));
    };
    if !same_resource(resource, &api) {
        return oauth_error("invalid_target", format!("a token can be exchanged only for the API ({api}), not for `{resource}`"));
    }
    let now = now_s();
    let conn = state.db().lock();
    let row = match find_token(&conn, subject) {
        Ok(Some(r)) if r.active_access(now) => r,
        Ok(_) => return oauth_error("invalid_grant", "subject_token is not an active access token"),
        Err(e) => return server_error(e),
    };
    if !same_resource(&row.audience, &exchanger.resource) {
        return oauth_error(
            "invalid_grant",
            format!("subject_token was issued for another resource; this client exchanges only tokens for {}", exchanger.resource),
        );
    }
    if let Err(wait) = state.take_rate_token(&format!("{}{}", super::CALLER_PREFIX, row.grant_id)) {
        return super::rate_limited(wait, "Too many requests for this grant");
    }
    let scopes = match narrow(f.get("scope"), &row.scopes) {
        Ok(s) => s,
        Err(why) => return oauth_error("invalid_scope", why),
    };
    let ttl = access_ttl(state).min(row.expires_at.unwrap_or(now) - now).max(1);
    let issued = clients::mark_used(&conn, &exchanger.id, now).and_then(|_| mint(&conn, "access", &row.grant_id, &api, &scopes, Some(ttl)));
    match issued {
        Ok(access) => token_response(&access, ttl, &scopes, None, true),
        Err(e) => server_error(e),
    }
}

fn server_error(e: rusqlite::Error) -> Response {
    tracing::error!(%e, "oauth token endpoint");
    oauth_error("server_error", "the sandbox could not complete this; try again")
}

/// `POST /oauth/introspect`. No caller authentication: the token is the credential (whoever asks holds
/// it; 256-bit random tokens cannot be scanned), so the answer tells nothing the caller could not learn
/// by using the token.
pub async fn introspect(State(state): State<AppState>, body: String) -> Response {
    let f = form(&body);
    let inactive = || super::no_store(Json(json!({ "active": false })).into_response());
    let Some(secret) = f.get("token") else { return oauth_error("invalid_request", "token is missing") };
    let row = {
        let Ok(conn) = state.db().reader() else { return inactive() };
        match find_token(&conn, secret) {
            Ok(Some(r)) => r,
            _ => return inactive(),
        }
    };
    let now = now_s();
    let active = match row.kind.as_str() {
        "access" => row.active_access(now),
        _ => !row.grant_revoked && row.used_at.is_none(),
    };
    if !active {
        return inactive();
    }
    let mut body = json!({
        "active": true,
        "scope": row.scopes.join(" "),
        "client_id": row.client_id,
        "sub": row.account_id,
        "aud": row.audience,
        "iat": row.issued_at,
        "iss": state.origin(),
        "grant_id": row.grant_id,
        "token_type": if row.kind == "access" { "Bearer" } else { "refresh_token" },
    });
    if let Some(exp) = row.expires_at {
        body["exp"] = json!(exp);
    }
    super::no_store(Json(body).into_response())
}

/// `POST /oauth/revoke`: 200 whatever the token (RFC 7009 2.2). An access token stops at once; a refresh
/// token takes its whole grant with it.
pub async fn revoke(State(state): State<AppState>, body: String) -> Response {
    let f = form(&body);
    let Some(secret) = f.get("token") else { return oauth_error("invalid_request", "token is missing") };
    let conn = state.db().lock();
    if let Ok(Some(row)) = find_token(&conn, secret) {
        let done = if row.kind == "refresh" {
            revoke_grant(&conn, &row.grant_id).map(|_| ())
        } else {
            conn.execute("UPDATE oauth_tokens SET expires_at = 0 WHERE token_hash = ?1", [hash_secret(secret)]).map(|_| ())
        };
        if let Err(e) = done {
            return server_error(e);
        }
    }
    super::no_store(Json(json!({})).into_response())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pkce_s256_is_base64url_of_sha256() {
        // The challenge computed independently (Python: urlsafe_b64encode(sha256(verifier)) without `=`).
        let verifier = "dBjftJeZ4CVP-mJ92K1D_f3MJgVVfBb2jt5Djq6sQ5o";
        assert!(pkce_ok(verifier, "gfQNNTrg3vNqoaEmd7-hNSr9IA1mzRdQa9oANY6KLJg"));
        assert!(!pkce_ok(verifier, "gfQNNTrg3vNqoaEmd7-hNSr9IA1mzRdQa9oANY6KLJh"));
        assert!(!pkce_ok("short", "x"));
    }
}
