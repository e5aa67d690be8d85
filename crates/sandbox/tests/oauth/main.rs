//! The sandbox as an OAuth 2.0 authorization server, over real HTTP against a real sandbox (issue 15,
//! points 2 and 3; `docs/api.md` "OAuth"): registration, the consent page and its form, the code flow with
//! PKCE S256, refresh rotation, token exchange, introspection, revocation, granted apps, and the API
//! honouring delegated tokens. Each refusal is its own test.
#[path = "../common/mod.rs"]
mod common;

use common::{msg, Http, TestSandbox};
use contentdesk_sandbox::Config;
use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use base64::Engine as _;
use serde_json::{json, Value};
use sha2::{Digest, Sha256};
use std::time::Duration;

const CALLBACK: &str = "http://127.0.0.1:3000/callback";
const MCP: &str = "http://127.0.0.1:9/mcp";

struct Oauth {
    sb: TestSandbox,
    http: reqwest::Client,
    /// The origin the client reaches the sandbox at, when not the one it is bound to (`localhost`).
    reach_as: Option<String>,
}

/// What the consent form carries back.
struct Asked {
    client_id: String,
    redirect_uri: String,
    scope: String,
    resource: Option<String>,
    verifier: String,
    challenge: String,
}

fn pkce() -> (String, String) {
    let verifier = format!("{}{}", uuid::Uuid::new_v4().simple(), uuid::Uuid::new_v4().simple());
    let challenge = URL_SAFE_NO_PAD.encode(Sha256::digest(verifier.as_bytes()));
    (verifier, challenge)
}

fn unescape(s: &str) -> String {
    s.replace("&quot;", "\"").replace("&#39;", "'").replace("&lt;", "<").replace("&gt;", ">").replace("&amp;", "&")
}

/// The value of `<input … name="NAME" value="…">` in the page.
fn hidden(page: &str, name: &str) -> String {
    let at = page.find(&format!("name=\"{name}\" value=\"")).unwrap_or_else(|| panic!("no field {name} in {page}"));
    let rest = &page[at + name.len() + 15..];
    unescape(&rest[..rest.find('"').unwrap()])
}

/// The query parameters of a redirect.
fn query(location: &str) -> Vec<(String, String)> {
    let q = location.split_once('?').map(|(_, q)| q).unwrap_or("");
    serde_urlencoded::from_str(q).unwrap()
}

fn param(location: &str, name: &str) -> Option<String> {
    query(location).into_iter().find(|(k, _)| k == name).map(|(_, v)| v)
}

impl Oauth {
    async fn start() -> Self {
        Self::with(Config::for_tests()).await
    }

    async fn with(config: Config) -> Self {
        let sb = TestSandbox::start_with(config).await;
        let http = reqwest::Client::builder().redirect(reqwest::redirect::Policy::none()).build().unwrap();
        Oauth { sb, http, reach_as: None }
    }

    fn origin(&self) -> String {
        self.reach_as.clone().unwrap_or_else(|| self.sb.running.origin())
    }

    async fn register(&self, redirect_uris: &[&str]) -> String {
        let r = self
            .http
            .post(format!("{}/oauth/register", self.origin()))
            .json(&json!({ "client_name": "Agent <Desk>", "redirect_uris": redirect_uris, "token_endpoint_auth_method": "none" }))
            .send()
            .await
            .unwrap();
        assert_eq!(r.status(), 201);
        let v: Value = r.json().await.unwrap();
        v["client_id"].as_str().unwrap().to_string()
    }

    fn asked(&self, client_id: &str, redirect_uri: &str, scope: &str, resource: Option<&str>) -> Asked {
        let (verifier, challenge) = pkce();
        Asked {
            client_id: client_id.into(),
            redirect_uri: redirect_uri.into(),
            scope: scope.into(),
            resource: resource.map(String::from),
            verifier,
            challenge,
        }
    }

    fn authorize_url(&self, a: &Asked, method: Option<&str>) -> String {
        let mut q = vec![
            ("response_type", "code"),
            ("client_id", &a.client_id),
            ("redirect_uri", &a.redirect_uri),
            ("scope", &a.scope),
            ("state", "st-123&x"),
            ("code_challenge", &a.challenge),
        ];
        if let Some(m) = method {
            q.push(("code_challenge_method", m));
        }
        if let Some(r) = a.resource.as_deref() {
            q.push(("resource", r));
        }
        format!("{}/oauth/authorize?{}", self.origin(), serde_urlencoded::to_string(&q).unwrap())
    }

    /// GETs the consent page: `(status, Location, body)`.
    async fn page(&self, url: &str) -> (u16, Option<String>, String) {
        let r = self.http.get(url).send().await.unwrap();
        let status = r.status().as_u16();
        let loc = r.headers().get("location").map(|l| l.to_str().unwrap().to_string());
        (status, loc, r.text().await.unwrap())
    }

    /// Opens the page and posts its form: `action` with `key` and the `ticked` scopes. `(status, Location, body)`.
    async fn decide(&self, a: &Asked, action: &str, key: &str, ticked: &[&str]) -> (u16, Option<String>, String) {
        let (status, _, page) = self.page(&self.authorize_url(a, Some("S256"))).await;
        assert_eq!(status, 200, "{page}");
        let mut form: Vec<(String, String)> = ["client_id", "redirect_uri", "asked_scope", "state", "code_challenge", "resource", "token"]
            .iter()
            .map(|n| (n.to_string(), hidden(&page, n)))
            .collect();
        form.push(("api_key".into(), key.into()));
        form.push(("action".into(), action.into()));
        for s in ticked {
            form.push(("scope".into(), s.to_string()));
        }
        let r = self.http.post(format!("{}/oauth/authorize", self.origin())).form(&form).send().await.unwrap();
        let status = r.status().as_u16();
        let loc = r.headers().get("location").map(|l| l.to_str().unwrap().to_string());
        (status, loc, r.text().await.unwrap())
    }

    /// Allows with the sandbox's every-scope key and returns the code.
    async fn code(&self, a: &Asked, ticked: &[&str]) -> String {
        let (status, loc, body) = self.decide(a, "allow", &self.sb.key.clone(), ticked).await;
        assert_eq!(status, 302, "{body}");
        let loc = loc.unwrap();
        assert_eq!(param(&loc, "state").as_deref(), Some("st-123&x"));
        param(&loc, "code").expect("a code")
    }

    async fn token(&self, form: &[(&str, &str)]) -> (u16, Value) {
        let r = self.http.post(format!("{}/oauth/token", self.origin())).form(form).send().await.unwrap();
        let status = r.status().as_u16();
        assert_eq!(r.headers().get("cache-control").map(|v| v.to_str().unwrap()), Some("no-store"));
        (status, r.json().await.unwrap())
    }

    async fn exchange_code(&self, a: &Asked, code: &str) -> (u16, Value) {
        let mut f = vec![
            ("grant_type", "authorization_code"),
            ("code", code),
            ("code_verifier", &a.verifier),
            ("redirect_uri", &a.redirect_uri),
            ("client_id", &a.client_id),
        ];
        if let Some(r) = a.resource.as_deref() {
            f.push(("resource", r));
        }
        self.token(&f).await
    }

    async fn refresh(&self, rt: &str) -> (u16, Value) {
        self.token(&[("grant_type", "refresh_token"), ("refresh_token", rt)]).await
    }

    /// Tokens for the API with `ticked` scopes, through the whole flow.
    async fn tokens_for(&self, resource: Option<&str>, ticked: &[&str]) -> Value {
        let client = self.register(&[CALLBACK]).await;
        let a = self.asked(&client, CALLBACK, &ticked.join(" "), resource);
        let code = self.code(&a, ticked).await;
        let (status, t) = self.exchange_code(&a, &code).await;
        assert_eq!(status, 200, "{t}");
        t
    }

    async fn post_form(&self, path: &str, form: &[(&str, &str)]) -> (u16, Value) {
        let r = self.http.post(format!("{}{path}", self.origin())).form(form).send().await.unwrap();
        (r.status().as_u16(), r.json().await.unwrap())
    }

    async fn introspect(&self, token: &str) -> Value {
        let (status, v) = self.post_form("/oauth/introspect", &[("token", token)]).await;
        assert_eq!(status, 200);
        v
    }

    fn api(&self) -> Http {
        Http::new(&self.sb)
    }
}

/// A resource server (as `cdesk mcp --http` is): a real HTTP server on loopback serving its RFC 9728
/// metadata with the hash of `published` as its registration proof, registered for token exchange with
/// the proof `proof`. `client` is `None` when the registration was refused (then `refusal` says why).
struct ResourceServer {
    resource: String,
    client: Option<(String, String)>,
    refusal: Value,
    _task: tokio::task::JoinHandle<()>,
}

const TE: &str = "urn:ietf:params:oauth:grant-type:token-exchange";
const AT: &str = "urn:ietf:params:oauth:token-type:access_token";

fn proof_hash(proof: &str) -> String {
    URL_SAFE_NO_PAD.encode(Sha256::digest(proof.as_bytes()))
}

impl Oauth {
    async fn resource_server_with(&self, published: &str, proof: &str, method: &str) -> ResourceServer {
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
        let resource = format!("http://{}/mcp", listener.local_addr().unwrap());
        let meta = json!({ "resource": resource, "authorization_servers": [self.sb.running.origin()], "contentdesk_registration_proof": proof_hash(published) });
        let app = axum::Router::new().route(
            "/.well-known/oauth-protected-resource/mcp",
            axum::routing::get(move || {
                let meta = meta.clone();
                async move { axum::Json(meta) }
            }),
        );
        let task = tokio::spawn(async move {
            axum::serve(listener, app).await.unwrap();
        });
        let r = self
            .http
            .post(format!("{}/oauth/register", self.origin()))
            .json(&json!({ "client_name": "rs", "grant_types": [TE], "token_endpoint_auth_method": method, "resource": resource, "resource_proof": proof }))
            .send()
            .await
            .unwrap();
        let status = r.status().as_u16();
        let v: Value = r.json().await.unwrap();
        let client = (status == 201).then(|| (v["client_id"].as_str().unwrap().to_string(), v["client_secret"].as_str().unwrap().to_string()));
        ResourceServer { resource, client, refusal: v, _task: task }
    }

    async fn resource_server(&self) -> ResourceServer {
        let proof = "p".repeat(40);
        let rs = self.resource_server_with(&proof, &proof, "client_secret_basic").await;
        assert!(rs.client.is_some(), "{}", rs.refusal);
        rs
    }

    /// A token exchange by `who` (HTTP Basic with its credentials; none: unauthenticated).
    async fn exchange(&self, who: Option<&(String, String)>, subject: &str, scope: Option<&str>, resource: &str) -> (u16, Value, reqwest::header::HeaderMap) {
        let mut f = vec![("grant_type", TE), ("subject_token", subject), ("subject_token_type", AT), ("resource", resource)];
        if let Some(s) = scope {
            f.push(("scope", s));
        }
        let mut req = self.http.post(format!("{}/oauth/token", self.origin())).form(&f);
        if let Some((id, secret)) = who {
            req = req.basic_auth(id, Some(secret));
        }
        let r = req.send().await.unwrap();
        let (status, headers) = (r.status().as_u16(), r.headers().clone());
        (status, r.json().await.unwrap(), headers)
    }
}

fn at(t: &Value) -> String {
    t["access_token"].as_str().unwrap().to_string()
}
fn rt(t: &Value) -> String {
    t["refresh_token"].as_str().unwrap().to_string()
}

mod code_flow;
mod token_exchange;
mod guards;
mod metadata_document;
