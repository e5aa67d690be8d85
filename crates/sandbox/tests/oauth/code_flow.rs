//! oauth: the code flow with PKCE, its refusals, replays, refresh rotation and revocation.
use super::*;

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
