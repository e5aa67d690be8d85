//! cards_rules: reads.
use super::*;


#[tokio::test]
async fn card_read_gives_each_asset_kind_under_the_field_that_attached_it() {
    let sb = TestSandbox::start().await;
    let http = Http::new(&sb);
    let card = new_card(&http, &sb.key).await;
    let out = output(&sb, "image");
    let content = contents(&sb)[0].clone();
    let (_, p) = http
        .post(&sb.key, "/projects", json!({"title": "Edit"}))
        .await;
    let project = p["project"]["id"].as_str().unwrap().to_string();
    let (s, v) = patch(
        &http,
        &sb.key,
        &card,
        json!({"assets": [{"outputId": out}, {"assetUrl": "https://example.com/ref.png"},
                          {"contentId": content}, {"projectId": project}]}),
    )
    .await;
    assert_eq!(s, 200, "{v}");
    let a = &read(&http, &sb.key, &card).await["assets"];
    assert_eq!(a[0]["outputId"], out.as_str());
    assert_eq!(a[0]["assetType"], "image");
    assert_eq!(a[0]["assetId"], out.as_str());
    assert!(a[0]["previewUrl"].as_str().unwrap().starts_with("http"));
    assert_eq!(a[1]["assetUrl"], "https://example.com/ref.png");
    assert_eq!(a[2]["contentId"], content.as_str());
    assert_eq!(a[2]["assetType"], "inspiration");
    assert_eq!(a[2]["assetId"], content.as_str());
    assert!(a[2]["inspiration"].is_object(), "{}", a[2]);
    assert!(
        a[2]["inspiration"]["creator"].is_string() || a[2]["inspiration"]["handle"].is_string()
    );
    assert_eq!(a[3]["projectId"], project.as_str());
    assert_eq!(a[3]["assetType"], "project");
    assert_eq!(a[3]["assetId"], project.as_str());
    assert_eq!(a[3]["displayName"], "Edit");
}

#[tokio::test]
async fn post_platform_specific_data_reads_back_as_platform_settings() {
    let sb = TestSandbox::start().await;
    let http = Http::new(&sb);
    let card = new_card(&http, &sb.key).await;
    let ig = connected(&sb, "instagram");
    let (s, v) = patch(
        &http,
        &sb.key,
        &card,
        json!({"posts": [{"platform": "instagram", "format": "reel", "connectedAccountId": ig,
                          "platformSpecificData": {"caption": "Hello", "shareToFeed": true}}]}),
    )
    .await;
    assert_eq!(s, 200, "{v}");
    let p = &read(&http, &sb.key, &card).await["posts"][0];
    assert_eq!(
        p["platformSettings"],
        json!({"caption": "Hello", "shareToFeed": true})
    );
    assert_eq!(p["connectedAccountId"], ig.as_str());
    assert_eq!(p["format"], "reel");
    assert!(p.get("platformSpecificData").is_none());
}

#[tokio::test]
async fn post_connected_account_of_another_platform_is_400_and_of_another_account_404() {
    let sb = TestSandbox::start().await;
    let http = Http::new(&sb);
    let card = new_card(&http, &sb.key).await;
    let yt = connected(&sb, "youtube");
    let (s, v) = patch(
        &http,
        &sb.key,
        &card,
        json!({"posts": [{"platform": "instagram", "connectedAccountId": yt}]}),
    )
    .await;
    assert_eq!(s, 400, "{v}");
    assert_eq!(v["field"], "posts[0].connectedAccountId");
    let (_, other) = sb.other_account(0.0);
    let theirs = new_card(&http, &other).await;
    let (s, v) = patch(
        &http,
        &other,
        &theirs,
        json!({"posts": [{"platform": "youtube", "connectedAccountId": yt}]}),
    )
    .await;
    assert_eq!(s, 404, "{v}");
}

// ---------- moving ----------

#[tokio::test]
async fn patch_stage_moves_the_card_by_id_slug_or_name() {
    let sb = TestSandbox::start().await;
    let http = Http::new(&sb);
    let card = new_card(&http, &sb.key).await;
    let (_, st) = http.get(&sb.key, "/stages").await;
    let stages = st["stages"].as_array().unwrap();
    let (s, v) = patch(&http, &sb.key, &card, json!({"stage": "review"})).await;
    assert_eq!(s, 200, "{v}");
    assert_eq!(v["post"]["stageId"], stages[3]["id"]);
    let (_, v) = patch(&http, &sb.key, &card, json!({"stage": "Production"})).await;
    assert_eq!(v["post"]["stageId"], stages[2]["id"]);
    let (_, v) = patch(&http, &sb.key, &card, json!({"stage": stages[5]["id"]})).await;
    assert_eq!(v["post"]["stageId"], stages[5]["id"]);
    let (s, v) = patch(&http, &sb.key, &card, json!({"stage": "nowhere"})).await;
    assert_eq!(s, 400, "{v}");
    assert_eq!(v["field"], "stage");
}

#[tokio::test]
async fn patch_space_id_moves_to_the_stage_with_the_same_slug() {
    let sb = TestSandbox::start().await;
    let http = Http::new(&sb);
    let card = new_card(&http, &sb.key).await;
    patch(&http, &sb.key, &card, json!({"stage": "review"})).await;
    let (_, sp) = http
        .post(&sb.key, "/spaces", json!({"name": "Second board"}))
        .await;
    let space = sp["space"]["id"].as_str().unwrap().to_string();
    let (s, v) = patch(&http, &sb.key, &card, json!({"spaceId": space})).await;
    assert_eq!(s, 200, "{v}");
    assert_eq!(v["post"]["spaceId"], space.as_str());
    let (_, st) = http
        .get(&sb.key, &format!("/stages?space_id={space}"))
        .await;
    let review = st["stages"]
        .as_array()
        .unwrap()
        .iter()
        .find(|s| s["slug"] == "review")
        .unwrap();
    assert_eq!(v["post"]["stageId"], review["id"]);
    // A stage id from the first space with this spaceId disagrees.
    let (_, first) = http.get(&sb.key, "/stages").await;
    let (s, v) = patch(
        &http,
        &sb.key,
        &card,
        json!({"spaceId": space, "stage": first["stages"][0]["id"]}),
    )
    .await;
    assert_eq!(s, 400, "{v}");
    assert_eq!(v["field"], "spaceId");
}

#[tokio::test]
async fn patch_before_card_id_places_the_card_before_it_in_the_stage() {
    let sb = TestSandbox::start().await;
    let http = Http::new(&sb);
    let (_, v) = http.get(&sb.key, "/cards?stage=ideas").await;
    let before: Vec<String> = ids(&v["cards"]);
    assert!(before.len() >= 3);
    let last = before.last().unwrap().clone();
    let (s, v) = patch(&http, &sb.key, &last, json!({"beforeCardId": before[1]})).await;
    assert_eq!(s, 200, "{v}");
    let (_, v) = http.get(&sb.key, "/cards?stage=ideas").await;
    let after = ids(&v["cards"]);
    assert_eq!(after[0], before[0]);
    assert_eq!(after[1], last);
    assert_eq!(after[2], before[1]);
    // Move into another stage and drop it before that stage's first card.
    let (_, v) = http.get(&sb.key, "/cards?stage=review").await;
    let review_first = v["cards"][0]["id"].as_str().unwrap().to_string();
    let (s, v) = patch(
        &http,
        &sb.key,
        &last,
        json!({"stage": "review", "beforeCardId": review_first}),
    )
    .await;
    assert_eq!(s, 200, "{v}");
    let (_, v) = http.get(&sb.key, "/cards?stage=review").await;
    assert_eq!(ids(&v["cards"])[0], last);
    let (s, v) = patch(&http, &sb.key, &last, json!({"beforeCardId": before[0]})).await;
    assert_eq!(s, 400, "a card in another stage: {v}");
    assert_eq!(v["field"], "beforeCardId");
}

#[tokio::test]
async fn card_tags_are_named_and_must_exist() {
    let sb = TestSandbox::start().await;
    let http = Http::new(&sb);
    let card = new_card(&http, &sb.key).await;
    let (s, v) = patch(&http, &sb.key, &card, json!({"tags": ["Hook", "launch"]})).await;
    assert_eq!(s, 200, "{v}");
    assert_eq!(v["post"]["tags"], json!(["hook", "launch"]));
    let (s, v) = patch(
        &http,
        &sb.key,
        &card,
        json!({"tags": ["hook", "no-such-tag"]}),
    )
    .await;
    assert_eq!(s, 400, "{v}");
    assert_eq!(v["field"], "tags[1]");
}

// ---------- lists, create, publish ----------

#[tokio::test]
async fn list_cards_out_of_range_limit_is_400_naming_limit() {
    // Like `/content` and the knowledge lists: 1–100, never clamped.
    let sb = TestSandbox::start().await;
    let http = Http::new(&sb);
    for query in ["limit=0", "limit=101", "limit=1000", "limit=-1", "limit=4294967296"] {
        let (s, v) = http.get(&sb.key, &format!("/cards?{query}")).await;
        assert_eq!(s, 400, "{query}: {v}");
        assert_eq!(v["field"], "limit", "{query}: {v}");
    }
    for (query, len) in [("limit=1", 1), ("limit=100", 100)] {
        let (s, v) = http.get(&sb.key, &format!("/cards?{query}")).await;
        assert_eq!(s, 200, "{query}: {v}");
        let got = v["cards"].as_array().unwrap().len();
        assert!(got <= len && got >= 1, "{query}: {got}");
    }
    // The range check comes first: a bad limit with an unknown space is still the limit's 400.
    let (s, v) = http
        .get(&sb.key, "/cards?limit=0&space_id=00000000-0000-4000-8000-000000000000")
        .await;
    assert_eq!(s, 400, "{v}");
    assert_eq!(v["field"], "limit");
}

#[tokio::test]
async fn list_cards_pages_and_filters() {
    let sb = TestSandbox::start().await;
    let http = Http::new(&sb);
    let (s, all) = http.get(&sb.key, "/cards").await;
    assert_eq!(s, 200, "{all}");
    let total = all["total"].as_i64().unwrap();
    assert!(total >= 24, "{total}");
    assert_eq!(all["space"]["name"], "Content plan");
    let (_, page) = http.get(&sb.key, "/cards?limit=10&offset=10").await;
    assert_eq!(page["cards"].as_array().unwrap().len(), 10);
    assert_eq!(page["hasMore"], true);
    assert_eq!(page["cards"][0]["id"], all["cards"][10]["id"]);
    let (_, last) = http
        .get(&sb.key, &format!("/cards?limit=10&offset={}", total - 3))
        .await;
    assert_eq!(last["cards"].as_array().unwrap().len(), 3);
    assert_eq!(last["hasMore"], false);
    let (s, big) = http.get(&sb.key, "/cards?limit=100").await;
    assert_eq!(s, 200, "{big}");
    assert!(big["cards"].as_array().unwrap().len() <= 100);
    let (_, yt) = http.get(&sb.key, "/cards?platform=youtube").await;
    assert!(yt["total"].as_i64().unwrap() > 0);
    for c in yt["cards"].as_array().unwrap() {
        assert!(
            c["platform"] == "youtube"
                || c["platforms"]
                    .as_array()
                    .unwrap()
                    .contains(&json!("youtube")),
            "{c}"
        );
    }
    let (_, st) = http.get(&sb.key, "/cards?stage=published").await;
    assert!(st["total"].as_i64().unwrap() > 0);
    let (_, t) = http.get(&sb.key, "/cards?tag=hook").await;
    for c in t["cards"].as_array().unwrap() {
        assert!(c["tags"].as_array().unwrap().contains(&json!("hook")));
    }
    let (_, q) = http.get(&sb.key, "/cards?search=studio%20TOUR").await;
    assert_eq!(q["total"], 1);
    let (_, f) = http.get(&sb.key, "/cards?is_favorite=true").await;
    assert!(f["cards"]
        .as_array()
        .unwrap()
        .iter()
        .all(|c| c["isFavorite"] == true));
    let (_, f2) = http
        .get(
            &sb.key,
            &format!("/cards?spaceId={}", all["space"]["id"].as_str().unwrap()),
        )
        .await;
    assert_eq!(f2["total"], total);
}

#[tokio::test]
async fn create_card_lands_in_the_first_stage_and_answers_the_detail() {
    let sb = TestSandbox::start().await;
    let http = Http::new(&sb);
    let (s, v) = http
        .post(
            &sb.key,
            "/cards",
            json!({"title": "New one", "platform": "tiktok", "tags": ["hook"], "notes": "draft",
                   "posts": [{"platform": "tiktok"}], "assets": [{"assetUrl": "https://example.com/n.jpg"}]}),
        )
        .await;
    assert_eq!(s, 200, "{v}");
    let (_, st) = http.get(&sb.key, "/stages").await;
    assert_eq!(v["post"]["stageId"], st["stages"][0]["id"]);
    assert_eq!(v["post"]["notes"], "draft");
    assert_eq!(v["post"]["posts"][0]["platform"], "tiktok");
    assert_eq!(
        v["post"]["assets"][0]["assetUrl"],
        "https://example.com/n.jpg"
    );
    let (s, v) = http
        .post(
            &sb.key,
            "/cards",
            json!({"title": "Bad", "platform": "myspace"}),
        )
        .await;
    assert_eq!(s, 400, "{v}");
    assert_eq!(v["field"], "platform");
}

#[tokio::test]
async fn create_card_with_a_schedule_needs_publish_write_and_nothing_is_made_without_it() {
    // Rule 8 on `POST /cards`: a create runs the same scope rules as a PATCH of an empty card.
    let sb = TestSandbox::start().await;
    let http = Http::new(&sb);
    let count = |sb: &TestSandbox| -> i64 {
        let conn = sb.state().db().lock();
        conn.query_row("SELECT COUNT(*) FROM cards", [], |r| r.get(0)).unwrap()
    };
    let before = count(&sb);
    let key = sb.key_with(&[PLANNER_WRITE]);
    let body = json!({"title": "Scheduled", "platform": "x", "scheduledAt": "2031-01-01T10:00:00Z"});
    let (s, v) = http.post(&key, "/cards", body.clone()).await;
    assert_eq!(s, 403, "{v}");
    assert!(msg(&v).contains(PUBLISH_WRITE), "{v}");
    assert_eq!(count(&sb), before, "no card was made");
    // Without a schedule, planner:write is enough.
    let (s, v) = http
        .post(&key, "/cards", json!({"title": "Unscheduled", "platform": "x"}))
        .await;
    assert_eq!(s, 200, "{v}");
    let key = sb.key_with(&[PLANNER_WRITE, PUBLISH_WRITE]);
    let (s, v) = http.post(&key, "/cards", body).await;
    assert_eq!(s, 200, "{v}");
    assert_eq!(v["post"]["scheduledAt"], "2031-01-01T10:00:00.000Z");
    assert_eq!(count(&sb), before + 2);
}

#[tokio::test]
async fn publish_succeeds_per_post_with_an_account_and_fails_without() {
    let sb = TestSandbox::start().await;
    let http = Http::new(&sb);
    let card = new_card(&http, &sb.key).await;
    let ig = connected(&sb, "instagram");
    patch(
        &http,
        &sb.key,
        &card,
        json!({"posts": [{"platform": "instagram", "connectedAccountId": ig}, {"platform": "general"}]}),
    )
    .await;
    let (s, v) = http
        .post(&sb.key, &format!("/cards/{card}/publish"), json!({}))
        .await;
    assert_eq!(s, 200, "{v}");
    assert_eq!(v["cardId"], card.as_str());
    assert_eq!(v["publishedCount"], 1);
    assert_eq!(v["failedCount"], 1);
    assert_eq!(v["results"][0]["success"], true);
    assert!(v["results"][0]["url"]
        .as_str()
        .unwrap()
        .starts_with("https://"));
    assert_eq!(v["results"][1]["success"], false);
    assert!(v["results"][1]["error"]
        .as_str()
        .unwrap()
        .contains("connected account"));
    let detail = read(&http, &sb.key, &card).await;
    assert!(detail["publishedAt"].is_string());
    assert!(detail["posts"][0]["publishedAt"].is_string());
    // Without a body too, and one platform only.
    let req = reqwest::Client::new()
        .post(format!("{}/cards/{card}/publish", sb.base_url()))
        .bearer_auth(&sb.key)
        .send()
        .await
        .unwrap();
    assert_eq!(req.status().as_u16(), 200);
    let (s, v) = http
        .post(
            &sb.key,
            &format!("/cards/{card}/publish"),
            json!({"platform": "instagram"}),
        )
        .await;
    assert_eq!(s, 200, "{v}");
    assert_eq!(v["results"].as_array().unwrap().len(), 1);
}

#[tokio::test]
async fn bad_card_input_never_500s() {
    let sb = TestSandbox::start().await;
    let http = Http::new(&sb);
    let card = new_card(&http, &sb.key).await;
    let bodies = [
        json!({"assets": [{"outputId": "not-a-token"}]}),
        json!({"assets": [{"outputId": uuid::Uuid::new_v4().to_string()}]}),
        json!({"assets": [{"assetUrl": "ftp://x"}]}),
        json!({"posts": [{"platform": "x", "platformSpecificData": 5}]}),
        json!({"posts": [{"platform": "nope"}]}),
        json!({"coverUrl": "nope"}),
        json!({"coverPosition": {"x": 500, "y": 1}}),
        json!({"boardOrder": 1e308, "beforeCardId": "x"}),
        json!({"spaceId": "nope"}),
        json!({"stage": ""}),
    ];
    for body in bodies {
        let (s, v) = patch(&http, &sb.key, &card, body.clone()).await;
        assert!(s == 400 || s == 404, "{body} → {s} {v}");
    }
}

/// Fact sheet 3.9 `UpdateCard.archived`: `true` archives the card (as `POST /archive` does), `false`
/// restores it; `publishedAt`/`publishUrl` record a publication made elsewhere.
#[tokio::test]
async fn patch_archived_archives_and_restores_and_publication_is_recorded() {
    let sb = TestSandbox::start().await;
    let http = Http::new(&sb);
    let card = new_card(&http, &sb.key).await;
    let (s, v) = patch(&http, &sb.key, &card, json!({"archived": true})).await;
    assert_eq!(s, 200, "{v}");
    assert_eq!(v["post"]["isArchived"], true, "{v}");
    let (s, v) = patch(&http, &sb.key, &card, json!({"archived": false, "publishedAt": "2031-01-02T03:04:05Z",
        "publishUrl": "https://instagram.example/p/1"})).await;
    assert_eq!(s, 200, "{v}");
    assert_eq!(v["post"]["isArchived"], false, "{v}");
    assert_eq!(v["post"]["publishUrl"], "https://instagram.example/p/1");
    assert!(v["post"]["publishedAt"].as_str().unwrap().starts_with("2031-01-02T03:04:05"), "{v}");
    let (s, v) = patch(&http, &sb.key, &card, json!({"publishedAt": "yesterday"})).await;
    assert_eq!(s, 400, "{v}");
    assert_eq!(v["field"], "publishedAt");
}
