//! Uploads and imports against the sandbox: ticket → PUT → complete gives an `outputId` that a card can
//! attach; an import is idempotent by content; both need `assets:write`.
mod common;
use api_types::{scopes, CreateCard, CreateUpload, ImportMedia};
use common::*;
use contentdesk_api_client::ApiError;

const PNG: &[u8] = &[0x89, b'P', b'N', b'G', 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 0];

#[tokio::test]
async fn upload_then_attach_to_a_card() {
    let (_sb, client) = start().await;
    let uploaded = ok(client
        .media()
        .upload("cover.png", "image/png", PNG.to_vec())
        .await);
    assert!(!uploaded.url.is_empty());
    let card = ok(client
        .cards()
        .create(&CreateCard {
            title: "Uploaded".into(),
            platform: "x".into(),
            ..Default::default()
        })
        .await);
    ok(client
        .cards()
        .edit(&card.id, |e| {
            e.add_output(uploaded.output_id.clone());
        })
        .await);
    let read = ok(client.cards().get(&card.id).await);
    assert_eq!(read.assets.len(), 1);
    assert!(read.assets[0]
        .output_id
        .as_deref()
        .unwrap_or_default()
        .starts_with(&uploaded.output_id));
}

#[tokio::test]
async fn upload_steps_one_by_one() {
    let (_sb, client) = start().await;
    let ticket = ok(client
        .media()
        .create_upload(&CreateUpload {
            file_name: "a.png".into(),
            content_type: "image/png".into(),
            size_bytes: Some(PNG.len() as u64),
            ..Default::default()
        })
        .await);
    assert!(!ticket.upload_url.is_empty());
    ok(client.media().put_bytes(&ticket, PNG.to_vec()).await);
    let done = ok(client.media().complete_upload(&ticket.output_id).await);
    assert_eq!(done.output_id, ticket.output_id);
}

#[tokio::test]
async fn completing_before_the_bytes_arrive_is_refused() {
    let (_sb, client) = start().await;
    let ticket = ok(client
        .media()
        .create_upload(&CreateUpload {
            file_name: "b.png".into(),
            content_type: "image/png".into(),
            size_bytes: None,
            ..Default::default()
        })
        .await);
    let e = client
        .media()
        .complete_upload(&ticket.output_id)
        .await
        .unwrap_err();
    assert_eq!(e.status(), Some(400), "{e:?}");
}

#[tokio::test]
async fn import_by_url_is_idempotent_by_content() {
    let (_sb, client) = start().await;
    let req = ImportMedia {
        url: "https://example.com/photo.jpg".into(),
        ..Default::default()
    };
    let first = ok(client.media().import(&req).await);
    assert!(!first.already_existed);
    let again = ok(client.media().import(&req).await);
    assert!(again.already_existed);
    assert_eq!(again.output_id, first.output_id);
}

#[tokio::test]
async fn uploads_need_assets_write() {
    let (sb, _) = start().await;
    let c = client_with(&sb, &[scopes::PLANNER_WRITE]);
    let e = c
        .media()
        .upload("c.png", "image/png", PNG.to_vec())
        .await
        .unwrap_err();
    assert!(
        matches!(e, ApiError::MissingScope { scope: Some(ref s), .. } if s == "assets:write"),
        "{e:?}"
    );
}
