use super::*;
use serde_json::json;
use std::collections::HashSet;

#[test]
fn every_entry_is_unique_and_described() {
    let mut paths = HashSet::new();
    let mut tools = HashSet::new();
    for e in catalogue() {
        assert!(paths.insert(e.meta.path), "two operations at `{}`", e.meta.command());
        assert!(tools.insert(e.meta.tool), "two operations named `{}`", e.meta.tool);
        assert!(!e.meta.summary.is_empty() && !e.meta.summary.ends_with('.'), "{}: a one-line summary without a full stop", e.meta.tool);
        assert!(e.meta.tool.chars().all(|c| c.is_ascii_lowercase() || c == '_'), "{}: snake_case", e.meta.tool);
        let schema = e.input_schema();
        assert_eq!(schema["type"], "object", "{}: the input is an object", e.meta.tool);
        // The shell command builds (clap checks its own declarations in debug builds).
        e.command().debug_assert();
        for noun in &e.meta.path[..e.meta.path.len() - 1] {
            assert!(noun_about(noun).is_some(), "{}: the noun `{noun}` has no line in NOUNS", e.meta.tool);
        }
    }
}

#[test]
fn an_operation_is_described_by_its_meta_not_by_a_flattened_group() {
    // clap and schemars both hand a flattened group's doc comment to the whole input (`generate
    // image` was "What every render takes besides its own fields", `account balance` "No input").
    for e in catalogue() {
        assert_eq!(e.command().get_about().map(|a| a.to_string()), Some(e.meta.summary.to_string()), "{}", e.meta.tool);
        assert_eq!(e.command().get_long_about(), None, "{}", e.meta.tool);
        assert!(e.input_schema().get("description").is_none(), "{}: {}", e.meta.tool, e.input_schema()["description"]);
    }
}

#[test]
fn the_shell_prints_what_the_official_cli_prints() {
    for (tool, _) in PRINTED_PART {
        assert!(catalogue().iter().any(|e| e.meta.tool == *tool), "{tool}: no such operation");
    }
    let tags = by_tool("list_tags").unwrap();
    let p = tags.printed(json!({ "tags": [{ "id": "t1", "name": "a", "count": 2.0 }] }));
    assert_eq!(p.data, json!([{ "id": "t1", "name": "a", "count": 2 }]));
    assert_eq!(p.paging, None);
    let cards = by_tool("list_cards").unwrap();
    let p = cards.printed(json!({ "cards": [{ "id": "c1" }], "total": 3, "hasMore": true }));
    assert_eq!(p.data, json!([{ "id": "c1" }]));
    assert_eq!(p.paging.map(Value::Object), Some(json!({ "total": 3, "hasMore": true })));
    let p = cards.printed(json!({ "cards": [{ "id": "c1" }], "total": 1, "hasMore": false }));
    assert_eq!(p.paging, None, "nothing more: nothing to say");
    let project = by_tool("get_project").unwrap();
    assert_eq!(project.printed(json!({ "project": { "id": "p1" } })).data, json!({ "id": "p1" }));
    // Not an envelope (the service's own shape changed): printed whole, not lost.
    assert_eq!(tags.printed(json!([{ "id": "t1" }])).data, json!([{ "id": "t1" }]));
    let balance = by_tool("get_balance").unwrap();
    assert_eq!(balance.printed(json!({ "balance": 500.0, "rate": 0.5 })).data.to_string(), r#"{"balance":500,"rate":0.5}"#);
}

#[test]
fn a_card_check_exits_6_only_when_a_finding_blocks() {
    let check = by_tool("check_card").unwrap();
    assert_eq!(check.meta.effect, Effect::Read);
    assert_eq!(check.meta.toolset(), Toolset::Planner);
    let blocking = json!({ "findings": [{ "severity": "warns" }, { "severity": "blocks" }] });
    assert_eq!(check.exit_code(&blocking), EXIT_BLOCKED);
    assert_eq!(check.exit_code(&json!({ "findings": [{ "severity": "warns" }] })), 0);
    assert_eq!(check.exit_code(&json!({ "findings": [] })), 0);
    assert_eq!(by_tool("get_card").unwrap().exit_code(&blocking), 0, "only the check says 6");
    assert!(check.command().get_after_help().is_some_and(|h| h.to_string().contains("6 when a finding blocks")), "--help says 6");
}

#[test]
fn numbers_print_as_javascript_prints_them() {
    assert_eq!(js_numbers(json!([500.0, 0.5, -3.0, 1e300, 7])).to_string(), "[500,0.5,-3,1e+300,7]");
}

#[test]
fn every_operation_is_in_one_toolset() {
    for e in catalogue() {
        let in_sets: Vec<Toolset> = Toolset::NOUNS.iter().filter(|(_, n)| n.contains(&e.meta.path[0])).map(|(t, _)| *t).collect();
        assert_eq!(in_sets.len(), 1, "{}: in toolsets {in_sets:?}", e.meta.tool);
    }
    for t in Toolset::ALL {
        assert_eq!(Toolset::parse(t.name()), Some(t));
        assert!(agent_catalogue().any(|e| e.meta.toolset() == t), "{}: no tool", t.name());
    }
}

#[test]
fn read_only_wins_over_the_toolsets_chosen() {
    let all = Selection::default();
    assert_eq!(all.tools().count(), agent_catalogue().count());
    let read = Selection::parse(None, true).unwrap();
    assert!(read.tools().count() > 10);
    assert!(read.tools().all(|e| e.meta.effect == Effect::Read));
    assert_eq!(read.tools().count(), agent_catalogue().filter(|e| e.meta.effect == Effect::Read).count());
    let studio = Selection::parse(Some("studio"), true).unwrap();
    assert!(studio.tool("generate_image").is_none(), "a spending tool is not read-only");
    assert!(studio.tool("get_generation_status").is_some());
    assert!(studio.tool("list_cards").is_none(), "another toolset");
    let two = Selection::parse(Some("planner, brand-kit"), false).unwrap();
    assert!(two.tool("create_card").is_some() && two.tool("update_brand_kit_section").is_some());
    assert!(two.tool("generate_image").is_none() && two.tool("get_balance").is_none());
    assert_eq!(Selection::parse(Some("all"), false).unwrap(), all);
    assert!(Selection::parse(Some("planer"), false).unwrap_err().contains("planner, studio"));
    assert!(Selection::parse(Some(","), false).is_err());
}

#[test]
fn spending_operations_take_a_free_quote() {
    for e in catalogue().iter().filter(|e| e.meta.effect == Effect::Spend) {
        let schema = e.input_schema();
        assert!(schema["properties"]["getCost"].is_object(), "{} has no getCost", e.meta.tool);
        assert!(schema["properties"]["outputId"].is_object(), "{} has no outputId", e.meta.tool);
        assert!(e.command().get_arguments().any(|a| a.get_long() == Some("cost")), "{} has no --cost", e.meta.tool);
    }
}
