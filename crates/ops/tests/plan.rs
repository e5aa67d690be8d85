//! Duplicate and repeat (issue 28 point 5) through the catalogue, as `cdesk` and `cdesk mcp` run them,
//! against the real sandbox over HTTP: the copies are ordinary cards on the service, read back.
use api_client::{ApiKey, Client};
use contentdesk_ops::{by_tool, Cx, OpError};
use contentdesk_sandbox::testing::TestSandbox;
use serde_json::{json, Value};

async fn call(cx: &Cx, tool: &str, args: Value) -> Result<Value, OpError> {
    by_tool(tool).unwrap_or_else(|| panic!("no tool {tool}")).run_json(cx.clone(), args)?.await
}

/// A card with two posts (each a caption, one its own time), a link asset, notes and a time.
async fn rich_card(cx: &Cx, title: &str) -> Value {
    let card = call(
        cx,
        "create_card",
        json!({
            "title": title, "platform": "instagram", "notes": "Shoot in daylight",
            "scheduledAt": "2027-03-01T09:00:00Z",
            "posts": [
                { "platform": "instagram", "platformSpecificData": { "caption": "Mugs at dawn" } },
                { "platform": "x", "scheduledAt": "2027-03-01T12:30:00Z", "platformSpecificData": { "caption": "New mugs" } }
            ],
            "assets": [{ "assetUrl": "https://example.com/mug.jpg" }]
        }),
    )
    .await
    .unwrap();
    call(cx, "get_card", json!({ "cardId": card["id"] })).await.unwrap()
}

fn posts(card: &Value) -> Vec<(String, String, Value)> {
    let mut v: Vec<_> = card["posts"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| (p["platform"].as_str().unwrap().to_string(), p["platformSettings"]["caption"].as_str().unwrap_or("").to_string(), p["scheduledAt"].clone()))
        .collect();
    v.sort_by(|a, b| a.0.cmp(&b.0));
    v
}

async fn count(cx: &Cx) -> u64 {
    call(cx, "list_cards", json!({ "all": true })).await.unwrap()["cards"].as_array().unwrap().len() as u64
}

#[tokio::test(flavor = "multi_thread")]
async fn duplicate_copies_posts_assets_and_notes_unscheduled_with_copy_in_the_title() {
    let sb = TestSandbox::start().await;
    let cx = Cx::new(Client::new(sb.base_url(), ApiKey::new(sb.key.clone())).unwrap());
    let card = rich_card(&cx, "Spring mugs").await;
    let copy = call(&cx, "duplicate_card", json!({ "cardId": card["id"] })).await.unwrap();
    assert_ne!(copy["id"], card["id"]);
    let copy = call(&cx, "get_card", json!({ "cardId": copy["id"] })).await.unwrap();
    assert_eq!(copy["title"], json!("Spring mugs (copy)"));
    assert_eq!((&copy["spaceId"], &copy["stageId"], &copy["notes"]), (&card["spaceId"], &card["stageId"], &json!("Shoot in daylight")));
    assert_eq!(copy["scheduledAt"], Value::Null, "a duplicate is unscheduled: {copy}");
    let got: Vec<(String, String)> = posts(&copy).into_iter().map(|(p, c, at)| {
        assert_eq!(at, Value::Null, "{p}'s time is left out too");
        (p, c)
    }).collect();
    assert_eq!(got, [("instagram".to_string(), "Mugs at dawn".to_string()), ("x".into(), "New mugs".into())]);
    let urls: Vec<&Value> = copy["assets"].as_array().unwrap().iter().map(|a| &a["assetUrl"]).collect();
    assert_eq!(urls, [&json!("https://example.com/mug.jpg")]);
    // The original is untouched.
    let again = call(&cx, "get_card", json!({ "cardId": card["id"] })).await.unwrap();
    assert_eq!(again["updatedAt"], card["updatedAt"]);
}

#[tokio::test(flavor = "multi_thread")]
async fn repeat_makes_four_weekly_copies_each_with_its_own_time() {
    let sb = TestSandbox::start().await;
    let cx = Cx::new(Client::new(sb.base_url(), ApiKey::new(sb.key.clone())).unwrap());
    let card = rich_card(&cx, "Weekly tip").await;
    let made = call(&cx, "repeat_card", json!({ "cardId": card["id"], "every": "1w", "count": 4 })).await.unwrap();
    assert_eq!(made["count"], json!(4), "{made}");
    let mut times = Vec::new();
    for (k, c) in made["cards"].as_array().unwrap().iter().enumerate() {
        let c = call(&cx, "get_card", json!({ "cardId": c["id"] })).await.unwrap();
        assert_eq!(c["title"], json!("Weekly tip"));
        let day = 1 + 7 * (k + 1);
        let (y, m, d) = if day <= 31 { (2027, 3, day) } else { (2027, 4, day - 31) };
        let card_at = format!("{y}-{m:02}-{d:02}T09:00:00");
        assert!(c["scheduledAt"].as_str().unwrap().starts_with(&card_at), "copy {k}: {}", c["scheduledAt"]);
        // The X post's own time moved by the same step.
        let x = posts(&c).into_iter().find(|p| p.0 == "x").unwrap();
        assert!(x.2.as_str().unwrap().starts_with(&format!("{y}-{m:02}-{d:02}T12:30:00")), "{x:?}");
        times.push(card_at);
    }
    assert_eq!(times.len(), 4);
    // Until a date (included): 3 days apart from Mar 1 until Mar 7 → Mar 4 and Mar 7.
    let made = call(&cx, "repeat_card", json!({ "cardId": card["id"], "every": "3d", "until": "2027-03-07" })).await.unwrap();
    assert_eq!(made["count"], json!(2), "{made}");
}

#[tokio::test(flavor = "multi_thread")]
async fn repeat_refuses_out_of_bounds_and_unscheduled_cards_and_makes_nothing() {
    let sb = TestSandbox::start().await;
    let cx = Cx::new(Client::new(sb.base_url(), ApiKey::new(sb.key.clone())).unwrap());
    let card = rich_card(&cx, "Bounded").await;
    let plain = call(&cx, "create_card", json!({ "title": "No time", "platform": "x" })).await.unwrap();
    let before = count(&cx).await;
    for (args, field) in [
        (json!({ "cardId": card["id"], "every": "1w", "count": 53 }), "count"),
        (json!({ "cardId": card["id"], "every": "1w", "count": 0 }), "count"),
        (json!({ "cardId": card["id"], "every": "1w" }), "count"),
        (json!({ "cardId": card["id"], "every": "2h", "count": 2 }), "every"),
        (json!({ "cardId": card["id"], "every": "1w", "until": "2027-02-01" }), "until"),
        (json!({ "cardId": card["id"], "every": "1d", "until": "2028-12-31" }), "until"),
        (json!({ "cardId": card["id"], "every": "1w", "count": 2, "until": "2027-05-01" }), "until"),
        (json!({ "cardId": plain["id"], "every": "1w", "count": 2 }), "cardId"),
    ] {
        let e = call(&cx, "repeat_card", args.clone()).await.unwrap_err();
        assert!(matches!(&e, OpError::Usage { field: Some(f), .. } if f == field), "{args}: {e:?}");
        assert_eq!(e.exit_code(), 2);
    }
    assert_eq!(count(&cx).await, before, "nothing was made");
}

/// The posting queue through `queue_card`, with the slots in a `queue-slots.json` of a temporary data
/// folder: three cards fill the next three free slots of their account (a post already scheduled near a
/// slot takes it), a card near another on the same account is a clash, and an account without slots or
/// a post without an account is refused with nothing scheduled.
#[tokio::test(flavor = "multi_thread")]
async fn queue_fills_the_next_free_slots_flags_a_clash_and_refuses_what_it_cannot_place() {
    use contentdesk_ops::planner::{clashes, scheduled_posts, QueueFile, QueuePlace, QueueSettings, QueueSlot};
    let sb = TestSandbox::start().await;
    let client = Client::new(sb.base_url(), ApiKey::new(sb.key.clone())).unwrap();
    let mut cx = Cx::new(client.clone());
    let accounts = call(&cx, "list_connected_accounts", json!({})).await.unwrap();
    let accounts = accounts["accounts"].as_array().or(accounts["connectedAccounts"].as_array()).or(accounts.as_array()).cloned().unwrap_or_else(|| panic!("{accounts}"));
    assert!(accounts.len() >= 2, "the sandbox connects two accounts at least: {accounts:?}");
    let (a, b) = (accounts[0].clone(), accounts[1].clone());
    let (a_id, a_platform) = (a["id"].as_str().unwrap().to_string(), a["platform"].as_str().unwrap().to_string());

    // No queue place (an API key without a profile): a clear refusal.
    let card = call(&cx, "create_card", json!({ "title": "Queued 1", "platform": a_platform, "posts": [{ "platform": a_platform, "connectedAccountId": a_id }] })).await.unwrap();
    let e = call(&cx, "queue_card", json!({ "cardId": card["id"] })).await.unwrap_err();
    assert!(matches!(&e, OpError::Usage { field: Some(f), .. } if f == "slots"), "{e:?}");

    // A full week of slots: every day at 09:00 and 17:30 UTC.
    let dir = std::env::temp_dir().join(format!("cdesk-queue-{}", std::process::id()));
    let slots = (1..=7).flat_map(|d| ["09:00", "17:30"].map(|t| QueueSlot { account_id: a_id.clone(), weekday: d, time: t.into() })).collect();
    QueueFile::in_dir(&dir).set("p1", QueueSettings { slots, clash_minutes: 30 }).unwrap();
    assert!(dir.join("queue-slots.json").exists());
    cx.queue = Some(QueuePlace { data_dir: dir.clone(), profile_id: "p1".into() });

    let mut placed = Vec::new();
    for n in 1..=3 {
        let id = if n == 1 {
            card["id"].clone()
        } else {
            call(&cx, "create_card", json!({ "title": format!("Queued {n}"), "platform": a_platform, "posts": [{ "platform": a_platform, "connectedAccountId": a_id }] })).await.unwrap()["id"].clone()
        };
        let q = call(&cx, "queue_card", json!({ "cardId": id })).await.unwrap();
        let at = q["placed"][0]["scheduledAt"].as_str().unwrap().to_string();
        let read = call(&cx, "get_card", json!({ "cardId": id })).await.unwrap();
        let t = |v: &Value| time::OffsetDateTime::parse(v.as_str().unwrap(), &time::format_description::well_known::Rfc3339).unwrap();
        assert_eq!(t(&read["scheduledAt"]), t(&json!(at)), "the card is at its slot: {read}");
        assert_eq!(t(&read["posts"][0]["scheduledAt"]), t(&json!(at)));
        placed.push(t(&json!(at)));
    }
    // Three consecutive slots: each 09:00 or 17:30, each after the one before, no two the same.
    for w in placed.windows(2) {
        assert!(w[1] > w[0], "{placed:?}");
        let gap = (w[1] - w[0]).whole_minutes();
        assert!(gap == 510 || gap == 930, "consecutive slots are 8h30 or 15h30 apart: {placed:?}");
    }
    for p in &placed {
        assert!(matches!((p.hour(), p.minute()), (9, 0) | (17, 30)), "{p}");
    }

    // A card put 10 minutes after the first queued one, on the same account: both flagged as a clash.
    let near = crate_time(placed[0] + time::Duration::minutes(10));
    let clash = call(&cx, "create_card", json!({ "title": "Too close", "platform": a_platform, "scheduledAt": near, "posts": [{ "platform": a_platform, "connectedAccountId": a_id }] })).await.unwrap();
    let mut posts = Vec::new();
    for c in call(&cx, "list_cards", json!({ "all": true })).await.unwrap()["cards"].as_array().unwrap() {
        let detail: api_types::CardDetail = serde_json::from_value(call(&cx, "get_card", json!({ "cardId": c["id"] })).await.unwrap()).unwrap();
        posts.extend(scheduled_posts(&detail));
    }
    let mut flagged: Vec<String> = clashes(&posts, 30).into_iter().map(|p| p.card_id).collect();
    flagged.sort();
    let mut want = vec![card["id"].as_str().unwrap().to_string(), clash["id"].as_str().unwrap().to_string()];
    want.sort();
    assert_eq!(flagged, want);

    // An account with no slots: refused, naming why, and the card keeps no time.
    let b_platform = b["platform"].as_str().unwrap();
    let other = call(&cx, "create_card", json!({ "title": "Elsewhere", "platform": b_platform, "posts": [{ "platform": b_platform, "connectedAccountId": b["id"] }] })).await.unwrap();
    let e = call(&cx, "queue_card", json!({ "cardId": other["id"] })).await.unwrap_err();
    assert!(matches!(&e, OpError::Usage { field: Some(f), .. } if f == "slots"), "{e:?}");
    assert!(e.to_string().contains("no queue slots"), "{e}");
    assert_eq!(call(&cx, "get_card", json!({ "cardId": other["id"] })).await.unwrap()["scheduledAt"], Value::Null);
    // A post without an account: refused naming that post.
    let bare = call(&cx, "create_card", json!({ "title": "No account", "platform": "x", "posts": [{ "platform": "x" }] })).await.unwrap();
    let e = call(&cx, "queue_card", json!({ "cardId": bare["id"] })).await.unwrap_err();
    assert!(matches!(&e, OpError::Usage { field: Some(f), .. } if f == "posts[0].accountId"), "{e:?}");
    let _ = std::fs::remove_dir_all(&dir);
}

fn crate_time(t: time::OffsetDateTime) -> String {
    t.format(&time::format_description::well_known::Rfc3339).unwrap()
}
