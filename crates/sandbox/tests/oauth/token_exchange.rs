//! oauth: token exchange: client authentication, audiences, registration proof.
use super::*;

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
