//! Validation and pricing: a generate or board request checked against the model's capabilities and priced, before anything is stored.
use super::*;

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
