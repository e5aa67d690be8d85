//! TODO(helper): this resource is being written.
use crate::state::AppState;
use axum::Router;

pub const SCHEMA: &str = "";

pub fn router() -> Router<AppState> {
    Router::new()
}
