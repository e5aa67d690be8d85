//! cards_rules: rule 8: scopes.
use super::*;


#[tokio::test]
async fn patch_without_planner_write_is_403_naming_it() {
    let sb = TestSandbox::start().await;
    let http = Http::new(&sb);
    let card = new_card(&http, &sb.key).await;
    let key = sb.key_with(&[PIPELINE_WRITE, PUBLISH_WRITE, ASSETS_WRITE]);
    let (s, v) = patch(&http, &key, &card, json!({"title": "x"})).await;
    assert_eq!(s, 403, "{v}");
    assert!(msg(&v).contains(PLANNER_WRITE));
    let (s, v) = http
        .post(&key, "/cards", json!({"title": "x", "platform": "x"}))
        .await;
    assert_eq!(s, 403, "{v}");
    assert!(msg(&v).contains(PLANNER_WRITE));
}

#[tokio::test]
async fn patch_with_posts_needs_pipeline_write() {
    let sb = TestSandbox::start().await;
    let http = Http::new(&sb);
    let card = new_card(&http, &sb.key).await;
    let key = sb.key_with(&[PLANNER_WRITE]);
    let (s, v) = patch(&http, &key, &card, json!({"posts": [{"platform": "x"}]})).await;
    assert_eq!(s, 403, "{v}");
    assert!(msg(&v).contains(PIPELINE_WRITE));
    assert_eq!(v["scope"], PIPELINE_WRITE);
    let key = sb.key_with(&[PLANNER_WRITE, PIPELINE_WRITE]);
    assert_eq!(
        patch(&http, &key, &card, json!({"posts": [{"platform": "x"}]}))
            .await
            .0,
        200
    );
}

#[tokio::test]
async fn patch_setting_scheduled_at_needs_publish_write() {
    let sb = TestSandbox::start().await;
    let http = Http::new(&sb);
    let card = new_card(&http, &sb.key).await;
    let key = sb.key_with(&[PLANNER_WRITE, PIPELINE_WRITE]);
    let (s, v) = patch(
        &http,
        &key,
        &card,
        json!({"scheduledAt": "2031-01-01T10:00:00Z"}),
    )
    .await;
    assert_eq!(s, 403, "{v}");
    assert!(msg(&v).contains(PUBLISH_WRITE));
    // A post's own time is scheduling too.
    let (s, v) = patch(
        &http,
        &key,
        &card,
        json!({"posts": [{"platform": "x", "scheduledAt": "2031-01-01T10:00:00Z"}]}),
    )
    .await;
    assert_eq!(s, 403, "{v}");
    assert!(msg(&v).contains(PUBLISH_WRITE));
    let key = sb.key_with(&[PLANNER_WRITE, PUBLISH_WRITE]);
    assert_eq!(
        patch(
            &http,
            &key,
            &card,
            json!({"scheduledAt": "2031-01-01T10:00:00Z"})
        )
        .await
        .0,
        200
    );
}

#[tokio::test]
async fn patch_sending_posts_back_unchanged_needs_no_publish_write() {
    let sb = TestSandbox::start().await;
    let http = Http::new(&sb);
    let card = new_card(&http, &sb.key).await;
    let posts = json!([{"platform": "x", "scheduledAt": "2031-01-01T10:00:00Z"}]);
    assert_eq!(
        patch(&http, &sb.key, &card, json!({"posts": posts}))
            .await
            .0,
        200
    );
    // Editing a caption while sending the post's own time back as read schedules nothing new.
    let key = sb.key_with(&[PLANNER_WRITE, PIPELINE_WRITE]);
    let edited = json!([{"platform": "x", "scheduledAt": "2031-01-01T10:00:00.000Z",
                         "platformSpecificData": {"caption": "new caption"}}]);
    let (s, v) = patch(&http, &key, &card, json!({"posts": edited})).await;
    assert_eq!(s, 200, "{v}");
    assert_eq!(
        v["post"]["posts"][0]["platformSettings"]["caption"],
        "new caption"
    );
}

#[tokio::test]
async fn patch_attaching_a_new_output_needs_assets_write() {
    let sb = TestSandbox::start().await;
    let http = Http::new(&sb);
    let card = new_card(&http, &sb.key).await;
    let out = output(&sb, "image");
    let key = sb.key_with(&[PLANNER_WRITE]);
    let (s, v) = patch(&http, &key, &card, json!({"assets": [{"outputId": out}]})).await;
    assert_eq!(s, 403, "{v}");
    assert!(msg(&v).contains(ASSETS_WRITE));
    let (s, v) = patch(&http, &key, &card, json!({"coverOutputId": out})).await;
    assert_eq!(s, 403, "{v}");
    assert!(msg(&v).contains(ASSETS_WRITE));
    // Once attached, keeping or reordering it is a planner write only.
    let (s, v) = patch(
        &http,
        &sb.key,
        &card,
        json!({"assets": [{"outputId": out}]}),
    )
    .await;
    assert_eq!(s, 200, "{v}");
    let (s, v) = patch(
        &http,
        &key,
        &card,
        json!({"assets": [{"assetUrl": "https://example.com/l.jpg"}, {"outputId": out}]}),
    )
    .await;
    assert_eq!(s, 200, "{v}");
    // Links need no assets:write.
    assert_eq!(v["post"]["assets"][1]["outputId"], out);
}

#[tokio::test]
async fn publish_without_publish_write_is_403() {
    let sb = TestSandbox::start().await;
    let http = Http::new(&sb);
    let card = new_card(&http, &sb.key).await;
    let key = sb.key_with(&[PLANNER_WRITE, PIPELINE_WRITE]);
    let (s, v) = http
        .post(&key, &format!("/cards/{card}/publish"), json!({}))
        .await;
    assert_eq!(s, 403, "{v}");
    assert!(msg(&v).contains(PUBLISH_WRITE));
}

// ---------- notes ----------

#[tokio::test]
async fn patch_notes_without_expected_revision_is_400() {
    let sb = TestSandbox::start().await;
    let http = Http::new(&sb);
    let card = new_card(&http, &sb.key).await;
    let (s, v) = patch(&http, &sb.key, &card, json!({"notes": "hello"})).await;
    assert_eq!(s, 400, "{v}");
    assert_eq!(v["field"], "expectedRevision");
    assert!(msg(&v).contains("expectedRevision"));
}

#[tokio::test]
async fn patch_notes_change_increments_revision_and_stale_revision_is_409_with_current_notes() {
    let sb = TestSandbox::start().await;
    let http = Http::new(&sb);
    let card = new_card(&http, &sb.key).await;
    let rev = read(&http, &sb.key, &card).await["revision"]
        .as_i64()
        .unwrap();
    let (s, v) = patch(
        &http,
        &sb.key,
        &card,
        json!({"notes": "first", "expectedRevision": rev}),
    )
    .await;
    assert_eq!(s, 200, "{v}");
    assert_eq!(v["post"]["notes"], "first");
    assert_eq!(v["post"]["revision"], rev + 1);
    // A writer still holding the old revision is told what is there now; nothing is written.
    let (s, v) = patch(
        &http,
        &sb.key,
        &card,
        json!({"notes": "second", "expectedRevision": rev, "title": "T"}),
    )
    .await;
    assert_eq!(s, 409, "{v}");
    assert_eq!(v["notes"], "first");
    assert_eq!(v["revision"], rev + 1);
    let now = read(&http, &sb.key, &card).await;
    assert_eq!(now["notes"], "first");
    assert_eq!(now["title"], "Rule test");
}
