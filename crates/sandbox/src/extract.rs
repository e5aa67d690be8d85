//! Extractors whose rejections are the API's own 400 (or 413) bodies, naming the field at fault
//! (`assets[2].outputId`, `limit`, `body`).
use crate::error::ApiError;
use axum::extract::{FromRequest, FromRequestParts, Request};
use axum::http::request::Parts;
use axum::http::StatusCode;
use serde::de::DeserializeOwned;

/// A JSON body. Malformed JSON, a wrong type, a missing or unknown field: 400 naming it. Bodies are parsed
/// strictly ([`api_types::open::strict`]): a field no one documented, which the client would carry in a
/// request's `extra`, is an unknown field here.
pub struct AppJson<T>(pub T);

impl<S, T> FromRequest<S> for AppJson<T>
where
    T: DeserializeOwned,
    S: Send + Sync,
{
    type Rejection = ApiError;

    async fn from_request(req: Request, state: &S) -> Result<Self, Self::Rejection> {
        let bytes = read_body(req, state).await?;
        parse_json(&bytes).map(AppJson)
    }
}

/// The raw body, with 413 past the router's limit.
pub async fn read_body<S: Send + Sync>(req: Request, state: &S) -> Result<axum::body::Bytes, ApiError> {
    match axum::body::Bytes::from_request(req, state).await {
        Ok(b) => Ok(b),
        Err(e) if e.status() == StatusCode::PAYLOAD_TOO_LARGE => Err(ApiError::TooLarge),
        Err(e) => Err(ApiError::bad("body", format!("Could not read the body: {}", e.body_text()))),
    }
}

/// Parses a JSON body with the API's error for every failure.
pub fn parse_json<T: DeserializeOwned>(bytes: &[u8]) -> Result<T, ApiError> {
    if bytes.iter().all(u8::is_ascii_whitespace) {
        return Err(ApiError::bad("body", "A JSON body is required"));
    }
    strict_json(&mut serde_json::Deserializer::from_slice(bytes))
}

/// Parses an already-read JSON value (handlers that look at the raw JSON first).
pub fn from_value<T: DeserializeOwned>(value: serde_json::Value) -> Result<T, ApiError> {
    strict_json(value)
}

/// Deserialises strictly (a request's `extra` refused), mapping every failure to a 400 naming the field.
fn strict_json<'de, D, T>(de: D) -> Result<T, ApiError>
where
    D: serde::Deserializer<'de, Error = serde_json::Error>,
    T: serde::Deserialize<'de>,
{
    api_types::open::strict(|| {
        serde_path_to_error::deserialize(de).map_err(|e| {
            let path = e.path().to_string();
            json_error(&path, &e.into_inner())
        })
    })
}

fn json_error(path: &str, e: &serde_json::Error) -> ApiError {
    use serde_json::error::Category;
    let msg = strip_position(&e.to_string()).to_string();
    if matches!(e.classify(), Category::Syntax | Category::Eof | Category::Io) {
        return ApiError::bad("body", format!("Malformed JSON: {msg}"));
    }
    let field = field_name(path, &msg);
    ApiError::bad(field.clone(), format!("Invalid field `{field}`: {msg}"))
}

/// The path serde_path_to_error gives, completed with the field serde names in backticks for unknown
/// and missing fields (whose path stops at the parent).
fn field_name(path: &str, msg: &str) -> String {
    let named = (msg.starts_with("unknown field") || msg.starts_with("missing field"))
        .then(|| {
            let start = msg.find('`')? + 1;
            let end = start + msg[start..].find('`')?;
            Some(msg[start..end].to_string())
        })
        .flatten();
    let base = if path == "." { String::new() } else { path.to_string() };
    match (base.is_empty(), named) {
        (true, Some(n)) => n,
        (false, Some(n)) if !base.ends_with(&n) => format!("{base}.{n}"),
        (true, None) => "body".into(),
        _ => base,
    }
}

fn strip_position(msg: &str) -> &str {
    msg.rfind(" at line ").map(|i| &msg[..i]).unwrap_or(msg)
}

/// A query string with the same errors as the body.
pub struct AppQuery<T>(pub T);

impl<S, T> FromRequestParts<S> for AppQuery<T>
where
    T: DeserializeOwned,
    S: Send + Sync,
{
    type Rejection = ApiError;

    async fn from_request_parts(parts: &mut Parts, _state: &S) -> Result<Self, Self::Rejection> {
        let query = parts.uri.query().unwrap_or("");
        let de = serde_urlencoded::Deserializer::new(form_urlencoded::parse(query.as_bytes()));
        serde_path_to_error::deserialize(de).map(AppQuery).map_err(|e| {
            let path = e.path().to_string();
            let msg = e.into_inner().to_string();
            let field = field_name(&path, &msg);
            let field = if field == "body" { "query".to_string() } else { field };
            ApiError::bad(field.clone(), format!("Invalid query parameter `{field}`: {msg}"))
        })
    }
}

/// A JSON reply, serialised straight into one `Vec` sized for a card (axum's `Json` writes through a
/// `BytesMut` writer that starts at 128 bytes: on `GET /cards/{id}` its small writes and regrowth were an
/// eighth of the request's instructions). Same bytes and `Content-Type` as `Json`.
pub struct Reply<T>(pub T);

impl<T: serde::Serialize> axum::response::IntoResponse for Reply<T> {
    fn into_response(self) -> axum::response::Response {
        let mut buf = Vec::with_capacity(4096);
        match serde_json::to_writer(&mut buf, &self.0) {
            Ok(()) => (
                [(axum::http::header::CONTENT_TYPE, axum::http::HeaderValue::from_static("application/json"))],
                buf,
            )
                .into_response(),
            Err(e) => ApiError::internal(format!("could not write the JSON reply: {e}")).into_response(),
        }
    }
}
