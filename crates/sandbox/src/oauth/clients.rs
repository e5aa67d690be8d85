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
use rusqlite::{params, Connection, OptionalExtension};
use serde::Deserialize;
use serde_json::{json, Value};

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

#[derive(Debug, Deserialize)]
pub struct Registration {
    #[serde(default)]
    redirect_uris: Vec<String>,
    client_name: Option<String>,
    grant_types: Option<Vec<String>>,
    response_types: Option<Vec<String>>,
    #[allow(dead_code)]
    token_endpoint_auth_method: Option<String>,
    scope: Option<String>,
}

fn bad_metadata(description: String) -> Response {
    super::no_store(
        (StatusCode::BAD_REQUEST, Json(json!({ "error": "invalid_client_metadata", "error_description": description })))
            .into_response(),
    )
}

/// `POST /oauth/register`. Every client is public (`token_endpoint_auth_method` is always `none`: a
/// client asking for a secret method is registered as `none` and told so in the answer, as RFC 7591 3.2.1
/// allows). Unknown metadata is ignored.
pub async fn register(State(state): State<AppState>, peer: super::Peer, body: String) -> Response {
    if let Some(limited) = super::limit_address(&state, &peer) {
        return limited;
    }
    let reg: Registration = match serde_json::from_str(&body) {
        Ok(r) => r,
        Err(e) => return bad_metadata(format!("the body must be a JSON client metadata object: {e}")),
    };
    if reg.redirect_uris.is_empty() {
        return oauth_error("invalid_redirect_uri", "redirect_uris must list at least one URI");
    }
    for uri in &reg.redirect_uris {
        if let Err(why) = check_redirect_uri(uri) {
            return oauth_error("invalid_redirect_uri", why);
        }
    }
    let supported = ["authorization_code", "refresh_token", TOKEN_EXCHANGE];
    let grant_types = reg.grant_types.unwrap_or_else(|| vec!["authorization_code".into(), "refresh_token".into()]);
    if let Some(g) = grant_types.iter().find(|g| !supported.contains(&g.as_str())) {
        return bad_metadata(format!("grant type `{g}` is not supported; supported: {}", supported.join(", ")));
    }
    if let Some(r) = reg.response_types.iter().flatten().find(|r| *r != "code") {
        return bad_metadata(format!("response type `{r}` is not supported; only `code`"));
    }
    let name = reg.client_name.map(|n| n.trim().to_string()).filter(|n| !n.is_empty()).unwrap_or_else(|| "Unnamed app".into());
    if name.chars().count() > 100 || name.chars().any(char::is_control) {
        return bad_metadata("client_name must be at most 100 characters, without control characters".into());
    }
    let id = new_id();
    let issued = super::now_s();
    let stored = {
        let conn = state.db().lock();
        conn.execute(
            "INSERT INTO oauth_clients (id, name, redirect_uris, grant_types, created_at) VALUES (?1, ?2, ?3, ?4, ?5)",
            params![id, name, serde_json::to_string(&reg.redirect_uris).unwrap_or_default(), grant_types.join(" "), time::now_str()],
        )
    };
    if let Err(e) = stored {
        tracing::error!(%e, "oauth client registration");
        return oauth_error("server_error", "the sandbox could not store the client; try again");
    }
    let mut body = json!({
        "client_id": id,
        "client_id_issued_at": issued,
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

/// A registered client: its name and redirect URIs.
pub struct Client {
    pub id: String,
    pub name: String,
    pub redirect_uris: Vec<String>,
}

pub fn find(conn: &Connection, id: &str) -> rusqlite::Result<Option<Client>> {
    conn.cached_row("SELECT id, name, redirect_uris FROM oauth_clients WHERE id = ?1", [id], |r| {
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
