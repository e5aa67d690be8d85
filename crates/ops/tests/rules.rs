//! The rules of an operation's input hold for an agent (`cdesk mcp` runs `Entry::run_json`) as they hold
//! in `cdesk` (crates/cli/tests/planner.rs) and in the app (crates/core/tests/planner.rs): each rule is
//! written once, on the input type, and every face runs it. Against the real sandbox over HTTP.
use api_client::{ApiKey, Client};
use contentdesk_ops::{by_tool, Cx, OpError};
use contentdesk_sandbox::testing::TestSandbox;
use serde_json::{json, Value};

async fn call(cx: &Cx, tool: &str, args: Value) -> Result<Value, OpError> {
    by_tool(tool).unwrap_or_else(|| panic!("no tool {tool}")).run_json(cx.clone(), args)?.await
}

#[tokio::test(flavor = "multi_thread")]
async fn move_card_refuses_a_card_before_itself_and_sends_nothing() {
    let sb = TestSandbox::start().await;
    let cx = Cx::new(Client::new(sb.base_url(), ApiKey::new(sb.key.clone())).unwrap());
    let card = call(&cx, "create_card", json!({ "title": "Alone", "platform": "instagram" })).await.unwrap();
    let id = card["id"].as_str().unwrap().to_string();
    let before = call(&cx, "get_card", json!({ "cardId": id })).await.unwrap();

    let e = call(&cx, "move_card", json!({ "cardId": id, "stage": "published", "beforeCardId": id })).await.unwrap_err();
    assert!(matches!(&e, OpError::Usage { field: Some(f), .. } if f == "beforeCardId"), "{e:?}");
    assert!(e.to_string().contains("before itself"), "{e}");
    assert_eq!(e.exit_code(), 2);
    let after = call(&cx, "get_card", json!({ "cardId": id })).await.unwrap();
    assert_eq!((&after["stageId"], &after["updatedAt"]), (&before["stageId"], &before["updatedAt"]), "nothing was sent");

    // The app's own fields are not an agent's: its schema does not list them and they are refused by name.
    let e = call(&cx, "move_card", json!({ "cardId": id, "stage": "published", "baseUpdatedAt": "x" })).await.unwrap_err();
    assert!(e.to_string().contains("unknown field `baseUpdatedAt`"), "{e}");
    // A move that keeps the rule goes through.
    let moved = call(&cx, "move_card", json!({ "cardId": id, "stage": before["stageId"] })).await.unwrap();
    assert_eq!(moved["id"], json!(id));
}

#[tokio::test(flavor = "multi_thread")]
async fn search_brand_knowledge_asks_for_words_and_one_to_fifty_passages() {
    let sb = TestSandbox::start().await;
    let cx = Cx::new(Client::new(sb.base_url(), ApiKey::new(sb.key.clone())).unwrap());
    let kits = call(&cx, "list_brand_kits", json!({})).await.unwrap();
    let kit = kits["brandKits"][0]["id"].as_str().unwrap_or_else(|| panic!("a kit: {kits}")).to_string();
    for (args, field, message) in [
        (json!({ "brandKitId": kit, "query": "mugs", "limit": 0 }), "limit", "Ask for 1 to 50 matches."),
        (json!({ "brandKitId": kit, "query": "mugs", "limit": 51 }), "limit", "Ask for 1 to 50 matches."),
        (json!({ "brandKitId": kit, "query": "   " }), "query", "Give the words to search for."),
    ] {
        let e = call(&cx, "search_brand_knowledge", args.clone()).await.unwrap_err();
        assert!(matches!(&e, OpError::Usage { field: Some(f), .. } if f == field), "{args}: {e:?}");
        assert_eq!(e.to_string(), message, "{args}");
    }
    let found = call(&cx, "search_brand_knowledge", json!({ "brandKitId": kit, "query": "mugs", "limit": 50 })).await.unwrap();
    assert!(found["matches"].is_array(), "{found}");
}

/// The rules of spaces and stages, once on their inputs (`SpaceCreateInput::check`, `StageCreateInput::check`,
/// …), hold for an agent as in `cdesk` and the app: a usage error naming the field, and nothing sent.
#[tokio::test(flavor = "multi_thread")]
async fn space_and_stage_tools_refuse_what_their_inputs_rule_out_and_send_nothing() {
    let sb = TestSandbox::start().await;
    let cx = Cx::new(Client::new(sb.base_url(), ApiKey::new(sb.key.clone())).unwrap());
    let space = call(&cx, "create_space", json!({ "name": "  Rules  " })).await.unwrap();
    assert_eq!(space["name"], json!("Rules"), "the name is trimmed");
    let sp = space["id"].as_str().unwrap().to_string();
    let stages = |v: Value| v["stages"].as_array().unwrap().iter().map(|s| s["id"].as_str().unwrap().to_string()).collect::<Vec<_>>();
    let st = stages(call(&cx, "list_stages", json!({ "spaceId": sp })).await.unwrap());
    let spaces_before = call(&cx, "list_spaces", json!({})).await.unwrap();
    for (tool, args, field, message) in [
        ("create_space", json!({ "name": " " }), "name", "Give the space a name."),
        ("create_space", json!({ "name": "x".repeat(121) }), "name", "The space's name is too long: at most 120 characters."),
        ("update_space", json!({ "spaceId": sp, "name": "" }), "name", "Give the space a name."),
        ("create_stage", json!({ "spaceId": sp, "name": "x".repeat(61) }), "name", "The stage's name is too long: at most 60 characters."),
        ("create_stage", json!({ "spaceId": sp, "name": "Both", "afterId": st[0], "beforeId": st[1] }), "beforeId", "Move a stage after one stage or before one, not both."),
        ("update_stage", json!({ "spaceId": sp, "stageId": st[0], "name": "  " }), "name", "Give the stage a name."),
        ("delete_stage", json!({ "spaceId": sp, "stageId": st[0], "targetStageId": st[0] }), "targetStageId", "Choose another stage for the cards of the stage you delete."),
    ] {
        let e = call(&cx, tool, args.clone()).await.unwrap_err();
        assert!(matches!(&e, OpError::Usage { field: Some(f), .. } if f == field), "{tool} {args}: {e:?}");
        assert_eq!(e.to_string(), message, "{tool} {args}");
        assert_eq!(e.exit_code(), 2);
    }
    assert_eq!(stages(call(&cx, "list_stages", json!({ "spaceId": sp })).await.unwrap()), st, "no stage was sent");
    assert_eq!(call(&cx, "list_spaces", json!({})).await.unwrap(), spaces_before, "no space was sent");
}

/// The rules of a publish and of a revert, once on their inputs (`CardPublishInput::check`,
/// `SectionRevertInput::check`), hold for an agent as in `cdesk` and the app: a usage error naming the
/// field, nothing sent, and a field of another shape refused by name.
#[tokio::test(flavor = "multi_thread")]
async fn publish_and_revert_refuse_what_their_inputs_rule_out() {
    let sb = TestSandbox::start().await;
    let cx = Cx::new(Client::new(sb.base_url(), ApiKey::new(sb.key.clone())).unwrap());
    let card = call(&cx, "create_card", json!({ "title": "Not yet", "platform": "instagram" })).await.unwrap();
    let id = card["id"].as_str().unwrap().to_string();
    for (args, field, message) in [
        (json!({ "cardId": id, "platform": "myspace" }), "platform", "“myspace” is not a platform"),
        (json!({ "cardId": "  " }), "cardId", "Choose the card to publish."),
    ] {
        let e = call(&cx, "publish_post", args.clone()).await.unwrap_err();
        assert!(matches!(&e, OpError::Usage { field: Some(f), .. } if f == field), "{args}: {e:?}");
        assert!(e.to_string().contains(message), "{args}: {e}");
    }
    let e = call(&cx, "publish_post", json!({ "cardId": id, "platforms": ["instagram"] })).await.unwrap_err();
    assert!(e.to_string().contains("unknown field `platforms`"), "{e}");

    let kits = call(&cx, "list_brand_kits", json!({})).await.unwrap();
    let kit = kits["brandKits"][0]["id"].as_str().unwrap_or_else(|| panic!("a kit: {kits}")).to_string();
    for (args, field, message) in [
        (json!({ "brandKitId": kit, "key": "about", "to": 0 }), "to", "Pick a version to bring back (1 or more)."),
        (json!({ "brandKitId": kit, "key": "about", "to": 2, "expectedVersion": 2 }), "to", "Version 2 is the current one already."),
        (json!({ "brandKitId": kit, "key": " ", "to": 1 }), "key", "Choose the section's key."),
    ] {
        let e = call(&cx, "revert_brand_kit_section", args.clone()).await.unwrap_err();
        assert!(matches!(&e, OpError::Usage { field: Some(f), .. } if f == field), "{args}: {e:?}");
        assert_eq!(e.to_string(), message, "{args}");
    }
    let e = call(&cx, "revert_brand_kit_section", json!({ "brandKitId": kit, "key": "about", "version": 1 })).await.unwrap_err();
    assert!(e.to_string().contains("unknown field `version`"), "{e}");
}
