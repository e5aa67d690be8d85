//! Projects (spec §4 "Projects"): create and import, `cardId` links in the same call and the reply
//! carries `linkedCardId`; a card that is not the caller's is 404 before any project is made.
mod common;
use api_types::{scopes, CreateCard, CreateProject, ImportProject, ImportSource};
use common::*;
use contentdesk_api_client::{ApiError, Client};

async fn card(client: &Client) -> String {
    ok(client
        .cards()
        .create(&CreateCard {
            title: "Edit me".into(),
            platform: "youtube".into(),
            ..Default::default()
        })
        .await)
    .id
}

#[tokio::test]
async fn create_lists_and_gets_a_project() {
    let (_sb, client) = start().await;
    let created = ok(client
        .projects()
        .create(&CreateProject {
            title: Some("Reel cut".into()),
            ..Default::default()
        })
        .await);
    assert_eq!(
        created.project.r#type, "editor",
        "editor is the default type"
    );
    assert_eq!(created.linked_card(), None);
    let got = ok(client.projects().get(&created.project.id).await);
    assert_eq!(got.title.as_deref(), Some("Reel cut"));
    assert!(ok(client.projects().list().await)
        .iter()
        .any(|p| p.id == created.project.id));
}

#[tokio::test]
async fn create_with_card_id_links_the_card_and_replies_linked_card_id() {
    let (_sb, client) = start().await;
    let card_id = card(&client).await;
    let created = ok(client
        .projects()
        .create(&CreateProject {
            card_id: Some(card_id.clone()),
            ..Default::default()
        })
        .await);
    assert_eq!(created.linked_card(), Some(card_id.as_str()));
    let read = ok(client.cards().get(&card_id).await);
    assert!(
        read.assets
            .iter()
            .any(|a| a.project_id.as_deref() == Some(created.project.id.as_str())),
        "{:?}",
        read.assets
    );
}

#[tokio::test]
async fn import_with_card_id_links_the_card() {
    let (_sb, client) = start().await;
    let card_id = card(&client).await;
    let created = ok(client
        .projects()
        .import(&ImportProject {
            source: ImportSource::Pptx {
                file_url: "https://example.com/deck.pptx".into(),
            },
            title: Some("Deck".into()),
            page_count: None,
            card_id: Some(card_id.clone()),
            extra: Default::default(),
        })
        .await);
    assert_eq!(created.linked_card(), Some(card_id.as_str()));
}

#[tokio::test]
async fn a_foreign_card_is_404_and_no_project_is_made() {
    let (sb, client) = start().await;
    let other = other_client(&sb, 1.0);
    let their_card = card(&other).await;
    let before = ok(client.projects().list().await).len();
    let e = client
        .projects()
        .create(&CreateProject {
            title: Some("Sneaky".into()),
            card_id: Some(their_card.clone()),
            ..Default::default()
        })
        .await
        .unwrap_err();
    assert!(matches!(e, ApiError::NotFound { .. }), "{e:?}");
    let e = client
        .projects()
        .import(&ImportProject {
            source: ImportSource::Pptx {
                file_url: "https://example.com/d.pptx".into(),
            },
            title: None,
            page_count: None,
            card_id: Some(their_card),
            extra: Default::default(),
        })
        .await
        .unwrap_err();
    assert!(matches!(e, ApiError::NotFound { .. }), "{e:?}");
    assert_eq!(
        ok(client.projects().list().await).len(),
        before,
        "no project was made"
    );
}

#[tokio::test]
async fn linking_to_a_card_also_needs_planner_write() {
    let (sb, client) = start().await;
    let card_id = card(&client).await;
    let c = client_with(&sb, &[scopes::EDITOR_WRITE, scopes::EDITOR_READ]);
    let e = c
        .projects()
        .create(&CreateProject {
            card_id: Some(card_id),
            ..Default::default()
        })
        .await
        .unwrap_err();
    assert!(
        matches!(e, ApiError::MissingScope { scope: Some(ref s), .. } if s == "planner:write"),
        "{e:?}"
    );
    let before = ok(client.projects().list().await).len();
    ok(c.projects().create(&CreateProject::default()).await);
    assert_eq!(
        ok(client.projects().list().await).len(),
        before + 1,
        "without cardId editor:write is enough"
    );
}

#[tokio::test]
async fn project_reads_need_editor_read_and_writes_editor_write() {
    let (sb, _) = start().await;
    let c = client_with(&sb, &[scopes::PLANNER_WRITE]);
    let e = c.projects().list().await.unwrap_err();
    assert!(
        matches!(e, ApiError::MissingScope { scope: Some(ref s), .. } if s == "editor:read"),
        "{e:?}"
    );
    let e = c
        .projects()
        .create(&CreateProject::default())
        .await
        .unwrap_err();
    assert!(
        matches!(e, ApiError::MissingScope { scope: Some(ref s), .. } if s == "editor:write"),
        "{e:?}"
    );
}

#[tokio::test]
async fn another_accounts_project_is_404() {
    let (sb, client) = start().await;
    let p = ok(client.projects().create(&CreateProject::default()).await).project;
    let e = other_client(&sb, 1.0)
        .projects()
        .get(&p.id)
        .await
        .unwrap_err();
    assert!(matches!(e, ApiError::NotFound { .. }), "{e:?}");
}
