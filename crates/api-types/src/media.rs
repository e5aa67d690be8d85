//! Media uploads and imports (`/media/uploads`, `/media/imports`).
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use ts_rs::TS;

/// Body of `POST /media/uploads`.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct CreateUpload {
    pub file_name: String,
    /// A MIME type, e.g. `image/png`.
    pub content_type: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub size_bytes: Option<u64>,
}

/// Where to PUT the bytes (no auth header; exactly `uploadHeaders`, else just `Content-Type`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct UploadTicket {
    pub output_id: String,
    pub upload_url: String,
    #[serde(default)]
    pub upload_headers: Option<BTreeMap<String, String>>,
    #[serde(default)]
    pub storage_path: Option<String>,
    #[serde(default)]
    pub expires_at: Option<String>,
}

/// The reply to `POST /media/uploads/{outputId}/complete`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct UploadedMedia {
    pub output_id: String,
    pub url: String,
}

/// Body of `POST /media/imports`.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct ImportMedia {
    pub url: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub content_type: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub file_name: Option<String>,
}

/// The reply to an import; idempotent by content.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct ImportedMedia {
    pub output_id: Option<String>,
    pub url: String,
    #[serde(default)]
    pub already_existed: bool,
}
