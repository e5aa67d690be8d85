//! The list filters the shell and the agent tools pass through: projects by `filter`, `type` and
//! `search`; tracked accounts by `account_type` and `brand_kit_id`.
mod common;
use api_types::{ArchiveRequest, CreateProject};
use common::*;
use contentdesk_api_client::ApiError;

#[tokio::test]
async fn projects_are_listed_by_type_search_and_archive_filter() {
    let (_sb, client) = start().await;
    let projects = client.projects();
    let make = |title: &str, kind: &str| CreateProject {
        title: Some(title.into()),
        r#type: Some(kind.into()),
        ..Default::default()
    };
    let editor = ok(projects.create(&make("Launch cut", "editor")).await).project;
    let canvas = ok(projects.create(&make("Launch board", "canvas")).await).project;
    let ids = |list: Vec<api_types::Project>| list.into_iter().map(|p| p.id).collect::<Vec<_>>();

    let canvases = ids(ok(projects.list_where(None, Some("canvas"), None).await));
    assert!(canvases.contains(&canvas.id) && !canvases.contains(&editor.id), "{canvases:?}");
    let found = ids(ok(projects.list_where(None, None, Some("launch cut")).await));
    assert_eq!(found, vec![editor.id.clone()]);

    ok(client
        .archive(&ArchiveRequest {
            asset_type: "project".into(),
            id: editor.id.clone(),
            ..Default::default()
        })
        .await);
    let live = ids(ok(projects.list_where(None, None, None).await));
    assert!(!live.contains(&editor.id) && live.contains(&canvas.id), "{live:?}");
    let archived = ids(ok(projects.list_where(Some("archived"), None, None).await));
    assert_eq!(archived, vec![editor.id.clone()]);

    match projects.list_where(None, Some("slides"), None).await {
        Err(ApiError::Validation { field, valid_values, .. }) => {
            assert_eq!(field.as_deref(), Some("type"));
            assert_eq!(valid_values, api_types::values::PROJECT_TYPES);
        }
        other => panic!("a type outside the list is a 400 naming it: {other:?}"),
    }
}

#[tokio::test]
async fn tracked_accounts_are_listed_by_brand_kit() {
    let (_sb, client) = start().await;
    let kit = ok(client.brand_kits().list().await)
        .into_iter()
        .next()
        .expect("the demo has a brand kit");
    let accounts = client.inspiration().accounts();
    let all = ok(accounts.list(None).await);
    let of_kit = ok(accounts.list_where(None, Some(&kit.id)).await);
    assert!(!of_kit.is_empty(), "the demo's tracked accounts belong to its kit");
    assert_eq!(of_kit.len(), all.len());
    let brand = ok(accounts.list_where(Some("brand"), Some(&kit.id)).await);
    assert!(!brand.is_empty() && brand.len() < all.len(), "{brand:?}");
    assert!(brand.iter().all(|a| a.account_type.as_deref() == Some("brand")));
    assert!(ok(accounts.list_where(None, Some("no-such-kit")).await).is_empty());
}
