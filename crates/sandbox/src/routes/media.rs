//! TODO(helper): this resource is being written.
use crate::state::AppState;
use axum::Router;

pub const SCHEMA: &str = "";

pub fn router() -> Router<AppState> {
    Router::new()
}

/// Routes outside `/api/v1` that stand in for object storage: upload PUTs and stored files.
pub fn storage_router(_state: &AppState) -> Router<AppState> {
    Router::new()
}
