//! cards_rules: rule 1: posts and assets are declarative.
use super::*;


#[tokio::test]
async fn patch_posts_declarative_left_out_post_is_removed() {
    let sb = TestSandbox::start().await;
    let http = Http::new(&sb);
    let card = new_card(&http, &sb.key).await;
    let (s, v) = patch(
        &http,
        &sb.key,
        &card,
        json!({"posts": [{"platform": "instagram"}, {"platform": "tiktok"}]}),
    )
    .await;
    assert_eq!(s, 200, "{v}");
    let ig = v["post"]["posts"][0]["id"].clone();
    let (s, v) = patch(
        &http,
        &sb.key,
        &card,
        json!({"posts": [{"platform": "instagram"}]}),
    )
    .await;
    assert_eq!(s, 200, "{v}");
    let posts = v["post"]["posts"].as_array().unwrap();
    assert_eq!(posts.len(), 1);
    assert_eq!(posts[0]["platform"], "instagram");
    assert_eq!(posts[0]["id"], ig, "a post kept by platform keeps its id");
    assert_eq!(v["post"]["platforms"], json!(["instagram"]));
}

#[tokio::test]
async fn patch_posts_empty_list_detaches_every_post() {
    let sb = TestSandbox::start().await;
    let http = Http::new(&sb);
    let card = new_card(&http, &sb.key).await;
    let (s, v) = patch(
        &http,
        &sb.key,
        &card,
        json!({"posts": [{"platform": "instagram"}, {"platform": "x"}]}),
    )
    .await;
    assert_eq!(s, 200, "setup: {v}");
    assert_eq!(v["post"]["posts"].as_array().unwrap().len(), 2, "two posts to detach: {v}");
    let (s, v) = patch(&http, &sb.key, &card, json!({"posts": []})).await;
    assert_eq!(s, 200, "{v}");
    assert_eq!(v["post"]["posts"], json!([]));
}

#[tokio::test]
async fn patch_assets_declarative_left_out_asset_is_removed_and_empty_list_clears() {
    let sb = TestSandbox::start().await;
    let http = Http::new(&sb);
    let card = new_card(&http, &sb.key).await;
    let (s, v) = patch(&http, &sb.key, &card, json!({"assets": links(3)})).await;
    assert_eq!(s, 200, "{v}");
    let a = ids(&v["post"]["assets"]);
    let (s, v) = patch(
        &http,
        &sb.key,
        &card,
        json!({"assets": [{"id": a[0]}, {"id": a[2]}]}),
    )
    .await;
    assert_eq!(s, 200, "{v}");
    assert_eq!(ids(&v["post"]["assets"]), vec![a[0].clone(), a[2].clone()]);
    // Leaving `assets` out changes nothing; `[]` clears.
    let (_, v) = patch(&http, &sb.key, &card, json!({"title": "Still two"})).await;
    assert_eq!(v["post"]["assets"].as_array().unwrap().len(), 2);
    let (s, v) = patch(&http, &sb.key, &card, json!({"assets": []})).await;
    assert_eq!(s, 200, "{v}");
    assert_eq!(v["post"]["assets"], json!([]));
}

// ---------- rule 2: assets order is the carousel order ----------

#[tokio::test]
async fn patch_assets_order_is_carousel_order_reorder_by_sending_same_ids() {
    let sb = TestSandbox::start().await;
    let http = Http::new(&sb);
    let card = new_card(&http, &sb.key).await;
    let (_, v) = patch(&http, &sb.key, &card, json!({"assets": links(3)})).await;
    let a = ids(&v["post"]["assets"]);
    assert_eq!(
        v["post"]["assets"][0]["assetUrl"],
        "https://example.com/a0.jpg"
    );
    let (s, v) = patch(
        &http,
        &sb.key,
        &card,
        json!({"assets": [{"id": a[2]}, {"id": a[0]}, {"id": a[1]}]}),
    )
    .await;
    assert_eq!(s, 200, "{v}");
    assert_eq!(
        ids(&v["post"]["assets"]),
        vec![a[2].clone(), a[0].clone(), a[1].clone()]
    );
    assert_eq!(
        ids(&read(&http, &sb.key, &card).await["assets"]),
        vec![a[2].clone(), a[0].clone(), a[1].clone()]
    );
}

// ---------- rule 3: scheduledAt sets the card and every post ----------

#[tokio::test]
async fn patch_scheduled_at_sets_the_card_and_every_post() {
    let sb = TestSandbox::start().await;
    let http = Http::new(&sb);
    let card = new_card(&http, &sb.key).await;
    let (s, v) = patch(
        &http,
        &sb.key,
        &card,
        json!({"posts": [{"platform": "instagram", "scheduledAt": "2031-04-01T08:00:00Z"}, {"platform": "tiktok"}]}),
    )
    .await;
    assert_eq!(s, 200, "setup: {v}");
    let (s, v) = patch(
        &http,
        &sb.key,
        &card,
        json!({"scheduledAt": "2031-05-01T09:00:00Z"}),
    )
    .await;
    assert_eq!(s, 200, "{v}");
    assert_eq!(
        when(&v["post"]["scheduledAt"]),
        when(&json!("2031-05-01T09:00:00Z"))
    );
    let posts = v["post"]["posts"].as_array().unwrap();
    assert_eq!(posts.len(), 2, "both posts are there to check: {v}");
    for p in posts {
        // The instagram post's own time is replaced too: the card's time applies to every post.
        assert_eq!(
            when(&p["scheduledAt"]),
            when(&json!("2031-05-01T09:00:00Z")),
            "{p}"
        );
        assert!(p.get("hasOwnSchedule").is_none(), "no sandbox-only flag: {p}");
    }
}

#[tokio::test]
async fn patch_post_own_scheduled_at_overrides_the_card_time() {
    let sb = TestSandbox::start().await;
    let http = Http::new(&sb);
    let card = new_card(&http, &sb.key).await;
    let (s, v) = patch(
        &http,
        &sb.key,
        &card,
        json!({"scheduledAt": "2031-05-01T09:00:00Z",
               "posts": [{"platform": "instagram"}, {"platform": "tiktok", "scheduledAt": "2031-05-01T11:30:00+00:00"}]}),
    )
    .await;
    assert_eq!(s, 200, "{v}");
    let posts = &v["post"]["posts"];
    assert_eq!(
        when(&posts[0]["scheduledAt"]),
        when(&json!("2031-05-01T09:00:00Z"))
    );
    assert_eq!(
        when(&posts[1]["scheduledAt"]),
        when(&json!("2031-05-01T11:30:00Z"))
    );
    // A later card time applies to every post again.
    let (_, v) = patch(
        &http,
        &sb.key,
        &card,
        json!({"scheduledAt": "2031-06-01T09:00:00Z"}),
    )
    .await;
    assert_eq!(
        when(&v["post"]["posts"][1]["scheduledAt"]),
        when(&json!("2031-06-01T09:00:00Z"))
    );
}

#[tokio::test]
async fn patch_scheduled_at_null_clears_the_card_and_every_post() {
    let sb = TestSandbox::start().await;
    let http = Http::new(&sb);
    let card = new_card(&http, &sb.key).await;
    let (s, v) = patch(
        &http,
        &sb.key,
        &card,
        json!({"scheduledAt": "2031-05-01T09:00:00Z", "posts": [{"platform": "x", "scheduledAt": "2031-05-02T09:00:00Z"}]}),
    )
    .await;
    assert_eq!(s, 200, "setup: {v}");
    assert!(v["post"]["scheduledAt"].is_string() && v["post"]["posts"][0]["scheduledAt"].is_string(), "setup: {v}");
    let (s, v) = patch(&http, &sb.key, &card, json!({"scheduledAt": null})).await;
    assert_eq!(s, 200, "{v}");
    assert_eq!(v["post"]["scheduledAt"], Value::Null);
    assert_eq!(v["post"]["posts"].as_array().unwrap().len(), 1, "{v}");
    assert_eq!(v["post"]["posts"][0]["scheduledAt"], Value::Null);
}

#[tokio::test]
async fn patch_invalid_scheduled_at_is_400_naming_the_field() {
    let sb = TestSandbox::start().await;
    let http = Http::new(&sb);
    let card = new_card(&http, &sb.key).await;
    let (s, v) = patch(
        &http,
        &sb.key,
        &card,
        json!({"scheduledAt": "next tuesday"}),
    )
    .await;
    assert_eq!(s, 400, "{v}");
    assert_eq!(v["field"], "scheduledAt");
    assert!(msg(&v).contains("scheduledAt"));
    let (s, v) = patch(
        &http,
        &sb.key,
        &card,
        json!({"posts": [{"platform": "x"}, {"platform": "tiktok", "scheduledAt": "2031-13-40"}]}),
    )
    .await;
    assert_eq!(s, 400, "{v}");
    assert_eq!(v["field"], "posts[1].scheduledAt");
    // Nothing of the refused write landed.
    assert_eq!(read(&http, &sb.key, &card).await["posts"], json!([]));
}
