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

/// An output a token names, checked to be the caller's and finished.
#[derive(Debug, Clone)]
pub struct ResolvedOutput {
    /// The generation (or upload/import) id.
    pub output_id: String,
    /// 1-based output number within the generation.
    pub index: u32,
    /// Where the file is served.
    pub url: String,
    pub content_type: api_types::ContentType,
}

/// Resolves an output token (`<uuid>`, `<uuid>-<N>` with N from 1, or the uuid's first 8 characters,
/// optionally `-N`) owned by `account_id`. Unknown or another account's: 404 "Output not found". Not a
/// token, or not finished: 400 naming `field`. Covers uploads and imports too.
pub fn resolve_output(
    _conn: &rusqlite::Connection,
    _account_id: &str,
    _token: &str,
    _field: &str,
) -> crate::error::ApiResult<ResolvedOutput> {
    Err(crate::error::ApiError::not_found("Output"))
}
