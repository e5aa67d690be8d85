//! The gate of `cdesk mcp --http` ([`crate::mcp_http`]): the settings found at start, the caller a
//! checked request carries, and each token's check (introspection at the authorization server, the
//! audience, the expiry) and its exchange for an API token (RFC 8693), kept per token until it expires.
use crate::mcp_http::origin_of;
use api_client::{ApiKey, Client};
use axum::http::{header, HeaderValue, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::Json;
use rmcp::service::RequestContext;
use rmcp::RoleServer;
use serde::Deserialize;
use serde_json::{json, Value};
use sha2::{Digest, Sha256};
use std::collections::HashMap;
use std::sync::Mutex;
use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};

pub(crate) const TOKEN_EXCHANGE: &str = "urn:ietf:params:oauth:grant-type:token-exchange";
pub(crate) const ACCESS_TOKEN_TYPE: &str = "urn:ietf:params:oauth:token-type:access_token";

/// A registration proof shared by the instances behind one address (at least 32 characters).
pub const PROOF_ENV: &str = "CDESK_MCP_REGISTRATION_PROOF";

/// Exchanged tokens kept at most this many; past it the expired ones go first, then the oldest.
pub(crate) const EXCHANGE_CACHE_MAX: usize = 10_000;

/// What the server needs to know: where it is reached and who issues its tokens.
#[derive(Debug, Clone)]
pub struct Settings {
    /// The authorization server's issuer (the sandbox's origin), no trailing slash.
    pub issuer: String,
    /// The API's base URL (`…/api/v1`): the audience of the exchanged tokens.
    pub api_base: String,
    /// How clients reach this server (`http://127.0.0.1:PORT` by default), no trailing slash.
    pub public_url: String,
    /// The authorization server's endpoints (from its RFC 8414 metadata).
    pub introspection_endpoint: String,
    pub token_endpoint: String,
    /// Where this server registers itself as a token-exchange client (RFC 7591).
    pub registration_endpoint: Option<String>,
    /// Browser origins allowed besides this server's own (`--allow-origin`), as [`origin_of`] writes them.
    pub allowed_origins: Vec<String>,
}

impl Settings {
    /// This server's resource identifier: the audience its tokens must carry.
    pub fn resource(&self) -> String {
        format!("{}/mcp", self.public_url)
    }

    /// Whether a request's `Origin` may reach `/mcp`: this server's own origin (its public URL's) or
    /// one allowed with `--allow-origin`, compared as (scheme, host, port).
    pub(crate) fn origin_allowed(&self, origin: &str) -> bool {
        let Some(origin) = origin_of(origin) else { return false };
        origin_of(&self.public_url).as_deref() == Some(origin.as_str()) || self.allowed_origins.contains(&origin)
    }

    /// Where the protected-resource metadata is (RFC 9728 section 3.1: the resource's path after the
    /// well-known prefix).
    pub fn metadata_url(&self) -> String {
        format!("{}/.well-known/oauth-protected-resource/mcp", self.public_url)
    }
}

/// The user a request acts as: an API client holding their exchanged token. Put on the HTTP request by
/// [`check_token`]; the tool handlers find it through [`caller`].
#[derive(Clone)]
pub struct Caller {
    pub(crate) client: Client,
}

/// The API client of the request's checked caller (`None` outside `cdesk mcp --http`).
pub fn caller(context: &RequestContext<RoleServer>) -> Option<Client> {
    let parts = context.extensions.get::<axum::http::request::Parts>()?;
    parts.extensions.get::<Caller>().map(|c| c.client.clone())
}

/// An RFC 7662 answer (the fields this server reads).
#[derive(Debug, Deserialize)]
pub(crate) struct Introspection {
    pub(crate) active: bool,
    #[serde(default)]
    pub(crate) aud: Option<Value>,
    #[serde(default)]
    pub(crate) exp: Option<u64>,
    #[serde(default)]
    pub(crate) client_id: Option<String>,
    #[serde(default)]
    pub(crate) sub: Option<String>,
}

impl Introspection {
    pub(crate) fn audiences(&self) -> Vec<&str> {
        match &self.aud {
            Some(Value::String(s)) => vec![s.as_str()],
            Some(Value::Array(a)) => a.iter().filter_map(Value::as_str).collect(),
            _ => Vec::new(),
        }
    }
}

pub(crate) struct Exchanged {
    pub(crate) client: Client,
    pub(crate) until: Instant,
}

pub struct Gate {
    pub(crate) settings: Settings,
    pub(crate) http: reqwest::Client,
    /// Every user's client derives from this one (one connection pool); it never sends its own
    /// credential.
    pub(crate) api: Client,
    /// sha256(subject token) → the API client with its exchanged token. Not the token itself as key.
    pub(crate) exchanged: Mutex<HashMap<[u8; 32], Exchanged>>,
    /// The secret whose hash the metadata publishes while this server registers (proof it is the resource).
    pub(crate) proof: String,
    /// This server's client id and secret at the authorization server, once registered.
    pub(crate) credentials: std::sync::OnceLock<(String, String)>,
    /// `Mcp-Session-Id` → the subject that began the session (sessions are kept only with
    /// `--confirm-spend-over`): another subject's request naming it is refused.
    pub(crate) owners: Mutex<HashMap<String, String>>,
}

/// Why a request is refused before it reaches a tool.
pub(crate) enum Refusal {
    /// No bearer token: the client should discover how to get one.
    NoToken,
    /// A token that is not (or no longer) good for this server.
    Invalid(String),
    /// The authorization server could not be asked.
    Unavailable(String),
}

pub(crate) fn now_secs() -> u64 {
    SystemTime::now().duration_since(UNIX_EPOCH).map(|d| d.as_secs()).unwrap_or(0)
}

impl Gate {
    pub fn new(settings: Settings) -> Result<Gate, String> {
        let http = reqwest::Client::builder()
            .timeout(Duration::from_secs(20))
            .connect_timeout(Duration::from_secs(5))
            .build()
            .map_err(|e| format!("cannot start the HTTP client: {e}"))?;
        // Never sent: every call goes through a client derived with the caller's own token.
        let api = Client::builder(ApiKey::new("no-credential-of-its-own"))
            .base_url(&settings.api_base)
            .build()
            .map_err(|e| e.to_string())?;
        // Instances behind one address share it (`CDESK_MCP_REGISTRATION_PROOF`): the authorization server
        // reads the proof from whichever instance the address reaches. Alone, a random one.
        let proof = std::env::var(PROOF_ENV)
            .ok()
            .filter(|p| p.len() >= 32)
            .unwrap_or_else(|| format!("{}{}", uuid::Uuid::new_v4().simple(), uuid::Uuid::new_v4().simple()));
        Ok(Gate { settings, http, api, exchanged: Mutex::new(HashMap::new()), proof, credentials: std::sync::OnceLock::new(), owners: Mutex::new(HashMap::new()) })
    }

    /// BASE64URL(SHA-256(proof)): what the metadata publishes.
    pub(crate) fn proof_hash(&self) -> String {
        use base64::Engine as _;
        base64::engine::general_purpose::URL_SAFE_NO_PAD.encode(Sha256::digest(self.proof.as_bytes()))
    }

    /// Registers this server as a token-exchange client for its resource (the app must already be
    /// serving: the authorization server reads the metadata to check the proof).
    pub async fn register(&self) -> Result<(), String> {
        let endpoint = self.settings.registration_endpoint.as_deref().ok_or(
            "the authorization server's metadata has no registration_endpoint: this server registers itself there for token exchange",
        )?;
        let answer = self
            .http
            .post(endpoint)
            .json(&json!({
                "client_name": "cdesk mcp --http (resource server)",
                "grant_types": [TOKEN_EXCHANGE],
                "token_endpoint_auth_method": "client_secret_basic",
                "resource": self.settings.resource(),
                "resource_proof": self.proof,
            }))
            .send()
            .await
            .map_err(|e| format!("the authorization server did not answer the registration: {}", e.without_url()))?;
        let status = answer.status();
        let body: Value = answer.json().await.unwrap_or(Value::Null);
        let field = |k: &str| body.get(k).and_then(Value::as_str).map(str::to_string);
        match (status.is_success(), field("client_id"), field("client_secret")) {
            (true, Some(id), Some(secret)) => {
                let _ = self.credentials.set((id, secret));
                Ok(())
            }
            _ => Err(format!(
                "the authorization server refused this server's registration for token exchange ({status}): {}",
                field("error_description").or_else(|| field("error")).unwrap_or_default()
            )),
        }
    }

    /// Introspects the token and checks it is for this server; then the API client acting as its user.
    /// The caller's API client and who they are (the token's `sub`, else its client's id).
    pub(crate) async fn check(&self, token: &str) -> Result<(Client, String), Refusal> {
        let answer = self
            .http
            .post(&self.settings.introspection_endpoint)
            .form(&[("token", token)])
            .send()
            .await
            .map_err(|e| Refusal::Unavailable(format!("the authorization server did not answer the introspection: {}", e.without_url())))?;
        if !answer.status().is_success() {
            return Err(Refusal::Unavailable(format!("the authorization server answered the introspection with {}", answer.status())));
        }
        let info: Introspection = answer
            .json()
            .await
            .map_err(|e| Refusal::Unavailable(format!("the introspection's answer is not RFC 7662 JSON: {e}")))?;
        if !info.active {
            return Err(Refusal::Invalid("the access token is not active (expired, revoked or unknown): get a new one".into()));
        }
        let resource = self.settings.resource();
        if !info.audiences().contains(&resource.as_str()) {
            return Err(Refusal::Invalid(format!("the access token is for another resource: ask for one with resource={resource}")));
        }
        let exp = info.exp.unwrap_or(0);
        if exp <= now_secs() {
            return Err(Refusal::Invalid("the access token has expired: refresh it".into()));
        }
        let subject = info.sub.clone().or_else(|| info.client_id.clone()).unwrap_or_default();
        Ok((self.api_client(token, exp, info.client_id.as_deref()).await?, subject))
    }

    /// The API client for this token: exchanged once, kept until the earlier expiry.
    pub(crate) async fn api_client(&self, token: &str, exp: u64, client_id: Option<&str>) -> Result<Client, Refusal> {
        let digest: [u8; 32] = Sha256::digest(token.as_bytes()).into();
        let now = Instant::now();
        if let Some(e) = self.exchanged.lock().expect("cache").get(&digest) {
            if e.until > now {
                return Ok(e.client.clone());
            }
        }
        let _ = client_id;
        let form = [
            ("grant_type", TOKEN_EXCHANGE),
            ("subject_token", token),
            ("subject_token_type", ACCESS_TOKEN_TYPE),
            ("requested_token_type", ACCESS_TOKEN_TYPE),
            ("resource", self.settings.api_base.as_str()),
        ];
        let Some((id, secret)) = self.credentials.get() else {
            return Err(Refusal::Unavailable("this server is not registered with the authorization server yet".into()));
        };
        let answer = self
            .http
            .post(&self.settings.token_endpoint)
            .basic_auth(id, Some(secret))
            .form(&form)
            .send()
            .await
            .map_err(|e| Refusal::Unavailable(format!("the authorization server did not answer the token exchange: {}", e.without_url())))?;
        let status = answer.status();
        let body: Value = answer.json().await.unwrap_or(Value::Null);
        if status.is_client_error() {
            // The grant went away between the introspection and here, or cannot reach the API.
            let why = body.get("error_description").or(body.get("error")).and_then(Value::as_str).unwrap_or("refused");
            return Err(Refusal::Invalid(format!("the access token cannot be exchanged for the API: {why}")));
        }
        let (Some(access), true) = (body.get("access_token").and_then(Value::as_str), status.is_success()) else {
            return Err(Refusal::Unavailable(format!("the token exchange answered {status} without an access token")));
        };
        let client = self
            .api
            .with_key(ApiKey::new(access))
            .map_err(|e| Refusal::Unavailable(format!("the exchanged token is unusable: {e}")))?;
        let lifetime = body.get("expires_in").and_then(Value::as_u64).unwrap_or(0);
        let subject_left = exp.saturating_sub(now_secs());
        let until = now + Duration::from_secs(lifetime.min(subject_left));
        let mut cache = self.exchanged.lock().expect("cache");
        if cache.len() >= EXCHANGE_CACHE_MAX {
            cache.retain(|_, e| e.until > now);
            if cache.len() >= EXCHANGE_CACHE_MAX {
                if let Some(oldest) = cache.iter().min_by_key(|(_, e)| e.until).map(|(k, _)| *k) {
                    cache.remove(&oldest);
                }
            }
        }
        cache.insert(digest, Exchanged { client: client.clone(), until });
        Ok(client)
    }

    /// The 401 (or 503) a refused request gets: RFC 6750's `WWW-Authenticate` naming the metadata.
    pub(crate) fn refuse(&self, refusal: Refusal) -> Response {
        let metadata = self.settings.metadata_url();
        let (status, challenge, body) = match refusal {
            Refusal::NoToken => (
                StatusCode::UNAUTHORIZED,
                format!("Bearer resource_metadata=\"{metadata}\""),
                json!({ "error": "unauthorized", "error_description": format!("this server needs an OAuth access token: its metadata is at {metadata}") }),
            ),
            Refusal::Invalid(why) => (
                StatusCode::UNAUTHORIZED,
                format!("Bearer resource_metadata=\"{metadata}\", error=\"invalid_token\", error_description=\"{}\"", why.replace('"', "'")),
                json!({ "error": "invalid_token", "error_description": why }),
            ),
            Refusal::Unavailable(why) => {
                eprintln!("cdesk mcp: {why}");
                return (StatusCode::SERVICE_UNAVAILABLE, Json(json!({ "error": "temporarily_unavailable", "error_description": why }))).into_response();
            }
        };
        let mut r = (status, Json(body)).into_response();
        if let Ok(v) = HeaderValue::from_str(&challenge) {
            r.headers_mut().insert(header::WWW_AUTHENTICATE, v);
        }
        r
    }
}
