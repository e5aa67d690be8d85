//! Media uploads and imports (`/media/uploads`, `/media/imports`) and the library (`GET /media`).
use crate::open::Extra;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use ts_rs::TS;

/// Body of `POST /media/uploads`.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, TS)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase")]
pub struct CreateUpload {
    pub file_name: String,
    /// A MIME type, e.g. `image/png`.
    pub content_type: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub size_bytes: Option<u64>,
    #[serde(flatten)]
    #[ts(skip)]
    pub extra: Extra,
}

/// Where to PUT the bytes (no auth header; exactly `uploadHeaders`, else just `Content-Type`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
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
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase")]
pub struct UploadedMedia {
    pub output_id: String,
    pub url: String,
}

/// Body of `POST /media/imports`.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, TS)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase")]
pub struct ImportMedia {
    pub url: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub content_type: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub file_name: Option<String>,
    #[serde(flatten)]
    #[ts(skip)]
    pub extra: Extra,
}

/// The reply to an import; idempotent by content.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase")]
pub struct ImportedMedia {
    pub output_id: Option<String>,
    pub url: String,
    #[serde(default)]
    pub already_existed: bool,
}

/// Query of `GET /media`: the account's library, newest first, one entry per output.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, TS)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct MediaQuery {
    /// `creations` (default: renders and boards), `uploads` (uploads and imports), `stock` or `all`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub source: Option<String>,
    /// Comma-separated media types: `image`, `video`, `audio`, `transcript`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub content_type: Option<String>,
    /// `processing`, `completed` or `failed`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub status: Option<String>,
    /// `creation`, `board`, `look` or `upload`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub kind: Option<String>,
    /// 1–100, default 50.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub limit: Option<u32>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub offset: Option<u32>,
}

/// One output in the account's library (facts 3: `MediaSummary`). Its output token is `{id}-{variant + 1}`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase")]
pub struct MediaSummary {
    /// The generation (or upload/import) id: the `outputId`.
    pub id: String,
    /// `image`, `video`, `audio` or `transcript`.
    #[serde(rename = "type")]
    pub r#type: String,
    /// The model that made it; none for uploads and imports.
    #[serde(default)]
    pub model: Option<String>,
    #[serde(default)]
    pub prompt: Option<String>,
    /// `processing`, `completed` or `failed`.
    #[serde(default, deserialize_with = "crate::common::null_as_default")]
    pub status: String,
    #[serde(default)]
    pub created_at: Option<String>,
    /// 0-based slot within the generation (spec era).
    #[serde(default)]
    pub variant: u32,
    /// Newest era, in place of `variant`: the output's own token, `<shortId>-<N>`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub media_id: Option<String>,
    /// Where the file is served; none until the output is rendered.
    #[serde(default)]
    pub url: Option<String>,
    /// How many outputs the generation has.
    #[serde(default)]
    pub generation_size: Option<u32>,
    #[serde(default)]
    pub is_favorited: bool,
    /// `creation`, `board`, `look` or `upload`.
    #[serde(default)]
    pub kind: Option<String>,
    #[serde(default)]
    pub board_type: Option<String>,
    /// `creations`, `uploads` or `stock`.
    #[serde(default)]
    pub source: Option<String>,
    /// The uploaded or imported file's name.
    #[serde(default)]
    pub file_name: Option<String>,
    #[serde(default)]
    pub duration_seconds: Option<f64>,
}

impl MediaSummary {
    /// The output token (`<uuid>-<N>`, N from 1) that references, cards and `card_attach_output` take.
    pub fn token(&self) -> String {
        match &self.media_id {
            Some(m) => m.clone(),
            None => format!("{}-{}", self.id, self.variant + 1),
        }
    }
}

/// The reply to `GET /media`.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, TS)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase")]
pub struct MediaList {
    #[serde(default)]
    pub media: Vec<MediaSummary>,
}
