//! brand_kits: the section rules shared with the core and the UI (crates/api-types/fixtures/brand-kit-rules.json).
//! Each input the core refuses is sent as the wire entry it stands for and is a 400 naming the same field
//! (`sections[i].<wire field>`), unless the case says what the service answers instead and why; what the
//! core sends for a valid case is written (200).
use super::*;
use std::collections::HashMap;

fn fixture() -> Value {
    serde_json::from_str(include_str!(
        "../../../api-types/fixtures/brand-kit-rules.json"
    ))
    .unwrap()
}

/// The wire name of a command's field: the section's display name is `sectionName` on the wire.
fn wire_name(field: &str) -> &str {
    if field == "name" {
        "sectionName"
    } else {
        field
    }
}

/// `sections[1].name` → `sections[1].sectionName`; an add's `tab` → `sections[0].tab`.
fn wire_field(field: &str, add: bool) -> String {
    if add {
        return format!("sections[0].{}", wire_name(field));
    }
    match field.rsplit_once('.') {
        Some((entry, f)) => format!("{entry}.{}", wire_name(f)),
        None => field.to_string(),
    }
}

/// The entry as sent on the wire: the same fields, `name` as `sectionName`.
fn wire_entry(input: &Value) -> Value {
    let mut out = serde_json::Map::new();
    for (k, v) in input.as_object().unwrap() {
        out.insert(wire_name(k).to_string(), v.clone());
    }
    Value::Object(out)
}

/// The sections' versions now, so that a case's `expectedVersion` (1 or more) is the version read and
/// only the rule under test can refuse the write.
async fn versions(http: &Http, key: &str, kit: &str) -> HashMap<String, i64> {
    let (s, v) = http
        .get(key, &format!("/brand-kits/{kit}?detail=summary"))
        .await;
    assert_eq!(s, 200, "{v}");
    v["sections"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| {
            (
                s["key"].as_str().unwrap().to_string(),
                s["version"].as_i64().unwrap(),
            )
        })
        .collect()
}

fn read_now(mut entries: Vec<Value>, now: &HashMap<String, i64>) -> Vec<Value> {
    for e in &mut entries {
        let current = e["key"].as_str().and_then(|k| now.get(k));
        if let (Some(v), Some(ev)) = (current, e["expectedVersion"].as_i64()) {
            if ev >= 1 {
                e["expectedVersion"] = json!(v);
            }
        }
    }
    entries
}

async fn run(group: &str) -> usize {
    let sb = TestSandbox::start().await;
    let http = Http::new(&sb);
    let kit = default_kit(&http, &sb.key).await;
    let add = group == "add";
    let cases = fixture()[group].as_array().unwrap().clone();
    for case in &cases {
        let name = case["name"].as_str().unwrap();
        let now = versions(&http, &sb.key, &kit).await;
        let (entries, want_status, want_field) = if case["expect"].is_null() {
            let sends = case["sends"].as_array().unwrap().clone();
            (sends, 200, None)
        } else {
            let entries = if add {
                vec![wire_entry(&case["input"])]
            } else {
                case["sections"]
                    .as_array()
                    .unwrap()
                    .iter()
                    .map(wire_entry)
                    .collect()
            };
            match case["service"]["status"].as_u64() {
                Some(status) => (entries, status as u16, None),
                None => {
                    let field = wire_field(case["expect"]["field"].as_str().unwrap(), add);
                    (entries, 400, Some(field))
                }
            }
        };
        let (s, v) = patch(
            &http,
            &sb.key,
            &kit,
            json!({ "sections": read_now(entries, &now) }),
        )
        .await;
        assert_eq!(s, want_status, "{name}: {v}");
        if let Some(field) = want_field {
            assert_eq!(v["field"], field.as_str(), "{name}: {v}");
            if let Some(valid) = case["expect"].get("validValues") {
                assert_eq!(&v["validValues"], valid, "{name}: {v}");
            }
        }
    }
    cases.len()
}

#[tokio::test]
async fn the_shared_add_cases_are_refused_naming_the_same_field() {
    assert!(run("add").await >= 10);
}

#[tokio::test]
async fn the_shared_save_cases_are_refused_naming_the_same_field() {
    assert!(run("save").await >= 20);
}
