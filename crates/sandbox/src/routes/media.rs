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

/// Routes outside `/api/v1` that stand in for object storage: upload PUTs and stored files.
pub fn storage_router(_state: &AppState) -> Router<AppState> {
    Router::new()
}
