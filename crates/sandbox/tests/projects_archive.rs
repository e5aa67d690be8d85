//! Projects (create, import, link to a card) and `POST /archive` over real HTTP.
mod common;
use api_types::scopes::*;
use common::{msg, Http, TestSandbox};
use serde_json::{json, Value};

async fn some_card(http: &Http, key: &str) -> Value {
    let (s, v) = http.get(key, "/cards?stage=review").await;
    assert_eq!(s, 200, "{v}");
    v["cards"][0].clone()
}

fn project_count(sb: &TestSandbox) -> i64 {
    let conn = sb.state().db().lock();
    conn.query_row("SELECT COUNT(*) FROM projects", [], |r| r.get(0))
        .unwrap()
}

// ---------- archive ----------

#[tokio::test]
async fn archive_card_hides_it_from_lists_and_restore_keeps_scheduled_at() {
    let sb = TestSandbox::start().await;
    let http = Http::new(&sb);
    let card = some_card(&http, &sb.key).await;
    let id = card["id"].as_str().unwrap().to_string();
    let (s, v) = http
        .patch(
            &sb.key,
            &format!("/cards/{id}"),
            json!({"scheduledAt": "2031-03-03T10:00:00Z"}),
        )
        .await;
    assert_eq!(s, 200, "{v}");
    let scheduled = v["post"]["scheduledAt"].clone();
    let (s, v) = http
        .post(&sb.key, "/archive", json!({"assetType": "card", "id": id}))
        .await;
    assert_eq!(s, 200, "{v}");
    assert_eq!(v, json!({"archived": true}));
    let (_, live) = http.get(&sb.key, "/cards?limit=100").await;
    assert!(!live["cards"]
        .as_array()
        .unwrap()
        .iter()
        .any(|c| c["id"] == id.as_str()));
    let (_, archived) = http.get(&sb.key, "/cards?archived=true").await;
    let found = archived["cards"]
        .as_array()
        .unwrap()
        .iter()
        .find(|c| c["id"] == id.as_str())
        .cloned()
        .unwrap();
    assert_eq!(found["isArchived"], true);
    // Still readable by id.
    let (s, _) = http.get(&sb.key, &format!("/cards/{id}")).await;
    assert_eq!(s, 200);
    let (s, v) = http
        .post(
            &sb.key,
            "/archive",
            json!({"assetType": "card", "id": id, "archived": false}),
        )
        .await;
    assert_eq!(s, 200, "{v}");
    assert_eq!(v, json!({"archived": false}));
    let (_, back) = http.get(&sb.key, &format!("/cards/{id}")).await;
    assert_eq!(back["post"]["isArchived"], false);
    assert_eq!(
        back["post"]["scheduledAt"], scheduled,
        "restore keeps the schedule"
    );
    assert_eq!(back["post"]["stageId"], card["stageId"]);
}

#[tokio::test]
async fn archive_unknown_asset_type_is_400_naming_asset_type_with_valid_values() {
    let sb = TestSandbox::start().await;
    let http = Http::new(&sb);
    let (s, v) = http
        .post(
            &sb.key,
            "/archive",
            json!({"assetType": "planet", "id": "x"}),
        )
        .await;
    assert_eq!(s, 400, "{v}");
    assert_eq!(v["field"], "assetType");
    for t in api_types::ARCHIVE_ASSET_TYPES {
        assert!(msg(&v).contains(t), "{v}");
        assert!(v["validValues"].as_array().unwrap().contains(&json!(t)));
    }
    let (s, v) = http.post(&sb.key, "/archive", json!({"id": "x"})).await;
    assert_eq!(s, 400, "{v}");
    assert_eq!(v["field"], "assetType");
}

#[tokio::test]
async fn archive_without_favorites_write_is_403() {
    let sb = TestSandbox::start().await;
    let http = Http::new(&sb);
    let card = some_card(&http, &sb.key).await;
    let key = sb.key_with(&[PLANNER_WRITE, EDITOR_WRITE, BRANDKIT_WRITE]);
    let (s, v) = http
        .post(
            &key,
            "/archive",
            json!({"assetType": "card", "id": card["id"]}),
        )
        .await;
    assert_eq!(s, 403, "{v}");
    assert!(msg(&v).contains(FAVORITES_WRITE));
}

#[tokio::test]
async fn archive_another_accounts_records_is_404() {
    let sb = TestSandbox::start().await;
    let http = Http::new(&sb);
    let card = some_card(&http, &sb.key).await;
    let (_, spaces) = http.get(&sb.key, "/spaces").await;
    let (_, projects) = http.get(&sb.key, "/projects").await;
    let (_, other) = sb.other_account(0.0);
    for (t, id) in [
        ("card", card["id"].clone()),
        ("space", spaces["spaces"][0]["id"].clone()),
        ("project", projects["projects"][0]["id"].clone()),
    ] {
        let (s, v) = http
            .post(&other, "/archive", json!({"assetType": t, "id": id}))
            .await;
        assert_eq!(s, 404, "{t}: {v}");
    }
}

#[tokio::test]
async fn archive_project_hides_it_unless_filter_archived() {
    let sb = TestSandbox::start().await;
    let http = Http::new(&sb);
    let (_, p) = http
        .post(&sb.key, "/projects", json!({"title": "Old cut"}))
        .await;
    let id = p["project"]["id"].as_str().unwrap().to_string();
    let (s, v) = http
        .post(
            &sb.key,
            "/archive",
            json!({"assetType": "project", "id": id}),
        )
        .await;
    assert_eq!(s, 200, "{v}");
    let (_, list) = http.get(&sb.key, "/projects").await;
    assert!(!list["projects"]
        .as_array()
        .unwrap()
        .iter()
        .any(|p| p["id"] == id.as_str()));
    let (_, list) = http.get(&sb.key, "/projects?filter=archived").await;
    let found = list["projects"]
        .as_array()
        .unwrap()
        .iter()
        .find(|p| p["id"] == id.as_str())
        .cloned()
        .unwrap();
    assert_eq!(found["isArchived"], true);
}

/// Depends on the brand-kit module (another engineer's): its sections table and `set_archived`.
#[tokio::test]
async fn archive_brand_kit_section_goes_through_the_brand_kit_module() {
    let sb = TestSandbox::start().await;
    let http = Http::new(&sb);
    let section: String = {
        let conn = sb.state().db().lock();
        conn.query_row(
            "SELECT s.id FROM brand_kit_sections s JOIN brand_kits k ON k.id = s.brand_kit_id WHERE k.account_id = ?1 LIMIT 1",
            [&sb.account_id],
            |r| r.get(0),
        )
        .expect("the demo brand kit has sections")
    };
    let (s, v) = http
        .post(
            &sb.key,
            "/archive",
            json!({"assetType": "brand_kit_section", "id": section}),
        )
        .await;
    assert_eq!(s, 200, "{v}");
    assert_eq!(v["archived"], true);
    let (_, other) = sb.other_account(0.0);
    let (s, _) = http
        .post(
            &other,
            "/archive",
            json!({"assetType": "brand_kit_section", "id": section}),
        )
        .await;
    assert_eq!(s, 404);
}

// ---------- projects ----------

#[tokio::test]
async fn create_project_defaults_to_a_16_9_editor_and_accepts_type_aliases() {
    let sb = TestSandbox::start().await;
    let http = Http::new(&sb);
    let (s, v) = http.post(&sb.key, "/projects", json!({})).await;
    assert_eq!(s, 200, "{v}");
    let p = &v["project"];
    assert_eq!(p["type"], "editor");
    assert_eq!(
        (p["width"].as_i64(), p["height"].as_i64()),
        (Some(1920), Some(1080))
    );
    assert_eq!(p["orientation"], "landscape");
    assert_eq!(v["linkedCardId"], Value::Null);
    let (s, v) = http
        .post(
            &sb.key,
            "/projects",
            json!({"surface": "canvas", "orientation": "portrait"}),
        )
        .await;
    assert_eq!(s, 200, "{v}");
    assert_eq!(v["project"]["type"], "canvas");
    assert_eq!(v["project"]["height"], 1920);
    let (s, v) = http
        .post(&sb.key, "/projects", json!({"kind": "canvas"}))
        .await;
    assert_eq!(s, 200, "{v}");
    // The official client sends aspect ratios (issue 27): each stands for its word and its default size.
    for (ratio, word, size) in [("16:9", "landscape", (1920, 1080)), ("9:16", "portrait", (1080, 1920)), ("1:1", "square", (1080, 1080))] {
        let (s, v) = http.post(&sb.key, "/projects", json!({"orientation": ratio})).await;
        assert_eq!(s, 200, "{ratio}: {v}");
        assert_eq!(v["project"]["orientation"], word, "{ratio}");
        assert_eq!((v["project"]["width"].as_i64(), v["project"]["height"].as_i64()), (Some(size.0), Some(size.1)), "{ratio}");
    }
    let (s, v) = http.post(&sb.key, "/projects", json!({"orientation": "4:3"})).await;
    assert_eq!((s, v["field"].as_str()), (400, Some("orientation")), "{v}");
    assert!(v.to_string().contains("9:16"), "the refusal names the ratios too: {v}");
    let (s, v) = http
        .post(&sb.key, "/projects", json!({"type": "spreadsheet"}))
        .await;
    assert_eq!(s, 400, "{v}");
    assert_eq!(v["field"], "type");
    let (_, list) = http.get(&sb.key, "/projects?type=canvas").await;
    assert!(list["projects"]
        .as_array()
        .unwrap()
        .iter()
        .all(|p| p["type"] == "canvas"));
}

#[tokio::test]
async fn create_project_with_card_id_links_the_card_and_answers_linked_card_id() {
    let sb = TestSandbox::start().await;
    let http = Http::new(&sb);
    let card = some_card(&http, &sb.key).await;
    let card_id = card["id"].as_str().unwrap();
    let (s, v) = http
        .post(
            &sb.key,
            "/projects",
            json!({"title": "Cut for card", "cardId": card_id}),
        )
        .await;
    assert_eq!(s, 200, "{v}");
    assert_eq!(v["linkedCardId"], card_id);
    assert_eq!(v["project"]["linkedCardId"], card_id);
    let project = v["project"]["id"].as_str().unwrap();
    let (_, detail) = http.get(&sb.key, &format!("/cards/{card_id}")).await;
    let last = detail["post"]["assets"]
        .as_array()
        .unwrap()
        .last()
        .cloned()
        .unwrap();
    assert_eq!(last["projectId"], project);
    assert_eq!(last["assetType"], "project");
    let (s, v) = http.get(&sb.key, &format!("/projects/{project}")).await;
    assert_eq!(s, 200, "{v}");
    assert_eq!(v["project"]["title"], "Cut for card");
}

#[tokio::test]
async fn create_project_with_a_card_not_the_callers_is_404_before_any_project_is_made() {
    let sb = TestSandbox::start().await;
    let http = Http::new(&sb);
    let card = some_card(&http, &sb.key).await;
    let (_, other) = sb.other_account(0.0);
    let before = project_count(&sb);
    let (s, v) = http
        .post(
            &other,
            "/projects",
            json!({"title": "Sneaky", "cardId": card["id"]}),
        )
        .await;
    assert_eq!(s, 404, "{v}");
    assert!(msg(&v).contains("Card not found"));
    let (s, v) = http
        .post(&other, "/projects/import", json!({"source": {"type": "pptx", "fileUrl": "https://example.com/d.pptx"}, "cardId": card["id"]}))
        .await;
    assert_eq!(s, 404, "{v}");
    assert_eq!(project_count(&sb), before, "no project was made");
}

#[tokio::test]
async fn create_project_with_a_brand_kit_not_the_callers_is_404_and_makes_nothing() {
    let sb = TestSandbox::start().await;
    let http = Http::new(&sb);
    let before = project_count(&sb);
    let (s, v) = http
        .post(&sb.key, "/projects", json!({"title": "Kitless", "brandKitId": "00000000-0000-4000-8000-000000000000"}))
        .await;
    assert_eq!(s, 404, "{v}");
    assert!(msg(&v).contains("Brand kit not found"), "{v}");
    assert_eq!(project_count(&sb), before, "no project was made");
    // Another account cannot name the demo account's kit either.
    let (_, kits) = http.get(&sb.key, "/brand-kits").await;
    let kit = kits["brandKits"][0]["id"].as_str().or(kits[0]["id"].as_str()).expect("a demo kit").to_string();
    let (_, other) = sb.other_account(0.0);
    let (s, _) = http.post(&other, "/projects", json!({"title": "Sneaky", "brandKitId": kit})).await;
    assert_eq!(s, 404);
    // The caller's own kit is accepted.
    let (s, v) = http.post(&sb.key, "/projects", json!({"title": "With kit", "brandKitId": kit})).await;
    assert_eq!(s, 200, "{v}");
    assert_eq!(project_count(&sb), before + 1);
}

#[tokio::test]
async fn create_project_with_card_id_needs_planner_write_too() {
    let sb = TestSandbox::start().await;
    let http = Http::new(&sb);
    let card = some_card(&http, &sb.key).await;
    let key = sb.key_with(&[EDITOR_WRITE, EDITOR_READ]);
    let before = project_count(&sb);
    let (s, v) = http
        .post(&key, "/projects", json!({"cardId": card["id"]}))
        .await;
    assert_eq!(s, 403, "{v}");
    assert!(msg(&v).contains(PLANNER_WRITE));
    let (s, v) = http
        .post(&key, "/projects/import", json!({"source": {"type": "pptx", "fileUrl": "https://example.com/d.pptx"}, "cardId": card["id"]}))
        .await;
    assert_eq!(s, 403, "{v}");
    assert!(msg(&v).contains(PLANNER_WRITE));
    assert_eq!(project_count(&sb), before);
    // Without a card, editor:write is enough.
    assert_eq!(http.post(&key, "/projects", json!({})).await.0, 200);
}

#[tokio::test]
async fn project_endpoints_need_editor_scopes() {
    let sb = TestSandbox::start().await;
    let http = Http::new(&sb);
    let key = sb.key_with(&[PLANNER_WRITE]);
    let (s, v) = http.get(&key, "/projects").await;
    assert_eq!(s, 403, "{v}");
    assert!(msg(&v).contains(EDITOR_READ));
    let (_, list) = http.get(&sb.key, "/projects").await;
    let id = list["projects"][0]["id"].as_str().unwrap();
    let (s, v) = http.get(&key, &format!("/projects/{id}")).await;
    assert_eq!(s, 403, "{v}");
    assert!(msg(&v).contains(EDITOR_READ));
    let (s, v) = http.post(&key, "/projects", json!({})).await;
    assert_eq!(s, 403, "{v}");
    assert!(msg(&v).contains(EDITOR_WRITE));
    let (s, v) = http
        .post(
            &key,
            "/projects/import",
            json!({"source": {"type": "canva", "designId": "D1"}}),
        )
        .await;
    assert_eq!(s, 403, "{v}");
    assert!(msg(&v).contains(EDITOR_WRITE));
}

#[tokio::test]
async fn import_pptx_makes_a_canvas_project_linked_to_the_card() {
    let sb = TestSandbox::start().await;
    let http = Http::new(&sb);
    let card = some_card(&http, &sb.key).await;
    let (s, v) = http
        .post(
            &sb.key,
            "/projects/import",
            json!({"source": {"type": "pptx", "fileUrl": "https://example.com/decks/q3-review.pptx"}, "pageCount": 12,
                   "cardId": card["id"]}),
        )
        .await;
    assert_eq!(s, 200, "{v}");
    assert_eq!(v["project"]["type"], "canvas");
    assert_eq!(v["project"]["title"], "q3 review");
    assert_eq!(v["linkedCardId"], card["id"]);
    let (s, v) = http
        .post(
            &sb.key,
            "/projects/import",
            json!({"source": {"type": "pptx", "fileUrl": "nope"}}),
        )
        .await;
    assert_eq!(s, 400, "{v}");
    assert_eq!(v["field"], "source.fileUrl");
    let (s, v) = http
        .post(
            &sb.key,
            "/projects/import",
            json!({"source": {"type": "keynote", "fileUrl": "https://x"}}),
        )
        .await;
    assert_eq!(s, 400, "{v}");
}

#[tokio::test]
async fn import_from_canva_is_400_canva_not_connected() {
    let sb = TestSandbox::start().await;
    let http = Http::new(&sb);
    let before = project_count(&sb);
    let (s, v) = http
        .post(
            &sb.key,
            "/projects/import",
            json!({"source": {"type": "canva", "designId": "DAF123"}}),
        )
        .await;
    assert_eq!(s, 400, "{v}");
    assert_eq!(v["code"], "canva_not_connected");
    assert!(msg(&v).contains("Canva"));
    assert_eq!(project_count(&sb), before);
}

#[tokio::test]
async fn another_accounts_project_is_404() {
    let sb = TestSandbox::start().await;
    let http = Http::new(&sb);
    let (_, list) = http.get(&sb.key, "/projects").await;
    let id = list["projects"][0]["id"].as_str().unwrap();
    let (_, other) = sb.other_account(0.0);
    assert_eq!(http.get(&other, &format!("/projects/{id}")).await.0, 404);
    let (_, theirs) = http.get(&other, "/projects").await;
    assert_eq!(theirs["projects"], json!([]));
}
