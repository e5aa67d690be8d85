//! The router: one module per resource, each with its `SCHEMA`, its `router()` and (where it has demo
//! data) its part of the seed. Merged here in one place.
use crate::error::ApiError;
use crate::state::AppState;
use axum::extract::DefaultBodyLimit;
use axum::http::{Method, Uri};
use axum::Router;

pub mod account;
pub mod archive;
pub mod brand_kits;
pub mod cards;
pub mod cli_auth;
pub mod connected_accounts;
pub mod inspiration;
pub mod knowledge;
pub mod library;
pub mod media;
pub mod models;
pub mod projects;
pub mod scopes;
pub mod spaces;
pub mod stages;
pub mod studio;
pub mod tags;

/// Every module's tables, in dependency order.
pub const SCHEMAS: &[&str] = &[
    crate::auth::SCHEMA,
    connected_accounts::SCHEMA,
    inspiration::SCHEMA,
    media::SCHEMA,
    studio::SCHEMA,
    spaces::SCHEMA,
    stages::SCHEMA,
    tags::SCHEMA,
    projects::SCHEMA,
    cards::SCHEMA,
    brand_kits::SCHEMA,
    knowledge::SCHEMA,
    crate::seed::SCHEMA,
    crate::oauth::SCHEMA,
    cards::RETIRED_SCHEMA,
];

/// Every `(method, path)` served under `/api/v1`.
pub fn route_table() -> Vec<(&'static str, &'static str)> {
    [
        account::ROUTES,
        models::ROUTES,
        studio::ROUTES,
        media::ROUTES,
        library::ROUTES,
        spaces::ROUTES,
        stages::ROUTES,
        cards::ROUTES,
        tags::ROUTES,
        archive::ROUTES,
        projects::ROUTES,
        brand_kits::ROUTES,
        knowledge::ROUTES,
        inspiration::ROUTES,
        connected_accounts::ROUTES,
        crate::oauth::grants::ROUTES,
    ]
    .concat()
}

pub fn router(state: AppState) -> Router {
    let max_json = state.config().max_json_bytes;
    let api = Router::new()
        .merge(account::router())
        .merge(models::router())
        .merge(studio::router())
        .merge(media::router())
        .merge(library::router())
        .merge(spaces::router())
        .merge(stages::router())
        .merge(cards::router())
        .merge(tags::router())
        .merge(archive::router())
        .merge(projects::router())
        .merge(brand_kits::router())
        .merge(knowledge::router())
        .merge(inspiration::router())
        .merge(connected_accounts::router())
        .merge(crate::oauth::grants::router())
        // Set here, before the gate, so that the gate wraps it: a method no route serves (`OPTIONS`) is
        // gated like the others (401 without a key, 403 without the path's scopes) before its 405. The
        // outer router's own `method_not_allowed_fallback` replaces only fallbacks not set yet.
        .method_not_allowed_fallback(method_not_allowed)
        .route_layer(axum::middleware::from_fn_with_state(state.clone(), scopes::gate))
        .layer(DefaultBodyLimit::max(max_json));
    Router::new()
        .nest(api_types::API_PREFIX, api)
        .merge(media::storage_router(&state))
        .merge(cli_auth::router())
        .merge(crate::oauth::router())
        .fallback(not_found)
        .method_not_allowed_fallback(method_not_allowed)
        .with_state(state)
}

async fn not_found(method: Method, uri: Uri) -> ApiError {
    ApiError::NotFound(format!("No such endpoint: {method} {}", uri.path()))
}

async fn method_not_allowed(method: Method, uri: Uri) -> ApiError {
    ApiError::MethodNotAllowed(format!("{method} is not allowed on {}", uri.path()))
}
