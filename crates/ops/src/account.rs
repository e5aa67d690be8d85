//! The account, the model registry and voices.
use crate::input::one_of;
use crate::{out, Cx, Effect, Meta, OpError, Operation};
use api_types::open::ValueList;
use api_types::ContentType;
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use serde_json::Value;
use ts_rs::TS;

/// No input.
#[derive(Debug, Clone, Default, clap::Args, Deserialize, JsonSchema)]
pub struct Nothing {}

pub struct Balance;
impl Operation for Balance {
    type Input = Nothing;
    const META: Meta = Meta {
        path: &["account", "balance"],
        tool: "get_balance",
        summary: "Show the credit balance and plan tier",
        details: "Free. Check it before spending credits; a generate tool's getCost gives the price first.",
        effect: Effect::Read,
        idempotent: true,
        scope: None,
    };
    async fn run(cx: Cx, _: Nothing) -> Result<Value, OpError> {
        out(cx.client.account().balance().await?)
    }
}

/// The registry's models: `cdesk model list`, the agent tool `list_models` and the app's `models_list` take
/// this one input (its content type read once, by [`ModelListInput::kind`]).
#[derive(Debug, Clone, Default, clap::Args, Deserialize, Serialize, JsonSchema, TS)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct ModelListInput {
    /// Only models of this content type.
    #[arg(long = "type", value_parser = one_of(<ContentType as ValueList>::ALL.iter().copied()))]
    #[serde(default, alias = "type", skip_serializing_if = "Option::is_none")]
    #[schemars(schema_with = "crate::input::content_type_schema")]
    #[ts(as = "Option<ContentType>", optional)]
    pub content_type: Option<String>,
    /// The app's only (it keeps the registry for the session): ask the registry again instead of that
    /// copy. Not a flag nor an agent's field.
    #[arg(skip)]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(skip)]
    #[ts(optional)]
    pub refresh: Option<bool>,
}

impl ModelListInput {
    /// The content type asked for, when one is: a name the registry does not know is a usage error naming
    /// `contentType` and the known ones.
    pub fn kind(&self) -> Result<Option<ContentType>, OpError> {
        let kind = self.content_type.as_deref().map(|t| {
            serde_json::from_value::<ContentType>(Value::String(t.to_string())).map_err(|_| OpError::usage("contentType", format!("unknown content type `{t}`: one of {}", <ContentType as ValueList>::ALL.join(", "))))
        });
        kind.transpose()
    }
}

pub struct ModelList;
impl Operation for ModelList {
    type Input = ModelListInput;
    const META: Meta = Meta {
        path: &["model", "list"],
        tool: "list_models",
        summary: "List the models of the live registry, with what each accepts",
        details: "Free. Use a model's id as modelId in the generate tools; its capabilities say which aspect ratios, resolutions, durations and references it takes.",
        effect: Effect::Read,
        idempotent: true,
        scope: None,
    };
    async fn run(cx: Cx, input: ModelListInput) -> Result<Value, OpError> {
        let kind = input.kind()?;
        if cx.as_sent {
            let mut reply = cx.client.models().list_as_sent(kind).await?;
            return Ok(reply.get_mut("models").map(Value::take).unwrap_or_default());
        }
        out(cx.client.models().list(kind).await?)
    }
}

#[derive(Debug, Clone, clap::Args, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct ModelId {
    /// The model's id (from `model list`).
    pub model_id: String,
}

pub struct ModelGet;
impl Operation for ModelGet {
    type Input = ModelId;
    const META: Meta = Meta {
        path: &["model", "get"],
        tool: "get_model",
        summary: "Show one model of the registry and its capabilities",
        details: "Free.",
        effect: Effect::Read,
        idempotent: true,
        scope: None,
    };
    async fn run(cx: Cx, input: ModelId) -> Result<Value, OpError> {
        if cx.as_sent {
            return Ok(cx.client.models().get_as_sent(&input.model_id).await?);
        }
        out(cx.client.models().get(&input.model_id).await?)
    }
}

pub struct VoiceList;
impl Operation for VoiceList {
    type Input = Nothing;
    const META: Meta = Meta {
        path: &["voice", "list"],
        tool: "list_voices",
        summary: "List the voices for speech and lip-sync",
        details: "Free. Use a voice's id as voiceId in generate_audio or generate_lip_sync.",
        effect: Effect::Read,
        idempotent: true,
        scope: None,
    };
    async fn run(cx: Cx, _: Nothing) -> Result<Value, OpError> {
        out(cx.client.voices().list().await?)
    }
}

#[derive(Debug, Clone, clap::Args, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct VoiceId {
    /// The voice's id (from `voice list`).
    pub voice_id: String,
}

pub struct VoiceGet;
impl Operation for VoiceGet {
    type Input = VoiceId;
    const META: Meta = Meta {
        path: &["voice", "get"],
        tool: "get_voice",
        summary: "Show one voice for speech and lip-sync",
        details: "Free. Its id is the voiceId of generate_audio and generate_lip_sync.",
        effect: Effect::Read,
        idempotent: true,
        scope: None,
    };
    async fn run(cx: Cx, input: VoiceId) -> Result<Value, OpError> {
        out(cx.client.voices().get(&input.voice_id).await?)
    }
}
