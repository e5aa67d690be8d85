//! The CLI's browser login (fact sheet 4.3), served by the sandbox so the whole flow is real: `cdesk login`
//! listens on `127.0.0.1:<port>` and opens `GET /cli/auth?port=&state=&label=`; this page names the
//! computer, lets the user pick the account and untick scopes (in words, `api_types::scopes::DESCRIPTIONS`),
//! and on Connect mints a key named `CLI (<label>)` with the chosen scopes and redirects the browser to
//! `http://127.0.0.1:<port>/callback?state=…&key=…` (Cancel: `…&error=cancelled`). `GET /cli/auth/done`
//! is where the CLI sends the browser afterwards.
//!
//! Not under `/api/v1` (a person, not a key, is at the page). The form carries a token bound to the
//! request (a keyed hash of port, state and label with this process's secret), so another site cannot post
//! it blind; the page may not be framed; the redirect goes only to the loopback address.
use crate::auth;
use crate::pages::{escape, frame, secret};
use crate::state::AppState;
use axum::extract::{Query, State};
use axum::http::{header, HeaderValue, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use axum::Router;
use serde::Deserialize;
use sha2::{Digest, Sha256};

pub fn router() -> Router<AppState> {
    Router::new().route("/cli/auth", get(page).post(decide)).route("/cli/auth/done", get(done))
}

#[derive(Debug, Deserialize)]
pub struct Ask {
    port: Option<String>,
    state: Option<String>,
    label: Option<String>,
}

/// What the form posts (read by hand: `scope` repeats).
struct Decision {
    port: String,
    state: String,
    label: String,
    token: String,
    action: String,
    account: Option<String>,
    /// The ticked `scope` fields.
    scopes: Vec<String>,
}

fn token(port: u16, state: &str, label: &str) -> String {
    let mut h = Sha256::new();
    h.update(secret());
    h.update(format!("{port}\n{state}\n{label}").as_bytes());
    hex::encode(h.finalize())
}

fn check(port: Option<&str>, state: Option<&str>, label: Option<&str>) -> Result<(u16, String, String), String> {
    let port: u16 = port
        .and_then(|p| p.parse().ok())
        .filter(|p| *p >= 1024)
        .ok_or("`port` must be the CLI's listening port (1024 to 65535)")?;
    let state = state
        .filter(|s| (16..=128).contains(&s.len()) && s.chars().all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_'))
        .ok_or("`state` must be the CLI's random value (16 to 128 letters, digits, - or _)")?;
    let label = label.unwrap_or("this computer").trim();
    if label.chars().count() > 60 || label.chars().any(char::is_control) {
        return Err("`label` must be a short name of the computer (at most 60 characters)".into());
    }
    Ok((port, state.to_string(), label.to_string()))
}

/// HTML with the headers a consent page needs: no framing, no scripts, forms only to here and the CLI.
fn html(status: StatusCode, body: String) -> Response {
    let mut r = (status, body).into_response();
    let h = r.headers_mut();
    h.insert(header::CONTENT_TYPE, HeaderValue::from_static("text/html; charset=utf-8"));
    h.insert(
        header::CONTENT_SECURITY_POLICY,
        HeaderValue::from_static("default-src 'none'; style-src 'unsafe-inline'; form-action 'self' http://127.0.0.1:*; frame-ancestors 'none'; base-uri 'none'"),
    );
    h.insert(header::X_FRAME_OPTIONS, HeaderValue::from_static("DENY"));
    h.insert(header::X_CONTENT_TYPE_OPTIONS, HeaderValue::from_static("nosniff"));
    h.insert(header::CACHE_CONTROL, HeaderValue::from_static("no-store"));
    h.insert(header::REFERRER_POLICY, HeaderValue::from_static("no-referrer"));
    r
}

fn problem(message: &str) -> Response {
    html(StatusCode::BAD_REQUEST, frame("Cannot connect", &format!("<h1>Cannot connect the CLI</h1><p class=\"error\">{}</p><p>Run <code>cdesk login</code> again.</p>", escape(message))))
}

fn consent(state: &AppState, port: u16, st: &str, label: &str, error: Option<&str>) -> Response {
    let accounts: Vec<(String, String)> = {
        let conn = state.db().lock();
        let mut stmt = match conn.prepare("SELECT id, name FROM accounts ORDER BY created_at, rowid") {
            Ok(s) => s,
            Err(e) => return problem(&format!("the sandbox could not read its accounts: {e}")),
        };
        let rows = stmt.query_map([], |r| Ok((r.get(0)?, r.get(1)?)));
        match rows.and_then(|r| r.collect::<Result<Vec<_>, _>>()) {
            Ok(v) => v,
            Err(e) => return problem(&format!("the sandbox could not read its accounts: {e}")),
        }
    };
    if accounts.is_empty() {
        return problem("this sandbox has no account yet: start it with --seed demo");
    }
    let options: String = accounts
        .iter()
        .enumerate()
        .map(|(i, (id, name))| format!("<label><input type=\"radio\" name=\"account\" value=\"{}\"{}> {}</label>", escape(id), if i == 0 { " checked" } else { "" }, escape(name)))
        .collect();
    let scopes: String = api_types::scopes::DESCRIPTIONS
        .iter()
        .map(|(s, words)| format!("<label><input type=\"checkbox\" name=\"scope\" value=\"{s}\" checked> {} <code>{s}</code></label>", escape(words)))
        .collect();
    let error = error.map(|e| format!("<p class=\"error\" role=\"alert\">{}</p>", escape(e))).unwrap_or_default();
    let inner = format!(
        "<h1>Connect cdesk on {label}?</h1>\
<p>The command-line client on <strong>{label}</strong> asks for a key to this sandbox. It will be named <code>CLI ({label})</code>; you can revoke it at any time.</p>{error}\
<form method=\"post\" action=\"/cli/auth\">\
<input type=\"hidden\" name=\"port\" value=\"{port}\"><input type=\"hidden\" name=\"state\" value=\"{st}\">\
<input type=\"hidden\" name=\"label\" value=\"{label}\"><input type=\"hidden\" name=\"token\" value=\"{token}\">\
<fieldset><legend>Sign in as</legend>{options}</fieldset>\
<fieldset><legend>What it may do</legend>{scopes}</fieldset>\
<div class=\"buttons\"><button class=\"primary\" name=\"action\" value=\"connect\">Connect</button><button name=\"action\" value=\"cancel\">Cancel</button></div>\
</form>",
        label = escape(label),
        st = escape(st),
        token = token(port, st, label),
    );
    html(StatusCode::OK, frame("Connect the CLI", &inner))
}

async fn page(State(state): State<AppState>, Query(ask): Query<Ask>) -> Response {
    match check(ask.port.as_deref(), ask.state.as_deref(), ask.label.as_deref()) {
        Ok((port, st, label)) => consent(&state, port, &st, &label, None),
        Err(e) => problem(&e),
    }
}

fn to_cli(port: u16, query: &str) -> Response {
    let location = format!("http://127.0.0.1:{port}/callback?{query}");
    let mut r = StatusCode::FOUND.into_response();
    if let Ok(v) = HeaderValue::from_str(&location) {
        r.headers_mut().insert(header::LOCATION, v);
    }
    r.headers_mut().insert(header::CACHE_CONTROL, HeaderValue::from_static("no-store"));
    r.headers_mut().insert(header::REFERRER_POLICY, HeaderValue::from_static("no-referrer"));
    r
}

async fn decide(State(state): State<AppState>, body: String) -> Response {
    // `scope` repeats, so the pairs are read by hand.
    let pairs: Vec<(String, String)> = serde_urlencoded::from_str(&body).unwrap_or_default();
    let field = |name: &str| pairs.iter().find(|(k, _)| k == name).map(|(_, v)| v.clone());
    let d = Decision {
        port: field("port").unwrap_or_default(),
        state: field("state").unwrap_or_default(),
        label: field("label").unwrap_or_default(),
        token: field("token").unwrap_or_default(),
        action: field("action").unwrap_or_default(),
        account: field("account"),
        scopes: pairs.iter().filter(|(k, _)| k == "scope").map(|(_, v)| v.clone()).collect(),
    };
    let (port, st, label) = match check(Some(&d.port), Some(&d.state), Some(&d.label)) {
        Ok(v) => v,
        Err(e) => return problem(&e),
    };
    if d.token != token(port, &st, &label) {
        return problem("this form did not come from this page (its token does not match)");
    }
    let query = |k: &str, v: &str| format!("state={}&{k}={}", urlencode(&st), urlencode(v));
    match d.action.as_str() {
        "cancel" => to_cli(port, &query("error", "cancelled")),
        "connect" => {
            let chosen: Vec<&str> = api_types::scopes::ALL.iter().copied().filter(|s| d.scopes.iter().any(|c| c == s)).collect();
            if chosen.is_empty() {
                return consent(&state, port, &st, &label, Some("Tick at least one thing the CLI may do, or Cancel."));
            }
            let conn = state.db().lock();
            let account = match d.account.as_deref() {
                Some(a) => {
                    let known: bool = conn.query_row("SELECT 1 FROM accounts WHERE id = ?1", [a], |_| Ok(true)).unwrap_or(false);
                    if !known {
                        drop(conn);
                        return consent(&state, port, &st, &label, Some("Pick one of the accounts listed."));
                    }
                    a.to_string()
                }
                None => match auth::first_account(&conn) {
                    Ok(Some(a)) => a,
                    _ => return problem("this sandbox has no account yet"),
                },
            };
            match auth::create_key(&conn, &account, &format!("CLI ({label})"), &chosen) {
                Ok((_, secret)) => to_cli(port, &query("key", &secret)),
                Err(e) => problem(&format!("the key could not be made: {e}")),
            }
        }
        _ => problem("choose Connect or Cancel"),
    }
}

fn urlencode(s: &str) -> String {
    serde_urlencoded::to_string([("v", s)]).map(|e| e[2..].to_string()).unwrap_or_default()
}

#[derive(Debug, Deserialize)]
pub struct Done {
    status: Option<String>,
}

async fn done(Query(d): Query<Done>) -> Response {
    let (title, text) = match d.status.as_deref() {
        Some("connected") => ("Connected", "The CLI is connected. You can close this tab and go back to the terminal."),
        Some("cancelled") => ("Cancelled", "Nothing was connected. You can close this tab."),
        _ => ("Done", "You can close this tab."),
    };
    html(StatusCode::OK, frame(title, &format!("<h1>{title}</h1><p>{text}</p>")))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn asks_are_checked() {
        assert!(check(Some("52000"), Some("0123456789abcdef0123456789abcdef"), Some("laptop")).is_ok());
        for (p, s) in [("80", "0123456789abcdef"), ("x", "0123456789abcdef"), ("52000", "short"), ("52000", "has spaces in it!!")] {
            assert!(check(Some(p), Some(s), None).is_err(), "{p} {s}");
        }
        assert!(check(Some("52000"), Some("0123456789abcdef"), Some("a\nb")).is_err());
    }

    #[test]
    fn the_token_binds_port_state_and_label() {
        let t = token(52000, "s1s1s1s1s1s1s1s1", "laptop");
        assert_eq!(t, token(52000, "s1s1s1s1s1s1s1s1", "laptop"));
        assert_ne!(t, token(52001, "s1s1s1s1s1s1s1s1", "laptop"));
        assert_ne!(t, token(52000, "s1s1s1s1s1s1s1s2", "laptop"));
        assert_ne!(t, token(52000, "s1s1s1s1s1s1s1s1", "desk"));
    }

}
