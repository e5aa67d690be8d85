//! The sandbox's model registry and its voices, served by `routes::models` and validated against by
//! `POST /studio/generate`. Static data, no table: the sandbox runs no models, so its registry is the list of
//! what it will accept, with the capabilities `POST /studio/generate` validates against. No prices here
//! (the registry never carries them, fact sheet 3.13): prices live in `studio::price`.
//!
//! Each model is written here in the flat shape `api-types` reads into ([`ModelCapabilities`]) and served
//! as the service sends it ([`service_capabilities`]): nested (`resolution.supported`,
//! `aspectRatio.supported`, `duration {mode,…}`, `generations {min,max,default}`, `maxImageRefs`,
//! `inputTypes`, `features {voiceId}`) with the operation's `kind`, as the official client (0.3.4) and the
//! drift fixtures (`crates/api-client/tests/drift/spec/models-list.json`) read it. Generation validates
//! against what a client reads back from the served form, so the two cannot drift apart.
use api_types::{
    ContentType, ModelCapabilities, ModelInfo, ModelKind, NumRange, Voice,
};
use serde_json::{json, Map, Value};

const IMAGE_ASPECTS: &[&str] = &[
    "1:1", "16:9", "9:16", "4:3", "3:4", "4:5", "5:4", "3:2", "2:3", "21:9",
];

fn strings(v: &[&str]) -> Vec<String> {
    v.iter().map(|s| s.to_string()).collect()
}

fn range(min: f64, max: f64) -> Option<NumRange> {
    Some(NumRange { min, max })
}

struct Entry {
    id: &'static str,
    name: &'static str,
    description: &'static str,
    content_type: ContentType,
    kind: ModelKind,
    tags: &'static [&'static str],
    is_default: bool,
    caps: ModelCapabilities,
}

fn image_model(
    id: &'static str,
    name: &'static str,
    description: &'static str,
    resolutions: &[&str],
    refs: u32,
) -> Entry {
    Entry {
        id,
        name,
        description,
        content_type: ContentType::Image,
        kind: ModelKind::Generate,
        tags: &["text-to-image", "image-to-image"],
        is_default: false,
        caps: ModelCapabilities {
            output_type: Some("image".into()),
            prompt_mode: Some("required".into()),
            aspect_ratios: strings(IMAGE_ASPECTS),
            resolutions: strings(resolutions),
            max_outputs: Some(4),
            max_reference_images: Some(refs),
            prompt_max_chars: Some(5000),
            ..Default::default()
        },
    }
}

#[allow(clippy::too_many_arguments)]
fn video_model(
    id: &'static str,
    name: &'static str,
    description: &'static str,
    aspects: &[&str],
    resolutions: &[&str],
    seconds: (f64, f64),
    refs: u32,
    negative: bool,
) -> Entry {
    Entry {
        id,
        name,
        description,
        content_type: ContentType::Video,
        kind: ModelKind::Generate,
        tags: &["text-to-video", "image-to-video"],
        is_default: false,
        caps: ModelCapabilities {
            output_type: Some("video".into()),
            prompt_mode: Some("required".into()),
            aspect_ratios: strings(aspects),
            resolutions: strings(resolutions),
            duration_seconds: range(seconds.0, seconds.1),
            max_outputs: Some(4),
            max_reference_images: Some(refs),
            start_frame: true,
            end_frame: true,
            negative_prompt: negative,
            prompt_max_chars: Some(2500),
            ..Default::default()
        },
    }
}

fn lip_sync_model(
    id: &'static str,
    name: &'static str,
    description: &'static str,
    resolutions: &[&str],
) -> Entry {
    Entry {
        id,
        name,
        description,
        content_type: ContentType::Video,
        kind: ModelKind::LipSync,
        tags: &["lip-sync", "avatar"],
        is_default: false,
        caps: ModelCapabilities {
            output_type: Some("video".into()),
            // The prompt is an optional motion hint.
            prompt_mode: Some("optional".into()),
            resolutions: strings(resolutions),
            // Length of the speech, from `durationSeconds`.
            duration_seconds: range(1.0, 60.0),
            max_outputs: Some(1),
            max_reference_images: Some(1),
            max_reference_audios: Some(1),
            voice: true,
            text: true,
            audio_reference: true,
            prompt_max_chars: Some(1000),
            ..Default::default()
        },
    }
}

fn entries() -> Vec<Entry> {
    let mut nano = image_model(
        "nano-banana-2",
        "Nano Banana 2",
        "Fast, general-purpose image model with strong prompt following and reference editing.",
        &["1K", "2K", "4K"],
        14,
    );
    nano.is_default = true;
    let mut veo = video_model(
        "veo-3.1-fast",
        "Veo 3.1 Fast",
        "Quick cinematic clips from text or a start frame.",
        &["16:9", "9:16"],
        &["720p", "1080p"],
        (4.0, 8.0),
        3,
        true,
    );
    veo.is_default = true;
    let tts = Entry {
        id: "elevenlabs-tts",
        name: "ElevenLabs Text to Speech",
        description: "Speaks `text` in the chosen voice.",
        content_type: ContentType::Audio,
        // The service lists speech as a `generate` model whose output is audio (the official client finds
        // it by that: contentType audio, kind generate, outputType audio).
        kind: ModelKind::Generate,
        tags: &["text-to-speech"],
        is_default: true,
        caps: ModelCapabilities {
            output_type: Some("audio".into()),
            prompt_mode: Some("none".into()),
            voice: true,
            text: true,
            max_outputs: Some(1),
            ..Default::default()
        },
    };
    vec![
        nano,
        image_model(
            "nano-banana-pro",
            "Nano Banana Pro",
            "Highest-fidelity image model: text rendering, detail, complex scenes.",
            &["1K", "2K", "4K"],
            14,
        ),
        image_model(
            "seedream-5-lite",
            "Seedream 5 Lite",
            "Light, quick photoreal image model.",
            &["2K", "4K"],
            10,
        ),
        image_model("flux-2-pro", "FLUX.2 Pro", "Precise, photographic image model.", &["1K", "2K"], 8),
        Entry {
            id: "topaz-image-upscale",
            name: "Topaz Image Upscale",
            description: "Upscales one image (`references.images`).",
            content_type: ContentType::Image,
            kind: ModelKind::Upscale,
            tags: &["upscale"],
            is_default: false,
            caps: ModelCapabilities {
                output_type: Some("image".into()),
                prompt_mode: Some("none".into()),
                resolutions: strings(&["2K", "4K"]),
                max_outputs: Some(1),
                max_reference_images: Some(1),
                ..Default::default()
            },
        },
        veo,
        video_model(
            "kling-3.0",
            "Kling 3.0",
            "Expressive motion, start and end frames, negative prompts.",
            &["16:9", "9:16", "1:1"],
            &["720p", "1080p"],
            (3.0, 15.0),
            4,
            true,
        ),
        video_model(
            "seedance-2-fast",
            "Seedance 2 Fast",
            "Fast multi-ratio video model.",
            &["16:9", "9:16", "1:1", "4:3", "3:4", "21:9"],
            &["480p", "720p"],
            (4.0, 12.0),
            4,
            false,
        ),
        Entry {
            id: "topaz-video-upscale",
            name: "Topaz Video Upscale",
            description: "Upscales one video (`references.videos`); `duration` is the source length.",
            content_type: ContentType::Video,
            kind: ModelKind::Upscale,
            tags: &["upscale"],
            is_default: false,
            caps: ModelCapabilities {
                output_type: Some("video".into()),
                prompt_mode: Some("none".into()),
                resolutions: strings(&["1080p", "4K"]),
                duration_seconds: range(1.0, 60.0),
                max_outputs: Some(1),
                ..Default::default()
            },
        },
        lip_sync_model(
            "infinitalk",
            "InfiniTalk",
            "Lip-syncs a portrait (`references.images`) to a clip (`references.audio`) or to `text` in a voice.",
            &["480p", "720p"],
        ),
        lip_sync_model(
            "kling-ai-avatar",
            "Kling AI Avatar",
            "Talking avatar from a portrait and speech.",
            &["720p", "1080p"],
        ),
        tts,
        Entry {
            id: "elevenlabs-music",
            name: "ElevenLabs Music",
            description: "Music from a prompt; `durationSeconds` sets the length.",
            content_type: ContentType::Audio,
            kind: ModelKind::Generate,
            tags: &["music"],
            is_default: false,
            caps: ModelCapabilities {
                output_type: Some("audio".into()),
                prompt_mode: Some("required".into()),
                duration_seconds: range(10.0, 120.0),
                max_outputs: Some(1),
                prompt_max_chars: Some(2000),
                ..Default::default()
            },
        },
        Entry {
            id: "elevenlabs-sound-effects",
            name: "ElevenLabs Sound Effects",
            description: "A sound effect from a prompt; `durationSeconds` sets the length.",
            content_type: ContentType::Audio,
            kind: ModelKind::Generate,
            tags: &["sound-effects"],
            is_default: false,
            caps: ModelCapabilities {
                output_type: Some("audio".into()),
                prompt_mode: Some("required".into()),
                duration_seconds: range(1.0, 22.0),
                max_outputs: Some(1),
                prompt_max_chars: Some(1000),
                ..Default::default()
            },
        },
    ]
}

/// The inputs a model takes, as the service names them (`inputTypes`).
fn input_types(e: &Entry) -> Vec<&'static str> {
    let c = &e.caps;
    let mut inputs = Vec::new();
    match (e.kind, e.content_type) {
        (ModelKind::Upscale, ContentType::Image) => inputs.push("singleImage"),
        (ModelKind::Upscale, _) => inputs.push("singleVideo"),
        (ModelKind::LipSync, _) => inputs.extend(["singleImage", "singleAudio"]),
        _ => {
            inputs.push("text");
            if c.start_frame {
                inputs.push("startFrame");
            }
            if c.end_frame {
                inputs.push("endFrame");
            }
            if e.content_type == ContentType::Image && c.max_reference_images.unwrap_or(0) > 0 {
                inputs.push("image");
            }
        }
    }
    inputs
}

/// A model's capabilities as the service sends them: nested, with `kind` (see the module's text).
fn service_capabilities(e: &Entry) -> Value {
    let c = &e.caps;
    let mut m = Map::new();
    m.insert("kind".into(), json!(e.kind.as_str()));
    m.insert("outputType".into(), json!(c.output_type));
    m.insert("promptMode".into(), json!(c.prompt_mode));
    if let Some(n) = c.prompt_max_chars {
        m.insert("promptMaxChars".into(), json!(n));
    }
    m.insert("inputTypes".into(), json!(input_types(e)));
    if !c.resolutions.is_empty() {
        m.insert("resolution".into(), json!({ "supported": c.resolutions }));
    }
    if !c.aspect_ratios.is_empty() {
        m.insert("aspectRatio".into(), json!({ "supported": c.aspect_ratios }));
    }
    m.insert(
        "duration".into(),
        match c.duration_seconds {
            Some(r) => json!({ "mode": "range", "min": r.min, "max": r.max }),
            None => json!({ "mode": "none" }),
        },
    );
    if c.audio {
        m.insert("audio".into(), json!({ "supported": true, "alwaysOn": false }));
    }
    if c.negative_prompt {
        m.insert("negativePrompt".into(), json!(true));
    }
    if let Some(n) = c.max_reference_images.filter(|n| *n > 0) {
        m.insert("maxImageRefs".into(), json!(n));
    }
    if c.audio_reference {
        m.insert("maxAudioRefs".into(), json!(1));
    }
    if let Some(max) = c.max_outputs {
        m.insert("generations".into(), json!({ "min": 1, "max": max, "default": 1 }));
    }
    if c.voice {
        m.insert("features".into(), json!({ "voiceId": true }));
    }
    Value::Object(m)
}

/// One model as the service sends it, and as a client reads that back (what generation validates against).
fn served(e: Entry) -> (ModelInfo, Value) {
    let caps = service_capabilities(&e);
    let mut wire = json!({
        "modelId": e.id,
        "displayName": e.name,
        "description": e.description,
        "contentType": e.content_type.as_str(),
        "kind": e.kind.as_str(),
        "tags": e.tags,
        "capabilities": caps,
    });
    if e.is_default {
        wire["isDefault"] = json!(true);
    }
    let read = serde_json::from_value(wire.clone()).expect("the sandbox's registry reads as a ModelInfo");
    (read, wire)
}

/// Every model, as the service sends it (`GET /models`), in registry order.
pub fn served_models() -> Vec<(ModelInfo, Value)> {
    entries().into_iter().map(served).collect()
}

/// Every model, as a client reads it, in registry order (the default of each content type first within
/// its type).
pub fn all_models() -> Vec<ModelInfo> {
    served_models().into_iter().map(|(m, _)| m).collect()
}

pub fn find_model(id: &str) -> Option<ModelInfo> {
    all_models().into_iter().find(|m| m.model_id == id)
}

pub fn model_ids() -> Vec<String> {
    all_models().into_iter().map(|m| m.model_id).collect()
}

/// The sandbox's voices: ElevenLabs' premade voices, by their public ids, so a request written for the
/// real service works here unchanged.
pub fn all_voices() -> Vec<Voice> {
    let v = |id: &str, name: &str, description: &str, fav: bool| Voice {
        voice_id: id.into(),
        name: name.into(),
        category: Some("premade".into()),
        description: Some(description.into()),
        preview_url: None,
        is_favorited: fav,
    };
    vec![
        v(
            "21m00Tcm4TlvDq8ikWAM",
            "Rachel",
            "Calm, young American female narrator",
            true,
        ),
        v(
            "pNInz6obpgDQGcFmaJgB",
            "Adam",
            "Deep, middle-aged American male narrator",
            true,
        ),
        v(
            "EXAVITQu4vr4xnSDxMaL",
            "Bella",
            "Soft, young American female",
            false,
        ),
        v(
            "ErXwobaYiN019PkySvjV",
            "Antoni",
            "Well-rounded young American male",
            false,
        ),
        v(
            "TxGEqnHWrfWFTfGW9XjX",
            "Josh",
            "Deep young American male",
            false,
        ),
        v(
            "MF3mGyEYCl7XYWbV9V5O",
            "Elli",
            "Emotional young American female",
            false,
        ),
    ]
}

pub fn find_voice(id: &str) -> Option<Voice> {
    all_voices().into_iter().find(|v| v.voice_id == id)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// What a client reads from the served (nested) form is what the entry says the model takes: no
    /// capability is lost or invented between the sandbox's table and its wire.
    #[test]
    fn the_served_form_reads_back_as_the_table_says() {
        for e in entries() {
            let want = e.caps.clone();
            let wire = service_capabilities(&e);
            let mut read: ModelCapabilities = serde_json::from_value(wire.clone()).unwrap();
            assert!(!read.input_types.is_empty(), "{}: inputTypes", e.id);
            (read.input_types, read.features, read.default_outputs) = (Vec::new(), Vec::new(), None);
            assert_eq!(read, want, "{}: {wire}", e.id);
            assert_eq!(wire["kind"], e.kind.as_str(), "{}", e.id);
        }
    }

    /// No flat name of the sandbox's own spelling reaches the wire.
    #[test]
    fn the_served_form_has_only_the_services_names() {
        for (m, wire) in served_models() {
            let caps = wire["capabilities"].as_object().unwrap();
            for flat in ["resolutions", "aspectRatios", "durationSeconds", "maxReferenceImages", "maxOutputs", "startFrame", "voice", "text"] {
                assert!(!caps.contains_key(flat), "{}: `{flat}` in {wire}", m.model_id);
            }
        }
    }

    /// Speech is found as the official client finds it: content type audio, kind generate, output audio.
    #[test]
    fn speech_is_an_audio_generate_model() {
        let speech: Vec<_> = served_models()
            .into_iter()
            .filter(|(_, w)| w["contentType"] == "audio" && w["kind"] == "generate" && w["capabilities"]["outputType"] == "audio")
            .map(|(m, _)| m)
            .collect();
        assert!(speech.iter().any(|m| m.model_id == "elevenlabs-tts" && m.is_speech()), "{speech:?}");
        assert_eq!(speech.iter().filter(|m| m.is_speech()).count(), 1);
    }
}
