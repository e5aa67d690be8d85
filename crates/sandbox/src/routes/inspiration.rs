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

/// The inspiration figures of a tracked post the caller can see, for a card asset attached by
/// `contentId`; `None` when the caller cannot see it (the card write answers 404).
pub fn content_for_card(
    _conn: &rusqlite::Connection,
    _account_id: &str,
    _content_id: &str,
) -> crate::error::ApiResult<Option<api_types::CardAssetInspiration>> {
    Ok(None)
}
