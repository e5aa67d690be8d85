//! Validation and pricing: a generate or board request checked against the model's capabilities and priced, before anything is stored.
use super::*;
use crate::tables::models;

pub(super) fn parse_output_id(raw: &str) -> ApiResult<String> {
    uuid::Uuid::parse_str(raw.trim())
        .map(|u| u.hyphenated().to_string())
        .map_err(|_| {
            ApiError::bad(
                "outputId",
                format!("`outputId` must be a UUID (the idempotency key you mint); got `{raw}`"),
            )
        })
}

pub(super) fn non_blank(s: &Option<String>) -> Option<String> {
    s.as_deref()
        .map(str::trim)
        .filter(|s| !s.is_empty())
        .map(String::from)
}

pub(super) fn check_in_list(field: &str, value: &str, list: &[String], model: &str) -> ApiResult<()> {
    if list.is_empty() {
        return Err(ApiError::bad(
            field,
            format!("Model {model} does not take `{field}`"),
        ));
    }
    if !list.iter().any(|v| v == value) {
        return Err(ApiError::InvalidValue {
            message: format!(
                "`{field}` `{value}` is not offered by {model}; valid values: {}",
                list.join(", ")
            ),
            field: field.into(),
            valid: list.to_vec(),
        });
    }
    Ok(())
}

pub(super) fn check_count(field: &str, n: u32, max: u32, model: &str) -> ApiResult<()> {
    if n < 1 || n > max {
        return Err(ApiError::bad(
            field,
            format!("`{field}` must be between 1 and {max} for {model}; got {n}"),
        ));
    }
    Ok(())
}

pub(super) fn check_seconds(field: &str, secs: f64, model: &ModelInfo) -> ApiResult<f64> {
    let Some(range) = model.capabilities.duration_seconds else {
        return Err(ApiError::bad(
            field,
            format!("Model {} does not take `{field}`", model.model_id),
        ));
    };
    if !secs.is_finite() || secs < range.min || secs > range.max {
        return Err(ApiError::bad(
            field,
            format!(
                "`{field}` must be between {} and {} seconds for {}; got {secs}",
                range.min, range.max, model.model_id
            ),
        ));
    }
    Ok(secs)
}

/// Validates a generate request against its model and prices it. Reads only (it resolves reference
/// tokens).
pub(super) fn plan_generation(conn: &Connection, account_id: &str, req: &GenerateRequest) -> ApiResult<Plan> {
    let model = models::find_model(req.model_id.trim()).ok_or_else(|| {
        let valid = models::model_ids();
        ApiError::InvalidValue {
            message: format!(
                "Unknown `modelId` `{}`; valid model ids: {}",
                req.model_id,
                valid.join(", ")
            ),
            field: "modelId".into(),
            valid,
        }
    })?;
    // The sandbox's own registry holds only values this build knows.
    let (Some(content_type), Some(kind)) = (model.content_type.get(), model.kind.get()) else {
        return Err(ApiError::internal("the sandbox registry has a model of an unknown kind"));
    };
    let id = model.model_id.as_str();
    let caps = &model.capabilities;
    if let Some(ct) = req.content_type {
        if ct != content_type {
            return Err(ApiError::bad(
                "contentType",
                format!(
                    "`contentType` is {} but model {id} makes {}",
                    ct.as_str(),
                    content_type.as_str()
                ),
            ));
        }
    }

    let prompt = non_blank(&req.prompt);
    match (caps.prompt_mode.as_deref(), &prompt) {
        (Some("required"), None) => {
            return Err(ApiError::bad(
                "prompt",
                format!("`prompt` is required for {id}"),
            ))
        }
        (Some("none"), Some(_)) => {
            let hint = if kind == ModelKind::Voice {
                " (send the words to speak as `text`)"
            } else {
                ""
            };
            return Err(ApiError::bad(
                "prompt",
                format!("Model {id} takes no `prompt`{hint}"),
            ));
        }
        _ => {}
    }
    if let (Some(max), Some(p)) = (caps.prompt_max_chars, &prompt) {
        if p.chars().count() > max as usize {
            return Err(ApiError::bad(
                "prompt",
                format!("`prompt` is longer than {max} characters for {id}"),
            ));
        }
    }
    if let Some(a) = &req.aspect_ratio {
        check_in_list("aspectRatio", a, &caps.aspect_ratios, id)?;
    }
    if let Some(r) = &req.resolution {
        check_in_list("resolution", r, &caps.resolutions, id)?;
    }
    if non_blank(&req.negative_prompt).is_some() && !caps.negative_prompt {
        return Err(ApiError::bad(
            "negativePrompt",
            format!("Model {id} does not take `negativePrompt`"),
        ));
    }

    // How many outputs.
    let max_outputs = caps.max_outputs.unwrap_or(1);
    if let Some(n) = req.num_images {
        if content_type != ContentType::Image {
            return Err(ApiError::bad(
                "numImages",
                format!("`numImages` is for image models; {id} takes `numGenerations`"),
            ));
        }
        check_count("numImages", n, max_outputs, id)?;
    }
    if let Some(n) = req.num_generations {
        if content_type != ContentType::Video {
            return Err(ApiError::bad(
                "numGenerations",
                format!("`numGenerations` is for video models; {id} does not take it"),
            ));
        }
        check_count("numGenerations", n, max_outputs, id)?;
    }
    let num_outputs = req.num_images.or(req.num_generations).unwrap_or(1);

    // Lengths: video clips take `duration`; audio and lip-sync take `durationSeconds`.
    let clip_model = content_type == ContentType::Video && kind != ModelKind::LipSync;
    let seconds_model = kind == ModelKind::LipSync
        || (content_type == ContentType::Audio && kind != ModelKind::Voice);
    let duration = match req.duration {
        Some(d) if clip_model => Some(check_seconds("duration", d, &model)?),
        Some(_) => {
            let hint = if seconds_model {
                "; use `durationSeconds`"
            } else {
                ""
            };
            return Err(ApiError::bad(
                "duration",
                format!("Model {id} does not take `duration`{hint}"),
            ));
        }
        None => None,
    };
    let duration_seconds = match req.duration_seconds {
        Some(d) if seconds_model => Some(check_seconds("durationSeconds", d, &model)?),
        Some(_) => {
            let hint = if clip_model {
                "; use `duration` for the clip length"
            } else {
                ""
            };
            return Err(ApiError::bad(
                "durationSeconds",
                format!("Model {id} does not take `durationSeconds`{hint}"),
            ));
        }
        None => None,
    };

    // Speech.
    let text = non_blank(&req.text);
    let voice_id = non_blank(&req.voice_id);
    if let Some(t) = &text {
        if !caps.text {
            return Err(ApiError::bad("text", format!("Model {id} takes no `text`")));
        }
        if t.chars().count() > MAX_TEXT_CHARS {
            return Err(ApiError::bad(
                "text",
                format!("`text` is longer than {MAX_TEXT_CHARS} characters"),
            ));
        }
    }
    if let Some(v) = &voice_id {
        if !caps.voice {
            return Err(ApiError::bad(
                "voiceId",
                format!("Model {id} takes no `voiceId`"),
            ));
        }
        if models::find_voice(v).is_none() {
            let valid: Vec<String> = models::all_voices()
                .into_iter()
                .map(|v| v.voice_id)
                .collect();
            return Err(ApiError::InvalidValue {
                message: format!("Unknown `voiceId` `{v}`; list voices with GET /voices"),
                field: "voiceId".into(),
                valid,
            });
        }
    }
    if kind == ModelKind::Voice {
        if text.is_none() {
            return Err(ApiError::bad(
                "text",
                format!("`text` (the words to speak) is required for {id}"),
            ));
        }
        if voice_id.is_none() {
            return Err(ApiError::bad(
                "voiceId",
                format!("`voiceId` is required for {id}; list voices with GET /voices"),
            ));
        }
    }

    // References.
    let refs = req.references.clone().unwrap_or_default();
    let max_images = caps.max_reference_images.unwrap_or(0) as usize;
    if refs.images.len() > max_images {
        let msg = if max_images == 0 {
            format!("Model {id} takes no reference images")
        } else {
            format!(
                "Model {id} takes at most {max_images} reference image(s); got {}",
                refs.images.len()
            )
        };
        return Err(ApiError::bad("references.images", msg));
    }
    let video_upscale =
        kind == ModelKind::Upscale && content_type == ContentType::Video;
    if video_upscale && refs.videos.len() != 1 {
        return Err(ApiError::bad(
            "references.videos",
            format!("{id} needs exactly one video to upscale in `references.videos`"),
        ));
    }
    if !video_upscale && !refs.videos.is_empty() {
        return Err(ApiError::bad(
            "references.videos",
            format!("Model {id} takes no reference videos"),
        ));
    }
    if !refs.audio.is_empty() && !caps.audio_reference {
        return Err(ApiError::bad(
            "references.audio",
            format!("Model {id} takes no reference audio"),
        ));
    }
    if refs.audio.len() > 1 {
        return Err(ApiError::bad(
            "references.audio",
            format!("Model {id} takes one audio clip"),
        ));
    }
    if refs.start_frame.is_some() && !caps.start_frame {
        return Err(ApiError::bad(
            "references.startFrame",
            format!("Model {id} takes no `startFrame`"),
        ));
    }
    if refs.end_frame.is_some() && !caps.end_frame {
        return Err(ApiError::bad(
            "references.endFrame",
            format!("Model {id} takes no `endFrame`"),
        ));
    }
    if kind == ModelKind::Upscale
        && content_type == ContentType::Image
        && refs.images.len() != 1
    {
        return Err(ApiError::bad(
            "references.images",
            format!("{id} needs exactly one image to upscale in `references.images`"),
        ));
    }
    if kind == ModelKind::LipSync {
        if refs.images.len() != 1 {
            return Err(ApiError::bad(
                "references.images",
                format!("{id} needs the portrait to animate in `references.images`"),
            ));
        }
        match (refs.audio.is_empty(), &text) {
            (true, None) => {
                return Err(ApiError::bad("text", format!("{id} needs speech: `references.audio` or `text` with `voiceId`")))
            }
            (false, Some(_)) => {
                return Err(ApiError::bad("references.audio", "Give either `references.audio` or `text`, not both"))
            }
            (true, Some(_)) if voice_id.is_none() => {
                return Err(ApiError::bad("voiceId", format!("`voiceId` is required to speak `text` with {id}")))
            }
            // From a clip without `durationSeconds`: priced on LIP_SYNC_ESTIMATE_SECONDS (issue 27: the
            // official client treats the length as optional, "improves cost accuracy").
            _ => {}
        }
    }
    for (i, v) in refs.images.iter().enumerate() {
        check_reference(
            conn,
            account_id,
            v,
            &format!("references.images[{i}]"),
            ContentType::Image,
        )?;
    }
    for (i, v) in refs.videos.iter().enumerate() {
        check_reference(
            conn,
            account_id,
            v,
            &format!("references.videos[{i}]"),
            ContentType::Video,
        )?;
    }
    for (i, v) in refs.audio.iter().enumerate() {
        check_reference(
            conn,
            account_id,
            v,
            &format!("references.audio[{i}]"),
            ContentType::Audio,
        )?;
    }
    if let Some(v) = &refs.start_frame {
        check_reference(
            conn,
            account_id,
            v,
            "references.startFrame",
            ContentType::Image,
        )?;
    }
    if let Some(v) = &refs.end_frame {
        check_reference(
            conn,
            account_id,
            v,
            "references.endFrame",
            ContentType::Image,
        )?;
    }

    // Kind, length and price.
    let speech_seconds = |t: &str| {
        (t.chars().count() as f64 / SPEECH_CHARS_PER_SECOND)
            .ceil()
            .max(1.0)
    };
    check_documented_fields(req, id, content_type, kind)?;
    if let Some(project) = &req.project_id {
        // The result is placed onto a project of this account: one that is not there is a 404, before anything is charged.
        let found = conn
            .query_row("SELECT 1 FROM projects WHERE id = ?1 AND account_id = ?2", [project, account_id], |_| Ok(()))
            .optional()
            .map_err(ApiError::from)?;
        if found.is_none() {
            return Err(ApiError::not_found(&format!("Project {project}")));
        }
    }
    let (job_kind, seconds, credits) = match (content_type, kind) {
        (ContentType::Image, ModelKind::Upscale) => (JobKind::ImageUpscale, None, UPSCALE_PRICE * upscale_multiplier(req)),
        (ContentType::Image, _) => (
            JobKind::Image,
            None,
            image_price_per_output(id) * num_outputs as f64,
        ),
        (ContentType::Video, ModelKind::Upscale) => {
            (JobKind::VideoUpscale, duration, UPSCALE_PRICE * upscale_multiplier(req))
        }
        (ContentType::Video, ModelKind::LipSync) => {
            let secs = duration_seconds
                .or(text.as_deref().map(speech_seconds))
                .unwrap_or(super::LIP_SYNC_ESTIMATE_SECONDS);
            (
                JobKind::LipSync,
                Some(secs),
                LIP_SYNC_PRICE_PER_SECOND * secs.ceil(),
            )
        }
        (ContentType::Video, _) => {
            let secs = duration.unwrap_or_else(|| {
                let r = caps.duration_seconds.unwrap_or(api_types::NumRange {
                    min: 1.0,
                    max: 60.0,
                });
                DEFAULT_VIDEO_SECONDS.clamp(r.min, r.max)
            });
            let sound = if req.audio_enabled == Some(true) { VIDEO_AUDIO_MULTIPLIER } else { 1.0 };
            (
                JobKind::Video,
                Some(secs),
                VIDEO_PRICE_PER_SECOND * secs.ceil() * num_outputs as f64 * sound,
            )
        }
        (ContentType::Audio, ModelKind::Voice) => {
            let t = text.as_deref().unwrap_or("");
            let credits = (t.chars().count() as f64 / TTS_CHARS_PER_CREDIT)
                .ceil()
                .max(1.0);
            (JobKind::Audio, Some(speech_seconds(t)), credits)
        }
        (ContentType::Audio, _) => {
            let default = if id == "elevenlabs-music" { 30.0 } else { 5.0 };
            let secs = duration_seconds.unwrap_or(default);
            (
                JobKind::Audio,
                Some(secs),
                AUDIO_PRICE_PER_10_SECONDS * (secs / 10.0).ceil(),
            )
        }
    };
    Ok(Plan {
        kind: job_kind,
        source: "creation",
        content_type,
        model_id: model.model_id.clone(),
        prompt,
        text,
        aspect_ratio: req.aspect_ratio.clone(),
        seconds,
        board_type: None,
        num_outputs,
        credits,
        request: serde_json::to_string(req).unwrap_or_else(|_| "{}".into()),
    })
}

/// The documented fields the sandbox cannot render but checks (fact sheet 3.1): a wrong value is a 400
/// naming the field, as the service's validation would be.
pub(super) fn check_documented_fields(req: &GenerateRequest, id: &str, content_type: ContentType, kind: ModelKind) -> ApiResult<()> {
    let refuse = |field: &str, msg: String| Err(ApiError::bad(field, msg));
    if let Some(f) = &req.upscale_factor {
        if kind != ModelKind::Upscale {
            return refuse("upscaleFactor", format!("Model {id} does not upscale; `upscaleFactor` is for upscale models"));
        }
        if !api_types::UPSCALE_FACTORS.contains(&f.as_str()) {
            return Err(ApiError::not_one_of("upscaleFactor", f, api_types::UPSCALE_FACTORS));
        }
    }
    if req.audio_enabled.is_some() && (content_type != ContentType::Video || kind != ModelKind::Generate) {
        return refuse("audioEnabled", format!("`audioEnabled` is for video generation models; {id} does not take it"));
    }
    if req.keep_input_length.is_some() && content_type != ContentType::Video {
        return refuse("keepInputLength", format!("`keepInputLength` is for video models; {id} does not take it"));
    }
    if let Some(q) = &req.quality {
        if q.trim().is_empty() || q.len() > 32 {
            return refuse("quality", "`quality` must be a mode name of 1 to 32 characters".into());
        }
    }
    if let Some(p) = &req.parameters {
        if !p.is_object() {
            return refuse("parameters", "`parameters` must be an object of model-specific settings".into());
        }
    }
    if let Some(p) = req.prompt_influence {
        if id != "elevenlabs-sound-effects" {
            return refuse("promptInfluence", format!("`promptInfluence` is for sound effects; {id} does not take it"));
        }
        if !(0.0..=1.0).contains(&p) {
            return refuse("promptInfluence", format!("`promptInfluence` must be between 0 and 1; got {p}"));
        }
    }
    if req.voice_name.is_some() && req.voice_id.is_none() {
        return refuse("voiceName", "`voiceName` names the voice given in `voiceId`; send `voiceId` too".into());
    }
    if req.placement.as_ref().is_some_and(|p| !p.is_object()) {
        return refuse("placement", "`placement` must be an object (`{ \"mode\": \"append\" }`, …)".into());
    }
    if req.placement.is_some() && req.project_id.is_none() {
        return refuse("placement", "`placement` places the result on a project; send `projectId` too".into());
    }
    if req.playhead_frame.is_some_and(|f| f < 0.0) {
        return refuse("playheadFrame", "`playheadFrame` must be 0 or more".into());
    }
    if req.avatar_id.is_some() && content_type != ContentType::Image {
        return refuse("avatarId", format!("`avatarId` files an image as an avatar look; {id} does not make images"));
    }
    if let Some(params) = req.parameters.as_ref().and_then(|p| p.as_object()) {
        check_shots(params, id, content_type, kind)?;
    }
    if let Some(refs) = &req.references {
        if !refs.elements.is_empty() && (content_type != ContentType::Video || kind != ModelKind::Generate) {
            return refuse("references.elements", format!("Model {id} takes no reference elements"));
        }
        for (i, e) in refs.elements.iter().enumerate() {
            if e.element_id.is_none() && e.name.as_deref().is_none_or(|n| n.trim().is_empty()) {
                return refuse(
                    &format!("references.elements[{i}]"),
                    "an element needs `elementId` (a saved element) or `name` (one described here)".into(),
                );
            }
        }
    }
    Ok(())
}

/// Multi-shot video (`parameters.multiShot`, `parameters.shots`, fact sheet 3.1): video generation models
/// only; `shots` is a list of `{prompt, duration}`, each shot 1 to 12 seconds, 15 seconds in all.
fn check_shots(params: &serde_json::Map<String, serde_json::Value>, id: &str, content_type: ContentType, kind: ModelKind) -> ApiResult<()> {
    let refuse = |field: &str, msg: String| Err(ApiError::bad(field, msg));
    let video = content_type == ContentType::Video && kind == ModelKind::Generate;
    if let Some(m) = params.get("multiShot") {
        if !m.is_boolean() {
            return refuse("parameters.multiShot", "`multiShot` must be true or false".into());
        }
        if !video {
            return refuse("parameters.multiShot", format!("Model {id} makes no multi-shot video"));
        }
    }
    let Some(shots) = params.get("shots") else { return Ok(()) };
    if !video {
        return refuse("parameters.shots", format!("Model {id} makes no multi-shot video"));
    }
    let Some(list) = shots.as_array().filter(|l| !l.is_empty()) else {
        return refuse("parameters.shots", "`shots` must be a list of `{prompt, duration}`, at least one".into());
    };
    let mut total = 0.0;
    for (i, shot) in list.iter().enumerate() {
        let duration = shot.get("duration").and_then(|d| d.as_f64());
        let Some(d) = duration.filter(|d| (1.0..=12.0).contains(d)) else {
            return refuse(&format!("parameters.shots[{i}].duration"), "each shot lasts 1 to 12 seconds (`duration`)".into());
        };
        if shot.get("prompt").is_some_and(|p| !p.is_string()) {
            return refuse(&format!("parameters.shots[{i}].prompt"), "a shot's `prompt` is text".into());
        }
        total += d;
    }
    if total > 15.0 {
        return refuse("parameters.shots", format!("the shots last {total} seconds in all; at most 15"));
    }
    Ok(())
}

/// `4x` costs twice `2x` (the default).
pub(super) fn upscale_multiplier(req: &GenerateRequest) -> f64 {
    if req.upscale_factor.as_deref() == Some("4x") { 2.0 } else { 1.0 }
}

pub(super) fn plan_board(conn: &Connection, account_id: &str, req: &BoardRequest) -> ApiResult<Plan> {
    let board_type = req.board_type.trim().to_ascii_lowercase();
    if !BOARD_TYPES.contains(&board_type.as_str()) {
        let valid: Vec<String> = BOARD_TYPES.iter().map(|s| s.to_string()).collect();
        return Err(ApiError::InvalidValue {
            message: format!(
                "Unknown `boardType` `{}`; valid values: {}",
                req.board_type,
                valid.join(", ")
            ),
            field: "boardType".into(),
            valid,
        });
    }
    let prompt = non_blank(&req.prompt);
    if prompt.is_none() && req.reference_images.is_empty() {
        return Err(ApiError::bad(
            "prompt",
            "`prompt` is required when no `referenceImages` are given",
        ));
    }
    if let Some(p) = &prompt {
        if p.chars().count() > 5000 {
            return Err(ApiError::bad(
                "prompt",
                "`prompt` is longer than 5000 characters",
            ));
        }
    }
    let n = req.num_images.unwrap_or(1);
    check_count("numImages", n, 4, BOARD_MODEL_ID)?;
    if req.reference_images.len() > MAX_BOARD_REFERENCES {
        return Err(ApiError::bad(
            "referenceImages",
            format!("At most {MAX_BOARD_REFERENCES} `referenceImages`"),
        ));
    }
    for (i, v) in req.reference_images.iter().enumerate() {
        check_reference(
            conn,
            account_id,
            v,
            &format!("referenceImages[{i}]"),
            ContentType::Image,
        )?;
    }
    Ok(Plan {
        kind: JobKind::Board,
        source: "board",
        content_type: ContentType::Image,
        model_id: BOARD_MODEL_ID.into(),
        prompt,
        text: None,
        aspect_ratio: Some("3:4".into()),
        seconds: None,
        board_type: Some(board_type),
        num_outputs: n,
        credits: BOARD_PRICE_PER_IMAGE * n as f64,
        request: serde_json::to_string(req).unwrap_or_else(|_| "{}".into()),
    })
}
