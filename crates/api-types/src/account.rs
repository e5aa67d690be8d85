//! `GET /account/balance` (alias `/balance`).
use serde::{Deserialize, Serialize};
use ts_rs::TS;

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
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
