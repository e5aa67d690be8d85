//! Every way a call can fail, as one enum the UI can match on (GitButler's lesson: a string-only error
//! leaves the UI unable to react). An error answer of the service is turned into a variant here, in one
//! place (`ApiError::from_response`), from the status and the `{"error": …}` body (facts 1.5,
//! docs/api.md). Each HTTP variant keeps the body text; `Display` shows the message, cut short.
use crate::retry::NetworkKind;
use api_types::{ErrorBody, SectionConflict};
use std::time::Duration;

pub type Result<T, E = ApiError> = std::result::Result<T, E>;

/// How much of a body `Display` shows.
const SHOWN_BODY_CHARS: usize = 200;

#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum ApiError {
    /// 401: missing, malformed, unknown or revoked key.
    #[error("unauthorized: {message}")]
    Unauthorized { message: String, body: String },

    /// 403: the key lacks a scope. `scope` is read from the message (the real service names it only
    /// there), falling back to the sandbox's `scope` field.
    #[error("missing scope {}: {message}", scope.as_deref().unwrap_or("(unnamed)"))]
    MissingScope {
        scope: Option<String>,
        message: String,
        body: String,
    },

    /// 404 (another account's record is also "not found").
    #[error("not found: {message}")]
    NotFound { message: String, body: String },

    /// 400, or a rule the client checks before sending (then `body` is empty). `field` is the body's
    /// `field`, else the first `` `name` `` in the message.
    #[error("invalid request{}: {message}", field.as_deref().map(|f| format!(" ({f})")).unwrap_or_default())]
    Validation {
        message: String,
        field: Option<String>,
        valid_values: Vec<String>,
        code: Option<String>,
        body: String,
    },

    /// 409 on a brand-kit section write: nothing was written; each conflict carries the current body.
    #[error("{} brand-kit section(s) changed since they were read; nothing was written", conflicts.len())]
    SectionConflict {
        conflicts: Vec<SectionConflict>,
        message: String,
        body: String,
    },

    /// 409 on card notes: the current notes and revision.
    #[error("the card's notes changed (now revision {revision}); nothing was written")]
    NotesConflict {
        notes: String,
        revision: i64,
        message: String,
        body: String,
    },

    /// Any other 409 (e.g. a duplicate tag name).
    #[error("conflict: {message}")]
    Conflict { message: String, body: String },

    /// 429 after the retries allowed were used up (or the server asked for a longer wait than the
    /// client sleeps).
    #[error("rate limited{}: {message}", retry_after.map(|d| format!(" (retry in {:.1} s)", d.as_secs_f64())).unwrap_or_default())]
    RateLimited {
        retry_after: Option<Duration>,
        message: String,
        body: String,
    },

    /// 402 without `limitReached`: not enough credits (or, newest, `code: spend_cap_reached`: over the
    /// monthly cap); nothing was charged. `balance` is what can be spent (newest: `available`).
    #[error("insufficient credits: {message}")]
    InsufficientCredits {
        balance: Option<f64>,
        required: Option<f64>,
        code: Option<String>,
        message: String,
        body: String,
    },

    /// Any error body with `limitReached: true` (the knowledge cap answers 402), or a newest 402 whose
    /// `code` is `plan_limit` or `storage_full`.
    #[error("plan limit reached: {message}")]
    LimitReached {
        message: String,
        limit: Option<i64>,
        current: Option<i64>,
        status: u16,
        body: String,
    },

    /// 413.
    #[error("payload too large: {message}")]
    PayloadTooLarge { message: String, body: String },

    /// 5xx.
    #[error("server error {status}: {message}")]
    Server {
        status: u16,
        message: String,
        body: String,
    },

    /// Any other status the service should not send (405, 408, 3xx without a location …).
    #[error("unexpected status {status}: {message}")]
    Http {
        status: u16,
        message: String,
        body: String,
    },

    /// The connection failed, timed out or broke. The text is reqwest's, which never holds the key (the
    /// key travels in a header reqwest does not print); it is scrubbed anyway.
    #[error("network error ({kind:?}): {message}")]
    Network { kind: NetworkKind, message: String },

    /// A success (or error) body that is not the JSON expected; `body` is the raw text.
    #[error(
        "could not decode the {status} response: {error}; body: {}",
        shorten(body)
    )]
    Decode {
        status: u16,
        body: String,
        error: String,
    },

    /// `wait`: the render ended `failed`.
    #[error("generation {output_id} failed: {}", error.as_deref().unwrap_or("no reason given"))]
    GenerationFailed {
        output_id: String,
        error: Option<String>,
    },

    /// `wait`: the deadline passed; the job may still finish, poll `output_id` again later.
    #[error("generation {output_id} is not finished yet (deadline passed); poll it again later")]
    GenerationTimeout { output_id: String },

    /// `wait`: cancelled by the caller; the job goes on, poll `output_id` again later.
    #[error("waiting for generation {output_id} was cancelled")]
    Cancelled { output_id: String },

    /// The client could not be built or a URL could not be formed.
    #[error("client configuration: {0}")]
    Config(String),
}

impl ApiError {
    /// The HTTP status behind the error, when there was one.
    pub fn status(&self) -> Option<u16> {
        use ApiError::*;
        match self {
            Unauthorized { .. } => Some(401),
            MissingScope { .. } => Some(403),
            NotFound { .. } => Some(404),
            Validation { body, .. } => (!body.is_empty()).then_some(400),
            SectionConflict { .. } | NotesConflict { .. } | Conflict { .. } => Some(409),
            RateLimited { .. } => Some(429),
            InsufficientCredits { .. } => Some(402),
            LimitReached { status, .. }
            | Server { status, .. }
            | Http { status, .. }
            | Decode { status, .. } => Some(*status),
            PayloadTooLarge { .. } => Some(413),
            Network { .. }
            | GenerationFailed { .. }
            | GenerationTimeout { .. }
            | Cancelled { .. }
            | Config(_) => None,
        }
    }

    /// The raw body of the answer, when there was one.
    pub fn body(&self) -> Option<&str> {
        use ApiError::*;
        match self {
            Unauthorized { body, .. }
            | MissingScope { body, .. }
            | NotFound { body, .. }
            | Validation { body, .. }
            | SectionConflict { body, .. }
            | NotesConflict { body, .. }
            | Conflict { body, .. }
            | RateLimited { body, .. }
            | InsufficientCredits { body, .. }
            | LimitReached { body, .. }
            | PayloadTooLarge { body, .. }
            | Server { body, .. }
            | Http { body, .. }
            | Decode { body, .. } => Some(body),
            _ => None,
        }
    }

    /// Whether trying the same thing again later may succeed (for the UI's "retry" button; the client's
    /// own retries have already run).
    pub fn is_retryable(&self) -> bool {
        use ApiError::*;
        matches!(
            self,
            RateLimited { .. } | Server { .. } | Network { .. } | GenerationTimeout { .. }
        )
    }

    /// The generation to poll again after a wait stopped early (timeout or cancel); `None` for a
    /// failure, which will not change.
    pub fn pending_output_id(&self) -> Option<&str> {
        match self {
            ApiError::GenerationTimeout { output_id } | ApiError::Cancelled { output_id } => {
                Some(output_id)
            }
            _ => None,
        }
    }

    /// Builds the error for a non-success answer.
    pub fn from_response(
        status: u16,
        retry_after_header: Option<Duration>,
        body: String,
    ) -> ApiError {
        // One mapping for both kinds of body. A body that is not the service's JSON (an HTML page from a
        // proxy, plain text) is never used as the message, and the variants that carry the JSON's fields
        // (400, 402, 403, 409's kinds) need it: without it those statuses are plain `Http`/`Conflict`.
        let (eb, json) = match serde_json::from_str::<ErrorBody>(&body) {
            Ok(eb) => (eb, true),
            Err(_) => (ErrorBody::new(non_json_message(status, &body)), false),
        };
        let message = eb.error.clone();
        let plan_cap = status == 402 && matches!(eb.code.as_deref(), Some("plan_limit" | "storage_full"));
        if eb.limit_reached == Some(true) || plan_cap {
            return ApiError::LimitReached {
                message,
                limit: eb.limit,
                current: eb.current,
                status,
                body,
            };
        }
        match status {
            400 if json => {
                let field = eb.field.or_else(|| field_from_message(&message));
                ApiError::Validation {
                    message,
                    field,
                    valid_values: eb.valid_values.unwrap_or_default(),
                    code: eb.code,
                    body,
                }
            }
            401 => ApiError::Unauthorized { message, body },
            402 if json => ApiError::InsufficientCredits {
                balance: eb.available.or(eb.balance),
                required: eb.needed.or(eb.required),
                code: eb.code,
                message,
                body,
            },
            403 if json => {
                let scope = scope_from_message(&message).or(eb.scope);
                ApiError::MissingScope {
                    scope,
                    message,
                    body,
                }
            }
            404 => ApiError::NotFound { message, body },
            409 => match (eb.conflicts, eb.notes, eb.revision) {
                (Some(conflicts), _, _) => ApiError::SectionConflict {
                    conflicts,
                    message,
                    body,
                },
                (None, notes, Some(revision)) => ApiError::NotesConflict {
                    notes: notes.unwrap_or_default(),
                    revision,
                    message,
                    body,
                },
                _ => ApiError::Conflict { message, body },
            },
            413 => ApiError::PayloadTooLarge { message, body },
            429 => {
                let retry_after = eb
                    .retry_after
                    .filter(|s| s.is_finite() && *s >= 0.0)
                    .map(Duration::from_secs_f64)
                    .or(retry_after_header);
                ApiError::RateLimited {
                    retry_after,
                    message,
                    body,
                }
            }
            500..=599 => ApiError::Server {
                status,
                message,
                body,
            },
            _ => ApiError::Http {
                status,
                message,
                body,
            },
        }
    }

    /// A check made on the client before any request.
    pub(crate) fn local_validation(
        field: impl Into<String>,
        message: impl Into<String>,
    ) -> ApiError {
        ApiError::Validation {
            message: message.into(),
            field: Some(field.into()),
            valid_values: Vec::new(),
            code: None,
            body: String::new(),
        }
    }

    pub(crate) fn from_reqwest(e: &reqwest::Error, secret: &str) -> ApiError {
        let kind = if e.is_connect() {
            NetworkKind::Connect
        } else if e.is_timeout() {
            NetworkKind::Timeout
        } else if e.is_request() || e.is_body() || e.is_decode() {
            NetworkKind::Dropped
        } else {
            NetworkKind::Other
        };
        // reqwest's text includes the source chain ("connection refused", "connection closed before
        // message completed"), which is what a user needs to see.
        let mut message = e.to_string();
        let mut source = std::error::Error::source(e);
        while let Some(s) = source {
            message.push_str(": ");
            message.push_str(&s.to_string());
            source = s.source();
        }
        if !secret.is_empty() {
            message = message.replace(secret, "<redacted>");
        }
        ApiError::Network { kind, message }
    }
}

fn shorten(s: &str) -> String {
    if s.chars().count() <= SHOWN_BODY_CHARS {
        s.to_string()
    } else {
        let cut: String = s.chars().take(SHOWN_BODY_CHARS).collect();
        format!("{cut}…")
    }
}

fn non_json_message(status: u16, body: &str) -> String {
    let text = body.split_whitespace().collect::<Vec<_>>().join(" ");
    if text.is_empty() {
        format!("HTTP {status} (empty response)")
    } else if text.starts_with('<') {
        format!("HTTP {status} (non-JSON response)")
    } else {
        format!("HTTP {status}: {}", shorten(&text))
    }
}

/// The first token that looks like a scope (`word:word` or `word:*`) in a 403 message, e.g.
/// "Missing scope: generate:*. Grant it …" → `generate:*`.
pub fn scope_from_message(message: &str) -> Option<String> {
    message.split_whitespace().find_map(|token| {
        let t = token.trim_matches(|c: char| {
            matches!(
                c,
                '.' | ',' | ';' | ':' | '"' | '\'' | '`' | '(' | ')' | '[' | ']'
            )
        });
        let (left, right) = t.split_once(':')?;
        let word = |s: &str| {
            !s.is_empty()
                && s.chars()
                    .all(|c| c.is_ascii_lowercase() || c == '_' || c == '-')
        };
        (word(left) && (right == "*" || word(right))).then(|| t.to_string())
    })
}

/// The first `` `name` `` in a 400 message.
pub fn field_from_message(message: &str) -> Option<String> {
    let start = message.find('`')? + 1;
    let len = message[start..].find('`')?;
    let field = &message[start..start + len];
    (!field.is_empty()).then(|| field.to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn scope_is_read_from_the_message() {
        let cases = [
            (
                "Missing scope: generate:*. Grant it to this key in Settings → API keys.",
                Some("generate:*"),
            ),
            (
                "Missing scope: planner:write. Grant it to this key in Settings → API keys.",
                Some("planner:write"),
            ),
            (
                "This key lacks the brandkit:read scope",
                Some("brandkit:read"),
            ),
            ("Requires scope `assets:write`", Some("assets:write")),
            ("needs (publish:write) to publish", Some("publish:write")),
            (
                "Forbidden: grant editor:write, planner:write",
                Some("editor:write"),
            ),
            ("Forbidden", None),
            ("Time: 12:30 is not a scope", None),
        ];
        for (message, expected) in cases {
            assert_eq!(
                scope_from_message(message).as_deref(),
                expected,
                "{message}"
            );
        }
    }

    #[test]
    fn a_403_falls_back_to_the_scope_field() {
        let e = ApiError::from_response(
            403,
            None,
            r#"{"error":"Forbidden","scope":"favorites:write"}"#.into(),
        );
        assert!(
            matches!(e, ApiError::MissingScope { scope: Some(ref s), .. } if s == "favorites:write"),
            "{e:?}"
        );
        let e = ApiError::from_response(
            403,
            None,
            r#"{"error":"Missing scope: generate:*. Grant it.","scope":"other:thing"}"#.into(),
        );
        assert!(
            matches!(e, ApiError::MissingScope { scope: Some(ref s), .. } if s == "generate:*"),
            "{e:?}"
        );
    }

    #[test]
    fn a_400_names_the_field_from_the_body_or_the_message() {
        let e = ApiError::from_response(
            400,
            None,
            r#"{"error":"bad entry","field":"assets[2]"}"#.into(),
        );
        assert!(matches!(e, ApiError::Validation { field: Some(ref f), .. } if f == "assets[2]"));
        let e = ApiError::from_response(
            400,
            None,
            r#"{"error":"Attach inspiration posts by `contentId`"}"#.into(),
        );
        assert!(matches!(e, ApiError::Validation { field: Some(ref f), .. } if f == "contentId"));
        let e = ApiError::from_response(
            400,
            None,
            r#"{"error":"Unknown role","field":"roles","validValues":["about","offer"]}"#.into(),
        );
        assert!(
            matches!(e, ApiError::Validation { ref valid_values, .. } if valid_values.len() == 2)
        );
    }

    #[test]
    fn statuses_map_to_variants() {
        let e = ApiError::from_response(
            402,
            None,
            r#"{"error":"short","balance":1,"required":4}"#.into(),
        );
        assert!(
            matches!(e, ApiError::InsufficientCredits { balance: Some(b), required: Some(r), .. } if b == 1.0 && r == 4.0)
        );
        let e = ApiError::from_response(
            402,
            None,
            r#"{"error":"cap","limitReached":true,"limit":25,"current":25}"#.into(),
        );
        assert!(matches!(
            e,
            ApiError::LimitReached {
                limit: Some(25),
                current: Some(25),
                status: 402,
                ..
            }
        ));
        let e = ApiError::from_response(
            409,
            None,
            r#"{"error":"changed","conflicts":[{"key":"about","version":3,"body":"now"}]}"#.into(),
        );
        assert!(
            matches!(e, ApiError::SectionConflict { ref conflicts, .. } if conflicts[0].version == 3)
        );
        let e = ApiError::from_response(
            409,
            None,
            r#"{"error":"changed","notes":"theirs","revision":7}"#.into(),
        );
        assert!(
            matches!(e, ApiError::NotesConflict { revision: 7, ref notes, .. } if notes == "theirs")
        );
        let e = ApiError::from_response(409, None, r#"{"error":"Tag exists"}"#.into());
        assert!(matches!(e, ApiError::Conflict { .. }));
        let e = ApiError::from_response(
            429,
            Some(Duration::from_secs(9)),
            r#"{"error":"slow","retryAfter":2}"#.into(),
        );
        assert!(
            matches!(e, ApiError::RateLimited { retry_after: Some(d), .. } if d == Duration::from_secs(2))
        );
        let e = ApiError::from_response(
            429,
            Some(Duration::from_secs(9)),
            "Too Many Requests".into(),
        );
        assert!(
            matches!(e, ApiError::RateLimited { retry_after: Some(d), .. } if d == Duration::from_secs(9))
        );
        let e = ApiError::from_response(502, None, "<html><body>Bad gateway</body></html>".into());
        assert_eq!(e.status(), Some(502));
        assert_eq!(
            e.to_string(),
            "server error 502: HTTP 502 (non-JSON response)"
        );
        assert!(e.body().unwrap().contains("Bad gateway"));
        assert!(e.is_retryable());
        // A body that is not the service's JSON gives the status's plain variant, never the text as a
        // message, and no field or scope guessed from it.
        for status in [400, 402, 403] {
            let e = ApiError::from_response(status, None, "<html>Forbidden by proxy: scope x</html>".into());
            assert!(matches!(e, ApiError::Http { .. }), "{status}: {e:?}");
            assert!(!e.to_string().contains("proxy"), "{e}");
        }
        let e = ApiError::from_response(409, None, "conflict".into());
        assert!(matches!(e, ApiError::Conflict { .. }), "{e:?}");
        let e = ApiError::from_response(413, None, r#"{"error":"Request body too large"}"#.into());
        assert_eq!(e.status(), Some(413));
    }

    #[test]
    fn display_cuts_long_bodies() {
        let e = ApiError::Decode {
            status: 200,
            body: "x".repeat(5000),
            error: "eof".into(),
        };
        let shown = e.to_string();
        assert!(shown.len() < 400, "{}", shown.len());
        assert!(shown.ends_with('…'));
    }
}
