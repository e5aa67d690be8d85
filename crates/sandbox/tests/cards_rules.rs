//! Cards over real HTTP: every `PATCH /cards/{id}` rule of the spec (section 4, rules 1–8) has a test
//! named after it, plus notes concurrency, moving, reads, lists, publishing and scopes.
mod common;
use api_types::scopes::*;
use common::{msg, Http, TestSandbox};
use serde_json::{json, Value};

/// A finished demo output of the demo account (the studio seed renders one image and one video).
fn output(sb: &TestSandbox, content_type: &str) -> String {
    let conn = sb.state().db().lock();
    conn.query_row(
        "SELECT id FROM generations WHERE account_id = ?1 AND status = 'completed' AND content_type = ?2 LIMIT 1",
        rusqlite::params![sb.account_id, content_type],
        |r| r.get(0),
    )
    .expect("a finished demo output")
}

/// Tracked posts of the demo account (the inspiration seed).
fn contents(sb: &TestSandbox) -> Vec<String> {
    let conn = sb.state().db().lock();
    let mut stmt = conn
        .prepare("SELECT id FROM tracked_content WHERE account_id = ?1 ORDER BY id")
        .unwrap();
    let ids: Vec<String> = stmt
        .query_map([&sb.account_id], |r| r.get(0))
        .unwrap()
        .map(Result::unwrap)
        .collect();
    assert!(ids.len() >= 2, "the inspiration seed has posts");
    ids
}

fn connected(sb: &TestSandbox, platform: &str) -> String {
    let conn = sb.state().db().lock();
    conn.query_row(
        "SELECT id FROM connected_accounts WHERE account_id = ?1 AND platform = ?2",
        rusqlite::params![sb.account_id, platform],
        |r| r.get(0),
    )
    .expect("a demo connected account")
}

/// A new, empty card of the demo account.
async fn new_card(http: &Http, key: &str) -> String {
    let (s, v) = http
        .post(
            key,
            "/cards",
            json!({"title": "Rule test", "platform": "instagram"}),
        )
        .await;
    assert_eq!(s, 200, "{v}");
    v["post"]["id"].as_str().unwrap().to_string()
}

async fn patch(http: &Http, key: &str, card: &str, body: Value) -> (u16, Value) {
    http.patch(key, &format!("/cards/{card}"), body).await
}

async fn read(http: &Http, key: &str, card: &str) -> Value {
    let (s, v) = http.get(key, &format!("/cards/{card}")).await;
    assert_eq!(s, 200, "{v}");
    v["post"].clone()
}

/// A time on the wire, compared as an instant (the wire form carries milliseconds).
fn when(v: &Value) -> Option<time::OffsetDateTime> {
    contentdesk_sandbox::time::parse(v.as_str()?)
}

fn ids(list: &Value) -> Vec<String> {
    list.as_array()
        .unwrap()
        .iter()
        .map(|a| a["id"].as_str().unwrap().to_string())
        .collect()
}

fn links(n: usize) -> Vec<Value> {
    (0..n)
        .map(|i| json!({"assetUrl": format!("https://example.com/a{i}.jpg")}))
        .collect()
}

// ---------- rule 1: posts and assets are declarative ----------

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

// ---------- rule 4: exactly one reference per asset entry ----------

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

// ---------- rule 8: scopes ----------

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

// ---------- reads ----------

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
