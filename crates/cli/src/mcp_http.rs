//! `cdesk mcp --http ADDR`: the same agent tools, resources and prompt as `cdesk mcp` (the one
//! [`crate::mcp::Server`]), over MCP's Streamable HTTP transport at `/mcp`, as an OAuth 2.0 protected
//! resource (MCP authorization; RFC 9728 metadata, RFC 8707 audience, RFC 7662 introspection, RFC 8693
//! token exchange). No API key is configured: every request carries its user's access token.
//!
//! Each request to `/mcp`:
//! 1. has `Authorization: Bearer <token>`, else 401 with `WWW-Authenticate: Bearer resource_metadata="…"`
//!    naming this server's metadata (the client discovers the authorization server from it);
//! 2. the token is introspected at the authorization server (`/oauth/introspect`) on every request, no
//!    cache: active, audience = this server's resource (`<public-url>/mcp`: a token minted for another
//!    resource, the API's included, is refused), not expired; else 401 `error="invalid_token"`;
//! 3. the token is exchanged (RFC 8693) for an access token of the API (`resource = <issuer>/api/v1`,
//!    same grant, same scopes) once per token, kept until the earlier of the two expiries, and the API is
//!    called with it. The exchange is authenticated: at start the server registers itself with the
//!    authorization server as a token-exchange client for its resource (HTTP Basic secret), proving it is
//!    that resource by publishing BASE64URL(SHA-256(a random proof)) in its RFC 9728 metadata as
//!    `contentdesk_registration_proof` while the registration carries the proof. A scope the grant
//!    lacks is the API's 403, which reaches the agent as a tool result with `isError` naming the scope; a revoked grant fails the next request's introspection (401).
//!
//! Stateless transport (`legacy_session_mode: false`, JSON responses): rmcp's sessions live in one
//! process's memory, so a second instance behind the same address would not know a session the first
//! began. Without them every request is served by whichever instance receives it; what ties a request
//! to a user is its token alone. The cost: no server-initiated messages between requests (progress
//! notifications of a long render still stream within the tool call's own response).
//!
//! With `--confirm-spend-over N` the server asks the user before a spend (MCP elicitation): a request
//! from the server that the client answers with a POST of its own, which must reach the tool call
//! waiting for it. rmcp's stateless transport refuses such a POST ("stateless server does not accept
//! JSON-RPC responses"), so this mode keeps sessions (`Mcp-Session-Id`, in this process's memory: one
//! instance per address); each request is still checked and acts with its own token. A session is
//! bound to the subject that began it: a request of another user naming it is refused (404).
use crate::mcp::Server;
#[allow(unused_imports)]
pub(crate) use crate::mcp_gate::*;
use contentdesk_ops::Selection;
use axum::extract::{Request, State};
use axum::http::{header, HeaderMap, StatusCode};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use axum::{Json, Router};
use rmcp::transport::streamable_http_server::session::local::LocalSessionManager;
use rmcp::transport::streamable_http_server::session::never::NeverSessionManager;
use rmcp::transport::streamable_http_server::{StreamableHttpServerConfig, StreamableHttpService};
use serde_json::{json, Value};
use std::sync::Arc;
use std::time::Duration;

/// A URL's origin as `scheme://host:port` (the port always written, the host in lower case); `None`
/// for what has no host (`null`, the origin of a file or a sandboxed frame).
pub fn origin_of(url: &str) -> Option<String> {
    let u = url::Url::parse(url.trim()).ok()?;
    let host = u.host_str()?.to_ascii_lowercase();
    Some(format!("{}://{host}:{}", u.scheme(), u.port_or_known_default()?))
}

/// Whether a request naming session `id` may run as `subject`: only in a session this server saw begin
/// for that subject. An id it never saw (made up, another instance's, or forgotten past the bound) is not.
fn session_is_theirs(owners: &std::collections::HashMap<String, String>, id: &str, subject: &str) -> bool {
    owners.get(id).is_some_and(|owner| owner == subject)
}

/// Middleware in front of `/mcp`, before the token: a request carrying an `Origin` that is not this
/// server's own nor an allowed one is refused with 403, as the MCP specification's Streamable HTTP
/// transport asks (a page in a browser could otherwise drive a server it can reach, DNS rebinding
/// included). A request without `Origin` (an agent's client, not a browser) passes.
async fn check_origin(State(gate): State<Arc<Gate>>, request: Request, next: Next) -> Response {
    if let Some(origin) = request.headers().get(header::ORIGIN) {
        let origin = origin.to_str().unwrap_or("(not text)");
        if !gate.settings.origin_allowed(origin) {
            let message = format!("the origin {origin} may not use this server: only its own ({}) and those allowed with --allow-origin", gate.settings.public_url);
            return (StatusCode::FORBIDDEN, Json(json!({ "jsonrpc": "2.0", "error": { "code": -32600, "message": message } }))).into_response();
        }
    }
    next.run(request).await
}

/// The bearer token of a request, when it has one.
fn bearer(headers: &HeaderMap) -> Option<&str> {
    let value = headers.get(header::AUTHORIZATION)?.to_str().ok()?;
    let (scheme, token) = value.split_once(' ')?;
    let token = token.trim();
    (scheme.eq_ignore_ascii_case("bearer") && !token.is_empty()).then_some(token)
}

/// Middleware in front of `/mcp`: the token checked, the caller put on the request, or a refusal.
async fn check_token(State(gate): State<Arc<Gate>>, mut request: Request, next: Next) -> Response {
    let Some(token) = bearer(request.headers()) else {
        return gate.refuse(Refusal::NoToken);
    };
    let (client, subject) = match gate.check(token).await {
        Ok(checked) => checked,
        Err(refusal) => return gate.refuse(refusal),
    };
    let session = request.headers().get("mcp-session-id").and_then(|v| v.to_str().ok()).map(str::to_string);
    if let Some(id) = &session {
        // Fail closed: a session this server did not see begin for this user (another user's, a made-up
        // id, or one forgotten past the bound below) is not found, and the client begins a new one.
        if !session_is_theirs(&gate.owners.lock().expect("owners"), id, &subject) {
            return (StatusCode::NOT_FOUND, Json(json!({ "jsonrpc": "2.0", "error": { "code": -32600, "message": "no such session for this user" } }))).into_response();
        }
    }
    request.extensions_mut().insert(Caller { client });
    let response = next.run(request).await;
    if let (None, Some(id)) = (session, response.headers().get("mcp-session-id").and_then(|v| v.to_str().ok())) {
        let mut owners = gate.owners.lock().expect("owners");
        // Sessions end unannounced: past the bound the map starts again, and a forgotten session is
        // refused above (404: the client begins a new one), never left unbound.
        if owners.len() >= EXCHANGE_CACHE_MAX {
            owners.clear();
        }
        owners.insert(id.to_string(), subject);
    }
    response
}

/// RFC 9728 protected-resource metadata.
async fn metadata(State(gate): State<Arc<Gate>>) -> Json<Value> {
    Json(json!({
        "resource": gate.settings.resource(),
        "authorization_servers": [gate.settings.issuer],
        "scopes_supported": api_types::scopes::ALL,
        "bearer_methods_supported": ["header"],
        "resource_name": "Content Desk agent tools (cdesk mcp)",
        "contentdesk_registration_proof": gate.proof_hash(),
    }))
}

/// The whole HTTP app: metadata, and the MCP transport behind the token check, offering the tools of
/// `selection`; with `confirm_over`, asking before spending, in sessions (see the module's notes).
pub fn app(gate: Arc<Gate>, selection: Selection, confirm_over: Option<f64>) -> Router {
    let mut hosts: Vec<String> = vec!["localhost".into(), "127.0.0.1".into(), "::1".into()];
    if let Ok(u) = url::Url::parse(&gate.settings.public_url) {
        if let Some(h) = u.host_str() {
            hosts.push(h.trim_matches(['[', ']']).to_string());
            if let Some(p) = u.port() {
                hosts.push(format!("{h}:{p}"));
            }
        }
    }
    let sessions = confirm_over.is_some();
    let config = StreamableHttpServerConfig::default()
        .with_legacy_session_mode(sessions)
        .with_json_response(!sessions)
        .with_sse_keep_alive(None)
        .with_allowed_hosts(hosts);
    let server = move || Ok(Server::per_request(selection.clone()).confirming_over(confirm_over));
    let mcp = if sessions {
        Router::new().fallback_service(StreamableHttpService::new(server, Arc::new(LocalSessionManager::default()), config))
    } else {
        Router::new().fallback_service(StreamableHttpService::new(server, Arc::new(NeverSessionManager::default()), config))
    };
    // The last layer runs first: the origin, then the token.
    let guarded = mcp
        .layer(axum::middleware::from_fn_with_state(gate.clone(), check_token))
        .layer(axum::middleware::from_fn_with_state(gate.clone(), check_origin));
    Router::new()
        .route("/.well-known/oauth-protected-resource", get(metadata))
        .route("/.well-known/oauth-protected-resource/mcp", get(metadata))
        .nest("/mcp", guarded)
        .with_state(gate)
}

/// The authorization server's endpoints, from its RFC 8414 metadata; a clear refusal when it is not
/// there.
pub async fn discover(issuer: &str, api_base: &str, public_url: &str, allowed_origins: Vec<String>) -> Result<Settings, String> {
    let url = format!("{issuer}/.well-known/oauth-authorization-server");
    let http = reqwest::Client::builder().timeout(Duration::from_secs(10)).build().map_err(|e| e.to_string())?;
    let answer = http
        .get(&url)
        .send()
        .await
        .map_err(|e| format!("the authorization server at {issuer} did not answer ({}): start it, or pass --issuer", e.without_url()))?;
    if !answer.status().is_success() {
        return Err(format!("{url} answered {}: {issuer} is not an OAuth authorization server; pass --issuer", answer.status()));
    }
    let meta: Value = answer.json().await.map_err(|e| format!("{url} is not JSON metadata: {e}"))?;
    let endpoint = |name: &str| {
        meta.get(name)
            .and_then(Value::as_str)
            .map(str::to_string)
            .ok_or_else(|| format!("the authorization server's metadata has no {name}: this server needs introspection (RFC 7662) and token exchange (RFC 8693)"))
    };
    // The issuer as the server names itself; `localhost` given for the loopback address it is bound to is
    // the same server (its tokens' audiences compare so too), and its own spelling is the one clients check.
    let named = meta.get("issuer").and_then(Value::as_str).map(|s| s.trim_end_matches('/').to_string());
    let issuer = match named {
        Some(n) if n == issuer || same_loopback_origin(&n, issuer) => n,
        _ => return Err(format!("{url} names another issuer ({}); pass --issuer with that one", meta.get("issuer").unwrap_or(&Value::Null))),
    };
    Ok(Settings {
        issuer,
        api_base: api_base.to_string(),
        public_url: public_url.to_string(),
        introspection_endpoint: endpoint("introspection_endpoint")?,
        token_endpoint: endpoint("token_endpoint")?,
        registration_endpoint: meta.get("registration_endpoint").and_then(Value::as_str).map(str::to_string),
        allowed_origins,
    })
}

/// `http://localhost:P` and `http://127.0.0.1:P` (or `http://[::1]:P`): one server, one spelling typed by a
/// person, the other the address it is bound to.
fn same_loopback_origin(a: &str, b: &str) -> bool {
    let (Ok(a), Ok(b)) = (url::Url::parse(a), url::Url::parse(b)) else { return false };
    let host = |u: &url::Url| u.host_str().unwrap_or_default().to_ascii_lowercase();
    let (ha, hb) = (host(&a), host(&b));
    let bound = |h: &str| h == "127.0.0.1" || h == "[::1]";
    a.scheme() == b.scheme()
        && a.port_or_known_default() == b.port_or_known_default()
        && a.path() == b.path()
        && ((ha == "localhost" && bound(&hb)) || (hb == "localhost" && bound(&ha)))
}

/// What `cdesk mcp --http` was given.
pub struct Options {
    pub addr: String,
    pub issuer: Option<String>,
    pub public_url: Option<String>,
    /// The API's base URL from the usual ladder (`--base-url`, `CONTENTHERO_BASE_URL`, the profile's).
    pub base_url: Option<String>,
    /// The tools offered (`--toolsets`, `--read-only`).
    pub selection: Selection,
    /// `--allow-origin`: browser origins allowed besides the server's own.
    pub allowed_origins: Vec<String>,
    /// `--confirm-spend-over`: ask before a render above this many credits and before publishing now.
    pub confirm_over: Option<f64>,
}

/// The authorization server and the API's base URL, from what was given: one gives the other.
fn issuer_and_api(issuer: Option<String>, base_url: Option<String>) -> Result<(String, String), String> {
    let issuer = issuer.map(|i| i.trim_end_matches('/').to_string());
    // A host alone is the API under it (`/api/v1` added), as for every client.
    let api = base_url.map(|b| api_client::api_base(&b));
    match (issuer, api) {
        (Some(i), Some(a)) => Ok((i, a)),
        (Some(i), None) => Ok((i.clone(), format!("{i}/api/v1"))),
        (None, Some(a)) => match a.strip_suffix("/api/v1") {
            Some(origin) => Ok((origin.to_string(), a.clone())),
            None => Err(format!("cannot tell the authorization server from the base URL {a} (it does not end in /api/v1): pass --issuer URL")),
        },
        (None, None) => Err("no authorization server: pass --issuer URL, or --base-url (e.g. http://127.0.0.1:8787/api/v1, a sandbox's), or set CONTENTHERO_BASE_URL, or choose a profile with --profile".into()),
    }
}

/// Serves until interrupted. Prints one line on stdout when listening (`{"listening": URL, …}`), for
/// scripts and tests that start it on port 0.
pub async fn serve(options: Options) -> Result<(), String> {
    let (issuer, api_base) = issuer_and_api(options.issuer, options.base_url)?;
    let listener = tokio::net::TcpListener::bind(&options.addr)
        .await
        .map_err(|e| format!("cannot listen on {}: {e}", options.addr))?;
    let local = listener.local_addr().map_err(|e| e.to_string())?;
    let public_url = options.public_url.map(|u| u.trim_end_matches('/').to_string()).unwrap_or_else(|| format!("http://{local}"));
    let mut allowed = Vec::new();
    for o in &options.allowed_origins {
        allowed.push(origin_of(o).ok_or_else(|| format!("--allow-origin {o} is not an origin (scheme://host[:port])"))?);
    }
    let settings = discover(&issuer, &api_base, &public_url, allowed).await?;
    let resource = settings.resource();
    let issuer = settings.issuer.clone();
    let gate = Arc::new(Gate::new(settings)?);
    let app = app(gate.clone(), options.selection, options.confirm_over);
    let server = tokio::spawn(async move {
        axum::serve(listener, app)
            .with_graceful_shutdown(async {
                let _ = tokio::signal::ctrl_c().await;
            })
            .await
    });
    // Serving already: the authorization server reads the metadata to check the registration's proof.
    if let Err(e) = gate.register().await {
        server.abort();
        return Err(e);
    }
    println!("{}", json!({ "listening": format!("http://{local}"), "resource": resource, "issuer": issuer }));
    eprintln!("cdesk mcp: serving {resource} (authorization server {issuer})");
    server.await.map_err(|e| e.to_string())?.map_err(|e| e.to_string())
}

#[cfg(test)]
mod tests {
    use super::*;
    use axum::http::HeaderValue;

    #[test]
    fn a_session_runs_only_for_the_user_it_began_for_and_an_unknown_one_for_nobody() {
        let owners = std::collections::HashMap::from([("s1".to_string(), "alice".to_string())]);
        assert!(session_is_theirs(&owners, "s1", "alice"));
        assert!(!session_is_theirs(&owners, "s1", "bob"), "another user's session");
        // A session the map does not hold (made up, or forgotten past the bound): nobody's, refused.
        assert!(!session_is_theirs(&owners, "s2", "alice"));
        assert!(!session_is_theirs(&std::collections::HashMap::new(), "s1", "alice"));
    }

    fn settings() -> Settings {
        Settings {
            issuer: "http://127.0.0.1:1".into(),
            api_base: "http://127.0.0.1:1/api/v1".into(),
            public_url: "http://127.0.0.1:2".into(),
            introspection_endpoint: "http://127.0.0.1:1/oauth/introspect".into(),
            token_endpoint: "http://127.0.0.1:1/oauth/token".into(),
            registration_endpoint: None,
            allowed_origins: vec!["https://agent.example:443".into()],
        }
    }

    #[test]
    fn the_bearer_token_is_read_from_the_header_only() {
        let mut h = HeaderMap::new();
        assert_eq!(bearer(&h), None);
        h.insert(header::AUTHORIZATION, HeaderValue::from_static("Bearer cho_at_x"));
        assert_eq!(bearer(&h), Some("cho_at_x"));
        h.insert(header::AUTHORIZATION, HeaderValue::from_static("bearer  cho_at_y "));
        assert_eq!(bearer(&h), Some("cho_at_y"));
        for other in ["Basic abc", "Bearer ", "cho_at_x"] {
            h.insert(header::AUTHORIZATION, HeaderValue::from_static(other));
            assert_eq!(bearer(&h), None, "{other}");
        }
    }

    #[test]
    fn the_resource_and_its_metadata_follow_rfc_9728() {
        let s = settings();
        assert_eq!(s.resource(), "http://127.0.0.1:2/mcp");
        assert_eq!(s.metadata_url(), "http://127.0.0.1:2/.well-known/oauth-protected-resource/mcp");
    }

    #[test]
    fn the_issuer_and_the_api_give_each_other() {
        let s = |v: &str| Some(v.to_string());
        assert_eq!(issuer_and_api(None, s("http://h:1/api/v1/")).unwrap(), ("http://h:1".into(), "http://h:1/api/v1".into()));
        assert_eq!(issuer_and_api(s("https://a/"), None).unwrap(), ("https://a".into(), "https://a/api/v1".into()));
        assert_eq!(issuer_and_api(s("https://a"), s("https://b/api/v1")).unwrap(), ("https://a".into(), "https://b/api/v1".into()));
        assert!(issuer_and_api(None, s("http://h:1/v2")).unwrap_err().contains("--issuer"));
        assert_eq!(issuer_and_api(None, s("http://h:1")).unwrap(), ("http://h:1".into(), "http://h:1/api/v1".into()), "a host alone");
        assert_eq!(issuer_and_api(s("http://a:1"), s("http://b:2/")).unwrap(), ("http://a:1".into(), "http://b:2/api/v1".into()));
        assert!(issuer_and_api(None, None).unwrap_err().contains("--issuer"));
    }

    #[test]
    fn localhost_and_the_bound_loopback_address_are_one_issuer() {
        assert!(same_loopback_origin("http://127.0.0.1:8787", "http://localhost:8787"));
        assert!(same_loopback_origin("http://LOCALHOST:8787", "http://[::1]:8787"));
        assert!(!same_loopback_origin("http://127.0.0.1:8787", "http://localhost:8788"));
        assert!(!same_loopback_origin("http://127.0.0.1:8787", "https://localhost:8787"));
        assert!(!same_loopback_origin("http://127.0.0.1:8787", "http://[::1]:8787"));
        assert!(!same_loopback_origin("https://auth.example", "http://localhost:8787"));
    }

    /// The app on a loopback port; its authorization server is port 1 (nothing answers there).
    async fn started() -> (String, tokio::task::JoinHandle<()>) {
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
        let url = format!("http://{}", listener.local_addr().unwrap());
        let gate = Arc::new(Gate::new(Settings { public_url: url.clone(), ..settings() }).unwrap());
        let task = tokio::spawn(async move {
            axum::serve(listener, app(gate, Selection::default(), None)).await.unwrap();
        });
        (url, task)
    }

    #[tokio::test]
    async fn the_metadata_names_the_resource_and_its_authorization_server() {
        let (url, task) = started().await;
        for path in ["/.well-known/oauth-protected-resource", "/.well-known/oauth-protected-resource/mcp"] {
            let m: Value = reqwest::get(format!("{url}{path}")).await.unwrap().json().await.unwrap();
            assert_eq!(m["resource"], json!(format!("{url}/mcp")), "{path}");
            assert_eq!(m["authorization_servers"], json!(["http://127.0.0.1:1"]));
            assert_eq!(m["bearer_methods_supported"], json!(["header"]));
            assert!(m["scopes_supported"].as_array().unwrap().contains(&json!("generate:*")));
        }
        task.abort();
    }

    #[tokio::test]
    async fn a_request_without_a_token_is_told_where_the_metadata_is() {
        let (url, task) = started().await;
        let http = reqwest::Client::new();
        let init = json!({ "jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {} });
        for path in ["/mcp"] {
            let r = http.post(format!("{url}{path}")).json(&init).send().await.unwrap();
            assert_eq!(r.status(), 401, "{path}");
            let challenge = r.headers()[header::WWW_AUTHENTICATE].to_str().unwrap().to_string();
            assert_eq!(challenge, format!("Bearer resource_metadata=\"{url}/.well-known/oauth-protected-resource/mcp\""));
        }
        let r = http.post(format!("{url}/mcp")).header("authorization", "Basic eDp5").json(&init).send().await.unwrap();
        assert_eq!(r.status(), 401, "another scheme is no token");
        // A token, but the authorization server cannot be asked: not a 401 (the token may be good).
        let r = http.post(format!("{url}/mcp")).bearer_auth("cho_at_whatever").json(&init).send().await.unwrap();
        assert_eq!(r.status(), 503);
        task.abort();
    }

    #[test]
    fn origins_compare_by_scheme_host_and_port() {
        assert_eq!(origin_of("http://127.0.0.1:2").as_deref(), Some("http://127.0.0.1:2"));
        assert_eq!(origin_of("HTTPS://Agent.Example").as_deref(), Some("https://agent.example:443"));
        assert_eq!(origin_of("null"), None);
        let s = settings();
        for ok in ["http://127.0.0.1:2", "http://127.0.0.1:2/", "https://agent.example", "https://AGENT.example:443"] {
            assert!(s.origin_allowed(ok), "{ok}");
        }
        for foreign in ["http://evil.example", "http://127.0.0.1:3", "https://127.0.0.1:2", "http://localhost:2", "https://agent.example:8443", "null", ""] {
            assert!(!s.origin_allowed(foreign), "{foreign}");
        }
    }

    /// A browser page of another origin is refused before its token is even looked at (a good token
    /// would not help it); the server's own origin and a request without one reach the token check
    /// (here the authorization server cannot be asked: 503, past the origin).
    #[tokio::test]
    async fn a_foreign_origin_is_refused_with_403_before_the_token() {
        let (url, task) = started().await;
        let http = reqwest::Client::new();
        let init = json!({ "jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {} });
        let post = |origin: Option<&str>| {
            let mut r = http.post(format!("{url}/mcp")).bearer_auth("cho_at_whatever").json(&init);
            if let Some(o) = origin {
                r = r.header("origin", o);
            }
            r.send()
        };
        for foreign in ["http://evil.example", "null", "http://localhost:1"] {
            let r = post(Some(foreign)).await.unwrap();
            assert_eq!(r.status(), 403, "{foreign}");
            let body: Value = r.json().await.unwrap();
            assert!(body["error"]["message"].as_str().unwrap().contains("--allow-origin"), "{body}");
        }
        let r = http.post(format!("{url}/mcp")).header("origin", "http://evil.example").json(&init).send().await.unwrap();
        assert_eq!(r.status(), 403, "no token either: still the origin's 403");
        for passes in [None, Some(url.as_str()), Some("https://agent.example")] {
            assert_eq!(post(passes).await.unwrap().status(), 503, "{passes:?}");
        }
        // The metadata is not behind the origin check (a browser client reads it cross-origin).
        let m = http.get(format!("{url}/.well-known/oauth-protected-resource/mcp")).header("origin", "http://evil.example").send().await.unwrap();
        assert_eq!(m.status(), 200);
        task.abort();
    }

    #[test]
    fn audiences_are_a_string_or_a_list() {
        let i: Introspection = serde_json::from_value(json!({ "active": true, "aud": "a" })).unwrap();
        assert_eq!(i.audiences(), vec!["a"]);
        let i: Introspection = serde_json::from_value(json!({ "active": true, "aud": ["a", "b"] })).unwrap();
        assert_eq!(i.audiences(), vec!["a", "b"]);
        let i: Introspection = serde_json::from_value(json!({ "active": false })).unwrap();
        assert!(i.audiences().is_empty());
    }
}
