//! A brand kit's knowledge base (spec §4 "Knowledge base"): add by text, hosted `fileUrl` or small
//! base64 `fileData`; list, get, search, remove; the plan cap answers `limitReached` and adds nothing.
mod common;
use api_types::{scopes, AddKnowledge};
use common::*;
use contentdesk_api_client::{ApiError, Client};
use contentdesk_sandbox::Config;

async fn kit(client: &Client) -> String {
    ok(client.brand_kits().list().await)
        .first()
        .expect("a brand kit")
        .id
        .clone()
}

fn text(title: &str, body: &str) -> AddKnowledge {
    AddKnowledge {
        source_type: "text".into(),
        text: Some(body.into()),
        title: Some(title.into()),
        ..Default::default()
    }
}

#[tokio::test]
async fn add_list_get_search_and_remove() {
    let (_sb, client) = start().await;
    let id = kit(&client).await;
    let kb = client.knowledge(&id);
    let before = ok(kb.list(None, None).await).total;
    let added = ok(kb
        .add(&text(
            "Pricing FAQ",
            "Our flagship course costs 299 euros and includes lifetime updates.",
        ))
        .await);
    assert!(!added.limit_reached);
    let list = ok(kb.list(None, None).await);
    assert_eq!(list.total, before + 1);
    assert!(list.items.iter().any(|i| i.id == added.item.as_ref().expect("an item").id));
    let got = ok(kb.get(&added.item.as_ref().expect("an item").id).await);
    assert_eq!(got.title.as_deref(), Some("Pricing FAQ"));
    assert!(got.content.unwrap_or_default().contains("299"));
    let matches = ok(kb
        .search("how much does the flagship course cost", Some(5), Some(0.0))
        .await);
    assert!(
        matches
            .iter()
            .any(|m| m.knowledge_id.as_deref() == Some(added.item.as_ref().expect("an item").id.as_str())),
        "{matches:?}"
    );
    let removed = ok(kb.remove(&added.item.as_ref().expect("an item").id).await);
    assert_eq!(removed.id, added.item.as_ref().expect("an item").id);
    assert_eq!(ok(kb.list(None, None).await).total, before);
    let e = kb.get(&added.item.as_ref().expect("an item").id).await.unwrap_err();
    assert!(matches!(e, ApiError::NotFound { .. }), "{e:?}");
}

#[tokio::test]
async fn list_pages_with_limit_and_offset() {
    let (_sb, client) = start().await;
    let id = kit(&client).await;
    let kb = client.knowledge(&id);
    ok(kb.add(&text("One", "first note")).await);
    ok(kb.add(&text("Two", "second note")).await);
    let page = ok(kb.list(Some(1), Some(0)).await);
    assert_eq!(page.items.len(), 1);
    assert!(page.has_more);
    let all = ok(kb.list(None, None).await);
    let last = ok(kb.list(Some(1), Some((all.total - 1) as u32)).await);
    assert!(!last.has_more);
}

#[tokio::test]
async fn add_by_hosted_file_url_and_by_small_base64_file_data() {
    let (_sb, client) = start().await;
    let id = kit(&client).await;
    let kb = client.knowledge(&id);
    let by_url = ok(kb
        .add(&AddKnowledge {
            source_type: "file".into(),
            file_url: Some("https://example.com/media-kit.pdf".into()),
            title: Some("Media kit".into()),
            ..Default::default()
        })
        .await);
    assert_eq!(by_url.item.as_ref().expect("an item").source_type, "file");
    // "Brand notes: always say hello." in base64
    let by_data = ok(kb
        .add(&AddKnowledge {
            source_type: "file".into(),
            file_data: Some("QnJhbmQgbm90ZXM6IGFsd2F5cyBzYXkgaGVsbG8u".into()),
            file_ext: Some("txt".into()),
            title: Some("Notes".into()),
            ..Default::default()
        })
        .await);
    assert_eq!(by_data.item.as_ref().expect("an item").file_ext.as_deref(), Some("txt"));
}

#[tokio::test]
async fn adding_at_the_plan_cap_answers_limit_reached_and_adds_nothing() {
    let sb = TestSandbox::start_with(Config {
        knowledge_cap: 3,
        ..Config::for_tests()
    })
    .await;
    let client = client(&sb, &sb.key);
    let id = kit(&client).await;
    let kb = client.knowledge(&id);
    let mut refused = None;
    for i in 0..10 {
        match kb.add(&text(&format!("Item {i}"), "filler")).await {
            Ok(_) => {}
            Err(e) => {
                refused = Some(e);
                break;
            }
        }
    }
    let e = refused.expect("the cap refuses an add");
    match &e {
        ApiError::LimitReached { limit, current, .. } => {
            assert_eq!(*limit, Some(3));
            assert_eq!(*current, Some(3));
        }
        other => panic!("expected LimitReached, got {other:?}"),
    }
    assert_eq!(
        ok(kb.list(None, None).await).total,
        3,
        "nothing was added at the cap"
    );
}

#[tokio::test]
async fn knowledge_reads_need_brandkit_read_and_writes_brandkit_write() {
    let (sb, client) = start().await;
    let id = kit(&client).await;
    let reader = client_with(&sb, &[scopes::BRANDKIT_READ]);
    ok(reader.knowledge(&id).list(None, None).await);
    let e = reader
        .knowledge(&id)
        .add(&text("x", "y"))
        .await
        .unwrap_err();
    assert!(
        matches!(e, ApiError::MissingScope { scope: Some(ref s), .. } if s == "brandkit:write"),
        "{e:?}"
    );
    let none = client_with(&sb, &[]);
    let e = none
        .knowledge(&id)
        .search("x", None, None)
        .await
        .unwrap_err();
    assert!(
        matches!(e, ApiError::MissingScope { scope: Some(ref s), .. } if s == "brandkit:read"),
        "{e:?}"
    );
}

#[tokio::test]
async fn another_accounts_knowledge_is_404() {
    let (sb, client) = start().await;
    let id = kit(&client).await;
    let e = other_client(&sb, 1.0)
        .knowledge(&id)
        .list(None, None)
        .await
        .unwrap_err();
    assert!(matches!(e, ApiError::NotFound { .. }), "{e:?}");
}
