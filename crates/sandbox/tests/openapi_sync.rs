//! Keeps `docs/openapi.yaml` in step with the sandbox: (a) the YAML's `(method, path)` set equals
//! `routes::route_table()`, and (b) every operation the YAML documents is really served by a running
//! sandbox (the answer is never the router's fallback 404 "No such endpoint" nor a 405).
mod common;

use common::{msg, Http, TestSandbox};
use contentdesk_sandbox::routes::route_table;
use serde_json::{json, Value};
use std::collections::BTreeSet;

const METHODS: &[&str] = &[
    "get", "put", "post", "delete", "options", "head", "patch", "trace",
];

/// One documented operation: method (upper case), path as written, and whether it takes a body.
#[derive(Debug, Clone)]
struct Operation {
    method: String,
    path: String,
    has_body: bool,
}

fn spec() -> serde_yaml::Value {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../../docs/openapi.yaml");
    let text = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("read {path}: {e}"));
    serde_yaml::from_str(&text).unwrap_or_else(|e| panic!("parse {path}: {e}"))
}

fn operations() -> Vec<Operation> {
    let spec = spec();
    let paths = spec
        .get("paths")
        .and_then(|p| p.as_mapping())
        .expect("`paths` in docs/openapi.yaml");
    let mut ops = Vec::new();
    for (path, item) in paths {
        let path = path.as_str().expect("a path is a string").to_string();
        let item = item
            .as_mapping()
            .unwrap_or_else(|| panic!("path item of {path} is a mapping"));
        for (key, op) in item {
            let Some(method) = key.as_str().filter(|k| METHODS.contains(k)) else {
                continue;
            };
            ops.push(Operation {
                method: method.to_ascii_uppercase(),
                path: path.clone(),
                has_body: op.get("requestBody").is_some(),
            });
        }
    }
    ops
}

/// `/cards/{id}/publish` and `/cards/{cardId}/publish` are the same route.
fn normalise(path: &str) -> String {
    path.split('/')
        .map(|seg| {
            if seg.starts_with('{') && seg.ends_with('}') {
                "{}"
            } else {
                seg
            }
        })
        .collect::<Vec<_>>()
        .join("/")
}

#[test]
fn yaml_operations_equal_the_route_table() {
    let documented: BTreeSet<(String, String)> = operations()
        .iter()
        .map(|o| (o.method.clone(), normalise(&o.path)))
        .collect();
    let served: BTreeSet<(String, String)> = route_table()
        .iter()
        .map(|(m, p)| (m.to_ascii_uppercase(), normalise(p)))
        .collect();

    let only_yaml: Vec<_> = documented.difference(&served).collect();
    let only_routes: Vec<_> = served.difference(&documented).collect();
    if !only_yaml.is_empty() || !only_routes.is_empty() {
        let mut report = String::from("docs/openapi.yaml and routes::route_table() differ\n");
        report.push_str(&format!(
            "  in docs/openapi.yaml only ({}):\n",
            only_yaml.len()
        ));
        for (m, p) in &only_yaml {
            report.push_str(&format!("    {m} {p}\n"));
        }
        report.push_str(&format!(
            "  in route_table() only ({}):\n",
            only_routes.len()
        ));
        for (m, p) in &only_routes {
            report.push_str(&format!("    {m} {p}\n"));
        }
        panic!("{report}");
    }
}

#[test]
fn route_table_has_no_duplicates() {
    let table = route_table();
    let mut seen = BTreeSet::new();
    let dups: Vec<_> = table
        .iter()
        .map(|(m, p)| (m.to_ascii_uppercase(), normalise(p)))
        .filter(|k| !seen.insert(k.clone()))
        .collect();
    assert!(
        dups.is_empty(),
        "route_table() lists these more than once: {dups:?}"
    );
}

#[tokio::test]
async fn every_documented_operation_is_served() {
    let sb = TestSandbox::start().await;
    let http = Http::new(&sb);
    let mut unserved = Vec::new();
    for op in operations() {
        // A random UUID for every path parameter: the route must match even when the record does not exist.
        let path = op
            .path
            .split('/')
            .map(|seg| {
                if seg.starts_with('{') && seg.ends_with('}') {
                    uuid::Uuid::new_v4().to_string()
                } else {
                    seg.to_string()
                }
            })
            .collect::<Vec<_>>()
            .join("/");
        let body: Option<Value> = op.has_body.then(|| json!({}));
        let (status, answer) = http.send(&op.method, &sb.key, &path, body).await;
        let fallback_404 = status == 404 && msg(&answer).starts_with("No such endpoint");
        if fallback_404 || status == 405 {
            unserved.push(format!(
                "{} {} (sent {} {}): {} {}",
                op.method, op.path, op.method, path, status, answer
            ));
        }
    }
    assert!(
        unserved.is_empty(),
        "documented in docs/openapi.yaml but not served by the sandbox ({}):\n  {}",
        unserved.len(),
        unserved.join("\n  ")
    );
}
