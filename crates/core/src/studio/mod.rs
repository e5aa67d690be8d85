//! The studio: the live model registry and voices (cached per session), price quotes (`getCost: true`,
//! cached per identical form), generation with a client-minted `outputId`, and the render queue.
//!
//! The queue is a SQLite file (`studio.db` in the data folder). A job is written *before* its generate
//! request goes out, with the exact request (its `outputId` included), so a window closed mid-request
//! or a lost connection ends in the same place: on the next start (or the next retry) the same bytes go
//! out again and the service answers with the existing job (`idempotentReplay`), never a second charge.
//! Polling runs here, one task per job, at the server's `pollAfterSeconds` when it gives one and
//! otherwise from a per-kind first interval growing ×1.5 to a cap; every change is broadcast as a
//! [`StudioEvent`] (Tauri events in the desktop window, server-sent events in web-shell).
use api_client::wait::{default_interval, next_interval};
use api_client::{ApiError, CancellationToken, Client};
use api_types::{
    BoardRequest, ContentType, CostEstimate, GenerateRequest, GenerateResult, Generation, GenerationStatus,
    ModelInfo, References, Voice,
};
use rusqlite::{params, Connection, OptionalExtension};
use serde::{Deserialize, Serialize};
use std::collections::HashMap;
use std::path::Path;
use std::sync::Mutex;
use std::time::Duration;
use tokio::sync::broadcast;
use ts_rs::TS;

use crate::error::{IpcCode, IpcError, IpcResult};
use crate::session::Session;

mod cadence;
mod commands;
mod learned;
mod poller;
mod request;
mod store;
pub use cadence::*;
pub use commands::*;
pub use learned::{learn_at_start, learn_durations, Learned, SEED_MARGIN};
pub use poller::*;
pub use request::*;
pub use store::*;

// ---------------------------------------------------------------------------------------------------
// Types of the contract (docs/ipc.md)
// ---------------------------------------------------------------------------------------------------

/// What the studio makes. Lip-sync is a video generation with a lip-sync model; an upscale is a
/// generation with an upscale model of one image or video (its content type is the source's); a board is
/// the reference-board pipeline, not a registry model.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize, TS)]
#[serde(rename_all = "kebab-case")]
pub enum StudioMedia {
    Image,
    Video,
    Audio,
    Board,
    LipSync,
    Upscale,
}

impl StudioMedia {
    pub fn content_type(self) -> ContentType {
        match self {
            StudioMedia::Image | StudioMedia::Board | StudioMedia::Upscale => ContentType::Image,
            StudioMedia::Video | StudioMedia::LipSync => ContentType::Video,
            StudioMedia::Audio => ContentType::Audio,
        }
    }
}

/// The studio form as the UI holds it. Empty strings count as absent.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct StudioForm {
    pub media: StudioMedia,
    /// Required except for boards.
    #[serde(default)]
    #[ts(optional)]
    pub model_id: Option<String>,
    #[serde(default)]
    #[ts(optional)]
    pub prompt: Option<String>,
    #[serde(default)]
    #[ts(optional)]
    pub aspect_ratio: Option<String>,
    #[serde(default)]
    #[ts(optional)]
    pub resolution: Option<String>,
    /// `numImages` for images and boards, `numGenerations` for video.
    #[serde(default)]
    #[ts(optional)]
    pub num_outputs: Option<u32>,
    /// Video clip length, seconds.
    #[serde(default)]
    #[ts(optional)]
    pub duration: Option<f64>,
    #[serde(default)]
    #[ts(optional)]
    pub negative_prompt: Option<String>,
    #[serde(default)]
    #[ts(optional)]
    pub references: Option<References>,
    /// Speech words or the lip-sync script.
    #[serde(default)]
    #[ts(optional)]
    pub text: Option<String>,
    #[serde(default)]
    #[ts(optional)]
    pub voice_id: Option<String>,
    /// Music / sound-effect length, or the lip-sync audio length.
    #[serde(default)]
    #[ts(optional)]
    pub duration_seconds: Option<f64>,
    /// Boards only: `character | pose | mascot | ...`.
    #[serde(default)]
    #[ts(optional)]
    pub board_type: Option<String>,
    #[serde(default)]
    #[ts(optional)]
    pub board_name: Option<String>,
    /// Upscales only: `2x` or `4x` (the model's default when absent).
    #[serde(default)]
    #[ts(optional)]
    pub upscale_factor: Option<String>,
}

#[derive(Debug, Clone, Deserialize, Serialize, TS)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct StudioQuoteArgs {
    pub form: StudioForm,
}

/// The price of a form, and what the balance would be after it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct StudioQuote {
    pub credits: f64,
    pub balance: f64,
    pub balance_after: f64,
    /// `false`: the price exceeds the balance; `reason` says by how much.
    pub affordable: bool,
    pub reason: Option<String>,
    /// Answered from this session's copy of an identical form's quote.
    pub cached: bool,
}

#[derive(Debug, Clone, Deserialize, Serialize, TS)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct StudioGenerateArgs {
    pub form: StudioForm,
    /// A UUID minted by the UI once per click; a retry of that click sends the same one.
    pub output_id: String,
}

#[derive(Debug, Clone, Deserialize, Serialize, TS)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct StudioJobArgs {
    pub output_id: String,
}

#[derive(Debug, Clone, Deserialize, Serialize, TS)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct CardAttachOutputArgs {
    pub card_id: String,
    /// An output token: `<uuid>` or `<uuid>-<N>` (N from 1).
    pub token: String,
}

/// Where a job is. `submitting`: written here, its request not answered yet (it is sent again with the
/// same `outputId` until it is); `cancelled`: this app stopped waiting (the render may still finish);
/// `abandoned`: the service dropped the render without failing it (newest era, e.g. a duplicate).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(rename_all = "lowercase")]
pub enum JobStatus {
    Submitting,
    Processing,
    Completed,
    Failed,
    Cancelled,
    Abandoned,
}

impl JobStatus {
    pub fn is_terminal(self) -> bool {
        matches!(self, JobStatus::Completed | JobStatus::Failed | JobStatus::Cancelled | JobStatus::Abandoned)
    }
    fn as_str(self) -> &'static str {
        match self {
            JobStatus::Submitting => "submitting",
            JobStatus::Processing => "processing",
            JobStatus::Completed => "completed",
            JobStatus::Failed => "failed",
            JobStatus::Cancelled => "cancelled",
            JobStatus::Abandoned => "abandoned",
        }
    }
}

impl JobStatus {
    /// The job's status from the service's: a status this build does not know is still rendering (polled
    /// on until the service says more).
    fn from_service(s: &api_types::Open<GenerationStatus>) -> Self {
        match s.get() {
            Some(GenerationStatus::Completed) => JobStatus::Completed,
            Some(GenerationStatus::Failed) => JobStatus::Failed,
            Some(GenerationStatus::Abandoned) => JobStatus::Abandoned,
            Some(GenerationStatus::Pending | GenerationStatus::Processing) | None => JobStatus::Processing,
        }
    }

    /// A status read: `completed` counts only once settled (`settled` is not `false`).
    fn of(g: &Generation) -> Self {
        if g.status == GenerationStatus::Completed && !g.is_done() {
            JobStatus::Processing
        } else {
            JobStatus::from_service(&g.status)
        }
    }
}

/// A render in the queue (and, once completed, in the gallery).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct StudioJob {
    pub output_id: String,
    pub form: StudioForm,
    pub model_id: String,
    pub content_type: ContentType,
    pub status: JobStatus,
    /// Why it failed, or what is wrong right now while it keeps trying (lost connection).
    pub error: Option<String>,
    pub credits: Option<f64>,
    /// One per output; the output token of the N-th is `<outputId>-<N>`.
    pub output_urls: Vec<String>,
    /// The service had this `outputId` already: the existing job, nothing charged again.
    pub idempotent_replay: bool,
    /// Status reads so far.
    pub polls: u32,
    /// Epoch ms.
    pub created_at: i64,
    pub updated_at: i64,
    pub completed_at: Option<i64>,
    /// When the next status read is due (epoch ms), while waiting.
    pub next_poll_at: Option<i64>,
    /// Taken off the queue list ("clear finished"); still in the gallery.
    pub cleared: bool,
    /// The last time (epoch ms) the service said it was still rendering: the render finished after it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub last_running_at: Option<i64>,
    /// How long this model's renders take (ms), learned from this computer's finished renders, else from
    /// the account's library (`learned.rs`): the queue's estimate. Absent while nothing was learned.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub expected_ms: Option<i64>,
}

/// What the studio tells the UI as it happens.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
#[serde(tag = "type", rename_all = "camelCase")]
#[allow(clippy::large_enum_variant)] // an event is made, serialised for the UI and dropped
pub enum StudioEvent {
    /// A job was added or changed.
    Job { job: StudioJob },
    /// A job was taken away (its request was refused: nothing was charged).
    Removed {
        #[serde(rename = "outputId")]
        output_id: String,
    },
    /// The balance after a charge or a refund.
    Balance { balance: f64 },
}

/// The Tauri event name the desktop shell emits every [`StudioEvent`] under.
pub const EVENT_NAME: &str = "studio://event";

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn output_tokens_in_every_documented_form() {
        let id = "0f8fad5b-d9cb-469f-a165-70867728950e";
        assert!(is_output_token(id));
        assert!(is_output_token(&format!("{id}-2")));
        assert!(is_output_token("0f8fad5b"));
        assert!(is_output_token("0f8fad5b-1"));
        assert!(!is_output_token(&format!("{id}-0")));
        assert!(!is_output_token(&format!("{id}-x")));
        assert!(!is_output_token("https://example.com/a.png"));
        assert!(!is_output_token("0f8fad5"));
    }

    #[test]
    fn output_tokens_follow_the_shared_cases() {
        let cases: serde_json::Value =
            serde_json::from_str(include_str!("../../../api-types/fixtures/output-tokens.json")).unwrap();
        for v in cases["valid"].as_array().unwrap() {
            assert!(is_output_token(v.as_str().unwrap()), "valid: {v}");
        }
        for v in cases["invalid"].as_array().unwrap() {
            assert!(!is_output_token(v.as_str().unwrap()), "invalid: {v}");
        }
    }

    #[test]
    fn cadence_follows_the_hint_else_grows_to_the_cap() {
        let mut c = Cadence::default();
        assert_eq!(c.next(Some(3.0), Duration::from_secs(5)), Duration::from_secs(3));
        assert_eq!(c.next(Some(0.01), Duration::from_secs(5)), MIN_POLL);
        assert_eq!(c.next(Some(600.0), Duration::from_secs(5)), MAX_HINT);
        let own: Vec<f64> = (0..5).map(|_| c.next(None, Duration::from_secs(5)).as_secs_f64()).collect();
        assert_eq!(own, vec![5.0, 7.5, 11.25, 15.0, 15.0]);
    }

    #[test]
    fn with_no_hint_a_models_typical_time_is_awaited_then_short_reads() {
        let mut c = Cadence::default();
        let t = Some(Duration::from_secs(300));
        let first = Duration::from_secs(5);
        assert_eq!(c.next_known(None, first, Duration::ZERO, t), MAX_HINT);
        assert_eq!(c.next_known(None, first, Duration::from_secs(290), t), Duration::from_secs(10));
        let after: Vec<f64> = [300, 302, 305]
            .iter()
            .map(|s| c.next_known(None, first, Duration::from_secs(*s), t).as_secs_f64())
            .collect();
        assert_eq!(after, vec![2.0, 3.0, 4.5]);
        // A hint still wins.
        assert_eq!(c.next_known(Some(1.0), first, Duration::from_secs(400), t), Duration::from_secs(1));
    }

    fn form(media: StudioMedia) -> StudioForm {
        StudioForm {
            media,
            model_id: Some("nano-banana-2".into()),
            prompt: Some("a fox".into()),
            aspect_ratio: None,
            resolution: None,
            num_outputs: None,
            duration: None,
            negative_prompt: None,
            references: None,
            text: None,
            voice_id: None,
            duration_seconds: None,
            board_type: None,
            board_name: None,
            upscale_factor: None,
        }
    }

    #[test]
    fn an_upscale_sends_its_one_source_with_the_sources_content_type_and_its_factor() {
        let token = "0f8fad5b-d9cb-469f-a165-70867728950e-1".to_string();
        let mut f = StudioForm { model_id: Some("topaz-image-upscale".into()), prompt: None, ..form(StudioMedia::Upscale) };
        f.references = Some(References { images: vec![token.clone()], ..Default::default() });
        f.upscale_factor = Some("4x".into());
        let StoredRequest::Generate(r) = request_for(&f).unwrap() else { panic!() };
        assert_eq!((r.content_type, r.upscale_factor.as_deref(), r.references.unwrap().images), (Some(ContentType::Image), Some("4x"), vec![token.clone()]));
        // A video: its length is needed (the price).
        f.references = Some(References { videos: vec![token.clone()], ..Default::default() });
        assert_eq!(request_for(&f).unwrap_err().field.as_deref(), Some("duration"));
        f.duration = Some(8.0);
        let StoredRequest::Generate(r) = request_for(&f).unwrap() else { panic!() };
        assert_eq!((r.content_type, r.duration), (Some(ContentType::Video), Some(8.0)));
        // No source, two sources, a factor that is not one, a factor on another kind.
        f.references = None;
        assert_eq!(request_for(&f).unwrap_err().field.as_deref(), Some("references"));
        f.references = Some(References { images: vec![token.clone()], videos: vec![token], ..Default::default() });
        assert_eq!(request_for(&f).unwrap_err().field.as_deref(), Some("references"));
        f.upscale_factor = Some("3x".into());
        assert_eq!(request_for(&f).unwrap_err().valid_values, ["2x", "4x"]);
        let mut g = form(StudioMedia::Image);
        g.upscale_factor = Some("2x".into());
        assert_eq!(request_for(&g).unwrap_err().field.as_deref(), Some("upscaleFactor"));
    }

    #[test]
    fn a_form_maps_to_its_endpoint_and_bad_fields_are_named() {
        let mut f = form(StudioMedia::Video);
        f.num_outputs = Some(2);
        f.references = Some(References { start_frame: Some("0f8fad5b-d9cb-469f-a165-70867728950e-1".into()), ..Default::default() });
        let StoredRequest::Generate(r) = request_for(&f).unwrap() else { panic!() };
        assert_eq!(r.num_generations, Some(2));
        assert_eq!(r.num_images, None);
        assert_eq!(r.content_type, Some(ContentType::Video));

        f.references = Some(References { start_frame: Some("not a link".into()), ..Default::default() });
        assert_eq!(request_for(&f).unwrap_err().field.as_deref(), Some("references.startFrame"));

        f.references = None;
        f.num_outputs = Some(9);
        assert_eq!(request_for(&f).unwrap_err().field.as_deref(), Some("numOutputs"));

        let mut b = form(StudioMedia::Board);
        assert_eq!(request_for(&b).unwrap_err().field.as_deref(), Some("boardType"));
        b.board_type = Some("dragon".into());
        assert!(!request_for(&b).unwrap_err().valid_values.is_empty());
        b.board_type = Some("character".into());
        assert!(matches!(request_for(&b).unwrap(), StoredRequest::Board(_)));

        let mut m = form(StudioMedia::Image);
        m.model_id = Some("  ".into());
        assert_eq!(request_for(&m).unwrap_err().field.as_deref(), Some("modelId"));
    }

    #[test]
    fn a_quote_above_the_balance_says_how_much_is_missing() {
        let q = quote_view(40.0, 25.0, false);
        assert!(!q.affordable);
        assert_eq!(q.balance_after, -15.0);
        assert!(q.reason.unwrap().contains("15 more"));
        assert!(quote_view(10.0, 25.0, true).affordable);
    }
}
