//! cards: rules_7_8_notes_archive.
use super::*;

#[tokio::test]
async fn rule7_a_post_the_caller_cannot_see_is_404() {
    let (sb, client) = start().await;
    let demo_content = content_id(&client).await;
    let other = other_client(&sb, 10.0);
    let theirs = new_card(&other, "Theirs").await;
    let e = other
        .cards()
        .update(
            &theirs.summary.id,
            &UpdateCard {
                assets: Some(vec![CardAssetInput::inspiration(demo_content)]),
                ..Default::default()
            },
        )
        .await
        .unwrap_err();
    assert!(matches!(e, ApiError::NotFound { .. }), "{e:?}");
}

#[tokio::test]
async fn rule7_a_project_not_the_callers_is_404() {
    let (sb, client) = start().await;
    let demo_project = project_id(&client).await;
    let other = other_client(&sb, 10.0);
    let theirs = new_card(&other, "Theirs").await;
    let e = other
        .cards()
        .update(
            &theirs.summary.id,
            &UpdateCard {
                assets: Some(vec![CardAssetInput::project(demo_project)]),
                ..Default::default()
            },
        )
        .await
        .unwrap_err();
    assert!(matches!(e, ApiError::NotFound { .. }), "{e:?}");
}

#[tokio::test]
async fn another_accounts_card_is_404() {
    let (sb, client) = start().await;
    let card = new_card(&client, "Mine").await;
    let other = other_client(&sb, 10.0);
    let e = other.cards().get(&card.summary.id).await.unwrap_err();
    assert!(matches!(e, ApiError::NotFound { .. }), "{e:?}");
}

#[tokio::test]
async fn rule8_card_writes_need_planner_write() {
    let (sb, client) = start().await;
    let card = new_card(&client, "Scoped").await;
    let c = client_with(&sb, &[scopes::PUBLISH_WRITE]);
    let e = c
        .cards()
        .update(
            &card.summary.id,
            &UpdateCard {
                title: Some("x".into()),
                ..Default::default()
            },
        )
        .await
        .unwrap_err();
    assert!(
        matches!(e, ApiError::MissingScope { scope: Some(ref s), .. } if s == "planner:write"),
        "{e:?}"
    );
}

#[tokio::test]
async fn rule8_creating_and_assembling_posts_needs_pipeline_write() {
    let (sb, client) = start().await;
    let card = new_card(&client, "Posts").await;
    let c = client_with(&sb, &[scopes::PLANNER_WRITE]);
    let update = UpdateCard {
        posts: Some(vec![PostInput {
            platform: "tiktok".into(),
            ..Default::default()
        }]),
        ..Default::default()
    };
    let e = c
        .cards()
        .update(&card.summary.id, &update)
        .await
        .unwrap_err();
    assert!(
        matches!(e, ApiError::MissingScope { scope: Some(ref s), .. } if s == "pipeline:write"),
        "{e:?}"
    );
}

#[tokio::test]
async fn rule8_scheduling_needs_publish_write() {
    let (sb, client) = start().await;
    let card = new_card(&client, "When").await;
    let c = client_with(&sb, &[scopes::PLANNER_WRITE, scopes::PIPELINE_WRITE]);
    let update = UpdateCard {
        scheduled_at: Some(Some("2026-12-01T10:00:00.000Z".into())),
        ..Default::default()
    };
    let e = c
        .cards()
        .update(&card.summary.id, &update)
        .await
        .unwrap_err();
    assert!(
        matches!(e, ApiError::MissingScope { scope: Some(ref s), .. } if s == "publish:write"),
        "{e:?}"
    );
}

#[tokio::test]
async fn rule8_attaching_a_new_output_needs_assets_write() {
    let (sb, client) = start().await;
    let card = new_card(&client, "Media").await;
    let out = output(&client).await;
    let c = client_with(&sb, &[scopes::PLANNER_WRITE]);
    let update = UpdateCard {
        assets: Some(vec![CardAssetInput::output(out)]),
        ..Default::default()
    };
    let e = c
        .cards()
        .update(&card.summary.id, &update)
        .await
        .unwrap_err();
    assert!(
        matches!(e, ApiError::MissingScope { scope: Some(ref s), .. } if s == "assets:write"),
        "{e:?}"
    );
}

#[tokio::test]
async fn notes_need_the_revision_read_and_a_stale_one_is_409_with_the_current_notes() {
    let (_sb, client) = start().await;
    let card = new_card(&client, "Notes").await;
    let id = card.summary.id.clone();
    let no_rev = client
        .cards()
        .update(
            &id,
            &UpdateCard {
                notes: Some("draft".into()),
                ..Default::default()
            },
        )
        .await;
    assert_eq!(no_rev.unwrap_err().status(), Some(400));
    let rev = card.revision;
    ok(client
        .cards()
        .update(
            &id,
            &UpdateCard {
                notes: Some("first".into()),
                expected_revision: Some(rev),
                ..Default::default()
            },
        )
        .await);
    let e = client
        .cards()
        .update(
            &id,
            &UpdateCard {
                notes: Some("stale".into()),
                expected_revision: Some(rev),
                ..Default::default()
            },
        )
        .await
        .unwrap_err();
    match e {
        ApiError::NotesConflict {
            notes, revision, ..
        } => {
            assert_eq!(notes, "first");
            assert!(revision > rev);
        }
        other => panic!("expected NotesConflict, got {other:?}"),
    }
}

#[tokio::test]
async fn archive_card_removes_it_from_the_board_and_restore_brings_it_back() {
    let (_sb, client) = start().await;
    let card = new_card(&client, "Archive me").await;
    let id = card.summary.id.clone();
    let r = ok(client
        .archive(&ArchiveRequest {
            asset_type: "card".into(),
            id: id.clone(),
            archived: None,
            ..Default::default()
        })
        .await);
    assert!(r.archived);
    let live = ok(client
        .cards()
        .list(&CardQuery {
            search: Some("Archive me".into()),
            ..Default::default()
        })
        .await);
    assert!(
        live.cards.iter().all(|c| c.id != id),
        "an archived card leaves the board"
    );
    let read = ok(client.cards().get(&id).await);
    assert!(read.summary.is_archived);
    let r = ok(client
        .archive(&ArchiveRequest {
            asset_type: "card".into(),
            id: id.clone(),
            archived: Some(false),
            ..Default::default()
        })
        .await);
    assert!(!r.archived);
    let live = ok(client
        .cards()
        .list(&CardQuery {
            search: Some("Archive me".into()),
            ..Default::default()
        })
        .await);
    assert!(live.cards.iter().any(|c| c.id == id));
}

#[tokio::test]
async fn archive_needs_favorites_write() {
    let (sb, client) = start().await;
    let card = new_card(&client, "Scoped archive").await;
    let c = client_with(&sb, &[scopes::PLANNER_WRITE]);
    let e = c
        .archive(&ArchiveRequest {
            asset_type: "card".into(),
            id: card.summary.id.clone(),
            archived: None,
            ..Default::default()
        })
        .await
        .unwrap_err();
    assert!(
        matches!(e, ApiError::MissingScope { scope: Some(ref s), .. } if s == "favorites:write"),
        "{e:?}"
    );
}

#[tokio::test]
async fn publish_needs_publish_write() {
    let (sb, client) = start().await;
    let card = new_card(&client, "Go live").await;
    let c = client_with(&sb, &[scopes::PLANNER_WRITE]);
    let e = c
        .cards()
        .publish(&card.summary.id, &Default::default())
        .await
        .unwrap_err();
    assert!(
        matches!(e, ApiError::MissingScope { scope: Some(ref s), .. } if s == "publish:write"),
        "{e:?}"
    );
}
