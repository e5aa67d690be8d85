//! Inspiration over real HTTP: tracked accounts and their content, filters, sorting, paging, both query
//! spellings, ownership, scopes, and the figures a card gets for a post attached by `contentId`.
mod common;
use api_types::scopes;
use common::{msg, Http, TestSandbox};
use serde_json::Value;

fn ids(v: &Value, list: &str) -> Vec<String> {
    v[list]
        .as_array()
        .unwrap()
        .iter()
        .map(|x| x["id"].as_str().unwrap().to_string())
        .collect()
}

#[tokio::test]
async fn accounts_list_filters_by_type_and_brand_kit() {
    let sb = TestSandbox::start().await;
    let http = Http::new(&sb);
    let (s, v) = http.get(&sb.key, "/accounts").await;
    assert_eq!(s, 200, "{v}");
    let accounts = v["accounts"].as_array().unwrap();
    assert_eq!(accounts.len(), 8);
    let count = |t: &str| accounts.iter().filter(|a| a["accountType"] == t).count();
    assert_eq!((count("inspiration"), count("brand")), (6, 2));
    assert!(
        accounts.iter().any(|a| a["platform"] == "youtube")
            && accounts.iter().any(|a| a["platform"] == "instagram")
    );
    assert!(accounts[0]["handle"].as_str().unwrap().starts_with('@'));
    assert!(accounts[0]["followerCount"].as_i64().unwrap() > 0);
    let (_, v) = http.get(&sb.key, "/accounts?account_type=brand").await;
    assert_eq!(v["accounts"].as_array().unwrap().len(), 2);
    let (_, v) = http.get(&sb.key, "/accounts?accountType=inspiration").await;
    assert_eq!(v["accounts"].as_array().unwrap().len(), 6);
    let (_, kits) = http.get(&sb.key, "/brand-kits").await;
    let (demo, other) = (
        kits["brandKits"][0]["id"].as_str().unwrap(),
        kits["brandKits"][1]["id"].as_str().unwrap(),
    );
    let (_, v) = http
        .get(
            &sb.key,
            &format!("/accounts?brand_kit_id={demo}&account_type=brand"),
        )
        .await;
    assert_eq!(v["accounts"].as_array().unwrap().len(), 2);
    let (_, v) = http
        .get(&sb.key, &format!("/accounts?brand_kit_id={other}"))
        .await;
    assert!(v["accounts"].as_array().unwrap().is_empty());
    // The full kit read lists the same accounts, brand and inspiration apart (facts 3.x BrandKit).
    let (_, kit) = http.get(&sb.key, &format!("/brand-kits/{demo}")).await;
    let (_, linked) = http.get(&sb.key, &format!("/accounts?brand_kit_id={demo}")).await;
    let ids = |v: &serde_json::Value| -> Vec<String> {
        let mut ids: Vec<String> = v.as_array().unwrap().iter().map(|a| a["id"].as_str().unwrap().to_string()).collect();
        ids.sort();
        ids
    };
    let mut on_kit = [ids(&kit["brandAccounts"]), ids(&kit["inspirationAccounts"])].concat();
    on_kit.sort();
    assert_eq!(on_kit, ids(&linked["accounts"]), "{kit}");
    assert_eq!(kit["brandAccounts"].as_array().unwrap().len(), 2, "{kit}");
    assert!(kit["brandAccounts"].as_array().unwrap().iter().all(|a| a["accountType"] == "brand"));
    assert!(kit["inspirationAccounts"].as_array().unwrap().iter().all(|a| a["accountType"] == "inspiration"));
    assert!(kit.get("extractionStatus").is_none(), "the sandbox never extracts: {kit}");
    let (_, other_kit) = http.get(&sb.key, &format!("/brand-kits/{other}")).await;
    assert_eq!(other_kit["brandAccounts"], serde_json::json!([]));
    let (s, v) = http.get(&sb.key, "/accounts?account_type=rival").await;
    assert_eq!(s, 400, "{v}");
    assert_eq!(v["field"], "account_type");
    assert!(msg(&v).contains("inspiration, brand"));
}

#[tokio::test]
async fn account_detail_has_totals_averages_top_and_recent() {
    let sb = TestSandbox::start().await;
    let http = Http::new(&sb);
    let (_, v) = http
        .get(&sb.key, "/accounts?account_type=inspiration")
        .await;
    let id = v["accounts"][0]["id"].as_str().unwrap().to_string();
    let (s, d) = http.get(&sb.key, &format!("/accounts/{id}")).await;
    assert_eq!(s, 200, "{d}");
    assert_eq!(d["account"]["id"], id.as_str());
    let (_, all) = http
        .get(&sb.key, &format!("/content?account_ids={id}&limit=100"))
        .await;
    let posts = all["outliers"].as_array().unwrap();
    assert_eq!(d["contentCount"].as_i64().unwrap(), posts.len() as i64);
    let views: i64 = posts.iter().map(|p| p["viewCount"].as_i64().unwrap()).sum();
    assert_eq!(d["totals"]["views"].as_i64().unwrap(), views);
    assert!(
        d["totals"]["likes"].as_i64().unwrap() > 0 && d["totals"]["comments"].as_i64().unwrap() > 0
    );
    let avg = d["averages"]["views"].as_f64().unwrap();
    assert!((avg - views as f64 / posts.len() as f64).abs() < 0.01);
    assert!(d["averages"]["engagementRate"].as_f64().unwrap() > 0.0);
    assert!(d["averages"]["outlierScore"].as_f64().unwrap() > 0.0);
    let top = d["topContent"].as_array().unwrap();
    assert!(!top.is_empty() && top.len() <= 5);
    let scores: Vec<f64> = top
        .iter()
        .map(|p| p["outlierScore"].as_f64().unwrap())
        .collect();
    assert!(scores.windows(2).all(|w| w[0] >= w[1]), "{scores:?}");
    let recent: Vec<&str> = d["recentContent"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| p["publishedAt"].as_str().unwrap())
        .collect();
    assert!(recent.windows(2).all(|w| w[0] >= w[1]), "{recent:?}");
    assert_eq!(http.get(&sb.key, "/accounts/nope").await.0, 404);
}

#[tokio::test]
async fn content_list_pages_with_total_and_has_more() {
    let sb = TestSandbox::start().await;
    let http = Http::new(&sb);
    let (s, v) = http.get(&sb.key, "/content").await;
    assert_eq!(s, 200, "{v}");
    let total = v["total"].as_i64().unwrap();
    assert!(total >= 40, "{total}");
    assert_eq!(v["outliers"].as_array().unwrap().len(), 20, "default limit");
    assert_eq!(v["hasMore"], true);
    let first = &v["outliers"][0];
    for field in [
        "title",
        "url",
        "thumbnailUrl",
        "publishedAt",
        "sourceCreator",
        "accountHandle",
        "platform",
        "contentType",
    ] {
        assert!(
            first[field].as_str().is_some_and(|s| !s.is_empty()),
            "{field}: {first}"
        );
    }
    for field in ["viewCount", "likeCount", "commentCount"] {
        assert!(first[field].as_i64().unwrap() > 0, "{field}");
    }
    // Default order: outlier score, highest first.
    let scores: Vec<f64> = v["outliers"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| p["outlierScore"].as_f64().unwrap())
        .collect();
    assert!(scores.windows(2).all(|w| w[0] >= w[1]));
    assert!(scores[0] >= 8.0, "a real outlier leads: {scores:?}");
    let mut seen = Vec::new();
    let mut offset = 0;
    loop {
        let (_, page) = http
            .get(&sb.key, &format!("/content?limit=15&offset={offset}"))
            .await;
        seen.extend(ids(&page, "outliers"));
        offset += 15;
        if page["hasMore"] == false {
            break;
        }
    }
    assert_eq!(seen.len() as i64, total);
    seen.sort();
    seen.dedup();
    assert_eq!(seen.len() as i64, total, "pages do not overlap");
    let (_, v) = http.get(&sb.key, "/content?limit=100").await;
    assert_eq!(v["outliers"].as_array().unwrap().len() as i64, total);
    assert_eq!(v["hasMore"], false);
}

#[tokio::test]
async fn content_filters_and_sorts_in_both_spellings() {
    let sb = TestSandbox::start().await;
    let http = Http::new(&sb);
    let all = |v: &Value| v["outliers"].as_array().unwrap().clone();
    let (_, v) = http
        .get(&sb.key, "/content?platform=instagram&limit=100")
        .await;
    assert!(all(&v).iter().all(|p| p["platform"] == "instagram") && !all(&v).is_empty());
    let (_, snake) = http
        .get(
            &sb.key,
            "/content?content_type=reel&outlier_score_min=1.5&limit=100",
        )
        .await;
    let (_, camel) = http
        .get(
            &sb.key,
            "/content?contentType=reel&outlierScoreMin=1.5&limit=100",
        )
        .await;
    assert_eq!(snake, camel);
    assert!(all(&snake)
        .iter()
        .all(|p| p["contentType"] == "reel" && p["outlierScore"].as_f64().unwrap() >= 1.5));
    assert!(!all(&snake).is_empty());
    let (_, v) = http
        .get(
            &sb.key,
            "/content?views_min=100000&sort_by=views&sort_order=asc&limit=100",
        )
        .await;
    let views: Vec<i64> = all(&v)
        .iter()
        .map(|p| p["viewCount"].as_i64().unwrap())
        .collect();
    assert!(
        views.iter().all(|x| *x >= 100_000) && views.windows(2).all(|w| w[0] <= w[1]),
        "{views:?}"
    );
    let (_, v) = http.get(&sb.key, "/content?sortBy=date&limit=100").await;
    let dates: Vec<String> = all(&v)
        .iter()
        .map(|p| p["publishedAt"].as_str().unwrap().to_string())
        .collect();
    assert!(dates.windows(2).all(|w| w[0] >= w[1]));
    let (_, v) = http
        .get(&sb.key, "/content?sort_by=engagement&limit=100")
        .await;
    let eng: Vec<f64> = all(&v)
        .iter()
        .map(|p| p["engagementRate"].as_f64().unwrap())
        .collect();
    assert!(eng.windows(2).all(|w| w[0] >= w[1]));
    let (_, v) = http.get(&sb.key, "/content?scope=brand&limit=100").await;
    assert!(all(&v).iter().all(|p| p["sourceCreator"] == "Demo Studio"));
    assert_eq!(v["total"], 11);
    let (_, v) = http.get(&sb.key, "/content?search=BAKERY&limit=100").await;
    assert!(!all(&v).is_empty());
    assert!(all(&v).iter().all(|p| {
        let t = p["title"].as_str().unwrap().to_lowercase();
        t.contains("bakery")
            || p["sourceCreator"]
                .as_str()
                .unwrap()
                .to_lowercase()
                .contains("bakery")
    }));
    let (_, accounts) = http.get(&sb.key, "/accounts").await;
    let a = accounts["accounts"][0]["id"].as_str().unwrap();
    let b = accounts["accounts"][1]["id"].as_str().unwrap();
    let (_, v) = http
        .get(&sb.key, &format!("/content?account_ids={a},{b}&limit=100"))
        .await;
    assert!(all(&v)
        .iter()
        .all(|p| p["accountId"] == a || p["accountId"] == b));
    let (_, w) = http
        .get(&sb.key, &format!("/content?accountIds={a}&limit=100"))
        .await;
    assert!(w["total"].as_i64().unwrap() < v["total"].as_i64().unwrap());
}

#[tokio::test]
async fn content_query_mistakes_are_400s() {
    let sb = TestSandbox::start().await;
    let http = Http::new(&sb);
    for (query, field) in [
        ("sort_by=likes", "sort_by"),
        ("sort_order=up", "sort_order"),
        ("scope=mine", "scope"),
        ("platform=myspace", "platform"),
        ("content_type=podcast", "content_type"),
        ("limit=0", "limit"),
        ("limit=101", "limit"),
        ("limit=-3", "limit"),
        ("views_min=lots", "views_min"),
        ("outlier_score_min=NaN", "outlier_score_min"),
        ("outlier_score_min=inf", "outlier_score_min"),
        ("outlierScoreMin=-inf", "outlier_score_min"),
        ("colour=red", "colour"),
    ] {
        let (s, v) = http.get(&sb.key, &format!("/content?{query}")).await;
        assert_eq!(s, 400, "{query}: {v}");
        assert_eq!(v["field"], field, "{query}: {v}");
    }
}

#[tokio::test]
async fn content_detail_is_not_enveloped() {
    let sb = TestSandbox::start().await;
    let http = Http::new(&sb);
    let (_, v) = http.get(&sb.key, "/content?limit=1").await;
    let post = v["outliers"][0].clone();
    let id = post["id"].as_str().unwrap();
    let (s, d) = http.get(&sb.key, &format!("/content/{id}")).await;
    assert_eq!(s, 200, "{d}");
    assert_eq!(d["id"], id);
    assert_eq!(d["title"], post["title"]);
    assert!(d["description"].as_str().unwrap().len() > 20);
    assert!(!d["hashtags"].as_array().unwrap().is_empty());
    assert_eq!(http.get(&sb.key, "/content/does-not-exist").await.0, 404);
}

#[tokio::test]
async fn another_accounts_tracked_accounts_and_content_are_404() {
    let sb = TestSandbox::start().await;
    let http = Http::new(&sb);
    let (_, v) = http.get(&sb.key, "/content?limit=1").await;
    let content = v["outliers"][0]["id"].as_str().unwrap().to_string();
    let account = v["outliers"][0]["accountId"].as_str().unwrap().to_string();
    let (other_id, other) = sb.other_account(0.0);
    assert_eq!(
        http.get(&other, &format!("/content/{content}")).await.0,
        404
    );
    assert_eq!(
        http.get(&other, &format!("/accounts/{account}")).await.0,
        404
    );
    let (_, v) = http.get(&other, "/content").await;
    assert_eq!(v["total"], 0);
    assert_eq!(v["hasMore"], false);
    let (_, v) = http.get(&other, "/accounts").await;
    assert!(v["accounts"].as_array().unwrap().is_empty());
    let conn = sb.state().db().lock();
    assert!(contentdesk_sandbox::tables::inspiration::content_for_card(&conn, &other_id, &content)
        .unwrap()
        .is_none());
}

#[tokio::test]
async fn content_for_card_gives_the_posts_figures() {
    let sb = TestSandbox::start().await;
    let http = Http::new(&sb);
    let (_, v) = http.get(&sb.key, "/content?limit=1").await;
    let post = v["outliers"][0].clone();
    let conn = sb.state().db().lock();
    let fig = contentdesk_sandbox::tables::inspiration::content_for_card(&conn, &sb.account_id, post["id"].as_str().unwrap())
        .unwrap()
        .unwrap();
    assert_eq!(fig.creator.as_deref(), post["sourceCreator"].as_str());
    assert_eq!(fig.handle.as_deref(), post["accountHandle"].as_str());
    assert_eq!(fig.platform.as_deref(), post["platform"].as_str());
    assert_eq!(fig.view_count, post["viewCount"].as_i64());
    assert_eq!(fig.like_count, post["likeCount"].as_i64());
    assert_eq!(fig.comment_count, post["commentCount"].as_i64());
    assert_eq!(fig.outlier_score, post["outlierScore"].as_f64());
    assert_eq!(fig.engagement_rate, post["engagementRate"].as_f64());
    assert_eq!(fig.thumbnail_url.as_deref(), post["thumbnailUrl"].as_str());
    assert_eq!(fig.published_at.as_deref(), post["publishedAt"].as_str());
    assert!(contentdesk_sandbox::tables::inspiration::content_for_card(&conn, &sb.account_id, "nope")
        .unwrap()
        .is_none());
    let ids = contentdesk_sandbox::tables::inspiration::content_ids(&conn, &sb.account_id).unwrap();
    assert_eq!(
        ids[0],
        post["id"].as_str().unwrap(),
        "highest outlier first"
    );
}

#[tokio::test]
async fn reads_need_brandkit_read() {
    let sb = TestSandbox::start().await;
    let http = Http::new(&sb);
    let none = sb.key_with(&[scopes::BRANDKIT_WRITE]);
    let read = sb.key_with(&[scopes::BRANDKIT_READ]);
    let (_, v) = http.get(&sb.key, "/content?limit=1").await;
    let content = v["outliers"][0]["id"].as_str().unwrap().to_string();
    let account = v["outliers"][0]["accountId"].as_str().unwrap().to_string();
    for path in [
        "/accounts".to_string(),
        format!("/accounts/{account}"),
        "/content".into(),
        format!("/content/{content}"),
    ] {
        let (s, v) = http.get(&none, &path).await;
        assert_eq!(s, 403, "{path}: {v}");
        assert!(msg(&v).contains("brandkit:read"));
        assert_eq!(http.get(&read, &path).await.0, 200, "{path}");
    }
}

#[tokio::test]
async fn a_kit_patch_replaces_its_brand_and_inspiration_accounts() {
    // Fact sheet, UpdateBrandKitInput: `brandAccounts` / `inspirationAccounts` replace the lists; an entry is
    // a tracked-account id or `{ platform?, handleOrUrl }` (which starts tracking it).
    let sb = TestSandbox::start().await;
    let http = Http::new(&sb);
    let (_, kits) = http.get(&sb.key, "/brand-kits").await;
    let kit = kits["brandKits"][0]["id"].as_str().unwrap().to_string();
    let (_, inspiration) = http.get(&sb.key, "/accounts?account_type=inspiration").await;
    let take = inspiration["accounts"][0]["id"].as_str().unwrap().to_string();
    let (s, v) = http
        .patch(&sb.key, &format!("/brand-kits/{kit}"), serde_json::json!({
            "brandAccounts": [take, { "handleOrUrl": "https://www.youtube.com/@newbrand" }]
        }))
        .await;
    assert_eq!(s, 200, "{v}");
    let brand = v["brandAccounts"].as_array().unwrap();
    assert_eq!(brand.len(), 2, "the two seeded brand accounts are replaced: {v}");
    assert_eq!(brand[0]["id"], take.as_str());
    assert_eq!((brand[1]["platform"].as_str(), brand[1]["handle"].as_str()), (Some("youtube"), Some("@newbrand")));
    assert!(v["inspirationAccounts"].as_array().unwrap().iter().all(|a| a["id"] != take.as_str()), "moved, not copied");
    let (_, tracked) = http.get(&sb.key, &format!("/accounts/{}", brand[1]["id"].as_str().unwrap())).await;
    assert_eq!(tracked["account"]["syncStatus"], "pending", "{tracked}");

    // An id that is not the caller's is 404 naming the entry, and nothing is written.
    let (s, v) = http
        .patch(&sb.key, &format!("/brand-kits/{kit}"), serde_json::json!({ "name": "Renamed", "brandAccounts": ["nope"] }))
        .await;
    assert_eq!(s, 404, "{v}");
    assert!(msg(&v).contains("brandAccounts[0]"), "{v}");
    let (_, after) = http.get(&sb.key, &format!("/brand-kits/{kit}")).await;
    assert_ne!(after["name"], "Renamed");
    assert_eq!(after["brandAccounts"].as_array().unwrap().len(), 2);
    // An empty list clears them.
    let (_, v) = http.patch(&sb.key, &format!("/brand-kits/{kit}"), serde_json::json!({ "brandAccounts": [] })).await;
    assert_eq!(v["brandAccounts"], serde_json::json!([]));
}
