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
