//! The scope each endpoint needs, in one place (docs/api.md "Scopes per endpoint"). A gate checks it
//! after routing and before the body is read, so a key without the scope gets 403 naming it whatever
//! the body holds, and whatever the method: `HEAD` is gated as `GET`, `OPTIONS` and the like need every
//! scope of the path (`required_for`). Scopes that depend on the body (a card write with `posts` or
//! `scheduledAt`, a project linked to a card) are checked by the handlers on top of this.
use crate::auth::Caller;
use crate::error::ApiError;
use crate::state::AppState;
use api_types::scopes::*;
use axum::extract::{FromRequestParts, MatchedPath, Request, State};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};

/// `(method, path under /api/v1, scopes all required)`. Endpoints not listed need a valid key only.
pub const REQUIRED: &[(&str, &str, &[&str])] = &[
    ("POST", "/studio/generate", &[GENERATE]),
    ("POST", "/studio/reference-board", &[GENERATE]),
    ("POST", "/media/uploads", &[ASSETS_WRITE]),
    ("POST", "/media/uploads/{outputId}/complete", &[ASSETS_WRITE]),
    ("POST", "/media/imports", &[ASSETS_WRITE]),
    ("POST", "/spaces", &[PLANNER_WRITE]),
    ("PATCH", "/spaces/{id}", &[PLANNER_WRITE]),
    ("DELETE", "/spaces/{id}", &[PLANNER_WRITE]),
    ("POST", "/stages", &[PLANNER_WRITE]),
    ("PATCH", "/stages/{id}", &[PLANNER_WRITE]),
    ("DELETE", "/stages/{id}", &[PLANNER_WRITE]),
    ("POST", "/cards", &[PLANNER_WRITE]),
    ("PATCH", "/cards/{id}", &[PLANNER_WRITE]),
    ("POST", "/cards/{id}/publish", &[PUBLISH_WRITE]),
    ("POST", "/tags", &[PLANNER_WRITE]),
    ("PATCH", "/tags/{id}", &[PLANNER_WRITE]),
    ("DELETE", "/tags/{id}", &[PLANNER_WRITE]),
    ("POST", "/archive", &[FAVORITES_WRITE]),
    ("GET", "/projects", &[EDITOR_READ]),
    ("GET", "/projects/{id}", &[EDITOR_READ]),
    ("POST", "/projects", &[EDITOR_WRITE]),
    ("POST", "/projects/import", &[EDITOR_WRITE]),
    ("GET", "/brand-kits", &[BRANDKIT_READ]),
    ("GET", "/brand-kits/{id}", &[BRANDKIT_READ]),
    ("PATCH", "/brand-kits/{id}", &[BRANDKIT_WRITE]),
    ("GET", "/brand-kits/{id}/knowledge", &[BRANDKIT_READ]),
    ("GET", "/brand-kits/{id}/knowledge/search", &[BRANDKIT_READ]),
    ("GET", "/brand-kits/{id}/knowledge/{knowledgeId}", &[BRANDKIT_READ]),
    ("POST", "/brand-kits/{id}/knowledge", &[BRANDKIT_WRITE]),
    ("DELETE", "/brand-kits/{id}/knowledge/{knowledgeId}", &[BRANDKIT_WRITE]),
    ("GET", "/accounts", &[BRANDKIT_READ]),
    ("GET", "/accounts/{id}", &[BRANDKIT_READ]),
    ("GET", "/content", &[BRANDKIT_READ]),
    ("GET", "/content/{contentId}", &[BRANDKIT_READ]),
];

/// The scopes `(method, path)` needs; path params are compared by position, not by name.
pub fn required(method: &str, path: &str) -> &'static [&'static str] {
    // The table normalised once: the gate asks on every request, and normalising every row each time
    // was a dozen allocations per request.
    static NORMALISED: std::sync::OnceLock<Vec<(&str, String, &[&str])>> = std::sync::OnceLock::new();
    let table = NORMALISED.get_or_init(|| REQUIRED.iter().map(|(m, p, s)| (*m, normalise(p), *s)).collect());
    let norm = normalise(path);
    table.iter().find(|(m, p, _)| *m == method && *p == norm).map(|(_, _, s)| *s).unwrap_or(&[])
}

/// The scopes a request needs, whatever its method: a method of the table as written; `HEAD` as `GET` (axum
/// answers it with the GET handler, so it must be gated like GET: a key without `editor:read` gets 403, not
/// the headers and `Content-Length` of `/projects`); any other method (`OPTIONS`, `TRACE`, …) every scope
/// that any method of the path needs, so a key learns nothing about a path it could not use.
pub fn required_for(method: &str, path: &str) -> std::borrow::Cow<'static, [&'static str]> {
    use std::borrow::Cow;
    match method {
        "GET" | "POST" | "PATCH" | "PUT" | "DELETE" => Cow::Borrowed(required(method, path)),
        "HEAD" => Cow::Borrowed(required("GET", path)),
        _ => {
            let norm = normalise(path);
            let mut all: Vec<&'static str> = Vec::new();
            for (_, p, scopes) in REQUIRED {
                if normalise(p) == norm {
                    for s in *scopes {
                        if !all.contains(s) {
                            all.push(s);
                        }
                    }
                }
            }
            Cow::Owned(all)
        }
    }
}

/// Whether the gate itself authenticates a request of `method` even when its route needs no scope: every
/// method the API does not serve as such (`HEAD`, `OPTIONS`, …), so none of them answers anything (not
/// even a 405) without a good key.
fn gate_authenticates(method: &str) -> bool {
    !matches!(method, "GET" | "POST" | "PATCH" | "PUT" | "DELETE")
}

/// `/cards/{id}` and `/cards/{cardId}` are the same route.
pub fn normalise(path: &str) -> String {
    path.split('/')
        .map(|seg| if seg.starts_with('{') && seg.ends_with('}') { "{}" } else { seg })
        .collect::<Vec<_>>()
        .join("/")
}

/// The gate: authenticate, check the route's scopes, keep the caller for the handler.
pub async fn gate(State(state): State<AppState>, req: Request, next: Next) -> Response {
    let path = req
        .extensions()
        .get::<MatchedPath>()
        .map(|m| m.as_str().strip_prefix(api_types::API_PREFIX).unwrap_or(m.as_str()).to_string());
    let Some(path) = path else { return next.run(req).await };
    let method = req.method().as_str();
    let needed = required_for(method, &path);
    if needed.is_empty() && !gate_authenticates(method) {
        return next.run(req).await;
    }
    let (mut parts, body) = req.into_parts();
    let caller = match Caller::from_request_parts(&mut parts, &state).await {
        Ok(c) => c,
        Err(e) => return e.into_response(),
    };
    if let Some(missing) = needed.iter().find(|s| !caller.has(s)) {
        return ApiError::MissingScope(missing.to_string()).into_response();
    }
    parts.extensions.insert(caller);
    next.run(Request::from_parts(parts, body)).await
}
