//! cards_rules: rule 4: exactly one reference per asset entry.
use super::*;


#[tokio::test]
async fn patch_assets_entry_with_two_references_is_400() {
    let sb = TestSandbox::start().await;
    let http = Http::new(&sb);
    let card = new_card(&http, &sb.key).await;
    let c = contents(&sb);
    let (s, v) = patch(
        &http,
        &sb.key,
        &card,
        json!({"assets": [{"assetUrl": "https://example.com/x.jpg"}, {"assetUrl": "https://example.com/y.jpg", "contentId": c[0]}]}),
    )
    .await;
    assert_eq!(s, 400, "{v}");
    assert_eq!(v["field"], "assets[1]");
    assert!(
        msg(&v).contains("assets[1]") && msg(&v).contains("exactly one"),
        "{v}"
    );
}

#[tokio::test]
async fn patch_assets_entry_with_no_reference_is_400() {
    let sb = TestSandbox::start().await;
    let http = Http::new(&sb);
    let card = new_card(&http, &sb.key).await;
    let (s, v) = patch(
        &http,
        &sb.key,
        &card,
        json!({"assets": [{"displayName": "nothing"}]}),
    )
    .await;
    assert_eq!(s, 400, "{v}");
    assert_eq!(v["field"], "assets[0]");
    assert!(msg(&v).contains("none"), "{v}");
}

// ---------- rule 5: nothing named twice ----------

#[tokio::test]
async fn patch_same_post_platform_twice_is_400_naming_posts_i() {
    let sb = TestSandbox::start().await;
    let http = Http::new(&sb);
    let card = new_card(&http, &sb.key).await;
    let (s, v) = patch(
        &http,
        &sb.key,
        &card,
        json!({"posts": [{"platform": "x"}, {"platform": "tiktok"}, {"platform": "x"}]}),
    )
    .await;
    assert_eq!(s, 400, "{v}");
    assert_eq!(v["field"], "posts[2]");
    assert!(msg(&v).contains("posts[2]"), "{v}");
}

#[tokio::test]
async fn patch_same_project_twice_is_400_naming_assets_i() {
    let sb = TestSandbox::start().await;
    let http = Http::new(&sb);
    let card = new_card(&http, &sb.key).await;
    let (_, p) = http
        .post(&sb.key, "/projects", json!({"title": "Twice"}))
        .await;
    let project = p["project"]["id"].as_str().unwrap();
    let (s, v) = patch(
        &http,
        &sb.key,
        &card,
        json!({"assets": [{"projectId": project}, {"projectId": project}]}),
    )
    .await;
    assert_eq!(s, 400, "{v}");
    assert_eq!(v["field"], "assets[1]");
}

#[tokio::test]
async fn patch_same_file_twice_is_400_naming_assets_i() {
    let sb = TestSandbox::start().await;
    let http = Http::new(&sb);
    let card = new_card(&http, &sb.key).await;
    let url = "https://example.com/same.jpg";
    let (s, v) = patch(
        &http,
        &sb.key,
        &card,
        json!({"assets": [{"assetUrl": url}, {"assetUrl": url}]}),
    )
    .await;
    assert_eq!(s, 400, "{v}");
    assert_eq!(v["field"], "assets[1]");
    // The same output, by its full id and by its short token.
    let out = output(&sb, "image");
    let (s, v) = patch(
        &http,
        &sb.key,
        &card,
        json!({"assets": [{"outputId": out}, {"outputId": format!("{}-1", &out[..8])}]}),
    )
    .await;
    assert_eq!(s, 400, "{v}");
    assert_eq!(v["field"], "assets[1]");
}

#[tokio::test]
async fn patch_same_content_twice_is_400_naming_assets_i() {
    let sb = TestSandbox::start().await;
    let http = Http::new(&sb);
    let card = new_card(&http, &sb.key).await;
    let c = contents(&sb);
    let (s, v) = patch(
        &http,
        &sb.key,
        &card,
        json!({"assets": [{"contentId": c[0]}, {"contentId": c[0]}]}),
    )
    .await;
    assert_eq!(s, 400, "{v}");
    assert_eq!(v["field"], "assets[1]");
}

#[tokio::test]
async fn patch_same_asset_id_twice_is_400_naming_assets_i() {
    let sb = TestSandbox::start().await;
    let http = Http::new(&sb);
    let card = new_card(&http, &sb.key).await;
    let (_, v) = patch(&http, &sb.key, &card, json!({"assets": links(1)})).await;
    let a = ids(&v["post"]["assets"]);
    let (s, v) = patch(
        &http,
        &sb.key,
        &card,
        json!({"assets": [{"id": a[0]}, {"id": a[0]}]}),
    )
    .await;
    assert_eq!(s, 400, "{v}");
    assert_eq!(v["field"], "assets[1]");
    // Keeping an asset by id and naming its link again is the same asset twice.
    let (s, v) = patch(
        &http,
        &sb.key,
        &card,
        json!({"assets": [{"id": a[0]}, {"assetUrl": "https://example.com/a0.jpg"}]}),
    )
    .await;
    assert_eq!(s, 400, "{v}");
    assert_eq!(v["field"], "assets[1]");
}

// ---------- rule 6: inspiration by contentId only ----------

#[tokio::test]
async fn patch_inspiration_asset_by_asset_url_is_400_naming_content_id() {
    let sb = TestSandbox::start().await;
    let http = Http::new(&sb);
    let card = new_card(&http, &sb.key).await;
    let (s, v) = patch(
        &http,
        &sb.key,
        &card,
        json!({"assets": [{"assetType": "inspiration", "assetUrl": "https://www.instagram.com/p/abc"}]}),
    )
    .await;
    assert_eq!(s, 400, "{v}");
    assert!(v["field"].as_str().unwrap().contains("contentId"), "{v}");
    assert!(msg(&v).contains("contentId"), "{v}");
}

#[tokio::test]
async fn patch_project_asset_type_without_project_id_is_400_naming_project_id() {
    let sb = TestSandbox::start().await;
    let http = Http::new(&sb);
    let card = new_card(&http, &sb.key).await;
    let (s, v) = patch(
        &http,
        &sb.key,
        &card,
        json!({"assets": [{"assetType": "project", "assetUrl": "https://example.com/p"}]}),
    )
    .await;
    assert_eq!(s, 400, "{v}");
    assert_eq!(v["field"], "assets[0].projectId");
}

// ---------- rule 7: what the caller cannot see ----------

#[tokio::test]
async fn patch_content_id_the_caller_cannot_see_is_404() {
    let sb = TestSandbox::start().await;
    let http = Http::new(&sb);
    let card = new_card(&http, &sb.key).await;
    let (s, v) = patch(
        &http,
        &sb.key,
        &card,
        json!({"assets": [{"contentId": uuid::Uuid::new_v4().to_string()}]}),
    )
    .await;
    assert_eq!(s, 404, "{v}");
    // The demo account's post is invisible to another account.
    let (_, other) = sb.other_account(0.0);
    let theirs = new_card(&http, &other).await;
    let (s, v) = patch(
        &http,
        &other,
        &theirs,
        json!({"assets": [{"contentId": contents(&sb)[0]}]}),
    )
    .await;
    assert_eq!(s, 404, "{v}");
}

#[tokio::test]
async fn patch_project_not_the_callers_is_404() {
    let sb = TestSandbox::start().await;
    let http = Http::new(&sb);
    let card = new_card(&http, &sb.key).await;
    let (_, other) = sb.other_account(0.0);
    let (s, p) = http
        .post(&other, "/projects", json!({"title": "Theirs"}))
        .await;
    assert_eq!(s, 200, "{p}");
    let (s, v) = patch(
        &http,
        &sb.key,
        &card,
        json!({"assets": [{"projectId": p["project"]["id"]}]}),
    )
    .await;
    assert_eq!(s, 404, "{v}");
    assert!(msg(&v).contains("Project not found"));
}

#[tokio::test]
async fn patch_asset_id_not_on_this_card_is_400() {
    let sb = TestSandbox::start().await;
    let http = Http::new(&sb);
    let a = new_card(&http, &sb.key).await;
    let b = new_card(&http, &sb.key).await;
    let (_, v) = patch(&http, &sb.key, &a, json!({"assets": links(1)})).await;
    let on_a = ids(&v["post"]["assets"]);
    let (s, v) = patch(&http, &sb.key, &b, json!({"assets": [{"id": on_a[0]}]})).await;
    assert_eq!(s, 400, "{v}");
    assert_eq!(v["field"], "assets[0]");
}

#[tokio::test]
async fn another_accounts_card_is_404() {
    let sb = TestSandbox::start().await;
    let http = Http::new(&sb);
    let card = new_card(&http, &sb.key).await;
    let (_, other) = sb.other_account(0.0);
    assert_eq!(http.get(&other, &format!("/cards/{card}")).await.0, 404);
    assert_eq!(
        patch(&http, &other, &card, json!({"title": "mine now"}))
            .await
            .0,
        404
    );
    assert_eq!(
        http.post(&other, &format!("/cards/{card}/publish"), json!({}))
            .await
            .0,
        404
    );
    let (s, v) = http.get(&other, "/cards").await;
    assert_eq!(s, 200);
    assert_eq!(v["total"], 0, "another account's board is its own");
}
