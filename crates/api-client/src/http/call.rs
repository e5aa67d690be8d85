//! One API call before it is sent: method, path, query, body, whether it may be retried.
#![allow(unused_imports)]
use super::*;

/// One API call, before it is sent.
pub(crate) struct Call {
    pub method: Method,
    /// Relative to the base, starting with `/`.
    pub path: String,
    pub query: Vec<(String, String)>,
    /// JSON, serialised once so every retry sends the same bytes (the same `outputId`).
    pub body: Option<Bytes>,
    /// Safe to send twice: GET, and generation calls carrying an `outputId`.
    pub idempotent: bool,
}

impl Call {
    pub fn get(path: impl Into<String>) -> Call {
        Call {
            method: Method::GET,
            path: path.into(),
            query: Vec::new(),
            body: None,
            idempotent: true,
        }
    }

    pub fn new(method: Method, path: impl Into<String>) -> Call {
        let idempotent = method == Method::GET;
        Call {
            method,
            path: path.into(),
            query: Vec::new(),
            body: None,
            idempotent,
        }
    }

    pub fn json(mut self, body: &impl Serialize) -> Result<Call> {
        let bytes = serde_json::to_vec(body)
            .map_err(|e| ApiError::Config(format!("could not encode the body: {e}")))?;
        self.body = Some(Bytes::from(bytes));
        Ok(self)
    }

    pub fn query(mut self, name: &'static str, value: impl ToString) -> Call {
        self.query.push((name.to_string(), value.to_string()));
        self
    }

    pub fn query_opt(self, name: &'static str, value: Option<impl ToString>) -> Call {
        match value {
            Some(v) => self.query(name, v),
            None => self,
        }
    }

    /// Adds every field of a serialisable query struct (`CardQuery`, `ContentQuery` …).
    pub fn query_struct(mut self, q: &impl Serialize) -> Result<Call> {
        let value = serde_json::to_value(q).map_err(|e| ApiError::Config(e.to_string()))?;
        if let serde_json::Value::Object(map) = value {
            for (k, v) in map {
                let text = match v {
                    serde_json::Value::Null => continue,
                    serde_json::Value::String(s) => s,
                    other => other.to_string(),
                };
                self.query.push((k, text));
            }
        }
        Ok(self)
    }

    pub fn idempotent(mut self, idempotent: bool) -> Call {
        self.idempotent = idempotent;
        self
    }
}
