//! Inspiration: tracked accounts (`/accounts`) and their content (`/content`).
use serde::{Deserialize, Serialize};
use ts_rs::TS;

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase")]
pub struct TrackedAccount {
    pub id: String,
    #[serde(default, deserialize_with = "crate::common::null_as_default")]
    pub platform: String,
    #[serde(default)]
    pub account_id: Option<String>,
    #[serde(default)]
    pub handle: Option<String>,
    #[serde(default)]
    pub name: Option<String>,
    #[serde(default)]
    pub avatar_url: Option<String>,
    #[serde(default)]
    pub follower_count: Option<i64>,
    #[serde(default)]
    pub last_synced_at: Option<String>,
    #[serde(default)]
    pub sync_status: Option<String>,
    /// `inspiration | brand`.
    #[serde(default)]
    pub account_type: Option<String>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct TrackedAccountList {
    #[serde(default)]
    pub accounts: Vec<TrackedAccount>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase")]
pub struct ContentTotals {
    pub views: i64,
    pub likes: i64,
    pub comments: i64,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase")]
pub struct ContentAverages {
    #[serde(default, deserialize_with = "crate::common::null_as_default")]
    pub views: f64,
    #[serde(default, deserialize_with = "crate::common::null_as_default")]
    pub engagement_rate: f64,
    #[serde(default, deserialize_with = "crate::common::null_as_default")]
    pub outlier_score: f64,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase")]
pub struct TrackedAccountDetail {
    pub account: TrackedAccount,
    pub content_count: i64,
    pub totals: ContentTotals,
    pub averages: ContentAverages,
    #[serde(default)]
    pub top_content: Vec<ContentSummary>,
    #[serde(default)]
    pub recent_content: Vec<ContentSummary>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase")]
pub struct ContentSummary {
    pub id: String,
    #[serde(default)]
    pub platform: Option<String>,
    #[serde(default)]
    pub content_type: Option<String>,
    #[serde(default)]
    pub title: Option<String>,
    #[serde(default)]
    pub url: Option<String>,
    #[serde(default)]
    pub thumbnail_url: Option<String>,
    #[serde(default)]
    pub view_count: Option<i64>,
    #[serde(default)]
    pub like_count: Option<i64>,
    #[serde(default)]
    pub comment_count: Option<i64>,
    #[serde(default)]
    pub share_count: Option<i64>,
    #[serde(default)]
    pub duration_seconds: Option<f64>,
    #[serde(default)]
    pub outlier_score: Option<f64>,
    #[serde(default)]
    pub engagement_rate: Option<f64>,
    #[serde(default)]
    pub published_at: Option<String>,
    /// The creator.
    #[serde(default)]
    pub source_creator: Option<String>,
    #[serde(default)]
    pub account_handle: Option<String>,
    #[serde(default)]
    pub account_id: Option<String>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase")]
pub struct ContentList {
    /// `content` in the newest era.
    #[serde(default, alias = "content")]
    pub outliers: Vec<ContentSummary>,
    #[serde(default)]
    pub total: i64,
    #[serde(default)]
    pub has_more: bool,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase")]
pub struct ContentDetail {
    #[serde(flatten)]
    pub summary: ContentSummary,
    #[serde(default)]
    pub description: Option<String>,
    #[serde(default)]
    pub hashtags: Vec<String>,
    /// Asked for with `transcript=text|segments` (fact sheet 3.12).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub transcript: Option<ContentTranscript>,
}

/// A tracked post's transcript: `status` `complete | not_applicable | failed | processing | absent`;
/// `text` or `segments` as asked; `windowed` when `start_ms`/`end_ms`/`transcript_search` narrowed it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase")]
pub struct ContentTranscript {
    pub status: String,
    #[serde(default)]
    pub language: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub text: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub segments: Option<Vec<TranscriptSegment>>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub windowed: Option<bool>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase")]
pub struct TranscriptSegment {
    pub start_ms: i64,
    pub end_ms: i64,
    pub text: String,
    #[serde(default)]
    pub speaker: Option<String>,
}

/// Query of `GET /content/{contentId}` (spec era: snake_case; camelCase accepted).
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(deny_unknown_fields)]
pub struct ContentDetailQuery {
    /// `none | text | segments` (default `none`: no transcript in the answer).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub transcript: Option<String>,
    /// Only the part of the transcript from this millisecond.
    #[serde(default, alias = "startMs", skip_serializing_if = "Option::is_none")]
    pub start_ms: Option<i64>,
    /// Only the part of the transcript up to this millisecond.
    #[serde(default, alias = "endMs", skip_serializing_if = "Option::is_none")]
    pub end_ms: Option<i64>,
    /// Only the segments that contain this text (case-insensitive).
    #[serde(default, alias = "transcriptSearch", skip_serializing_if = "Option::is_none")]
    pub transcript_search: Option<String>,
}

/// Query of `GET /content` (spec era: snake_case; camelCase accepted).
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, TS)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(deny_unknown_fields)]
pub struct ContentQuery {
    /// `all | inspiration | brand`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub scope: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub platform: Option<String>,
    #[serde(default, alias = "contentType", skip_serializing_if = "Option::is_none")]
    pub content_type: Option<String>,
    #[serde(default, alias = "outlierScoreMin", skip_serializing_if = "Option::is_none")]
    pub outlier_score_min: Option<f64>,
    #[serde(default, alias = "viewsMin", skip_serializing_if = "Option::is_none")]
    pub views_min: Option<i64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub search: Option<String>,
    /// `score | date | views | engagement`.
    #[serde(default, alias = "sortBy", skip_serializing_if = "Option::is_none")]
    pub sort_by: Option<String>,
    /// `asc | desc`.
    #[serde(default, alias = "sortOrder", skip_serializing_if = "Option::is_none")]
    pub sort_order: Option<String>,
    /// Comma-separated tracked-account ids.
    #[serde(default, alias = "accountIds", skip_serializing_if = "Option::is_none")]
    pub account_ids: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub limit: Option<u32>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub offset: Option<u32>,
}
