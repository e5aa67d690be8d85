//! planner_spaces_stages: stages.
use super::*;


#[tokio::test]
async fn stages_of_a_new_space_are_seeded_with_the_defaults_on_first_access() {
    let sb = TestSandbox::start().await;
    let http = Http::new(&sb);
    let space = new_space(&http, &sb.key, "Fresh").await;
    let (s, v) = http.get(&sb.key, &format!("/stages?spaceId={space}")).await;
    assert_eq!(s, 200, "{v}");
    assert_eq!(v["space"], json!({"id": space, "name": "Fresh"}));
    let st = v["stages"].as_array().unwrap();
    assert_eq!(
        names(st),
        [
            "Ideas",
            "Scripting",
            "Production",
            "Review",
            "Scheduled",
            "Published"
        ]
    );
    assert_eq!(st[0]["slug"], "ideas");
    assert_eq!(st[0]["isDefault"], true);
    assert!(st
        .windows(2)
        .all(|w| w[0]["sortOrder"].as_f64() < w[1]["sortOrder"].as_f64()));
    // Without space_id: the account's default space.
    let (_, v) = http.get(&sb.key, "/stages").await;
    assert_eq!(v["space"]["name"], "Content plan");
}

#[tokio::test]
async fn create_stage_goes_to_the_end_or_after_or_before_a_stage() {
    let sb = TestSandbox::start().await;
    let http = Http::new(&sb);
    let space = new_space(&http, &sb.key, "Order").await;
    let st = stages(&http, &sb.key, &space).await;
    let (s, v) = http
        .post(
            &sb.key,
            "/stages",
            json!({"name": "Archive", "space_id": space}),
        )
        .await;
    assert_eq!(s, 200, "{v}");
    assert_eq!(v["stage"]["slug"], "archive");
    http.post(
        &sb.key,
        "/stages",
        json!({"name": "Research", "space_id": space, "after_id": st[0]["id"]}),
    )
    .await;
    http.post(
        &sb.key,
        "/stages",
        json!({"spaceId": space, "name": "Inbox", "beforeId": st[0]["id"], "color": "#aabbcc"}),
    )
    .await;
    let now = stages(&http, &sb.key, &space).await;
    assert_eq!(
        names(&now),
        [
            "Inbox",
            "Ideas",
            "Research",
            "Scripting",
            "Production",
            "Review",
            "Scheduled",
            "Published",
            "Archive"
        ]
    );
    assert_eq!(now[0]["color"], "#AABBCC");
    let (s, v) = http
        .post(
            &sb.key,
            "/stages",
            json!({"name": "X", "space_id": space, "after_id": "nope"}),
        )
        .await;
    assert_eq!(s, 400, "{v}");
    assert_eq!(v["field"], "after_id");
}

#[tokio::test]
async fn stage_name_giving_an_existing_slug_is_409() {
    let sb = TestSandbox::start().await;
    let http = Http::new(&sb);
    let space = new_space(&http, &sb.key, "Slugs").await;
    let (s, v) = http
        .post(
            &sb.key,
            "/stages",
            json!({"name": "  IDEAS!! ", "space_id": space}),
        )
        .await;
    assert_eq!(s, 409, "{v}");
    assert!(msg(&v).contains("ideas"), "{v}");
    let st = stages(&http, &sb.key, &space).await;
    let (s, v) = http
        .patch(
            &sb.key,
            &format!("/stages/{}", st[1]["id"].as_str().unwrap()),
            json!({"space_id": space, "name": "Review"}),
        )
        .await;
    assert_eq!(s, 409, "{v}");
}

#[tokio::test]
async fn stage_color_must_be_hex_rrggbb() {
    let sb = TestSandbox::start().await;
    let http = Http::new(&sb);
    for bad in ["red", "#12345", "#GGGGGG", "123456"] {
        let (s, v) = http
            .post(
                &sb.key,
                "/stages",
                json!({"name": format!("C {bad}"), "color": bad}),
            )
            .await;
        assert_eq!(s, 400, "{bad}: {v}");
        assert_eq!(v["field"], "color");
    }
}

#[tokio::test]
async fn patch_stage_after_id_null_is_far_left_before_id_null_is_far_right_and_rename_rederives_slug(
) {
    let sb = TestSandbox::start().await;
    let http = Http::new(&sb);
    let space = new_space(&http, &sb.key, "Moves").await;
    let st = stages(&http, &sb.key, &space).await;
    let review = st[3]["id"].as_str().unwrap().to_string();
    let (s, v) = http
        .patch(
            &sb.key,
            &format!("/stages/{review}"),
            json!({"space_id": space, "after_id": null}),
        )
        .await;
    assert_eq!(s, 200, "{v}");
    assert_eq!(v["respaced"], false);
    assert_eq!(names(&stages(&http, &sb.key, &space).await)[0], "Review");
    let (s, v) = http
        .patch(
            &sb.key,
            &format!("/stages/{review}"),
            json!({"space_id": space, "before_id": null}),
        )
        .await;
    assert_eq!(s, 200, "{v}");
    assert_eq!(
        names(&stages(&http, &sb.key, &space).await).last().unwrap(),
        "Review"
    );
    let (s, v) = http
        .patch(
            &sb.key,
            &format!("/stages/{review}"),
            json!({"space_id": space, "after_id": st[0]["id"], "name": "QA check"}),
        )
        .await;
    assert_eq!(s, 200, "{v}");
    assert_eq!(v["stage"]["slug"], "qa-check");
    assert_eq!(names(&stages(&http, &sb.key, &space).await)[1], "QA check");
    // space_id is required.
    let (s, v) = http
        .patch(&sb.key, &format!("/stages/{review}"), json!({"name": "x"}))
        .await;
    assert_eq!(s, 400, "{v}");
    assert_eq!(v["field"], "space_id");
}

#[tokio::test]
async fn patch_stage_renumbers_the_board_when_a_gap_runs_out() {
    let sb = TestSandbox::start().await;
    let http = Http::new(&sb);
    let space = new_space(&http, &sb.key, "Gaps").await;
    let st = stages(&http, &sb.key, &space).await;
    let first = st[0]["id"].as_str().unwrap().to_string();
    let mut respaced = false;
    // Keep putting the last stage right after the first: the gap there halves each time.
    for _ in 0..80 {
        let all = stages(&http, &sb.key, &space).await;
        let last = all.last().unwrap()["id"].as_str().unwrap().to_string();
        let (s, v) = http
            .patch(
                &sb.key,
                &format!("/stages/{last}"),
                json!({"space_id": space, "after_id": first}),
            )
            .await;
        assert_eq!(s, 200, "{v}");
        if v["respaced"] == true {
            respaced = true;
            break;
        }
    }
    assert!(respaced, "a board whose gaps run out is renumbered");
    let all = stages(&http, &sb.key, &space).await;
    assert!(all
        .windows(2)
        .all(|w| w[1]["sortOrder"].as_f64().unwrap() - w[0]["sortOrder"].as_f64().unwrap() >= 1.0));
}

#[tokio::test]
async fn delete_stage_with_cards_and_no_target_is_400_naming_the_count() {
    let sb = TestSandbox::start().await;
    let http = Http::new(&sb);
    let space = default_space(&http, &sb.key).await;
    let st = stages(&http, &sb.key, &space).await;
    let ideas = st[0]["id"].as_str().unwrap();
    let (_, cards) = http.get(&sb.key, "/cards?stage=ideas&archived=false").await;
    let n = cards["total"].as_i64().unwrap();
    assert!(n > 0);
    let (s, v) = http
        .delete(
            &sb.key,
            &format!("/stages/{ideas}"),
            Some(json!({"space_id": space, "target_stage_id": null})),
        )
        .await;
    assert_eq!(s, 400, "{v}");
    assert_eq!(v["field"], "target_stage_id");
    assert!(msg(&v).contains(&n.to_string()), "{v}");
}

#[tokio::test]
async fn delete_stage_moves_its_cards_to_the_target_in_one_transaction() {
    let sb = TestSandbox::start().await;
    let http = Http::new(&sb);
    let space = default_space(&http, &sb.key).await;
    let st = stages(&http, &sb.key, &space).await;
    let (ideas, scripting) = (st[0]["id"].as_str().unwrap(), st[1]["id"].as_str().unwrap());
    let (_, from) = http.get(&sb.key, "/cards?stage=ideas").await;
    let (_, to) = http.get(&sb.key, "/cards?stage=scripting").await;
    let moving: Vec<Value> = from["cards"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c["id"].clone())
        .collect();
    let (s, v) = http
        .delete(
            &sb.key,
            &format!("/stages/{ideas}"),
            Some(json!({"space_id": space, "target_stage_id": scripting})),
        )
        .await;
    assert_eq!(s, 200, "{v}");
    assert_eq!(v["id"], ideas);
    assert_eq!(v["moved_cards"], moving.len());
    assert_eq!(v["stages"].as_array().unwrap().len(), 5);
    let (_, after) = http.get(&sb.key, "/cards?stage=scripting").await;
    let ids: Vec<Value> = after["cards"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c["id"].clone())
        .collect();
    let before_n = to["cards"].as_array().unwrap().len();
    assert_eq!(ids.len(), before_n + moving.len());
    assert_eq!(
        ids[before_n..],
        moving[..],
        "moved cards keep their order at the end of the target"
    );
    let (s, v) = http
        .delete(
            &sb.key,
            &format!("/stages/{scripting}"),
            Some(json!({"space_id": space, "target_stage_id": scripting})),
        )
        .await;
    assert_eq!(s, 400, "{v}");
}

// ---------- tags ----------

#[tokio::test]
async fn tags_are_lowercased_unique_renamed_and_deleted_from_every_card() {
    let sb = TestSandbox::start().await;
    let http = Http::new(&sb);
    let (s, v) = http
        .post(&sb.key, "/tags", json!({"name": "  Behind The Scenes "}))
        .await;
    assert_eq!(s, 200, "{v}");
    assert_eq!(v["tag"]["name"], "behind the scenes");
    let id = v["tag"]["id"].as_str().unwrap().to_string();
    let (s, v) = http
        .post(&sb.key, "/tags", json!({"name": "BEHIND THE SCENES"}))
        .await;
    assert_eq!(s, 409, "{v}");
    let (s, v) = http
        .patch(&sb.key, &format!("/tags/{id}"), json!({"name": "BTS"}))
        .await;
    assert_eq!(s, 200, "{v}");
    assert_eq!(v["tag"]["name"], "bts");
    let (s, _) = http
        .patch(&sb.key, &format!("/tags/{id}"), json!({"name": "hook"}))
        .await;
    assert_eq!(s, 409, "renaming onto an existing name");
    let (_, cards) = http.get(&sb.key, "/cards?limit=2").await;
    for c in cards["cards"].as_array().unwrap() {
        let (s, v) = http
            .patch(
                &sb.key,
                &format!("/cards/{}", c["id"].as_str().unwrap()),
                json!({"tags": ["bts"]}),
            )
            .await;
        assert_eq!(s, 200, "{v}");
    }
    let (_, tagged) = http.get(&sb.key, "/cards?tag=bts").await;
    assert_eq!(tagged["total"], 2);
    let (s, v) = http.delete(&sb.key, &format!("/tags/{id}"), None).await;
    assert_eq!(s, 200, "{v}");
    assert_eq!(v["id"], id.as_str());
    let (_, tagged) = http.get(&sb.key, "/cards?tag=bts").await;
    assert_eq!(tagged["total"], 0);
    let (_, card) = http
        .get(
            &sb.key,
            &format!("/cards/{}", cards["cards"][0]["id"].as_str().unwrap()),
        )
        .await;
    assert_eq!(card["post"]["tags"], json!([]));
    let (_, other) = sb.other_account(0.0);
    let (_, t) = http.get(&sb.key, "/tags").await;
    let hook = t["tags"][0]["id"].as_str().unwrap();
    assert_eq!(
        http.delete(&other, &format!("/tags/{hook}"), None).await.0,
        404
    );
}

// ---------- connected accounts ----------

#[tokio::test]
async fn connected_accounts_list_one_per_platform_default_first_and_never_credentials() {
    let sb = TestSandbox::start().await;
    let http = Http::new(&sb);
    let (s, v) = http.get(&sb.key, "/connected-accounts").await;
    assert_eq!(s, 200, "{v}");
    let accounts = v["accounts"].as_array().unwrap();
    let mut platforms: Vec<&str> = accounts
        .iter()
        .map(|a| a["platform"].as_str().unwrap())
        .collect();
    platforms.sort();
    let mut expected: Vec<&str> = api_types::PLATFORMS
        .iter()
        .copied()
        .filter(|p| *p != "general")
        .collect();
    expected.sort();
    assert_eq!(platforms, expected);
    assert_eq!(accounts[0]["isDefault"], true);
    let text = v.to_string().to_lowercase();
    for word in ["credential", "token", "secret", "enc:"] {
        assert!(!text.contains(word), "a credential leaked ({word}): {text}");
    }
    let id = accounts[0]["id"].as_str().unwrap();
    let (s, one) = http
        .get(&sb.key, &format!("/connected-accounts/{id}"))
        .await;
    assert_eq!(s, 200, "{one}");
    assert_eq!(one["account"], accounts[0]);
    let (_, other) = sb.other_account(0.0);
    assert_eq!(
        http.get(&other, &format!("/connected-accounts/{id}"))
            .await
            .0,
        404
    );
    let (_, theirs) = http.get(&other, "/connected-accounts").await;
    assert_eq!(theirs["accounts"], json!([]));
}

// ---------- the demo board ----------

#[tokio::test]
async fn demo_board_has_cards_over_every_stage_with_posts_assets_tags_and_schedules() {
    let sb = TestSandbox::start().await;
    let http = Http::new(&sb);
    let (_, list) = http.get(&sb.key, "/cards?limit=100").await;
    let cards = list["cards"].as_array().unwrap();
    assert!(cards.len() >= 24);
    let st = stages(&http, &sb.key, list["space"]["id"].as_str().unwrap()).await;
    for s in &st {
        assert!(
            cards.iter().any(|c| c["stageId"] == s["id"]),
            "stage {} has cards",
            s["name"]
        );
    }
    let platforms: std::collections::HashSet<&str> = cards
        .iter()
        .filter_map(|c| c["platform"].as_str())
        .collect();
    assert!(platforms.len() >= 5);
    assert!(cards.iter().any(|c| c["scheduledAt"].is_string()));
    assert!(cards
        .iter()
        .any(|c| !c["tags"].as_array().unwrap().is_empty()));
    let mut own_schedule = false;
    let mut inspiration = false;
    let mut project = false;
    for c in cards {
        let (_, d) = http
            .get(&sb.key, &format!("/cards/{}", c["id"].as_str().unwrap()))
            .await;
        let d = &d["post"];
        for p in d["posts"].as_array().unwrap() {
            // No flag (as on the real service): a time that differs from the card's is the post's own.
            assert!(p.get("hasOwnSchedule").is_none(), "{p}");
            own_schedule |= p["scheduledAt"].is_string() && p["scheduledAt"] != d["scheduledAt"];
            assert!(p["platformSettings"]["caption"].is_string());
        }
        for a in d["assets"].as_array().unwrap() {
            inspiration |= a["contentId"].is_string() && a["inspiration"].is_object();
            project |= a["projectId"].is_string();
        }
    }
    assert!(own_schedule, "some post has its own time");
    assert!(inspiration, "some card holds an inspiration post");
    assert!(project, "the demo project is linked to a card");
}

#[test]
fn demo_seed_with_5000_extra_cards_is_fast() {
    let path = std::env::temp_dir().join(format!("contentdesk-seed-{}.db", uuid::Uuid::new_v4()));
    let state = AppState::open(&path, Config::for_tests()).unwrap();
    let started = std::time::Instant::now();
    let seeded = seed::seed_demo(&state, &DemoOptions { extra_cards: 5000 }).unwrap();
    let took = started.elapsed();
    let n: i64 = state
        .db()
        .lock()
        .query_row(
            "SELECT COUNT(*) FROM cards WHERE account_id = ?1",
            [&seeded.account_id],
            |r| r.get(0),
        )
        .unwrap();
    assert!(n >= 5024, "{n}");
    assert!(
        took < std::time::Duration::from_secs(3),
        "seeding took {took:?}"
    );
    drop(state);
    for ext in ["", "-wal", "-shm"] {
        let _ = std::fs::remove_file(format!("{}{ext}", path.display()));
    }
}

#[tokio::test]
async fn a_5000_card_board_lists_pages_and_moves_quickly() {
    let path = std::env::temp_dir().join(format!("contentdesk-board-{}.db", uuid::Uuid::new_v4()));
    let state = AppState::open(&path, Config::for_tests()).unwrap();
    let seeded = seed::seed_demo(&state, &DemoOptions { extra_cards: 5000 }).unwrap();
    let key = {
        let conn = state.db().lock();
        contentdesk_sandbox::auth::create_key(
            &conn,
            &seeded.account_id,
            "bench",
            api_types::scopes::ALL,
        )
        .unwrap()
        .1
    };
    let running = contentdesk_sandbox::spawn(state, "127.0.0.1:0")
        .await
        .unwrap();
    let client = reqwest::Client::new();
    let started = std::time::Instant::now();
    let v: Value = client
        .get(format!(
            "{}/cards?limit=100&offset=700&stage=review",
            running.base_url()
        ))
        .bearer_auth(&key)
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    // 5,000 extra cards: 1,250 in Ideas, 750 in each other stage (plus the demo's).
    assert!(v["total"].as_i64().unwrap() > 700, "{}", v["total"]);
    let first = v["cards"].as_array().map(|c| c.len()).unwrap_or(0);
    let page = client
        .get(format!("{}/cards?stage=review&limit=2", running.base_url()))
        .bearer_auth(&key)
        .send()
        .await
        .unwrap();
    let page: Value = page.json().await.unwrap();
    let last = page["cards"][1]["id"].as_str().unwrap();
    let top = page["cards"][0]["id"].as_str().unwrap();
    let moved = client
        .patch(format!("{}/cards/{last}", running.base_url()))
        .bearer_auth(&key)
        .json(&json!({"beforeCardId": top}))
        .send()
        .await
        .unwrap();
    assert_eq!(moved.status().as_u16(), 200);
    let took = started.elapsed();
    assert!(first > 0 && first < 100, "the stage's last page: {first}");
    assert!(took < std::time::Duration::from_secs(2), "took {took:?}");
    running.stop().await;
    for ext in ["", "-wal", "-shm"] {
        let _ = std::fs::remove_file(format!("{}{ext}", path.display()));
    }
}
