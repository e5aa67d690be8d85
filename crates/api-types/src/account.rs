//! `GET /account/balance` (alias `/balance`).
use serde::{Deserialize, Serialize};
use ts_rs::TS;

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase")]
pub struct Balance {
    /// Credits.
    pub balance: f64,
    /// `mortal | hero | champion | legend`.
    #[serde(default)]
    pub tier: String,
    #[serde(default)]
    pub auto_topup_enabled: bool,
}

/// `GET /oauth/grants`: an app the account has granted delegated access to (OAuth 2.0, the sandbox's
/// authorization server; `docs/api.md` "OAuth"). Never a token.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase")]
pub struct OAuthGrant {
    pub id: String,
    /// The name the app registered with.
    pub client_name: String,
    pub scopes: Vec<String>,
    pub created_at: String,
    /// The last API call made with one of the grant's tokens (updated at most once a minute).
    #[serde(default)]
    pub last_used_at: Option<String>,
}
