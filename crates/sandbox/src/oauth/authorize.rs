//! `GET /oauth/authorize`: the consent page; `POST /oauth/authorize`: the user's decision.
//!
//! Checked before anything is shown: the client is registered and the redirect URI is one of its own
//! (exact, a loopback port may vary); otherwise an error page and never a redirect, so nobody can bounce
//! a browser to an address of their choosing. Then, answered by a redirect with `error=` (RFC 6749
//! 4.1.2.1): `response_type` other than `code`, a missing `code_challenge` or a method other than `S256`
//! (`plain` is refused: RFC 7636 7.2, OAuth 2.1), a scope this API does not have.
//!
//! The page signs the user in with one of the account's live API keys (the sandbox has no passwords; a key
//! is the only secret an account has here), names the app, where it will send the browser back to and the
//! resource it wants, and lists the scopes asked for in the API's own words, each of which can be unticked.
//! The form carries a token bound to every parameter (a keyed hash with this process's secret, as the
//! CLI's login page does), the page cannot be framed, and a code lives 60 s and is spent once.
use super::clients;
use super::{now_s, CODE_TTL_S};
use crate::auth;
use crate::db::CachedRow as _;
use crate::pages::{escape, frame, secret};
use crate::state::AppState;
use axum::extract::{Query, State};
use axum::http::{header, HeaderValue, StatusCode};
use axum::response::{IntoResponse, Response};
use rusqlite::{params, OptionalExtension};
use serde::Deserialize;
use sha2::{Digest, Sha256};
use std::collections::HashMap;

/// The parameters of an authorization request, checked.
#[derive(Debug, Clone)]
struct Ask {
    client_id: String,
    client_name: String,
    redirect_uri: String,
    /// The scopes asked for, in the API's order (all of them when the client named none).
    scopes: Vec<&'static str>,
    /// The `scope` parameter as given (bound into the form token).
    scope_param: String,
    state: String,
    challenge: String,
    /// The RFC 8707 resource (the API's base URL when none was named).
    resource: String,
    resource_param: String,
}

enum Refusal {
    /// No trustworthy redirect URI: an error page.
    Page(String),
    /// The redirect URI is the client's own: tell the client.
    Redirect { uri: String, state: Option<String>, error: &'static str, description: String },
}

#[derive(Debug, Deserialize, Default)]
pub struct Params {
    response_type: Option<String>,
    client_id: Option<String>,
    redirect_uri: Option<String>,
    scope: Option<String>,
    state: Option<String>,
    code_challenge: Option<String>,
    code_challenge_method: Option<String>,
    resource: Option<String>,
}

fn check(app: &AppState, p: &Params) -> Result<Ask, Refusal> {
    let client_id = p.client_id.as_deref().unwrap_or_default();
    if client_id.is_empty() {
        return Err(Refusal::Page("The link has no client_id: the app that sent you here must register first.".into()));
    }
    let client = {
        let conn = app.db().reader().map_err(|e| Refusal::Page(format!("the sandbox could not read its clients: {e}")))?;
        clients::find(&conn, client_id).map_err(|e| Refusal::Page(format!("the sandbox could not read its clients: {e}")))?
    };
    let Some(client) = client else {
        return Err(Refusal::Page(format!(
            "No app is registered as “{client_id}” with this sandbox. Go back to the app and connect again (it registers itself first)."
        )));
    };
    let redirect_uri = match p.redirect_uri.as_deref() {
        Some(r) => r.to_string(),
        None if client.redirect_uris.len() == 1 => client.redirect_uris[0].clone(),
        None => return Err(Refusal::Page("The link has no redirect_uri and the app registered several.".into())),
    };
    if !client.allows(&redirect_uri) {
        return Err(Refusal::Page(format!(
            "{redirect_uri} is not a redirect address {} registered, so this sandbox will not send you there. \
             Go back to the app and connect again.",
            client.name
        )));
    }
    let refuse = |error: &'static str, description: String| Refusal::Redirect {
        uri: redirect_uri.clone(),
        state: p.state.clone(),
        error,
        description,
    };
    if p.response_type.as_deref() != Some("code") {
        return Err(refuse("unsupported_response_type", "response_type must be `code`".into()));
    }
    let Some(challenge) = p.code_challenge.clone().filter(|c| !c.is_empty()) else {
        return Err(refuse("invalid_request", "PKCE is required: send code_challenge with code_challenge_method=S256".into()));
    };
    match p.code_challenge_method.as_deref() {
        Some("S256") => {}
        Some("plain") | None => {
            return Err(refuse("invalid_request", "code_challenge_method must be S256; plain is not accepted".into()))
        }
        Some(other) => return Err(refuse("invalid_request", format!("code_challenge_method `{other}` is not supported; use S256"))),
    }
    if challenge.len() != 43 || !challenge.chars().all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_') {
        return Err(refuse("invalid_request", "code_challenge must be BASE64URL(SHA-256(code_verifier)), 43 characters".into()));
    }
    let scope_param = p.scope.clone().unwrap_or_default();
    let mut scopes: Vec<&'static str> = Vec::new();
    for s in scope_param.split_whitespace() {
        match api_types::scopes::ALL.iter().find(|k| **k == s) {
            Some(k) => scopes.push(k),
            None => {
                return Err(refuse(
                    "invalid_scope",
                    format!("unknown scope `{s}`; this API's scopes: {}", api_types::scopes::ALL.join(" ")),
                ))
            }
        }
    }
    if scopes.is_empty() {
        scopes = api_types::scopes::ALL.to_vec();
    } else {
        scopes = api_types::scopes::ALL.iter().copied().filter(|k| scopes.contains(k)).collect();
    }
    let resource_param = p.resource.clone().unwrap_or_default();
    let resource = if resource_param.is_empty() { super::api_audience(app) } else { resource_param.clone() };
    if !(resource.starts_with("https://") || resource.starts_with("http://")) || resource.contains('#') {
        return Err(refuse("invalid_target", "resource must be an absolute http(s) URI without a fragment".into()));
    }
    Ok(Ask {
        client_id: client.id,
        client_name: client.name,
        redirect_uri,
        scopes,
        scope_param,
        state: p.state.clone().unwrap_or_default(),
        challenge,
        resource,
        resource_param,
    })
}

/// The form token: a keyed hash of every parameter of the request.
fn form_token(a: &Ask) -> String {
    let mut h = Sha256::new();
    h.update(secret());
    h.update(b"oauth-authorize\n");
    for part in [&a.client_id, &a.redirect_uri, &a.scope_param, &a.state, &a.challenge, &a.resource_param] {
        h.update(part.as_bytes());
        h.update(b"\n");
    }
    hex::encode(h.finalize())
}

/// `scheme://host[:port]` of a redirect URI, for the page's form-action policy (the browser follows the
/// form's 302 there, and CSP form-action covers redirects).
fn origin_of(uri: &str) -> String {
    let (scheme, after) = uri.split_once("://").unwrap_or(("https", uri));
    let end = after.find(['/', '?']).unwrap_or(after.len());
    format!("{scheme}://{}", &after[..end])
}

fn html(status: StatusCode, body: String, redirect: Option<&str>) -> Response {
    let mut r = (status, body).into_response();
    let form_action = match redirect {
        Some(uri) => format!("'self' {}", origin_of(uri)),
        None => "'self'".into(),
    };
    let csp = format!(
        "default-src 'none'; style-src 'unsafe-inline'; form-action {form_action}; frame-ancestors 'none'; base-uri 'none'"
    );
    let h = r.headers_mut();
    h.insert(header::CONTENT_TYPE, HeaderValue::from_static("text/html; charset=utf-8"));
    if let Ok(v) = HeaderValue::from_str(&csp) {
        h.insert(header::CONTENT_SECURITY_POLICY, v);
    }
    h.insert(header::X_FRAME_OPTIONS, HeaderValue::from_static("DENY"));
    h.insert(header::X_CONTENT_TYPE_OPTIONS, HeaderValue::from_static("nosniff"));
    h.insert(header::CACHE_CONTROL, HeaderValue::from_static("no-store"));
    h.insert(header::REFERRER_POLICY, HeaderValue::from_static("no-referrer"));
    r
}

fn error_page(message: &str) -> Response {
    let inner = format!(
        "<h1>Cannot connect this app</h1><p class=\"error\" role=\"alert\">{}</p><p>Nothing was shared.</p>",
        escape(message)
    );
    html(StatusCode::BAD_REQUEST, frame("Cannot connect", &inner), None)
}

/// The consent form's 429: a page a person reads (the limit's `Retry-After` kept).
fn too_many_attempts(limited: Response) -> Response {
    let retry = limited.headers().get(header::RETRY_AFTER).cloned();
    let secs = retry.as_ref().and_then(|v| v.to_str().ok()).unwrap_or("60").to_string();
    let inner = format!(
        "<h1>Too many attempts</h1><p class=\"error\" role=\"alert\">This address sent the sign-in form too often. \
Wait {} seconds, then go back and send it again.</p><p>Nothing was shared.</p>",
        escape(&secs)
    );
    let mut r = html(StatusCode::TOO_MANY_REQUESTS, frame("Too many attempts", &inner), None);
    if let Some(v) = retry {
        r.headers_mut().insert(header::RETRY_AFTER, v);
    }
    r
}

/// `uri` with `pairs` added to its query.
fn with_query(uri: &str, pairs: &[(&str, &str)]) -> String {
    let q = serde_urlencoded::to_string(pairs).unwrap_or_default();
    let sep = if uri.contains('?') { '&' } else { '?' };
    format!("{uri}{sep}{q}")
}

fn redirect(uri: &str) -> Response {
    let mut r = StatusCode::FOUND.into_response();
    if let Ok(v) = HeaderValue::from_str(uri) {
        r.headers_mut().insert(header::LOCATION, v);
    }
    r.headers_mut().insert(header::CACHE_CONTROL, HeaderValue::from_static("no-store"));
    r.headers_mut().insert(header::REFERRER_POLICY, HeaderValue::from_static("no-referrer"));
    r
}

fn refused(app: &AppState, r: Refusal) -> Response {
    match r {
        Refusal::Page(m) => error_page(&m),
        Refusal::Redirect { uri, state, error, description } => {
            let iss = app.origin();
            let mut pairs = vec![("error", error), ("error_description", description.as_str()), ("iss", iss.as_str())];
            if let Some(s) = state.as_deref() {
                pairs.push(("state", s));
            }
            redirect(&with_query(&uri, &pairs))
        }
    }
}

fn consent(a: &Ask, error: Option<&str>) -> Response {
    let host = origin_of(&a.redirect_uri);
    let scopes: String = a
        .scopes
        .iter()
        .map(|s| {
            format!(
                "<label><input type=\"checkbox\" name=\"scope\" value=\"{s}\" checked> {} <code>{s}</code></label>",
                escape(api_types::scopes::describe(s))
            )
        })
        .collect();
    let error = error.map(|e| format!("<p class=\"error\" role=\"alert\">{}</p>", escape(e))).unwrap_or_default();
    let hidden: String = [
        ("client_id", &a.client_id),
        ("redirect_uri", &a.redirect_uri),
        ("asked_scope", &a.scope_param),
        ("state", &a.state),
        ("code_challenge", &a.challenge),
        ("resource", &a.resource_param),
        ("token", &form_token(a)),
    ]
    .iter()
    .map(|(k, v)| format!("<input type=\"hidden\" name=\"{k}\" value=\"{}\">", escape(v)))
    .collect();
    let inner = format!(
        "<h1>Allow {name} to use your account?</h1>\
<p><strong>{name}</strong> asks for access to <code>{resource}</code> on your behalf. \
After you decide, this page sends you back to <strong>{host}</strong>. You can revoke the access at any time \
(Settings → Granted apps, or <code>DELETE /api/v1/oauth/grants/{{id}}</code>).</p>{error}\
<form method=\"post\" action=\"/oauth/authorize\">{hidden}\
<fieldset><legend>Sign in</legend>\
<p>This sandbox has no passwords: sign in by pasting one of your account's live API keys (<code>ch_live_…</code>), \
the only secret an account has here. The app never sees it.</p>\
<label>API key <input type=\"password\" name=\"api_key\" autocomplete=\"off\" size=\"40\"></label></fieldset>\
<fieldset><legend>What it may do (untick what you do not want to give)</legend>{scopes}</fieldset>\
<div class=\"buttons\"><button class=\"primary\" name=\"action\" value=\"allow\">Allow</button>\
<button name=\"action\" value=\"deny\">Deny</button></div></form>",
        name = escape(&a.client_name),
        resource = escape(&a.resource),
        host = escape(&host),
    );
    let status = if error.is_empty() { StatusCode::OK } else { StatusCode::BAD_REQUEST };
    html(status, frame("Allow access", &inner), Some(&a.redirect_uri))
}

pub async fn page(State(app): State<AppState>, peer: super::Peer, Query(p): Query<Params>) -> Response {
    // A Client ID Metadata Document: read (again) each time the page is shown, so it is current. The fetch
    // is a request made for whoever asks, so it counts against their address like the other endpoints.
    if let Some(url) = p.client_id.as_deref().filter(|c| clients::is_document_url(c)) {
        if let Some(limited) = super::limit_address(&app, &peer) {
            return too_many_attempts(limited);
        }
        if let Err(why) = clients::load_document(&app, url).await {
            return error_page(&why);
        }
    }
    match check(&app, &p) {
        Ok(a) => consent(&a, None),
        Err(r) => refused(&app, r),
    }
}

pub async fn decide(State(app): State<AppState>, peer: super::Peer, body: String) -> Response {
    if let Some(limited) = super::limit_address(&app, &peer) {
        return too_many_attempts(limited);
    }
    // `scope` repeats, so the pairs are read by hand.
    let pairs: Vec<(String, String)> = serde_urlencoded::from_str(&body).unwrap_or_default();
    let one: HashMap<&str, &str> = pairs.iter().map(|(k, v)| (k.as_str(), v.as_str())).collect();
    let field = |k: &str| one.get(k).map(|v| v.to_string()).filter(|v| !v.is_empty());
    let p = Params {
        response_type: Some("code".into()),
        client_id: field("client_id"),
        redirect_uri: field("redirect_uri"),
        scope: field("asked_scope"),
        state: field("state"),
        code_challenge: field("code_challenge"),
        code_challenge_method: Some("S256".into()),
        resource: field("resource"),
    };
    let a = match check(&app, &p) {
        Ok(a) => a,
        Err(r) => return refused(&app, r),
    };
    if one.get("token").copied() != Some(form_token(&a).as_str()) {
        return error_page("This form did not come from this page (its token does not match). Start again from the app.");
    }
    let state_pair = |pairs: &mut Vec<(&str, String)>| {
        if !a.state.is_empty() {
            pairs.push(("state", a.state.clone()));
        }
    };
    match one.get("action").copied() {
        Some("deny") => {
            let mut q = vec![("error", "access_denied".to_string()), ("error_description", "the user denied access".into()), ("iss", app.origin())];
            state_pair(&mut q);
            let q: Vec<(&str, &str)> = q.iter().map(|(k, v)| (*k, v.as_str())).collect();
            redirect(&with_query(&a.redirect_uri, &q))
        }
        Some("allow") => {
            let ticked: Vec<&str> = pairs.iter().filter(|(k, _)| k == "scope").map(|(_, v)| v.as_str()).collect();
            let chosen: Vec<&str> = a.scopes.iter().copied().filter(|s| ticked.contains(s)).collect();
            if chosen.is_empty() {
                return consent(&a, Some("Tick at least one thing the app may do, or Deny."));
            }
            let key = one.get("api_key").map(|k| k.trim()).unwrap_or_default();
            let found = {
                let conn = match app.db().reader() {
                    Ok(c) => c,
                    Err(e) => return error_page(&format!("the sandbox could not read its keys: {e}")),
                };
                conn.cached_row(
                    "SELECT account_id, scopes FROM api_keys WHERE secret_hash = ?1 AND revoked_at IS NULL",
                    [auth::hash_secret(key)],
                    |r| Ok((r.get::<_, String>(0)?, r.get::<_, String>(1)?)),
                )
                .optional()
            };
            let (account_id, key_scopes) = match found {
                Ok(Some(v)) if key.starts_with(auth::KEY_PREFIX) => v,
                Ok(_) => {
                    return consent(&a, Some("That is not a live API key of this sandbox. Paste one of your account's keys (ch_live_…)."))
                }
                Err(e) => return error_page(&format!("the sandbox could not read its keys: {e}")),
            };
            let beyond: Vec<&str> = chosen.iter().copied().filter(|s| !key_scopes.split_whitespace().any(|k| k == *s)).collect();
            if !beyond.is_empty() {
                return consent(
                    &a,
                    Some(&format!(
                        "The key you signed in with does not hold {}: untick it, or sign in with a key that holds it.",
                        beyond.join(", ")
                    )),
                );
            }
            let code = super::new_secret("cho_ac_");
            let stored = {
                let conn = app.db().lock();
                conn.execute(
                    "INSERT INTO oauth_codes (code_hash, client_id, account_id, redirect_uri, challenge, resource, scopes, expires_at)
                     VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8)",
                    params![auth::hash_secret(&code), a.client_id, account_id, a.redirect_uri, a.challenge, a.resource, chosen.join(" "), now_s() + CODE_TTL_S],
                )
            };
            if let Err(e) = stored {
                return error_page(&format!("the sandbox could not store the authorization: {e}"));
            }
            let mut q = vec![("code", code), ("iss", app.origin())];
            state_pair(&mut q);
            let q: Vec<(&str, &str)> = q.iter().map(|(k, v)| (*k, v.as_str())).collect();
            redirect(&with_query(&a.redirect_uri, &q))
        }
        _ => consent(&a, Some("Choose Allow or Deny.")),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn queries_are_appended() {
        assert_eq!(with_query("http://127.0.0.1:1/cb", &[("code", "a b"), ("state", "x")]), "http://127.0.0.1:1/cb?code=a+b&state=x");
        assert_eq!(with_query("https://a/cb?k=1", &[("code", "c")]), "https://a/cb?k=1&code=c");
        assert_eq!(origin_of("http://[::1]:5000/cb?x"), "http://[::1]:5000");
    }
}
