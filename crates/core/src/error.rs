//! The one error every command returns, serialised as `{code, message, ...details}` (docs/ipc.md).
//!
//! `message` is a sentence for the user: what happened and what to do. It is built here, in one place,
//! from the client's typed errors and the secret store's; none of them carries the key (the client's
//! `ApiKey` redacts itself, and the secret store's errors are built from the backend's text only).
use api_client::ApiError;
use serde::{Deserialize, Serialize};
use ts_rs::TS;

use crate::secrets::SecretError;

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub enum IpcCode {
    Unauthorized,
    MissingScope,
    NotFound,
    Validation,
    Conflict,
    NotesConflict,
    RateLimited,
    InsufficientCredits,
    LimitReached,
    Network,
    /// Nothing answered; the change is kept on this computer and sent when the service answers (drafts).
    Queued,
    Server,
    KeyringUnavailable,
    NoKey,
    NoProfile,
    Internal,
}

/// One brand-kit section that changed since it was read (409): its current version and body.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct IpcConflict {
    pub key: String,
    pub version: i64,
    pub body: String,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS, thiserror::Error)]
#[serde(rename_all = "camelCase")]
#[error("{message}")]
pub struct IpcError {
    pub code: IpcCode,
    pub message: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub scope: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub field: Option<String>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    #[ts(as = "Option<Vec<String>>", optional)]
    pub valid_values: Vec<String>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    #[ts(as = "Option<Vec<IpcConflict>>", optional)]
    pub conflicts: Vec<IpcConflict>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub notes: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub revision: Option<i64>,
    /// Seconds.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub retry_after: Option<f64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub status: Option<u16>,
}

pub type IpcResult<T> = Result<T, IpcError>;

impl IpcError {
    pub fn new(code: IpcCode, message: impl Into<String>) -> Self {
        IpcError {
            code,
            message: message.into(),
            scope: None,
            field: None,
            valid_values: Vec::new(),
            conflicts: Vec::new(),
            notes: None,
            revision: None,
            retry_after: None,
            status: None,
        }
    }

    pub fn validation(field: impl Into<String>, message: impl Into<String>) -> Self {
        IpcError { field: Some(field.into()), ..IpcError::new(IpcCode::Validation, message) }
    }

    pub fn internal(message: impl Into<String>) -> Self {
        IpcError::new(IpcCode::Internal, message)
    }

    pub fn no_key(profile_name: &str) -> Self {
        IpcError::new(
            IpcCode::NoKey,
            format!("The profile “{profile_name}” has no API key yet: add one in Settings."),
        )
    }

    /// The HTTP status; 0 (a rule checked before sending, nothing went over the wire) is none.
    fn with_status(mut self, status: u16) -> Self {
        self.status = (status != 0).then_some(status);
        self
    }
}

impl From<ApiError> for IpcError {
    fn from(e: ApiError) -> Self {
        use IpcCode as C;
        match e {
            ApiError::Unauthorized { .. } => IpcError::new(
                C::Unauthorized,
                "The service refused this API key (mistyped, revoked or from another environment). \
                 Paste a current key in Settings.",
            )
            .with_status(401),
            ApiError::MissingScope { scope, message, .. } => {
                let text = match &scope {
                    Some(s) => format!(
                        "This key lacks the scope {s}. Grant it to the key in {} (or create a key that has it), \
                         then paste the key in Settings.",
                        api_types::scopes::WHERE_TO_GRANT
                    ),
                    None => format!("This key lacks a scope this needs: {message}"),
                };
                IpcError { scope, ..IpcError::new(C::MissingScope, text) }.with_status(403)
            }
            ApiError::NotFound { message, .. } => IpcError::new(
                C::NotFound,
                format!("Not found: {message}. It may have been deleted elsewhere; refresh to see the current state."),
            )
            .with_status(404),
            ApiError::Validation { message, field, valid_values, body, .. } => IpcError {
                field,
                valid_values,
                ..IpcError::new(C::Validation, message)
            }
            .with_status(if body.is_empty() { 0 } else { 400 }),
            ApiError::SectionConflict { conflicts, .. } => IpcError {
                conflicts: conflicts
                    .into_iter()
                    .map(|c| IpcConflict { key: c.key, version: c.version, body: c.body })
                    .collect(),
                ..IpcError::new(
                    C::Conflict,
                    "Someone changed this since you opened it. Nothing was written; your text is kept beside the current one.",
                )
            }
            .with_status(409),
            ApiError::NotesConflict { notes, revision, .. } => IpcError {
                notes: Some(notes),
                revision: Some(revision),
                ..IpcError::new(
                    C::NotesConflict,
                    "The card's notes changed since you opened them. Nothing was written; your text is kept.",
                )
            }
            .with_status(409),
            ApiError::Conflict { message, .. } => IpcError::new(C::Conflict, message).with_status(409),
            ApiError::RateLimited { retry_after, .. } => {
                let secs = retry_after.map(|d| d.as_secs_f64());
                IpcError {
                    retry_after: secs,
                    ..IpcError::new(
                        C::RateLimited,
                        match secs {
                            Some(s) => format!("The service is rate limiting this key. Try again in {} s.", s.ceil()),
                            None => "The service is rate limiting this key. Try again in a minute.".to_string(),
                        },
                    )
                }
                .with_status(429)
            }
            ApiError::InsufficientCredits { balance, required, code, message, .. } => IpcError::new(
                C::InsufficientCredits,
                match (balance, required) {
                    _ if code.as_deref() == Some("spend_cap_reached") => format!(
                        "{} Nothing was charged. Raise the monthly spend cap in the service's billing settings, or wait for it to reset.",
                        message.trim_end_matches('.').to_string() + "."
                    ),
                    (Some(b), Some(r)) => format!(
                        "Not enough credits: this costs {r}, the balance is {b}, so {} more are needed. Nothing was charged.",
                        r - b
                    ),
                    _ => "Not enough credits for this. Nothing was charged.".to_string(),
                },
            )
            .with_status(402),
            ApiError::LimitReached { message, limit, status, .. } => IpcError::new(
                C::LimitReached,
                match limit {
                    Some(l) => format!("Your plan's limit is reached ({l}): {message}. Remove an item or upgrade the plan."),
                    None => format!("Your plan's limit is reached: {message}"),
                },
            )
            .with_status(status),
            ApiError::PayloadTooLarge { message, .. } => {
                IpcError::new(C::Validation, format!("Too large: {message}")).with_status(413)
            }
            ApiError::Server { status, .. } => IpcError::new(
                C::Server,
                format!("The service failed ({status}). Nothing was lost here; try again in a moment."),
            )
            .with_status(status),
            ApiError::Http { status, message, .. } => {
                IpcError::new(C::Server, format!("Unexpected answer from the service ({status}): {message}")).with_status(status)
            }
            ApiError::Network { message, .. } => IpcError::new(
                C::Network,
                format!("Could not reach the service ({message}). Check the connection and the base URL; nothing was lost."),
            ),
            ApiError::Decode { status, error, .. } => IpcError::new(
                C::Server,
                format!("The service answered something unexpected ({status}: {error}). Is the base URL an API v1 address?"),
            )
            .with_status(status),
            other => IpcError::internal(other.to_string()),
        }
    }
}

impl From<SecretError> for IpcError {
    fn from(e: SecretError) -> Self {
        IpcError::new(IpcCode::KeyringUnavailable, e.user_message())
    }
}

/// A rule of an operation's input ([`contentdesk_ops`]'s `check`s, the same in `cdesk` and the agent tools)
/// answered as the app answers a rule: a validation error naming the field.
impl From<contentdesk_ops::OpError> for IpcError {
    fn from(e: contentdesk_ops::OpError) -> Self {
        use contentdesk_ops::OpError as O;
        match e {
            O::Usage { message, field } => IpcError::validation(field.unwrap_or_default(), message),
            O::Api(e) => e.into(),
            other => IpcError::internal(other.to_string()),
        }
    }
}
