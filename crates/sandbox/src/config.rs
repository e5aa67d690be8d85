//! What a sandbox run can be tuned with: render times, smart-wait, rate limit, caps, sizes.
use std::time::Duration;

/// How long a render of each kind takes. Tests use milliseconds; the desktop default is a few seconds.
#[derive(Debug, Clone)]
pub struct RenderTimes {
    pub image: Duration,
    pub video: Duration,
    pub audio: Duration,
    pub board: Duration,
    pub lip_sync: Duration,
}

impl RenderTimes {
    /// Every kind takes the same time.
    pub fn all(d: Duration) -> Self {
        RenderTimes { image: d, video: d, audio: d, board: d, lip_sync: d }
    }
}

impl Default for RenderTimes {
    fn default() -> Self {
        RenderTimes {
            image: Duration::from_secs(4),
            video: Duration::from_secs(20),
            audio: Duration::ZERO,
            board: Duration::from_secs(6),
            lip_sync: Duration::from_secs(20),
        }
    }
}

/// Per-key fixed window.
#[derive(Debug, Clone, Copy)]
pub struct RateLimit {
    pub requests: u32,
    pub window: Duration,
}

#[derive(Debug, Clone)]
pub struct Config {
    /// How long `POST /studio/generate` waits for the render before answering with the `outputId`.
    pub smart_wait: Duration,
    pub render: RenderTimes,
    /// `None`: no limit (benchmarks).
    pub rate_limit: Option<RateLimit>,
    /// Largest JSON body.
    pub max_json_bytes: usize,
    /// Largest upload PUT.
    pub max_upload_bytes: usize,
    /// How long an upload URL stays valid. An upload not completed by then is purged with its bytes (when
    /// the sandbox starts and whenever an upload starts), so abandoned uploads do not keep up to
    /// `max_upload_bytes` each in the database forever.
    pub upload_ttl: Duration,
    /// Knowledge items per brand kit (the plan cap).
    pub knowledge_cap: usize,
    /// Largest base64 `fileData` for knowledge, decoded.
    pub knowledge_max_file_bytes: usize,
    /// Send `pollAfterSeconds` on in-progress replies. Off: a service that gives no hint (facts 3.3 say
    /// clients must not need it), for the poll benchmark.
    pub poll_hint: bool,
    /// How long an OAuth access token lives (`docs/api.md` "OAuth"); tests make it 1 s.
    pub oauth_access_ttl: Duration,
    /// Per client address: requests to the OAuth endpoints a caller reaches without a token
    /// (registration, the consent form's POST, the token endpoint for every grant type, the consent page
    /// when it fetches a Client ID Metadata Document). `None`: no limit.
    pub oauth_rate_limit: Option<RateLimit>,
    /// Whether the authorization server may fetch from a loopback host over plain http (a resource
    /// server's metadata at registration, `oauth/fetch.rs`). On for a sandbox bound to loopback (only this
    /// machine can call it, and this machine reaches its own loopback anyway) and in tests; off when the
    /// sandbox is served beyond this machine (`--public`), so no caller can make it probe local services.
    pub oauth_fetch_loopback: bool,
    /// One more certificate authority (PEM) the authorization server trusts when it fetches over https,
    /// beside the public roots: a test's throwaway CA, so a Client ID Metadata Document can be served over
    /// https on loopback (`serve --oauth-fetch-ca`). `None`: the public roots only.
    pub oauth_fetch_ca: Option<Vec<u8>>,
}

impl Default for Config {
    fn default() -> Self {
        Config {
            smart_wait: Duration::from_secs(50),
            render: RenderTimes::default(),
            rate_limit: Some(RateLimit { requests: 600, window: Duration::from_secs(60) }),
            max_json_bytes: 10 * 1024 * 1024,
            max_upload_bytes: 50 * 1024 * 1024,
            upload_ttl: Duration::from_secs(60 * 60),
            knowledge_cap: 25,
            knowledge_max_file_bytes: api_types::values::KNOWLEDGE_MAX_FILE_BYTES,
            poll_hint: true,
            oauth_access_ttl: Duration::from_secs(600),
            oauth_rate_limit: Some(RateLimit { requests: 60, window: Duration::from_secs(60) }),
            oauth_fetch_loopback: false,
            oauth_fetch_ca: None,
        }
    }
}

impl Config {
    /// Fast renders, short smart-wait, no rate limit: for tests.
    #[cfg(feature = "testing")]
    pub fn for_tests() -> Self {
        Config {
            smart_wait: Duration::from_millis(300),
            render: RenderTimes::all(Duration::from_millis(50)),
            rate_limit: None,
            oauth_rate_limit: None,
            oauth_fetch_loopback: true,
            ..Config::default()
        }
    }
}
