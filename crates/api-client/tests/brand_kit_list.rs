//! `GET /brand-kits` with its filters: `archived=true` lists the archived kits instead of the live ones;
//! `favorited=true` only the favourites.
mod common;
use api_types::ArchiveRequest;
use common::*;

#[tokio::test]
async fn archived_kits_leave_the_list_and_are_listed_with_the_archived_filter() {
    let (_sb, client) = start().await;
    let live = ok(client.brand_kits().list().await);
    assert_eq!(ok(client.brand_kits().list_filtered(false, false).await), live, "no filter: the plain list");
    assert!(live.len() >= 2, "the demo has two kits");
    let favourites = ok(client.brand_kits().list_filtered(true, false).await);
    let expected: Vec<_> = live.iter().filter(|k| k.is_favorited).cloned().collect();
    assert_eq!(favourites, expected);
    assert!(!favourites.is_empty() && favourites.len() < live.len(), "the demo favours some kits, not all: {live:?}");
    let gone = live.iter().find(|k| !k.is_default).expect("a kit that is not the default").clone();
    ok(client
        .archive(&ArchiveRequest { asset_type: "brand_kit".into(), id: gone.id.clone(), archived: None, ..Default::default() })
        .await);
    let live_now = ok(client.brand_kits().list_filtered(false, false).await);
    assert!(live_now.iter().all(|k| k.id != gone.id));
    assert_eq!(live_now.len(), live.len() - 1);
    let archived = ok(client.brand_kits().list_filtered(false, true).await);
    assert_eq!(archived.iter().map(|k| k.id.as_str()).collect::<Vec<_>>(), vec![gone.id.as_str()]);
    assert!(archived[0].is_archived);

}
