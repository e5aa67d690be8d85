//! The app core against a fake "real-shaped" service (wiremock): replies as the newest SDK era and the
//! real service send them (`shortId`/`appUrl`, `outputs[]` and `charge`, cursor paging, new model kinds,
//! no `hasOwnSchedule`, unknown fields everywhere). The real service cannot be reached from here, and the
//! sandbox is the spec era's strict twin, so a mock is the only way to produce these shapes. A planner
//! load, a studio quote → generate → poll, and a brand-kit save must all work on them.
mod common;

use common::{start_app, temp_dir};
use contentdesk_core::commands::{self as c, KeySetArgs, ProfileAddArgs, ProfileRefArgs};
use contentdesk_core::{AppState, MemoryStore};
use serde_json::{json, Value};
use std::sync::Arc;
use std::time::Duration;
use wiremock::matchers::{method, path, path_regex};
use wiremock::{Mock, MockServer, Request, Respond, ResponseTemplate};

const KEY: &str = "ch_live_realshapedkey0000000000000000";

fn ok(v: Value) -> ResponseTemplate {
    ResponseTemplate::new(200).set_body_json(v)
}

async fn mount(server: &MockServer, m: &str, p: &str, body: Value) {
    Mock::given(method(m)).and(path(format!("/api/v1{p}"))).respond_with(ok(body)).mount(server).await;
}

/// `POST /studio/generate`: a quote for `getCost`, else a render that is still running (newest shape).
struct Generate;
impl Respond for Generate {
    fn respond(&self, req: &Request) -> ResponseTemplate {
        let body: Value = serde_json::from_slice(&req.body).unwrap_or_default();
        if body["getCost"] == true {
            return ok(json!({ "creditsEstimate": 30, "getCost": true, "modelId": body["modelId"], "contentType": "video",
                              "currency": "credits", "estimateVersion": 3 }));
        }
        ok(json!({ "outputId": body["outputId"], "shortId": "Xy12Ab34", "status": "processing",
                   "charge": { "credits": 30, "held": 30, "state": "pending", "balanceAfter": null },
                   "appUrl": "https://app.example/m/Xy12Ab34", "modelDisplayName": "Veo 4 Extend" }))
    }
}

/// `GET /studio/generate/{id}`: processing once, then completed but not settled, then settled.
struct Poll(std::sync::atomic::AtomicUsize);
impl Respond for Poll {
    fn respond(&self, req: &Request) -> ResponseTemplate {
        let id = req.url.path().rsplit('/').next().unwrap().to_string();
        let n = self.0.fetch_add(1, std::sync::atomic::Ordering::SeqCst);
        let (status, settled) = match n {
            0 => ("processing", None),
            1 => ("completed", Some(false)),
            _ => ("completed", Some(true)),
        };
        let done = status == "completed";
        ok(json!({ "outputId": id, "shortId": "Xy12Ab34", "status": status, "settled": settled,
                   "contentType": "video", "modelId": "veo-4-extend", "pollAfterSeconds": 0.05,
                   "outputs": if done { json!([{ "mediaId": "Xy12Ab34-1", "status": "succeeded",
                       "url": "https://cdn.example/v.mp4", "appUrl": "https://app.example/m/Xy12Ab34-1" }]) } else { json!([]) },
                   "charge": { "credits": 30, "held": 0, "state": if settled == Some(true) { "charged" } else { "pending" }, "balanceAfter": 70 } }))
    }
}

async fn real_shaped() -> MockServer {
    let server = MockServer::start().await;
    mount(&server, "GET", "/account/balance", json!({ "balance": 100, "tier": "hero", "autoTopupEnabled": false, "available": 100, "held": 0 })).await;
    // Planner: stages with newest fields, cards with cursor paging and no hasMore.
    mount(&server, "GET", "/stages", json!({
        "stages": [
            { "id": "st-1", "shortId": "s1", "appUrl": "https://app.example/s/1", "name": "Ideas", "slug": "ideas", "color": "#aabbcc" },
            { "id": "st-2", "name": "Scheduled", "slug": "scheduled", "color": null, "placement": { "position": "bottom" } }
        ],
        "space": { "id": "sp-1", "name": "Content plan" }
    })).await;
    mount(&server, "GET", "/cards", json!({
        "cards": [
            { "id": "card-1", "shortId": "c1", "title": "Launch", "platform": "instagram", "stageId": "st-2", "boardOrder": 1,
              "scheduledAt": "2026-12-01T09:00:00.000Z", "platforms": ["instagram", "bluesky"], "tags": [], "isFavorite": false,
              "archivedAt": null, "isArchived": false, "folderId": null, "appUrl": "https://app.example/c/1" },
            { "id": "card-2", "title": "Teaser", "platform": null, "stageId": "st-1", "boardOrder": null }
        ],
        "total": 2, "nextCursor": null, "space": { "id": "sp-1", "name": "Content plan" }
    })).await;
    mount(&server, "GET", "/cards/card-1", json!({ "card": {
        "id": "card-1", "title": "Launch", "platform": "instagram", "stageId": "st-2", "scheduledAt": "2026-12-01T09:00:00.000Z",
        "revision": 2, "notes": "", "tags": [], "assets": [],
        "posts": [
            { "id": "p-ig", "platform": "instagram", "scheduledAt": "2026-12-01T09:00:00.000Z", "platformSettings": { "caption": "hi" } },
            { "id": "p-bs", "platform": "bluesky", "scheduledAt": "2026-12-02T18:30:00.000Z", "platformSettings": null }
        ]
    }})).await;
    // Studio: a registry with a kind this build does not know.
    Mock::given(method("GET")).and(path("/api/v1/models")).respond_with(ok(json!({ "models": [
        { "modelId": "veo-3.1-fast", "displayName": "Veo 3.1 Fast", "contentType": "video", "kind": "generate", "isDefault": true,
          "capabilities": { "kind": "generate", "outputType": "video", "promptMode": "required", "aspectRatio": { "supported": ["16:9"] } } },
        { "modelId": "veo-4-extend", "displayName": "Veo 4 Extend", "contentType": "video", "kind": "video-extend", "brandColor": "#4285F4",
          "capabilities": { "kind": "video-extend", "outputType": "video", "promptMode": "optional", "inputTypes": ["singleVideo"] } }
    ]}))).mount(&server).await;
    Mock::given(method("POST")).and(path("/api/v1/studio/generate")).respond_with(Generate).mount(&server).await;
    Mock::given(method("GET")).and(path_regex(r"^/api/v1/studio/generate/[^/]+$")).respond_with(Poll(Default::default())).mount(&server).await;
    // Brand kit: summary read and a save that answers the newest full kit.
    let section = |key: &str, tab: &str, v: i64, body: Option<&str>| {
        let mut s = json!({ "id": format!("sec-{key}"), "key": key, "role": key, "tab": tab, "sectionName": key, "width": "half",
                            "version": v, "updatedAt": "2026-11-01T00:00:00Z", "charCount": 12, "outline": ["Who"], "shortId": "k1" });
        if let Some(b) = body {
            s["body"] = json!(b);
        }
        s
    };
    mount(&server, "GET", "/brand-kits/kit-1", json!({ "id": "kit-1", "name": "Studio", "shortId": "K1",
        "sections": [section("about", "overview", 3, None), section("voice_and_tone", "voice", 1, None)] })).await;
    mount(&server, "PATCH", "/brand-kits/kit-1", json!({
        "id": "kit-1", "name": "Studio", "isDefault": true, "shortId": "K1", "appUrl": "https://app.example/k/1",
        "websiteUrls": [], "extractionStatus": "complete", "analysisStatus": "done", "brandColors": [{ "hex": "#112233", "role": "primary" }],
        "typography": null, "logos": [], "brandAccounts": [], "inspirationAccounts": [], "knowledge": [],
        "sections": [section("about", "overview", 4, Some("## Who\nUs.")), section("voice_and_tone", "voice", 1, Some("Warm."))]
    })).await;
    server
}

async fn app_on(server: &MockServer) -> AppState {
    let store = Arc::new(MemoryStore::new());
    let app = start_app(&temp_dir("real-shaped"), &store).await;
    let base = format!("{}/api/v1", server.uri());
    let p = c::profile_add(&app, ProfileAddArgs { name: "Real".into(), base_url: Some(base) }).await.unwrap();
    c::profile_select(&app, ProfileRefArgs { profile_id: p.id.clone() }).await.unwrap();
    c::key_set(&app, KeySetArgs { profile_id: p.id, key: KEY.into() }).await.unwrap();
    app
}

fn args<T: serde::de::DeserializeOwned>(v: Value) -> T {
    serde_json::from_value(v).unwrap()
}

#[tokio::test]
async fn the_core_runs_the_planner_the_studio_and_the_brand_kit_on_real_shaped_replies() {
    let server = real_shaped().await;
    let app = app_on(&server).await;

    // Planner: the board loads, and a card's posts keep the time the service gave each.
    let board = c::board_load(&app, args(json!({ "spaceId": "sp-1" }))).await.unwrap();
    assert_eq!(board.stages.len(), 2);
    assert_eq!(board.cards.len(), 2);
    let card = c::card_get(&app, args(json!({ "cardId": "card-1" }))).await.unwrap();
    assert_eq!(card.posts.len(), 2);

    // Studio: the unknown kind is in the list, raw; quote, generate, and the poll waits for `settled`.
    let models = c::models_list(&app, args(json!({ "contentType": "video" }))).await.unwrap();
    let extend = models.iter().find(|m| m.model_id == "veo-4-extend").expect("a model of an unknown kind is listed");
    assert_eq!(extend.kind.as_str(), "video-extend");
    let form = json!({ "media": "video", "modelId": "veo-4-extend", "prompt": "keep going" });
    let quote = c::studio_quote(&app, args(json!({ "form": form }))).await.unwrap();
    assert_eq!(quote.credits, 30.0);
    let output_id = uuid::Uuid::new_v4().to_string();
    let job = c::studio_generate(&app, args(json!({ "form": form, "outputId": output_id }))).await.unwrap();
    assert_eq!(job.credits, Some(30.0), "the newest `charge` is read as the price");
    let mut done = None;
    for _ in 0..200 {
        let jobs = c::studio_jobs(&app).await.unwrap();
        let j = jobs.into_iter().find(|j| j.output_id == output_id).expect("the job is queued");
        if j.status.is_terminal() {
            done = Some(j);
            break;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    let done = done.expect("the render finishes");
    assert_eq!(format!("{:?}", done.status), "Completed");
    assert_eq!(done.output_urls, vec!["https://cdn.example/v.mp4".to_string()], "files from `outputs[]`");
    let polls = server
        .received_requests()
        .await
        .unwrap()
        .iter()
        .filter(|r| r.method.as_str() == "GET" && r.url.path().starts_with("/api/v1/studio/generate/"))
        .count();
    assert!(polls >= 3, "completed but unsettled was polled again ({polls} reads)");

    // Brand kit: the summary page and an all-or-nothing save, answered by the newest full kit.
    let page = c::brand_kit_page(&app, args(json!({ "brandKitId": "kit-1" }))).await.unwrap();
    let page = serde_json::to_value(page).unwrap();
    assert!(page.to_string().contains("voice_and_tone"), "{page}");
    let saved = c::brand_kit_save(
        &app,
        args(json!({ "brandKitId": "kit-1", "sections": [{ "key": "about", "body": "## Who\nUs.", "expectedVersion": 3 }] })),
    )
    .await
    .unwrap();
    assert_eq!(saved.len(), 1);
    assert_eq!(saved[0].version, 4);
    let patch: Value = server
        .received_requests()
        .await
        .unwrap()
        .iter()
        .find(|r| r.method.as_str() == "PATCH")
        .map(|r| serde_json::from_slice(&r.body).unwrap())
        .expect("a PATCH was sent");
    assert_eq!(patch["sections"][0]["expectedVersion"], 3);
}

/// The newest 402s as the user reads them: credits short says how many more (from `needed` and
/// `available`), the spend cap says so and what to do, and neither says a retry would help.
#[tokio::test]
async fn the_newest_402s_say_what_is_short_and_what_to_do() {
    let bodies = [
        (json!({ "error": "Not enough credits: this needs 40 and you have 12 available.", "code": "insufficient_credits",
            "actions": [{ "id": "top_up", "label": "Buy credits", "url": "https://app.contenthero.ai/settings/billing?topUp=1" }],
            "needed": 40, "available": 12, "balance": 20, "held": 8 }), "28 more are needed"),
        (json!({ "error": "This would pass your monthly spend cap of 2000 credits.", "code": "spend_cap_reached",
            "actions": [], "needed": 40, "cap": 2000, "spent": 1990 }), "Raise the monthly spend cap"),
    ];
    for (body, says) in bodies {
        let server = real_shaped().await;
        Mock::given(method("POST")).and(path("/api/v1/studio/generate"))
            .respond_with(ResponseTemplate::new(402).set_body_json(body.clone())).with_priority(1).mount(&server).await;
        let app = app_on(&server).await;
        let form = json!({ "media": "image", "modelId": "nano-banana-2", "prompt": "a fox" });
        let e = c::studio_quote(&app, args(json!({ "form": form }))).await.unwrap_err();
        let shown = serde_json::to_value(&e).unwrap();
        let message = shown["message"].as_str().unwrap_or_default();
        assert!(message.contains(says), "{body}: {shown}");
        assert!(message.contains("Nothing was charged"), "{shown}");
        assert_eq!(shown["status"], 402, "{shown}");
    }
}
