//! Every endpoint × every scope: a key holding only one scope (or none) gets 403 naming the missing
//! scope exactly where the endpoint needs another, and is never refused for scope where it has it.
mod common;
use api_types::scopes;
use common::{msg, Http, TestSandbox};
use contentdesk_sandbox::routes::{route_table, scopes as gate};
use serde_json::json;

fn concrete(path: &str) -> String {
    path.split('/')
        .map(|seg| if seg.starts_with('{') { uuid::Uuid::new_v4().to_string() } else { seg.to_string() })
        .collect::<Vec<_>>()
        .join("/")
}

#[tokio::test]
async fn every_endpoint_times_every_scope() {
    let sb = TestSandbox::start().await;
    let http = Http::new(&sb);
    let mut keys: Vec<(Option<&str>, String)> = vec![(None, sb.key_with(&[]))];
    for s in scopes::ALL {
        keys.push((Some(s), sb.key_with(&[s])));
    }
    let mut failures = Vec::new();
    let routes = route_table();
    assert!(!routes.is_empty());
    for (method, path) in &routes {
        let needed = gate::required(method, path);
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
fn the_scope_table_names_only_served_routes() {
    let served: Vec<String> =
        route_table().iter().map(|(m, p)| format!("{m} {}", gate::normalise(p))).collect();
    let stray: Vec<String> = gate::REQUIRED
        .iter()
        .map(|(m, p, _)| format!("{m} {}", gate::normalise(p)))
        .filter(|r| !served.contains(r))
        .collect();
    assert!(stray.is_empty(), "scope table entries with no route: {stray:?}");
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
