//! The client's options and its base URL: `ClientBuilder`, `api_base`, the `User-Agent`.
#![allow(unused_imports)]
use super::*;

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

/// Options of a client. Every request says who sends it: [`USER_AGENT`] (the workspace's one version).
#[derive(Clone)]
pub struct ClientBuilder {
    pub(super) base_url: String,
    pub(super) key: ApiKey,
    pub(super) timeout: Duration,
    pub(super) connect_timeout: Duration,
    pub(super) retry: RetryConfig,
    pub(super) on_retry: Option<OnRetry>,
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
