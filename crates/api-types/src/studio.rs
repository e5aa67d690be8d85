//! Model registry, voices and generation (`/models`, `/voices`, `/studio/*`).
use crate::common::ContentType;
use crate::open::{Extra, Open};
use serde::{Deserialize, Serialize};
use serde_json::Value;
use ts_rs::TS;

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase")]
pub struct Voice {
    pub voice_id: String,
    #[serde(default, deserialize_with = "crate::common::null_as_default")]
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
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct VoiceList {
    #[serde(default)]
    pub voices: Vec<Voice>,
}

/// A Kling reference element: a saved one by `elementId`, or one described here by `name`.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, TS)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase")]
pub struct ReferenceElement {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub element_id: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub name: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub description: Option<String>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub images: Vec<String>,
    #[serde(flatten)]
    #[ts(skip)]
    pub extra: Extra,
}

/// Reference inputs: each value is a URL or an output token `<uuid>-<N>` (N from 1).
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, TS)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase")]
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
    /// Kling elements (video models that take them).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub elements: Vec<ReferenceElement>,
    #[serde(flatten)]
    #[ts(skip)]
    pub extra: Extra,
}

impl References {
    pub fn is_empty(&self) -> bool {
        self.images.is_empty()
            && self.videos.is_empty()
            && self.audio.is_empty()
            && self.start_frame.is_none()
            && self.end_frame.is_none()
            && self.elements.is_empty()
            && self.extra.is_empty()
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
            .chain(self.elements.iter().flat_map(|e| e.images.iter().map(|v| ("references.elements.images", v))))
    }
}

/// Body of `POST /studio/generate`. Lip-sync and upscale are generations with a model of that kind. Every
/// field of the spec era (fact sheet 3.1) has a name; `extra` carries any the service adds later.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, TS)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase")]
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
    /// Models with a separate quality mode.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub quality: Option<String>,
    /// Image models, 1–4.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub num_images: Option<u32>,
    /// Video models, 1–4.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub num_generations: Option<u32>,
    /// Video clip length in seconds (for a video upscale: the source's length).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub duration: Option<f64>,
    /// Video-edit models: keep the input's length.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub keep_input_length: Option<bool>,
    /// Video models with sound.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub audio_enabled: Option<bool>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub negative_prompt: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub seed: Option<i64>,
    /// Upscale models: `2x` or `4x`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub upscale_factor: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub references: Option<References>,
    /// Model-specific settings passed through (e.g. `{ "mode": "pro" }`, Kling `{ "multiShot": true,
    /// "shots": [...] }`); an object.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(type = "Record<string, unknown>")]
    pub parameters: Option<Value>,
    /// Speech words or lip-sync script.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub text: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub voice_id: Option<String>,
    /// The voice's display name (shown in the library; not used to choose the voice).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub voice_name: Option<String>,
    /// Music / sound-effect length, or lip-sync audio length for pricing.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub duration_seconds: Option<f64>,
    /// Sound effects: how closely to follow the prompt, 0–1.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub prompt_influence: Option<f64>,
    /// The idempotency key: a client-minted UUID that becomes the generation's id. Resubmitting it returns
    /// the existing job and charges nothing more.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub output_id: Option<String>,
    /// Place the result onto this editor or canvas project.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub project_id: Option<String>,
    /// Where on the project: a timeline placement (`{ "mode": "append" }`, `at`, `atPlayhead`, `replace`,
    /// `range`) or a canvas one (`slideId`, `fit`, `x`, `y`, …); an object.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(type = "Record<string, unknown>")]
    pub placement: Option<Value>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub playhead_frame: Option<f64>,
    /// Image models: file the result as a look of this avatar.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub avatar_id: Option<String>,
    /// `true`: only the price is returned; nothing runs or is charged.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub get_cost: Option<bool>,
    #[serde(flatten)]
    #[ts(skip)]
    pub extra: Extra,
}

/// Body of `POST /studio/reference-board`.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, TS)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase")]
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
    pub avatar_id: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub output_id: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub get_cost: Option<bool>,
    #[serde(flatten)]
    #[ts(skip)]
    pub extra: Extra,
}

/// The reply to `getCost: true`: nothing ran, nothing was charged.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase")]
pub struct CostEstimate {
    pub credits_estimate: f64,
    #[serde(default)]
    pub get_cost: bool,
    #[serde(default)]
    pub model_id: Option<String>,
    #[serde(default)]
    pub content_type: Option<Open<ContentType>>,
}

crate::value_list! {
    /// Where a render is. `abandoned` (newest era) is terminal and not a failure.
    GenerationStatus {
        Pending = "pending",
        Processing = "processing",
        Completed = "completed",
        Failed = "failed",
        Abandoned = "abandoned",
    }
}

impl GenerationStatus {
    pub fn is_terminal(self) -> bool {
        matches!(self, GenerationStatus::Completed | GenerationStatus::Failed | GenerationStatus::Abandoned)
    }
}

/// One output of a render in the newest era's `outputs[]` (which replaces `outputUrls`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase")]
pub struct GenerationOutput {
    /// `<shortId>-<N>`, usable as a reference token.
    #[serde(default)]
    pub media_id: Option<String>,
    /// `succeeded | failed | pending`.
    #[serde(default)]
    pub status: Option<String>,
    #[serde(default)]
    pub url: Option<String>,
}

/// What a render cost in the newest era (replaces `creditsEstimate` / `creditsCharged`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase")]
pub struct Charge {
    #[serde(default)]
    pub credits: Option<f64>,
    #[serde(default)]
    pub held: Option<f64>,
    /// `charged | pending | free`.
    #[serde(default)]
    pub state: Option<String>,
    #[serde(default)]
    pub balance_after: Option<f64>,
}

/// The files of a render, from the spec era's `outputUrls` or the newest era's `outputs[]`.
fn urls_of(output_urls: &[String], outputs: &[GenerationOutput]) -> Vec<String> {
    if !output_urls.is_empty() {
        return output_urls.to_vec();
    }
    outputs.iter().filter(|o| o.status.as_deref() != Some("failed")).filter_map(|o| o.url.clone()).collect()
}

/// The reply to a generate (or board) call: completed inline within the smart-wait, or an `outputId` to
/// poll.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase")]
pub struct GenerateResult {
    pub output_id: String,
    pub status: Open<GenerationStatus>,
    #[serde(default)]
    pub credits_estimate: Option<f64>,
    #[serde(default)]
    pub output_urls: Vec<String>,
    /// Newest era: the outputs, in place of `outputUrls`.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub outputs: Vec<GenerationOutput>,
    /// Newest era: the charge, in place of `creditsEstimate`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub charge: Option<Charge>,
    /// `true` when this `outputId` had been submitted before: the existing job, no second charge.
    #[serde(default)]
    pub idempotent_replay: bool,
    /// A hint for the first poll (the docs put it on the status reply; clients must not require it).
    #[serde(default)]
    pub poll_after_seconds: Option<f64>,
}

/// `GET /studio/generate/{outputId}`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase")]
pub struct Generation {
    pub output_id: String,
    pub status: Open<GenerationStatus>,
    #[serde(default)]
    pub content_type: Option<Open<ContentType>>,
    #[serde(default)]
    pub model_id: Option<String>,
    #[serde(default)]
    pub output_urls: Vec<String>,
    #[serde(default)]
    pub error: Option<String>,
    #[serde(default)]
    pub created_at: Option<String>,
    #[serde(default)]
    pub completed_at: Option<String>,
    /// `false` while the charge is still being settled: not done yet even when `completed`.
    #[serde(default)]
    pub settled: Option<bool>,
    #[serde(default)]
    pub poll_after_seconds: Option<f64>,
    #[serde(default)]
    pub credits_charged: Option<f64>,
    /// Newest era: the outputs, in place of `outputUrls`.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub outputs: Vec<GenerationOutput>,
    /// Newest era: the charge, in place of `creditsCharged`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub charge: Option<Charge>,
}

impl GenerateResult {
    /// The files, whichever era's field carried them.
    pub fn urls(&self) -> Vec<String> {
        urls_of(&self.output_urls, &self.outputs)
    }
    /// The price, whichever era's field carried it.
    pub fn credits(&self) -> Option<f64> {
        self.credits_estimate.or(self.charge.as_ref().and_then(|c| c.credits))
    }
}

impl Generation {
    /// The files, whichever era's field carried them.
    pub fn urls(&self) -> Vec<String> {
        urls_of(&self.output_urls, &self.outputs)
    }
    /// What was charged, whichever era's field carried it.
    pub fn credits(&self) -> Option<f64> {
        self.credits_charged.or(self.charge.as_ref().and_then(|c| c.credits))
    }

    /// Done: `completed` and settled (`settled` is not `false`), or failed or abandoned. A status this
    /// build does not know is not done; the caller's deadline ends the wait.
    pub fn is_done(&self) -> bool {
        match self.status.get() {
            Some(GenerationStatus::Completed) => self.settled != Some(false),
            Some(s) => s.is_terminal(),
            None => false,
        }
    }
}
