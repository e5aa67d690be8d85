//! cards: rules_4_to_6.
use super::*;

#[tokio::test]
async fn rule4_an_asset_entry_with_two_references_is_400() {
    let (_sb, client) = start().await;
    let card = new_card(&client, "Two refs").await;
    let bad = CardAssetInput {
        asset_url: Some("https://example.com/x".into()),
        content_id: Some(content_id(&client).await),
        ..Default::default()
    };
    let e = client
        .cards()
        .update(
            &card.summary.id,
            &UpdateCard {
                assets: Some(vec![bad]),
                ..Default::default()
            },
        )
        .await;
    let e = e.unwrap_err();
    assert_eq!(e.status(), Some(400), "{e:?}");
    assert_eq!(validation_field(&e), Some("assets[0]"), "{e:?}");
}

#[tokio::test]
async fn rule4_an_asset_entry_with_no_reference_is_400() {
    let (_sb, client) = start().await;
    let card = new_card(&client, "No ref").await;
    let bad = CardAssetInput {
        display_name: Some("nothing".into()),
        ..Default::default()
    };
    let e = client
        .cards()
        .update(
            &card.summary.id,
            &UpdateCard {
                assets: Some(vec![bad]),
                ..Default::default()
            },
        )
        .await;
    let e = e.unwrap_err();
    assert_eq!(e.status(), Some(400), "{e:?}");
    assert_eq!(validation_field(&e), Some("assets[0]"), "{e:?}");
}

#[tokio::test]
async fn rule4_and_5_are_caught_by_card_edit_before_any_request() {
    let (sb, client) = start().await;
    let card = new_card(&client, "Local").await;
    // a key that may only read: if the PATCH were sent it would be a 403, not a local 400
    let reader = client_with(&sb, &[]);
    let e = reader
        .cards()
        .edit(&card.summary.id, |e| {
            e.add_link("https://a.test").add_link("https://a.test");
        })
        .await
        .unwrap_err();
    assert!(
        matches!(e, ApiError::Validation { ref body, .. } if body.is_empty()),
        "{e:?}"
    );
    assert_eq!(validation_field(&e), Some("assets[1]"));
}

#[tokio::test]
async fn rule5_the_same_asset_id_twice_is_400() {
    let (_sb, client) = start().await;
    let card = new_card(&client, "Dup id").await;
    let id = card.summary.id.clone();
    ok(client
        .cards()
        .edit(&id, |e| {
            e.add_link("https://example.com/d");
        })
        .await);
    let asset = ok(client.cards().get(&id).await).assets[0].id.clone();
    let update = UpdateCard {
        assets: Some(vec![
            CardAssetInput::keep(asset.clone()),
            CardAssetInput::keep(asset),
        ]),
        ..Default::default()
    };
    let e = client.cards().update(&id, &update).await.unwrap_err();
    assert_eq!(e.status(), Some(400), "{e:?}");
    assert_eq!(validation_field(&e), Some("assets[1]"), "{e:?}");
}

#[tokio::test]
async fn rule5_the_same_project_file_or_post_twice_is_400() {
    let (_sb, client) = start().await;
    let card = new_card(&client, "Dups").await;
    let id = card.summary.id.clone();
    let project = project_id(&client).await;
    let content = content_id(&client).await;
    let out = output(&client).await;
    let lists = vec![
        (
            "project",
            vec![
                CardAssetInput::project(project.clone()),
                CardAssetInput::project(project),
            ],
        ),
        (
            "file",
            vec![
                CardAssetInput::output(out.clone()),
                CardAssetInput::output(out),
            ],
        ),
        (
            "inspiration post",
            vec![
                CardAssetInput::inspiration(content.clone()),
                CardAssetInput::inspiration(content),
            ],
        ),
    ];
    for (what, assets) in lists {
        let e = client
            .cards()
            .update(
                &id,
                &UpdateCard {
                    assets: Some(assets),
                    ..Default::default()
                },
            )
            .await;
        let e = e.expect_err(what);
        assert_eq!(e.status(), Some(400), "{what}: {e:?}");
        assert_eq!(validation_field(&e), Some("assets[1]"), "{what}: {e:?}");
    }
    let posts = vec![
        PostInput {
            platform: "instagram".into(),
            ..Default::default()
        },
        PostInput {
            platform: "instagram".into(),
            ..Default::default()
        },
    ];
    let e = client
        .cards()
        .update(
            &id,
            &UpdateCard {
                posts: Some(posts),
                ..Default::default()
            },
        )
        .await
        .unwrap_err();
    assert_eq!(e.status(), Some(400), "posts: {e:?}");
    assert_eq!(validation_field(&e), Some("posts[1]"), "{e:?}");
    // nothing was written by any of them
    let read = ok(client.cards().get(&id).await);
    assert!(read.assets.is_empty());
}

#[tokio::test]
async fn rule6_inspiration_is_attached_by_content_id_and_read_back_with_its_figures() {
    let (_sb, client) = start().await;
    let card = new_card(&client, "Inspired").await;
    let id = card.summary.id.clone();
    let content = content_id(&client).await;
    ok(client
        .cards()
        .edit(&id, |e| {
            e.add_inspiration(content.clone());
        })
        .await);
    let read = ok(client.cards().get(&id).await);
    let a = &read.assets[0];
    assert_eq!(a.content_id.as_deref(), Some(content.as_str()));
    assert_eq!(
        a.asset_id.as_deref(),
        Some(content.as_str()),
        "assetId is the deprecated alias"
    );
    let insp = a.inspiration.as_ref().expect("inspiration figures");
    assert!(insp.creator.is_some() || insp.handle.is_some(), "{insp:?}");
    assert!(insp.outlier_score.is_some());
    assert!(insp.view_count.is_some());
}

#[tokio::test]
async fn rule6_inspiration_with_asset_url_is_400_naming_content_id() {
    let (_sb, client) = start().await;
    let card = new_card(&client, "Wrong way").await;
    let bad = CardAssetInput {
        asset_type: Some("inspiration".into()),
        asset_url: Some("https://www.instagram.com/p/abc".into()),
        ..Default::default()
    };
    let e = client
        .cards()
        .update(
            &card.summary.id,
            &UpdateCard {
                assets: Some(vec![bad]),
                ..Default::default()
            },
        )
        .await
        .unwrap_err();
    assert_eq!(e.status(), Some(400), "{e:?}");
    assert!(
        e.to_string().contains("contentId"),
        "the error names contentId: {e}"
    );
}

#[tokio::test]
async fn linked_project_reads_back_as_project_id() {
    let (_sb, client) = start().await;
    let card = new_card(&client, "With project").await;
    let project = project_id(&client).await;
    ok(client
        .cards()
        .edit(&card.summary.id, |e| {
            e.add_project(project.clone());
        })
        .await);
    let read = ok(client.cards().get(&card.summary.id).await);
    assert_eq!(read.assets[0].project_id.as_deref(), Some(project.as_str()));
}
