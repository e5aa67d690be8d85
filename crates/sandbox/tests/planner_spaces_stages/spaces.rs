//! planner_spaces_stages: spaces.
use super::*;


/// Fact sheet 2.6: `DELETE /spaces/{id}` is refused while the space holds cards (the error names the
/// count), archived cards included; an empty space goes, with its stages.
#[tokio::test]
async fn space_delete_is_refused_while_it_holds_cards() {
    let sb = TestSandbox::start().await;
    let http = Http::new(&sb);
    let space = new_space(&http, &sb.key, "Side project").await;
    let stage_list = stages(&http, &sb.key, &space).await;
    let (s, v) = http
        .post(&sb.key, "/cards", json!({"title": "One", "platform": "x", "spaceId": space}))
        .await;
    assert_eq!(s, 200, "{v}");
    let card = v["post"]["id"].as_str().unwrap().to_string();
    let (s, _) = http.post(&sb.key, "/archive", json!({"assetType": "card", "id": card})).await;
    assert_eq!(s, 200);
    let (s, v) = http.delete(&sb.key, &format!("/spaces/{space}"), None).await;
    assert_eq!(s, 400, "{v}");
    assert_eq!(v["field"], "id");
    assert!(msg(&v).contains("1 card"), "names the count: {v}");
    let (s, _) = http.get(&sb.key, &format!("/spaces/{space}")).await;
    assert_eq!(s, 200, "nothing was deleted");

    // Move the card out, and the empty space goes with its stages.
    let home = default_space(&http, &sb.key).await;
    let (s, v) = http.patch(&sb.key, &format!("/cards/{card}"), json!({"spaceId": home})).await;
    assert_eq!(s, 200, "{v}");
    let (s, v) = http.delete(&sb.key, &format!("/spaces/{space}"), None).await;
    assert_eq!(s, 200, "{v}");
    assert_eq!(v["id"], space);
    let (s, _) = http.get(&sb.key, &format!("/spaces/{space}")).await;
    assert_eq!(s, 404);
    assert!(!stage_list.is_empty());
    let (s, _) = http.get(&sb.key, &format!("/stages?space_id={space}")).await;
    assert_eq!(s, 404, "its stages are gone with it");
    // Another account's space is not found, and the write needs planner:write.
    let (_, other) = sb.other_account(0.0);
    let (s, _) = http.delete(&other, &format!("/spaces/{home}"), None).await;
    assert_eq!(s, 404);
}

#[tokio::test]
async fn spaces_list_and_read_with_post_count_of_live_cards() {
    let sb = TestSandbox::start().await;
    let http = Http::new(&sb);
    let (s, v) = http.get(&sb.key, "/spaces").await;
    assert_eq!(s, 200, "{v}");
    let space = &v["spaces"][0];
    assert_eq!(space["name"], "Content plan");
    let count = space["postCount"].as_i64().unwrap();
    assert!(count >= 24);
    let id = space["id"].as_str().unwrap();
    let (_, cards) = http.get(&sb.key, "/cards?limit=1").await;
    let card = cards["cards"][0]["id"].clone();
    let (s, _) = http
        .post(
            &sb.key,
            "/archive",
            json!({"assetType": "card", "id": card}),
        )
        .await;
    assert_eq!(s, 200);
    let (s, v) = http.get(&sb.key, &format!("/spaces/{id}")).await;
    assert_eq!(s, 200, "{v}");
    assert_eq!(
        v["space"]["postCount"],
        count - 1,
        "archived cards are not counted"
    );
}

#[tokio::test]
async fn create_space_with_cover_and_patch_cover_url_null_removes_cover_and_framing() {
    let sb = TestSandbox::start().await;
    let http = Http::new(&sb);
    let (s, v) = http
        .post(
            &sb.key,
            "/spaces",
            json!({"name": "Launch", "cover_url": "https://example.com/c.jpg", "cover_position": {"x": 40, "y": 60}}),
        )
        .await;
    assert_eq!(s, 200, "{v}");
    assert_eq!(v["space"]["coverUrl"], "https://example.com/c.jpg");
    assert_eq!(v["space"]["coverPosition"], json!({"x": 40.0, "y": 60.0}));
    let id = v["space"]["id"].as_str().unwrap().to_string();
    // camelCase is accepted too.
    let (s, v) = http
        .patch(
            &sb.key,
            &format!("/spaces/{id}"),
            json!({"name": "Launch 2", "coverPosition": {"x": 10, "y": 10}}),
        )
        .await;
    assert_eq!(s, 200, "{v}");
    assert_eq!(v["space"]["name"], "Launch 2");
    let (s, v) = http
        .patch(
            &sb.key,
            &format!("/spaces/{id}"),
            json!({"cover_url": null}),
        )
        .await;
    assert_eq!(s, 200, "{v}");
    assert_eq!(v["space"]["coverUrl"], Value::Null);
    assert_eq!(v["space"]["coverPosition"], Value::Null);
    let (s, v) = http.post(&sb.key, "/spaces", json!({"name": "  "})).await;
    assert_eq!(s, 400, "{v}");
    assert_eq!(v["field"], "name");
}

#[tokio::test]
async fn create_space_duplicate_from_copies_stages_only() {
    let sb = TestSandbox::start().await;
    let http = Http::new(&sb);
    let src = default_space(&http, &sb.key).await;
    http.post(
        &sb.key,
        "/stages",
        json!({"name": "Ideas backlog", "space_id": src, "color": "#112233"}),
    )
    .await;
    let (s, v) = http
        .post(
            &sb.key,
            "/spaces",
            json!({"name": "Copy", "duplicate_from": src}),
        )
        .await;
    assert_eq!(s, 200, "{v}");
    let copy = v["space"]["id"].as_str().unwrap().to_string();
    assert_eq!(v["space"]["postCount"], 0, "cards are never copied");
    assert_eq!(
        names(&stages(&http, &sb.key, &copy).await),
        names(&stages(&http, &sb.key, &src).await)
    );
    let (_, cards) = http.get(&sb.key, &format!("/cards?space_id={copy}")).await;
    assert_eq!(cards["total"], 0);
}

#[tokio::test]
async fn archived_spaces_are_listed_only_with_include_archived() {
    let sb = TestSandbox::start().await;
    let http = Http::new(&sb);
    let id = new_space(&http, &sb.key, "Old").await;
    let (s, v) = http
        .post(&sb.key, "/archive", json!({"assetType": "space", "id": id}))
        .await;
    assert_eq!(s, 200, "{v}");
    let (_, v) = http.get(&sb.key, "/spaces").await;
    assert!(!v["spaces"]
        .as_array()
        .unwrap()
        .iter()
        .any(|s| s["id"] == id.as_str()));
    let (_, v) = http.get(&sb.key, "/spaces?include_archived=true").await;
    let found = v["spaces"]
        .as_array()
        .unwrap()
        .iter()
        .find(|s| s["id"] == id.as_str())
        .cloned()
        .unwrap();
    assert!(found["archivedAt"].is_string());
}

#[tokio::test]
async fn another_accounts_space_and_stages_are_404() {
    let sb = TestSandbox::start().await;
    let http = Http::new(&sb);
    let space = default_space(&http, &sb.key).await;
    let stage = stages(&http, &sb.key, &space).await[0]["id"]
        .as_str()
        .unwrap()
        .to_string();
    let (_, other) = sb.other_account(0.0);
    assert_eq!(http.get(&other, &format!("/spaces/{space}")).await.0, 404);
    assert_eq!(
        http.patch(&other, &format!("/spaces/{space}"), json!({"name": "x"}))
            .await
            .0,
        404
    );
    assert_eq!(
        http.get(&other, &format!("/stages?space_id={space}"))
            .await
            .0,
        404
    );
    let (s, _) = http
        .patch(
            &other,
            &format!("/stages/{stage}"),
            json!({"space_id": space, "name": "x"}),
        )
        .await;
    assert_eq!(s, 404);
    let (s, _) = http
        .delete(
            &other,
            &format!("/stages/{stage}"),
            Some(json!({"space_id": space})),
        )
        .await;
    assert_eq!(s, 404);
    // The other account gets a board of its own.
    let (s, v) = http.get(&other, "/spaces").await;
    assert_eq!(s, 200);
    assert!(v["spaces"]
        .as_array()
        .unwrap()
        .iter()
        .all(|s| s["id"] != space.as_str()));
}

#[tokio::test]
async fn planner_writes_without_planner_write_are_403_naming_it() {
    let sb = TestSandbox::start().await;
    let http = Http::new(&sb);
    let space = default_space(&http, &sb.key).await;
    let stage = stages(&http, &sb.key, &space).await[0]["id"]
        .as_str()
        .unwrap()
        .to_string();
    let (_, tags) = http.get(&sb.key, "/tags").await;
    let tag = tags["tags"][0]["id"].as_str().unwrap().to_string();
    let key = sb.key_with(&[
        PIPELINE_WRITE,
        PUBLISH_WRITE,
        ASSETS_WRITE,
        FAVORITES_WRITE,
        EDITOR_WRITE,
    ]);
    let calls = [
        ("POST", "/spaces".to_string(), json!({"name": "x"})),
        ("PATCH", format!("/spaces/{space}"), json!({"name": "x"})),
        ("POST", "/stages".to_string(), json!({"name": "x"})),
        (
            "PATCH",
            format!("/stages/{stage}"),
            json!({"space_id": space}),
        ),
        (
            "DELETE",
            format!("/stages/{stage}"),
            json!({"space_id": space}),
        ),
        ("POST", "/tags".to_string(), json!({"name": "x"})),
        ("PATCH", format!("/tags/{tag}"), json!({"name": "x"})),
        ("DELETE", format!("/tags/{tag}"), json!({})),
    ];
    for (method, path, body) in calls {
        let (s, v) = http.send(method, &key, &path, Some(body)).await;
        assert_eq!(s, 403, "{method} {path}: {v}");
        assert!(msg(&v).contains(PLANNER_WRITE), "{method} {path}: {v}");
    }
}
