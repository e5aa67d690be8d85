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
pub mod media_files;
pub mod oauth;
pub mod routes;
pub mod seed;
pub mod state;
#[cfg(feature = "testing")]
pub mod testing;
pub mod time;

pub use config::{Config, RateLimit, RenderTimes};
pub use state::AppState;

use axum::Router;
use std::net::SocketAddr;

/// The whole service: `/api/v1/...` plus the storage-like routes for files and upload PUTs.
pub fn app(state: AppState) -> Router {
    routes::router(state)
}

/// A sandbox serving on a loopback port, stopped when dropped.
pub struct RunningSandbox {
    pub addr: SocketAddr,
    pub state: AppState,
    shutdown: Option<tokio::sync::oneshot::Sender<()>>,
    task: Option<tokio::task::JoinHandle<()>>,
}

impl RunningSandbox {
    /// `http://127.0.0.1:PORT/api/v1`.
    pub fn base_url(&self) -> String {
        format!("http://{}{}", self.addr, api_types::API_PREFIX)
    }

    /// `http://127.0.0.1:PORT`.
    pub fn origin(&self) -> String {
        format!("http://{}", self.addr)
    }

    /// Stops serving and waits for in-flight requests.
    pub async fn stop(mut self) {
        if let Some(tx) = self.shutdown.take() {
            let _ = tx.send(());
        }
        if let Some(task) = self.task.take() {
            let _ = task.await;
        }
    }
}

impl Drop for RunningSandbox {
    fn drop(&mut self) {
        if let Some(tx) = self.shutdown.take() {
            let _ = tx.send(());
        }
    }
}

/// Binds `addr` (use `127.0.0.1:0` for a free port) and serves `state` in a background task.
pub async fn spawn(state: AppState, addr: &str) -> std::io::Result<RunningSandbox> {
    let listener = tokio::net::TcpListener::bind(addr).await?;
    let addr = listener.local_addr()?;
    state.set_origin(format!("http://{addr}"));
    let (tx, rx) = tokio::sync::oneshot::channel::<()>();
    let router = app(state.clone());
    let task = tokio::spawn(async move {
        // The client's address reaches the handlers (the OAuth endpoints are rate-limited by it).
        let _ = axum::serve(listener, router.into_make_service_with_connect_info::<SocketAddr>())
            .with_graceful_shutdown(async move {
                let _ = rx.await;
            })
            .await;
    });
    Ok(RunningSandbox { addr, state, shutdown: Some(tx), task: Some(task) })
}
