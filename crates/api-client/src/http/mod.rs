//! The sender: builds each request with the service's headers (facts 1.2), sends it, retries it as
//! `retry::decide` says, and turns the answer into a value or an `ApiError`. Every resource handler goes
//! through `Client::call`.
use crate::error::{ApiError, Result};
use crate::key::ApiKey;
use crate::retry::{self, Decision, Outcome, RetryConfig};
use crate::transfer::{ChunkedBody, OnBytes};
use bytes::Bytes;
use reqwest::header::{
    HeaderMap, HeaderValue, ACCEPT, AUTHORIZATION, CONTENT_LENGTH, CONTENT_TYPE, RETRY_AFTER,
};
use reqwest::Method;
use serde::de::DeserializeOwned;
use serde::Serialize;
use std::sync::Arc;
use std::time::{Duration, SystemTime};

mod builder;
mod call;
pub use builder::*;
pub(crate) use call::Call;

/// A typed client of the Content Production Service API v1. Cheap to clone: clones share one
/// connection pool, so make one and hand out clones.
#[derive(Clone)]
pub struct Client {
    pub(crate) inner: Arc<Inner>,
}

pub(crate) struct Inner {
    pub(crate) http: reqwest::Client,
    /// Ends in `/api/v1`, no trailing slash.
    pub(crate) base_url: String,
    /// `base_url` parsed once: a call's URL is this with its path set (see [`Inner::url`]), not a string
    /// parsed again per request (parsing, the host's IDNA pass included, was ~5% of an agent tool call's CPU).
    pub(crate) base: reqwest::Url,
    pub(crate) key: ApiKey,
    /// Built once; marked sensitive so hyper never logs it.
    pub(crate) auth: HeaderValue,
    pub(crate) retry: RetryConfig,
    on_retry: Option<OnRetry>,
}

/// A retry about to happen: which attempt ended, how (the status, or none for a network error), and how
/// long the client waits before the next one (a 429's `retryAfter`, or the backoff).
#[derive(Debug, Clone, PartialEq)]
pub struct RetryNotice {
    pub attempt: u32,
    pub status: Option<u16>,
    pub wait: Duration,
}

/// Told of each retry before its wait (a terminal says "rate limited: waiting 12 s").
pub type OnRetry = Arc<dyn Fn(&RetryNotice) + Send + Sync>;

impl std::fmt::Debug for Client {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Client")
            .field("base_url", &self.inner.base_url)
            .field("key", &self.inner.key)
            .finish()
    }
}

impl Client {
    /// A client with the default timeouts and retries. `base_url` ends in `/api/v1`, or is a host alone
    /// (`/api/v1` added: [`api_base`]).
    pub fn new(base_url: impl Into<String>, key: ApiKey) -> Result<Client> {
        Client::builder(key).base_url(base_url).build()
    }

    /// Starts from the production base URL, 90 s timeout, 10 s connect timeout, 4 attempts.
    pub fn builder(key: ApiKey) -> ClientBuilder {
        ClientBuilder {
            base_url: DEFAULT_BASE_URL.to_string(),
            key,
            timeout: Duration::from_secs(90),
            connect_timeout: Duration::from_secs(10),
            retry: RetryConfig::default(),
            on_retry: None,
        }
    }

    pub(crate) fn notify_retry(&self, attempt: u32, outcome: &retry::Outcome, wait: Duration) {
        if let Some(f) = &self.inner.on_retry {
            let status = match outcome {
                retry::Outcome::Status(s, ..) => Some(*s),
                retry::Outcome::Network(_) => None,
            };
            f(&RetryNotice { attempt, status, wait });
        }
    }

    pub fn base_url(&self) -> &str {
        &self.inner.base_url
    }

    /// The same client (base URL, timeouts, retries, connection pool) acting with another credential: a
    /// server acting for many users (`cdesk mcp --http`, one delegated OAuth access token each) makes one
    /// client and derives one per user without opening a pool each. The credential is sent as
    /// `Authorization: Bearer …` like a key, and is as secret (never printed, zeroized on drop).
    pub fn with_key(&self, key: ApiKey) -> Result<Client> {
        let mut auth = HeaderValue::from_str(&format!("Bearer {}", key.expose()))
            .map_err(|_| ApiError::Config("the credential holds characters a header cannot carry".into()))?;
        auth.set_sensitive(true);
        let i = &self.inner;
        Ok(Client {
            inner: Arc::new(Inner {
                http: i.http.clone(),
                base_url: i.base_url.clone(),
                base: i.base.clone(),
                key,
                auth,
                retry: i.retry.clone(),
                on_retry: i.on_retry.clone(),
            }),
        })
    }

    pub fn retry_config(&self) -> &RetryConfig {
        &self.inner.retry
    }

    /// Sends any JSON request and returns the JSON answer: for endpoints this client does not wrap, and
    /// for checking that the server refuses inputs the typed requests cannot express.
    pub async fn send_json(
        &self,
        method: Method,
        path: &str,
        body: Option<&serde_json::Value>,
    ) -> Result<serde_json::Value> {
        let mut call = Call::new(method, path);
        if let Some(b) = body {
            call = call.json(b)?;
        }
        self.call(call).await
    }

    pub(crate) async fn call<T: DeserializeOwned>(&self, call: Call) -> Result<T> {
        let (status, bytes) = self.execute(call).await?;
        decode(status, &bytes)
    }

    /// Sends with retries; returns the status and body of a success, or the error of the last attempt.
    pub(crate) async fn execute(&self, call: Call) -> Result<(u16, Bytes)> {
        let url = self.inner.url(&call.path)?;
        let mut attempt = 0;
        loop {
            attempt += 1;
            let mut req = self
                .inner
                .http
                .request(call.method.clone(), url.clone())
                .header(AUTHORIZATION, self.inner.auth.clone())
                .header(ACCEPT, "application/json");
            if !call.query.is_empty() {
                req = req.query(&call.query);
            }
            if let Some(body) = &call.body {
                req = req
                    .header(CONTENT_TYPE, "application/json")
                    .body(body.clone());
            }
            let (outcome, error) = match send(req, self.inner.key.expose()).await {
                Ok((status, _, bytes)) if (200..300).contains(&status) => {
                    tracing::debug!(method = %call.method, path = %call.path, status, "api call");
                    return Ok((status, bytes));
                }
                Ok((status, header_retry, bytes)) => {
                    tracing::debug!(method = %call.method, path = %call.path, status, attempt, "api call failed");
                    let body = String::from_utf8_lossy(&bytes).into_owned();
                    let body_retry = if status == 429 || status == 503 {
                        body_retry_after(&body)
                    } else {
                        None
                    };
                    (
                        Outcome::Status(status, body_retry, header_retry),
                        ApiError::from_response(status, header_retry, body),
                    )
                }
                Err(e) => {
                    let kind = match &e {
                        ApiError::Network { kind, .. } => *kind,
                        _ => crate::retry::NetworkKind::Other,
                    };
                    tracing::debug!(method = %call.method, path = %call.path, attempt, ?kind, "api call: network error");
                    (Outcome::Network(kind), e)
                }
            };
            self.wait_or_give_up(attempt, &outcome, error, call.idempotent).await?;
        }
    }

    /// PUTs bytes to an upload URL: no `Authorization` (it is object storage), exactly `headers`.
    /// Retried like an idempotent call: a PUT of the same bytes to the same URL lands once. With
    /// `on_bytes`, the body goes out in chunks and each chunk handed to the connection is reported as
    /// `(sent, total)` (a retry starts again from 0).
    pub(crate) async fn put_raw(
        &self,
        url: &str,
        mut headers: HeaderMap,
        bytes: Bytes,
        on_bytes: Option<OnBytes>,
    ) -> Result<()> {
        let url = self.absolute(url);
        if on_bytes.is_some() && !headers.contains_key(CONTENT_LENGTH) {
            // Object storage refuses a chunked PUT: the length goes first.
            headers.insert(CONTENT_LENGTH, HeaderValue::from(bytes.len() as u64));
        }
        let mut attempt = 0;
        loop {
            attempt += 1;
            let body = match &on_bytes {
                Some(report) => reqwest::Body::wrap(ChunkedBody {
                    bytes: bytes.clone(),
                    sent: 0,
                    report: report.clone(),
                }),
                None => reqwest::Body::from(bytes.clone()),
            };
            let req = self
                .inner
                .http
                .put(&url)
                .headers(headers.clone())
                .body(body);
            match send(req, "").await {
                Ok((status, _, _)) if (200..300).contains(&status) => {
                    tracing::debug!(method = "PUT", path = "<upload url>", status, "upload");
                    return Ok(());
                }
                failed => {
                    let (outcome, error) = failed_attempt(failed);
                    self.wait_or_give_up(attempt, &outcome, error, true).await?;
                }
            }
        }
    }
}

impl Inner {
    /// The URL of a path relative to the base (`/cards/…`): the parsed base with the path appended, the
    /// same URL as parsing `base_url + path` (a path carrying its own `?` or `#` is parsed that way).
    pub(crate) fn url(&self, path: &str) -> Result<reqwest::Url> {
        if !path.contains(['?', '#']) {
            let mut url = self.base.clone();
            url.set_path(&format!("{}{}", self.base.path().trim_end_matches('/'), path));
            return Ok(url);
        }
        let joined = format!("{}{}", self.base_url, path);
        reqwest::Url::parse(&joined).map_err(|e| ApiError::Config(format!("{joined} is not a URL: {e}")))
    }
}

impl Client {
    /// After a failed attempt: waits as the retry policy says (telling `on_retry`), or gives the error
    /// back when it says to stop.
    pub(crate) async fn wait_or_give_up(&self, attempt: u32, outcome: &Outcome, error: ApiError, idempotent: bool) -> Result<()> {
        match retry::decide(attempt, outcome, idempotent, &self.inner.retry, rand::random::<f64>()) {
            Decision::Retry(wait) => {
                self.notify_retry(attempt, outcome, wait);
                tokio::time::sleep(wait).await;
                Ok(())
            }
            Decision::GiveUp => Err(error),
        }
    }
}

/// A transfer attempt that did not succeed (a non-2xx answer or a failed send), as the retry policy and the
/// caller see it.
pub(crate) fn failed_attempt(result: Result<(u16, Option<std::time::Duration>, Bytes)>) -> (Outcome, ApiError) {
    match result {
        Ok((status, header_retry, body)) => {
            let body = String::from_utf8_lossy(&body).into_owned();
            (Outcome::Status(status, None, header_retry), ApiError::from_response(status, header_retry, body))
        }
        Err(e) => {
            let kind = match &e {
                ApiError::Network { kind, .. } => *kind,
                _ => crate::retry::NetworkKind::Other,
            };
            (Outcome::Network(kind), e)
        }
    }
}

/// One attempt: the status, the parsed `Retry-After`, and the whole body.
pub(crate) async fn send(
    req: reqwest::RequestBuilder,
    secret: &str,
) -> Result<(u16, Option<std::time::Duration>, Bytes)> {
    let resp = req
        .send()
        .await
        .map_err(|e| ApiError::from_reqwest(&e, secret))?;
    let status = resp.status().as_u16();
    let retry_after = resp
        .headers()
        .get(RETRY_AFTER)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| retry::parse_retry_after(v, SystemTime::now()));
    let bytes = resp
        .bytes()
        .await
        .map_err(|e| ApiError::from_reqwest(&e, secret))?;
    Ok((status, retry_after, bytes))
}

pub(crate) fn body_retry_after(body: &str) -> Option<f64> {
    #[derive(serde::Deserialize)]
    #[serde(rename_all = "camelCase")]
    struct Hint {
        retry_after: Option<f64>,
    }
    serde_json::from_str::<Hint>(body).ok()?.retry_after
}

/// `scheme://host:port` of the base.
pub(crate) fn origin(base: &str) -> &str {
    let after_scheme = base.find("://").map(|i| i + 3).unwrap_or(0);
    match base[after_scheme..].find('/') {
        Some(i) => &base[..after_scheme + i],
        None => base,
    }
}

pub(crate) fn decode<T: DeserializeOwned>(status: u16, bytes: &[u8]) -> Result<T> {
    serde_json::from_slice(bytes).map_err(|e| ApiError::Decode {
        status,
        body: String::from_utf8_lossy(bytes).into_owned(),
        error: e.to_string(),
    })
}

/// A path segment, percent-encoded so an id can never change the path.
pub(crate) fn seg(id: &str) -> String {
    let mut out = String::with_capacity(id.len());
    for b in id.bytes() {
        match b {
            b'A'..=b'Z' | b'a'..=b'z' | b'0'..=b'9' | b'-' | b'_' | b'.' | b'~' => {
                out.push(b as char)
            }
            _ => out.push_str(&format!("%{b:02X}")),
        }
    }
    out
}

#[cfg(test)]
mod tests;
