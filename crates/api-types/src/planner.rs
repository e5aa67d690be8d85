//! Spaces, stages, cards (with posts and assets), tags, archive, connected accounts.
//!
//! Space and stage bodies are snake_case on the wire in the spec era (fact sheet 1.8); they also accept
//! camelCase.
use crate::common::{double_option, Position, ResolvedSpace};
use crate::open::Extra;
use serde::{Deserialize, Serialize};
use serde_json::Value;
use ts_rs::TS;

// ---------- spaces ----------

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase")]
pub struct Space {
    pub id: String,
    #[serde(default)]
    pub account_id: Option<String>,
    pub name: String,
    #[serde(default)]
    pub cover_url: Option<String>,
    #[serde(default)]
    pub cover_position: Option<Position>,
    #[serde(default)]
    pub is_favorite: bool,
    #[serde(default)]
    pub archived_at: Option<String>,
    #[serde(default)]
    pub created_at: Option<String>,
    #[serde(default)]
    pub updated_at: Option<String>,
    /// Live (not archived) cards in the space (`cardCount` in the newest era).
    #[serde(default, alias = "cardCount")]
    pub post_count: Option<i64>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct SpaceList {
    #[serde(default)]
    pub spaces: Vec<Space>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct SpaceEnvelope {
    pub space: Space,
}

#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, TS)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct CreateSpace {
    pub name: String,
    #[serde(default, alias = "coverUrl", skip_serializing_if = "Option::is_none")]
    pub cover_url: Option<String>,
    #[serde(default, alias = "coverPosition", skip_serializing_if = "Option::is_none")]
    pub cover_position: Option<Position>,
    /// Copy the stages (never the cards) of this space.
    #[serde(default, alias = "duplicateFrom", skip_serializing_if = "Option::is_none")]
    pub duplicate_from: Option<String>,
    #[serde(flatten)]
    #[ts(skip)]
    pub extra: Extra,
}

#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, TS)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct UpdateSpace {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub name: Option<String>,
    /// `null` removes the cover and its framing.
    #[serde(default, alias = "coverUrl", deserialize_with = "double_option", skip_serializing_if = "Option::is_none")]
    #[ts(optional, type = "string | null")]
    pub cover_url: Option<Option<String>>,
    #[serde(default, alias = "coverPosition", skip_serializing_if = "Option::is_none")]
    pub cover_position: Option<Position>,
    #[serde(flatten)]
    #[ts(skip)]
    pub extra: Extra,
}

// ---------- stages ----------

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase")]
pub struct Stage {
    pub id: String,
    pub name: String,
    #[serde(default)]
    pub slug: Option<String>,
    /// Hex colour, `#RRGGBB`.
    #[serde(default)]
    pub color: Option<String>,
    #[serde(default)]
    pub sort_order: f64,
    #[serde(default)]
    pub is_default: bool,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct StageList {
    #[serde(default)]
    pub stages: Vec<Stage>,
    pub space: ResolvedSpace,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct StageEnvelope {
    pub stage: Stage,
}

#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, TS)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct CreateStage {
    pub name: String,
    #[serde(default, alias = "spaceId", skip_serializing_if = "Option::is_none")]
    pub space_id: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub color: Option<String>,
    #[serde(default, alias = "afterId", skip_serializing_if = "Option::is_none")]
    pub after_id: Option<String>,
    #[serde(default, alias = "beforeId", skip_serializing_if = "Option::is_none")]
    pub before_id: Option<String>,
    #[serde(flatten)]
    #[ts(skip)]
    pub extra: Extra,
}

/// `PATCH /stages/{id}`. `after_id: null` moves the stage to the far left, `before_id: null` to the far
/// right.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, TS)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct UpdateStage {
    #[serde(alias = "spaceId")]
    pub space_id: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub name: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub color: Option<String>,
    #[serde(default, alias = "afterId", deserialize_with = "double_option", skip_serializing_if = "Option::is_none")]
    #[ts(optional, type = "string | null")]
    pub after_id: Option<Option<String>>,
    #[serde(default, alias = "beforeId", deserialize_with = "double_option", skip_serializing_if = "Option::is_none")]
    #[ts(optional, type = "string | null")]
    pub before_id: Option<Option<String>>,
    #[serde(flatten)]
    #[ts(skip)]
    pub extra: Extra,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct StageUpdated {
    pub stage: Stage,
    /// `true`: the whole board was renumbered; list the stages again.
    #[serde(default)]
    pub respaced: bool,
}

/// JSON body of `DELETE /stages/{id}`: where the stage's cards go (`null` only for an empty stage).
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, TS)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct DeleteStage {
    #[serde(alias = "spaceId")]
    pub space_id: String,
    #[serde(default, alias = "targetStageId")]
    pub target_stage_id: Option<String>,
    #[serde(flatten)]
    #[ts(skip)]
    pub extra: Extra,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct StageDeleted {
    pub id: String,
    #[serde(default, alias = "movedCards")]
    pub moved_cards: i64,
    #[serde(default)]
    pub stages: Vec<Stage>,
}

// ---------- cards ----------


/// A card as lists and writes return it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase")]
pub struct CardSummary {
    pub id: String,
    pub title: String,
    #[serde(default)]
    pub platform: Option<String>,
    #[serde(default)]
    pub space_id: Option<String>,
    #[serde(default)]
    pub stage_id: Option<String>,
    #[serde(default)]
    pub board_order: Option<f64>,
    #[serde(default)]
    pub content_type: Option<String>,
    #[serde(default)]
    pub cover_url: Option<String>,
    #[serde(default)]
    pub is_favorite: bool,
    #[serde(default)]
    pub archived_at: Option<String>,
    #[serde(default)]
    pub is_archived: bool,
    #[serde(default)]
    pub scheduled_at: Option<String>,
    #[serde(default)]
    pub published_at: Option<String>,
    #[serde(default)]
    pub publish_url: Option<String>,
    #[serde(default)]
    pub created_at: Option<String>,
    #[serde(default)]
    pub updated_at: Option<String>,
    #[serde(default)]
    pub platforms: Vec<String>,
    #[serde(default)]
    pub tags: Vec<String>,
}

/// `GET /cards/{id}`: the summary plus notes, posts and assets (carousel order).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase")]
pub struct CardDetail {
    #[serde(flatten)]
    pub summary: CardSummary,
    #[serde(default)]
    pub notes: Option<String>,
    /// Notes concurrency: send it back as `expectedRevision` with new notes.
    #[serde(default)]
    pub revision: i64,
    #[serde(default)]
    pub cover_position: Option<Position>,
    #[serde(default)]
    pub metadata: Option<Value>,
    #[serde(default)]
    pub assets: Vec<CardAsset>,
    #[serde(default)]
    pub posts: Vec<Post>,
}

/// Card replies were enveloped as `post` in the cards-era client; the newest is `card`. Either is read,
/// and a reply carrying both (a release in between) reads `card`.
#[derive(Debug, Clone, PartialEq, Serialize, TS)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct CardEnvelope<T> {
    pub post: T,
}

impl<'de, T: Deserialize<'de>> Deserialize<'de> for CardEnvelope<T> {
    fn deserialize<D: serde::Deserializer<'de>>(de: D) -> Result<Self, D::Error> {
        #[derive(Deserialize)]
        struct Both<T> {
            post: Option<T>,
            card: Option<T>,
        }
        let both = Both::<T>::deserialize(de)?;
        both.card
            .or(both.post)
            .map(|post| CardEnvelope { post })
            .ok_or_else(|| serde::de::Error::missing_field("post"))
    }
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase")]
pub struct CardList {
    #[serde(default)]
    pub cards: Vec<CardSummary>,
    #[serde(default)]
    pub total: i64,
    #[serde(default)]
    pub has_more: bool,
    /// Newest era: cursor paging (`hasMore` is gone there; a cursor means there is more).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub next_cursor: Option<String>,
    #[serde(default)]
    pub space: Option<ResolvedSpace>,
}

/// A post, read back. Written as `platformSpecificData`, read back as `platformSettings`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase")]
pub struct Post {
    pub id: String,
    #[serde(default)]
    pub connected_account_id: Option<String>,
    #[serde(default)]
    pub platform: Option<String>,
    #[serde(default)]
    pub format: Option<String>,
    #[serde(default)]
    pub status: Option<String>,
    /// The post's own time, or the card's when it has none. The service does not say which: a time that
    /// differs from the card's is the post's own (see [`PostInput::from_post`]).
    #[serde(default)]
    pub scheduled_at: Option<String>,
    #[serde(default)]
    pub published_at: Option<String>,
    #[serde(default)]
    pub platform_settings: Option<Value>,
}

/// A post in the declarative `posts` list, keyed by platform (one post per platform).
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, TS)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase")]
pub struct PostInput {
    pub platform: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub format: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub connected_account_id: Option<String>,
    /// Overrides the card's time for this post.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub scheduled_at: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub platform_specific_data: Option<Value>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub status: Option<String>,
    #[serde(flatten)]
    #[ts(skip)]
    pub extra: Extra,
}

impl PostInput {
    /// The input that keeps a post as it was read from a card whose time is `card_scheduled_at`. The
    /// service returns each post's effective time and no flag saying whether it is the post's own, so a
    /// time that differs from the card's is sent back as the post's own override, and a time equal to the
    /// card's is left out: that post follows the card, also when the same write moves the card's time.
    pub fn from_post(post: &Post, card_scheduled_at: Option<&str>) -> Option<PostInput> {
        let own = post.scheduled_at.as_deref().filter(|t| !same_instant(Some(t), card_scheduled_at));
        Some(PostInput {
            platform: post.platform.clone()?,
            format: post.format.clone(),
            connected_account_id: post.connected_account_id.clone(),
            scheduled_at: own.map(str::to_string),
            platform_specific_data: post.platform_settings.clone(),
            status: post.status.clone(),
            extra: Extra::default(),
        })
    }
}

/// Two RFC 3339 times name the same instant (`…Z` and `…+00:00`, with or without milliseconds).
fn same_instant(a: Option<&str>, b: Option<&str>) -> bool {
    fn norm(t: &str) -> String {
        let t = t.trim().replace("+00:00", "Z");
        match (t.find('.'), t.strip_suffix('Z')) {
            (Some(dot), Some(_)) => {
                let frac = t[dot + 1..t.len() - 1].trim_end_matches('0');
                let head = &t[..dot];
                if frac.is_empty() { format!("{head}Z") } else { format!("{head}.{frac}Z") }
            }
            _ => t,
        }
    }
    match (a, b) {
        (Some(a), Some(b)) => norm(a) == norm(b),
        (None, None) => true,
        _ => false,
    }
}

/// Inspiration figures carried by an asset attached by `contentId`.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, TS)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase")]
pub struct CardAssetInspiration {
    #[serde(default)]
    pub platform: Option<String>,
    #[serde(default)]
    pub content_type: Option<String>,
    #[serde(default)]
    pub creator: Option<String>,
    #[serde(default)]
    pub handle: Option<String>,
    #[serde(default)]
    pub published_at: Option<String>,
    #[serde(default)]
    pub view_count: Option<i64>,
    #[serde(default)]
    pub like_count: Option<i64>,
    #[serde(default)]
    pub comment_count: Option<i64>,
    #[serde(default)]
    pub outlier_score: Option<f64>,
    #[serde(default)]
    pub engagement_rate: Option<f64>,
    #[serde(default)]
    pub thumbnail_url: Option<String>,
}

/// An asset on a card, read back under the field that attached it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase")]
pub struct CardAsset {
    pub id: String,
    #[serde(default)]
    pub asset_type: Option<String>,
    /// Attached as a generation output, upload or import.
    #[serde(default)]
    pub output_id: Option<String>,
    /// Attached as a link (not copied).
    #[serde(default)]
    pub asset_url: Option<String>,
    /// Attached as an inspiration post.
    #[serde(default)]
    pub content_id: Option<String>,
    /// A linked project.
    #[serde(default)]
    pub project_id: Option<String>,
    /// Deprecated alias: the id the asset points at, whatever its kind.
    #[serde(default)]
    pub asset_id: Option<String>,
    #[serde(default)]
    pub display_name: Option<String>,
    /// A URL to show (media file, link, inspiration thumbnail).
    #[serde(default)]
    pub preview_url: Option<String>,
    #[serde(default)]
    pub inspiration: Option<CardAssetInspiration>,
    #[serde(default)]
    pub sort_order: Option<f64>,
}

impl CardAsset {
    /// The deprecated `assetId` alias, read as the content or project id when the newer field is absent.
    pub fn content_id_or_alias(&self) -> Option<&str> {
        self.content_id.as_deref().or(if self.asset_type.as_deref() == Some("inspiration") {
            self.asset_id.as_deref()
        } else {
            None
        })
    }
}

/// An entry of the declarative `assets` list: `{ id }` keeps an asset, otherwise exactly one reference.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, TS)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase")]
pub struct CardAssetInput {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub id: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub output_id: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub asset_url: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub content_id: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub project_id: Option<String>,
    /// Accepted and ignored, except `inspiration` with `assetUrl` (refused, naming `contentId`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub asset_type: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub display_name: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub metadata: Option<Value>,
    #[serde(flatten)]
    #[ts(skip)]
    pub extra: Extra,
}

impl CardAssetInput {
    pub fn keep(id: impl Into<String>) -> Self {
        CardAssetInput { id: Some(id.into()), ..Default::default() }
    }
    pub fn output(output_id: impl Into<String>) -> Self {
        CardAssetInput { output_id: Some(output_id.into()), ..Default::default() }
    }
    pub fn link(url: impl Into<String>) -> Self {
        CardAssetInput { asset_url: Some(url.into()), ..Default::default() }
    }
    pub fn inspiration(content_id: impl Into<String>) -> Self {
        CardAssetInput { content_id: Some(content_id.into()), ..Default::default() }
    }
    pub fn project(project_id: impl Into<String>) -> Self {
        CardAssetInput { project_id: Some(project_id.into()), ..Default::default() }
    }

    /// The references this entry names, as `(field, value)`; `id` counts as one (keep).
    pub fn references(&self) -> Vec<(&'static str, &str)> {
        [
            ("id", &self.id),
            ("outputId", &self.output_id),
            ("assetUrl", &self.asset_url),
            ("contentId", &self.content_id),
            ("projectId", &self.project_id),
        ]
        .into_iter()
        .filter_map(|(f, v)| v.as_deref().map(|v| (f, v)))
        .collect()
    }
}

#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, TS)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase")]
pub struct CreateCard {
    pub title: String,
    pub platform: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub space_id: Option<String>,
    /// Stage id, slug or name; the space's first stage when absent.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub stage: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cover_url: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cover_output_id: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tags: Option<Vec<String>>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub notes: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub scheduled_at: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub posts: Option<Vec<PostInput>>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub assets: Option<Vec<CardAssetInput>>,
    #[serde(flatten)]
    #[ts(skip)]
    pub extra: Extra,
}

/// `PATCH /cards/{id}`. `posts` and `assets` are declarative: the whole desired list.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, TS)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase")]
pub struct UpdateCard {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub title: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub platform: Option<String>,
    /// Move to a stage (id, slug or name).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub stage: Option<String>,
    /// Move to a space.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub space_id: Option<String>,
    /// `true` archives the card, `false` restores it (newer alternative to `POST /archive`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub archived: Option<bool>,
    /// Place before this card in its stage (a sandbox and desktop addition for drag and drop).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub before_card_id: Option<String>,
    /// Explicit position within the stage.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub board_order: Option<f64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub is_favorite: Option<bool>,
    /// `null` removes the cover.
    #[serde(default, deserialize_with = "double_option", skip_serializing_if = "Option::is_none")]
    #[ts(optional, type = "string | null")]
    pub cover_url: Option<Option<String>>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cover_output_id: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cover_position: Option<Position>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub content_type: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tags: Option<Vec<String>>,
    /// Sets the card and every post; `null` clears.
    #[serde(default, deserialize_with = "double_option", skip_serializing_if = "Option::is_none")]
    #[ts(optional, type = "string | null")]
    pub scheduled_at: Option<Option<String>>,
    /// Record a publication made elsewhere.
    #[serde(default, deserialize_with = "double_option", skip_serializing_if = "Option::is_none")]
    #[ts(optional, type = "string | null")]
    pub published_at: Option<Option<String>>,
    #[serde(default, deserialize_with = "double_option", skip_serializing_if = "Option::is_none")]
    #[ts(optional, type = "string | null")]
    pub publish_url: Option<Option<String>>,
    /// Needs `expectedRevision`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub notes: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub expected_revision: Option<i64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub metadata: Option<Value>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub posts: Option<Vec<PostInput>>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub assets: Option<Vec<CardAssetInput>>,
    #[serde(flatten)]
    #[ts(skip)]
    pub extra: Extra,
}

/// Query of `GET /cards` (spec era: snake_case names; camelCase accepted).
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, TS)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(deny_unknown_fields)]
pub struct CardQuery {
    #[serde(default, alias = "spaceId", skip_serializing_if = "Option::is_none")]
    pub space_id: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub archived: Option<bool>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub platform: Option<String>,
    /// Stage id, slug or name.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub stage: Option<String>,
    #[serde(default, alias = "isFavorite", skip_serializing_if = "Option::is_none")]
    pub is_favorite: Option<bool>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tag: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub search: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub limit: Option<u32>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub offset: Option<u32>,
}

#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, TS)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct PublishRequest {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub platform: Option<String>,
    #[serde(flatten)]
    #[ts(skip)]
    pub extra: Extra,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase")]
pub struct PublishOutcome {
    pub success: bool,
    pub platform: String,
    #[serde(default)]
    pub post_id: Option<String>,
    #[serde(default)]
    pub url: Option<String>,
    #[serde(default)]
    pub error: Option<String>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase")]
pub struct PublishResult {
    pub card_id: String,
    #[serde(default)]
    pub results: Vec<PublishOutcome>,
    #[serde(default)]
    pub published_count: i64,
    #[serde(default)]
    pub failed_count: i64,
}

// ---------- tags ----------

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct Tag {
    pub id: String,
    pub name: String,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct TagList {
    #[serde(default)]
    pub tags: Vec<Tag>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct TagEnvelope {
    pub tag: Tag,
}

#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, TS)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct TagInput {
    pub name: String,
    #[serde(flatten)]
    #[ts(skip)]
    pub extra: Extra,
}

// ---------- archive ----------

/// `POST /archive`. `assetType`: `card`, `brand_kit`, `brand_kit_section`, `project`, `space`.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, TS)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase")]
pub struct ArchiveRequest {
    pub asset_type: String,
    pub id: String,
    /// Default `true`; `false` restores.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub archived: Option<bool>,
    #[serde(flatten)]
    #[ts(skip)]
    pub extra: Extra,
}


#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct ArchiveResult {
    pub archived: bool,
}

// ---------- connected accounts ----------

/// A publishing account. Credentials are never exposed.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase")]
pub struct ConnectedAccount {
    pub id: String,
    #[serde(default)]
    pub platform: Option<String>,
    #[serde(default)]
    pub account_id: Option<String>,
    #[serde(default)]
    pub account_name: Option<String>,
    #[serde(default)]
    pub account_handle: Option<String>,
    #[serde(default)]
    pub account_url: Option<String>,
    #[serde(default)]
    pub connection_status: Option<String>,
    #[serde(default)]
    pub connection_type: Option<String>,
    #[serde(default)]
    pub capabilities: Option<Value>,
    #[serde(default)]
    pub is_default: bool,
    #[serde(default)]
    pub created_at: Option<String>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct ConnectedAccountList {
    /// `connectedAccounts` in the newest era.
    #[serde(default, alias = "connectedAccounts")]
    pub accounts: Vec<ConnectedAccount>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct ConnectedAccountEnvelope {
    pub account: ConnectedAccount,
}

#[cfg(test)]
mod tests {
    use super::*;

    fn post(at: Option<&str>) -> Post {
        serde_json::from_value(serde_json::json!({ "id": "p1", "platform": "x", "scheduledAt": at })).unwrap()
    }

    #[test]
    fn a_post_keeps_a_time_that_differs_from_its_cards_and_follows_the_card_otherwise() {
        let card = Some("2026-12-01T09:00:00.000Z");
        let own = PostInput::from_post(&post(Some("2026-12-02T18:30:00.000Z")), card).unwrap();
        assert_eq!(own.scheduled_at.as_deref(), Some("2026-12-02T18:30:00.000Z"));
        let follows = PostInput::from_post(&post(Some("2026-12-01T09:00:00Z")), card).unwrap();
        assert_eq!(follows.scheduled_at, None);
        let follows = PostInput::from_post(&post(Some("2026-12-01T09:00:00+00:00")), card).unwrap();
        assert_eq!(follows.scheduled_at, None);
        let no_card_time = PostInput::from_post(&post(Some("2026-12-02T18:30:00Z")), None).unwrap();
        assert_eq!(no_card_time.scheduled_at.as_deref(), Some("2026-12-02T18:30:00Z"));
        assert_eq!(PostInput::from_post(&post(None), card).unwrap().scheduled_at, None);
    }
}
