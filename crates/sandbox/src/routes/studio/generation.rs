//! A generate request checked against its model and priced ([`plan_generation`]), in the order the service
//! checks: the model, the prompt and its settings, how many outputs, lengths, speech, references (their
//! counts, a lip-sync's speech, then the tokens themselves), the documented fields, the project; then the
//! price. Each part answers the 400 naming its field.
use super::*;
use crate::tables::models;
use api_types::{ModelCapabilities, ModelInfo, References};

/// The model a request names, with what it makes.
struct Target {
    model: ModelInfo,
    content_type: ContentType,
    kind: ModelKind,
}

impl Target {
    fn id(&self) -> &str {
        self.model.model_id.as_str()
    }
    fn caps(&self) -> &ModelCapabilities {
        &self.model.capabilities
    }
}

/// What the checks read out of the request, for the price and the plan.
struct Checked {
    prompt: Option<String>,
    text: Option<String>,
    num_outputs: u32,
    duration: Option<f64>,
    duration_seconds: Option<f64>,
}

/// Validates a generate request against its model and prices it. Reads only (it resolves reference
/// tokens).
pub(super) fn plan_generation(conn: &Connection, account_id: &str, req: &GenerateRequest) -> ApiResult<Plan> {
    let t = target(req)?;
    let prompt = check_prompt(&t, req)?;
    let num_outputs = check_outputs(&t, req)?;
    let (duration, duration_seconds) = check_lengths(&t, req)?;
    let (text, voice_id) = check_speech(&t, req)?;
    let refs = req.references.clone().unwrap_or_default();
    check_reference_counts(&t, &refs)?;
    if t.kind == ModelKind::LipSync {
        check_lip_sync(&t, &refs, &text, &voice_id)?;
    }
    check_reference_tokens(conn, account_id, &refs)?;
    check_documented_fields(req, t.id(), t.content_type, t.kind)?;
    check_project(conn, account_id, req)?;
    let checked = Checked { prompt, text, num_outputs, duration, duration_seconds };
    let (job_kind, seconds, credits) = price(&t, req, &checked);
    Ok(Plan {
        kind: job_kind,
        source: "creation",
        content_type: t.content_type,
        model_id: t.model.model_id.clone(),
        prompt: checked.prompt,
        text: checked.text,
        aspect_ratio: req.aspect_ratio.clone(),
        seconds,
        board_type: None,
        num_outputs,
        credits,
        request: serde_json::to_string(req).unwrap_or_else(|_| "{}".into()),
    })
}

/// The model of `modelId` (an unknown one is refused listing the valid ids) and `contentType` agreeing
/// with it.
fn target(req: &GenerateRequest) -> ApiResult<Target> {
    let model = models::find_model(req.model_id.trim()).ok_or_else(|| {
        let valid = models::model_ids();
        ApiError::InvalidValue {
            message: format!("Unknown `modelId` `{}`; valid model ids: {}", req.model_id, valid.join(", ")),
            field: "modelId".into(),
            valid,
        }
    })?;
    // The sandbox's own registry holds only values this build knows.
    let (Some(content_type), Some(kind)) = (model.content_type.get(), model.kind.get()) else {
        return Err(ApiError::internal("the sandbox registry has a model of an unknown kind"));
    };
    if let Some(ct) = req.content_type {
        if ct != content_type {
            let msg = format!("`contentType` is {} but model {} makes {}", ct.as_str(), model.model_id, content_type.as_str());
            return Err(ApiError::bad("contentType", msg));
        }
    }
    Ok(Target { model, content_type, kind })
}

/// `prompt` as the model takes it (required, none, at most so many characters), and the settings beside it:
/// `aspectRatio`, `resolution`, `negativePrompt`. Answers the prompt, trimmed.
fn check_prompt(t: &Target, req: &GenerateRequest) -> ApiResult<Option<String>> {
    let (id, caps) = (t.id(), t.caps());
    let prompt = non_blank(&req.prompt);
    match (caps.prompt_mode.as_deref(), &prompt) {
        (Some("required"), None) => return Err(ApiError::bad("prompt", format!("`prompt` is required for {id}"))),
        (Some("none"), Some(_)) => {
            let hint = if t.model.is_speech() { " (send the words to speak as `text`)" } else { "" };
            return Err(ApiError::bad("prompt", format!("Model {id} takes no `prompt`{hint}")));
        }
        _ => {}
    }
    if let (Some(max), Some(p)) = (caps.prompt_max_chars, &prompt) {
        if p.chars().count() > max as usize {
            return Err(ApiError::bad("prompt", format!("`prompt` is longer than {max} characters for {id}")));
        }
    }
    if let Some(a) = &req.aspect_ratio {
        check_in_list("aspectRatio", a, &caps.aspect_ratios, id)?;
    }
    if let Some(r) = &req.resolution {
        check_in_list("resolution", r, &caps.resolutions, id)?;
    }
    if non_blank(&req.negative_prompt).is_some() && !caps.negative_prompt {
        return Err(ApiError::bad("negativePrompt", format!("Model {id} does not take `negativePrompt`")));
    }
    Ok(prompt)
}

/// How many outputs: `numImages` for image models, `numGenerations` for video ones, at most the model's.
fn check_outputs(t: &Target, req: &GenerateRequest) -> ApiResult<u32> {
    let (id, max_outputs) = (t.id(), t.caps().max_outputs.unwrap_or(1));
    if let Some(n) = req.num_images {
        if t.content_type != ContentType::Image {
            return Err(ApiError::bad("numImages", format!("`numImages` is for image models; {id} takes `numGenerations`")));
        }
        check_count("numImages", n, max_outputs, id)?;
    }
    if let Some(n) = req.num_generations {
        if t.content_type != ContentType::Video {
            return Err(ApiError::bad("numGenerations", format!("`numGenerations` is for video models; {id} does not take it")));
        }
        check_count("numGenerations", n, max_outputs, id)?;
    }
    Ok(req.num_images.or(req.num_generations).unwrap_or(1))
}

/// Lengths: video clips take `duration`; audio and lip-sync take `durationSeconds` (each within the
/// model's range). Answers both.
fn check_lengths(t: &Target, req: &GenerateRequest) -> ApiResult<(Option<f64>, Option<f64>)> {
    let id = t.id();
    let clip_model = t.content_type == ContentType::Video && t.kind != ModelKind::LipSync;
    let seconds_model = t.kind == ModelKind::LipSync || (t.content_type == ContentType::Audio && !t.model.is_speech());
    let duration = match req.duration {
        Some(d) if clip_model => Some(check_seconds("duration", d, &t.model)?),
        Some(_) => {
            let hint = if seconds_model { "; use `durationSeconds`" } else { "" };
            return Err(ApiError::bad("duration", format!("Model {id} does not take `duration`{hint}")));
        }
        None => None,
    };
    let duration_seconds = match req.duration_seconds {
        Some(d) if seconds_model => Some(check_seconds("durationSeconds", d, &t.model)?),
        Some(_) => {
            let hint = if clip_model { "; use `duration` for the clip length" } else { "" };
            return Err(ApiError::bad("durationSeconds", format!("Model {id} does not take `durationSeconds`{hint}")));
        }
        None => None,
    };
    Ok((duration, duration_seconds))
}

/// Speech: `text` and `voiceId` where the model takes them (a voice model needs both; the voice must be
/// one of `GET /voices`). Answers both, trimmed.
fn check_speech(t: &Target, req: &GenerateRequest) -> ApiResult<(Option<String>, Option<String>)> {
    let (id, caps) = (t.id(), t.caps());
    let text = non_blank(&req.text);
    let voice_id = non_blank(&req.voice_id);
    if let Some(words) = &text {
        if !caps.text {
            return Err(ApiError::bad("text", format!("Model {id} takes no `text`")));
        }
        if words.chars().count() > MAX_TEXT_CHARS {
            return Err(ApiError::bad("text", format!("`text` is longer than {MAX_TEXT_CHARS} characters")));
        }
    }
    if let Some(v) = &voice_id {
        if !caps.voice {
            return Err(ApiError::bad("voiceId", format!("Model {id} takes no `voiceId`")));
        }
        if models::find_voice(v).is_none() {
            let valid: Vec<String> = models::all_voices().into_iter().map(|v| v.voice_id).collect();
            let message = format!("Unknown `voiceId` `{v}`; list voices with GET /voices");
            return Err(ApiError::InvalidValue { message, field: "voiceId".into(), valid });
        }
    }
    if t.model.is_speech() {
        if text.is_none() {
            return Err(ApiError::bad("text", format!("`text` (the words to speak) is required for {id}")));
        }
        if voice_id.is_none() {
            return Err(ApiError::bad("voiceId", format!("`voiceId` is required for {id}; list voices with GET /voices")));
        }
    }
    Ok((text, voice_id))
}

/// How many references of each kind the model takes (an upscale takes exactly the one it upscales).
fn check_reference_counts(t: &Target, refs: &References) -> ApiResult<()> {
    let (id, caps) = (t.id(), t.caps());
    let refuse = |field: &str, msg: String| Err(ApiError::bad(field, msg));
    let max_images = caps.max_reference_images.unwrap_or(0) as usize;
    if refs.images.len() > max_images {
        let msg = if max_images == 0 {
            format!("Model {id} takes no reference images")
        } else {
            format!("Model {id} takes at most {max_images} reference image(s); got {}", refs.images.len())
        };
        return refuse("references.images", msg);
    }
    let video_upscale = t.kind == ModelKind::Upscale && t.content_type == ContentType::Video;
    if video_upscale && refs.videos.len() != 1 {
        return refuse("references.videos", format!("{id} needs exactly one video to upscale in `references.videos`"));
    }
    if !video_upscale && !refs.videos.is_empty() {
        return refuse("references.videos", format!("Model {id} takes no reference videos"));
    }
    if !refs.audio.is_empty() && !caps.audio_reference {
        return refuse("references.audio", format!("Model {id} takes no reference audio"));
    }
    if refs.audio.len() > 1 {
        return refuse("references.audio", format!("Model {id} takes one audio clip"));
    }
    if refs.start_frame.is_some() && !caps.start_frame {
        return refuse("references.startFrame", format!("Model {id} takes no `startFrame`"));
    }
    if refs.end_frame.is_some() && !caps.end_frame {
        return refuse("references.endFrame", format!("Model {id} takes no `endFrame`"));
    }
    if t.kind == ModelKind::Upscale && t.content_type == ContentType::Image && refs.images.len() != 1 {
        return refuse("references.images", format!("{id} needs exactly one image to upscale in `references.images`"));
    }
    Ok(())
}

/// A lip-sync: one portrait, and speech as `references.audio` (its length, when given, prices it) or as
/// `text` with a `voiceId`, not both.
fn check_lip_sync(t: &Target, refs: &References, text: &Option<String>, voice_id: &Option<String>) -> ApiResult<()> {
    let id = t.id();
    if refs.images.len() != 1 {
        return Err(ApiError::bad("references.images", format!("{id} needs the portrait to animate in `references.images`")));
    }
    match (refs.audio.is_empty(), text) {
        (true, None) => Err(ApiError::bad("text", format!("{id} needs speech: `references.audio` or `text` with `voiceId`"))),
        (false, Some(_)) => Err(ApiError::bad("references.audio", "Give either `references.audio` or `text`, not both")),
        (true, Some(_)) if voice_id.is_none() => Err(ApiError::bad("voiceId", format!("`voiceId` is required to speak `text` with {id}"))),
        // From a clip without `durationSeconds`: priced on LIP_SYNC_ESTIMATE_SECONDS (issue 27: the
        // official client treats the length as optional, "improves cost accuracy").
        _ => Ok(()),
    }
}

/// Each reference token names an output or media of this account, of the content type its slot takes.
fn check_reference_tokens(conn: &Connection, account_id: &str, refs: &References) -> ApiResult<()> {
    let lists = [("images", &refs.images, ContentType::Image), ("videos", &refs.videos, ContentType::Video), ("audio", &refs.audio, ContentType::Audio)];
    for (slot, list, content_type) in lists {
        for (i, v) in list.iter().enumerate() {
            check_reference(conn, account_id, v, &format!("references.{slot}[{i}]"), content_type)?;
        }
    }
    if let Some(v) = &refs.start_frame {
        check_reference(conn, account_id, v, "references.startFrame", ContentType::Image)?;
    }
    if let Some(v) = &refs.end_frame {
        check_reference(conn, account_id, v, "references.endFrame", ContentType::Image)?;
    }
    Ok(())
}

/// The result is placed onto a project of this account: one that is not there is a 404, before anything
/// is charged.
fn check_project(conn: &Connection, account_id: &str, req: &GenerateRequest) -> ApiResult<()> {
    let Some(project) = &req.project_id else { return Ok(()) };
    let found = conn
        .query_row("SELECT 1 FROM projects WHERE id = ?1 AND account_id = ?2", [project, account_id], |_| Ok(()))
        .optional()
        .map_err(ApiError::from)?;
    match found {
        Some(()) => Ok(()),
        None => Err(ApiError::not_found(&format!("Project {project}"))),
    }
}

/// The job's kind, its length in seconds where it has one, and its price in credits.
fn price(t: &Target, req: &GenerateRequest, c: &Checked) -> (JobKind, Option<f64>, f64) {
    let speech_seconds = |words: &str| (words.chars().count() as f64 / SPEECH_CHARS_PER_SECOND).ceil().max(1.0);
    let outputs = c.num_outputs as f64;
    match (t.content_type, t.kind) {
        (ContentType::Image, ModelKind::Upscale) => (JobKind::ImageUpscale, None, UPSCALE_PRICE * upscale_multiplier(req)),
        (ContentType::Image, _) => (JobKind::Image, None, image_price_per_output(t.id()) * outputs),
        (ContentType::Video, ModelKind::Upscale) => (JobKind::VideoUpscale, c.duration, UPSCALE_PRICE * upscale_multiplier(req)),
        (ContentType::Video, ModelKind::LipSync) => {
            let secs = c.duration_seconds.or(c.text.as_deref().map(speech_seconds)).unwrap_or(super::LIP_SYNC_ESTIMATE_SECONDS);
            (JobKind::LipSync, Some(secs), LIP_SYNC_PRICE_PER_SECOND * secs.ceil())
        }
        (ContentType::Video, _) => {
            let secs = c.duration.unwrap_or_else(|| {
                let r = t.caps().duration_seconds.unwrap_or(api_types::NumRange { min: 1.0, max: 60.0 });
                DEFAULT_VIDEO_SECONDS.clamp(r.min, r.max)
            });
            let sound = if req.audio_enabled == Some(true) { VIDEO_AUDIO_MULTIPLIER } else { 1.0 };
            (JobKind::Video, Some(secs), VIDEO_PRICE_PER_SECOND * secs.ceil() * outputs * sound)
        }
        (ContentType::Audio, _) if t.model.is_speech() => {
            let words = c.text.as_deref().unwrap_or("");
            let credits = (words.chars().count() as f64 / TTS_CHARS_PER_CREDIT).ceil().max(1.0);
            (JobKind::Audio, Some(speech_seconds(words)), credits)
        }
        (ContentType::Audio, _) => {
            let default = if t.id() == "elevenlabs-music" { 30.0 } else { 5.0 };
            let secs = c.duration_seconds.unwrap_or(default);
            (JobKind::Audio, Some(secs), AUDIO_PRICE_PER_10_SECONDS * (secs / 10.0).ceil())
        }
    }
}
