//! cards: rules_1_to_3.
use super::*;

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
