//! One error type for every operation, with the exit code the shell uses (fact sheet 4.4, issue 13):
//! `1` general, API or network; `2` usage and 400; `3` auth (401, 403 naming the scope, no key); `4`
//! accepted but not finished in time (the `outputId` is still given); `5` a 409 conflict (nothing
//! written). `to_json` is the `{error, exitCode, …}` object the shell prints when piped and the agent
//! tool puts in an error result: the service's message, plus what a caller can act on.
use api_client::ApiError;
use serde_json::{json, Value};
use std::time::Duration;

#[derive(Debug, thiserror::Error)]
pub enum OpError {
    /// The input is wrong before anything was sent (a missing or malformed argument).
    #[error("{message}")]
    Usage { message: String, field: Option<String> },
    /// The service refused, or could not be reached.
    #[error("{}", describe(.0))]
    Api(#[from] ApiError),
    /// A render was accepted but did not finish within the wait; it goes on at the service.
    #[error("generation {output_id} is still {status} after {} s; follow it with `generation status {output_id}`", waited.as_secs())]
    NotFinished { output_id: String, status: String, waited: Duration, last: Value },
    /// No key was found by any rung of the ladder (or it was refused before a call).
    #[error("{0}")]
    Auth(String),
    #[error("{0}")]
    Internal(String),
}

impl OpError {
    pub fn usage(field: &str, message: impl Into<String>) -> OpError {
        OpError::Usage { message: message.into(), field: Some(field.to_string()) }
    }

    /// The shell's exit code.
    pub fn exit_code(&self) -> u8 {
        match self {
            OpError::Usage { .. } => 2,
            OpError::Auth(_) => 3,
            OpError::NotFinished { .. } => 4,
            OpError::Internal(_) => 1,
            OpError::Api(e) => match e {
                ApiError::Validation { .. } => 2,
                ApiError::Unauthorized { .. } | ApiError::MissingScope { .. } => 3,
                ApiError::SectionConflict { .. } | ApiError::NotesConflict { .. } | ApiError::Conflict { .. } => 5,
                ApiError::GenerationTimeout { .. } => 4,
                _ => 1,
            },
        }
    }

    /// `{ "error": message, "exitCode": n, … }` with what the caller can act on: the field of a 400, the
    /// scope of a 403, need/have of a 402, when to retry a 429, the current text of a 409, the `outputId`
    /// of an unfinished render.
    pub fn to_json(&self) -> Value {
        let mut v = json!({ "error": self.to_string(), "exitCode": self.exit_code() });
        let o = v.as_object_mut().expect("an object");
        match self {
            OpError::Usage { field: Some(f), .. } => {
                o.insert("field".into(), json!(f));
            }
            OpError::NotFinished { output_id, status, last, .. } => {
                o.insert("outputId".into(), json!(output_id));
                o.insert("status".into(), json!(status));
                if !last.is_null() {
                    o.insert("last".into(), last.clone());
                }
            }
            OpError::Api(e) => {
                if let Some(s) = e.status() {
                    o.insert("status".into(), json!(s));
                }
                // The service's own error code (`canva_not_connected`, `spend_cap_reached`): what a
                // script or an agent branches on.
                let code = e.body().and_then(|b| serde_json::from_str::<Value>(b).ok()).and_then(|b| b.get("code").and_then(Value::as_str).map(str::to_string));
                if let Some(code) = code {
                    o.insert("code".into(), json!(code));
                }
                match e {
                    ApiError::Validation { field, valid_values, .. } => {
                        if let Some(f) = field {
                            o.insert("field".into(), json!(f));
                        }
                        if !valid_values.is_empty() {
                            o.insert("validValues".into(), json!(valid_values));
                        }
                    }
                    ApiError::MissingScope { scope: Some(s), .. } => {
                        o.insert("scope".into(), json!(s));
                    }
                    ApiError::InsufficientCredits { balance, required, .. } => {
                        o.insert("required".into(), json!(required));
                        o.insert("balance".into(), json!(balance));
                    }
                    ApiError::RateLimited { retry_after: Some(d), .. } => {
                        o.insert("retryAfter".into(), json!(d.as_secs_f64()));
                    }
                    ApiError::SectionConflict { conflicts, .. } => {
                        o.insert("conflicts".into(), serde_json::to_value(conflicts).unwrap_or(Value::Null));
                    }
                    ApiError::NotesConflict { notes, revision, .. } => {
                        o.insert("notes".into(), json!(notes));
                        o.insert("revision".into(), json!(revision));
                    }
                    ApiError::GenerationFailed { output_id, .. }
                    | ApiError::GenerationTimeout { output_id }
                    | ApiError::Cancelled { output_id } => {
                        o.insert("outputId".into(), json!(output_id));
                    }
                    _ => {}
                }
            }
            _ => {}
        }
        v
    }
}

/// The service's own words first, then what to do, as the official CLI and MCP server put them.
fn describe(e: &ApiError) -> String {
    match e {
        ApiError::Unauthorized { message, .. } => {
            format!("{message} (the key was refused: check it, or run `cdesk login`)")
        }
        ApiError::MissingScope { scope, message, .. } => match scope {
            Some(s) => format!("{message} (the key lacks the scope `{s}`: make a key with it)"),
            None => message.clone(),
        },
        ApiError::InsufficientCredits { balance, required, message, .. } => match (required, balance) {
            (Some(r), Some(b)) => format!("Insufficient credits (need {r}, have {b}): {message}"),
            _ => format!("Insufficient credits: {message}"),
        },
        ApiError::RateLimited { retry_after: Some(d), message, .. } => {
            format!("{message} (rate limited: retry in {} s)", d.as_secs_f64().ceil())
        }
        ApiError::Validation { message, .. }
        | ApiError::NotFound { message, .. }
        | ApiError::Conflict { message, .. }
        | ApiError::Server { message, .. }
        | ApiError::Http { message, .. } => message.clone(),
        other => other.to_string(),
    }
}
