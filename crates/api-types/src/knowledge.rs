//! A brand kit's knowledge base: `/brand-kits/{id}/knowledge`.
use serde::{Deserialize, Serialize};
use ts_rs::TS;

/// `text | url | youtube | file`.
pub const KNOWLEDGE_SOURCE_TYPES: &[&str] = &["text", "url", "youtube", "file"];

#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
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
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct KnowledgeItem {
    pub id: String,
    #[serde(default)]
    pub title: Option<String>,
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
    /// Detail reads only: the (capped) text.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub content: Option<String>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
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
pub struct KnowledgeEnvelope {
    pub item: KnowledgeItem,
}

/// The reply to an add. At the plan cap the service answers an error whose body has
/// `limitReached: true` instead (see `docs/api.md`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct KnowledgeAdded {
    pub item: KnowledgeItem,
    #[serde(default)]
    pub limit_reached: bool,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct KnowledgeMatch {
    #[serde(default)]
    pub knowledge_id: Option<String>,
    #[serde(default)]
    pub title: Option<String>,
    pub content: String,
    pub similarity: f64,
    #[serde(default)]
    pub source_url: Option<String>,
    #[serde(default)]
    pub chunk_index: i64,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
pub struct KnowledgeSearch {
    #[serde(default)]
    pub matches: Vec<KnowledgeMatch>,
}
