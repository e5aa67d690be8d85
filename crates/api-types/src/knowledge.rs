//! A brand kit's knowledge base: `/brand-kits/{id}/knowledge`.
use crate::open::Extra;
use serde::{Deserialize, Serialize};
use ts_rs::TS;

/// A tag on a knowledge item, by id.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, TS)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct TagRef {
    pub id: String,
}

#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, TS)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase")]
pub struct AddKnowledge {
    pub source_type: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub text: Option<String>,
    /// For `url` and `youtube`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub url: Option<String>,
    /// Base64, for small documents and images.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub file_data: Option<String>,
    /// A hosted file the server fetches and chunks: large files, video, audio.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub file_url: Option<String>,
    /// The file's extension, without a dot.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub file_ext: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub title: Option<String>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub tags: Vec<TagRef>,
    #[serde(flatten)]
    #[ts(skip)]
    pub extra: Extra,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase")]
pub struct KnowledgeItem {
    pub id: String,
    #[serde(default)]
    pub title: Option<String>,
    #[serde(default, deserialize_with = "crate::common::null_as_default")]
    pub source_type: String,
    #[serde(default)]
    pub source_url: Option<String>,
    #[serde(default)]
    pub file_ext: Option<String>,
    #[serde(default)]
    pub size_bytes: Option<i64>,
    #[serde(default)]
    pub created_at: Option<String>,
    #[serde(default)]
    pub updated_at: Option<String>,
    #[serde(default)]
    pub tags: Vec<TagRef>,
    /// Detail reads only: the (capped) text.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub content: Option<String>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase")]
pub struct KnowledgeList {
    #[serde(default)]
    pub items: Vec<KnowledgeItem>,
    #[serde(default)]
    pub total: i64,
    #[serde(default)]
    pub has_more: bool,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct KnowledgeEnvelope {
    pub item: KnowledgeItem,
}

/// The reply to an add. At the plan cap the sandbox answers a 402 whose body has `limitReached: true`;
/// the spec's words also allow a 200 `{ "limitReached": true }` with no item, which reads here as
/// `item: None` (the client turns it into the same error as the 402).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase")]
pub struct KnowledgeAdded {
    #[serde(default)]
    pub item: Option<KnowledgeItem>,
    #[serde(default)]
    pub limit_reached: bool,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase")]
pub struct KnowledgeMatch {
    #[serde(default)]
    pub knowledge_id: Option<String>,
    #[serde(default)]
    pub title: Option<String>,
    #[serde(default, deserialize_with = "crate::common::null_as_default")]
    pub content: String,
    #[serde(default, deserialize_with = "crate::common::null_as_default")]
    pub similarity: f64,
    #[serde(default)]
    pub source_url: Option<String>,
    #[serde(default, deserialize_with = "crate::common::null_as_default")]
    pub chunk_index: i64,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct KnowledgeSearch {
    #[serde(default)]
    pub matches: Vec<KnowledgeMatch>,
}
