//! Typed async client for the Content Production Service API v1 (spec era, see docs/api.md).
//!
//! ```no_run
//! # async fn demo() -> contentdesk_api_client::Result<()> {
//! use contentdesk_api_client::{ApiKey, Client};
//! let client = Client::new("https://app.contenthero.ai/api/v1", ApiKey::new("ch_live_…"))?;
//! let balance = client.account().balance().await?;
//! # Ok(()) }
//! ```
//!
//! - One `Client` per key; it is `Clone` and clones share the connection pool.
//! - Resource handlers: `client.cards().get(id)`, `client.knowledge(kit).add(..)` …
//! - Errors are `ApiError`, one variant per thing the caller can react to.
//! - Retries follow `retry::decide`; generation calls carry an `outputId` so a retry never charges twice.
//! - The key is an `ApiKey`, printed as `<redacted>`, and never logged (tracing shows method, path and
//!   status at debug level).
pub mod browser_login;
pub mod card_edit;
pub mod error;
pub mod http;
pub mod key;
pub mod resources;
pub mod retry;
pub mod sections;
mod transfer;
pub mod wait;

pub use card_edit::CardEdit;
pub use error::{ApiError, Result};
pub use http::{api_base, Client, ClientBuilder, OnRetry, RetryNotice, DEFAULT_BASE_URL};
pub use transfer::{Downloaded, OnBytes};
pub use key::ApiKey;
pub use resources::*;
pub use retry::{Decision, NetworkKind, Outcome, RetryConfig};
pub use sections::{SectionWidth, SectionWriteExt};
pub use wait::{WaitOptions, WaitOutcome};

/// Re-exported so callers can build raw requests (`Client::send_json`) and cancel waits without adding
/// the crates themselves.
pub use reqwest::Method;
pub use tokio_util::sync::CancellationToken;

impl Client {
    pub fn account(&self) -> AccountHandler<'_> {
        AccountHandler { client: self }
    }
    pub fn models(&self) -> ModelsHandler<'_> {
        ModelsHandler { client: self }
    }
    pub fn voices(&self) -> VoicesHandler<'_> {
        VoicesHandler { client: self }
    }
    pub fn studio(&self) -> StudioHandler<'_> {
        StudioHandler { client: self }
    }
    pub fn media(&self) -> MediaHandler<'_> {
        MediaHandler { client: self }
    }
    pub fn spaces(&self) -> SpacesHandler<'_> {
        SpacesHandler { client: self }
    }
    pub fn stages(&self) -> StagesHandler<'_> {
        StagesHandler { client: self }
    }
    pub fn cards(&self) -> CardsHandler<'_> {
        CardsHandler { client: self }
    }
    pub fn tags(&self) -> TagsHandler<'_> {
        TagsHandler { client: self }
    }
    pub fn projects(&self) -> ProjectsHandler<'_> {
        ProjectsHandler { client: self }
    }
    pub fn brand_kits(&self) -> BrandKitsHandler<'_> {
        BrandKitsHandler { client: self }
    }
    /// The knowledge base of one brand kit.
    pub fn knowledge(&self, brand_kit_id: &str) -> KnowledgeHandler<'_> {
        KnowledgeHandler {
            client: self,
            kit: brand_kit_id.to_string(),
        }
    }
    pub fn inspiration(&self) -> InspirationHandler<'_> {
        InspirationHandler { client: self }
    }
    pub fn connected_accounts(&self) -> ConnectedAccountsHandler<'_> {
        ConnectedAccountsHandler { client: self }
    }
}
