//! The service's error body: `{"error": "<message>", ...}` with extra fields by status (fact sheet 1.5).
use serde::{Deserialize, Serialize};
use ts_rs::TS;

/// One section that changed since the version the writer read (409 on brand-kit section writes).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase")]
pub struct SectionConflict {
    pub key: String,
    pub version: i64,
    pub body: String,
}

/// Every error answer of the API. Only `error` is always present; the rest depend on the status.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, TS)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase")]
pub struct ErrorBody {
    pub error: String,
    /// 400: the request field at fault (a sandbox addition; the real service names it only in `error`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub field: Option<String>,
    /// 400 on an unknown role or tab: the values that are valid.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub valid_values: Option<Vec<String>>,
    /// 400 on a request that needs a code for the UI to react to (e.g. `canva_not_connected`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub code: Option<String>,
    /// 403: the scope to grant (a sandbox addition; clients read the scope from `error`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub scope: Option<String>,
    /// 409 on brand-kit section writes.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub conflicts: Option<Vec<SectionConflict>>,
    /// 409 on card notes: the current notes and revision.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub notes: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub revision: Option<i64>,
    /// 429 (and 503): seconds to wait.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub retry_after: Option<f64>,
    /// 402: the balance and the credits the request needs.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub balance: Option<f64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub required: Option<f64>,
    /// 402 (newest): the credits needed and those free to spend (the balance less what is held). The
    /// newest `code` says which 402 it is: `insufficient_credits`, `spend_cap_reached`, `storage_full`,
    /// `plan_limit`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub needed: Option<f64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub available: Option<f64>,
    /// 402 (newest): what the user can do about it, as links into the service's app.
    #[serde(default, skip_serializing_if = "Vec::is_empty", deserialize_with = "crate::common::null_as_default")]
    pub actions: Vec<ErrorAction>,
    /// Knowledge add at the plan cap.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub limit_reached: Option<bool>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub limit: Option<i64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub current: Option<i64>,
}

/// One way out of a 402 (newest): `{ id, label, url }`.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, TS)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase")]
pub struct ErrorAction {
    #[serde(default)]
    pub id: String,
    #[serde(default)]
    pub label: String,
    #[serde(default)]
    pub url: Option<String>,
}

impl ErrorBody {
    pub fn new(message: impl Into<String>) -> Self {
        ErrorBody { error: message.into(), ..Default::default() }
    }
}
