//! cards: the platform preflight (issue 28) over a card as the real sandbox reads it back: posts written as
//! `platformSpecificData` and read as `platformSettings`, outputs read with their content type as `assetType`.
use super::*;
use api_types::preflight::{self, PreflightInput, Report};

#[tokio::test]
async fn a_card_read_back_from_the_sandbox_is_checked_with_its_captions_and_image_outputs() {
    let (_sb, client) = start().await;
    let card = new_card(&client, "Preflight").await;
    let mut assets: Vec<CardAssetInput> = Vec::new();
    for _ in 0..5 {
        assets.push(CardAssetInput { output_id: Some(output(&client).await), ..Default::default() });
    }
    assets.push(CardAssetInput { asset_url: Some("https://example.com/brief".into()), ..Default::default() });
    let post = |platform: &str, caption: String| PostInput {
        platform: platform.into(),
        platform_specific_data: Some(serde_json::json!({ "caption": caption })),
        ..Default::default()
    };
    ok(client
        .cards()
        .update(
            &card.summary.id,
            &UpdateCard {
                posts: Some(vec![
                    post("x", format!("{} https://example.com/a/long/path/past/twenty-three/characters", "a".repeat(257))),
                    post("threads", "hi 😀".into()),
                ]),
                assets: Some(assets),
                ..Default::default()
            },
        )
        .await);
    let read = ok(client.cards().get(&card.summary.id).await);
    let report = Report { findings: preflight::check(&PreflightInput::from_card(&read)) };
    let got: Vec<_> = report
        .findings
        .iter()
        .map(|f| (f.platform.as_str(), f.field.as_str(), f.rule.as_str(), f.actual))
        .collect();
    // 257 letters, a space and a link counted 23; five image outputs (the link is not media); Threads fits.
    assert_eq!(got, [("x", "caption", "max_length", 281.0), ("x", "media", "max_count", 5.0)]);
    assert!(report.blocks());
}
