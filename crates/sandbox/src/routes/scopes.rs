//! The scope each endpoint needs, in one place (docs/api.md "Scopes per endpoint"). A gate checks it
//! after routing and before the body is read, so a key without the scope gets 403 naming it whatever
//! the body holds. Scopes that depend on the body (a card write with `posts` or `scheduledAt`, a
//! project linked to a card) are checked by the handlers on top of this.
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
    let norm = normalise(path);
    REQUIRED
        .iter()
        .find(|(m, p, _)| *m == method && normalise(p) == norm)
        .map(|(_, _, s)| *s)
        .unwrap_or(&[])
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
    let needed = required(req.method().as_str(), &path);
    if needed.is_empty() {
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
