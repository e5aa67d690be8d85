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

/// The production base (docs/api.md).
pub const DEFAULT_BASE_URL: &str = "https://app.contenthero.ai/api/v1";

/// The API's base from what a user gave: a host with no path (`http://127.0.0.1:8787`, how the official
/// client reads `CONTENTHERO_BASE_URL`, adding `/api/v1` itself) gets `/api/v1`; a URL with a path
/// (`…/api/v1`, or a proxy's own prefix) is the full base, as given. Trailing slashes go either way.
/// Every client is built through this (`ClientBuilder::build`), so `cdesk`, `cdesk mcp` and the app's
/// profiles read a base URL alike.
pub fn api_base(given: &str) -> String {
    let url = given.trim().trim_end_matches('/');
    let path_less = url
        .split_once("://")
        .is_some_and(|(_, rest)| !rest.is_empty() && !rest.contains(['/', '?', '#']));
    if path_less {
        format!("{url}/api/v1")
    } else {
        url.to_string()
    }
}

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

/// Options of a client. Every request says who sends it: [`USER_AGENT`] (the workspace's one version).
#[derive(Clone)]
pub struct ClientBuilder {
    base_url: String,
    key: ApiKey,
    timeout: Duration,
    connect_timeout: Duration,
    retry: RetryConfig,
    on_retry: Option<OnRetry>,
}

impl std::fmt::Debug for ClientBuilder {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("ClientBuilder")
            .field("base_url", &self.base_url)
            .field("key", &self.key)
            .field("timeout", &self.timeout)
            .field("connect_timeout", &self.connect_timeout)
            .field("retry", &self.retry)
            .field("on_retry", &self.on_retry.is_some())
            .finish()
    }
}

impl ClientBuilder {
    /// Whole-request timeout. The default (90 s) leaves room for the ~50 s smart-wait of a generate.
    pub fn timeout(mut self, timeout: Duration) -> Self {
        self.timeout = timeout;
        self
    }

    pub fn connect_timeout(mut self, timeout: Duration) -> Self {
        self.connect_timeout = timeout;
        self
    }

    pub fn retry(mut self, retry: RetryConfig) -> Self {
        self.retry = retry;
        self
    }

    /// Called before each retry's wait.
    pub fn on_retry(mut self, f: OnRetry) -> Self {
        self.on_retry = Some(f);
        self
    }

    pub fn base_url(mut self, base_url: impl Into<String>) -> Self {
        self.base_url = base_url.into();
        self
    }

    pub fn build(self) -> Result<Client> {
        let base_url = api_base(&self.base_url);
        if !(base_url.starts_with("http://") || base_url.starts_with("https://")) {
            return Err(ApiError::Config(format!(
                "base URL must start with http:// or https://: {base_url}"
            )));
        }
        // The key goes in every request's header: over plain http only to this machine.
        if base_url.starts_with("http://") && !is_loopback_authority(&base_url["http://".len()..]) {
            return Err(ApiError::Config(format!(
                "refusing to send the API key over plain http to {base_url}: use https:// (http:// is for a server on this computer)"
            )));
        }
        let mut auth =
            HeaderValue::from_str(&format!("Bearer {}", self.key.expose())).map_err(|_| {
                ApiError::Config("the API key holds characters a header cannot carry".into())
            })?;
        auth.set_sensitive(true);
        let base = reqwest::Url::parse(&base_url)
            .map_err(|e| ApiError::Config(format!("the base URL {base_url} is not a URL: {e}")))?;
        let http = reqwest::Client::builder()
            .user_agent(USER_AGENT)
            .timeout(self.timeout)
            .connect_timeout(self.connect_timeout)
            .build()
            .map_err(|e| ApiError::Config(e.to_string()))?;
        Ok(Client {
            inner: Arc::new(Inner {
                http,
                base_url,
                base,
                key: self.key,
                auth,
                retry: self.retry,
                on_retry: self.on_retry,
            }),
        })
    }
}

/// The `User-Agent` of every request: `ContentDesk/<version>`, the workspace's `version` (issue 24: one
/// version for the app, its package, `cdesk --version`, the MCP server and this header).
pub const USER_AGENT: &str = concat!("ContentDesk/", env!("CARGO_PKG_VERSION"));

/// Whether `host[:port]/...` names this machine: `localhost`, `127.0.0.0/8` or `[::1]`.
fn is_loopback_authority(rest: &str) -> bool {
    let authority = rest.split(['/', '?', '#']).next().unwrap_or("");
    if authority.contains('@') {
        return false;
    }
    let host = match authority.strip_prefix('[') {
        Some(v6) => v6.split(']').next().unwrap_or(""),
        None => authority.rsplit_once(':').map_or(authority, |(h, _)| h),
    };
    host.eq_ignore_ascii_case("localhost")
        || host.parse::<std::net::IpAddr>().is_ok_and(|ip| ip.is_loopback())
}

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
mod tests {
    use super::*;

    #[test]
    fn base_url_loses_its_trailing_slash() {
        let c = Client::new("http://localhost:1/api/v1/", ApiKey::new("ch_live_x")).unwrap();
        assert_eq!(c.base_url(), "http://localhost:1/api/v1");
        assert!(Client::new("localhost/api/v1", ApiKey::new("k")).is_err());
    }

    #[test]
    fn a_host_alone_is_the_api_under_it_and_a_full_base_is_kept() {
        for (given, base) in [
            ("http://127.0.0.1:8787", "http://127.0.0.1:8787/api/v1"),
            ("http://127.0.0.1:8787/", "http://127.0.0.1:8787/api/v1"),
            ("https://app.contenthero.ai", "https://app.contenthero.ai/api/v1"),
            (" http://[::1]:9 ", "http://[::1]:9/api/v1"),
            ("http://127.0.0.1:8787/api/v1", "http://127.0.0.1:8787/api/v1"),
            ("http://127.0.0.1:8787/api/v1/", "http://127.0.0.1:8787/api/v1"),
            ("https://proxy.example/contenthero/api/v1", "https://proxy.example/contenthero/api/v1"),
            ("https://proxy.example/prefix", "https://proxy.example/prefix"),
        ] {
            assert_eq!(api_base(given), base, "{given}");
            assert_eq!(Client::new(given, ApiKey::new("k")).unwrap().base_url(), base, "{given}");
        }
        let c = Client::new("http://127.0.0.1:8787", ApiKey::new("k")).unwrap();
        assert_eq!(c.inner.url("/cards").unwrap().as_str(), "http://127.0.0.1:8787/api/v1/cards");
    }

    #[test]
    fn a_call_url_is_the_base_url_and_the_path_parsed_together() {
        for base in ["http://localhost:1/api/v1", "https://api.example.com/api/v1/", "http://127.0.0.1:8787", "https://Exämple.com/x/api/v1"] {
            let c = Client::new(base, ApiKey::new("k")).unwrap();
            for path in ["/cards", "/cards/abc-1", &format!("/cards/{}", seg("a b/ü?#%")), "/brand-kits/k/sections/s", "/cards?limit=1", "/a#b"] {
                let want = reqwest::Url::parse(&format!("{}{}", c.base_url(), path)).unwrap();
                assert_eq!(c.inner.url(path).unwrap(), want, "{base} + {path}");
            }
        }
    }

    #[test]
    fn with_key_keeps_the_options_and_hides_the_new_credential() {
        let c = Client::new("http://localhost:1/api/v1", ApiKey::new("ch_live_first")).unwrap();
        let d = c.with_key(ApiKey::new("cho_at_delegatedsecret")).unwrap();
        assert_eq!(d.base_url(), c.base_url());
        assert_eq!(d.inner.auth.to_str().unwrap(), "Bearer cho_at_delegatedsecret");
        assert!(d.inner.auth.is_sensitive());
        assert!(!format!("{d:?}").contains("delegatedsecret"), "{d:?}");
        assert_eq!(c.inner.auth.to_str().unwrap(), "Bearer ch_live_first", "the first client keeps its own");
        assert!(c.with_key(ApiKey::new("bad\nvalue")).is_err());
    }

    #[test]
    fn a_key_goes_over_plain_http_only_to_this_computer() {
        for ok in ["http://127.0.0.1:8787/api/v1", "http://localhost/api/v1", "http://[::1]:9/api/v1", "http://127.9.9.9/x", "https://example.com/api/v1"] {
            assert!(Client::new(ok, ApiKey::new("ch_live_secretvalue")).is_ok(), "{ok}");
        }
        for bad in ["http://example.com/api/v1", "http://192.168.1.10:8787/api/v1", "http://localhost.example.com/x", "http://127.0.0.1.nip.io/x", "http://127.0.0.1@example.com/x"] {
            let e = Client::new(bad, ApiKey::new("ch_live_secretvalue")).unwrap_err().to_string();
            assert!(e.contains("plain http") && !e.contains("secretvalue"), "{bad}: {e}");
        }
    }

    #[test]
    fn client_debug_hides_the_key() {
        let c = Client::new(
            "http://localhost:1/api/v1",
            ApiKey::new("ch_live_supersecretvalue"),
        )
        .unwrap();
        assert!(!format!("{c:?}").contains("supersecret"));
    }

    #[test]
    fn origin_and_segments() {
        assert_eq!(origin("http://127.0.0.1:9/api/v1"), "http://127.0.0.1:9");
        assert_eq!(seg("a b/c"), "a%20b%2Fc");
        assert_eq!(seg("0f3e-9"), "0f3e-9");
    }
}
