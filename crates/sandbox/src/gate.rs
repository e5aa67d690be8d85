//! Who is calling, and may they: the `Caller` extractor (an API key through `auth`, or an app's delegated
//! token through `oauth`) and the scope gate in front of every `/api/v1` route. Above both `auth` and
//! `oauth`, below the routes.
//!
//! The gate checks a route's scopes after routing and before the body is read, so a key without the scope
//! gets 403 naming it whatever the body holds, and whatever the method: `HEAD` is gated as `GET`, `OPTIONS`
//! and the like need every scope of the path ([`required_for`]). Scopes that depend on the body (a card
//! write with `posts` or `scheduledAt`, a project linked to a card) are checked by the handlers on top.
use crate::auth::{self, Caller, KEY_PREFIX};
use crate::error::{ApiError, ApiResult};
use crate::oauth;
use crate::state::AppState;
use axum::extract::{FromRequestParts, MatchedPath, Request};
use axum::http::request::Parts;
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use std::borrow::Cow;

/// One row of a scope table: `(method, path under /api/v1, scopes all required)`.
pub type ScopeRow = (&'static str, &'static str, &'static [&'static str]);

impl FromRequestParts<AppState> for Caller {
    type Rejection = ApiError;

    async fn from_request_parts(parts: &mut Parts, state: &AppState) -> Result<Self, Self::Rejection> {
        // The scope gate authenticates first and leaves the caller here, so the request is counted once
        // against the rate limit. Taken, not copied: the handler is the one extractor of it after the gate.
        if let Some(caller) = parts.extensions.remove::<Caller>() {
            return Ok(caller);
        }
        let header = parts
            .headers
            .get(axum::http::header::AUTHORIZATION)
            .and_then(|v| v.to_str().ok())
            .ok_or(ApiError::Unauthorized)?;
        if let Some(delegated) = oauth::bearer_caller(state, header)? {
            return Ok(delegated);
        }
        let secret = header
            .strip_prefix("Bearer ")
            .or_else(|| header.strip_prefix("bearer "))
            .map(str::trim)
            .filter(|s| s.starts_with(KEY_PREFIX))
            .ok_or(ApiError::Unauthorized)?;
        // On a pooled reader, so a request never waits for a write; read on every request, so a key revoked
        // or changed by any connection or process is seen by the very next one.
        let caller = auth::caller_for_secret(&*state.db().reader()?, secret)?.ok_or(ApiError::Unauthorized)?;
        state.take_rate_token(&caller.key_id).map_err(|retry_after| ApiError::RateLimited { retry_after })?;
        Ok(caller)
    }
}

impl Caller {
    /// Checks again that the key (or the app's grant) is live: long requests call it before answering, so
    /// a key revoked while the request was in flight stops authenticating at once.
    pub fn ensure_active(&self, state: &AppState) -> ApiResult<()> {
        if let Some(grant_live) = oauth::ensure_grant_live(state, &self.key_id) {
            return grant_live;
        }
        if auth::key_is_live(&*state.db().reader()?, &self.key_id)? {
            Ok(())
        } else {
            Err(ApiError::Unauthorized)
        }
    }
}

/// Whether two route paths are the same route: `/cards/{id}` and `/cards/{cardId}` are.
pub fn same_path(a: &str, b: &str) -> bool {
    let param = |s: &str| s.starts_with('{') && s.ends_with('}');
    let (mut a, mut b) = (a.split('/'), b.split('/'));
    loop {
        match (a.next(), b.next()) {
            (None, None) => return true,
            (Some(x), Some(y)) if x == y || (param(x) && param(y)) => {}
            _ => return false,
        }
    }
}

/// The scopes `(method, path)` needs in `table`; none when it is not there.
pub fn required(table: &'static [ScopeRow], method: &str, path: &str) -> &'static [&'static str] {
    table.iter().find(|(m, p, _)| *m == method && same_path(p, path)).map(|(_, _, s)| *s).unwrap_or(&[])
}

/// The scopes a request needs, whatever its method: a method of the table as written; `HEAD` as `GET` (axum
/// answers it with the GET handler, so it must be gated like GET: a key without `editor:read` gets 403, not
/// the headers and `Content-Length` of `/projects`); any other method (`OPTIONS`, `TRACE`, …) every scope
/// that any method of the path needs, so a key learns nothing about a path it could not use.
pub fn required_for(table: &'static [ScopeRow], method: &str, path: &str) -> Cow<'static, [&'static str]> {
    match method {
        "GET" | "POST" | "PATCH" | "PUT" | "DELETE" => Cow::Borrowed(required(table, method, path)),
        "HEAD" => Cow::Borrowed(required(table, "GET", path)),
        _ => {
            let mut all: Vec<&'static str> = Vec::new();
            for (_, _, scopes) in table.iter().filter(|(_, p, _)| same_path(p, path)) {
                for s in *scopes {
                    if !all.contains(s) {
                        all.push(s);
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

/// The gate over the routes of `table`: authenticate, check the route's scopes, keep the caller for the
/// handler.
pub async fn check(state: AppState, table: &'static [ScopeRow], req: Request, next: Next) -> Response {
    let path = req
        .extensions()
        .get::<MatchedPath>()
        .map(|m| m.as_str().strip_prefix(api_types::API_PREFIX).unwrap_or(m.as_str()).to_string());
    let Some(path) = path else { return next.run(req).await };
    let method = req.method().as_str();
    let needed = required_for(table, method, &path);
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn paths_are_the_same_route_whatever_their_parameters_are_named() {
        assert!(same_path("/cards/{id}", "/cards/{cardId}"));
        assert!(same_path("/cards", "/cards"));
        assert!(!same_path("/cards/{id}", "/cards"));
        assert!(!same_path("/cards/{id}/publish", "/cards/{id}"));
        assert!(!same_path("/cards/{id}", "/spaces/{id}"));
    }
}
