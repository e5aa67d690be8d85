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
