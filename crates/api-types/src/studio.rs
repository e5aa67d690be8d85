//! Model registry, voices and generation (`/models`, `/voices`, `/studio/*`).
use crate::common::ContentType;
use serde::{Deserialize, Serialize};
use ts_rs::TS;

/// What kind of work a model does.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(rename_all = "kebab-case")]
pub enum ModelKind {
    Generate,
    Upscale,
    LipSync,
    Voice,
}

/// An inclusive numeric range, e.g. the durations a video model accepts.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize, TS)]
pub struct NumRange {
    pub min: f64,
    pub max: f64,
}

/// What a model accepts; the studio shows a field only when the model has the capability.
/// The registry's capabilities are open-ended: fields not listed here are ignored on read.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct ModelCapabilities {
    #[serde(default)]
    pub output_type: Option<String>,
    /// `required | optional | none`.
    #[serde(default)]
    pub prompt_mode: Option<String>,
    #[serde(default)]
    pub aspect_ratios: Vec<String>,
    #[serde(default)]
    pub resolutions: Vec<String>,
    #[serde(default)]
    pub duration_seconds: Option<NumRange>,
    /// Largest `numImages` / `numGenerations`.
    #[serde(default)]
    pub max_outputs: Option<u32>,
    /// Largest number of reference images.
    #[serde(default)]
    pub max_reference_images: Option<u32>,
    #[serde(default)]
    pub start_frame: bool,
    #[serde(default)]
    pub end_frame: bool,
    #[serde(default)]
    pub negative_prompt: bool,
    /// Needs `text` + `voiceId` (speech) or accepts them (lip-sync).
    #[serde(default)]
    pub voice: bool,
    /// Needs `text` (speech, lip-sync script).
    #[serde(default)]
    pub text: bool,
    #[serde(default)]
    pub audio_reference: bool,
    #[serde(default)]
    pub prompt_max_chars: Option<u32>,
}

/// An entry of the live model registry. No price: prices come only from `getCost`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct ModelInfo {
    pub model_id: String,
    pub display_name: String,
    #[serde(default)]
    pub description: Option<String>,
    pub content_type: ContentType,
    pub kind: ModelKind,
    #[serde(default)]
    pub tags: Vec<String>,
    #[serde(default)]
    pub is_default: Option<bool>,
    #[serde(default)]
    pub capabilities: ModelCapabilities,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
pub struct ModelList {
    #[serde(default)]
    pub models: Vec<ModelInfo>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct Voice {
    pub voice_id: String,
    pub name: String,
    #[serde(default)]
    pub category: Option<String>,
    #[serde(default)]
    pub description: Option<String>,
    #[serde(default)]
    pub preview_url: Option<String>,
    #[serde(default)]
    pub is_favorited: bool,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
pub struct VoiceList {
    #[serde(default)]
    pub voices: Vec<Voice>,
}

/// Reference inputs: each value is a URL or an output token `<uuid>-<N>` (N from 1).
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct References {
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub images: Vec<String>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub videos: Vec<String>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub audio: Vec<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub start_frame: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub end_frame: Option<String>,
}

impl References {
    pub fn is_empty(&self) -> bool {
        self.images.is_empty()
            && self.videos.is_empty()
            && self.audio.is_empty()
            && self.start_frame.is_none()
            && self.end_frame.is_none()
    }

    /// Every reference value, in a fixed order, for checking.
    pub fn all(&self) -> impl Iterator<Item = (&'static str, &String)> {
        self.images
            .iter()
            .map(|v| ("references.images", v))
            .chain(self.videos.iter().map(|v| ("references.videos", v)))
            .chain(self.audio.iter().map(|v| ("references.audio", v)))
            .chain(self.start_frame.iter().map(|v| ("references.startFrame", v)))
            .chain(self.end_frame.iter().map(|v| ("references.endFrame", v)))
    }
}

/// Body of `POST /studio/generate`. Lip-sync and upscale are generations with a model of that kind.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct GenerateRequest {
    pub model_id: String,
    /// Inferred from the model when absent. The docs' `type` is accepted as an alias.
    #[serde(default, alias = "type", skip_serializing_if = "Option::is_none")]
    pub content_type: Option<ContentType>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub prompt: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub aspect_ratio: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub resolution: Option<String>,
    /// Image models, 1–4.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub num_images: Option<u32>,
    /// Video models, 1–4.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub num_generations: Option<u32>,
    /// Video clip length in seconds.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub duration: Option<f64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub negative_prompt: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub seed: Option<i64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub references: Option<References>,
    /// Speech words or lip-sync script.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub text: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub voice_id: Option<String>,
    /// Music / sound-effect length, or lip-sync audio length for pricing.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub duration_seconds: Option<f64>,
    /// The idempotency key: a client-minted UUID that becomes the generation's id. Resubmitting it returns
    /// the existing job and charges nothing more.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub output_id: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub project_id: Option<String>,
    /// `true`: only the price is returned; nothing runs or is charged.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub get_cost: Option<bool>,
}

/// Body of `POST /studio/reference-board`.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct BoardRequest {
    /// `character | pose | mascot | creature | weapon | vehicle | object | location | shot`.
    pub board_type: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub prompt: Option<String>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub reference_images: Vec<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub num_images: Option<u32>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub board_name: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub output_id: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub get_cost: Option<bool>,
}

pub const BOARD_TYPES: &[&str] =
    &["character", "pose", "mascot", "creature", "weapon", "vehicle", "object", "location", "shot"];

/// The reply to `getCost: true`: nothing ran, nothing was charged.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct CostEstimate {
    pub credits_estimate: f64,
    #[serde(default)]
    pub get_cost: bool,
    #[serde(default)]
    pub model_id: Option<String>,
    #[serde(default)]
    pub content_type: Option<ContentType>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(rename_all = "lowercase")]
pub enum GenerationStatus {
    Pending,
    Processing,
    Completed,
    Failed,
}

impl GenerationStatus {
    pub fn is_terminal(self) -> bool {
        matches!(self, GenerationStatus::Completed | GenerationStatus::Failed)
    }
}

/// The reply to a generate (or board) call: completed inline within the smart-wait, or an `outputId` to
/// poll.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct GenerateResult {
    pub output_id: String,
    pub status: GenerationStatus,
    #[serde(default)]
    pub credits_estimate: Option<f64>,
    #[serde(default)]
    pub output_urls: Vec<String>,
    /// `true` when this `outputId` had been submitted before: the existing job, no second charge.
    #[serde(default)]
    pub idempotent_replay: bool,
    /// A hint for the first poll (the docs put it on the status reply; clients must not require it).
    #[serde(default)]
    pub poll_after_seconds: Option<f64>,
}

/// `GET /studio/generate/{outputId}`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct Generation {
    pub output_id: String,
    pub status: GenerationStatus,
    pub content_type: ContentType,
    pub model_id: String,
    #[serde(default)]
    pub output_urls: Vec<String>,
    #[serde(default)]
    pub error: Option<String>,
    #[serde(default)]
    pub created_at: Option<String>,
    #[serde(default)]
    pub completed_at: Option<String>,
    #[serde(default)]
    pub settled: Option<bool>,
    #[serde(default)]
    pub poll_after_seconds: Option<f64>,
    #[serde(default)]
    pub credits_charged: Option<f64>,
}
