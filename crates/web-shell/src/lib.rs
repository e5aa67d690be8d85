//! Content Desk in a browser: the built UI and the app's commands over HTTP, on loopback only.
//!
//! `POST /ipc/<command>` runs `contentdesk_core::ipc::dispatch` with the JSON body as the arguments; it
//! needs the per-run token in `X-ContentDesk-Token` (a page of another origin cannot read it, and a
//! local process that cannot see this process's output cannot guess it). Everything else serves the
//! built UI, with `index.html` for unknown paths. `GET /events?token=…` streams the studio's events
//! (render queue changes, the balance after a charge) as server-sent events: the browser twin of the
//! desktop window's Tauri events (an `EventSource` cannot send headers, so the token comes in the query).
//!
//! It answers only requests addressed to one of its own loopback names (`Host: 127.0.0.1:<port>`,
//! `localhost:<port>`, `[::1]:<port>`): a page of another site whose name is made to resolve to 127.0.0.1
//! (DNS rebinding) sends its own name and gets 421. Bodies may be as large as the largest upload the UI
//! sends (`MAX_BODY_BYTES`); a larger one, like every refusal here, is the core's `IpcError` as JSON.
//! For development and Playwright; never shipped.
use axum::body::Bytes;
use axum::extract::rejection::BytesRejection;
use axum::extract::{DefaultBodyLimit, Path, Query, Request, State};
use axum::http::{header, HeaderMap, HeaderValue, StatusCode};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use axum::response::sse::{Event, KeepAlive, Sse};
use axum::routing::{get, post};
use axum::{Json, Router};
use contentdesk_core::{ipc, AppState, IpcCode, IpcError};
use std::path::PathBuf;
use std::sync::Arc;
use tower_http::services::{ServeDir, ServeFile};
use tower_http::set_header::SetResponseHeaderLayer;

/// The same policy as the desktop window (src-tauri/tauri.conf.json), with `connect-src 'self'` for the
/// `/ipc` calls. Sandbox media come from the loopback sandbox origin.
pub const CSP: &str = "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; \
img-src 'self' data: blob: http://127.0.0.1:* https:; media-src 'self' blob: http://127.0.0.1:* https:; connect-src 'self'; \
object-src 'none'; base-uri 'none'; frame-ancestors 'none'; form-action 'none'";

pub const TOKEN_HEADER: &str = "x-contentdesk-token";

/// The largest request body: a `media_upload` of the largest file the UI uploads
/// (`contentdesk_core::attach::MAX_UPLOAD_BYTES`, 50 MB, the limit `ui/src/lib/planner/editor/cardRules.ts`
/// checks before reading a file), base64 in JSON (4 characters per 3 bytes), plus 1 MiB for the rest of
/// the arguments. axum's default of 2 MiB refused any file over about 1.5 MB with a plain-text 413.
pub const MAX_BODY_BYTES: usize = contentdesk_core::attach::MAX_UPLOAD_BYTES.div_ceil(3) * 4 + 1024 * 1024;

#[derive(Clone)]
struct Shell {
    core: AppState,
    token: Arc<str>,
}

/// The whole shell, for a listener bound on loopback `port` (the Host names it answers carry that port).
pub fn router(core: AppState, token: &str, ui_dist: PathBuf, port: u16) -> Router {
    let index = ui_dist.join("index.html");
    let files = ServeDir::new(&ui_dist).not_found_service(ServeFile::new(index));
    let names: Arc<[String]> = allowed_hosts(port).into();
    Router::new()
        .route("/ipc/{command}", post(ipc_call))
        .route("/events", get(events))
        .with_state(Shell { core, token: token.into() })
        .fallback_service(files)
        .layer(DefaultBodyLimit::max(MAX_BODY_BYTES))
        .layer(axum::middleware::from_fn_with_state(names, check_host))
        .layer(SetResponseHeaderLayer::overriding(header::CONTENT_SECURITY_POLICY, HeaderValue::from_static(CSP)))
        .layer(SetResponseHeaderLayer::overriding(header::X_CONTENT_TYPE_OPTIONS, HeaderValue::from_static("nosniff")))
        .layer(SetResponseHeaderLayer::overriding(header::REFERRER_POLICY, HeaderValue::from_static("no-referrer")))
        .layer(axum::middleware::from_fn(cache_control))
}

/// What the browser may keep: the built UI's `assets/` files (their names carry a hash of their content,
/// so a new build has new names) for a year, unchanged, so that a reload neither fetches nor compiles its
/// scripts again (Chromium keeps V8's compiled code only for cached scripts: the board's cold load was
/// 30-50 ms of fetching and compiling `index-*.js` on every reload); everything else (the page, whose
/// first visit carries the run's token, the commands, the events, an unknown asset answered with the
/// page) never.
pub const ASSET_CACHE: &str = "public, max-age=31536000, immutable";

async fn cache_control(req: Request, next: Next) -> Response {
    let asset = req.method() == axum::http::Method::GET && req.uri().path().starts_with("/assets/");
    let mut res = next.run(req).await;
    // An unknown asset gets the page with 404 (ServeDir's not-found service): never kept.
    let value = if asset && res.status() == StatusCode::OK { ASSET_CACHE } else { "no-store" };
    res.headers_mut().insert(header::CACHE_CONTROL, HeaderValue::from_static(value));
    res
}

/// The `Host` values web-shell answers to on `port` (lower case): its loopback names, with the port (and
/// without it on port 80, where browsers leave it out).
pub fn allowed_hosts(port: u16) -> Vec<String> {
    let mut names = Vec::new();
    for host in ["127.0.0.1", "localhost", "[::1]"] {
        names.push(format!("{host}:{port}"));
        if port == 80 {
            names.push(host.to_string());
        }
    }
    names
}

/// Refuses (421, an `IpcError`) a request whose `Host` (or HTTP/2 authority) is not one of `names`.
async fn check_host(State(names): State<Arc<[String]>>, req: Request, next: Next) -> Response {
    let given = req
        .headers()
        .get(header::HOST)
        .map(|h| h.to_str().unwrap_or("(not text)").to_string())
        .or_else(|| req.uri().authority().map(|a| a.as_str().to_string()))
        .unwrap_or_default();
    if names.iter().any(|n| n.eq_ignore_ascii_case(given.trim())) {
        return next.run(req).await;
    }
    let shown: String = given.chars().take(100).collect();
    let e = IpcError::new(
        IpcCode::Unauthorized,
        format!(
            "web-shell answers only at its loopback address (http://{}/); this request was for “{shown}”.",
            names.first().map(String::as_str).unwrap_or("127.0.0.1")
        ),
    );
    (StatusCode::MISDIRECTED_REQUEST, Json(e)).into_response()
}

fn status_of(e: &IpcError) -> StatusCode {
    match e.code {
        IpcCode::Validation => StatusCode::BAD_REQUEST,
        IpcCode::Unauthorized | IpcCode::NoKey => StatusCode::UNAUTHORIZED,
        IpcCode::MissingScope => StatusCode::FORBIDDEN,
        IpcCode::NotFound | IpcCode::NoProfile => StatusCode::NOT_FOUND,
        IpcCode::Conflict | IpcCode::NotesConflict => StatusCode::CONFLICT,
        IpcCode::RateLimited => StatusCode::TOO_MANY_REQUESTS,
        IpcCode::InsufficientCredits | IpcCode::LimitReached => StatusCode::PAYMENT_REQUIRED,
        // Queued: nothing answered upstream either; the change is kept (drafts), still an error for the caller.
        IpcCode::Network | IpcCode::Queued | IpcCode::Server => StatusCode::BAD_GATEWAY,
        IpcCode::KeyringUnavailable => StatusCode::SERVICE_UNAVAILABLE,
        IpcCode::Internal => StatusCode::INTERNAL_SERVER_ERROR,
    }
}

async fn ipc_call(
    State(shell): State<Shell>,
    Path(command): Path<String>,
    headers: HeaderMap,
    body: Result<Bytes, BytesRejection>,
) -> Response {
    let given = headers.get(TOKEN_HEADER).and_then(|v| v.to_str().ok()).unwrap_or("");
    if !constant_time_eq(given.as_bytes(), shell.token.as_bytes()) {
        let e = IpcError::new(IpcCode::Unauthorized, "This page is not from this web-shell run: open the URL it printed.");
        return (StatusCode::UNAUTHORIZED, Json(e)).into_response();
    }
    let body = match body {
        Ok(b) => b,
        Err(rejection) if rejection.status() == StatusCode::PAYLOAD_TOO_LARGE => {
            let e = IpcError::validation(
                "",
                format!(
                    "The request is larger than web-shell takes ({} MB, enough for a {} MB file): send a smaller file.",
                    MAX_BODY_BYTES / (1024 * 1024),
                    contentdesk_core::attach::MAX_UPLOAD_BYTES / (1024 * 1024)
                ),
            );
            return (StatusCode::PAYLOAD_TOO_LARGE, Json(e)).into_response();
        }
        Err(rejection) => {
            let e = IpcError::validation("", format!("The request could not be read: {}", rejection.body_text()));
            return (rejection.status(), Json(e)).into_response();
        }
    };
    let args = if body.iter().all(u8::is_ascii_whitespace) {
        serde_json::Value::Null
    } else {
        match serde_json::from_slice(&body) {
            Ok(v) => v,
            Err(e) => {
                let e = IpcError::validation("", format!("The arguments are not JSON: {e}"));
                return (StatusCode::BAD_REQUEST, Json(e)).into_response();
            }
        }
    };
    match ipc::dispatch(&shell.core, &command, args).await {
        Ok(v) => Json(v).into_response(),
        Err(e) => {
            tracing::info!(command, code = ?e.code, "command failed");
            (status_of(&e), Json(e)).into_response()
        }
    }
}

#[derive(serde::Deserialize)]
struct EventsQuery {
    #[serde(default)]
    token: String,
}

/// The studio's events as server-sent events, one JSON `StudioEvent` per message. A client too slow to
/// keep up skips what it missed (it reloads the queue with `studio_jobs` on reconnect anyway).
async fn events(State(shell): State<Shell>, Query(q): Query<EventsQuery>) -> Response {
    if !constant_time_eq(q.token.as_bytes(), shell.token.as_bytes()) {
        let e = IpcError::new(IpcCode::Unauthorized, "This page is not from this web-shell run: open the URL it printed.");
        return (StatusCode::UNAUTHORIZED, Json(e)).into_response();
    }
    let rx = shell.core.studio().subscribe();
    let stream = futures_util::stream::unfold(rx, |mut rx| async move {
        loop {
            match rx.recv().await {
                Ok(ev) => {
                    let data = serde_json::to_string(&ev).unwrap_or_default();
                    return Some((Ok::<_, std::convert::Infallible>(Event::default().data(data)), rx));
                }
                Err(tokio::sync::broadcast::error::RecvError::Lagged(_)) => continue,
                Err(tokio::sync::broadcast::error::RecvError::Closed) => return None,
            }
        }
    });
    Sse::new(stream).keep_alive(KeepAlive::default()).into_response()
}

fn constant_time_eq(a: &[u8], b: &[u8]) -> bool {
    a.len() == b.len() && a.iter().zip(b).fold(0u8, |acc, (x, y)| acc | (x ^ y)) == 0
}

/// A fresh random token for one run.
pub fn new_token() -> String {
    format!("{}{}", uuid::Uuid::new_v4().simple(), uuid::Uuid::new_v4().simple())
}
