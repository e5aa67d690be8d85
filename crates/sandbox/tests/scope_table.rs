//! Every endpoint × every scope: a key holding only one scope (or none) gets 403 naming the missing
//! scope exactly where the endpoint needs another, and is never refused for scope where it has it.
//!
//! The expected scopes below are written out by hand from spec §5 (the scope table) and fact sheet 1.4
//! (card/space/stage/connected-account/model/media reads need no scope; brand-kit, knowledge, inspiration
//! and performance reads need `brandkit:read`; `POST /archive` needs `favorites:write`; projects need
//! `editor:read`/`editor:write`). They are deliberately not imported from the sandbox's one route
//! declaration (`routes::API`, which the gate reads), so a wrong row there fails here.
mod common;
use api_types::scopes;
use common::{msg, Http, TestSandbox};
use contentdesk_sandbox::gate::required_for;
use contentdesk_sandbox::routes::{route_table, API};
use serde_json::json;

/// Every served route and the scopes it needs (all of them), independent of the sandbox's gate.
const EXPECTED: &[(&str, &str, &[&str])] = &[
    // Account, models, voices, generation status, the media library: no scope (facts 1.4).
    ("GET", "/account/balance", &[]),
    ("GET", "/balance", &[]),
    ("GET", "/models", &[]),
    ("GET", "/models/{}", &[]),
    ("GET", "/voices", &[]),
    ("GET", "/voices/{}", &[]),
    ("GET", "/studio/generate/{}", &[]),
    ("GET", "/media", &[]),
    // Generation: spec §5 `generate:*` (image, video, audio, board, lip-sync).
    ("POST", "/studio/generate", &["generate:*"]),
    ("POST", "/studio/reference-board", &["generate:*"]),
    // Uploads and imports: spec §5 `assets:write` ("upload and attach media").
    ("POST", "/media/uploads", &["assets:write"]),
    ("POST", "/media/uploads/{}/complete", &["assets:write"]),
    ("POST", "/media/imports", &["assets:write"]),
    // Planner reads need no scope; writes need `planner:write` (spec §5, facts 1.4).
    ("GET", "/spaces", &[]),
    ("GET", "/spaces/{}", &[]),
    ("POST", "/spaces", &["planner:write"]),
    ("PATCH", "/spaces/{}", &["planner:write"]),
    ("DELETE", "/spaces/{}", &["planner:write"]),
    ("GET", "/stages", &[]),
    ("POST", "/stages", &["planner:write"]),
    ("PATCH", "/stages/{}", &["planner:write"]),
    ("DELETE", "/stages/{}", &["planner:write"]),
    ("GET", "/cards", &[]),
    ("GET", "/cards/{}", &[]),
    ("POST", "/cards", &["planner:write"]),
    ("PATCH", "/cards/{}", &["planner:write"]),
    ("GET", "/tags", &[]),
    ("POST", "/tags", &["planner:write"]),
    ("PATCH", "/tags/{}", &["planner:write"]),
    ("DELETE", "/tags/{}", &["planner:write"]),
    // Publishing now: spec §5 `publish:write` ("schedule and publish posts").
    ("POST", "/cards/{}/publish", &["publish:write"]),
    // Archive: facts 1.4 `favorites:write` (not in the spec's table).
    ("POST", "/archive", &["favorites:write"]),
    // Projects: facts 1.4 `editor:read` / `editor:write`.
    ("GET", "/projects", &["editor:read"]),
    ("GET", "/projects/{}", &["editor:read"]),
    ("POST", "/projects", &["editor:write"]),
    ("POST", "/projects/import", &["editor:write"]),
    // Brand kits and knowledge: spec §5 `brandkit:read` / `brandkit:write`.
    ("GET", "/brand-kits", &["brandkit:read"]),
    ("GET", "/brand-kits/{}", &["brandkit:read"]),
    ("PATCH", "/brand-kits/{}", &["brandkit:write"]),
    ("GET", "/brand-kits/{}/knowledge", &["brandkit:read"]),
    ("GET", "/brand-kits/{}/knowledge/search", &["brandkit:read"]),
    ("GET", "/brand-kits/{}/knowledge/{}", &["brandkit:read"]),
    ("POST", "/brand-kits/{}/knowledge", &["brandkit:write"]),
    ("DELETE", "/brand-kits/{}/knowledge/{}", &["brandkit:write"]),
    // Tracked accounts and their content are inspiration/performance: spec §5 `brandkit:read`.
    ("GET", "/accounts", &["brandkit:read"]),
    ("GET", "/accounts/{}", &["brandkit:read"]),
    ("GET", "/content", &["brandkit:read"]),
    ("GET", "/content/{}", &["brandkit:read"]),
    // Connected publishing accounts: a planner read, no scope (facts 1.4).
    ("GET", "/connected-accounts", &[]),
    ("GET", "/connected-accounts/{}", &[]),
    // Granted apps (OAuth, our choice: docs/api.md "OAuth"): the account's own business, like the balance;
    // an API key only (a delegated token gets 403, tests/oauth/).
    ("GET", "/oauth/grants", &[]),
    ("DELETE", "/oauth/grants/{}", &[]),
];

fn expected(method: &str, path: &str) -> &'static [&'static str] {
    let norm = normalise(path);
    EXPECTED
        .iter()
        .find(|(m, p, _)| *m == method && *p == norm)
        .map(|(_, _, s)| *s)
        .unwrap_or_else(|| panic!("{method} {path} is served but has no row in EXPECTED: decide its scope"))
}

/// `/cards/{id}` and `/cards/{cardId}` are the same route: `/cards/{}`.
fn normalise(path: &str) -> String {
    path.split('/')
        .map(|seg| if seg.starts_with('{') && seg.ends_with('}') { "{}" } else { seg })
        .collect::<Vec<_>>()
        .join("/")
}

fn concrete(path: &str) -> String {
    path.split('/')
        .map(|seg| if seg.starts_with('{') { uuid::Uuid::new_v4().to_string() } else { seg.to_string() })
        .collect::<Vec<_>>()
        .join("/")
}

#[test]
fn every_served_route_has_one_expected_row_and_every_row_is_served() {
    let served: Vec<String> =
        route_table().iter().map(|(m, p)| format!("{m} {}", normalise(p))).collect();
    let rows: Vec<String> = EXPECTED.iter().map(|(m, p, _)| format!("{m} {p}")).collect();
    let missing: Vec<&String> = served.iter().filter(|r| !rows.contains(r)).collect();
    let stray: Vec<&String> = rows.iter().filter(|r| !served.contains(r)).collect();
    assert!(missing.is_empty() && stray.is_empty(), "served without a row: {missing:?}; rows not served: {stray:?}");
    let mut seen = rows.clone();
    seen.sort();
    seen.dedup();
    assert_eq!(seen.len(), rows.len(), "a route has two rows");
}

#[tokio::test]
async fn every_endpoint_times_every_scope() {
    let sb = TestSandbox::start().await;
    let http = Http::new(&sb);
    let mut keys: Vec<(Option<&str>, String)> = vec![(None, sb.key_with(&[]))];
    for (_, _, needed) in EXPECTED {
        assert!(needed.iter().all(|n| scopes::ALL.contains(n)), "a scope of EXPECTED is not in scopes::ALL: {needed:?}");
    }
    for s in scopes::ALL {
        keys.push((Some(s), sb.key_with(&[s])));
    }
    let mut failures = Vec::new();
    let routes = route_table();
    assert!(!routes.is_empty());
    for (method, path) in &routes {
        let needed = expected(method, path);
        let url = concrete(path);
        let body = (*method != "GET").then(|| json!({}));
        for (scope, key) in &keys {
            let (status, v) = http.send(method, key, &url, body.clone()).await;
            let has_all = needed.iter().all(|n| Some(*n) == *scope);
            if has_all {
                if status == 403 {
                    failures.push(format!("{method} {path} with {scope:?}: refused 403 ({})", msg(&v)));
                }
            } else {
                let missing = needed.iter().find(|n| Some(**n) != *scope).unwrap();
                if status != 403 || !msg(&v).contains(missing) {
                    failures.push(format!(
                        "{method} {path} with {scope:?}: expected 403 naming {missing}, got {status} ({})",
                        msg(&v)
                    ));
                }
            }
        }
    }
    assert!(failures.is_empty(), "{} scope failures:\n{}", failures.len(), failures.join("\n"));
}

#[test]
fn the_declared_scopes_are_the_expected_ones() {
    let mut wrong = Vec::new();
    for (method, path, scopes) in API {
        let (mut declared, mut want) = (scopes.to_vec(), expected(method, path).to_vec());
        declared.sort();
        want.sort();
        if declared != want {
            wrong.push(format!("{method} {path}: declared {declared:?}, expected {want:?}"));
        }
    }
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
}

#[tokio::test]
async fn a_missing_scope_is_refused_before_the_body_is_read() {
    let sb = TestSandbox::start().await;
    let http = Http::new(&sb);
    let key = sb.key_with(&[scopes::BRANDKIT_READ]);
    let (status, v) = http.send_raw("POST", &key, "/studio/generate", "{not json").await;
    assert_eq!(status, 403, "{v}");
    assert!(msg(&v).contains("generate:*"));
    assert_eq!(v["scope"], "generate:*");
}

#[tokio::test]
async fn every_endpoint_needs_a_bearer_key_and_answers_401_without_a_good_one() {
    // Spec §5.1: every endpoint takes `Authorization: Bearer <API_KEY>`. No header, another scheme, a key
    // that does not exist and a revoked key are all 401 with the error body, on every route, before the
    // route's own checks (so even a body that would be a 400 is a 401).
    let sb = TestSandbox::start().await;
    let revoked = sb.key_with(&[]);
    sb.revoke(&revoked);
    let client = reqwest::Client::new();
    let mut failures = Vec::new();
    for (method, path) in route_table() {
        let url = format!("{}{}", sb.base_url(), concrete(path));
        let m = reqwest::Method::from_bytes(method.as_bytes()).unwrap();
        let auths: [(&str, Option<String>); 5] = [
            ("no header", None),
            ("Basic scheme", Some(format!("Basic {}", sb.key))),
            ("bare key", Some(sb.key.clone())),
            ("unknown key", Some("Bearer ch_live_notarealkeynotarealkeynotareal1".into())),
            ("revoked key", Some(format!("Bearer {revoked}"))),
        ];
        for (what, auth) in auths {
            let mut req = client.request(m.clone(), &url);
            if let Some(a) = auth {
                req = req.header("authorization", a);
            }
            if method != "GET" {
                req = req.header("content-type", "application/json").body("{not json");
            }
            let resp = req.send().await.expect("request");
            let status = resp.status().as_u16();
            let v: serde_json::Value = resp.json().await.unwrap_or_default();
            if status != 401 || msg(&v).is_empty() {
                failures.push(format!("{method} {path} with {what}: {status} {v}"));
            }
        }
    }
    assert!(failures.is_empty(), "{} endpoints took a request without a good key:\n{}", failures.len(), failures.join("\n"));
}

#[tokio::test]
async fn head_and_options_are_gated_like_get() {
    // Issue 12: axum answers HEAD with the GET handler, and the gate used to look up the scopes of "HEAD"
    // (none), so a key without `editor:read` got 200 and the Content-Length of `/projects`. Every GET row
    // of EXPECTED that needs a scope: HEAD with a key holding every other scope is 403, HEAD with the
    // scope is not, and HEAD without a key is 401. OPTIONS on the same path likewise.
    let sb = TestSandbox::start().await;
    let client = reqwest::Client::new();
    let all_but = |needed: &[&str]| -> String {
        let keep: Vec<&str> = scopes::ALL.iter().copied().filter(|s| !needed.contains(s)).collect();
        sb.key_with(&keep)
    };
    let mut failures = Vec::new();
    let mut checked = 0;
    for (_, path, needed) in EXPECTED.iter().filter(|(m, _, n)| *m == "GET" && !n.is_empty()) {
        let url = format!("{}{}", sb.base_url(), concrete(path));
        let lacking = all_but(needed);
        for m in [reqwest::Method::HEAD, reqwest::Method::OPTIONS] {
            let status = |key: Option<String>| {
                let mut req = client.request(m.clone(), &url);
                if let Some(k) = key {
                    req = req.bearer_auth(k);
                }
                async move { req.send().await.expect("request").status().as_u16() }
            };
            let without = status(Some(lacking.clone())).await;
            if without != 403 {
                failures.push(format!("{m} {path} (GET needs {needed:?}) with every other scope: {without}"));
            }
            let with = status(Some(sb.key.clone())).await;
            if with == 403 || with == 401 {
                failures.push(format!("{m} {path} with every scope: {with}"));
            }
            let nokey = status(None).await;
            if nokey != 401 {
                failures.push(format!("{m} {path} without a key: {nokey}"));
            }
        }
        checked += 1;
    }
    assert!(checked >= 10, "only {checked} GET rows need a scope");
    assert!(failures.is_empty(), "{} HEAD/OPTIONS answers past the gate:\n{}", failures.len(), failures.join("\n"));
}

#[test]
fn the_gate_reads_head_as_get_and_other_methods_as_every_scope_of_the_path() {
    assert_eq!(&*required_for(API, "HEAD", "/projects"), &[scopes::EDITOR_READ]);
    let mut opts = required_for(API, "OPTIONS", "/projects").to_vec();
    opts.sort();
    assert_eq!(opts, vec![scopes::EDITOR_READ, scopes::EDITOR_WRITE]);
    assert!(required_for(API, "OPTIONS", "/cards").contains(&scopes::PLANNER_WRITE));
}
