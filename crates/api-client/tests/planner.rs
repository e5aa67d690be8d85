//! Spaces, stages (including DELETE with a JSON body), tags and connected accounts.
mod common;
use api_types::{CreateCard, CreateSpace, CreateStage, DeleteStage, UpdateSpace, UpdateStage};
use common::*;
use contentdesk_api_client::{ApiError, Method};

#[tokio::test]
async fn spaces_create_get_update_and_list() {
    let (_sb, client) = start().await;
    let s = ok(client
        .spaces()
        .create(&CreateSpace {
            name: "Podcast".into(),
            ..Default::default()
        })
        .await);
    assert_eq!(s.name, "Podcast");
    let got = ok(client.spaces().get(&s.id).await);
    assert_eq!(got.id, s.id);
    let renamed = ok(client
        .spaces()
        .update(
            &s.id,
            &UpdateSpace {
                name: Some("Podcast S2".into()),
                ..Default::default()
            },
        )
        .await);
    assert_eq!(renamed.name, "Podcast S2");
    let all = ok(client.spaces().list(false).await);
    assert!(all.iter().any(|x| x.id == s.id));
}

#[tokio::test]
async fn space_writes_need_planner_write() {
    let (sb, _) = start().await;
    let c = client_with(&sb, &[]);
    let e = c
        .spaces()
        .create(&CreateSpace {
            name: "No".into(),
            ..Default::default()
        })
        .await
        .unwrap_err();
    assert!(
        matches!(e, ApiError::MissingScope { scope: Some(ref s), .. } if s == "planner:write"),
        "{e:?}"
    );
}

#[tokio::test]
async fn another_accounts_space_is_404() {
    let (sb, client) = start().await;
    let s = ok(client
        .spaces()
        .create(&CreateSpace {
            name: "Private".into(),
            ..Default::default()
        })
        .await);
    let e = other_client(&sb, 1.0)
        .spaces()
        .get(&s.id)
        .await
        .unwrap_err();
    assert!(matches!(e, ApiError::NotFound { .. }), "{e:?}");
}

#[tokio::test]
async fn stages_list_create_update_and_delete_moving_cards() {
    let (_sb, client) = start().await;
    let space = ok(client
        .spaces()
        .create(&CreateSpace {
            name: "Board".into(),
            ..Default::default()
        })
        .await);
    let listed = ok(client.stages().list(Some(&space.id)).await);
    assert_eq!(listed.space.id, space.id);
    let first = listed
        .stages
        .first()
        .cloned()
        .expect("a new space has default stages");
    let extra = ok(client
        .stages()
        .create(&CreateStage {
            name: "Parking lot".into(),
            space_id: Some(space.id.clone()),
            ..Default::default()
        })
        .await);
    let updated = ok(client
        .stages()
        .update(
            &extra.id,
            &UpdateStage {
                space_id: space.id.clone(),
                name: Some("Parked".into()),
                after_id: Some(None),
                ..Default::default()
            },
        )
        .await);
    assert_eq!(updated.stage.name, "Parked");
    let order = ok(client.stages().list(Some(&space.id)).await);
    assert_eq!(
        order.stages[0].id, extra.id,
        "after_id: null moves it to the far left"
    );
    // a card in the stage moves to the target on delete
    ok(client
        .cards()
        .create(&CreateCard {
            title: "Parked idea".into(),
            platform: "youtube".into(),
            space_id: Some(space.id.clone()),
            stage: Some(extra.id.clone()),
            ..Default::default()
        })
        .await);
    let refused = client
        .stages()
        .delete(
            &extra.id,
            &DeleteStage {
                space_id: space.id.clone(),
                target_stage_id: None,
                ..Default::default()
            },
        )
        .await
        .unwrap_err();
    assert_eq!(
        refused.status(),
        Some(400),
        "a stage with cards needs a target: {refused:?}"
    );
    let deleted = ok(client
        .stages()
        .delete(
            &extra.id,
            &DeleteStage {
                space_id: space.id.clone(),
                target_stage_id: Some(first.id.clone()),
                ..Default::default()
            },
        )
        .await);
    assert_eq!(deleted.moved_cards, 1);
    assert!(deleted.stages.iter().all(|s| s.id != extra.id));
}

#[tokio::test]
async fn tags_create_update_list_and_delete() {
    let (_sb, client) = start().await;
    let t = ok(client.tags().create("Client-Test-Tag").await);
    assert_eq!(t.name, "client-test-tag", "tag names are lowercased");
    let dup = client.tags().create("client-test-tag").await.unwrap_err();
    assert!(
        dup.status() == Some(409) || dup.status() == Some(400),
        "{dup:?}"
    );
    let u = ok(client.tags().update(&t.id, "client-test-renamed").await);
    assert_eq!(u.name, "client-test-renamed");
    assert!(ok(client.tags().list().await).iter().any(|x| x.id == t.id));
    let d = ok(client.tags().delete(&t.id).await);
    assert_eq!(d.id, t.id);
    assert!(ok(client.tags().list().await).iter().all(|x| x.id != t.id));
}

#[tokio::test]
async fn connected_accounts_are_listed_without_credentials() {
    let (_sb, client) = start().await;
    let accounts = ok(client.connected_accounts().list().await);
    assert!(!accounts.is_empty(), "the demo has connected accounts");
    let one = ok(client.connected_accounts().get(&accounts[0].id).await);
    assert_eq!(one.id, accounts[0].id);
    let raw = ok(client
        .send_json(
            Method::GET,
            &format!("/connected-accounts/{}", one.id),
            None,
        )
        .await);
    let text = raw.to_string().to_lowercase();
    for secret in ["token", "secret", "password", "credential"] {
        assert!(
            !text.contains(secret),
            "a credential field is exposed: {raw}"
        );
    }
}
