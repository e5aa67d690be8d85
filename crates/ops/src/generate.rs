//! The other renders: video, audio, reference boards, lip-sync and upscale. Each is one input struct
//! (the shell's flags of the official CLI, fact sheet 4.6) turned into a request and handed to
//! [`render`], the one path every render takes (free quote, `outputId` minted and reported first,
//! adaptive wait, `--save`). Boards go to their own endpoint through [`Job::Board`].
use crate::input::{help, one_of};
use crate::studio::{render, render_terms, Job, Picture, PictureHelp, Place, Spend};
use crate::{Cx, Effect, Meta, OpError, Operation};
use api_types::{BoardRequest, ContentType, GenerateRequest, ModelKind, ReferenceElement, References, BOARD_TYPES, UPSCALE_FACTORS};
use schemars::JsonSchema;
use serde::Deserialize;
use serde_json::Value;
use std::marker::PhantomData;

fn board_type_schema(_: &mut schemars::SchemaGenerator) -> schemars::Schema {
    schemars::json_schema!({ "type": "string", "enum": BOARD_TYPES })
}

fn upscale_factor_schema(_: &mut schemars::SchemaGenerator) -> schemars::Schema {
    schemars::json_schema!({ "type": "string", "enum": UPSCALE_FACTORS })
}

/// The model to use: the one named, else the registry's first of this content type and kind.
async fn model_of_kind(cx: &Cx, given: Option<String>, content_type: ContentType, kind: ModelKind) -> Result<String, OpError> {
    model_where(cx, given, content_type, kind, |m| m.kind.get() == Some(kind)).await
}

/// The model named, or the registry's first of this content type that `fits`.
async fn model_where(
    cx: &Cx,
    given: Option<String>,
    content_type: ContentType,
    kind: ModelKind,
    fits: impl Fn(&api_types::ModelInfo) -> bool,
) -> Result<String, OpError> {
    if let Some(m) = given.filter(|m| !m.trim().is_empty()) {
        return Ok(m);
    }
    let models = cx.client.models().list(Some(content_type)).await?;
    models
        .into_iter()
        .find(|m| fits(m))
        .map(|m| m.model_id)
        .ok_or_else(|| OpError::usage("modelId", format!("no {} {} model in the registry: name one with --model", content_type.as_str(), kind.as_str())))
}

#[derive(Debug, Clone, clap::Args, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct GenerateVideoInput {
    #[command(flatten)]
    #[serde(flatten)]
    pub picture: Picture<VideoHelp>,
    /// The clip's length in seconds (within the model's range).
    #[arg(long, value_name = "SECONDS")]
    #[serde(default)]
    pub duration: Option<f64>,
    /// With sound (models that make it; costs more).
    #[arg(long = "audio")]
    #[serde(default)]
    pub audio_enabled: bool,
    /// How many clips, 1 to 4.
    #[arg(short = 'n', long = "count", value_parser = clap::value_parser!(u32).range(1..=4))]
    #[serde(default)]
    pub num_generations: Option<u32>,
    /// What the clip should not show.
    #[arg(long = "negative")]
    #[serde(default)]
    pub negative_prompt: Option<String>,
    /// The first frame: an image URL or an output token (`<outputId>`, `<outputId>-<n>`).
    #[arg(long, value_name = "URL|TOKEN")]
    #[serde(default)]
    pub start_frame: Option<String>,
    /// The last frame: an image URL or an output token.
    #[arg(long, value_name = "URL|TOKEN")]
    #[serde(default)]
    pub end_frame: Option<String>,
    /// Reference images: URLs or output tokens{shell: ; repeat the flag}{agent: , as an array}.
    #[arg(long = "ref", value_name = "URL|TOKEN")]
    #[serde(default)]
    pub refs: Vec<String>,
    /// Reference videos: URLs or output tokens{shell: ; repeat the flag}{agent: , as an array}.
    #[arg(long = "ref-video", value_name = "URL|TOKEN")]
    #[serde(default)]
    pub ref_videos: Vec<String>,
    /// Reference audio: a URL or an output token.
    #[arg(long = "ref-audio", value_name = "URL|TOKEN")]
    #[serde(default)]
    pub ref_audio: Vec<String>,
    /// Kling elements: a saved element's id, or a JSON object `{name, description, images: [URL|TOKEN]}`
    /// describing one{shell: ; repeat the flag}{agent: ; an array of ids and objects}.
    #[arg(long = "element", value_name = "ID|JSON", value_parser = parse_element)]
    #[serde(default)]
    #[schemars(schema_with = "crate::input::ids_or_objects_schema")]
    pub elements: Vec<Value>,
    /// Several shots in one clip (models that make them: Kling, WAN 2.6).
    #[arg(long)]
    #[serde(default)]
    pub multi_shot: bool,
    /// The shots as JSON, `[{prompt, duration}]`, each 1 to 12 s, 15 s in all.
    #[arg(long, value_name = "JSON", value_parser = parse_shots)]
    #[serde(default)]
    #[schemars(with = "Option<Vec<serde_json::Map<String, Value>>>")]
    pub shots: Option<Value>,
    #[command(flatten)]
    #[serde(flatten)]
    pub place: Place,
    #[command(flatten)]
    #[serde(flatten)]
    pub spend: Spend,
}

/// The video's texts for [`Picture`]'s fields.
#[derive(Debug, Clone)]
pub struct VideoHelp;
impl PictureHelp for VideoHelp {
    const PROMPT: &str = "What to film.";
    const MODEL: &str = "The model's id (`model list --type video`); the registry's first video model when absent.";
    const ASPECT: &str = "The aspect ratio, e.g. `16:9` or `9:16` (what the model takes: `model get`).";
    const RESOLUTION: &str = "The output resolution, e.g. `720p` or `1080p`.";
}

/// `--element <id>` is `{"elementId": id}`; a JSON object is taken as it is.
fn parse_element(raw: &str) -> Result<Value, String> {
    let raw = raw.trim();
    if raw.starts_with('{') {
        return serde_json::from_str::<Value>(raw).map_err(|e| format!("not a JSON object: {e}"));
    }
    if raw.is_empty() {
        return Err("give an element's id or a JSON object".into());
    }
    Ok(serde_json::json!({ "elementId": raw }))
}

fn parse_shots(raw: &str) -> Result<Value, String> {
    let v: Value = serde_json::from_str(raw).map_err(|e| format!("not JSON: {e}"))?;
    if v.is_array() { Ok(v) } else { Err("give a JSON list of shots: [{\"prompt\": \"...\", \"duration\": 5}]".into()) }
}

pub struct GenerateVideo;
impl Operation for GenerateVideo {
    type Input = GenerateVideoInput;
    const META: Meta = Meta {
        path: &["generate", "video"],
        tool: "generate_video",
        summary: "Render video clips from a prompt, start and end frames and references",
        details: concat!("Spends credits by the second of video, per clip, more with sound. An image's outputId as startFrame animates it. ", render_terms!()),
        effect: Effect::Spend,
        idempotent: true,
        scope: Some(api_types::scopes::GENERATE),
    };
    async fn run(cx: Cx, mut i: GenerateVideoInput) -> Result<Value, OpError> {
        let model_id = model_of_kind(&cx, i.picture.model_id.take(), ContentType::Video, ModelKind::Generate).await?;
        let elements = i
            .elements
            .into_iter()
            .map(|e| match e {
                Value::String(id) => parse_element(&id).map_err(|m| OpError::usage("elements", m)),
                other => Ok(other),
            })
            .map(|e| e.and_then(|e| serde_json::from_value::<ReferenceElement>(e).map_err(|err| OpError::usage("elements", format!("an element is an id, `{{elementId}}` or `{{name, description, images}}`: {err}")))))
            .collect::<Result<Vec<_>, _>>()?;
        let references = References {
            images: i.refs,
            videos: i.ref_videos,
            audio: i.ref_audio,
            start_frame: i.start_frame,
            end_frame: i.end_frame,
            elements,
            ..Default::default()
        };
        let mut parameters = serde_json::Map::new();
        if i.multi_shot {
            parameters.insert("multiShot".into(), Value::Bool(true));
        }
        if let Some(shots) = i.shots {
            parameters.insert("shots".into(), shots);
        }
        let mut req = GenerateRequest {
            parameters: (!parameters.is_empty()).then_some(Value::Object(parameters)),
            model_id,
            content_type: Some(ContentType::Video),
            duration: i.duration,
            audio_enabled: i.audio_enabled.then_some(true),
            num_generations: i.num_generations,
            negative_prompt: i.negative_prompt,
            references: (!references.is_empty()).then_some(references),
            ..Default::default()
        };
        i.picture.apply(&mut req);
        i.place.apply(&mut req);
        render(&cx, req.into(), &i.spend).await
    }
}

#[derive(Debug, Clone, clap::Args, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct GenerateAudioInput {
    /// The model's id (`model list --type audio`): speech (`elevenlabs-tts`), music or sound effects.
    /// When absent: the first speech model with `text`, else the first music or effects model.
    #[arg(short = 'm', long = "model")]
    #[serde(default)]
    pub model_id: Option<String>,
    /// What music or sound to make (music and sound-effect models).
    #[arg(long)]
    #[serde(default)]
    pub prompt: Option<String>,
    /// The words to speak (speech models; needs a voice).
    #[arg(long)]
    #[serde(default)]
    pub text: Option<String>,
    #[command(flatten)]
    #[serde(flatten)]
    pub voice: Voice<SpeechVoice>,
    /// Length in seconds (music and sound effects).
    #[arg(long = "duration", value_name = "SECONDS")]
    #[serde(default)]
    pub duration_seconds: Option<f64>,
    /// How closely a sound effect follows the prompt, 0 to 1.
    #[arg(long)]
    #[serde(default)]
    pub prompt_influence: Option<f64>,
    #[command(flatten)]
    #[serde(flatten)]
    pub place: Place,
    #[command(flatten)]
    #[serde(flatten)]
    pub spend: Spend,
}

#[derive(Debug, Clone)]
pub struct SpeechVoice;
impl VoiceHelp for SpeechVoice {
    const ID: &str = "The voice's id (`voice list`).";
}

/// The voice speech is made in (audio's text, lip-sync's script), each operation with its own text for
/// the id.
#[derive(Debug, Clone, clap::Args, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct Voice<H: VoiceHelp> {
    #[arg(long = "voice", help = help(H::ID))]
    #[schemars(description = H::ID)]
    #[serde(default)]
    pub voice_id: Option<String>,
    /// The voice's display name, shown in the library.
    #[arg(long = "voice-name")]
    #[serde(default)]
    pub voice_name: Option<String>,
    #[arg(skip)]
    #[serde(skip)]
    #[schemars(skip)]
    texts: PhantomData<H>,
}

/// The text of [`Voice`]'s id for one operation.
pub trait VoiceHelp: Send + Sync + 'static {
    const ID: &str;
}

pub struct GenerateAudio;
impl Operation for GenerateAudio {
    type Input = GenerateAudioInput;
    const META: Meta = Meta {
        path: &["generate", "audio"],
        tool: "generate_audio",
        summary: "Render speech from text in a voice, or music and sound effects from a prompt",
        details: concat!("Spends credits: speech by the length of the text, music and effects by the started 10 s. Speech needs text and a voiceId (list_voices). Usually finishes within the call. ", render_terms!()),
        effect: Effect::Spend,
        idempotent: true,
        scope: Some(api_types::scopes::GENERATE),
    };
    async fn run(cx: Cx, i: GenerateAudioInput) -> Result<Value, OpError> {
        // Speech is known by what it takes (text in a voice), not by its kind: the service lists it as
        // `generate` (the cards era as `voice`).
        let speech = i.text.is_some();
        let kind = if speech { ModelKind::Voice } else { ModelKind::Generate };
        let fits = |m: &api_types::ModelInfo| {
            m.is_speech() == speech && matches!(m.kind.get(), Some(ModelKind::Generate | ModelKind::Voice))
        };
        let model_id = model_where(&cx, i.model_id, ContentType::Audio, kind, fits).await?;
        let mut req = GenerateRequest {
            model_id,
            content_type: Some(ContentType::Audio),
            prompt: i.prompt,
            text: i.text,
            voice_id: i.voice.voice_id,
            voice_name: i.voice.voice_name,
            duration_seconds: i.duration_seconds,
            prompt_influence: i.prompt_influence,
            ..Default::default()
        };
        i.place.apply(&mut req);
        render(&cx, req.into(), &i.spend).await
    }
}

#[derive(Debug, Clone, clap::Args, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct GenerateBoardInput {
    /// What the board shows (needed when no reference image is given).
    #[serde(default)]
    pub prompt: Option<String>,
    /// The kind of board.
    #[arg(short = 't', long = "type", value_parser = one_of(BOARD_TYPES.iter().copied()))]
    #[schemars(schema_with = "board_type_schema")]
    pub board_type: String,
    /// Reference images: URLs or output tokens{shell: ; repeat the flag}{agent: , as an array}.
    #[arg(long = "ref", value_name = "URL|TOKEN")]
    #[serde(default)]
    pub reference_images: Vec<String>,
    /// How many boards, 1 to 4.
    #[arg(short = 'n', long = "count", value_parser = clap::value_parser!(u32).range(1..=4))]
    #[serde(default)]
    pub num_images: Option<u32>,
    /// The board's name in the library.
    #[arg(long = "name")]
    #[serde(default)]
    pub board_name: Option<String>,
    /// File the board as a look of this avatar.
    #[arg(long = "avatar")]
    #[serde(default)]
    pub avatar_id: Option<String>,
    #[command(flatten)]
    #[serde(flatten)]
    pub spend: Spend,
}

pub struct GenerateBoard;
impl Operation for GenerateBoard {
    type Input = GenerateBoardInput;
    const META: Meta = Meta {
        path: &["generate", "board"],
        tool: "generate_board",
        summary: "Render a reference board (a character, pose, location … sheet) from a prompt or images",
        details: concat!("Spends credits per board image. A board is a pipeline, not a registry model: choose boardType, give a prompt or reference images. ", render_terms!()),
        effect: Effect::Spend,
        idempotent: true,
        scope: Some(api_types::scopes::GENERATE),
    };
    async fn run(cx: Cx, i: GenerateBoardInput) -> Result<Value, OpError> {
        let req = BoardRequest {
            board_type: i.board_type,
            prompt: i.prompt,
            reference_images: i.reference_images,
            num_images: i.num_images,
            board_name: i.board_name,
            avatar_id: i.avatar_id,
            ..Default::default()
        };
        render(&cx, Job::Board(req), &i.spend).await
    }
}

#[derive(Debug, Clone, clap::Args, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct GenerateLipSyncInput {
    /// The model's id (`model list --type video`, a lip-sync model); the registry's first when absent.
    #[arg(short = 'm', long = "model")]
    #[serde(default)]
    pub model_id: Option<String>,
    /// The portrait to animate: an image URL or an output token.
    #[arg(long, value_name = "URL|TOKEN")]
    pub image: String,
    /// The speech: an audio URL or an output token (or give {shell: --script and --voice}{agent: script and voiceId} instead).
    #[arg(long, value_name = "URL|TOKEN", conflicts_with = "script")]
    #[serde(default)]
    pub audio: Option<String>,
    /// The words to speak, in the voice {shell: --voice}{agent: voiceId} (instead of {shell: --audio}{agent: audio}).
    #[arg(long)]
    #[serde(default)]
    pub script: Option<String>,
    #[command(flatten)]
    #[serde(flatten)]
    pub voice: Voice<ScriptVoice>,
    /// A hint for the motion (head, gestures).
    #[arg(long)]
    #[serde(default)]
    pub motion: Option<String>,
    /// The output resolution, e.g. `480p` or `720p`.
    #[arg(long)]
    #[serde(default)]
    pub resolution: Option<String>,
    /// The audio clip's length in seconds (prices a lip-sync from {shell: --audio}{agent: audio}).
    #[arg(long = "audio-duration", value_name = "SECONDS")]
    #[serde(default)]
    pub audio_duration: Option<f64>,
    #[command(flatten)]
    #[serde(flatten)]
    pub spend: Spend,
}

#[derive(Debug, Clone)]
pub struct ScriptVoice;
impl VoiceHelp for ScriptVoice {
    const ID: &str = "The voice's id for {shell: --script}{agent: script} (`voice list`).";
}

pub struct GenerateLipSync;
impl Operation for GenerateLipSync {
    type Input = GenerateLipSyncInput;
    const META: Meta = Meta {
        path: &["generate", "lip-sync"],
        tool: "generate_lip_sync",
        summary: "Make a portrait speak: a clip of audio, or a script in a voice",
        details: concat!("Spends credits by the second of speech. Give image and either audio (with audioDuration) or script with voiceId. ", render_terms!()),
        effect: Effect::Spend,
        idempotent: true,
        scope: Some(api_types::scopes::GENERATE),
    };
    async fn run(cx: Cx, i: GenerateLipSyncInput) -> Result<Value, OpError> {
        if i.audio.is_some() && i.script.is_some() {
            return Err(OpError::usage("audio", "give either audio or a script with a voice, not both"));
        }
        let model_id = model_of_kind(&cx, i.model_id, ContentType::Video, ModelKind::LipSync).await?;
        let references = References { images: vec![i.image], audio: i.audio.into_iter().collect(), ..Default::default() };
        let req = GenerateRequest {
            model_id,
            content_type: Some(ContentType::Video),
            prompt: i.motion,
            text: i.script,
            voice_id: i.voice.voice_id,
            voice_name: i.voice.voice_name,
            resolution: i.resolution,
            duration_seconds: i.audio_duration,
            references: Some(references),
            ..Default::default()
        };
        render(&cx, req.into(), &i.spend).await
    }
}

#[derive(Debug, Clone, clap::Args, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct UpscaleInput {
    /// The image or video to upscale: a URL or an output token.
    #[arg(value_name = "SOURCE")]
    pub source: String,
    /// The upscale model (`model list`); when absent, the registry's first upscale model for the
    /// source's kind (a video when {shell: --duration}{agent: duration} is given, the URL ends in a video extension or the output
    /// is a video).
    #[arg(short = 'm', long = "model")]
    #[serde(default)]
    pub model_id: Option<String>,
    /// How much larger.
    #[arg(long = "factor", value_parser = one_of(UPSCALE_FACTORS.iter().copied()))]
    #[serde(default)]
    #[schemars(schema_with = "upscale_factor_schema")]
    pub upscale_factor: Option<String>,
    /// A video source's length in seconds.
    #[arg(long, value_name = "SECONDS")]
    #[serde(default)]
    pub duration: Option<f64>,
    #[command(flatten)]
    #[serde(flatten)]
    pub spend: Spend,
}

const VIDEO_EXTENSIONS: &[&str] = &["mp4", "mov", "webm", "m4v", "mkv"];

/// Whether the source is a video: the named model's content type, else `--duration`, else the URL's
/// extension, else the output's own content type (one status read); an image otherwise.
async fn upscale_kind(cx: &Cx, i: &UpscaleInput) -> Result<ContentType, OpError> {
    if let Some(m) = i.model_id.as_deref().filter(|m| !m.trim().is_empty()) {
        let model = cx.client.models().get(m).await?;
        return Ok(model.content_type.get().unwrap_or(ContentType::Image));
    }
    if i.duration.is_some() {
        return Ok(ContentType::Video);
    }
    let source = i.source.trim();
    if source.contains("://") {
        let path = source.split(['?', '#']).next().unwrap_or("");
        let ext = path.rsplit_once('.').map(|(_, e)| e.to_ascii_lowercase()).unwrap_or_default();
        return Ok(if VIDEO_EXTENSIONS.contains(&ext.as_str()) { ContentType::Video } else { ContentType::Image });
    }
    // An output token: `<uuid>` or `<uuid>-<n>`.
    let id = if source.len() > 36 && source.as_bytes()[36] == b'-' { &source[..36] } else { source };
    Ok(match cx.client.studio().status(id).await {
        Ok(g) => g.content_type.and_then(|c| c.get()).unwrap_or(ContentType::Image),
        Err(_) => ContentType::Image,
    })
}

pub struct Upscale;
impl Operation for Upscale {
    type Input = UpscaleInput;
    const META: Meta = Meta {
        path: &["upscale"],
        tool: "upscale",
        summary: "Upscale an image or a video (a URL or an output token)",
        details: concat!("Spends credits per upscale; a video source needs its duration. ", render_terms!()),
        effect: Effect::Spend,
        idempotent: true,
        scope: Some(api_types::scopes::GENERATE),
    };
    async fn run(cx: Cx, i: UpscaleInput) -> Result<Value, OpError> {
        let kind = upscale_kind(&cx, &i).await?;
        let model_id = model_of_kind(&cx, i.model_id, kind, ModelKind::Upscale).await?;
        let references = match kind {
            ContentType::Video => References { videos: vec![i.source], ..Default::default() },
            _ => References { images: vec![i.source], ..Default::default() },
        };
        let req = GenerateRequest {
            model_id,
            content_type: Some(kind),
            upscale_factor: i.upscale_factor,
            duration: i.duration,
            references: Some(references),
            ..Default::default()
        };
        render(&cx, req.into(), &i.spend).await
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn details_say_what_a_render_costs() {
        for d in [GenerateVideo::META.details, GenerateAudio::META.details, GenerateBoard::META.details, GenerateLipSync::META.details, Upscale::META.details] {
            assert!(d.contains("Spends credits") && d.contains("getCost") && d.contains("outputId"), "{d}");
        }
    }

    /// A field's help in the shell and its description in the schema, by flag and by field name.
    fn texts(path: &[&str], arg: &str, field: &str) -> (Option<String>, Option<String>) {
        let e = crate::by_path(path).unwrap();
        let help = e.command().get_arguments().find(|a| a.get_id() == arg).unwrap().get_help().map(|h| h.to_string());
        let description = e.input_schema()["properties"][field]["description"].as_str().map(str::to_string);
        (help, description)
    }

    #[test]
    fn image_and_video_share_the_picture_fields_each_with_its_own_texts() {
        let s = |t: &str| Some(t.to_string());
        assert_eq!(texts(&["generate", "image"], "prompt", "prompt"), (s("What to render"), s("What to render.")));
        assert_eq!(texts(&["generate", "video"], "prompt", "prompt"), (s("What to film"), s("What to film.")));
        // The same text in each face's words: the shell names its command, an agent its tool.
        let (help, description) = texts(&["generate", "video"], "model_id", "modelId");
        assert_eq!(help.unwrap() + ".", VideoHelp::MODEL.to_string());
        assert_eq!(description.unwrap(), "The model's id (`list_models` (type video)); the registry's first video model when absent.");
        assert_eq!(texts(&["generate", "video"], "resolution", "resolution"), (s("The output resolution, e.g. `720p` or `1080p`"), s("The output resolution, e.g. `720p` or `1080p`.")));
        let (help, description) = texts(&["generate", "image"], "resolution", "resolution");
        assert_eq!((help.as_deref(), description.as_deref()), (Some("The output resolution, as the model names it (`model get` lists what it takes)"), Some("The output resolution, as the model names it (`get_model` lists what it takes).")));
        for path in [&["generate", "image"][..], &["generate", "video"]] {
            let e = crate::by_path(path).unwrap();
            let schema = e.input_schema();
            for field in ["prompt", "modelId", "aspectRatio", "resolution"] {
                assert!(schema["properties"][field].is_object(), "{path:?}: {field} at the top level");
            }
            assert!(schema.get("required").is_none(), "{path:?}: nothing required");
            assert!(e.command().get_arguments().any(|a| a.get_long() == Some("aspect")), "{path:?}: --aspect");
        }
    }
}
