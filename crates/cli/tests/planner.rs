//! The planner's commands as a separate process against the real sandbox over HTTP, JSON checked field
//! by field: spaces, stages, tags, publishing, archive, projects, connected accounts and inspiration.
//! Each group goes create → list shows it → update → get shows the change → delete or archive → gone,
//! and a write without its scope is exit 3 naming the scope. Each run gets an empty HOME, config folder
//! and app data folder, so no key of this machine is found by accident.
mod desk;

use contentdesk_sandbox::testing::TestSandbox;
use desk::Desk;
use serde_json::{json, Value};

/// The ids of a list's records.
fn ids(list: &Value) -> Vec<String> {
    list.as_array().unwrap_or_else(|| panic!("a list: {list}")).iter().map(|r| r["id"].as_str().expect("an id").to_string()).collect()
}

/// The record with this id in a list.
fn find<'a>(list: &'a Value, id: &str) -> &'a Value {
    list.as_array().unwrap_or_else(|| panic!("a list: {list}")).iter().find(|r| r["id"] == id).unwrap_or_else(|| panic!("{id} is not in {list}"))
}

fn text(v: &Value) -> String {
    v.as_str().unwrap_or_else(|| panic!("a string: {v}")).to_string()
}

#[tokio::test(flavor = "multi_thread")]
async fn spaces_create_list_update_get_delete_and_writes_need_planner_write() {
    let sb = TestSandbox::start().await;
    let desk = Desk::new(&sb);

    let made = desk.run(&["space", "create", "Launch week", "--cover", "https://example.com/cover.png"]).await.ok();
    assert_eq!(made["name"], "Launch week");
    assert_eq!(made["coverUrl"], "https://example.com/cover.png");
    let id = text(&made["id"]);

    let list = desk.run(&["space", "list"]).await.ok();
    let listed = find(&list, &id);
    assert_eq!((listed["name"].as_str(), listed["postCount"].as_i64()), (Some("Launch week"), Some(0)));

    let updated = desk.run(&["space", "update", &id, "--name", "Launch month", "--no-cover"]).await.ok();
    assert_eq!((updated["id"].as_str(), updated["name"].as_str()), (Some(id.as_str()), Some("Launch month")));
    let got = desk.run(&["space", "get", &id]).await.ok();
    assert_eq!(got["name"], "Launch month");
    assert_eq!(got["coverUrl"], Value::Null, "--no-cover removed it: {got}");
    // Nothing to change is a usage error before any request.
    assert_eq!(desk.run(&["space", "update", &id]).await.fails(2)["error"].as_str().map(|m| m.contains("nothing to change")), Some(true));

    // A space holding a card is not deleted (a 400 naming the count); moved out, it can be.
    let card = text(&desk.run(&["card", "create", "In the way", "--platform", "instagram", "--space", &id]).await.ok()["id"]);
    let refused = desk.run(&["space", "delete", &id]).await.fails(2);
    assert!(text(&refused["error"]).contains("1 card"), "{refused}");
    assert_eq!(desk.run(&["space", "get", &id]).await.ok()["id"], id.as_str());
    let default_space = text(&desk.run(&["stage", "list"]).await.ok()["space"]["id"]);
    desk.run(&["card", "update", &card, "--space", &default_space]).await.ok();

    // A key without planner:write: exit 3 naming the scope, nothing changed.
    let reader = sb.key_with(&["brandkit:read"]);
    let e = desk.run_as(&reader, &["space", "update", &id, "--name", "Hijacked"]).await.fails(3);
    assert_eq!(e["scope"], "planner:write", "{e}");
    assert!(text(&e["error"]).contains("planner:write"), "{e}");
    assert_eq!(e["status"], 403);
    assert_eq!(desk.run(&["space", "get", &id]).await.ok()["name"], "Launch month");

    let deleted = desk.run(&["space", "delete", &id]).await.ok();
    assert_eq!(deleted, json!({ "id": id }));
    assert!(!ids(&desk.run(&["space", "list", "--archived"]).await.ok()).contains(&id));
    let gone = desk.run(&["space", "get", &id]).await.fails(1);
    assert_eq!(gone["status"], 404, "{gone}");
}

#[tokio::test(flavor = "multi_thread")]
async fn stages_create_place_update_and_delete_moving_their_cards() {
    let sb = TestSandbox::start().await;
    let desk = Desk::new(&sb);
    let space = text(&desk.run(&["space", "create", "Columns"]).await.ok()["id"]);

    let first = desk.run(&["stage", "create", "Drafting", "--space", &space, "--color", "#112233"]).await.ok();
    assert_eq!((first["name"].as_str(), first["slug"].as_str(), first["color"].as_str()), (Some("Drafting"), Some("drafting"), Some("#112233")));
    let first_id = text(&first["id"]);
    let second = desk.run(&["stage", "create", "Polish", "--space", &space, "--before", &first_id]).await.ok();
    let second_id = text(&second["id"]);

    let list = desk.run(&["stage", "list", "--space", &space]).await.ok();
    assert_eq!(list["space"]["id"], space.as_str(), "{list}");
    let order = ids(&list["stages"]);
    let (at_first, at_second) = (order.iter().position(|s| *s == first_id).unwrap(), order.iter().position(|s| *s == second_id).unwrap());
    assert_eq!(at_second + 1, at_first, "--before placed Polish right before Drafting: {order:?}");
    // The same name again is refused (the slug exists): exit 5, nothing added.
    desk.run(&["stage", "create", "drafting", "--space", &space]).await.fails(5);
    assert_eq!(ids(&desk.run(&["stage", "list", "--space", &space]).await.ok()["stages"]).len(), order.len());

    let updated = desk.run(&["stage", "update", &first_id, "--space", &space, "--name", "Writing", "--color", "#445566", "--to-start"]).await.ok();
    assert_eq!((updated["stage"]["name"].as_str(), updated["stage"]["slug"].as_str()), (Some("Writing"), Some("writing")), "{updated}");
    assert!(updated["respaced"].is_boolean(), "{updated}");
    let list = desk.run(&["stage", "list", "--space", &space]).await.ok();
    let stages = &list["stages"];
    assert_eq!(ids(stages)[0], first_id, "--to-start moved it to the far left: {stages}");
    let writing = find(stages, &first_id);
    assert_eq!((writing["name"].as_str(), writing["color"].as_str()), (Some("Writing"), Some("#445566")));

    // Without --space, the default space's stages are meant.
    let default_stage = desk.run(&["stage", "create", "Backlog"]).await.ok();
    let default_id = text(&default_stage["id"]);
    assert!(ids(&desk.run(&["stage", "list"]).await.ok()["stages"]).contains(&default_id));
    let renamed = desk.run(&["stage", "update", &default_id, "--name", "Someday"]).await.ok();
    assert_eq!(renamed["stage"]["name"], "Someday");
    desk.run(&["stage", "delete", &default_id]).await.ok();
    assert!(!ids(&desk.run(&["stage", "list"]).await.ok()["stages"]).contains(&default_id));

    // A stage holding a card needs a target; with one, the card moves and the stage goes.
    let card = text(&desk.run(&["card", "create", "Moving", "--platform", "youtube", "--space", &space, "--stage", &first_id]).await.ok()["id"]);
    let refused = desk.run(&["stage", "delete", &first_id, "--space", &space]).await;
    assert_ne!(refused.code, 0);
    // The rules of stages and spaces are their inputs' (`StageDeleteInput::check`, … as in the app and the
    // agent tools): a usage error naming the field, and nothing sent.
    let stages_before = ids(&desk.run(&["stage", "list", "--space", &space]).await.ok()["stages"]);
    let refused = desk.run(&["stage", "delete", &first_id, "--space", &space, "--target", &first_id]).await.fails(2);
    assert_eq!(refused["field"], "targetStageId", "{refused}");
    assert!(text(&refused["error"]).contains("Choose another stage"), "{refused}");
    let long = "x".repeat(61);
    let refused = desk.run(&["stage", "create", &long, "--space", &space]).await.fails(2);
    assert_eq!((refused["field"].as_str(), text(&refused["error"]).contains("at most 60")), (Some("name"), true), "{refused}");
    let refused = desk.run(&["stage", "update", &first_id, "--space", &space, "--name", "  "]).await.fails(2);
    assert_eq!((refused["field"].as_str(), text(&refused["error"]).as_str()), (Some("name"), "Give the stage a name."), "{refused}");
    assert_eq!(ids(&desk.run(&["stage", "list", "--space", &space]).await.ok()["stages"]), stages_before, "nothing was sent");
    let refused = desk.run(&["space", "create", "   "]).await.fails(2);
    assert_eq!((refused["field"].as_str(), text(&refused["error"]).as_str()), (Some("name"), "Give the space a name."), "{refused}");
    let deleted = desk.run(&["stage", "delete", &first_id, "--space", &space, "--target", &second_id]).await.ok();
    assert_eq!((deleted["id"].as_str(), deleted["moved_cards"].as_i64().or(deleted["movedCards"].as_i64())), (Some(first_id.as_str()), Some(1)), "{deleted}");
    assert!(!ids(&deleted["stages"]).contains(&first_id));
    assert!(!ids(&desk.run(&["stage", "list", "--space", &space]).await.ok()["stages"]).contains(&first_id));
    assert_eq!(desk.run(&["card", "get", &card]).await.ok()["stageId"], second_id.as_str());

    // A card is not moved before itself: the move's one rule (`CardMoveInput::check`, as in the app and
    // `move_card`), a usage error naming the field, and nothing sent.
    let before = desk.run(&["card", "get", &card]).await.ok();
    let refused = desk.run(&["card", "move", &card, "--stage", &second_id, "--before", &card]).await.fails(2);
    assert_eq!(refused["field"], "beforeCardId", "{refused}");
    assert!(text(&refused["error"]).contains("before itself"), "{refused}");
    assert_eq!(desk.run(&["card", "get", &card]).await.ok()["updatedAt"], before["updatedAt"], "nothing was sent");
    // The same rule for agents (`move_card`).
    let refused = desk.tool("move_card", json!({ "cardId": card, "stage": second_id, "beforeCardId": card })).await;
    assert!(refused["isError"] == true && refused.to_string().contains("before itself"), "{refused}");
    assert_eq!(desk.run(&["card", "get", &card]).await.ok()["updatedAt"], before["updatedAt"], "nothing was sent");
    let moved = desk.run(&["card", "move", &card, "--stage", &second_id]).await.ok();
    assert_eq!(moved["stageId"], second_id.as_str());

    let reader = sb.key_with(&[]);
    let e = desk.run_as(&reader, &["stage", "create", "Nope", "--space", &space]).await.fails(3);
    assert_eq!(e["scope"], "planner:write", "{e}");
}

#[tokio::test(flavor = "multi_thread")]
async fn tags_create_list_rename_and_remove_from_every_card() {
    let sb = TestSandbox::start().await;
    let desk = Desk::new(&sb);
    let tag = desk.run(&["tag", "create", "Slow Burn"]).await.ok();
    assert_eq!(tag["name"], "slow burn", "names are lowercased: {tag}");
    let id = text(&tag["id"]);
    assert_eq!(find(&desk.run(&["tag", "list"]).await.ok(), &id)["name"], "slow burn");
    desk.run(&["tag", "create", "slow burn"]).await.fails(5);

    let card = text(&desk.run(&["card", "create", "Tagged", "--platform", "instagram", "--tags", "slow burn"]).await.ok()["id"]);
    let renamed = desk.run(&["tag", "update", &id, "Timeless"]).await.ok();
    assert_eq!(renamed, json!({ "id": id, "name": "timeless" }));
    assert_eq!(find(&desk.run(&["tag", "list"]).await.ok(), &id)["name"], "timeless");
    let on_card = desk.run(&["card", "get", &card]).await.ok()["tags"].clone();
    assert!(on_card.to_string().contains("timeless"), "the card keeps the renamed tag: {on_card}");

    let e = desk.run_as(&sb.key_with(&["publish:write"]), &["tag", "remove", &id]).await.fails(3);
    assert_eq!(e["scope"], "planner:write");

    assert_eq!(desk.run(&["tag", "remove", &id]).await.ok(), json!({ "id": id }));
    assert!(!ids(&desk.run(&["tag", "list"]).await.ok()).contains(&id));
    let on_card = desk.run(&["card", "get", &card]).await.ok()["tags"].clone();
    assert!(!on_card.to_string().contains("timeless"), "removed from the card: {on_card}");
}

#[tokio::test(flavor = "multi_thread")]
async fn publish_posts_through_connected_accounts_and_needs_publish_write() {
    let sb = TestSandbox::start().await;
    let desk = Desk::new(&sb);
    let accounts = desk.run(&["connected-account", "list"]).await.ok();
    let connected = accounts
        .as_array()
        .unwrap()
        .iter()
        .find(|a| a["connectionStatus"] == "connected" && a["platform"] == "instagram")
        .unwrap_or_else(|| panic!("the demo connects an instagram account: {accounts}"))
        .clone();
    let account_id = text(&connected["id"]);
    let one = desk.run(&["connected-account", "get", &account_id]).await.ok();
    assert_eq!(one, connected, "get shows what list shows");
    desk.run(&["connected-account", "get", "no-such-account"]).await.fails(1);

    // Posts as the help writes them: `accountId` (the connected account's `id`) and `caption`.
    let posts = json!([{ "platform": "instagram", "accountId": account_id, "caption": "Out now" }, { "platform": "tiktok" }]).to_string();
    let card = text(&desk.run(&["card", "create", "Ship it", "--platform", "instagram", "--posts", &posts]).await.ok()["id"]);
    let made = desk.run(&["card", "get", &card]).await.ok();
    let insta = made["posts"].as_array().unwrap().iter().find(|p| p["platform"] == "instagram").unwrap().clone();
    assert_eq!(insta["connectedAccountId"], account_id.as_str(), "{made}");
    assert!(insta.to_string().contains("Out now"), "the caption is the post's: {insta}");
    // Both names of one field: refused, naming them.
    let both = json!([{ "platform": "instagram", "accountId": account_id, "connectedAccountId": account_id }]).to_string();
    let e = desk.run(&["card", "create", "Twice", "--platform", "instagram", "--posts", &both]).await.fails(2);
    assert!(e["error"].as_str().unwrap().contains("accountId or connectedAccountId"), "{e}");
    // A card whose every post fails to publish: exit 1, the results still on stdout.
    let lone = text(&desk.run(&["card", "create", "No account", "--platform", "tiktok", "--posts", r#"[{"platform":"tiktok"}]"#]).await.ok()["id"]);
    let r = desk.run(&["card", "publish", &lone]).await;
    let e = r.fails(1);
    assert!(e["error"].as_str().unwrap().contains("every post failed"), "{e}");
    let results: Value = serde_json::from_str(&r.stdout).unwrap();
    assert_eq!((results["publishedCount"].as_i64(), results["failedCount"].as_i64()), (Some(0), Some(1)), "{results}");

    // Without publish:write: exit 3 naming it, nothing published.
    let e = desk.run_as(&sb.key_with(&["planner:write"]), &["card", "publish", &card]).await.fails(3);
    assert_eq!(e["scope"], "publish:write", "{e}");
    let before = desk.run(&["card", "get", &card]).await.ok();
    assert!(before["posts"].as_array().unwrap().iter().all(|p| p["status"] != "published"), "{before}");

    // A platform the card has no post for: a 400 naming the field.
    let e = desk.run(&["card", "publish", &card, "--platform", "youtube"]).await.fails(2);
    assert_eq!(e["field"], "platform", "{e}");

    let r = desk.run(&["card", "publish", &card, "--platform", "instagram"]).await.ok();
    assert_eq!((r["cardId"].as_str(), r["publishedCount"].as_i64(), r["failedCount"].as_i64()), (Some(card.as_str()), Some(1), Some(0)), "{r}");
    let result = &r["results"][0];
    assert_eq!((result["success"].as_bool(), result["platform"].as_str()), (Some(true), Some("instagram")));
    let url = text(&result["url"]);
    let after = desk.run(&["card", "get", &card]).await.ok();
    let post = after["posts"].as_array().unwrap().iter().find(|p| p["platform"] == "instagram").unwrap();
    assert_eq!(post["status"], "published", "{after}");
    assert!(after.to_string().contains(&url), "the card records the post's URL: {after}");

    // Every post: the one without an account fails on its own and says why.
    let r = desk.run(&["card", "publish", &card]).await.ok();
    let tiktok = r["results"].as_array().unwrap().iter().find(|p| p["platform"] == "tiktok").unwrap().clone();
    assert_eq!(tiktok["success"], false);
    assert!(text(&tiktok["error"]).contains("connected account"), "{tiktok}");
}

/// A new card's rules (`CardCreateInput::check`, as in the app's `card_create`): a title with words and at
/// most 300 characters, and one of the service's platforms, in the shell and for agents alike; nothing is
/// made. The sandbox would refuse the title too: the error named here is the input's own, before any request.
#[tokio::test(flavor = "multi_thread")]
async fn a_new_cards_rules_hold_in_the_shell_and_for_agents() {
    let sb = TestSandbox::start().await;
    let desk = Desk::new(&sb);
    let before = ids(&desk.run(&["card", "list", "--all"]).await.ok());
    let long = "x".repeat(301);
    let e = desk.run(&["card", "create", &long, "--platform", "x"]).await.fails(2);
    assert_eq!(e["field"], "title", "{e}");
    assert!(text(&e["error"]).contains("at most 300 characters"), "{e}");
    let e = desk.run(&["card", "create", "   ", "--platform", "x"]).await.fails(2);
    assert_eq!(e["field"], "title", "{e}");
    assert!(text(&e["error"]).contains("Give the card a title"), "{e}");
    let refused = desk.tool("create_card", json!({ "title": long, "platform": "x" })).await;
    assert!(refused["isError"] == true && refused.to_string().contains("at most 300 characters"), "{refused}");
    let refused = desk.tool("create_card", json!({ "title": " ", "platform": "x" })).await;
    assert!(refused["isError"] == true && refused.to_string().contains("Give the card a title"), "{refused}");
    let refused = desk.tool("create_card", json!({ "title": "Elsewhere", "platform": "myspace" })).await;
    assert!(refused["isError"] == true && refused.to_string().contains("myspace"), "{refused}");
    assert_eq!(ids(&desk.run(&["card", "list", "--all"]).await.ok()), before, "nothing was made");
    // 300 characters are taken, as given (trimmed).
    let most = "y".repeat(300);
    let made = desk.run(&["card", "create", &format!(" {most} "), "--platform", "x"]).await.ok();
    assert_eq!(made["title"], most, "{made}");
}

#[tokio::test(flavor = "multi_thread")]
async fn archive_hides_a_card_and_off_restores_it_with_favorites_write() {
    let sb = TestSandbox::start().await;
    let desk = Desk::new(&sb);
    let card = text(&desk.run(&["card", "create", "Old news", "--platform", "x"]).await.ok()["id"]);
    let live = |v: Value| ids(&v);

    let e = desk.run_as(&sb.key_with(&["planner:write"]), &["archive", "card", &card]).await.fails(3);
    assert_eq!(e["scope"], "favorites:write", "{e}");
    assert!(live(desk.run(&["card", "list", "--all"]).await.ok()).contains(&card));

    assert_eq!(desk.run(&["archive", "card", &card]).await.ok(), json!({ "archived": true }));
    assert!(!live(desk.run(&["card", "list", "--all"]).await.ok()).contains(&card));
    assert!(live(desk.run(&["card", "list", "--archived", "--all"]).await.ok()).contains(&card));

    assert_eq!(desk.run(&["archive", "card", &card, "--off"]).await.ok(), json!({ "archived": false }));
    assert!(live(desk.run(&["card", "list", "--all"]).await.ok()).contains(&card));

    // A space archives the same way; an asset type outside the list is refused before any request.
    let space = text(&desk.run(&["space", "create", "Shelved"]).await.ok()["id"]);
    desk.run(&["archive", "space", &space]).await.ok();
    assert!(!ids(&desk.run(&["space", "list"]).await.ok()).contains(&space));
    assert!(ids(&desk.run(&["space", "list", "--archived"]).await.ok()).contains(&space));
    let r = desk.run(&["archive", "folder", &space]).await;
    assert_eq!(r.code, 2, "{}", r.stderr);
    for t in api_types::values::ARCHIVE_ASSET_TYPES {
        assert!(r.stderr.contains(t), "the usage error lists `{t}`: {}", r.stderr);
    }
    // The archive's rule (`ArchiveInput::check`, as in the app's `card_archive` and `space_archive`): a
    // kind the service archives and an id, in the shell and for agents; nothing archived.
    let e = desk.run(&["archive", "card", " "]).await.fails(2);
    assert_eq!(e["field"], "id", "{e}");
    let refused = desk.tool("archive", json!({ "assetType": "folder", "id": card })).await;
    assert!(refused["isError"] == true && refused.to_string().contains("unknown asset type"), "{refused}");
    let refused = desk.tool("archive", json!({ "assetType": "card", "id": "  " })).await;
    assert!(refused["isError"] == true && refused.to_string().contains("Name the record"), "{refused}");
    assert!(live(desk.run(&["card", "list", "--all"]).await.ok()).contains(&card));
    // Another account's card: not found, nothing archived.
    let (_, other) = sb.other_account(0.0);
    desk.run_as(&other, &["archive", "card", &card]).await.fails(1);
    assert!(live(desk.run(&["card", "list", "--all"]).await.ok()).contains(&card));
}

#[tokio::test(flavor = "multi_thread")]
async fn projects_create_and_import_linked_to_a_card_list_filter_get_and_archive() {
    let sb = TestSandbox::start().await;
    let desk = Desk::new(&sb);
    let card = text(&desk.run(&["card", "create", "Needs a cut", "--platform", "youtube"]).await.ok()["id"]);

    // --envelope: the reply whole (the official CLI prints the project alone; the link is beside it).
    let made = desk.run(&["project", "create", "--type", "canvas", "--title", "Slides", "--orientation", "square", "--card", &card, "--envelope"]).await.ok();
    let project = &made["project"];
    assert_eq!((project["type"].as_str(), project["title"].as_str(), project["orientation"].as_str()), (Some("canvas"), Some("Slides"), Some("square")), "{made}");
    assert_eq!(made["linkedCardId"], card.as_str(), "{made}");
    let id = text(&project["id"]);
    let plain = desk.run(&["project", "create", "--title", "Plain cut"]).await.ok();
    assert_eq!((plain["type"].as_str(), plain.get("project")), (Some("editor"), None), "editor by default, the project alone: {plain}");
    assert!(plain["linkedCardId"].is_null(), "no link: {plain}");

    let canvases = desk.run(&["project", "list", "--type", "canvas"]).await.ok();
    assert_eq!(find(&canvases, &id)["linkedCardId"], card.as_str());
    assert!(!ids(&canvases).contains(&text(&plain["id"])));
    assert_eq!(ids(&desk.run(&["project", "list", "--search", "plain"]).await.ok()), vec![text(&plain["id"])]);
    let got = desk.run(&["project", "get", &id]).await.ok();
    assert_eq!((got["id"].as_str(), got["title"].as_str(), got["isArchived"].as_bool()), (Some(id.as_str()), Some("Slides"), Some(false)));
    let linked = desk.run(&["card", "get", &card]).await.ok();
    assert!(linked["assets"].to_string().contains(&id), "the card carries the project: {linked}");

    let imported = desk.run(&["project", "import", "--pptx", "https://example.com/deck.pptx", "--title", "Deck", "--card", &card, "--envelope"]).await.ok();
    assert_eq!((imported["project"]["title"].as_str(), imported["linkedCardId"].as_str()), (Some("Deck"), Some(card.as_str())), "{imported}");
    let e = desk.run(&["project", "import", "--canva", "DAF123"]).await.fails(2);
    assert_eq!(e["status"], 400, "{e}");
    assert_eq!(desk.run(&["project", "import", "--title", "No source"]).await.code, 2, "a source is required");
    // The import's rules (`ProjectImportInput::check`, as in the app's `project_import`): in the shell and
    // for agents alike, a usage error naming the field, and nothing made.
    let before = ids(&desk.run(&["project", "list"]).await.ok());
    let e = desk.run(&["project", "import", "--pptx", "ftp://example.com/deck.pptx"]).await.fails(2);
    assert_eq!(e["field"], "pptxUrl", "{e}");
    let e = desk.run(&["project", "import", "--pptx", "https://example.com/deck.pptx", "--page-count", "501"]).await.fails(2);
    assert_eq!(e["field"], "pageCount", "{e}");
    let refused = desk.tool("import_project", json!({ "pptxUrl": "ftp://example.com/deck.pptx" })).await;
    assert!(refused["isError"] == true && refused.to_string().contains("http(s) address"), "{refused}");
    let refused = desk.tool("import_project", json!({ "pptxUrl": "https://example.com/deck.pptx", "pageCount": 0 })).await;
    assert!(refused["isError"] == true && refused.to_string().contains("1 to 500 pages"), "{refused}");
    let refused = desk.tool("import_project", json!({ "pptxUrl": "https://example.com/deck.pptx", "canvaDesignId": "DAF123" })).await;
    assert!(refused["isError"] == true && refused.to_string().contains("one source"), "{refused}");
    assert_eq!(ids(&desk.run(&["project", "list"]).await.ok()), before, "nothing was made");
    // A new project's rules (`ProjectCreateInput::check`, as in the app's `project_create`): a title has
    // words and at most 200 characters, in the shell and for agents alike, and nothing is made.
    let long = "x".repeat(201);
    let e = desk.run(&["project", "create", "--title", &long]).await.fails(2);
    assert_eq!(e["field"], "title", "{e}");
    assert!(text(&e["error"]).contains("too long"), "{e}");
    let e = desk.run(&["project", "create", "--title", "   "]).await.fails(2);
    assert_eq!(e["field"], "title", "{e}");
    let refused = desk.tool("create_project", json!({ "title": long })).await;
    assert!(refused["isError"] == true && refused.to_string().contains("too long"), "{refused}");
    let refused = desk.tool("create_project", json!({ "title": "Cut", "orientation": "diagonal" })).await;
    assert!(refused["isError"] == true && refused.to_string().contains("not an orientation"), "{refused}");
    assert_eq!(ids(&desk.run(&["project", "list"]).await.ok()), before, "nothing was made");

    // Writes need editor:write, and planner:write too with a card; reads editor:read.
    let e = desk.run_as(&sb.key_with(&["editor:read"]), &["project", "create", "--title", "Nope"]).await.fails(3);
    assert_eq!(e["scope"], "editor:write", "{e}");
    let e = desk.run_as(&sb.key_with(&["editor:read", "editor:write"]), &["project", "create", "--card", &card]).await.fails(3);
    assert_eq!(e["scope"], "planner:write", "{e}");
    let e = desk.run_as(&sb.key_with(&["planner:write"]), &["project", "list"]).await.fails(3);
    assert_eq!(e["scope"], "editor:read", "{e}");

    desk.run(&["archive", "project", &id]).await.ok();
    assert!(!ids(&desk.run(&["project", "list"]).await.ok()).contains(&id));
    assert_eq!(ids(&desk.run(&["project", "list", "--filter", "archived"]).await.ok()), vec![id.clone()]);
    assert_eq!(desk.run(&["project", "get", &id]).await.ok()["isArchived"], true);
}

#[tokio::test(flavor = "multi_thread")]
async fn tracked_accounts_and_content_are_read_with_their_filters_and_need_brandkit_read() {
    let sb = TestSandbox::start().await;
    let desk = Desk::new(&sb);
    let all = desk.run(&["tracked-account", "list"]).await.ok();
    assert!(all.as_array().unwrap().len() >= 2, "{all}");
    let brand = desk.run(&["tracked-account", "list", "--kind", "brand"]).await.ok();
    assert!(!brand.as_array().unwrap().is_empty() && brand.as_array().unwrap().len() < all.as_array().unwrap().len(), "{brand}");
    assert!(brand.as_array().unwrap().iter().all(|a| a["accountType"] == "brand"), "{brand}");
    let kit = first_brand_kit(&sb).await;
    assert_eq!(ids(&desk.run(&["tracked-account", "list", "--brand-kit", &kit]).await.ok()), ids(&all));
    assert_eq!(desk.run(&["tracked-account", "list", "--brand-kit", "no-such-kit"]).await.ok(), json!([]));

    let inspiration = all.as_array().unwrap().iter().find(|a| a["accountType"] == "inspiration").unwrap().clone();
    let account = text(&inspiration["id"]);
    let detail = desk.run(&["tracked-account", "get", &account]).await.ok();
    assert_eq!(detail["account"], inspiration, "get shows the account as list does");
    assert!(detail["contentCount"].as_i64().unwrap() >= 1 && detail["totals"]["views"].is_i64(), "{detail}");

    let page = desk.run(&["content", "list", "--limit", "1"]).await.ok();
    assert_eq!((page["outliers"].as_array().unwrap().len(), page["hasMore"].as_bool()), (1, Some(true)), "{page}");
    let next = desk.run(&["content", "list", "--limit", "1", "--offset", "1"]).await.ok();
    assert_ne!(page["outliers"][0]["id"], next["outliers"][0]["id"]);
    let by_views = desk.run(&["content", "list", "--sort", "views", "--order", "asc", "--limit", "100"]).await.ok();
    let views: Vec<i64> = by_views["outliers"].as_array().unwrap().iter().filter_map(|c| c["viewCount"].as_i64()).collect();
    assert!(views.len() >= 2 && views.windows(2).all(|w| w[0] <= w[1]), "ascending by views: {views:?}");
    let mine = desk.run(&["content", "list", "--account", &account, "--scope", "inspiration"]).await.ok();
    assert!(!mine["outliers"].as_array().unwrap().is_empty());
    assert!(mine["outliers"].as_array().unwrap().iter().all(|c| c["accountId"] == account.as_str()), "{mine}");
    let min_views = views[views.len() / 2];
    let popular = desk.run(&["content", "list", "--min-views", &min_views.to_string(), "--limit", "100"]).await.ok();
    assert!(popular["outliers"].as_array().unwrap().iter().all(|c| c["viewCount"].as_i64() >= Some(min_views)), "{popular}");
    assert!((popular["total"].as_i64().unwrap() as usize) < views.len(), "--min-views filtered some out");

    let content = text(&page["outliers"][0]["id"]);
    let one = desk.run(&["content", "get", &content]).await.ok();
    assert_eq!((one["id"].as_str(), one["title"].clone()), (Some(content.as_str()), page["outliers"][0]["title"].clone()));
    assert!(one["hashtags"].is_array(), "{one}");

    let e = desk.run(&["content", "list", "--limit", "0"]).await.fails(2);
    assert_eq!(e["field"], "limit", "{e}");
    let e = desk.run_as(&sb.key_with(&["planner:write"]), &["content", "list"]).await.fails(3);
    assert_eq!(e["scope"], "brandkit:read", "{e}");
    let e = desk.run_as(&sb.key_with(&["planner:write"]), &["tracked-account", "get", &account]).await.fails(3);
    assert_eq!(e["scope"], "brandkit:read", "{e}");
}

/// The demo account's first brand kit (read with the client: brand kits are not this file's commands).
async fn first_brand_kit(sb: &TestSandbox) -> String {
    let client = api_client::Client::builder(api_client::ApiKey::new(&sb.key)).base_url(sb.base_url()).build().expect("client");
    client.brand_kits().list().await.expect("brand kits").into_iter().next().expect("the demo has a kit").id
}

#[tokio::test(flavor = "multi_thread")]
async fn the_value_lists_offered_are_the_services_and_the_schema_says_them() {
    use api_types::values::*;
    use contentdesk_sandbox::routes::{inspiration, projects};
    // The sandbox refuses values outside its lists; the shell and the agents are offered the same ones.
    assert_eq!(PROJECT_TYPES, projects::TYPES);
    assert_eq!(PROJECT_ORIENTATIONS, projects::ORIENTATIONS);
    assert_eq!(PROJECT_FILTERS, projects::FILTERS);
    assert_eq!(TRACKED_ACCOUNT_TYPES, inspiration::ACCOUNT_TYPES);
    assert_eq!(CONTENT_SCOPES, inspiration::CONTENT_SCOPES);
    assert_eq!(INSPIRATION_CONTENT_TYPES, inspiration::CONTENT_TYPES);
    assert_eq!(CONTENT_SORT_FIELDS, inspiration::SORT_FIELDS);
    assert_eq!(SORT_ORDERS, inspiration::SORT_ORDERS);

    let sb = TestSandbox::start().await;
    let desk = Desk::new(&sb);
    let archive = desk.run(&["schema", "archive"]).await.ok();
    assert_eq!((archive["tool"].as_str(), archive["effect"].as_str(), archive["scope"].as_str()), (Some("archive"), Some("destroy"), Some("favorites:write")));
    assert_eq!(archive["input"]["properties"]["assetType"]["enum"], json!(ARCHIVE_ASSET_TYPES));
    let publish = desk.run(&["schema", "card", "publish"]).await.ok();
    assert_eq!((publish["tool"].as_str(), publish["idempotent"].as_bool(), publish["scope"].as_str()), (Some("publish_post"), Some(false), Some("publish:write")));
    let create = desk.run(&["schema", "project", "create"]).await.ok();
    assert_eq!(create["input"]["properties"]["type"]["enum"], json!(PROJECT_TYPES));
    let delete = desk.run(&["schema", "space", "delete"]).await.ok();
    assert_eq!((delete["tool"].as_str(), delete["effect"].as_str()), (Some("delete_space"), Some("destroy")));
}

/// `cdesk card check` against the real sandbox: a card whose X post is 281 characters blocks (exit 6,
/// the findings still on stdout as `{"findings": [...]}`), the same card at 280 passes (exit 0, no
/// findings), and a platform the rule table does not know gets no finding (never a false alarm).
#[tokio::test(flavor = "multi_thread")]
async fn card_check_prints_the_findings_and_exits_6_when_one_blocks() {
    let sb = TestSandbox::start().await;
    let desk = Desk::new(&sb);
    let post = |platform: &str, caption: &str| json!([{ "platform": platform, "platformSpecificData": { "caption": caption } }]).to_string();

    let long = "a".repeat(281);
    let card = text(&desk.run(&["card", "create", "Too long for X", "--platform", "x", "--posts", &post("x", &long)]).await.ok()["id"]);
    let run = desk.run(&["card", "check", &card]).await;
    assert_eq!(run.code, 6, "a blocking finding is exit 6: {} {}", run.stdout, run.stderr);
    assert_eq!(run.stderr, "", "the findings are the data, not an error");
    let report: Value = serde_json::from_str(&run.stdout).unwrap();
    assert_eq!(
        report,
        json!({ "findings": [{ "platform": "x", "field": "caption", "rule": "max_length", "limit": 280, "actual": 281, "severity": "blocks",
                               "source": "https://docs.x.com/fundamentals/counting-characters" }] })
    );
    let human = desk.run(&["card", "check", &card, "--human"]).await;
    assert_eq!(human.code, 6);
    assert!(human.stdout.contains("max_length") && human.stdout.contains("281") && human.stdout.contains("blocks"), "{}", human.stdout);

    let fits = "a".repeat(280);
    desk.run(&["card", "update", &card, "--posts", &post("x", &fits)]).await.ok();
    assert_eq!(desk.run(&["card", "check", &card]).await.ok(), json!({ "findings": [] }), "280 is within the limit: exit 0");

    let other = text(&desk.run(&["card", "create", "Elsewhere", "--platform", "general", "--posts", &post("general", &long)]).await.ok()["id"]);
    assert_eq!(desk.run(&["card", "check", &other]).await.ok(), json!({ "findings": [] }), "a platform without rules: no finding");
    let unknown_format = json!([{ "platform": "x", "format": "hologram", "platformSpecificData": { "caption": long } }]).to_string();
    let odd = text(&desk.run(&["card", "create", "Odd format", "--platform", "x", "--posts", &unknown_format]).await.ok()["id"]);
    assert_eq!(desk.run(&["card", "check", &odd]).await.ok(), json!({ "findings": [] }), "a format the table does not know: no finding");
    desk.run(&["card", "check", "no-such-card"]).await.fails(1);
}

/// The forms the help writes: a tag by its id or its name (create and list), a date without a time for
/// `--scheduled-at`.
#[tokio::test(flavor = "multi_thread")]
async fn a_tag_by_id_or_name_and_a_date_alone_work_as_the_help_says() {
    let sb = TestSandbox::start().await;
    let desk = Desk::new(&sb);
    let tag = desk.run(&["tag", "create", "teaser-week"]).await.ok();
    let tag_id = tag["id"].as_str().or_else(|| tag["tag"]["id"].as_str()).unwrap_or_else(|| panic!("{tag}")).to_string();
    let card = desk.run(&["card", "create", "Teaser", "--platform", "tiktok", "--tags", &tag_id, "--scheduled-at", "2027-02-01"]).await.ok();
    assert_eq!(card["tags"], json!(["teaser-week"]), "the id is written as the tag's name: {card}");
    assert!(card["scheduledAt"].as_str().unwrap().starts_with("2027-02-01T00:00:00"), "a date alone is 00:00 that day (TZ=UTC here): {card}");
    for by in [tag_id.as_str(), "teaser-week"] {
        let list = desk.run(&["card", "list", "--tag", by]).await.ok();
        let titles: Vec<&str> = list.as_array().unwrap().iter().filter_map(|c| c["title"].as_str()).collect();
        assert_eq!(titles, ["Teaser"], "--tag {by}");
    }
}
