//! What the card editor attaches and publishes, against the embedded sandbox over real HTTP (docs/ipc.md,
//! "Attach and publish"): an inspiration post by `contentId`, a project linked to the card, an uploaded
//! file by `outputId`, publishing now with each platform's result, and a missing `publish:write` named.
mod common;

use api_types::{CardAssetInput, PostInput, UpdateCard};
use base64::Engine;
use contentdesk_core::commands::{self as c, *};
use contentdesk_core::{ipc, AppState, IpcCode};
use contentdesk_ops::input::Paging;
use sandbox::testing::TestSandbox;
use serde_json::json;

async fn app() -> AppState {
    common::embedded_app("attach").await
}

/// A new card in a new space.
async fn card(app: &AppState, title: &str) -> String {
    let s = c::space_create(app, SpaceCreateInput { cover_url: None, duplicate_from: None, name: format!("{title} space") }).await.unwrap();
    let board = c::board_load(app, BoardLoadArgs { filters: BoardFilters::space(s.id.clone()), ..Default::default() }).await.unwrap();
    c::card_create(app, common::new_card(&s.id, &board.stages[0].id, title, "instagram"))
        .await
        .unwrap()
        .id
}

/// The card's current assets as `{ id }` entries, plus `extra` at the end.
async fn assets_plus(app: &AppState, card_id: &str, extra: CardAssetInput) -> Vec<CardAssetInput> {
    let card = c::card_get(app, CardId { card_id: card_id.into() }).await.unwrap();
    let mut list: Vec<CardAssetInput> = card.assets.iter().map(|a| CardAssetInput::keep(a.id.clone())).collect();
    list.push(extra);
    list
}

/// `card_update` through dispatch (its args struct is shared with the offline-drafts work).
async fn update(app: &AppState, card_id: &str, update: UpdateCard) -> Result<api_types::CardDetail, contentdesk_core::IpcError> {
    let v = ipc::dispatch(app, "card_update", json!({ "cardId": card_id, "update": update })).await?;
    Ok(serde_json::from_value(v).unwrap())
}

/// A 1×1 transparent PNG.
const PNG: &str = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==";

#[tokio::test]
async fn an_inspiration_post_is_listed_then_attached_by_content_id_with_its_figures() {
    let app = app().await;
    let page = c::content_list(&app, ContentListInput { page: Paging::new(Some(5), None), ..Default::default() }).await.unwrap();
    assert!(!page.outliers.is_empty(), "the demo has inspiration posts");
    assert!(page.outliers.len() <= 5);
    assert!(page.total >= page.outliers.len() as i64);
    let post = page.outliers[0].clone();
    assert!(post.source_creator.is_some() || post.account_handle.is_some(), "a post names its creator: {post:?}");
    assert!(post.outlier_score.is_some() && post.view_count.is_some(), "{post:?}");

    // Search narrows the list; a platform filter keeps that platform only.
    let word = post.title.clone().unwrap_or_default().split_whitespace().next().unwrap_or("a").to_string();
    let found = c::content_list(&app, ContentListInput { search: Some(word.clone()), ..Default::default() }).await.unwrap();
    assert!(found.outliers.iter().any(|p| p.id == post.id), "searching “{word}” finds the post");
    let platform = post.platform.clone().unwrap();
    let only = c::content_list(&app, ContentListInput { platform: Some(platform.clone()), ..Default::default() }).await.unwrap();
    assert!(only.outliers.iter().all(|p| p.platform.as_deref() == Some(platform.as_str())));
    // Paged by offset.
    let second = c::content_list(&app, ContentListInput { page: Paging::new(Some(1), Some(1)), ..Default::default() }).await.unwrap();
    assert_eq!(second.outliers.first().map(|p| &p.id), page.outliers.get(1).map(|p| &p.id));
    // Checked locally first.
    let e = c::content_list(&app, ContentListInput { page: Paging::new(Some(0), None), ..Default::default() }).await.unwrap_err();
    assert_eq!((e.code, e.field.as_deref()), (IpcCode::Validation, Some("limit")));
    let e = c::content_list(&app, ContentListInput { platform: Some("myspace".into()), ..Default::default() }).await.unwrap_err();
    assert_eq!((e.code, e.field.as_deref()), (IpcCode::Validation, Some("platform")));

    let card_id = card(&app, "Inspired").await;
    let assets = assets_plus(&app, &card_id, CardAssetInput::inspiration(post.id.clone())).await;
    let read = update(&app, &card_id, UpdateCard { assets: Some(assets), ..Default::default() })
        .await
        .unwrap();
    let a = read.assets.iter().find(|a| a.content_id.as_deref() == Some(post.id.as_str())).expect("attached by contentId");
    let insp = a.inspiration.as_ref().expect("the card read carries the post's figures");
    assert_eq!(insp.creator, post.source_creator);
    assert_eq!(insp.outlier_score, post.outlier_score);
    assert_eq!(insp.view_count, post.view_count);
    // Attaching it twice is refused before sending, naming the entry.
    let again = assets_plus(&app, &card_id, CardAssetInput::inspiration(post.id.clone())).await;
    let e = update(&app, &card_id, UpdateCard { assets: Some(again), ..Default::default() })
        .await
        .unwrap_err();
    assert_eq!(e.code, IpcCode::Validation);
    assert!(e.field.as_deref().is_some_and(|f| f.starts_with("assets")), "{e:?}");
}

#[tokio::test]
async fn a_project_is_created_and_imported_linked_to_the_card() {
    let app = app().await;
    let card_id = card(&app, "Edited").await;
    let made = c::project_create(&app, ProjectCreateInput { card_id: Some(card_id.clone()), title: Some("  Teaser cut ".into()), ..Default::default() })
        .await
        .unwrap();
    assert_eq!(made.linked_card_id.as_deref(), Some(card_id.as_str()));
    assert_eq!(made.project.title.as_deref(), Some("Teaser cut"));
    let listed = c::projects_list(&app).await.unwrap();
    let p = listed.iter().find(|p| p.id == made.project.id).expect("listed");
    assert_eq!(p.linked_card_id.as_deref(), Some(card_id.as_str()));
    let read = c::card_get(&app, CardId { card_id: card_id.clone() }).await.unwrap();
    assert!(read.assets.iter().any(|a| a.project_id.as_deref() == Some(made.project.id.as_str())), "the project is on the card: {:?}", read.assets);

    let imported = c::project_import(
        &app,
        ProjectImportInput {
            card_id: Some(card_id.clone()),
            pptx_url: Some("https://example.com/decks/q4-plan.pptx".into()),
            page_count: Some(3),
            ..Default::default()
        },
    )
    .await
    .unwrap();
    assert_eq!(imported.linked_card_id.as_deref(), Some(card_id.as_str()));
    let read = c::card_get(&app, CardId { card_id: card_id.clone() }).await.unwrap();
    assert!(read.assets.iter().any(|a| a.project_id.as_deref() == Some(imported.project.id.as_str())));

    // Checked locally, then the service's answers.
    let e = c::project_create(&app, ProjectCreateInput { card_id: Some(card_id.clone()), title: Some(" ".into()), ..Default::default() }).await.unwrap_err();
    assert_eq!((e.code, e.field.as_deref()), (IpcCode::Validation, Some("title")));
    // The catalogue's rules (ProjectCreateInput::check, as in cdesk project create and create_project),
    // and the app's own: a card and a title always.
    let e = c::project_create(&app, ProjectCreateInput { card_id: Some(card_id.clone()), title: Some("x".repeat(201)), ..Default::default() }).await.unwrap_err();
    assert_eq!((e.code, e.field.as_deref()), (IpcCode::Validation, Some("title")), "{e:?}");
    let e = c::project_create(&app, ProjectCreateInput { card_id: Some(card_id.clone()), title: Some("Cut".into()), project_type: Some("video".into()), ..Default::default() }).await.unwrap_err();
    assert_eq!((e.code, e.field.as_deref()), (IpcCode::Validation, Some("type")), "{e:?}");
    let e = c::project_create(&app, ProjectCreateInput { card_id: Some(card_id.clone()), ..Default::default() }).await.unwrap_err();
    assert_eq!((e.code, e.field.as_deref()), (IpcCode::Validation, Some("title")), "{e:?}");
    let e = c::project_create(&app, ProjectCreateInput { title: Some("Cut".into()), ..Default::default() }).await.unwrap_err();
    assert_eq!((e.code, e.field.as_deref()), (IpcCode::Validation, Some("cardId")), "{e:?}");
    // The import's rules (ProjectImportInput::check, as in cdesk project import and import_project): one
    // source, an http(s) deck, 1 to 500 pages; and the app's own: a card always.
    let import = |f: fn(&mut ProjectImportInput)| {
        let mut i = ProjectImportInput { card_id: Some(card_id.clone()), pptx_url: Some("https://example.com/d.pptx".into()), ..Default::default() };
        f(&mut i);
        i
    };
    for (args, field) in [
        (import(|i| i.pptx_url = Some("ftp://x/y.pptx".into())), "pptxUrl"),
        (import(|i| i.pptx_url = None), "pptxUrl"),
        (import(|i| i.canva_design_id = Some("D1".into())), "pptxUrl"),
        (import(|i| { i.pptx_url = None; i.canva_design_id = Some("  ".into()) }), "canvaDesignId"),
        (import(|i| i.page_count = Some(501)), "pageCount"),
        (import(|i| i.page_count = Some(0)), "pageCount"),
        (import(|i| i.card_id = None), "cardId"),
    ] {
        let e = c::project_import(&app, args.clone()).await.unwrap_err();
        assert_eq!((e.code, e.field.as_deref()), (IpcCode::Validation, Some(field)), "{args:?}: {e:?}");
    }
    let e = c::project_create(&app, ProjectCreateInput { card_id: Some("no-such-card".into()), title: Some("Orphan".into()), ..Default::default() })
        .await
        .unwrap_err();
    assert_eq!(e.code, IpcCode::NotFound);
    assert!(!c::projects_list(&app).await.unwrap().iter().any(|p| p.title.as_deref() == Some("Orphan")), "no project is made for a missing card");
    let e = c::project_import(&app, ProjectImportInput { card_id: Some(card_id), canva_design_id: Some("D1".into()), ..Default::default() })
        .await
        .unwrap_err();
    assert_eq!(e.code, IpcCode::Validation, "{e:?}");
}

#[tokio::test]
async fn a_small_png_is_uploaded_and_attached_by_output_id() {
    let app = app().await;
    let up = c::media_upload(&app, upload("dot.png", "image/png", PNG.into()))
        .await
        .unwrap();
    assert!(!up.output_id.is_empty());
    assert!(up.url.starts_with("http"), "{}", up.url);
    // The stored file is the bytes sent.
    let got = reqwest_get(&up.url).await;
    assert_eq!(got, base64::engine::general_purpose::STANDARD.decode(PNG).unwrap());

    let card_id = card(&app, "Uploaded").await;
    let assets = assets_plus(&app, &card_id, CardAssetInput::output(up.output_id.clone())).await;
    let read = update(&app, &card_id, UpdateCard { assets: Some(assets), ..Default::default() })
        .await
        .unwrap();
    let a = read.assets.iter().find(|a| a.output_id.as_deref() == Some(up.output_id.as_str())).expect("attached by outputId");
    assert!(a.preview_url.is_some());

    // A data: URL prefix is accepted.
    let up2 = c::media_upload(&app, upload("dot2.png", "image/png", format!("data:image/png;base64,{PNG}")))
        .await
        .unwrap();
    assert_ne!(up2.output_id, up.output_id);
}

async fn reqwest_get(url: &str) -> Vec<u8> {
    // No HTTP client among the dev-dependencies: a plain GET over a TCP socket to the loopback sandbox.
    use tokio::io::{AsyncReadExt, AsyncWriteExt};
    let u = url::Url::parse(url).unwrap();
    let mut s = tokio::net::TcpStream::connect((u.host_str().unwrap(), u.port().unwrap())).await.unwrap();
    let req = format!("GET {} HTTP/1.0\r\nHost: {}\r\n\r\n", u.path(), u.host_str().unwrap());
    s.write_all(req.as_bytes()).await.unwrap();
    let mut buf = Vec::new();
    s.read_to_end(&mut buf).await.unwrap();
    let at = buf.windows(4).position(|w| w == b"\r\n\r\n").unwrap() + 4;
    let head = String::from_utf8_lossy(&buf[..at]).to_string();
    assert!(head.starts_with("HTTP/1.0 200") || head.starts_with("HTTP/1.1 200"), "{head}");
    buf[at..].to_vec()
}

#[tokio::test]
async fn an_upload_is_checked_locally_naming_the_field() {
    let app = app().await;
    let up = |name: &str, ty: &str, data: String| {
        let app = app.clone();
        let args = upload(name, ty, data);
        async move { c::media_upload(&app, args).await.unwrap_err() }
    };
    // The catalogue's rules (MediaUploadInput::check, as in cdesk media upload and upload_media).
    let e = up("notes.txt", "text/plain", PNG.into()).await;
    assert_eq!((e.code, e.field.as_deref()), (IpcCode::Validation, Some("contentType")));
    assert!(e.message.contains("notes.txt"), "{}", e.message);
    // No type given: guessed from the name's extension, and a name without one is no media type.
    let e = up("dot", "", PNG.into()).await;
    assert_eq!(e.field.as_deref(), Some("contentType"), "{e:?}");
    let e = up(" ", "image/png", PNG.into()).await;
    assert_eq!(e.field.as_deref(), Some("name"));
    let e = up(&"x".repeat(256), "image/png", PNG.into()).await;
    assert_eq!(e.field.as_deref(), Some("name"));
    let e = up("dot.png", "image/png", "not base64!".into()).await;
    assert_eq!((e.code, e.field.as_deref()), (IpcCode::Validation, Some("contentBase64")));
    let e = up("dot.png", "image/png", String::new()).await;
    assert_eq!(e.field.as_deref(), Some("contentBase64"));
    // Past the limit (the app's is the upload limit, not an agent's 1 MiB inline): refused before anything is sent.
    let big = "A".repeat((MAX_UPLOAD_BYTES / 3 + 2) * 4);
    let e = up("huge.png", "image/png", big).await;
    assert_eq!((e.code, e.field.as_deref()), (IpcCode::Validation, Some("contentBase64")));
    assert!(e.message.contains("50 MiB"), "{}", e.message);

    // Through dispatch: a missing field is named too, a path is not the app's, the old names are refused
    // by name, and the bytes never appear in a Debug line.
    let e = ipc::dispatch(&app, "media_upload", json!({ "name": "a.png", "contentType": "image/png" })).await.unwrap_err();
    assert_eq!((e.code, e.field.as_deref()), (IpcCode::Validation, Some("file")), "{e:?}");
    let e = ipc::dispatch(&app, "media_upload", json!({ "file": "/etc/hostname", "contentType": "image/png" })).await.unwrap_err();
    assert_eq!((e.code, e.field.as_deref()), (IpcCode::Validation, Some("file")), "{e:?}");
    let e = ipc::dispatch(&app, "media_upload", json!({ "fileName": "a.png", "contentType": "image/png", "dataBase64": PNG })).await.unwrap_err();
    assert_eq!((e.code, e.field.as_deref()), (IpcCode::Validation, Some("dataBase64")), "{e:?}");
    let args = upload("a.png", "image/png", PNG.into());
    assert!(!format!("{args:?}").contains(PNG));
}

fn upload(name: &str, content_type: &str, data: String) -> MediaUploadInput {
    MediaUploadInput { file: None, content_base64: Some(data), content_type: Some(content_type.into()), name: Some(name.into()) }
}

#[tokio::test]
async fn publishing_answers_each_platform_with_its_url_or_its_error() {
    let app = app().await;
    let card_id = card(&app, "Go live").await;
    let accounts = c::connected_accounts_list(&app).await.unwrap();
    let ig = accounts
        .iter()
        .find(|a| a.platform.as_deref() == Some("instagram") && a.connection_status.as_deref() == Some("connected"))
        .expect("the demo has a connected Instagram account");
    let posts = vec![
        PostInput { platform: "instagram".into(), connected_account_id: Some(ig.id.clone()), ..Default::default() },
        PostInput { platform: "tiktok".into(), ..Default::default() },
    ];
    update(&app, &card_id, UpdateCard { posts: Some(posts), ..Default::default() })
        .await
        .unwrap();

    // One platform only.
    let one = c::card_publish(&app, CardPublishInput { card_id: card_id.clone(), platform: Some("instagram".into()) }).await.unwrap();
    assert_eq!(one.card_id, card_id);
    assert_eq!(one.results.len(), 1);
    assert!(one.results[0].success && one.results[0].url.as_deref().is_some_and(|u| u.starts_with("http")), "{one:?}");

    // Every post: a success with its URL and a failure with its error, each per platform.
    let all = c::card_publish(&app, CardPublishInput { card_id: card_id.clone(), platform: None }).await.unwrap();
    assert_eq!((all.published_count, all.failed_count), (1, 1));
    let ok = all.results.iter().find(|r| r.platform == "instagram").unwrap();
    assert!(ok.success && ok.url.is_some() && ok.error.is_none());
    let bad = all.results.iter().find(|r| r.platform == "tiktok").unwrap();
    assert!(!bad.success && bad.url.is_none());
    assert!(bad.error.as_deref().is_some_and(|e| e.contains("connected account")), "{bad:?}");
    let read = c::card_get(&app, CardId { card_id: card_id.clone() }).await.unwrap();
    assert!(read.summary.published_at.is_some());

    // A platform with no post, a platform that does not exist, a card that is not there.
    let e = c::card_publish(&app, CardPublishInput { card_id: card_id.clone(), platform: Some("youtube".into()) }).await.unwrap_err();
    assert_eq!((e.code, e.field.as_deref()), (IpcCode::Validation, Some("platform")));
    let e = c::card_publish(&app, CardPublishInput { card_id: card_id.clone(), platform: Some("myspace".into()) }).await.unwrap_err();
    assert_eq!((e.code, e.field.as_deref(), e.status), (IpcCode::Validation, Some("platform"), None));
    let e = c::card_publish(&app, CardPublishInput { card_id: "nope".into(), platform: None }).await.unwrap_err();
    assert_eq!(e.code, IpcCode::NotFound);

    // The wire shape through dispatch.
    let v = ipc::dispatch(&app, "card_publish", json!({ "cardId": card_id, "platform": "instagram" })).await.unwrap();
    assert_eq!(v["cardId"], json!(card_id));
    assert_eq!(v["results"][0]["platform"], "instagram");
    assert_eq!(v["results"][0]["success"], true);
    assert!(v["publishedCount"].is_number() && v["failedCount"].is_number());
}

#[tokio::test]
async fn a_key_without_publish_write_is_told_which_scope_to_grant() {
    let app = app().await;
    let remote = TestSandbox::start().await;
    let scopes: Vec<&str> = api_types::scopes::ALL.iter().copied().filter(|s| *s != "publish:write").collect();
    let key = remote.key_with(&scopes);
    let p = c::profile_add(&app, ProfileAddArgs { name: "No publish".into(), base_url: Some(remote.base_url()) }).await.unwrap();
    c::key_set(&app, KeySetArgs { profile_id: p.id.clone(), key }).await.unwrap();
    c::profile_select(&app, ProfileRefArgs { profile_id: p.id }).await.unwrap();

    let card_id = card(&app, "Blocked").await;
    let e = c::card_publish(&app, CardPublishInput { card_id: card_id.clone(), platform: None }).await.unwrap_err();
    assert_eq!(e.code, IpcCode::MissingScope);
    assert_eq!(e.scope.as_deref(), Some("publish:write"));
    assert!(e.message.contains("publish:write"), "{}", e.message);
    let v = serde_json::to_value(&e).unwrap();
    assert_eq!((v["code"].as_str(), v["scope"].as_str(), v["status"].as_i64()), (Some("missingScope"), Some("publish:write"), Some(403)));
    // The other attach commands still work with that key.
    assert!(!c::content_list(&app, ContentListInput::default()).await.unwrap().outliers.is_empty());
    let made = c::project_create(&app, ProjectCreateInput { card_id: Some(card_id.clone()), title: Some("Cut".into()), ..Default::default() }).await.unwrap();
    assert_eq!(made.linked_card_id.as_deref(), Some(card_id.as_str()));
}

#[tokio::test]
async fn the_attach_commands_answer_through_dispatch_with_the_wire_shape() {
    let app = app().await;
    let v = ipc::dispatch(&app, "content_list", json!({ "limit": 2 })).await.unwrap();
    let first = &v["outliers"][0];
    for k in ["id", "sourceCreator", "accountHandle", "outlierScore", "viewCount", "thumbnailUrl"] {
        assert!(first.get(k).is_some(), "{k} in {first}");
    }
    assert!(v["total"].is_number() && v["hasMore"].is_boolean());
    let card_id = card(&app, "Wire").await;
    let v = ipc::dispatch(&app, "project_create", json!({ "cardId": card_id, "title": "Wire cut" })).await.unwrap();
    assert_eq!(v["linkedCardId"], json!(card_id));
    assert_eq!(v["project"]["linkedCardId"], json!(card_id));
    let v = ipc::dispatch(&app, "project_import", json!({ "cardId": card_id, "pptxUrl": "https://example.com/a.pptx" }))
        .await
        .unwrap();
    assert_eq!(v["linkedCardId"], json!(card_id));
    let v = ipc::dispatch(&app, "projects_list", json!(null)).await.unwrap();
    assert!(v.as_array().unwrap().len() >= 2);
    let v = ipc::dispatch(&app, "media_upload", json!({ "name": "d.png", "contentType": "image/png", "contentBase64": PNG })).await.unwrap();
    assert!(v["outputId"].is_string() && v["url"].is_string());
    let e = ipc::dispatch(&app, "project_create", json!({ "cardId": card_id, "title": "x", "bogus": 1 })).await.unwrap_err();
    assert_eq!((e.code, e.field.as_deref()), (IpcCode::Validation, Some("bogus")));
    // The app's old `name` is the catalogue's `title` now: refused by name.
    let e = ipc::dispatch(&app, "project_create", json!({ "cardId": card_id, "name": "x" })).await.unwrap_err();
    assert_eq!((e.code, e.field.as_deref()), (IpcCode::Validation, Some("name")), "{e:?}");
    // The app's old `source` object is the catalogue's `pptxUrl`/`canvaDesignId` now: refused by name.
    let e = ipc::dispatch(&app, "project_import", json!({ "cardId": card_id, "source": { "type": "pptx", "fileUrl": "https://example.com/a.pptx" } })).await.unwrap_err();
    assert_eq!((e.code, e.field.as_deref()), (IpcCode::Validation, Some("source")), "{e:?}");
    for cmd in ["content_list", "projects_list", "project_create", "project_import", "media_upload", "card_publish"] {
        assert!(ipc::COMMANDS.contains(&cmd), "{cmd} is listed");
    }
}
