//! TODO(helper): this resource is being written.
use crate::state::AppState;
use axum::Router;

pub const SCHEMA: &str = "";

/// `(method, path)` of every route this module serves under `/api/v1` (kept in step with
/// `docs/openapi.yaml` by a test).
pub const ROUTES: &[(&str, &str)] = &[];

pub fn router() -> Router<AppState> {
    Router::new()
}

/// This resource's part of the demo seed.
pub fn seed_demo(_conn: &rusqlite::Connection, _account_id: &str, _opts: &crate::seed::DemoOptions) -> rusqlite::Result<()> {
    Ok(())
}

/// `POST /archive` for `brand_kit` and `brand_kit_section`: archives (`true`) or restores (`false`).
/// Unknown or another account's: 404.
pub fn set_archived(
    _conn: &rusqlite::Connection,
    _account_id: &str,
    _asset_type: &str,
    _id: &str,
    _archived: bool,
) -> crate::error::ApiResult<()> {
    Err(crate::error::ApiError::not_found("Brand kit section"))
}
