//! `cdesk card duplicate`, `card repeat` and `card queue` as a separate process against the real sandbox
//! over HTTP (issue 28 points 4-5). The queue's slots are the app's: `queue-slots.json` in the app's data
//! folder (`CONTENTDESK_DATA_DIR`), under the id of the profile `--profile` names in its `settings.json`.
mod desk;

use contentdesk_sandbox::testing::TestSandbox;
use desk::Desk;
use serde_json::{json, Value};

fn text(v: &Value) -> String {
    v.as_str().unwrap_or_else(|| panic!("a string: {v}")).to_string()
}

#[tokio::test(flavor = "multi_thread")]
async fn duplicate_and_repeat_from_the_shell() {
    let sb = TestSandbox::start().await;
    let desk = Desk::new(&sb);
    let posts = json!([{ "platform": "instagram", "platformSpecificData": { "caption": "Hello" } }]).to_string();
    let made = desk.run(&["card", "create", "Shell card", "--platform", "instagram", "--scheduled-at", "2027-05-03T10:00:00Z", "--posts", &posts]).await.ok();
    let id = text(&made["id"]);

    let copy = desk.run(&["card", "duplicate", &id]).await.ok();
    assert_eq!(copy["title"], "Shell card (copy)");
    assert_eq!(copy["scheduledAt"], Value::Null);
    let read = desk.run(&["card", "get", &text(&copy["id"])]).await.ok();
    assert_eq!(read["posts"][0]["platformSettings"]["caption"], "Hello");

    let made = desk.run(&["card", "repeat", &id, "--every", "1w", "--count", "4"]).await.ok();
    assert_eq!(made["count"], 4, "{made}");
    let times: Vec<String> = made["cards"].as_array().unwrap().iter().map(|c| text(&c["scheduledAt"])[..10].to_string()).collect();
    assert_eq!(times, ["2027-05-10", "2027-05-17", "2027-05-24", "2027-05-31"]);

    // The rules, in the shell's words: a step that is not days or weeks, and count with until.
    let e = desk.run(&["card", "repeat", &id, "--every", "2h", "--count", "2"]).await.fails(2);
    assert!(e.to_string().contains("not a step"), "{e}");
    // The shell's own parser refuses count with until, and neither (exit 2, its usage text).
    for args in [vec!["--count", "2", "--until", "2027-06-01"], vec![]] {
        let mut all = vec!["card", "repeat", id.as_str(), "--every", "1w"];
        all.extend(args);
        let run = desk.run(&all).await;
        assert_eq!(run.code, 2, "{all:?}: {}", run.stderr);
        assert!(run.stderr.contains("--until") || run.stderr.contains("--count"), "{}", run.stderr);
    }
}

#[tokio::test(flavor = "multi_thread")]
async fn queue_uses_the_app_profiles_slots_and_says_so_without_them() {
    let sb = TestSandbox::start().await;
    let desk = Desk::new(&sb);
    let accounts = desk.run(&["connected-account", "list"]).await.ok();
    let account = accounts.as_array().and_then(|a| a.first()).cloned().unwrap_or_else(|| panic!("an account: {accounts}"));
    let (acc, platform) = (text(&account["id"]), text(&account["platform"]));
    let posts = json!([{ "platform": platform, "connectedAccountId": acc }]).to_string();
    let card = desk.run(&["card", "create", "Queue me", "--platform", &platform, "--posts", &posts]).await.ok();
    let id = text(&card["id"]);

    // No profile: a usage error that says where slots live.
    let e = desk.run(&["card", "queue", &id]).await.fails(2);
    assert!(e.to_string().contains("profile"), "{e}");

    // The app's profile and its slots, as the app writes them.
    let dir = desk.data_dir();
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(
        dir.join("settings.json"),
        json!({ "profiles": [{ "id": "p-work", "name": "Work", "baseUrl": sb.base_url(), "kind": "remote" }], "selectedProfileId": "p-work" }).to_string(),
    )
    .unwrap();
    let slots: Vec<Value> = (1..=7).map(|d| json!({ "accountId": acc, "weekday": d, "time": "11:15" })).collect();
    std::fs::write(dir.join("queue-slots.json"), json!({ "p-work": { "slots": slots, "clashMinutes": 30 } }).to_string()).unwrap();

    let q = desk.run(&["--profile", "Work", "card", "queue", &id]).await.ok();
    let at = text(&q["placed"][0]["scheduledAt"]);
    assert!(at.ends_with("T11:15:00Z"), "{q}");
    let read = desk.run(&["card", "get", &id]).await.ok();
    assert_eq!(text(&read["scheduledAt"]).replace(".000", ""), at);
}
