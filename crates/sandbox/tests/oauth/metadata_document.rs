//! oauth: Client ID Metadata Documents.
use super::*;

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
