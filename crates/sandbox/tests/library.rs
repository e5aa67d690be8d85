//! The media library (`GET /media`) over real HTTP: the caller's outputs newest first, one entry per
//! variant, with the demo's seeded renders; filters by source, content type, status and kind; paging and
//! the 400 on a bad `limit`; renders settled by the listing; no scope needed; another account's media
//! never listed.
mod common;
use common::{msg, Http, TestSandbox};
use contentdesk_sandbox::{Config, RenderTimes};
use serde_json::{json, Value};
use std::time::Duration;

/// `GET /media{query}`, expecting 200: the entries.
async fn list(http: &Http, key: &str, query: &str) -> Vec<Value> {
    let (s, v) = http.get(key, &format!("/media{query}")).await;
    assert_eq!(s, 200, "GET /media{query}: {v}");
    v["media"].as_array().unwrap_or_else(|| panic!("an envelope `media`: {v}")).clone()
}

fn tokens(entries: &[Value]) -> Vec<String> {
    entries.iter().map(|e| format!("{}-{}", e["id"].as_str().unwrap(), e["variant"].as_u64().unwrap() + 1)).collect()
}

async fn generate(http: &Http, key: &str, body: Value) -> Value {
    let (s, v) = http.post(key, "/studio/generate", body).await;
    assert_eq!(s, 200, "{v}");
    v
}

/// A data: URL import (an upload in the library's terms): its outputId.
async fn import(http: &Http, key: &str, name: &str) -> String {
    let (s, v) = http
        .post(key, "/media/imports", json!({"url": "data:image/png;base64,iVBORw0KGgo=", "contentType": "image/png", "fileName": name}))
        .await;
    assert_eq!(s, 200, "{v}");
    v["outputId"].as_str().unwrap().to_string()
}

#[tokio::test]
async fn the_library_lists_the_demo_renders_and_new_outputs_newest_first_one_per_variant() {
    let sb = TestSandbox::start().await;
    let http = Http::new(&sb);
    // The demo's two seeded renders, made "elsewhere": an image and a video, finished, with files.
    let demo = list(&http, &sb.key, "").await;
    assert_eq!(demo.len(), 2, "{demo:?}");
    for e in &demo {
        assert_eq!(e["status"], "completed", "{e}");
        assert_eq!(e["variant"], 0);
        assert_eq!(e["kind"], "creation");
        assert_eq!(e["source"], "creations");
        assert_eq!(e["isFavorited"], false);
        assert!(e["createdAt"].as_str().unwrap().ends_with('Z'), "{e}");
        assert!(e["prompt"].as_str().is_some_and(|p| !p.is_empty()), "{e}");
        let url = e["url"].as_str().unwrap();
        assert_eq!(reqwest::get(url).await.unwrap().status().as_u16(), 200, "{url}");
    }
    let mut types: Vec<&str> = demo.iter().map(|e| e["type"].as_str().unwrap()).collect();
    types.sort();
    assert_eq!(types, ["image", "video"]);
    let video = demo.iter().find(|e| e["type"] == "video").unwrap();
    assert_eq!(video["model"], "veo-3.1-fast");
    assert_eq!(video["durationSeconds"], 5.0);

    // A new render of two images: two entries, first in the list, variants 0 and 1, each its own file.
    let r = generate(&http, &sb.key, json!({"modelId": "nano-banana-2", "prompt": "two kites", "numImages": 2})).await;
    assert_eq!(r["status"], "completed", "{r}");
    let id = r["outputId"].as_str().unwrap();
    let all = list(&http, &sb.key, "").await;
    assert_eq!(all.len(), 4);
    assert_eq!(tokens(&all[..2]), [format!("{id}-1"), format!("{id}-2")]);
    assert_eq!(all[0]["generationSize"], 2);
    assert_eq!(all[0]["model"], "nano-banana-2");
    assert_eq!(all[0]["prompt"], "two kites");
    assert_eq!(all[0]["type"], "image");
    assert!(all[0]["durationSeconds"].is_null());
    let urls: Vec<&str> = all[..2].iter().map(|e| e["url"].as_str().unwrap()).collect();
    assert_eq!(urls, r["outputUrls"].as_array().unwrap().iter().map(|u| u.as_str().unwrap()).collect::<Vec<_>>());
    // The token of an entry is an output token the service takes.
    let (s, v) = http
        .post(&sb.key, "/studio/generate", json!({"modelId": "veo-3.1-fast", "prompt": "x", "getCost": true, "references": {"startFrame": tokens(&all)[1]}}))
        .await;
    assert_eq!(s, 200, "{v}");

    // A board is a creation of kind board.
    let b = http.post(&sb.key, "/studio/reference-board", json!({"boardType": "character", "prompt": "a knight"})).await;
    assert_eq!(b.0, 200, "{}", b.1);
    let first = &list(&http, &sb.key, "?limit=1").await[0];
    assert_eq!(first["kind"], "board");
    assert_eq!(first["boardType"], "character");
    assert_eq!(list(&http, &sb.key, "?kind=board").await.len(), 1);
    assert_eq!(list(&http, &sb.key, "?kind=creation").await.len(), 4);
    assert!(list(&http, &sb.key, "?kind=look").await.is_empty());
}

#[tokio::test]
async fn filters_by_source_content_type_and_status() {
    let config = Config { render: RenderTimes::all(Duration::from_millis(50)), ..Config::for_tests() };
    let sb = TestSandbox::start_with(config).await;
    let http = Http::new(&sb);
    let upload = import(&http, &sb.key, "logo.png").await;

    // Creations by default; uploads (and imports) only with `source=uploads` or `all`.
    let creations = list(&http, &sb.key, "").await;
    assert!(creations.iter().all(|e| e["source"] == "creations"), "{creations:?}");
    assert!(!tokens(&creations).contains(&format!("{upload}-1")));
    let uploads = list(&http, &sb.key, "?source=uploads").await;
    assert_eq!(tokens(&uploads), [format!("{upload}-1")]);
    assert_eq!(uploads[0]["kind"], "upload");
    assert_eq!(uploads[0]["fileName"], "logo.png");
    assert!(uploads[0]["model"].is_null() && uploads[0]["prompt"].is_null(), "{}", uploads[0]);
    assert_eq!(uploads[0]["status"], "completed");
    let all = list(&http, &sb.key, "?source=all").await;
    assert_eq!(all.len(), creations.len() + 1);
    assert_eq!(tokens(&all)[0], format!("{upload}-1"), "newest first");
    assert!(list(&http, &sb.key, "?source=stock").await.is_empty(), "the sandbox has no stock media");

    // Content types, one or several.
    let videos = list(&http, &sb.key, "?contentType=video").await;
    assert_eq!(videos.len(), 1);
    assert!(videos.iter().all(|e| e["type"] == "video"));
    assert_eq!(list(&http, &sb.key, "?contentType=image,video").await.len(), 2);
    assert!(list(&http, &sb.key, "?contentType=audio").await.is_empty());
    assert!(list(&http, &sb.key, "?contentType=transcript").await.is_empty());

    // Status: a failed render (refunded) and one still processing are listed, without a file.
    let failed = generate(&http, &sb.key, json!({"modelId": "nano-banana-2", "prompt": "[sandbox:fail] a storm"})).await;
    assert_eq!(failed["status"], "failed", "{failed}");
    let only_failed = list(&http, &sb.key, "?status=failed").await;
    assert_eq!(tokens(&only_failed), [format!("{}-1", failed["outputId"].as_str().unwrap())]);
    assert!(only_failed[0]["url"].is_null());
    let completed = list(&http, &sb.key, "?status=completed").await;
    assert!(completed.iter().all(|e| e["status"] == "completed" && e["url"].is_string()), "{completed:?}");
    assert_eq!(completed.len(), 2);

    // Bad values are 400s naming the parameter.
    for (query, field) in [
        ("?source=everything", "source"),
        ("?contentType=image,pdf", "contentType"),
        ("?contentType=", "contentType"),
        ("?status=done", "status"),
        ("?kind=post", "kind"),
        ("?offset=-1", "offset"),
        ("?sort=newest", "sort"),
    ] {
        let (s, v) = http.get(&sb.key, &format!("/media{query}")).await;
        assert_eq!(s, 400, "{query}: {v}");
        assert_eq!(v["field"], field, "{query}: {v}");
        assert!(msg(&v).contains(field), "{query}: {v}");
    }
}

#[tokio::test]
async fn a_render_made_elsewhere_is_settled_by_the_listing() {
    // Renders take 400 ms, the smart-wait 50 ms: the generate reply is `processing`.
    let config = Config {
        render: RenderTimes::all(Duration::from_millis(400)),
        smart_wait: Duration::from_millis(50),
        ..Config::for_tests()
    };
    let sb = TestSandbox::start_with(config).await;
    let http = Http::new(&sb);
    let r = generate(&http, &sb.key, json!({"modelId": "veo-3.1-fast", "prompt": "surf", "duration": 4})).await;
    assert_eq!(r["status"], "processing", "{r}");
    let id = r["outputId"].as_str().unwrap();
    let processing = list(&http, &sb.key, "?status=processing").await;
    assert_eq!(tokens(&processing), [format!("{id}-1")]);
    assert!(processing[0]["url"].is_null());
    assert!(!tokens(&list(&http, &sb.key, "?status=completed").await).contains(&format!("{id}-1")));
    // Nobody polls the status: the listing itself finishes the render once its time has come.
    tokio::time::sleep(Duration::from_millis(500)).await;
    let first = &list(&http, &sb.key, "?limit=1").await[0];
    assert_eq!(first["id"], id);
    assert_eq!(first["status"], "completed", "{first}");
    assert_eq!(first["durationSeconds"], 4.0);
    let url = first["url"].as_str().unwrap();
    assert_eq!(reqwest::get(url).await.unwrap().status().as_u16(), 200);
    assert!(list(&http, &sb.key, "?status=processing").await.is_empty());
}

#[tokio::test]
async fn pages_by_limit_and_offset_and_refuses_a_limit_out_of_range() {
    let sb = TestSandbox::start().await;
    let http = Http::new(&sb);
    generate(&http, &sb.key, json!({"modelId": "nano-banana-2", "prompt": "three birds", "numImages": 3})).await;
    let all = tokens(&list(&http, &sb.key, "").await);
    assert_eq!(all.len(), 5);
    let mut paged = Vec::new();
    for offset in (0..6).step_by(2) {
        let page = list(&http, &sb.key, &format!("?limit=2&offset={offset}")).await;
        assert!(page.len() <= 2);
        paged.extend(tokens(&page));
    }
    assert_eq!(paged, all, "pages join up to the whole list, variants split across pages");
    assert!(list(&http, &sb.key, "?offset=5").await.is_empty());
    assert_eq!(list(&http, &sb.key, "?limit=100").await.len(), 5);

    for bad in ["0", "101", "-3", "many"] {
        let (s, v) = http.get(&sb.key, &format!("/media?limit={bad}")).await;
        assert_eq!(s, 400, "limit={bad}: {v}");
        assert_eq!(v["field"], "limit", "limit={bad}: {v}");
        assert!(msg(&v).contains("limit"), "{v}");
    }
}

#[tokio::test]
async fn only_the_callers_media_is_listed_and_no_scope_is_needed() {
    let sb = TestSandbox::start().await;
    let http = Http::new(&sb);
    let (_, other) = sb.other_account(100.0);
    assert!(list(&http, &other, "?source=all").await.is_empty(), "a new account's library is empty: the demo's is not shown");
    let mine = generate(&http, &other, json!({"modelId": "nano-banana-2", "prompt": "mine only"})).await;
    let theirs = tokens(&list(&http, &other, "").await);
    assert_eq!(theirs, [format!("{}-1", mine["outputId"].as_str().unwrap())]);
    let demo = tokens(&list(&http, &sb.key, "?source=all").await);
    assert_eq!(demo.len(), 2);
    assert!(!demo.contains(&theirs[0]), "another account's render is never listed");

    // A key with no scope at all reads the library.
    let bare = sb.key_with(&[]);
    assert_eq!(list(&http, &bare, "").await.len(), 2);
    // Without a key: 401.
    let resp = reqwest::get(format!("{}/media", sb.base_url())).await.unwrap();
    assert_eq!(resp.status().as_u16(), 401);
}
