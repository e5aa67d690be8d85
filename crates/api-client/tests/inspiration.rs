//! Inspiration reads: tracked accounts and their content, paged with `limit`/`offset`, `brandkit:read`.
mod common;
use api_types::{scopes, ContentQuery};
use common::*;
use contentdesk_api_client::ApiError;

#[tokio::test]
async fn tracked_accounts_list_and_detail() {
    let (_sb, client) = start().await;
    let accounts = ok(client.inspiration().accounts().list(None).await);
    assert!(!accounts.is_empty(), "the demo tracks accounts");
    let detail = ok(client.inspiration().accounts().get(&accounts[0].id).await);
    assert_eq!(detail.account.id, accounts[0].id);
    let inspiration = ok(client
        .inspiration()
        .accounts()
        .list(Some("inspiration"))
        .await);
    assert!(inspiration
        .iter()
        .all(|a| a.account_type.as_deref() == Some("inspiration")));
}

#[tokio::test]
async fn content_pages_with_limit_offset_total_and_has_more() {
    let (_sb, client) = start().await;
    let content = client.inspiration().content();
    let all = ok(content.list(&ContentQuery::default()).await);
    assert!(all.total >= 2, "{}", all.total);
    let first = ok(content
        .list(&ContentQuery {
            limit: Some(1),
            ..Default::default()
        })
        .await);
    assert_eq!(first.outliers.len(), 1);
    assert!(first.has_more);
    let second = ok(content
        .list(&ContentQuery {
            limit: Some(1),
            offset: Some(1),
            ..Default::default()
        })
        .await);
    assert_ne!(first.outliers[0].id, second.outliers[0].id);
    let sorted = ok(content
        .list(&ContentQuery {
            sort_by: Some("views".into()),
            sort_order: Some("desc".into()),
            ..Default::default()
        })
        .await);
    let views: Vec<i64> = sorted
        .outliers
        .iter()
        .filter_map(|c| c.view_count)
        .collect();
    assert!(views.windows(2).all(|w| w[0] >= w[1]), "{views:?}");
    let detail = ok(content.get(&first.outliers[0].id).await);
    assert_eq!(detail.summary.id, first.outliers[0].id);
}

#[tokio::test]
async fn inspiration_reads_need_brandkit_read() {
    let (sb, _) = start().await;
    let c = client_with(&sb, &[scopes::PLANNER_WRITE]);
    let e = c
        .inspiration()
        .content()
        .list(&ContentQuery::default())
        .await
        .unwrap_err();
    assert!(
        matches!(e, ApiError::MissingScope { scope: Some(ref s), .. } if s == "brandkit:read"),
        "{e:?}"
    );
}

#[tokio::test]
async fn another_accounts_content_is_404() {
    let (sb, client) = start().await;
    let list = ok(client
        .inspiration()
        .content()
        .list(&ContentQuery::default())
        .await);
    let e = other_client(&sb, 1.0)
        .inspiration()
        .content()
        .get(&list.outliers[0].id)
        .await
        .unwrap_err();
    assert!(matches!(e, ApiError::NotFound { .. }), "{e:?}");
}
