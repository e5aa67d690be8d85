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
    assert_eq!(v["token_endpoint_auth_methods_supported"], json!(["none"]));
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
    let t = o.tokens_for(Some(MCP), &["planner:write", "brandkit:read"]).await;
    let ex = |subject: String, scope: Option<&'static str>, resource: String| {
        let o = &o;
        async move {
            let mut f = vec![
                ("grant_type", "urn:ietf:params:oauth:grant-type:token-exchange".to_string()),
                ("subject_token", subject),
                ("subject_token_type", "urn:ietf:params:oauth:token-type:access_token".to_string()),
                ("resource", resource),
            ];
            if let Some(s) = scope {
                f.push(("scope", s.to_string()));
            }
            let f: Vec<(&str, &str)> = f.iter().map(|(k, v)| (*k, v.as_str())).collect();
            o.token(&f).await
        }
    };
    let (s, api_t) = ex(at(&t), Some("planner:write"), o.sb.base_url()).await;
    assert_eq!(s, 200, "{api_t}");
    assert_eq!(api_t["issued_token_type"], "urn:ietf:params:oauth:token-type:access_token");
    assert_eq!(api_t["scope"], "planner:write");
    assert!(api_t.get("refresh_token").is_none());
    let api = o.api();
    assert_eq!(api.get(&at(&api_t), "/cards").await.0, 200);
    let (s, e) = api.get(&at(&api_t), "/brand-kits").await;
    assert_eq!((s, e["scope"].as_str()), (403, Some("brandkit:read")), "narrowed away");
    let i = o.introspect(&at(&api_t)).await;
    assert_eq!(i["grant_id"], o.introspect(&at(&t)).await["grant_id"], "the same grant");
    // More than the subject holds: refused.
    let (s, e) = ex(at(&t), Some("generate:*"), o.sb.base_url()).await;
    assert_eq!((s, e["error"].as_str()), (400, Some("invalid_scope")));
    // A refresh token or garbage is not a subject.
    let (s, e) = ex(rt(&t), None, o.sb.base_url()).await;
    assert_eq!((s, e["error"].as_str()), (400, Some("invalid_grant")));
    // Revoking the grant stops the exchanged token too.
    let (_, grants) = api.get(&o.sb.key, "/oauth/grants").await;
    api.delete(&o.sb.key, &format!("/oauth/grants/{}", grants[0]["id"].as_str().unwrap()), None).await;
    assert_eq!(api.get(&at(&api_t), "/cards").await.0, 401);
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
    let (s, ex) = o
        .token(&[
            ("grant_type", "urn:ietf:params:oauth:grant-type:token-exchange"),
            ("subject_token", &at(&t2)),
            ("subject_token_type", "urn:ietf:params:oauth:token-type:access_token"),
            ("resource", &format!("{local}/api/v1")),
        ])
        .await;
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
/// 3 a minute); past it a 429 with `Retry-After`, as the API answers. Token exchange counts against its
/// grant instead, and introspection and the API are not counted; another address keeps its own budget.
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
    // Not counted by address: token exchange (its grant's window), introspection, the API.
    let (s, ex) = o
        .token(&[
            ("grant_type", "urn:ietf:params:oauth:grant-type:token-exchange"),
            ("subject_token", &at(&t)),
            ("subject_token_type", "urn:ietf:params:oauth:token-type:access_token"),
            ("resource", &o.sb.base_url()),
        ])
        .await;
    assert_eq!(s, 200, "{ex}");
    assert_eq!(o.introspect(&at(&t)).await["active"], true);
    assert_eq!(o.api().get(&at(&ex), "/cards").await.0, 200);
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
