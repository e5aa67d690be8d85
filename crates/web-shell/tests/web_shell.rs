//! web-shell over real HTTP: the token guard, a command round trip to the embedded sandbox, errors as
//! status + IpcError JSON, the UI files with the CSP and the index fallback, the Host allow-list, and a
//! body limit that fits the largest upload.
use contentdesk_core::{AppState, CoreConfig, MemoryStore, Secrets};
use std::sync::Arc;

struct Shell {
    base: String,
    token: String,
    http: reqwest::Client,
    _dir: std::path::PathBuf,
}

async fn start() -> Shell {
    let dir = std::env::temp_dir().join(format!("contentdesk-web-{}", uuid::Uuid::new_v4()));
    let dist = dir.join("dist");
    std::fs::create_dir_all(dist.join("assets")).unwrap();
    std::fs::write(dist.join("index.html"), "<!doctype html><title>Content Desk</title>").unwrap();
    std::fs::write(dist.join("assets/app.js"), "console.log(1)").unwrap();
    let core = AppState::start(CoreConfig {
        data_dir: dir.join("data"),
        settings: None,
        secrets: Secrets::Store(Arc::new(MemoryStore::new())),
        embedded_sandbox: true,
        embedded_sandbox_config: Default::default(),
    })
    .await
    .unwrap();
    let token = contentdesk_web_shell::new_token();
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    let app = contentdesk_web_shell::router(core, &token, dist, addr.port());
    tokio::spawn(async move { axum::serve(listener, app).await.unwrap() });
    Shell { base: format!("http://{addr}"), token, http: reqwest::Client::new(), _dir: dir }
}

impl Shell {
    async fn ipc(&self, cmd: &str, body: &str, token: Option<&str>) -> (u16, serde_json::Value) {
        let mut req = self.http.post(format!("{}/ipc/{cmd}", self.base)).body(body.to_string());
        if let Some(t) = token {
            req = req.header("X-ContentDesk-Token", t);
        }
        let res = req.send().await.unwrap();
        (res.status().as_u16(), res.json().await.unwrap())
    }
}

#[tokio::test]
async fn commands_need_the_run_token() {
    let s = start().await;
    let (status, body) = s.ipc("balance", "{}", None).await;
    assert_eq!((status, body["code"].as_str()), (401, Some("unauthorized")));
    let (status, _) = s.ipc("balance", "{}", Some("not-the-token")).await;
    assert_eq!(status, 401);
}

#[tokio::test]
async fn a_command_round_trip_reaches_the_embedded_sandbox() {
    let s = start().await;
    let (status, body) = s.ipc("balance", "", Some(&s.token)).await;
    assert_eq!(status, 200, "{body}");
    assert!(body["balance"].as_f64().unwrap() > 0.0);
    let (status, spaces) = s.ipc("spaces_list", "{}", Some(&s.token)).await;
    assert_eq!(status, 200);
    assert!(!spaces.as_array().unwrap().is_empty());
}

#[tokio::test]
async fn errors_are_a_status_and_the_ipc_error_body() {
    let s = start().await;
    let (status, body) = s.ipc("board_load", "{}", Some(&s.token)).await;
    assert_eq!(status, 400);
    assert_eq!(body["code"], "validation");
    assert_eq!(body["field"], "spaceId");
    let (status, body) = s.ipc("profile_add", "{not json", Some(&s.token)).await;
    assert_eq!((status, body["code"].as_str()), (400, Some("validation")));
    let (status, body) = s.ipc("nope", "{}", Some(&s.token)).await;
    assert_eq!((status, body["code"].as_str()), (500, Some("internal")));
}

#[tokio::test]
async fn the_ui_is_served_with_the_csp_and_unknown_paths_get_the_index() {
    let s = start().await;
    let res = s.http.get(format!("{}/", s.base)).send().await.unwrap();
    assert_eq!(res.status(), 200);
    let csp = res.headers()["content-security-policy"].to_str().unwrap().to_string();
    assert!(csp.contains("script-src 'self'") && csp.contains("object-src 'none'"), "{csp}");
    assert!(res.text().await.unwrap().contains("Content Desk"));
    assert_eq!(res_cache(&s, "/").await, "no-store");
    let js = s.http.get(format!("{}/assets/app.js", s.base)).send().await.unwrap();
    assert_eq!(js.status(), 200);
    // The built assets (content-hashed names) are kept by the browser; the page, the commands and an
    // unknown asset (answered with the page) never.
    assert_eq!(js.headers()["cache-control"], contentdesk_web_shell::ASSET_CACHE);
    let missing = s.http.get(format!("{}/assets/missing-abc.js", s.base)).send().await.unwrap();
    assert_eq!((missing.status().as_u16(), missing.headers()["cache-control"].to_str().unwrap()), (404, "no-store"));
    assert_eq!(res_cache(&s, "/index.html").await, "no-store");
    let ipc = s.http.post(format!("{}/ipc/balance", s.base)).header("X-ContentDesk-Token", &s.token).send().await.unwrap();
    assert_eq!(ipc.headers()["cache-control"], "no-store");
    let deep = s.http.get(format!("{}/settings/profiles", s.base)).send().await.unwrap();
    assert!(deep.text().await.unwrap().contains("<title>Content Desk"));
}

async fn res_cache(s: &Shell, path: &str) -> String {
    let res = s.http.get(format!("{}{path}", s.base)).send().await.unwrap();
    res.headers()["cache-control"].to_str().unwrap().to_string()
}

#[tokio::test]
async fn studio_events_stream_as_server_sent_events_behind_the_token() {
    let s = start().await;
    let res = s.http.get(format!("{}/events?token=wrong", s.base)).send().await.unwrap();
    assert_eq!(res.status().as_u16(), 401);
    let mut res = s.http.get(format!("{}/events?token={}", s.base, s.token)).send().await.unwrap();
    assert_eq!(res.status().as_u16(), 200);
    assert!(res.headers()["content-type"].to_str().unwrap().starts_with("text/event-stream"));
    // A generation writes its job first: that is the first event.
    let id = uuid::Uuid::new_v4().to_string();
    let body = serde_json::json!({ "form": { "media": "image", "modelId": "nano-banana-2", "prompt": "a kite" }, "outputId": id });
    let (http, base, token) = (s.http.clone(), s.base.clone(), s.token.clone());
    let call = tokio::spawn(async move {
        http.post(format!("{base}/ipc/studio_generate")).header("X-ContentDesk-Token", token).body(body.to_string()).send().await
    });
    let mut text = String::new();
    while !text.contains("\n\n") {
        let chunk = tokio::time::timeout(std::time::Duration::from_secs(10), res.chunk()).await.expect("an event in time");
        text.push_str(&String::from_utf8_lossy(&chunk.unwrap().expect("stream open")));
    }
    let data = text.lines().find_map(|l| l.strip_prefix("data: ")).expect("a data line");
    let event: serde_json::Value = serde_json::from_str(data).unwrap();
    assert_eq!(event["type"], "job", "{event}");
    assert_eq!(event["job"]["outputId"], id.as_str());
    assert_eq!(event["job"]["status"], "submitting");
    call.abort();
}

#[tokio::test]
async fn only_its_own_loopback_names_are_answered() {
    // Issue 12: no Host allow-list, so a page of another site whose name was made to resolve to 127.0.0.1
    // (DNS rebinding) could read the UI. A forged Host now gets 421 and the IpcError JSON, on the UI files,
    // the commands and the events alike; the loopback names with this port are answered.
    let s = start().await;
    let port = s.base.rsplit(':').next().unwrap().to_string();
    let send = |path: &str, host: &str, post: bool| {
        let url = format!("{}{path}", s.base);
        let req = if post { s.http.post(url).header("X-ContentDesk-Token", &s.token).body("{}") } else { s.http.get(url) };
        let req = req.header("host", host);
        async move {
            let res = req.send().await.unwrap();
            let status = res.status().as_u16();
            (status, res.text().await.unwrap())
        }
    };
    for host in [format!("evil.example:{port}"), "evil.example".into(), format!("127.0.0.1.evil.example:{port}"), "127.0.0.1:1".into(), "localhost".into()] {
        for (path, post) in [("/", false), ("/assets/app.js", false), ("/ipc/balance", true), (&*format!("/events?token={}", s.token), false)] {
            let (status, body) = send(path, &host, post).await;
            assert_eq!(status, 421, "{path} with Host {host}: {body}");
            let v: serde_json::Value = serde_json::from_str(&body).unwrap_or_else(|e| panic!("not JSON ({e}): {body}"));
            assert_eq!(v["code"], "unauthorized", "{v}");
            assert!(v["message"].as_str().unwrap().contains("loopback"), "{v}");
        }
    }
    for host in [format!("127.0.0.1:{port}"), format!("localhost:{port}"), format!("LocalHost:{port}"), format!("[::1]:{port}")] {
        let (status, body) = send("/", &host, false).await;
        assert_eq!(status, 200, "Host {host}: {body}");
        let (status, body) = send("/ipc/balance", &host, true).await;
        assert_eq!(status, 200, "Host {host}: {body}");
    }
}

#[tokio::test]
async fn a_10_mb_upload_goes_through_and_a_body_over_the_limit_is_ipc_error_json() {
    // Issue 12: axum's default 2 MiB body limit refused a media upload over about 1.5 MB (base64 in JSON)
    // with a plain-text 413. The limit now fits the UI's largest upload (50 MB as base64), and past it the
    // answer is the IpcError JSON the UI reads.
    let s = start().await;
    let bytes = 10 * 1024 * 1024 + 2; // a multiple of 3: its base64 is all 'A's with no padding
    let body = serde_json::json!({ "name": "big.png", "contentType": "image/png", "contentBase64": "A".repeat(bytes / 3 * 4) });
    let (status, v) = s.ipc("media_upload", &body.to_string(), Some(&s.token)).await;
    assert_eq!(status, 200, "a 10 MB upload: {v}");
    let url = v["url"].as_str().unwrap_or_else(|| panic!("an uploaded file's url: {v}"));
    let served = s.http.get(url).send().await.unwrap().bytes().await.unwrap();
    assert_eq!(served.len(), bytes, "the sandbox holds the whole file");

    const { assert!(contentdesk_web_shell::MAX_BODY_BYTES >= contentdesk_core::attach::MAX_UPLOAD_BYTES / 3 * 4) };
    let over = vec![b' '; contentdesk_web_shell::MAX_BODY_BYTES + 1];
    let res = s
        .http
        .post(format!("{}/ipc/media_upload", s.base))
        .header("X-ContentDesk-Token", &s.token)
        .body(over)
        .send()
        .await
        .unwrap();
    assert_eq!(res.status().as_u16(), 413);
    assert!(res.headers()["content-type"].to_str().unwrap().starts_with("application/json"));
    let v: serde_json::Value = res.json().await.unwrap();
    assert_eq!(v["code"], "validation", "{v}");
    assert!(v["message"].as_str().unwrap().contains("50 MB"), "{v}");
}
