//! The media library (`client.media().list`) against the sandbox: the demo's renders and new outputs,
//! one entry per variant whose token the service takes, filters, paging, a bad `limit` refused before
//! anything is listed, and only the caller's own media.
mod common;
use api_types::{GenerateRequest, MediaQuery, MediaSummary};
use common::*;
use contentdesk_api_client::ApiError;

const PNG: &[u8] = &[0x89, b'P', b'N', b'G', 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 0];

fn tokens(media: &[MediaSummary]) -> Vec<String> {
    media.iter().map(MediaSummary::token).collect()
}

#[tokio::test]
async fn lists_the_library_newest_first_one_entry_per_output() {
    let (_sb, client) = start().await;
    let demo = ok(client.media().list(&MediaQuery::default()).await).media;
    assert_eq!(demo.len(), 2, "the demo's seeded renders: {demo:?}");
    assert!(demo.iter().all(|m| m.status == "completed" && m.url.is_some() && m.source.as_deref() == Some("creations")));

    let generated = ok(client
        .studio()
        .generate(&GenerateRequest {
            model_id: "nano-banana-2".into(),
            prompt: Some("two lanterns".into()),
            num_images: Some(2),
            ..Default::default()
        })
        .await);
    let id = generated.output_id.clone();
    let all = ok(client.media().list(&MediaQuery::default()).await).media;
    assert_eq!(tokens(&all[..2]), [format!("{id}-1"), format!("{id}-2")]);
    assert_eq!(all[0].variant, 0);
    assert_eq!(all[1].variant, 1);
    assert_eq!(all[0].r#type, "image");
    assert_eq!(all[0].model.as_deref(), Some("nano-banana-2"));
    assert_eq!(all[0].prompt.as_deref(), Some("two lanterns"));
    assert_eq!(all[0].generation_size, Some(2));
    assert_eq!(all[1].url.as_deref(), generated.output_urls.get(1).map(String::as_str));
    assert_eq!(&all[2..], &demo[..]);

    // Paging by offset gives the same entries.
    let mut paged = Vec::new();
    for offset in [0, 3] {
        let q = MediaQuery { limit: Some(3), offset: Some(offset), ..Default::default() };
        paged.extend(ok(client.media().list(&q).await).media);
    }
    assert_eq!(paged, all);
}

#[tokio::test]
async fn filters_and_a_bad_limit() {
    let (sb, client) = start().await;
    let uploaded = ok(client.media().upload("cover.png", "image/png", PNG.to_vec()).await);
    let videos = ok(client.media().list(&MediaQuery { content_type: Some("video".into()), ..Default::default() }).await).media;
    assert_eq!(videos.len(), 1);
    assert_eq!(videos[0].r#type, "video");
    let uploads = ok(client.media().list(&MediaQuery { source: Some("uploads".into()), ..Default::default() }).await).media;
    assert_eq!(tokens(&uploads), [format!("{}-1", uploaded.output_id)]);
    assert_eq!(uploads[0].file_name.as_deref(), Some("cover.png"));
    assert_eq!(uploads[0].kind.as_deref(), Some("upload"));
    assert_eq!(uploads[0].url.as_deref(), Some(uploaded.url.as_str()));
    let all = ok(client.media().list(&MediaQuery { source: Some("all".into()), ..Default::default() }).await).media;
    assert_eq!(all.len(), 3);

    for limit in [0, 101] {
        let e = client.media().list(&MediaQuery { limit: Some(limit), ..Default::default() }).await.unwrap_err();
        assert!(matches!(e, ApiError::Validation { field: Some(ref f), .. } if f == "limit"), "limit {limit}: {e:?}");
    }
    let e = client.media().list(&MediaQuery { source: Some("everything".into()), ..Default::default() }).await.unwrap_err();
    match e {
        ApiError::Validation { field, valid_values, .. } => {
            assert_eq!(field.as_deref(), Some("source"));
            assert_eq!(valid_values, ["creations", "uploads", "stock", "all"]);
        }
        other => panic!("expected a validation error, got {other:?}"),
    }

    // Reads need no scope.
    let bare = client_with(&sb, &[]);
    assert_eq!(ok(bare.media().list(&MediaQuery::default()).await).media.len(), 2);
}

#[tokio::test]
async fn another_accounts_media_is_never_listed() {
    let (sb, client) = start().await;
    let other = other_client(&sb, 50.0);
    assert!(ok(other.media().list(&MediaQuery { source: Some("all".into()), ..Default::default() }).await).media.is_empty());
    let theirs = ok(other
        .studio()
        .generate(&GenerateRequest { model_id: "nano-banana-2".into(), prompt: Some("theirs".into()), ..Default::default() })
        .await);
    let listed = ok(other.media().list(&MediaQuery::default()).await).media;
    assert_eq!(tokens(&listed), [format!("{}-1", theirs.output_id)]);
    let mine = ok(client.media().list(&MediaQuery { source: Some("all".into()), ..Default::default() }).await).media;
    assert!(mine.iter().all(|m| m.id != theirs.output_id));
    assert_eq!(mine.len(), 2);
}
