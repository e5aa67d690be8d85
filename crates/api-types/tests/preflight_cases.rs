//! The preflight cases shared with the UI's `platformRules.test.ts` (fixtures/platform-rules-cases.json): each
//! rule at its limit and one over, the counting edge cases (emoji, links on X, CJK, combining marks), unknown
//! platforms and formats. The same file drives Vitest, so Rust and TypeScript cannot drift.

use contentdesk_api_types::preflight::{self, Counting, PreflightInput};
use serde_json::{Value, json};

fn fixture() -> Value {
    serde_json::from_str(include_str!("../fixtures/platform-rules-cases.json")).unwrap()
}

/// A text written as a string or as parts (`"s"` or `{"repeat": s, "times": n}`).
fn text(v: &Value) -> Value {
    match v {
        Value::Array(parts) => Value::String(
            parts
                .iter()
                .map(|p| match p {
                    Value::String(s) => s.clone(),
                    p => p["repeat"].as_str().unwrap().repeat(p["times"].as_u64().unwrap() as usize),
                })
                .collect(),
        ),
        other => other.clone(),
    }
}

/// The case's card with every text field built.
fn card(case: &Value) -> PreflightInput {
    let mut posts = case["posts"].clone();
    for post in posts.as_array_mut().unwrap() {
        for key in ["platformSpecificData", "platformSettings"] {
            if let Some(Value::Object(data)) = post.get_mut(key) {
                for v in data.values_mut() {
                    *v = text(v);
                }
            }
        }
    }
    serde_json::from_value(json!({ "posts": posts, "assets": case["assets"] })).unwrap()
}

#[test]
fn the_shared_cases_give_the_same_findings() {
    let fixture = fixture();
    let cases = fixture["cases"].as_array().unwrap();
    assert!(cases.len() >= 30, "{}", cases.len());
    for case in cases {
        let name = case["name"].as_str().unwrap();
        let got = serde_json::to_value(preflight::check(&card(case))).unwrap();
        assert_eq!(got, case["expect"], "{name}");
    }
}

#[test]
fn the_shared_counts() {
    let fixture = fixture();
    for c in fixture["counts"].as_array().unwrap() {
        let t = c["text"].as_str().unwrap();
        let how = Counting::parse(c["counting"].as_str().unwrap()).unwrap();
        assert_eq!(preflight::count(t, how), c["expect"].as_u64().unwrap(), "{t:?} {how:?}");
    }
    for c in fixture["links"].as_array().unwrap() {
        let t = c["text"].as_str().unwrap();
        assert_eq!(preflight::count_links(t), c["expect"].as_u64().unwrap(), "{t:?}");
    }
}

#[test]
fn every_rule_of_the_table_is_broken_by_some_case() {
    // A rule no case breaks could change its limit unnoticed: each (platform, rule, field kind) appears in
    // some case's expected findings.
    let fixture = fixture();
    let found: Vec<(String, String)> = fixture["cases"]
        .as_array()
        .unwrap()
        .iter()
        .flat_map(|c| c["expect"].as_array().unwrap().iter())
        .map(|f| (f["platform"].as_str().unwrap().to_string(), f["rule"].as_str().unwrap().to_string()))
        .collect();
    for (platform, p) in &preflight::table().platforms {
        for r in &p.rules {
            assert!(found.contains(&(platform.clone(), r.rule.clone())), "no case breaks {platform} {}", r.rule);
        }
    }
}
