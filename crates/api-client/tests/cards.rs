//! Cards (spec §4 "Cards" rules 1–8, "Archive"): declarative posts and assets, carousel order, schedule,
//! the 400s for bad entries, the 404s for what the caller cannot see, and the scopes of writes.
mod common;
use api_types::{
    scopes, ArchiveRequest, CardAssetInput, CardDetail, CardQuery, ContentQuery, ContentType,
    CreateCard, CreateProject, GenerateRequest, ModelKind, PostInput, UpdateCard,
};
use common::*;
use contentdesk_api_client::{ApiError, Client};

async fn new_card(client: &Client, title: &str) -> CardDetail {
    let created = ok(client
        .cards()
        .create(&CreateCard {
            title: title.into(),
            platform: "instagram".into(),
            ..Default::default()
        })
        .await);
    ok(client.cards().get(&created.id).await)
}

/// A finished image output of the caller's, as a token.
async fn output(client: &Client) -> String {
    let models = ok(client.models().list(Some(ContentType::Image)).await);
    let m = models
        .iter()
        .find(|m| m.kind == ModelKind::Generate)
        .expect("image model");
    let r = ok(client
        .studio()
        .generate(&GenerateRequest {
            model_id: m.model_id.clone(),
            prompt: Some("tile".into()),
            ..Default::default()
        })
        .await);
    let opts = contentdesk_api_client::WaitOptions {
        initial: Some(std::time::Duration::from_millis(30)),
        ..Default::default()
    };
    ok(client.studio().wait(&r.output_id, opts).await);
    r.output_id
}

async fn content_id(client: &Client) -> String {
    let list = ok(client
        .inspiration()
        .content()
        .list(&ContentQuery::default())
        .await);
    list.outliers
        .first()
        .expect("seeded inspiration content")
        .id
        .clone()
}

async fn project_id(client: &Client) -> String {
    ok(client
        .projects()
        .create(&CreateProject {
            title: Some("Cut".into()),
            ..Default::default()
        })
        .await)
    .project
    .id
}

/// The same instant whether or not zero milliseconds are written (the format has its own test).
fn instant(t: &Option<String>) -> Option<String> {
    t.as_ref().map(|t| t.replace(".000Z", "Z"))
}

fn validation_field(e: &ApiError) -> Option<&str> {
    match e {
        ApiError::Validation { field, .. } => field.as_deref(),
        _ => None,
    }
}

#[tokio::test]
async fn cards_list_get_and_create() {
    let (_sb, client) = start().await;
    let card = new_card(&client, "Launch teaser").await;
    assert_eq!(card.summary.title, "Launch teaser");
    let list = ok(client
        .cards()
        .list(&CardQuery {
            search: Some("Launch teaser".into()),
            ..Default::default()
        })
        .await);
    assert!(
        list.cards.iter().any(|c| c.id == card.summary.id),
        "{list:?}"
    );
    let page = ok(client
        .cards()
        .list(&CardQuery {
            limit: Some(1),
            ..Default::default()
        })
        .await);
    assert!(page.cards.len() <= 1);
    assert!(page.total >= 1);
}

#[tokio::test]
async fn rule1_assets_and_posts_are_declarative_and_what_is_left_out_is_removed() {
    let (_sb, client) = start().await;
    let card = new_card(&client, "Declarative").await;
    let id = card.summary.id.clone();
    ok(client
        .cards()
        .edit(&id, |e| {
            e.add_link("https://example.com/one")
                .add_link("https://example.com/two");
            e.set_post(PostInput {
                platform: "instagram".into(),
                ..Default::default()
            });
            e.set_post(PostInput {
                platform: "tiktok".into(),
                ..Default::default()
            });
        })
        .await);
    let read = ok(client.cards().get(&id).await);
    assert_eq!(read.assets.len(), 2);
    assert_eq!(read.posts.len(), 2);
    // send a list without the first asset and without tiktok: both go
    let keep = read.assets[1].id.clone();
    let update = UpdateCard {
        assets: Some(vec![CardAssetInput::keep(keep.clone())]),
        posts: Some(vec![PostInput {
            platform: "instagram".into(),
            ..Default::default()
        }]),
        ..Default::default()
    };
    ok(client.cards().update(&id, &update).await);
    let read = ok(client.cards().get(&id).await);
    assert_eq!(
        read.assets.iter().map(|a| a.id.clone()).collect::<Vec<_>>(),
        vec![keep]
    );
    assert_eq!(
        read.posts
            .iter()
            .filter_map(|p| p.platform.clone())
            .collect::<Vec<_>>(),
        vec!["instagram"]
    );
    // empty lists clear
    ok(client
        .cards()
        .update(
            &id,
            &UpdateCard {
                assets: Some(vec![]),
                posts: Some(vec![]),
                ..Default::default()
            },
        )
        .await);
    let read = ok(client.cards().get(&id).await);
    assert!(read.assets.is_empty() && read.posts.is_empty());
}

#[tokio::test]
async fn rule1_append_is_read_add_and_send_all_back() {
    let (_sb, client) = start().await;
    let card = new_card(&client, "Append").await;
    let id = card.summary.id.clone();
    ok(client
        .cards()
        .edit(&id, |e| {
            e.add_link("https://example.com/a");
        })
        .await);
    ok(client
        .cards()
        .edit(&id, |e| {
            e.add_link("https://example.com/b");
        })
        .await);
    let read = ok(client.cards().get(&id).await);
    let urls: Vec<_> = read
        .assets
        .iter()
        .filter_map(|a| a.asset_url.clone())
        .collect();
    assert_eq!(urls, vec!["https://example.com/a", "https://example.com/b"]);
}

#[tokio::test]
async fn rule2_asset_order_is_the_carousel_order_and_reorder_is_sending_ids_in_a_new_order() {
    let (_sb, client) = start().await;
    let card = new_card(&client, "Carousel").await;
    let id = card.summary.id.clone();
    let out = output(&client).await;
    ok(client
        .cards()
        .edit(&id, |e| {
            e.add_output(out.clone())
                .add_link("https://example.com/2")
                .add_link("https://example.com/3");
        })
        .await);
    let read = ok(client.cards().get(&id).await);
    assert_eq!(
        read.assets[0]
            .output_id
            .as_deref()
            .map(|o| o.starts_with(&out)),
        Some(true),
        "{:?}",
        read.assets
    );
    let ids: Vec<String> = read.assets.iter().map(|a| a.id.clone()).collect();
    ok(client
        .cards()
        .edit(&id, |e| {
            e.move_asset(2, 0);
        })
        .await);
    let read = ok(client.cards().get(&id).await);
    let now: Vec<String> = read.assets.iter().map(|a| a.id.clone()).collect();
    assert_eq!(now, vec![ids[2].clone(), ids[0].clone(), ids[1].clone()]);
}

#[tokio::test]
async fn rule3_scheduled_at_sets_the_card_and_every_post_and_a_post_may_override() {
    let (_sb, client) = start().await;
    let card = new_card(&client, "Schedule").await;
    let id = card.summary.id.clone();
    let card_time = "2026-11-22T08:00:00.000Z";
    let own_time = "2026-11-23T09:30:00.000Z";
    let update = UpdateCard {
        scheduled_at: Some(Some(card_time.into())),
        posts: Some(vec![
            PostInput {
                platform: "instagram".into(),
                ..Default::default()
            },
            PostInput {
                platform: "tiktok".into(),
                scheduled_at: Some(own_time.into()),
                ..Default::default()
            },
        ]),
        ..Default::default()
    };
    ok(client.cards().update(&id, &update).await);
    let read = ok(client.cards().get(&id).await);
    assert_eq!(
        instant(&read.summary.scheduled_at),
        instant(&Some(card_time.into()))
    );
    let post = |p: &str| {
        read.posts
            .iter()
            .find(|x| x.platform.as_deref() == Some(p))
            .unwrap()
            .clone()
    };
    assert_eq!(
        instant(&post("instagram").scheduled_at),
        instant(&Some(card_time.into()))
    );
    assert_eq!(
        instant(&post("tiktok").scheduled_at),
        instant(&Some(own_time.into()))
    );
    // no flag says the time is the post's own: it differs from the card's
    // clearing the card's time keeps the post's own
    ok(client
        .cards()
        .update(
            &id,
            &UpdateCard {
                scheduled_at: Some(None),
                ..Default::default()
            },
        )
        .await);
    let read = ok(client.cards().get(&id).await);
    assert_eq!(read.summary.scheduled_at, None);
}

#[tokio::test]
async fn times_are_rfc3339_utc_with_milliseconds() {
    // docs/api.md "Times": `2026-11-22T08:00:00.000Z`
    let (_sb, client) = start().await;
    let card = new_card(&client, "Time format").await;
    let update = UpdateCard {
        scheduled_at: Some(Some("2026-11-22T09:00:00+01:00".into())),
        ..Default::default()
    };
    ok(client.cards().update(&card.summary.id, &update).await);
    let read = ok(client.cards().get(&card.summary.id).await);
    assert_eq!(
        read.summary.scheduled_at.as_deref(),
        Some("2026-11-22T08:00:00.000Z")
    );
}

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
