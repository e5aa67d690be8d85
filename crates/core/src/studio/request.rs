//! The studio's form → the wire request, checked before anything is sent (what the core can know without asking).
use super::*;

/// The request actually sent; stored with the job so a resend is byte-for-byte the same.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "endpoint", content = "body", rename_all = "camelCase")]
#[allow(clippy::large_enum_variant)] // one per job, stored and sent as JSON: a Box would buy nothing
pub enum StoredRequest {
    Generate(GenerateRequest),
    Board(BoardRequest),
}

pub(super) fn clean(v: &Option<String>) -> Option<String> {
    v.as_ref().map(|s| s.trim().to_string()).filter(|s| !s.is_empty())
}

/// `true` for `<uuid>`, `<uuid>-<N>` (N ≥ 1) and the 8-character short forms (facts 3.1): the uuid's first
/// 8 characters or the newest era's `shortId` (letters and digits), each optionally `-<N>`. The cases are
/// `crates/api-types/fixtures/output-tokens.json`, shared with the UI's check.
pub fn is_output_token(s: &str) -> bool {
    let hex = |p: &str, n: usize| p.len() == n && p.bytes().all(|b| b.is_ascii_hexdigit());
    let short = |p: &str| p.len() == 8 && p.bytes().all(|b| b.is_ascii_alphanumeric());
    let variation = |p: &str| !p.starts_with('+') && p.parse::<u32>().is_ok_and(|n| n >= 1);
    let parts: Vec<&str> = s.split('-').collect();
    match parts.len() {
        1 => short(parts[0]),
        2 => short(parts[0]) && variation(parts[1]),
        5 | 6 => {
            let uuid = hex(parts[0], 8) && hex(parts[1], 4) && hex(parts[2], 4) && hex(parts[3], 4) && hex(parts[4], 12);
            uuid && (parts.len() == 5 || variation(parts[5]))
        }
        _ => false,
    }
}

/// A reference is an http(s) URL or an output token.
pub(super) fn check_reference(field: &str, v: &str) -> IpcResult<String> {
    let v = v.trim();
    if is_output_token(v) {
        return Ok(v.to_string());
    }
    match url::Url::parse(v) {
        Ok(u) if (u.scheme() == "https" || u.scheme() == "http") && u.host_str().is_some() => Ok(v.to_string()),
        _ => Err(IpcError::validation(
            field,
            format!("“{v}” is neither a web address (https://…) nor an output token (<uuid>-<N>, e.g. from the gallery's “Copy token”)."),
        )),
    }
}

pub(super) fn check_references(r: &Option<References>) -> IpcResult<Option<References>> {
    let Some(r) = r else { return Ok(None) };
    let list = |field: &str, vs: &[String]| -> IpcResult<Vec<String>> {
        vs.iter().filter(|v| !v.trim().is_empty()).map(|v| check_reference(field, v)).collect()
    };
    let one = |field: &str, v: &Option<String>| -> IpcResult<Option<String>> {
        clean(v).map(|v| check_reference(field, &v)).transpose()
    };
    let out = References {
        images: list("references.images", &r.images)?,
        videos: list("references.videos", &r.videos)?,
        audio: list("references.audio", &r.audio)?,
        start_frame: one("references.startFrame", &r.start_frame)?,
        end_frame: one("references.endFrame", &r.end_frame)?,
        ..Default::default()
    };
    Ok((!out.is_empty()).then_some(out))
}

/// The wire request for a form, with everything checked that can be without asking the service.
pub fn request_for(form: &StudioForm) -> IpcResult<StoredRequest> {
    if let Some(n) = form.num_outputs {
        if !(1..=4).contains(&n) {
            return Err(IpcError::validation("numOutputs", "Ask for 1 to 4 outputs."));
        }
    }
    for (field, v) in [("duration", form.duration), ("durationSeconds", form.duration_seconds)] {
        if v.is_some_and(|d| !d.is_finite() || d <= 0.0) {
            return Err(IpcError::validation(field, "A length is a number of seconds above 0."));
        }
    }
    let references = check_references(&form.references)?;
    if form.media == StudioMedia::Board {
        let board_type = clean(&form.board_type)
            .ok_or_else(|| IpcError::validation("boardType", "Choose what the board shows (character, pose, location, …)."))?;
        if !api_types::BOARD_TYPES.contains(&board_type.as_str()) {
            return Err(IpcError {
                valid_values: api_types::BOARD_TYPES.iter().map(|s| s.to_string()).collect(),
                ..IpcError::validation("boardType", format!("“{board_type}” is not a board type."))
            });
        }
        let images = references.map(|r| r.images).unwrap_or_default();
        let prompt = clean(&form.prompt);
        if prompt.is_none() && images.is_empty() {
            return Err(IpcError::validation("prompt", "Describe the board, or give it reference images."));
        }
        return Ok(StoredRequest::Board(BoardRequest {
            board_type,
            prompt,
            reference_images: images,
            num_images: form.num_outputs,
            board_name: clean(&form.board_name),
            output_id: None,
            get_cost: None,
            ..Default::default()
        }));
    }
    let upscale_factor = clean(&form.upscale_factor);
    if let Some(f) = &upscale_factor {
        if form.media != StudioMedia::Upscale {
            return Err(IpcError::validation("upscaleFactor", "Only an upscale has a factor."));
        }
        if !api_types::UPSCALE_FACTORS.contains(&f.as_str()) {
            return Err(IpcError {
                valid_values: api_types::UPSCALE_FACTORS.iter().map(|s| s.to_string()).collect(),
                ..IpcError::validation("upscaleFactor", format!("“{f}” is not an upscale factor: use one of {}.", api_types::UPSCALE_FACTORS.join(", ")))
            });
        }
    }
    let model_id = clean(&form.model_id).ok_or_else(|| IpcError::validation("modelId", "Choose a model."))?;
    if form.media == StudioMedia::Upscale {
        // One source: an image (`references.images`) or a video (`references.videos`, with its length).
        let r = references.clone().unwrap_or_default();
        let content_type = match (r.images.len(), r.videos.len()) {
            (1, 0) => ContentType::Image,
            (0, 1) => ContentType::Video,
            (0, 0) => return Err(IpcError::validation("references", "Give the image or video to upscale: its output token or web address.")),
            _ => return Err(IpcError::validation("references", "Upscale one image or one video at a time.")),
        };
        if content_type == ContentType::Video && form.duration.is_none() {
            return Err(IpcError::validation("duration", "Give the video's length in seconds (it sets the price)."));
        }
        return Ok(StoredRequest::Generate(GenerateRequest {
            model_id,
            content_type: Some(content_type),
            references: Some(r),
            duration: (content_type == ContentType::Video).then_some(form.duration).flatten(),
            upscale_factor,
            ..Default::default()
        }));
    }
    let (num_images, num_generations) = match form.media {
        StudioMedia::Image => (form.num_outputs, None),
        StudioMedia::Video => (None, form.num_outputs),
        _ => (None, None),
    };
    Ok(StoredRequest::Generate(GenerateRequest {
        model_id,
        content_type: Some(form.media.content_type()),
        prompt: clean(&form.prompt),
        aspect_ratio: clean(&form.aspect_ratio),
        resolution: clean(&form.resolution),
        num_images,
        num_generations,
        duration: form.duration,
        negative_prompt: clean(&form.negative_prompt),
        references,
        text: clean(&form.text),
        voice_id: clean(&form.voice_id),
        duration_seconds: form.duration_seconds,
        ..Default::default()
    }))
}

impl StoredRequest {
    pub(super) fn with_output_id(self, id: &str) -> StoredRequest {
        match self {
            StoredRequest::Generate(r) => StoredRequest::Generate(GenerateRequest { output_id: Some(id.into()), ..r }),
            StoredRequest::Board(r) => StoredRequest::Board(BoardRequest { output_id: Some(id.into()), ..r }),
        }
    }
    pub(super) fn model_id(&self) -> String {
        match self {
            StoredRequest::Generate(r) => r.model_id.clone(),
            StoredRequest::Board(r) => format!("reference-board:{}", r.board_type),
        }
    }
    pub(super) async fn quote(&self, client: &Client) -> Result<CostEstimate, ApiError> {
        match self {
            StoredRequest::Generate(r) => client.studio().quote(r).await,
            StoredRequest::Board(r) => client.studio().quote_board(r).await,
        }
    }
    pub(super) async fn send(&self, client: &Client) -> Result<GenerateResult, ApiError> {
        match self {
            StoredRequest::Generate(r) => client.studio().generate(r).await,
            StoredRequest::Board(r) => client.studio().board(r).await,
        }
    }
}
