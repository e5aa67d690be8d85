//! One error type for every handler, written as the service's body `{"error": "<message>", ...}`.
//! Internal failures are logged and answered with a message that hides them.
use api_types::{ErrorBody, SectionConflict};
use axum::http::{header, HeaderValue, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::Json;

#[derive(Debug)]
pub enum ApiError {
    /// 400 naming the field at fault.
    BadRequest { message: String, field: Option<String> },
    /// 400 on an unknown role or tab, with the valid values.
    InvalidValue { message: String, field: String, valid: Vec<String> },
    /// 400 the UI reacts to by code (e.g. `canva_not_connected`).
    Coded { message: String, code: &'static str },
    Unauthorized,
    InsufficientCredits { balance: f64, required: f64 },
    LimitReached { message: String, limit: i64, current: i64 },
    MissingScope(String),
    NotFound(String),
    MethodNotAllowed(String),
    SectionConflict(Vec<SectionConflict>),
    NotesConflict { notes: String, revision: i64 },
    /// 409 other than the two above (e.g. a duplicate tag name).
    Conflict(String),
    TooLarge,
    RateLimited { retry_after: f64 },
    Internal(String),
}

pub type ApiResult<T> = Result<T, ApiError>;

impl ApiError {
    pub fn bad(field: impl Into<String>, message: impl Into<String>) -> Self {
        ApiError::BadRequest { message: message.into(), field: Some(field.into()) }
    }
    pub fn not_found(what: &str) -> Self {
        ApiError::NotFound(format!("{what} not found"))
    }
    pub fn internal(e: impl std::fmt::Display) -> Self {
        ApiError::Internal(e.to_string())
    }
    /// A value outside its list: a 400 naming the field, with the valid values.
    pub fn not_one_of(field: impl Into<String>, value: &str, valid: &[&str]) -> Self {
        let field = field.into();
        ApiError::InvalidValue {
            message: format!("{field} must be one of {}, not {value:?}", valid.join(", ")),
            field,
            valid: valid.iter().map(|s| s.to_string()).collect(),
        }
    }
}

impl From<rusqlite::Error> for ApiError {
    fn from(e: rusqlite::Error) -> Self {
        ApiError::Internal(format!("database: {e}"))
    }
}

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        let (status, body) = match self {
            ApiError::BadRequest { message, field } => {
                (StatusCode::BAD_REQUEST, ErrorBody { field, ..ErrorBody::new(message) })
            }
            ApiError::InvalidValue { message, field, valid } => (
                StatusCode::BAD_REQUEST,
                ErrorBody { field: Some(field), valid_values: Some(valid), ..ErrorBody::new(message) },
            ),
            ApiError::Coded { message, code } => {
                (StatusCode::BAD_REQUEST, ErrorBody { code: Some(code.into()), ..ErrorBody::new(message) })
            }
            ApiError::Unauthorized => (StatusCode::UNAUTHORIZED, ErrorBody::new("Invalid or revoked API key")),
            ApiError::InsufficientCredits { balance, required } => (
                StatusCode::PAYMENT_REQUIRED,
                ErrorBody {
                    balance: Some(balance),
                    required: Some(required),
                    ..ErrorBody::new(format!(
                        "Insufficient credits: this needs {required} credits and the balance is {balance}"
                    ))
                },
            ),
            ApiError::LimitReached { message, limit, current } => (
                StatusCode::PAYMENT_REQUIRED,
                ErrorBody {
                    limit_reached: Some(true),
                    limit: Some(limit),
                    current: Some(current),
                    ..ErrorBody::new(message)
                },
            ),
            ApiError::MissingScope(scope) => (
                StatusCode::FORBIDDEN,
                ErrorBody {
                    scope: Some(scope.clone()),
                    ..ErrorBody::new(format!(
                        "Missing scope: {scope}. Grant it to this key in Settings → API keys."
                    ))
                },
            ),
            ApiError::NotFound(message) => (StatusCode::NOT_FOUND, ErrorBody::new(message)),
            ApiError::MethodNotAllowed(message) => (StatusCode::METHOD_NOT_ALLOWED, ErrorBody::new(message)),
            ApiError::SectionConflict(conflicts) => (
                StatusCode::CONFLICT,
                ErrorBody {
                    error: format!(
                        "{} section(s) changed since the version you read; nothing was written. \
                         Re-read, reapply your change and send the new version.",
                        conflicts.len()
                    ),
                    conflicts: Some(conflicts),
                    ..Default::default()
                },
            ),
            ApiError::NotesConflict { notes, revision } => (
                StatusCode::CONFLICT,
                ErrorBody {
                    notes: Some(notes),
                    revision: Some(revision),
                    ..ErrorBody::new(
                        "The card's notes changed since the revision you read; nothing was written.",
                    )
                },
            ),
            ApiError::Conflict(message) => (StatusCode::CONFLICT, ErrorBody::new(message)),
            ApiError::TooLarge => (
                StatusCode::PAYLOAD_TOO_LARGE,
                ErrorBody {
                    field: Some("body".into()),
                    ..ErrorBody::new("Request body too large: JSON bodies are limited to 10 MiB, uploads to 50 MiB")
                },
            ),
            ApiError::RateLimited { retry_after } => {
                let mut resp = (
                    StatusCode::TOO_MANY_REQUESTS,
                    Json(ErrorBody {
                        retry_after: Some(retry_after),
                        ..ErrorBody::new(format!(
                            "Rate limit exceeded for this key; retry in {retry_after} s"
                        ))
                    }),
                )
                    .into_response();
                let secs = retry_after.ceil().max(1.0) as u64;
                if let Ok(v) = HeaderValue::from_str(&secs.to_string()) {
                    resp.headers_mut().insert(header::RETRY_AFTER, v);
                }
                return resp;
            }
            ApiError::Internal(detail) => {
                tracing::error!(%detail, "internal error");
                (StatusCode::INTERNAL_SERVER_ERROR, ErrorBody::new("Internal error in the sandbox"))
            }
        };
        (status, Json(body)).into_response()
    }
}
