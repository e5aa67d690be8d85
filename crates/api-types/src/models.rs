//! The live model registry (`/models`): what each model is and what it accepts.
//!
//! Capabilities are open-ended in the registry and spelled two ways: the sandbox's flat names
//! (`aspectRatios`, `resolutions`, `durationSeconds {min,max}`, `maxOutputs`, `maxReferenceImages`,
//! `startFrame`, …) and the real service's nested ones (`aspectRatio {supported, default}`,
//! `resolution {…}`, `duration {mode: range|discrete|locked|none, …}`, `generations {min,max,default}`,
//! `maxImageRefs`/`maxVideoRefs`/`maxAudioRefs`, `inputTypes`, `audio {supported}`, `features {name: bool}`).
//! [`ModelCapabilities`] reads both into one shape and writes the flat one; booleans are read leniently
//! (`true`, `"true"`, `1`, `{ "supported": true }`), and a field of an unexpected type is ignored rather than
//! failing the whole registry.
use crate::common::ContentType;
use crate::open::Open;
use serde::{Deserialize, Deserializer, Serialize};
use serde_json::{Map, Value};
use ts_rs::TS;

crate::value_list! {
    /// What kind of work a model does. The newest registry adds kinds every month: read as [`Open`].
    ModelKind {
        Generate = "generate",
        Upscale = "upscale",
        LipSync = "lip-sync",
        Voice = "voice",
        BackgroundRemoval = "background-removal",
        LayerSeparation = "layer-separation",
    }
}

/// An inclusive numeric range, e.g. the durations a video model accepts.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize, TS)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct NumRange {
    pub min: f64,
    pub max: f64,
}

/// What a model accepts; the studio shows a field only when the model has the capability.
/// Read from either spelling of the registry (see the module's text); fields not listed are ignored.
#[derive(Debug, Clone, Default, PartialEq, Serialize, TS)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase")]
pub struct ModelCapabilities {
    pub output_type: Option<String>,
    /// `required | optional | none`.
    pub prompt_mode: Option<String>,
    pub aspect_ratios: Vec<String>,
    pub default_aspect_ratio: Option<String>,
    pub resolutions: Vec<String>,
    pub default_resolution: Option<String>,
    /// The accepted lengths in seconds, as a range (for a list of lengths: its smallest and largest).
    pub duration_seconds: Option<NumRange>,
    /// When the model takes only some lengths: exactly those (a locked length is a list of one).
    pub duration_options: Vec<f64>,
    pub default_duration: Option<f64>,
    /// Largest `numImages` / `numGenerations`.
    pub max_outputs: Option<u32>,
    pub default_outputs: Option<u32>,
    /// Largest number of reference images.
    pub max_reference_images: Option<u32>,
    pub max_reference_videos: Option<u32>,
    pub max_reference_audios: Option<u32>,
    pub start_frame: bool,
    pub end_frame: bool,
    pub negative_prompt: bool,
    /// Needs `text` + `voiceId` (speech) or accepts them (lip-sync).
    pub voice: bool,
    /// Needs `text` (speech, lip-sync script).
    pub text: bool,
    pub audio_reference: bool,
    /// The model can render sound with its output (`audioEnabled`).
    pub audio: bool,
    pub prompt_max_chars: Option<u32>,
    /// The registry's `inputTypes` as given (`text`, `startFrame`, `imageRef`, …).
    pub input_types: Vec<String>,
    /// The names of the features the registry marks as on.
    pub features: Vec<String>,
}

/// A boolean however the registry writes it; `None` when it is absent or not a boolean at all.
fn flag(v: Option<&Value>) -> Option<bool> {
    match v? {
        Value::Bool(b) => Some(*b),
        Value::Number(n) => n.as_f64().map(|n| n != 0.0),
        Value::String(s) => match s.trim().to_ascii_lowercase().as_str() {
            "true" | "yes" | "1" | "on" | "supported" => Some(true),
            "false" | "no" | "0" | "off" | "" => Some(false),
            _ => None,
        },
        Value::Object(o) => flag(o.get("supported")).or_else(|| flag(o.get("enabled"))),
        _ => None,
    }
}

fn number(v: Option<&Value>) -> Option<f64> {
    match v? {
        Value::Number(n) => n.as_f64(),
        Value::String(s) => s.trim().trim_end_matches('s').parse().ok(),
        _ => None,
    }
    .filter(|n: &f64| n.is_finite())
}

fn count(v: Option<&Value>) -> Option<u32> {
    number(v).filter(|n| *n >= 0.0).map(|n| n.round() as u32)
}

fn text(v: Option<&Value>) -> Option<String> {
    match v? {
        Value::String(s) => Some(s.clone()),
        Value::Number(n) => Some(n.to_string()),
        _ => None,
    }
}

fn strings(v: Option<&Value>) -> Vec<String> {
    match v {
        Some(Value::Array(a)) => a.iter().filter_map(|x| text(Some(x))).collect(),
        _ => Vec::new(),
    }
}

/// `[..]` or `{ supported: [..], default }`: the values and the default.
fn choice(flat: Option<&Value>, nested: Option<&Value>) -> (Vec<String>, Option<String>) {
    let mut values = strings(flat);
    let mut default = None;
    match nested {
        Some(Value::Object(o)) => {
            if values.is_empty() {
                values = strings(o.get("supported").or_else(|| o.get("options")));
            }
            default = text(o.get("default"));
        }
        Some(a @ Value::Array(_)) if values.is_empty() => values = strings(Some(a)),
        _ => {}
    }
    (values, default)
}

fn range(v: Option<&Value>) -> Option<NumRange> {
    let o = v?.as_object()?;
    let (min, max) = (number(o.get("min"))?, number(o.get("max"))?);
    (min <= max).then_some(NumRange { min, max })
}

impl ModelCapabilities {
    /// Reads either spelling; see the module's text.
    pub fn from_map(m: &Map<String, Value>) -> Self {
        let get = |k: &str| m.get(k).filter(|v| !v.is_null());
        let inputs = strings(get("inputTypes"));
        let has_input = |names: &[&str]| inputs.iter().any(|i| names.contains(&i.as_str()));
        let (start_input, end_input) = (has_input(&["startFrame"]), has_input(&["endFrame"]));
        let audio_input = has_input(&["audioRef", "singleAudio"]);
        let text_only = text(get("promptMode")).as_deref() == Some("none") && has_input(&["text"]);
        // A lip-sync speaks an audio clip, or a script in a voice (the official client's lip-sync tool:
        // `audioUrl` or `script` + `voiceId`), though the registry lists only its file inputs.
        let lip_sync = text(get("kind")).as_deref() == Some("lip-sync");
        let features: Vec<String> = match get("features") {
            Some(Value::Object(o)) => o.iter().filter(|(_, v)| flag(Some(v)) == Some(true)).map(|(k, _)| k.clone()).collect(),
            Some(a @ Value::Array(_)) => strings(Some(a)),
            _ => Vec::new(),
        };
        let feature = |name: &str| features.iter().any(|f| f == name);
        let (aspect_ratios, default_aspect_ratio) = choice(get("aspectRatios"), get("aspectRatio"));
        let default_aspect_ratio = text(get("defaultAspectRatio")).or(default_aspect_ratio);
        let (resolutions, default_resolution) = choice(get("resolutions"), get("resolution"));
        let default_resolution = text(get("defaultResolution")).or(default_resolution);

        let mut duration_seconds = range(get("durationSeconds"));
        let mut duration_options: Vec<f64> = match get("durationOptions") {
            Some(Value::Array(a)) => a.iter().filter_map(|o| number(Some(o))).collect(),
            _ => Vec::new(),
        };
        let mut default_duration = None;
        if let Some(Value::Object(d)) = get("duration") {
            default_duration = number(d.get("default"));
            let mode = d.get("mode").and_then(Value::as_str).unwrap_or("");
            match mode {
                "none" => {}
                "locked" => duration_options.extend(number(d.get("value")).or(default_duration)),
                _ => {
                    if let Some(Value::Array(opts)) = d.get("options") {
                        duration_options = opts.iter().filter_map(|o| number(Some(o))).collect();
                    }
                    duration_seconds = duration_seconds.or_else(|| range(Some(&Value::Object(d.clone()))));
                }
            }
            if duration_seconds.is_none() && !duration_options.is_empty() {
                let min = duration_options.iter().copied().fold(f64::INFINITY, f64::min);
                let max = duration_options.iter().copied().fold(f64::NEG_INFINITY, f64::max);
                duration_seconds = Some(NumRange { min, max });
            }
        }

        let generations = get("generations").and_then(Value::as_object);
        let max_reference_audios = count(get("maxAudioRefs")).or(count(get("maxReferenceAudios")));
        Self {
            output_type: text(get("outputType")),
            prompt_mode: text(get("promptMode")),
            aspect_ratios,
            default_aspect_ratio,
            resolutions,
            default_resolution,
            duration_seconds,
            duration_options,
            default_duration: default_duration.or_else(|| number(get("defaultDuration"))),
            max_outputs: count(get("maxOutputs")).or_else(|| generations.and_then(|g| count(g.get("max")))),
            default_outputs: count(get("defaultOutputs")).or_else(|| generations.and_then(|g| count(g.get("default")))),
            max_reference_images: count(get("maxReferenceImages")).or(count(get("maxImageRefs"))),
            max_reference_videos: count(get("maxReferenceVideos")).or(count(get("maxVideoRefs"))),
            max_reference_audios,
            start_frame: flag(get("startFrame")).unwrap_or(start_input),
            end_frame: flag(get("endFrame")).unwrap_or(end_input),
            negative_prompt: flag(get("negativePrompt")).unwrap_or_else(|| feature("negativePrompt")),
            voice: flag(get("voice")).unwrap_or_else(|| feature("voiceId") || lip_sync),
            // Speech models: no prompt, and `text` is their only input; a lip-sync's script.
            text: flag(get("text")).unwrap_or(text_only || lip_sync),
            audio_reference: flag(get("audioReference"))
                .unwrap_or(max_reference_audios.unwrap_or(0) > 0 || audio_input),
            audio: flag(get("audio")).unwrap_or(false),
            prompt_max_chars: count(get("promptMaxChars")),
            input_types: inputs,
            features,
        }
    }
}

impl<'de> Deserialize<'de> for ModelCapabilities {
    fn deserialize<D: Deserializer<'de>>(de: D) -> Result<Self, D::Error> {
        Ok(match Value::deserialize(de)? {
            Value::Object(m) => Self::from_map(&m),
            _ => Self::default(),
        })
    }
}

/// An entry of the live model registry. No price: prices come only from `getCost`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase")]
pub struct ModelInfo {
    pub model_id: String,
    pub display_name: String,
    #[serde(default)]
    pub description: Option<String>,
    pub content_type: Open<ContentType>,
    pub kind: Open<ModelKind>,
    #[serde(default, deserialize_with = "crate::common::null_as_default")]
    pub tags: Vec<String>,
    #[serde(default)]
    pub is_default: Option<bool>,
    #[serde(default)]
    pub capabilities: ModelCapabilities,
}

impl ModelInfo {
    /// A speech model: audio spoken from `text` in a voice. The service lists it as kind `generate` with
    /// output type `audio` (the cards era as kind `voice`), so it is known by what it takes, not by its kind.
    pub fn is_speech(&self) -> bool {
        self.content_type.get() == Some(ContentType::Audio) && self.capabilities.voice && self.capabilities.text
    }
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct ModelList {
    #[serde(default)]
    pub models: Vec<ModelInfo>,
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn caps(v: Value) -> ModelCapabilities {
        serde_json::from_value(v).unwrap()
    }

    #[test]
    fn the_real_services_nested_spelling_reads_into_the_same_shape() {
        let c = caps(json!({
            "kind": "generate", "outputType": "video", "promptMode": "required", "promptMaxChars": 1500,
            "inputTypes": ["text", "startFrame"],
            "resolution": { "supported": ["720p", "1080p"], "default": "720p" },
            "aspectRatio": { "supported": ["16:9", "9:16"], "default": "16:9" },
            "duration": { "mode": "discrete", "options": [4, 6, 8], "default": 8 },
            "audio": { "supported": true, "alwaysOn": true },
            "maxImageRefs": 1, "maxAudioRefs": 0,
            "generations": { "min": 1, "max": 4, "default": 1 },
            "features": { "recreate": true, "edit": false }
        }));
        assert_eq!(c.aspect_ratios, ["16:9", "9:16"]);
        assert_eq!(c.default_aspect_ratio.as_deref(), Some("16:9"));
        assert_eq!(c.resolutions, ["720p", "1080p"]);
        assert_eq!(c.duration_options, [4.0, 6.0, 8.0]);
        assert_eq!(c.duration_seconds, Some(NumRange { min: 4.0, max: 8.0 }));
        assert_eq!(c.default_duration, Some(8.0));
        assert_eq!((c.max_outputs, c.default_outputs), (Some(4), Some(1)));
        assert_eq!(c.max_reference_images, Some(1));
        assert!(c.start_frame && !c.end_frame && c.audio && !c.audio_reference);
        assert_eq!(c.features, ["recreate"]);
        assert_eq!(c.prompt_max_chars, Some(1500));
    }

    #[test]
    fn the_sandboxs_flat_spelling_round_trips() {
        let c = ModelCapabilities {
            output_type: Some("video".into()),
            aspect_ratios: vec!["1:1".into()],
            duration_seconds: Some(NumRange { min: 2.0, max: 10.0 }),
            duration_options: vec![2.0, 10.0],
            default_duration: Some(2.0),
            default_aspect_ratio: Some("1:1".into()),
            max_outputs: Some(2),
            default_outputs: Some(1),
            max_reference_images: Some(3),
            max_reference_videos: Some(1),
            start_frame: true,
            audio: true,
            input_types: vec!["text".into()],
            features: vec!["edit".into()],
            negative_prompt: true,
            ..Default::default()
        };
        assert_eq!(caps(serde_json::to_value(&c).unwrap()), c);
    }

    #[test]
    fn a_range_a_locked_length_and_lenient_flags() {
        let c = caps(json!({ "duration": { "mode": "range", "min": 5, "max": 10 }, "negativePrompt": "true",
            "startFrame": 1, "endFrame": { "supported": true }, "voice": "no" }));
        assert_eq!(c.duration_seconds, Some(NumRange { min: 5.0, max: 10.0 }));
        assert!(c.duration_options.is_empty());
        assert!(c.negative_prompt && c.start_frame && c.end_frame && !c.voice);
        let locked = caps(json!({ "duration": { "mode": "locked", "value": 5 } }));
        assert_eq!((locked.duration_options.clone(), locked.duration_seconds), (vec![5.0], Some(NumRange { min: 5.0, max: 5.0 })));
        let none = caps(json!({ "duration": { "mode": "none" } }));
        assert_eq!(none.duration_seconds, None);
    }

    #[test]
    fn a_field_of_an_unexpected_type_is_ignored_not_fatal() {
        let c = caps(json!({ "aspectRatios": "16:9", "maxOutputs": "many", "startFrame": [], "resolution": 7,
            "duration": { "mode": "range", "min": 10, "max": 2 }, "promptMaxChars": -3 }));
        assert_eq!(c, ModelCapabilities::default());
        assert_eq!(caps(json!(null)), ModelCapabilities::default());
        assert_eq!(caps(json!("weird")), ModelCapabilities::default());
    }
}
