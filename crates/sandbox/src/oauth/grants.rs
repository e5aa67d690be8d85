//! `GET /api/v1/oauth/grants` and `DELETE /api/v1/oauth/grants/{id}`: the apps an account has granted
//! delegated access to, and revoking one (its tokens stop at the very next call; answers 200 `{id}` as the sandbox's other deletes). No scope (like the
//! balance: it is the account's own business) but an API key only: a delegated token is refused, so an
//! app cannot see or revoke the account's other apps.
use super::CALLER_PREFIX;
use crate::auth::Caller;
use crate::error::{ApiError, ApiResult};
use crate::state::AppState;
use api_types::{Deleted, ErrorBody, OAuthGrant};
use axum::extract::{Path, State};
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use axum::Json;

fn key_only(caller: &Caller) -> Option<Response> {
    caller.key_id.starts_with(CALLER_PREFIX).then(|| {
        (
            StatusCode::FORBIDDEN,
            Json(ErrorBody::new(
                "Granted apps are managed with an API key, not with an app's delegated token: use the app's Settings or a key.",
            )),
        )
            .into_response()
    })
}

pub(crate) async fn list(State(state): State<AppState>, caller: Caller) -> ApiResult<Response> {
    if let Some(r) = key_only(&caller) {
        return Ok(r);
    }
    let conn = state.db().reader()?;
    let mut stmt = conn.prepare_cached(
        "SELECT g.id, COALESCE(c.name, 'Unknown app'), g.scopes, g.created_at, g.last_used_at
         FROM oauth_grants g LEFT JOIN oauth_clients c ON c.id = g.client_id
         WHERE g.account_id = ?1 AND g.revoked_at IS NULL ORDER BY g.created_at, g.rowid",
    )?;
    let rows = stmt.query_map([&caller.account_id], |r| {
        Ok(OAuthGrant {
            id: r.get(0)?,
            client_name: r.get(1)?,
            scopes: r.get::<_, String>(2)?.split_whitespace().map(String::from).collect(),
            created_at: r.get(3)?,
            last_used_at: r.get(4)?,
        })
    })?;
    let grants = rows.collect::<Result<Vec<_>, _>>()?;
    Ok(Json(grants).into_response())
}

pub(crate) async fn revoke(State(state): State<AppState>, caller: Caller, Path(id): Path<String>) -> ApiResult<Response> {
    if let Some(r) = key_only(&caller) {
        return Ok(r);
    }
    let conn = state.db().lock();
    let n = conn.execute(
        "UPDATE oauth_grants SET revoked_at = ?3 WHERE id = ?1 AND account_id = ?2 AND revoked_at IS NULL",
        rusqlite::params![id, caller.account_id, crate::time::now_str()],
    )?;
    if n == 0 {
        return Err(ApiError::not_found("Granted app"));
    }
    Ok(Json(Deleted { id }).into_response())
}
