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
