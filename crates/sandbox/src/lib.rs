//! A local implementation of the Content Production Service API v1: axum over one SQLite file.
//!
//! It follows the service's rules (scopes, 400/402/403/404/409/429, smart-wait and polling, idempotent
//! generation, hashed and revocable keys) so that the desktop app is useful with no account and every
//! test runs against something real. `app(state)` is the router; `spawn` binds it on loopback.

pub mod auth;
pub mod config;
pub mod db;
pub mod error;
pub mod extract;
pub mod gate;
pub mod media_files;
pub mod oauth;
pub mod pages;
pub mod routes;
pub mod seed;
pub mod service;
pub mod state;
pub mod tables;
#[cfg(feature = "testing")]
pub mod testing;
pub mod time;

pub use config::{Config, RateLimit, RenderTimes};
pub use service::{app, spawn, RunningSandbox, SCHEMA};
pub use state::AppState;
