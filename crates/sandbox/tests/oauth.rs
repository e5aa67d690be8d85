//! The sandbox as an OAuth 2.0 authorization server, over real HTTP against a real sandbox (issue 15,
//! points 2 and 3; `docs/api.md` "OAuth"): registration, the consent page and its form, the code flow with
//! PKCE S256, refresh rotation, token exchange, introspection, revocation, granted apps, and the API
//! honouring delegated tokens. Each refusal is its own test.
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

#[tokio::test]
async fn metadata_names_the_endpoints_s256_and_the_apis_scopes() {
    let o = Oauth::start().await;
    let v: Value = o.http.get(format!("{}/.well-known/oauth-authorization-server", o.origin())).send().await.unwrap().json().await.unwrap();
    assert_eq!(v["issuer"], o.origin());
    assert_eq!(v["authorization_endpoint"], format!("{}/oauth/authorize", o.origin()));
    assert_eq!(v["token_endpoint"], format!("{}/oauth/token", o.origin()));
    assert_eq!(v["registration_endpoint"], format!("{}/oauth/register", o.origin()));
    assert_eq!(v["introspection_endpoint"], format!("{}/oauth/introspect", o.origin()));
    assert_eq!(v["revocation_endpoint"], format!("{}/oauth/revoke", o.origin()));
    assert_eq!(v["code_challenge_methods_supported"], json!(["S256"]));
    assert_eq!(v["token_endpoint_auth_methods_supported"], json!(["none", "client_secret_basic", "client_secret_post"]));
    assert_eq!(v["scopes_supported"], json!(api_types::scopes::ALL));
    assert_eq!(
        v["grant_types_supported"],
        json!(["authorization_code", "refresh_token", "urn:ietf:params:oauth:grant-type:token-exchange"])
    );
}

#[tokio::test]
async fn the_full_code_flow_with_pkce_gives_tokens_the_api_honours_and_refresh_rotates_them() {
    let o = Oauth::start().await;
    let client = o.register(&[CALLBACK]).await;
    let a = o.asked(&client, CALLBACK, "generate:* planner:write brandkit:read", None);
    // The page names the app, where it goes back to, and the scopes in the API's words.
    let (status, _, page) = o.page(&o.authorize_url(&a, Some("S256"))).await;
    assert_eq!(status, 200);
    assert!(page.contains("Agent &lt;Desk&gt;"), "the client's name, escaped: {page}");
    assert!(page.contains("http://127.0.0.1:3000"));
    assert!(page.contains(&o.sb.base_url()), "the resource (the API by default)");
    assert!(page.contains(api_types::scopes::describe("generate:*")));
    assert!(!page.contains("editor:write"), "only the scopes asked for");
    assert!(page.contains("API key"), "signs in with a key");

    let code = o.code(&a, &["generate:*", "planner:write", "brandkit:read"]).await;
    let (status, t) = o.exchange_code(&a, &code).await;
    assert_eq!(status, 200, "{t}");
    assert!(at(&t).starts_with("cho_at_") && rt(&t).starts_with("cho_rt_"));
    assert_eq!(t["token_type"], "Bearer");
    assert_eq!(t["expires_in"], 600);
    assert_eq!(t["scope"], "generate:* brandkit:read planner:write");

    let api = o.api();
    let (s, b) = api.get(&at(&t), "/account/balance").await;
    assert_eq!(s, 200, "{b}");
    let (s, cards) = api.get(&at(&t), "/cards").await;
    assert_eq!(s, 200);
    let (_, with_key) = api.get(&o.sb.key, "/cards").await;
    assert_eq!(cards, with_key, "the token acts as the account that consented");

    // Refresh: a new pair; the old refresh token is spent, the new access token works.
    let (s, t2) = o.refresh(&rt(&t)).await;
    assert_eq!(s, 200, "{t2}");
    assert_ne!(rt(&t2), rt(&t));
    assert_eq!(api.get(&at(&t2), "/account/balance").await.0, 200);

    // The account lists the grant, with a key.
    let (s, grants) = api.get(&o.sb.key, "/oauth/grants").await;
    assert_eq!(s, 200);
    assert_eq!(grants.as_array().unwrap().len(), 1);
    assert_eq!(grants[0]["clientName"], "Agent <Desk>");
    assert_eq!(grants[0]["scopes"], json!(["generate:*", "brandkit:read", "planner:write"]));
    assert!(grants[0]["lastUsedAt"].is_string(), "{grants}");
    // A delegated token may not manage the account's apps.
    let (s, body) = api.get(&at(&t2), "/oauth/grants").await;
    assert_eq!(s, 403, "{body}");
}

#[tokio::test]
async fn a_wrong_pkce_verifier_is_refused_and_spends_the_code() {
    let o = Oauth::start().await;
    let client = o.register(&[CALLBACK]).await;
    let mut a = o.asked(&client, CALLBACK, "planner:write", None);
    let code = o.code(&a, &["planner:write"]).await;
    let right = std::mem::replace(&mut a.verifier, pkce().0);
    let (s, e) = o.exchange_code(&a, &code).await;
    assert_eq!(s, 400);
    assert_eq!(e["error"], "invalid_grant");
    assert!(e["error_description"].as_str().unwrap().contains("code_verifier"));
    a.verifier = right;
    let (s, e) = o.exchange_code(&a, &code).await;
    assert_eq!((s, e["error"].as_str()), (400, Some("invalid_grant")), "a code gets one attempt");
}

#[tokio::test]
async fn plain_or_missing_pkce_is_refused_back_to_the_client_without_a_code() {
    let o = Oauth::start().await;
    let client = o.register(&[CALLBACK]).await;
    let a = o.asked(&client, CALLBACK, "planner:write", None);
    for method in [Some("plain"), None] {
        let (status, loc, _) = o.page(&o.authorize_url(&a, method)).await;
        assert_eq!(status, 302, "{method:?}");
        let loc = loc.unwrap();
        assert!(loc.starts_with(CALLBACK));
        assert_eq!(param(&loc, "error").as_deref(), Some("invalid_request"));
        assert!(param(&loc, "error_description").unwrap().contains("S256"));
        assert_eq!(param(&loc, "code"), None);
    }
    let mut no_challenge = o.asked(&client, CALLBACK, "planner:write", None);
    no_challenge.challenge = String::new();
    let (status, loc, _) = o.page(&o.authorize_url(&no_challenge, Some("S256"))).await;
    assert_eq!(status, 302);
    assert_eq!(param(&loc.unwrap(), "error").as_deref(), Some("invalid_request"));
}

#[tokio::test]
async fn an_unregistered_redirect_uri_or_client_gets_an_error_page_and_no_redirect() {
    let o = Oauth::start().await;
    let client = o.register(&[CALLBACK]).await;
    for (cid, uri) in [
        (client.as_str(), "https://evil.example/callback"),
        (client.as_str(), "http://127.0.0.1:3000/other"),
        (client.as_str(), "http://localhost:3000/callback"),
        ("no-such-client", CALLBACK),
    ] {
        let a = o.asked(cid, uri, "planner:write", None);
        let (status, loc, page) = o.page(&o.authorize_url(&a, Some("S256"))).await;
        assert_eq!(status, 400, "{cid} {uri}");
        assert_eq!(loc, None, "never a redirect for {uri}");
        assert!(page.contains("Cannot connect"), "{page}");
    }
    // Registration itself refuses plain http off loopback.
    let r = o.http.post(format!("{}/oauth/register", o.origin())).json(&json!({ "redirect_uris": ["http://evil.example/cb"] })).send().await.unwrap();
    assert_eq!(r.status(), 400);
    let v: Value = r.json().await.unwrap();
    assert_eq!(v["error"], "invalid_redirect_uri");
}

#[tokio::test]
async fn a_loopback_redirect_may_use_another_port() {
    let o = Oauth::start().await;
    let client = o.register(&[CALLBACK]).await;
    let a = o.asked(&client, "http://127.0.0.1:49152/callback", "planner:write", None);
    let (status, loc, _) = o.decide(&a, "allow", &o.sb.key, &["planner:write"]).await;
    assert_eq!(status, 302);
    let loc = loc.unwrap();
    assert!(loc.starts_with("http://127.0.0.1:49152/callback?"), "{loc}");
    let code = param(&loc, "code").unwrap();
    let (s, t) = o.exchange_code(&a, &code).await;
    assert_eq!(s, 200, "{t}");
}

#[tokio::test]
async fn a_replayed_code_is_refused_and_revokes_what_it_issued() {
    let o = Oauth::start().await;
    let client = o.register(&[CALLBACK]).await;
    let a = o.asked(&client, CALLBACK, "planner:write", None);
    let code = o.code(&a, &["planner:write"]).await;
    let (s, t) = o.exchange_code(&a, &code).await;
    assert_eq!(s, 200);
    let api = o.api();
    assert_eq!(api.get(&at(&t), "/cards").await.0, 200);
    let (s, e) = o.exchange_code(&a, &code).await;
    assert_eq!((s, e["error"].as_str()), (400, Some("invalid_grant")));
    assert!(e["error_description"].as_str().unwrap().contains("already used"));
    assert_eq!(api.get(&at(&t), "/cards").await.0, 401, "the first exchange's token is revoked");
    assert_eq!(o.refresh(&rt(&t)).await.0, 400, "and its refresh token");
}

#[tokio::test]
async fn a_reused_refresh_token_revokes_the_whole_grant() {
    let o = Oauth::start().await;
    let t1 = o.tokens_for(None, &["planner:write"]).await;
    let (s, t2) = o.refresh(&rt(&t1)).await;
    assert_eq!(s, 200);
    let api = o.api();
    assert_eq!(api.get(&at(&t2), "/cards").await.0, 200);
    let (s, e) = o.refresh(&rt(&t1)).await;
    assert_eq!((s, e["error"].as_str()), (400, Some("invalid_grant")));
    assert!(e["error_description"].as_str().unwrap().contains("revoked"));
    assert_eq!(api.get(&at(&t2), "/cards").await.0, 401, "the thief's and the owner's tokens alike");
    let (s, e) = o.refresh(&rt(&t2)).await;
    assert_eq!((s, e["error"].as_str()), (400, Some("invalid_grant")));
    assert_eq!(api.get(&o.sb.key, "/oauth/grants").await.1, json!([]));
}

#[tokio::test]
async fn an_expired_access_token_is_refused_and_refresh_gets_a_new_one() {
    let o = Oauth::with(Config { oauth_access_ttl: Duration::from_secs(1), ..Config::for_tests() }).await;
    let t = o.tokens_for(None, &["planner:write"]).await;
    assert_eq!(t["expires_in"], 1);
    // Waits for the second to pass (the expiry is whole seconds), bounded.
    for _ in 0..40 {
        if o.introspect(&at(&t)).await["active"] == false {
            break;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    assert_eq!(o.introspect(&at(&t)).await, json!({ "active": false }));
    let api = o.api();
    assert_eq!(api.get(&at(&t), "/cards").await.0, 401);
    let (s, t2) = o.refresh(&rt(&t)).await;
    assert_eq!(s, 200);
    assert_eq!(api.get(&at(&t2), "/cards").await.0, 200);
}

#[tokio::test]
async fn a_token_for_another_resource_is_refused_by_the_api() {
    let o = Oauth::start().await;
    let t = o.tokens_for(Some(MCP), &["planner:write"]).await;
    assert_eq!(o.introspect(&at(&t)).await["aud"], MCP);
    let (s, e) = o.api().get(&at(&t), "/cards").await;
    assert_eq!(s, 401, "{e}");
    // The API's own URL with a trailing slash is the API.
    let t = o.tokens_for(Some(&format!("{}/", o.sb.base_url())), &["planner:write"]).await;
    assert_eq!(o.api().get(&at(&t), "/cards").await.0, 200);
}

#[tokio::test]
async fn a_token_without_a_scope_gets_the_403_naming_it() {
    let o = Oauth::start().await;
    let client = o.register(&[CALLBACK]).await;
    // Asked for two, the user unticked generate:*.
    let a = o.asked(&client, CALLBACK, "generate:* planner:write", None);
    let code = o.code(&a, &["planner:write"]).await;
    let (_, t) = o.exchange_code(&a, &code).await;
    assert_eq!(t["scope"], "planner:write");
    let (s, e) = o.api().post(&at(&t), "/studio/generate", json!({ "prompt": "x", "modelId": "m" })).await;
    assert_eq!(s, 403, "{e}");
    assert_eq!(e["scope"], "generate:*");
    assert!(msg(&e).contains("generate:*"));
}

#[tokio::test]
async fn a_revoked_grant_stops_the_very_next_call() {
    let o = Oauth::start().await;
    let t = o.tokens_for(None, &["planner:write"]).await;
    let api = o.api();
    assert_eq!(api.get(&at(&t), "/cards").await.0, 200);
    let (_, grants) = api.get(&o.sb.key, "/oauth/grants").await;
    let id = grants[0]["id"].as_str().unwrap().to_string();
    let (s, body) = api.delete(&o.sb.key, &format!("/oauth/grants/{id}"), None).await;
    assert_eq!((s, body), (200, json!({ "id": id })));
    assert_eq!(api.get(&at(&t), "/cards").await.0, 401);
    assert_eq!(o.refresh(&rt(&t)).await.0, 400);
    assert_eq!(o.introspect(&at(&t)).await["active"], false);
    assert_eq!(api.delete(&o.sb.key, &format!("/oauth/grants/{id}"), None).await.0, 404);
    // Another account cannot revoke this account's grants.
    let t = o.tokens_for(None, &["planner:write"]).await;
    let (_, other) = o.sb.other_account(10.0);
    let (_, grants) = api.get(&o.sb.key, "/oauth/grants").await;
    let id = grants[0]["id"].as_str().unwrap().to_string();
    assert_eq!(api.get(&other, "/oauth/grants").await.1, json!([]));
    assert_eq!(api.delete(&other, &format!("/oauth/grants/{id}"), None).await.0, 404);
    assert_eq!(api.get(&at(&t), "/cards").await.0, 200);
}

#[tokio::test]
async fn token_exchange_gives_the_api_a_token_of_the_same_or_fewer_scopes() {
    let o = Oauth::start().await;
    let rs = o.resource_server().await;
    let me = rs.client.as_ref();
    let t = o.tokens_for(Some(&rs.resource), &["planner:write", "brandkit:read"]).await;
    let (s, api_t, _) = o.exchange(me, &at(&t), Some("planner:write"), &o.sb.base_url()).await;
    assert_eq!(s, 200, "{api_t}");
    assert_eq!(api_t["issued_token_type"], AT);
    assert_eq!(api_t["scope"], "planner:write");
    assert!(api_t.get("refresh_token").is_none());
    let api = o.api();
    assert_eq!(api.get(&at(&api_t), "/cards").await.0, 200);
    let (s, e) = api.get(&at(&api_t), "/brand-kits").await;
    assert_eq!((s, e["scope"].as_str()), (403, Some("brandkit:read")), "narrowed away");
    let i = o.introspect(&at(&api_t)).await;
    assert_eq!(i["grant_id"], o.introspect(&at(&t)).await["grant_id"], "the same grant");
    // No scope asked: the subject's consented scopes, never more.
    let (s, all, _) = o.exchange(me, &at(&t), None, &o.sb.base_url()).await;
    assert_eq!((s, all["scope"].as_str()), (200, Some("brandkit:read planner:write")), "{all}");
    // More than the subject holds: refused.
    let (s, e, _) = o.exchange(me, &at(&t), Some("generate:*"), &o.sb.base_url()).await;
    assert_eq!((s, e["error"].as_str()), (400, Some("invalid_scope")));
    // A refresh token or garbage is not a subject.
    let (s, e, _) = o.exchange(me, &rt(&t), None, &o.sb.base_url()).await;
    assert_eq!((s, e["error"].as_str()), (400, Some("invalid_grant")));
    // Revoking the grant stops the exchanged token too.
    let (_, grants) = api.get(&o.sb.key, "/oauth/grants").await;
    api.delete(&o.sb.key, &format!("/oauth/grants/{}", grants[0]["id"].as_str().unwrap()), None).await;
    assert_eq!(api.get(&at(&api_t), "/cards").await.0, 401);
}

/// Issue 27's finding: a token exchange with no client authentication minted a token for any audience.
/// Now the client must authenticate as a registered resource server (HTTP Basic or the body, as it
/// registered), and anything else is RFC 6749's 401 `invalid_client`.
#[tokio::test]
async fn token_exchange_without_client_authentication_is_refused() {
    let o = Oauth::start().await;
    let rs = o.resource_server().await;
    let t = o.tokens_for(Some(&rs.resource), &["planner:write"]).await;
    let (s, e, h) = o.exchange(None, &at(&t), None, &o.sb.base_url()).await;
    assert_eq!((s, e["error"].as_str()), (401, Some("invalid_client")), "{e}");
    assert!(h["www-authenticate"].to_str().unwrap().starts_with("Basic"));
    assert!(e.get("access_token").is_none());
    // The user's own (public) client id is not a credential; a wrong secret is not either.
    let public_id = o.introspect(&at(&t)).await["client_id"].as_str().unwrap().to_string();
    let (s, e, _) = o.exchange(Some(&(public_id.clone(), "x".into())), &at(&t), None, &o.sb.base_url()).await;
    assert_eq!((s, e["error"].as_str()), (401, Some("invalid_client")), "{e}");
    let (id, _) = rs.client.clone().unwrap();
    let (s, e, _) = o.exchange(Some(&(id.clone(), "cho_cs_wrong".into())), &at(&t), None, &o.sb.base_url()).await;
    assert_eq!((s, e["error"].as_str()), (401, Some("invalid_client")), "{e}");
    let (s, e) = o
        .token(&[("grant_type", TE), ("subject_token", &at(&t)), ("subject_token_type", AT), ("resource", &o.sb.base_url()), ("client_id", &public_id)])
        .await;
    assert_eq!((s, e["error"].as_str()), (401, Some("invalid_client")), "{e}");
    // A client registered for client_secret_basic does not authenticate in the body.
    let (id, secret) = rs.client.clone().unwrap();
    let (s, e) = o
        .token(&[("grant_type", TE), ("subject_token", &at(&t)), ("subject_token_type", AT), ("resource", &o.sb.base_url()), ("client_id", &id), ("client_secret", &secret)])
        .await;
    assert_eq!((s, e["error"].as_str()), (401, Some("invalid_client")), "{e}");
    // One registered for client_secret_post does.
    let proof = "q".repeat(40);
    let post = o.resource_server_with(&proof, &proof, "client_secret_post").await;
    let (pid, psecret) = post.client.clone().unwrap();
    let t2 = o.tokens_for(Some(&post.resource), &["planner:write"]).await;
    let (s, e) = o
        .token(&[("grant_type", TE), ("subject_token", &at(&t2)), ("subject_token_type", AT), ("resource", &o.sb.base_url()), ("client_id", &pid), ("client_secret", &psecret)])
        .await;
    assert_eq!(s, 200, "{e}");
}

/// Issue 27's finding: an MCP-audience token became a token for `https://rs.evil.example/`. Now the
/// target can only be the API (`invalid_target` otherwise), and a client exchanges only the tokens issued
/// for its own resource (another resource server's, or an API token, is `invalid_grant`).
#[tokio::test]
async fn token_exchange_mints_only_for_the_api_and_only_the_clients_own_tokens() {
    let o = Oauth::start().await;
    let rs = o.resource_server().await;
    let me = rs.client.as_ref();
    let t = o.tokens_for(Some(&rs.resource), &["planner:write"]).await;
    for target in ["https://rs.evil.example/", "http://127.0.0.1:9/mcp", rs.resource.as_str(), &format!("{}/other", o.sb.running.origin())] {
        let (s, e, _) = o.exchange(me, &at(&t), None, target).await;
        assert_eq!((s, e["error"].as_str()), (400, Some("invalid_target")), "{target}: {e}");
    }
    let (s, e) = o.token(&[("grant_type", TE), ("subject_token", &at(&t)), ("subject_token_type", AT)]).await;
    assert_eq!((s, e["error"].as_str()), (401, Some("invalid_client")), "unauthenticated first: {e}");
    // A token for another resource server, or for the API itself, is not this client's to exchange.
    let other = o.tokens_for(Some(MCP), &["planner:write"]).await;
    let api_token = o.tokens_for(None, &["planner:write"]).await;
    for subject in [at(&other), at(&api_token)] {
        let (s, e, _) = o.exchange(me, &subject, None, &o.sb.base_url()).await;
        assert_eq!((s, e["error"].as_str()), (400, Some("invalid_grant")), "{e}");
    }
    let second = o.resource_server_with(&"r".repeat(40), &"r".repeat(40), "client_secret_basic").await;
    let (s, e, _) = o.exchange(second.client.as_ref(), &at(&t), None, &o.sb.base_url()).await;
    assert_eq!((s, e["error"].as_str()), (400, Some("invalid_grant")), "another resource server: {e}");
}

/// Registering for token exchange needs the proof that the registrant is the resource: its metadata
/// carries BASE64URL(SHA-256(resource_proof)). Someone holding a stolen token for a resource cannot
/// publish that, so cannot get an exchanging client for it.
#[tokio::test]
async fn only_the_resource_itself_registers_for_token_exchange() {
    let o = Oauth::start().await;
    let rs = o.resource_server_with(&"a".repeat(40), &"b".repeat(40), "client_secret_basic").await;
    assert!(rs.client.is_none());
    assert_eq!(rs.refusal["error"], "invalid_client_metadata");
    assert!(rs.refusal["error_description"].as_str().unwrap().contains("resource_proof"), "{}", rs.refusal);
    let reg = |body: Value| {
        let o = &o;
        async move {
            let r = o.http.post(format!("{}/oauth/register", o.origin())).json(&body).send().await.unwrap();
            (r.status().as_u16(), r.json::<Value>().await.unwrap())
        }
    };
    let ok_proof = "c".repeat(40);
    let cases = [
        (json!({ "grant_types": [TE], "resource": "http://127.0.0.1:9/mcp", "resource_proof": ok_proof }), "resource"),
        (json!({ "grant_types": [TE], "resource": rs.resource }), "resource_proof"),
        (json!({ "grant_types": [TE], "resource_proof": ok_proof }), "resource"),
        (json!({ "grant_types": [TE, "authorization_code"], "resource": rs.resource, "resource_proof": ok_proof, "redirect_uris": [CALLBACK] }), "grant_types"),
        (json!({ "grant_types": [TE], "resource": rs.resource, "resource_proof": ok_proof, "token_endpoint_auth_method": "none" }), "token_endpoint_auth_method"),
        (json!({ "grant_types": [TE], "resource": o.sb.base_url(), "resource_proof": ok_proof }), "resource"),
        (json!({ "grant_types": [TE], "resource": "http://10.0.0.1/mcp", "resource_proof": ok_proof }), "private"),
    ];
    for (body, names) in cases {
        let (s, e) = reg(body.clone()).await;
        assert_eq!((s, e["error"].as_str()), (400, Some("invalid_client_metadata")), "{body}: {e}");
        assert!(e["error_description"].as_str().unwrap().contains(names), "{body}: {e}");
    }
}

#[tokio::test]
async fn introspection_reports_live_tokens_and_nothing_about_others() {
    let o = Oauth::start().await;
    let t = o.tokens_for(Some(MCP), &["planner:write", "editor:read"]).await;
    let i = o.introspect(&at(&t)).await;
    assert_eq!(i["active"], true);
    assert_eq!(i["scope"], "planner:write editor:read");
    assert_eq!(i["sub"], o.sb.account_id);
    assert_eq!(i["aud"], MCP);
    assert!(i["exp"].as_i64().unwrap() > i["iat"].as_i64().unwrap());
    assert!(i["client_id"].is_string() && i["grant_id"].is_string());
    for junk in ["cho_at_nope", "ch_live_nope", ""] {
        let (s, v) = o.post_form("/oauth/introspect", &[("token", junk)]).await;
        assert!(s == 200 && v == json!({ "active": false }) || s == 400, "{junk}: {v}");
    }
    // Revoking the access token: that token only.
    let (s, _) = o.post_form("/oauth/revoke", &[("token", &at(&t))]).await;
    assert_eq!(s, 200);
    assert_eq!(o.introspect(&at(&t)).await, json!({ "active": false }));
    assert_eq!(o.introspect(&rt(&t)).await["active"], true);
    // Revoking the refresh token: the grant.
    let (s, _) = o.post_form("/oauth/revoke", &[("token", &rt(&t))]).await;
    assert_eq!(s, 200);
    assert_eq!(o.introspect(&rt(&t)).await, json!({ "active": false }));
    assert_eq!(o.post_form("/oauth/revoke", &[("token", "cho_rt_unknown")]).await.0, 200);
}

#[tokio::test]
async fn deny_a_forged_form_a_bad_key_and_scopes_beyond_the_key_are_refused() {
    let o = Oauth::start().await;
    let client = o.register(&[CALLBACK]).await;
    let a = o.asked(&client, CALLBACK, "planner:write generate:*", None);
    let (s, loc, _) = o.decide(&a, "deny", "", &[]).await;
    assert_eq!(s, 302);
    let loc = loc.unwrap();
    assert_eq!(param(&loc, "error").as_deref(), Some("access_denied"));
    assert_eq!(param(&loc, "code"), None);
    // Not a live key: the page again, no code.
    let (s, loc, page) = o.decide(&a, "allow", "ch_live_notakey", &["planner:write"]).await;
    assert_eq!((s, loc), (400, None));
    assert!(page.contains("not a live API key"));
    // A key holding planner:write only cannot grant generate:*.
    let small = o.sb.key_with(&["planner:write"]);
    let (s, _, page) = o.decide(&a, "allow", &small, &["planner:write", "generate:*"]).await;
    assert_eq!(s, 400);
    assert!(page.contains("does not hold generate:*"), "{page}");
    // A form whose token does not match its parameters (another site posting blind).
    let form = [
        ("client_id", client.as_str()),
        ("redirect_uri", CALLBACK),
        ("asked_scope", "planner:write"),
        ("code_challenge", a.challenge.as_str()),
        ("token", "0000"),
        ("api_key", o.sb.key.as_str()),
        ("action", "allow"),
        ("scope", "planner:write"),
    ];
    let r = o.http.post(format!("{}/oauth/authorize", o.origin())).form(&form).send().await.unwrap();
    assert_eq!(r.status(), 400);
    assert!(r.headers().get("location").is_none());
    // The page cannot be framed.
    let r = o.http.get(o.authorize_url(&a, Some("S256"))).send().await.unwrap();
    assert_eq!(r.headers()["x-frame-options"], "DENY");
    assert!(r.headers()["content-security-policy"].to_str().unwrap().contains("frame-ancestors 'none'"));
}

/// The bound origin is `http://127.0.0.1:PORT`; a client that reached the sandbox as `localhost` names
/// `http://localhost:PORT/api/v1` as its resource. Both spellings of one port are one origin: the API takes
/// tokens of either audience, reached either way; the issuer stays one.
#[tokio::test]
async fn a_client_reaching_the_sandbox_as_localhost_gets_tokens_the_api_takes() {
    let mut o = Oauth::start().await;
    let bound = o.origin();
    let local = bound.replace("127.0.0.1", "localhost");
    assert_ne!(bound, local);
    o.reach_as = Some(local.clone());
    let meta: Value = o.http.get(format!("{local}/.well-known/oauth-authorization-server")).send().await.unwrap().json().await.unwrap();
    assert_eq!(meta["issuer"], bound, "one issuer, whichever spelling asked");
    let get = |base: String, token: String| {
        let http = o.http.clone();
        async move { http.get(format!("{base}/api/v1/cards")).bearer_auth(token).send().await.unwrap().status().as_u16() }
    };
    let t = o.tokens_for(Some(&format!("{local}/api/v1")), &["planner:write"]).await;
    assert_eq!(o.introspect(&at(&t)).await["aud"], format!("{local}/api/v1"));
    assert_eq!(get(local.clone(), at(&t)).await, 200, "localhost's token at localhost");
    assert_eq!(get(bound.clone(), at(&t)).await, 200, "localhost's token at the bound address");
    // The reverse: a token for the bound spelling, used through localhost.
    let t2 = o.tokens_for(Some(&format!("{bound}/api/v1")), &["planner:write"]).await;
    assert_eq!(get(local.clone(), at(&t2)).await, 200);
    // Token exchange to the other spelling; a refresh naming it keeps the grant's resource.
    let rs = o.resource_server().await;
    let t3 = o.tokens_for(Some(&rs.resource), &["planner:write"]).await;
    let (s, ex, _) = o.exchange(rs.client.as_ref(), &at(&t3), None, &format!("{local}/api/v1")).await;
    assert_eq!(s, 200, "{ex}");
    assert_eq!(get(bound.clone(), at(&ex)).await, 200);
    let (s, r) = o.token(&[("grant_type", "refresh_token"), ("refresh_token", &rt(&t)), ("resource", &format!("{bound}/api/v1"))]).await;
    assert_eq!(s, 200, "{r}");
    // Another port is another resource, whatever the spelling.
    let port: u16 = bound.rsplit(':').next().unwrap().parse().unwrap();
    let elsewhere = o.tokens_for(Some(&format!("http://localhost:{}/api/v1", port.wrapping_add(1))), &["planner:write"]).await;
    assert_eq!(get(local, at(&elsewhere)).await, 401);
}

/// Registration, the consent form's POST and the token endpoint count against the caller's address (here
/// 3 a minute); past it a 429 with `Retry-After`, as the API answers. Token exchange counts against the
/// address too (and its grant); introspection and the API are not counted; another address keeps its own
/// budget.
#[tokio::test]
async fn the_oauth_endpoints_are_rate_limited_per_client_address() {
    let o = Oauth::with(Config {
        oauth_rate_limit: Some(contentdesk_sandbox::RateLimit { requests: 3, window: Duration::from_secs(60) }),
        ..Config::for_tests()
    })
    .await;
    // 1 register, 2 the consent form, 3 the code's exchange: the whole flow fits.
    let t = o.tokens_for(Some(MCP), &["planner:write"]).await;
    let r = o
        .http
        .post(format!("{}/oauth/register", o.origin()))
        .json(&json!({ "client_name": "one more", "redirect_uris": [CALLBACK] }))
        .send()
        .await
        .unwrap();
    assert_eq!(r.status(), 429);
    let wait: u64 = r.headers()["retry-after"].to_str().unwrap().parse().unwrap();
    assert!((1..=60).contains(&wait), "{wait}");
    assert_eq!(r.headers()["cache-control"], "no-store");
    let body: Value = r.json().await.unwrap();
    assert_eq!(body["error"], "rate_limited");
    assert!(body["retryAfter"].as_f64().unwrap() > 0.0, "{body}");
    assert!(body["error_description"].as_str().unwrap().contains("retry in"), "{body}");
    // The token endpoint and the consent form share the address's budget.
    let (s, e) = o.token(&[("grant_type", "refresh_token"), ("refresh_token", &rt(&t))]).await;
    assert_eq!((s, e["error"].as_str()), (429, Some("rate_limited")));
    let r = o.http.post(format!("{}/oauth/authorize", o.origin())).form(&[("action", "allow")]).send().await.unwrap();
    assert_eq!(r.status(), 429);
    assert!(r.headers().contains_key("retry-after"));
    assert!(r.text().await.unwrap().contains("Too many attempts"));
    // Token exchange counts against the address too (issue 27: it did not).
    let (s, e, h) = o.exchange(None, &at(&t), None, &o.sb.base_url()).await;
    assert_eq!((s, e["error"].as_str()), (429, Some("rate_limited")), "{e}");
    assert!(h.contains_key("retry-after"));
    // Not counted by address: introspection, the API.
    assert_eq!(o.introspect(&at(&t)).await["active"], true);
    let api_t = o.sb.key_with(&["planner:write"]);
    assert_eq!(o.api().get(&api_t, "/cards").await.0, 200);
    // Another address (127.0.0.2 is loopback too) is not held back by this one.
    let other = reqwest::Client::builder().local_address(std::net::IpAddr::from([127, 0, 0, 2])).build().unwrap();
    let r = other
        .post(format!("{}/oauth/register", o.origin()))
        .json(&json!({ "client_name": "elsewhere", "redirect_uris": [CALLBACK] }))
        .send()
        .await
        .unwrap();
    assert_eq!(r.status(), 201);
}

/// Issue 27's finding: registration took 1,000 redirect URIs, or one 1 MB URI. Now at most 10 URIs of at
/// most 2,048 bytes and a body of at most 32 KiB; each refusal is a 400 with RFC 7591's code naming the
/// field, and nothing is stored.
#[tokio::test]
async fn registration_is_bounded_in_uris_their_length_and_the_body() {
    let o = Oauth::start().await;
    let reg = |body: String| {
        let o = &o;
        async move {
            let r = o.http.post(format!("{}/oauth/register", o.origin())).header("content-type", "application/json").body(body).send().await.unwrap();
            (r.status().as_u16(), r.json::<Value>().await.unwrap())
        }
    };
    let many: Vec<String> = (0..1000).map(|i| format!("http://127.0.0.1:3000/cb{i}")).collect();
    let long = format!("https://app.example/{}", "a".repeat(3000));
    let huge = format!("https://app.example/{}", "a".repeat(1 << 20));
    let cases = [
        (json!({ "redirect_uris": many }).to_string(), "invalid_redirect_uri", "redirect_uris lists 1000 URIs; at most 10"),
        (json!({ "redirect_uris": many[..11] }).to_string(), "invalid_redirect_uri", "at most 10"),
        (json!({ "redirect_uris": [CALLBACK, long] }).to_string(), "invalid_redirect_uri", "redirect_uris: a URI of 3020 bytes; each may be at most 2048"),
        (json!({ "redirect_uris": [huge] }).to_string(), "invalid_client_metadata", "larger than 32768 bytes"),
        (json!({ "redirect_uris": [CALLBACK], "padding": "x".repeat(40_000) }).to_string(), "invalid_client_metadata", "larger than 32768 bytes"),
    ];
    for (body, code, says) in cases {
        let (s, e) = reg(body).await;
        assert_eq!((s, e["error"].as_str()), (400, Some(code)), "{e}");
        assert!(e["error_description"].as_str().unwrap().contains(says), "{e}");
    }
    let n: i64 = o.sb.state().db().lock().query_row("SELECT COUNT(*) FROM oauth_clients", [], |r| r.get(0)).unwrap();
    assert_eq!(n, 0, "nothing stored");
    // The bounds themselves are accepted.
    let (s, e) = reg(json!({ "redirect_uris": many[..10] }).to_string()).await;
    assert_eq!(s, 201, "{e}");
    let at_limit = format!("https://app.example/{}", "a".repeat(2048 - 20));
    assert_eq!(at_limit.len(), 2048);
    assert_eq!(reg(json!({ "redirect_uris": [at_limit] }).to_string()).await.0, 201);
}

/// Issue 27's finding: registered clients were never purged. A client that never completed an
/// authorization is deleted a day after it registered (on the next registration or start); one that did
/// stays. The clock is moved by setting the registration time back, not by waiting.
#[tokio::test]
async fn clients_that_never_completed_an_authorization_are_purged_after_a_day() {
    let o = Oauth::start().await;
    let idle = o.register(&[CALLBACK]).await;
    let t = o.tokens_for(Some(MCP), &["planner:write"]).await;
    let used = o.introspect(&at(&t)).await["client_id"].as_str().unwrap().to_string();
    let fresh = o.register(&[CALLBACK]).await;
    let age = |id: &str, seconds: i64| {
        o.sb.state()
            .db()
            .lock()
            .execute("UPDATE oauth_clients SET created_s = created_s - ?2 WHERE id = ?1", rusqlite::params![id, seconds])
            .unwrap();
    };
    // Just under a day: kept.
    age(&idle, 86_400 - 60);
    age(&used, 2 * 86_400);
    o.register(&[CALLBACK]).await;
    let known = |id: &str| o.sb.state().db().lock().query_row("SELECT COUNT(*) FROM oauth_clients WHERE id = ?1", [id], |r| r.get::<_, i64>(0)).unwrap() == 1;
    assert!(known(&idle) && known(&used) && known(&fresh));
    // Past a day: the idle one goes, and its authorization link says so; the used one stays, its tokens too.
    age(&idle, 120);
    o.register(&[CALLBACK]).await;
    assert!(!known(&idle), "purged");
    assert!(known(&used) && known(&fresh));
    let a = o.asked(&idle, CALLBACK, "planner:write", None);
    let (status, _, page) = o.page(&o.authorize_url(&a, Some("S256"))).await;
    assert_eq!(status, 400);
    assert!(page.contains("No app is registered"), "{page}");
    assert_eq!(o.introspect(&at(&t)).await["active"], true);
    // The same rule at a start, with the clock given.
    let purged = contentdesk_sandbox::oauth::clients::purge_unused(&o.sb.state().db().lock(), contentdesk_sandbox::oauth::now_s() + 86_401).unwrap();
    assert_eq!(purged, 3, "fresh and the two later registrations");
    assert!(known(&used));
}

/// A Client ID Metadata Document served by a real HTTP server on loopback (the sandbox fetches loopback
/// only because tests, like a sandbox bound to loopback, allow it): `doc` built from the URL it is at.
async fn serve_document(doc: impl Fn(&str) -> Value + Send + 'static) -> (String, tokio::task::JoinHandle<()>) {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let url = format!("http://{}/client.json", listener.local_addr().unwrap());
    let body = doc(&url).to_string();
    let app = axum::Router::new()
        .route("/client.json", axum::routing::get(move || {
            let body = body.clone();
            async move { ([("content-type", "application/json")], body) }
        }))
        .route("/moved.json", axum::routing::get(|| async { (axum::http::StatusCode::FOUND, [("location", "/client.json")]) }));
    let task = tokio::spawn(async move {
        axum::serve(listener, app).await.unwrap();
    });
    (url, task)
}

/// Issue 27 point 7: a client names itself by the URL of its metadata document instead of registering;
/// the sandbox reads it, checks it and runs the same code flow, and says so in its metadata. Registration
/// keeps working beside it (the other tests).
#[tokio::test]
async fn a_client_id_metadata_document_stands_for_registration() {
    let o = Oauth::start().await;
    let meta: Value = o.http.get(format!("{}/.well-known/oauth-authorization-server", o.origin())).send().await.unwrap().json().await.unwrap();
    assert_eq!(meta["client_id_metadata_document_supported"], true);
    assert!(meta["registration_endpoint"].is_string(), "registration is kept");
    let (url, _task) = serve_document(|url| json!({ "client_id": url, "client_name": "Doc Agent", "redirect_uris": [CALLBACK], "token_endpoint_auth_method": "none" })).await;
    let a = o.asked(&url, CALLBACK, "planner:write", None);
    let (status, _, page) = o.page(&o.authorize_url(&a, Some("S256"))).await;
    assert_eq!(status, 200, "{page}");
    assert!(page.contains("Doc Agent"));
    let code = o.code(&a, &["planner:write"]).await;
    let (s, t) = o.exchange_code(&a, &code).await;
    assert_eq!(s, 200, "{t}");
    assert_eq!(o.api().get(&at(&t), "/cards").await.0, 200);
    assert_eq!(o.introspect(&at(&t)).await["client_id"], url);
    let (_, grants) = o.api().get(&o.sb.key, "/oauth/grants").await;
    assert_eq!(grants[0]["clientName"], "Doc Agent");
    // The refresh token stays the document client's.
    let (s, r) = o.token(&[("grant_type", "refresh_token"), ("refresh_token", &rt(&t)), ("client_id", &url)]).await;
    assert_eq!(s, 200, "{r}");
}

/// What a metadata document must be: each refusal is the error page (never a redirect) naming the rule.
#[tokio::test]
async fn a_metadata_document_that_breaks_a_rule_gets_the_error_page() {
    let o = Oauth::start().await;
    type Doc = Box<dyn Fn(&str) -> Value + Send>;
    let cases: Vec<(Doc, &str)> = vec![
        (Box::new(|_| json!({ "client_id": "https://other.example/client.json", "redirect_uris": [CALLBACK] })), "names another client_id"),
        (Box::new(|u| json!({ "client_id": u, "redirect_uris": ["http://127.0.0.1:3000/elsewhere"] })), "not a redirect address"),
        (Box::new(|u| json!({ "client_id": u, "redirect_uris": [] })), "at least one"),
        (Box::new(|u| json!({ "client_id": u, "redirect_uris": (0..11).map(|i| format!("{CALLBACK}{i}")).collect::<Vec<_>>() })), "at most 10"),
        (Box::new(|u| json!({ "client_id": u, "redirect_uris": [CALLBACK], "token_endpoint_auth_method": "client_secret_basic" })), "token_endpoint_auth_method"),
        (Box::new(|u| json!({ "client_id": u, "redirect_uris": [CALLBACK], "client_secret": "s" })), "client_secret"),
        (Box::new(|u| json!({ "client_id": u, "redirect_uris": [CALLBACK], "grant_types": ["client_credentials"] })), "grant type"),
        (Box::new(|u| json!({ "client_id": u, "redirect_uris": [CALLBACK], "padding": "x".repeat(6000) })), "larger than 5120 bytes"),
    ];
    for (doc, says) in cases {
        let (url, _task) = serve_document(doc).await;
        let a = o.asked(&url, CALLBACK, "planner:write", None);
        let (status, loc, page) = o.page(&o.authorize_url(&a, Some("S256"))).await;
        assert_eq!((status, loc), (400, None), "{says}: {page}");
        assert!(page.contains(says), "{says}: {page}");
    }
    // A redirect is not followed; a private address, a root URL or a fragment is not fetched.
    let (url, _task) = serve_document(|u| json!({ "client_id": u, "redirect_uris": [CALLBACK] })).await;
    for (client_id, says) in [
        (url.replace("client.json", "moved.json"), "redirects are not followed"),
        ("https://10.1.2.3/client.json".to_string(), "private or reserved"),
        ("https://169.254.169.254/latest/meta-data".to_string(), "private or reserved"),
        (url.replace("/client.json", "/"), "must have a path"),
        (format!("{url}#x"), "no fragment"),
    ] {
        let a = o.asked(&client_id, CALLBACK, "planner:write", None);
        let (status, loc, page) = o.page(&o.authorize_url(&a, Some("S256"))).await;
        assert_eq!((status, loc), (400, None), "{client_id}: {page}");
        assert!(page.contains(says), "{client_id}: {page}");
    }
}

/// Served beyond this machine (`--public`), the sandbox fetches no loopback document: a caller could
/// otherwise make it probe local services.
#[tokio::test]
async fn without_loopback_fetching_a_loopback_document_is_refused() {
    let o = Oauth::with(Config { oauth_fetch_loopback: false, ..Config::for_tests() }).await;
    let (url, _task) = serve_document(|u| json!({ "client_id": u, "redirect_uris": [CALLBACK] })).await;
    let a = o.asked(&url, CALLBACK, "planner:write", None);
    let (status, _, page) = o.page(&o.authorize_url(&a, Some("S256"))).await;
    assert_eq!(status, 400);
    assert!(page.contains("https"), "{page}");
}

/// Showing the consent page for a metadata document makes the sandbox fetch it, so that page counts
/// against the caller's address (here 2 a minute); a registered client's page does not fetch and is not
/// counted.
#[tokio::test]
async fn a_metadata_document_fetch_counts_against_the_callers_address() {
    let o = Oauth::with(Config {
        oauth_rate_limit: Some(contentdesk_sandbox::RateLimit { requests: 2, window: Duration::from_secs(60) }),
        ..Config::for_tests()
    })
    .await;
    let (url, _task) = serve_document(|u| json!({ "client_id": u, "redirect_uris": [CALLBACK] })).await;
    let a = o.asked(&url, CALLBACK, "planner:write", None);
    assert_eq!(o.page(&o.authorize_url(&a, Some("S256"))).await.0, 200);
    assert_eq!(o.page(&o.authorize_url(&a, Some("S256"))).await.0, 200);
    let (status, _, page) = o.page(&o.authorize_url(&a, Some("S256"))).await;
    assert_eq!(status, 429, "{page}");
    assert!(page.contains("Too many attempts"));
}
