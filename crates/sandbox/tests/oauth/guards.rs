//! oauth: introspection, the consent form's refusals, localhost, rate limits, registration bounds and purging.
use super::*;

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
