//! Brand kits and their knowledge as a separate process against the real sandbox: the read modes, one
//! section at a time (get, set from a file or stdin, a stale --expected-version is exit 5 with the
//! conflicting sections and nothing written, add, archive, restore, revert), and knowledge (add --text, search
//! finds it, list, get, remove). JSON checked field by field.
mod desk;
use contentdesk_sandbox::testing::TestSandbox;
use desk::*;
use serde_json::Value;

/// The default kit's id.
async fn kit(desk: &Desk) -> String {
    let list = desk.run(&["brand-kit", "list"]).await.ok();
    let kits = list.as_array().unwrap_or_else(|| panic!("{list}"));
    assert_eq!(kits[0]["isDefault"], true, "the default first: {list}");
    kits[0]["id"].as_str().unwrap().to_string()
}

fn keys(sections: &Value) -> Vec<String> {
    sections.as_array().unwrap().iter().map(|s| s["key"].as_str().unwrap().to_string()).collect()
}

#[tokio::test(flavor = "multi_thread")]
async fn list_and_the_read_modes() {
    let sb = TestSandbox::start().await;
    let desk = Desk::new(&sb);
    let id = kit(&desk).await;
    let all = desk.run(&["brand-kit", "list"]).await.ok().as_array().unwrap().len();
    let favourites = desk.run(&["brand-kit", "list", "--favorite"]).await.ok();
    assert!(favourites.as_array().unwrap().iter().all(|k| k["isFavorited"] == true));
    assert!(desk.run(&["brand-kit", "list", "--archived"]).await.ok().as_array().unwrap().is_empty());
    assert!(all >= 2);

    let summary = desk.run(&["brand-kit", "get", &id, "--detail", "summary"]).await.ok();
    assert_eq!(summary["id"], id.as_str());
    let ks = keys(&summary["sections"]);
    for (key, _, _) in api_types::STARTER_SECTIONS {
        assert!(ks.iter().any(|k| k == key), "{key} in {ks:?}");
    }
    assert!(summary["sections"][0].get("body").is_none() && summary["sections"][0]["version"].is_number(), "no bodies: {summary}");

    let two = desk.run(&["brand-kit", "get", &id, "--keys", "about,offer"]).await.ok();
    assert_eq!(keys(&two["sections"]), ["about", "offer"]);
    assert!(two["sections"][0]["body"].is_string());
    let voice = desk.run(&["brand-kit", "get", &id, "--tabs", "voice"]).await.ok();
    assert!(voice["sections"].as_array().unwrap().iter().all(|s| s["tab"] == "voice") && keys(&voice["sections"]).len() == 3, "{voice}");
    let role = desk.run(&["brand-kit", "get", &id, "--roles", "audience", "--history"]).await.ok();
    assert_eq!(keys(&role["sections"]), ["audience"]);
    assert!(role["sections"][0]["revisions"].is_array(), "{role}");
    let full = desk.run(&["brand-kit", "get", &id]).await.ok();
    assert!(full["sections"].as_array().unwrap().len() >= 8 && full["name"].is_string());

    // Values outside the lists: the shell refuses tabs and roles itself; the service names the details.
    assert_eq!(desk.run(&["brand-kit", "get", &id, "--tabs", "sound"]).await.code, 2);
    let bad = desk.run(&["brand-kit", "get", &id, "--detail", "brief"]).await.fails(2);
    assert_eq!(bad["validValues"], serde_json::json!(["summary", "full"]), "{bad}");
}

#[tokio::test(flavor = "multi_thread")]
async fn a_section_set_on_a_stale_version_is_exit_5_and_writes_nothing() {
    let sb = TestSandbox::start().await;
    let desk = Desk::new(&sb);
    let id = kit(&desk).await;
    let about = desk.run(&["brand-kit", "section", "get", &id, "about"]).await.ok();
    assert_eq!(about["key"], "about");
    let v = about["version"].as_i64().unwrap();

    // From a file.
    let file = desk.path("about.md");
    std::fs::write(&file, "# About\n\nWe make mugs by hand.\n").unwrap();
    let set = desk.run(&["brand-kit", "section", "set", &id, "about", "--file", file.to_str().unwrap(), "--expected-version", &v.to_string()]).await.ok();
    assert_eq!((set["key"].as_str(), set["version"].as_i64(), set["body"].as_str()), (Some("about"), Some(v + 1), Some("# About\n\nWe make mugs by hand.\n")), "{set}");

    // Stale: the version read before that write. Exit 5, the conflict in the error, nothing written.
    let stale = desk.run_stdin(&["brand-kit", "section", "set", &id, "about", "--expected-version", &v.to_string()], "mine").await.fails(5);
    assert_eq!(stale["status"], 409);
    let conflicts = stale["conflicts"].as_array().unwrap_or_else(|| panic!("{stale}"));
    assert_eq!(conflicts.len(), 1);
    assert_eq!((conflicts[0]["key"].as_str(), conflicts[0]["version"].as_i64()), (Some("about"), Some(v + 1)));
    assert_eq!(conflicts[0]["body"], "# About\n\nWe make mugs by hand.\n");
    let now = desk.run(&["brand-kit", "section", "get", &id, "about"]).await.ok();
    assert_eq!((now["version"].as_i64(), now["body"].as_str()), (Some(v + 1), Some("# About\n\nWe make mugs by hand.\n")), "nothing written");

    // From stdin, with the current version.
    let piped = desk.run_stdin(&["brand-kit", "section", "set", &id, "about", "--expected-version", &(v + 1).to_string()], "Piped in.").await.ok();
    assert_eq!((piped["version"].as_i64(), piped["body"].as_str()), (Some(v + 2), Some("Piped in.")));
    // No body at all: refused before anything is sent.
    let none = desk.run(&["brand-kit", "section", "set", &id, "about", "--expected-version", &(v + 2).to_string()]).await.fails(2);
    assert_eq!(none["field"], "body", "{none}");
    assert_eq!(desk.run(&["brand-kit", "section", "get", &id, "about"]).await.ok()["version"].as_i64(), Some(v + 2));
    // A key the kit does not have.
    let missing = desk.run(&["brand-kit", "section", "get", &id, "no_such_key"]).await.fails(2);
    assert_eq!(missing["field"], "key");
    assert!(missing["error"].as_str().unwrap().contains("about, audience"), "names the kit's keys: {missing}");
}

#[tokio::test(flavor = "multi_thread")]
async fn a_section_added_archived_and_reverted() {
    let sb = TestSandbox::start().await;
    let desk = Desk::new(&sb);
    let id = kit(&desk).await;
    let body = desk.path("pricing.md");
    std::fs::write(&body, "Mugs from 24 EUR.").unwrap();
    let added = desk.run(&["brand-kit", "section", "add", &id, "--name", "Pricing", "--tab", "overview", "--width", "half", "--file", body.to_str().unwrap()]).await.ok();
    let key = added["key"].as_str().unwrap_or_else(|| panic!("{added}")).to_string();
    assert_eq!((added["sectionName"].as_str(), added["tab"].as_str(), added["width"].as_str(), added["body"].as_str()), (Some("Pricing"), Some("overview"), Some("half"), Some("Mugs from 24 EUR.")));
    assert_eq!(added["version"], 1);
    assert!(!api_types::roles().contains(&key.as_str()), "a new key, not a starter's");

    // Two more versions, then back to the first: it lands as version 4 with the first body.
    let two = desk.run(&["brand-kit", "section", "set", &id, &key, "--body", "Mugs from 26 EUR.", "--expected-version", "1"]).await.ok();
    assert_eq!(two["version"], 2);
    desk.run(&["brand-kit", "section", "set", &id, &key, "--body", "Mugs from 28 EUR.", "--expected-version", "2"]).await.ok();
    let reverted = desk.run(&["brand-kit", "section", "revert", &id, &key, "--to", "1"]).await.ok();
    assert_eq!((reverted["version"].as_i64(), reverted["body"].as_str()), (Some(4), Some("Mugs from 24 EUR.")), "{reverted}");
    let history = desk.run(&["brand-kit", "section", "get", &id, &key, "--history"]).await.ok();
    assert_eq!(history["revisions"].as_array().map(Vec::len), Some(3), "{history}");
    // A stale --expected-version on a revert is a conflict too.
    desk.run(&["brand-kit", "section", "revert", &id, &key, "--to", "2", "--expected-version", "1"]).await.fails(5);

    let archived = desk.run(&["brand-kit", "section", "archive", &id, &key]).await.ok();
    assert_eq!((archived["archived"].as_bool(), archived["key"].as_str(), archived["sectionId"].as_str()), (Some(true), Some(key.as_str()), added["id"].as_str()));
    let summary = desk.run(&["brand-kit", "get", &id, "--detail", "summary"]).await.ok();
    assert!(!keys(&summary["sections"]).contains(&key), "archived: gone from the kit");
    // Restored by its key alone (`brand-kit section restore`, the catalogue's SectionArchiveInput as the
    // app's brand_kit_section_restore): back with its versions and body.
    let restored = desk.run(&["brand-kit", "section", "restore", &id, &key]).await.ok();
    assert_eq!((restored["archived"].as_bool(), restored["key"].as_str(), restored["sectionId"].as_str()), (Some(false), Some(key.as_str()), added["id"].as_str()), "{restored}");
    let back = desk.run(&["brand-kit", "section", "get", &id, &key]).await.ok();
    assert_eq!((back["version"].as_i64(), back["body"].as_str()), (Some(4), Some("Mugs from 24 EUR.")), "{back}");
    // Not archived any more: restoring it again names the key; a blank key or kit is refused before anything is sent.
    let again = desk.run(&["brand-kit", "section", "restore", &id, &key]).await.fails(2);
    assert_eq!(again["field"], "key", "{again}");
    for args in [["brand-kit", "section", "restore", id.as_str(), " "], ["brand-kit", "section", "archive", id.as_str(), " "]] {
        let e = desk.run(&args).await.fails(2);
        assert_eq!((e["field"].as_str(), e["error"].as_str()), (Some("key"), Some("Give the section's key.")), "{e}");
    }
    let e = desk.run(&["brand-kit", "section", "archive", " ", &key]).await.fails(2);
    assert_eq!(e["field"], "brandKitId", "{e}");
    // By its id when given (a service that does not list archived sections needs it).
    desk.run(&["brand-kit", "section", "archive", &id, &key, "--section-id", added["id"].as_str().unwrap()]).await.ok();
    let by_id = desk.run(&["brand-kit", "section", "restore", &id, &key, "--section-id", added["id"].as_str().unwrap()]).await.ok();
    assert_eq!(by_id["archived"], false, "{by_id}");
    // Tabs and widths come from the value lists.
    assert_eq!(desk.run(&["brand-kit", "section", "add", &id, "--name", "X", "--tab", "sound"]).await.code, 2);
    assert_eq!(desk.run(&["brand-kit", "section", "add", &id, "--name", "X", "--tab", "voice", "--width", "third"]).await.code, 2);
    // An add's body is --body or --file, never stdin (a set reads stdin).
    let piped = desk.run_stdin(&["brand-kit", "section", "add", &id, "--name", "Returns", "--tab", "overview"], "Not the body.").await.ok();
    assert_eq!(piped["body"], "", "{piped}");
}

/// A new section's rules are the catalogue's (`SectionAddInput::check`, as in the app's
/// `brand_kit_section_add`): a name with words and at most 120 characters, a known tab and width, and no
/// role (the input has no such field); refused in the shell (exit 2) and for agents, naming the field,
/// and nothing is added.
#[tokio::test(flavor = "multi_thread")]
async fn a_new_sections_rules_hold_in_the_shell_and_for_agents() {
    let sb = TestSandbox::start().await;
    let desk = Desk::new(&sb);
    let id = kit(&desk).await;
    let before = keys(&desk.run(&["brand-kit", "get", &id, "--detail", "summary"]).await.ok()["sections"]);
    let long = "é".repeat(121);
    let add = |name: &str| vec!["brand-kit", "section", "add", &id, "--name", name, "--tab", "voice"].into_iter().map(str::to_string).collect::<Vec<_>>();
    for (name, says) in [("  ", "Give the section's name."), (long.as_str(), "at most 120 characters")] {
        let args = add(name);
        let e = desk.run(&args.iter().map(String::as_str).collect::<Vec<_>>()).await.fails(2);
        assert_eq!(e["field"], "sectionName", "{e}");
        assert!(e["error"].as_str().unwrap().contains(says), "{e}");
    }
    let mut with_role = add("Hooks");
    with_role.extend(["--role".to_string(), "about".to_string()]);
    let e = desk.run(&with_role.iter().map(String::as_str).collect::<Vec<_>>()).await;
    assert_eq!(e.code, 2, "no --role: {}", e.stderr);

    let agent = |extra: Value| {
        let mut args = serde_json::json!({ "brandKitId": id, "sectionName": "Hooks", "tab": "voice" });
        args.as_object_mut().unwrap().extend(extra.as_object().unwrap().clone());
        args
    };
    let refusals = [
        (serde_json::json!({ "sectionName": " " }), "Give the section's name."),
        (serde_json::json!({ "sectionName": long }), "at most 120 characters"),
        (serde_json::json!({ "tab": "sidebar" }), "“sidebar” is not a tab: use one of overview, voice, visual."),
        (serde_json::json!({ "tab": " " }), "Give the tab the section goes in."),
        (serde_json::json!({ "width": "third" }), "“third” is not a width: use one of full, half."),
        (serde_json::json!({ "role": "about" }), "unknown field `role`"),
        (serde_json::json!({ "name": "Hooks" }), "unknown field `name`"),
    ];
    for (extra, says) in refusals {
        let refused = desk.tool("add_brand_kit_section", agent(extra.clone())).await;
        assert!(refused["isError"] == true && refused.to_string().contains(says), "{extra}: {refused}");
    }
    let after = keys(&desk.run(&["brand-kit", "get", &id, "--detail", "summary"]).await.ok()["sections"]);
    assert_eq!(after, before, "nothing was added");

    // Within the rules an agent's section is added, its name trimmed, as the shell's is.
    let added = desk.tool("add_brand_kit_section", agent(serde_json::json!({ "sectionName": "  Hooks  ", "width": "half", "body": "## Hooks" }))).await;
    assert!(added["isError"] != true, "{added}");
    let section = &added["structuredContent"];
    assert_eq!((section["sectionName"].as_str(), section["tab"].as_str(), section["width"].as_str(), section["body"].as_str()), (Some("Hooks"), Some("voice"), Some("half"), Some("## Hooks")), "{added}");
}

#[tokio::test(flavor = "multi_thread")]
async fn knowledge_added_as_text_is_found_by_search_and_removed() {
    let sb = TestSandbox::start().await;
    let desk = Desk::new(&sb);
    let id = kit(&desk).await;
    let text = "Every mug is glazed by hand in our Porto studio, then fired twice in a wood kiln.";
    let added = desk.run(&["knowledge", "add", &id, "--text", text, "--title", "How we make mugs"]).await.ok();
    let item = &added["item"];
    let kid = item["id"].as_str().unwrap_or_else(|| panic!("{added}")).to_string();
    assert_eq!((item["sourceType"].as_str(), item["title"].as_str()), (Some("text"), Some("How we make mugs")));

    let found = desk.run(&["knowledge", "search", &id, "glazed by hand in a wood kiln"]).await.ok();
    let matches = found["matches"].as_array().unwrap_or_else(|| panic!("{found}"));
    let hit = matches.iter().find(|m| m["knowledgeId"] == kid.as_str()).unwrap_or_else(|| panic!("the new item is found: {found}"));
    assert!(hit["content"].as_str().unwrap().contains("glazed by hand"), "{hit}");
    assert!(hit["similarity"].as_f64().unwrap() > 0.0);

    // The search's rules are the catalogue's (`KnowledgeSearchInput::check`, as in the app and the agent
    // tool): refused as usage before anything is sent.
    let refused = desk.run(&["knowledge", "search", &id, "mugs", "--limit", "0"]).await.fails(2);
    assert_eq!((refused["field"].as_str(), refused["error"].as_str()), (Some("limit"), Some("Ask for 1 to 50 matches.")), "{refused}");
    let refused = desk.run(&["knowledge", "search", &id, " "]).await.fails(2);
    assert_eq!(refused["field"], "query", "{refused}");

    let list = desk.run(&["knowledge", "list", &id]).await.ok();
    assert!(list["items"].as_array().unwrap().iter().any(|i| i["id"] == kid.as_str()), "{list}");
    let one = desk.run(&["knowledge", "get", &id, &kid]).await.ok();
    assert!(one["item"]["content"].as_str().is_some_and(|c| c.contains("Porto")), "{one}");

    // A file from this computer goes inline, named by its file.
    let notes = desk.path("care.md");
    std::fs::write(&notes, "Dishwasher safe; not for the microwave.").unwrap();
    let f = desk.run(&["knowledge", "add", &id, "--file", notes.to_str().unwrap()]).await.ok();
    assert_eq!((f["item"]["sourceType"].as_str(), f["item"]["title"].as_str()), (Some("file"), Some("care.md")), "{f}");

    let removed = desk.run(&["knowledge", "remove", &id, &kid]).await.ok();
    assert_eq!(removed["id"], kid.as_str());
    let after = desk.run(&["knowledge", "search", &id, "glazed by hand in a wood kiln"]).await.ok();
    assert!(after["matches"].as_array().unwrap().iter().all(|m| m["knowledgeId"] != kid.as_str()), "{after}");
    assert!(desk.run(&["knowledge", "list", &id]).await.ok()["items"].as_array().unwrap().iter().all(|i| i["id"] != kid.as_str()));

    // Exactly one source.
    assert_eq!(desk.run(&["knowledge", "add", &id, "--text", "a", "--url", "https://example.com"]).await.fails(2)["field"], "source");
    assert_eq!(desk.run(&["knowledge", "add", &id]).await.code, 2);
    // An add's rules (`KnowledgeAddInput::request`, as in the app's `knowledge_add`): a file sent inline is
    // neither video nor audio, not empty and at most 4 MB; an address is http(s). In the shell and for
    // agents alike, a usage error naming the field, and nothing added.
    let before = desk.run(&["knowledge", "list", &id]).await.ok()["items"].as_array().unwrap().len();
    let clip = desk.path("talk.mp4");
    std::fs::write(&clip, b"\0\0\0\x18ftypmp42").unwrap();
    let e = desk.run(&["knowledge", "add", &id, "--file", clip.to_str().unwrap()]).await.fails(2);
    assert_eq!(e["field"], "file", "{e}");
    assert!(e["error"].as_str().unwrap_or_default().contains("fileUrl"), "points at a hosted file: {e}");
    let empty = desk.path("empty.md");
    std::fs::write(&empty, b"").unwrap();
    assert!(desk.run(&["knowledge", "add", &id, "--file", empty.to_str().unwrap()]).await.fails(2)["error"].as_str().unwrap_or_default().contains("empty"));
    let big = desk.path("catalogue.pdf");
    std::fs::write(&big, vec![b'%'; 4 * 1024 * 1024 + 1]).unwrap();
    let e = desk.run(&["knowledge", "add", &id, "--file", big.to_str().unwrap()]).await.fails(2);
    assert!(e["error"].as_str().unwrap_or_default().contains("at most 4 MB"), "{e}");
    assert_eq!(desk.run(&["knowledge", "add", &id, "--url", "example.com/about"]).await.fails(2)["field"], "url");
    let refused = desk.tool("add_brand_knowledge", serde_json::json!({ "brandKitId": id, "fileUrl": "ftp://example.com/talk.mp4" })).await;
    assert!(refused["isError"] == true && refused.to_string().contains("not a web address"), "{refused}");
    let refused = desk.tool("add_brand_knowledge", serde_json::json!({ "brandKitId": id, "text": "a", "youtube": "https://youtu.be/x" })).await;
    assert!(refused["isError"] == true && refused.to_string().contains("one thing at a time"), "{refused}");
    assert_eq!(desk.run(&["knowledge", "list", &id]).await.ok()["items"].as_array().unwrap().len(), before, "nothing was added");
    // A reader cannot add.
    let reader = sb.key_with(&["brandkit:read"]);
    assert_eq!(desk.run_as(&reader, &["knowledge", "add", &id, "--text", "x"]).await.fails(3)["scope"], "brandkit:write");
}
