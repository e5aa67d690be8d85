//! The sandbox put together, at the top of its layers: every module's tables (`SCHEMA`), the opened
//! state, the router and the server on a loopback port. No module imports this one but the test helpers
//! (`testing`).
use crate::db::{Db, Schema};
use crate::{auth, config::Config, oauth, routes, seed, state::AppState};
use axum::Router;
use std::net::SocketAddr;
use std::path::Path;

/// Every module's tables, in dependency order, and the columns added since they first shipped.
pub const SCHEMA: Schema = Schema {
    tables: &[
        auth::SCHEMA,
        routes::connected_accounts::SCHEMA,
        routes::inspiration::SCHEMA,
        routes::media::SCHEMA,
        routes::studio::SCHEMA,
        routes::spaces::SCHEMA,
        routes::stages::SCHEMA,
        routes::tags::SCHEMA,
        routes::projects::SCHEMA,
        routes::cards::SCHEMA,
        routes::brand_kits::SCHEMA,
        routes::knowledge::SCHEMA,
        seed::SCHEMA,
        oauth::SCHEMA,
        routes::cards::RETIRED_SCHEMA,
    ],
    added_columns: &[
        ("knowledge_items", "tags", "TEXT NOT NULL DEFAULT '[]'"),
        ("brand_kits", "brand_colors", "TEXT NOT NULL DEFAULT '[]'"),
        ("brand_kits", "typography", "TEXT"),
        ("brand_kits", "logos", "TEXT NOT NULL DEFAULT '[]'"),
        ("oauth_clients", "created_s", "INTEGER NOT NULL DEFAULT 0"),
        ("oauth_clients", "used_s", "INTEGER"),
        ("oauth_clients", "auth_method", "TEXT NOT NULL DEFAULT 'none'"),
        ("oauth_clients", "secret_hash", "TEXT"),
        ("oauth_clients", "resource", "TEXT"),
    ],
};

impl AppState {
    /// Opens (or creates) the SQLite file and brings it to [`SCHEMA`].
    pub fn open(path: &Path, config: Config) -> rusqlite::Result<Self> {
        Ok(Self::new(Db::open(path, &SCHEMA)?, config))
    }
}

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
