//! The API under `/api/v1`, declared once: [`API`] is every route with the scopes it needs and its
//! handler, and the router, the route list (`route_table`, kept equal to `docs/openapi.yaml` by a test) and
//! the gate's scope table all come from it. One module per resource holds the handlers; the queries more
//! than one of them needs are in `crate::tables`, so no route module imports another.
use crate::error::ApiError;
use crate::state::AppState;
use api_types::scopes::*;
use axum::extract::{DefaultBodyLimit, State};
use axum::http::{Method, Uri};
use axum::routing::{on, MethodFilter};
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
pub mod spaces;
pub mod stages;
pub mod studio;
pub mod tags;

/// Declares [`API`] and the router over it from one list of `METHOD "path" [scopes all required] => handler`.
macro_rules! api {
    ($($method:ident $path:literal [$($scope:expr),*] => $handler:path),+ $(,)?) => {
        /// Every route under `/api/v1`: `(method, path, scopes all required)`. A route with no scope needs
        /// a valid key only. Scopes that depend on the body (a card write with `posts` or `scheduledAt`, a
        /// project linked to a card) are checked by the handlers on top of these.
        pub const API: &[crate::gate::ScopeRow] = &[$((stringify!($method), $path, &[$($scope),*])),+];

        fn api_routes() -> Router<AppState> {
            Router::new()$(.route($path, on(MethodFilter::$method, $handler)))+
        }
    };
}

api! {
    GET "/account/balance" [] => account::balance,
    GET "/balance" [] => account::balance,
    GET "/models" [] => models::list_models,
    GET "/models/{modelId}" [] => models::get_model,
    GET "/voices" [] => models::list_voices,
    GET "/voices/{voiceId}" [] => models::get_voice,
    POST "/studio/generate" [GENERATE] => studio::reply::generate,
    GET "/studio/generate/{outputId}" [] => studio::reply::status,
    POST "/studio/reference-board" [GENERATE] => studio::reply::reference_board,
    POST "/media/uploads" [ASSETS_WRITE] => media::create_upload,
    POST "/media/uploads/{outputId}/complete" [ASSETS_WRITE] => media::complete_upload,
    POST "/media/imports" [ASSETS_WRITE] => media::imports::import,
    GET "/media" [] => library::list,
    GET "/spaces" [] => spaces::list,
    POST "/spaces" [PLANNER_WRITE] => spaces::create,
    GET "/spaces/{id}" [] => spaces::one,
    PATCH "/spaces/{id}" [PLANNER_WRITE] => spaces::update,
    DELETE "/spaces/{id}" [PLANNER_WRITE] => spaces::remove,
    GET "/stages" [] => stages::list,
    POST "/stages" [PLANNER_WRITE] => stages::create,
    PATCH "/stages/{id}" [PLANNER_WRITE] => stages::update,
    DELETE "/stages/{id}" [PLANNER_WRITE] => stages::remove,
    GET "/cards" [] => cards::read::list,
    POST "/cards" [PLANNER_WRITE] => cards::write::create,
    GET "/cards/{id}" [] => cards::read::one,
    PATCH "/cards/{id}" [PLANNER_WRITE] => cards::write::update,
    POST "/cards/{id}/publish" [PUBLISH_WRITE] => cards::publish::publish,
    GET "/tags" [] => tags::list,
    POST "/tags" [PLANNER_WRITE] => tags::create,
    PATCH "/tags/{id}" [PLANNER_WRITE] => tags::rename,
    DELETE "/tags/{id}" [PLANNER_WRITE] => tags::remove,
    POST "/archive" [FAVORITES_WRITE] => archive::archive,
    GET "/projects" [EDITOR_READ] => projects::list,
    POST "/projects" [EDITOR_WRITE] => projects::create,
    POST "/projects/import" [EDITOR_WRITE] => projects::import,
    GET "/projects/{id}" [EDITOR_READ] => projects::one,
    GET "/brand-kits" [BRANDKIT_READ] => brand_kits::list_kits,
    GET "/brand-kits/{id}" [BRANDKIT_READ] => brand_kits::read_kit,
    PATCH "/brand-kits/{id}" [BRANDKIT_WRITE] => brand_kits::patch_kit,
    GET "/brand-kits/{id}/knowledge" [BRANDKIT_READ] => knowledge::list_items,
    POST "/brand-kits/{id}/knowledge" [BRANDKIT_WRITE] => knowledge::add_item,
    GET "/brand-kits/{id}/knowledge/search" [BRANDKIT_READ] => knowledge::search,
    GET "/brand-kits/{id}/knowledge/{knowledgeId}" [BRANDKIT_READ] => knowledge::read_item,
    DELETE "/brand-kits/{id}/knowledge/{knowledgeId}" [BRANDKIT_WRITE] => knowledge::delete_item,
    GET "/accounts" [BRANDKIT_READ] => inspiration::list_accounts,
    GET "/accounts/{id}" [BRANDKIT_READ] => inspiration::account_detail,
    GET "/content" [BRANDKIT_READ] => inspiration::list_content,
    GET "/content/{contentId}" [BRANDKIT_READ] => inspiration::content_detail,
    GET "/connected-accounts" [] => connected_accounts::list,
    GET "/connected-accounts/{id}" [] => connected_accounts::one,
    GET "/oauth/grants" [] => crate::oauth::grants::list,
    DELETE "/oauth/grants/{id}" [] => crate::oauth::grants::revoke,
}

/// Every `(method, path)` served under `/api/v1` ([`API`]).
pub fn route_table() -> Vec<(&'static str, &'static str)> {
    API.iter().map(|(method, path, _)| (*method, *path)).collect()
}

pub fn router(state: AppState) -> Router {
    let max_json = state.config().max_json_bytes;
    let api = api_routes()
        // Set here, before the gate, so that the gate wraps it: a method no route serves (`OPTIONS`) is
        // gated like the others (401 without a key, 403 without the path's scopes) before its 405. The
        // outer router's own `method_not_allowed_fallback` replaces only fallbacks not set yet.
        .method_not_allowed_fallback(method_not_allowed)
        .route_layer(axum::middleware::from_fn_with_state(
            state.clone(),
            |State(state): State<AppState>, req: axum::extract::Request, next: axum::middleware::Next| {
                crate::gate::check(state, API, req, next)
            },
        ))
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
