//! The sandbox's model registry (`GET /models`, `GET /models/{modelId}`) and its voices (`GET /voices`,
//! `GET /voices/{voiceId}`). Both are static: the sandbox runs no models, so its registry is the list of
//! what it will accept, with the capabilities `POST /studio/generate` validates against. No prices here
//! (the registry never carries them, fact sheet 3.13): prices live in `studio::price`.
use crate::auth::Caller;
use crate::error::{ApiError, ApiResult};
use crate::extract::AppQuery;
use api_types::{ContentType, Voice, VoiceList};
use axum::extract::Path;
use axum::Json;
use serde::Deserialize;
use serde_json::{json, Value};
use crate::tables::models::{all_voices, find_voice, served_models};

pub const SCHEMA: &str = "";

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct ModelQuery {
    /// The spec era also sent `content_type`; both are accepted (docs/api.md "Wire case").
    #[serde(default, alias = "content_type")]
    content_type: Option<ContentType>,
}

// Reads need a valid key but no scope (docs/api.md). Models go out as the service sends them
// (`tables::models`: nested capabilities with their `kind`).
pub(crate) async fn list_models(_caller: Caller, AppQuery(q): AppQuery<ModelQuery>) -> Json<Value> {
    let models: Vec<Value> = served_models()
        .into_iter()
        .filter(|(m, _)| q.content_type.is_none_or(|c| m.content_type == c))
        .map(|(_, wire)| wire)
        .collect();
    Json(json!({ "models": models }))
}

pub(crate) async fn get_model(_caller: Caller, Path(id): Path<String>) -> ApiResult<Json<Value>> {
    served_models()
        .into_iter()
        .find(|(m, _)| m.model_id == id)
        .map(|(_, wire)| Json(wire))
        .ok_or_else(|| ApiError::NotFound(format!("Model not found: {id}")))
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct VoiceQuery {
    #[serde(default)]
    favorited: Option<bool>,
}

pub(crate) async fn list_voices(_caller: Caller, AppQuery(q): AppQuery<VoiceQuery>) -> Json<VoiceList> {
    let voices = all_voices()
        .into_iter()
        .filter(|v| q.favorited.is_none_or(|f| v.is_favorited == f))
        .collect();
    Json(VoiceList { voices })
}

pub(crate) async fn get_voice(_caller: Caller, Path(id): Path<String>) -> ApiResult<Json<Voice>> {
    find_voice(&id)
        .map(Json)
        .ok_or_else(|| ApiError::NotFound(format!("Voice not found: {id}")))
}
