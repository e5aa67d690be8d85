//! `cdesk card import` as a separate process against the real sandbox over HTTP, in a space of its own:
//! a CSV with one bad row (dry run creates nothing; the run creates the good rows and refuses the bad one
//! with its line and field, exit 6); a second run creates nothing new (the keys in the cards' notes); the
//! bad row fixed and re-run alone (`--line`); a JSON file; a file that is neither CSV nor JSON refused
//! before anything is created.
mod desk;

use contentdesk_sandbox::testing::TestSandbox;
use desk::Desk;
use serde_json::Value;

fn text(v: &Value) -> String {
    v.as_str().unwrap_or_else(|| panic!("a string: {v}")).to_string()
}

fn lines(v: &Value, list: &str) -> Vec<u64> {
    v[list].as_array().unwrap_or_else(|| panic!("{list} in {v}")).iter().map(|r| r["line"].as_u64().unwrap()).collect()
}

async fn titles(desk: &Desk, space: &str) -> Vec<String> {
    let list = desk.run(&["card", "list", "--space", space, "--all"]).await.ok();
    let mut t: Vec<String> = list.as_array().unwrap_or_else(|| list["cards"].as_array().unwrap()).iter().map(|c| text(&c["title"])).collect();
    t.sort();
    t
}

#[tokio::test(flavor = "multi_thread")]
async fn import_twice_adds_nothing_and_a_bad_row_is_named_by_line_and_field() {
    let sb = TestSandbox::start().await;
    let desk = Desk::new(&sb);
    let space = text(&desk.run(&["space", "create", "Import plan"]).await.ok()["id"]);
    let stages = desk.run(&["stage", "list", "--space", &space]).await.ok();
    let second_stage = text(&stages["stages"][1]["name"]);

    let csv = desk.dir.join("plan.csv");
    let good = format!(
        "title,stage,platforms,scheduledAt,caption,notes\r\n\
         Launch,{second_stage},instagram;x,2026-12-01T09:00:00+01:00,\"Hello, world\nsecond line\",Brief here\r\n\
         Teaser,,tiktok,,Short one,\r\n"
    );
    std::fs::write(&csv, format!("{good}Bad one,,x;myspace,,oops,\r\nRecap,,linkedin,2026-12-03,,\r\n")).unwrap();
    let path = csv.to_str().unwrap();

    // Dry run: what it would create and refuse; nothing made.
    let dry = desk.run(&["card", "import", path, "--space", &space, "--dry-run"]).await;
    assert_eq!(dry.code, 6, "{}", dry.stderr);
    let dry: Value = serde_json::from_str(&dry.stdout).unwrap();
    // Launch spans lines 2-3 (a quoted newline): Teaser starts on 4, the bad row on 5.
    assert_eq!(lines(&dry, "wouldCreate"), [2, 4, 6]);
    assert_eq!((lines(&dry, "refused"), text(&dry["refused"][0]["field"])), (vec![5], "platforms".to_string()));
    assert!(text(&dry["refused"][0]["message"]).contains("myspace"), "{dry}");
    assert!(titles(&desk, &space).await.is_empty(), "a dry run creates nothing");

    // The run: three cards, the bad row refused, exit 6.
    let run = desk.run(&["card", "import", path, "--space", &space]).await;
    assert_eq!(run.code, 6, "{}", run.stderr);
    let first: Value = serde_json::from_str(&run.stdout).unwrap();
    assert_eq!((lines(&first, "created"), lines(&first, "refused")), (vec![2, 4, 6], vec![5]));
    assert_eq!(titles(&desk, &space).await, ["Launch", "Recap", "Teaser"]);
    let launch = desk.run(&["card", "get", &text(&first["created"][0]["cardId"])]).await.ok();
    assert_eq!(text(&launch["stageId"]), text(&stages["stages"][1]["id"]));
    assert_eq!(text(&launch["scheduledAt"]).get(..19), Some("2026-12-01T08:00:00"));
    let key = text(&first["created"][0]["key"]);
    assert_eq!(text(&launch["notes"]), format!("Brief here\n\ncdesk-import-key: {key}"));
    let posts: Vec<(String, String)> = launch["posts"].as_array().unwrap().iter().map(|p| (text(&p["platform"]), text(&p["platformSettings"]["caption"]))).collect();
    assert_eq!(posts, [("instagram".into(), "Hello, world\nsecond line".into()), ("x".into(), "Hello, world\nsecond line".into())]);

    // Again: nothing new, each row found by its key.
    let again = desk.run(&["card", "import", path, "--space", &space]).await;
    assert_eq!(again.code, 6);
    let again: Value = serde_json::from_str(&again.stdout).unwrap();
    assert_eq!((lines(&again, "created"), lines(&again, "existing")), (vec![], vec![2, 4, 6]));
    assert_eq!(titles(&desk, &space).await.len(), 3);

    // The bad row fixed and re-run alone; then the whole file adds nothing.
    std::fs::write(&csv, format!("{good}Bad one,,x;threads,,oops,\r\nRecap,,linkedin,2026-12-03,,\r\n")).unwrap();
    let alone = desk.run(&["card", "import", path, "--space", &space, "--line", "5"]).await.ok();
    assert_eq!((lines(&alone, "created"), lines(&alone, "existing")), (vec![5], vec![]));
    let whole = desk.run(&["card", "import", path, "--space", &space]).await.ok();
    assert_eq!((lines(&whole, "created"), lines(&whole, "existing")), (vec![], vec![2, 4, 5, 6]));
    assert_eq!(titles(&desk, &space).await, ["Bad one", "Launch", "Recap", "Teaser"]);

    // JSON, with the line each row starts on.
    let json_file = desk.dir.join("plan.json");
    std::fs::write(&json_file, "[\n  {\"title\": \"From JSON\", \"platforms\": [\"youtube\"]},\n  {\"title\": \"\",\n   \"platforms\": \"x\"}\n]\n").unwrap();
    let j = desk.run(&["card", "import", json_file.to_str().unwrap(), "--space", &space]).await;
    assert_eq!(j.code, 6);
    let j: Value = serde_json::from_str(&j.stdout).unwrap();
    assert_eq!((lines(&j, "created"), lines(&j, "refused"), text(&j["refused"][0]["field"])), (vec![2], vec![3], "title".to_string()));

    // Neither CSV nor JSON: refused (usage, 2) before anything is created.
    let png = desk.dir.join("photo.png");
    std::fs::write(&png, b"\x89PNG\r\n\x1a\n\0\0\0\rIHDR").unwrap();
    let refused = desk.run(&["card", "import", png.to_str().unwrap(), "--space", &space]).await.fails(2);
    assert!(text(&refused["error"]).contains("neither CSV nor JSON"), "{refused}");
    let words = desk.dir.join("notes.txt");
    std::fs::write(&words, "call the printer\nbuy stamps\n").unwrap();
    desk.run(&["card", "import", words.to_str().unwrap(), "--space", &space]).await.fails(2);
    assert_eq!(titles(&desk, &space).await.len(), 5, "nothing created by a refused file");
}
