//! Offline edits kept as drafts (docs/ipc.md, "Offline drafts"), against a real sandbox playing the remote
//! service that the test stops and starts again on the same port and database file.
mod common;
use api_types::UpdateCard;
use common::{app_on, conflicts, edit_of, start_app, Remote};
use contentdesk_core::commands::{self as c, *};
use contentdesk_core::{ipc, AppState, IpcCode};
use serde_json::json;

/// The demo space's stages and cards.
async fn demo(app: &AppState) -> (Vec<String>, Vec<api_types::CardSummary>) {
    let space = c::spaces_list(app, SpaceListInput::default()).await.unwrap()[0].id.clone();
    let board = c::board_load(app, BoardLoadArgs { filters: BoardFilters::space(space), ..Default::default() }).await.unwrap();
    (board.stages.iter().map(|s| s.id.clone()).collect(), board.cards)
}

/// Someone else changes a card: written until its `updatedAt` is not the one the app read (the sandbox's
/// clock counts milliseconds, so a write in the same millisecond as the read's would look unchanged), with
/// no sleep: the same title written again is the same change.
async fn change_elsewhere(other: &api_client::Client, id: &str, read: &Option<String>, t: &str) {
    for _ in 0..1000 {
        if other.cards().update(id, &title(t)).await.unwrap().updated_at != *read {
            return;
        }
    }
    panic!("card {id}: its updatedAt never moved past {read:?}");
}

fn title(t: &str) -> UpdateCard {
    UpdateCard { title: Some(t.into()), ..Default::default() }
}

#[tokio::test]
async fn an_offline_edit_survives_a_restart_and_is_sent_when_the_service_is_back() {
    let mut remote = Remote::start().await;
    let (app, dir, store) = app_on(&remote).await;
    let (stages, cards) = demo(&app).await;
    let (a, b) = (cards[0].id.clone(), cards[1].id.clone());
    let target = stages.iter().find(|s| Some(*s) != cards[1].stage_id.as_ref()).unwrap().clone();
    c::card_get(&app, CardId { card_id: a.clone() }).await.unwrap();
    let tag = c::tags_list(&app).await.unwrap()[0].name.clone();
    assert_eq!(c::drafts_status(&app).await.unwrap().waiting, 0);

    remote.stop().await;
    // An edit while nothing answers: kept, and said so.
    let e = c::card_update(&app, CardUpdateArgs { card_id: a.clone(), update: title("Written offline") }).await.unwrap_err();
    assert_eq!(e.code, IpcCode::Queued, "{e:?}");
    assert!(e.message.contains("kept on this computer") && e.message.contains("1 change waiting"), "{}", e.message);
    // A second edit of the same card is merged into its draft; a move of another card is a second draft.
    let tags = UpdateCard { tags: Some(vec![tag.clone()]), ..Default::default() };
    let e = c::card_update(&app, CardUpdateArgs { card_id: a.clone(), update: tags }).await.unwrap_err();
    assert_eq!(e.code, IpcCode::Queued);
    assert!(e.message.contains("1 change waiting"), "{}", e.message);
    let e = c::card_move(&app, CardMoveInput { card_id: b.clone(), stage: target.clone(), before_card_id: None, base_updated_at: None, title: None }).await.unwrap_err();
    assert_eq!(e.code, IpcCode::Queued);
    assert!(e.message.contains("2 changes waiting"), "{}", e.message);
    // Other errors are unchanged.
    let e = c::card_update(&app, CardUpdateArgs { card_id: a.clone(), update: UpdateCard { notes: Some("x".into()), ..Default::default() } })
        .await
        .unwrap_err();
    assert_eq!(e.code, IpcCode::Validation);
    // Nothing answers: a sync leaves them waiting.
    let s = c::drafts_sync(&app).await.unwrap();
    assert_eq!((s.waiting, s.sent, s.offline), (2, 0, true));
    assert!(conflicts(&s).is_empty());

    // The outbox is a file in the data folder, without the key.
    let file = std::fs::read_to_string(dir.join("outbox.json")).unwrap();
    assert!(file.contains("Written offline") && !file.contains(&remote.key) && !file.contains("ch_live_"), "{file}");
    drop(app);

    // A restart on the same data folder still has them.
    let app = start_app(&dir, &store).await;
    let s = c::drafts_status(&app).await.unwrap();
    assert_eq!(s.waiting, 2);
    assert_eq!(s.card_ids, vec![a.clone(), b.clone()]);
    let via_ipc = ipc::dispatch(&app, "drafts_status", json!({})).await.unwrap();
    assert_eq!(via_ipc["waiting"], 2);

    // The service is back: a sync sends both, oldest first, and the cards show them.
    remote.restart().await;
    let s = c::drafts_sync(&app).await.unwrap();
    assert_eq!((s.waiting, s.sent, s.offline), (0, 2, false), "{s:?}");
    assert!(conflicts(&s).is_empty());
    let card = c::card_get(&app, CardId { card_id: a.clone() }).await.unwrap();
    assert_eq!(card.summary.title, "Written offline");
    assert_eq!(card.summary.tags, vec![tag.clone()]);
    let moved = c::card_get(&app, CardId { card_id: b.clone() }).await.unwrap();
    assert_eq!(moved.summary.stage_id.as_deref(), Some(target.as_str()));
    assert!(!std::fs::read_to_string(dir.join("outbox.json")).unwrap().contains("Written offline"));

    // Online again: edits go straight through.
    let card = c::card_update(&app, CardUpdateArgs { card_id: a.clone(), update: title("Online") }).await.unwrap();
    assert_eq!(card.summary.title, "Online");
    assert_eq!(c::drafts_status(&app).await.unwrap().waiting, 0);
    remote.stop().await;
}

#[tokio::test]
async fn a_card_changed_elsewhere_meanwhile_is_a_conflict_then_send_mine_or_discard_mine() {
    let mut remote = Remote::start().await;
    let (app, _dir, _store) = app_on(&remote).await;
    let (_, cards) = demo(&app).await;
    let (a, b) = (cards[2].id.clone(), cards[3].id.clone());
    let read_b = c::card_get(&app, CardId { card_id: b.clone() }).await.unwrap();
    let read_a = c::card_get(&app, CardId { card_id: a.clone() }).await.unwrap();

    remote.stop().await;
    for (id, t) in [(&a, "Mine A"), (&b, "Mine B")] {
        let e = c::card_update(&app, CardUpdateArgs { card_id: id.clone(), update: title(t) }).await.unwrap_err();
        assert_eq!(e.code, IpcCode::Queued);
    }
    // Notes edited offline too, from the revision read.
    let notes = UpdateCard { notes: Some("my notes".into()), expected_revision: Some(read_b.revision), ..Default::default() };
    assert_eq!(c::card_update(&app, CardUpdateArgs { card_id: b.clone(), update: notes }).await.unwrap_err().code, IpcCode::Queued);

    remote.restart().await;
    // Someone else changes both cards meanwhile.
    let other = remote.client();
    for (id, read, t) in [(&a, &read_a, "Theirs A"), (&b, &read_b, "Theirs B")] {
        change_elsewhere(&other, id, &read.summary.updated_at, t).await;
    }

    let s = c::drafts_sync(&app).await.unwrap();
    assert_eq!((s.waiting, s.sent), (0, 0), "{s:?}");
    assert_eq!(conflicts(&s).len(), 2);
    let ca = conflicts(&s).into_iter().find(|c| c.card_id.as_deref() == Some(a.as_str())).unwrap();
    assert_eq!(ca.fields, vec!["title".to_string()]);
    assert_eq!(ca.subject.as_deref(), Some("Mine A"));
    let theirs_a = other.cards().get(&a).await.unwrap().summary.updated_at;
    assert_eq!(ca.theirs_updated_at, theirs_a);
    let cb = conflicts(&s).into_iter().find(|c| c.card_id.as_deref() == Some(b.as_str())).unwrap();
    assert_eq!(cb.fields, vec!["notes".to_string(), "title".to_string()]);
    // Nothing was sent.
    assert_eq!(other.cards().get(&a).await.unwrap().summary.title, "Theirs A");
    // A conflict stays put on the next sync.
    let s = c::drafts_sync(&app).await.unwrap();
    assert_eq!(conflicts(&s).len(), 2);
    let (edit_a, edit_b) = (edit_of(&s, &a), edit_of(&s, &b));
    // An online edit of a card in conflict does not go around it.
    let e = c::card_update(&app, CardUpdateArgs { card_id: a.clone(), update: UpdateCard { is_favorite: Some(true), ..Default::default() } })
        .await
        .unwrap_err();
    assert_eq!(e.code, IpcCode::Conflict);

    // Send mine anyway: over their title and their notes revision.
    let s = c::drafts_resolve(&app, DraftsResolveArgs { id: edit_b, action: DraftAction::SendMine }).await.unwrap();
    assert_eq!((s.sent, conflicts(&s).len()), (1, 1));
    let now_b = other.cards().get(&b).await.unwrap();
    assert_eq!((now_b.summary.title.as_str(), now_b.notes.as_deref()), ("Mine B", Some("my notes")));

    // Discard mine: theirs stays.
    let s = ipc::dispatch(&app, "drafts_resolve", json!({"id": edit_a, "action": "discardMine"})).await.unwrap();
    assert_eq!(s["changes"], json!([]));
    assert_eq!(s["waiting"], 0);
    assert_eq!(other.cards().get(&a).await.unwrap().summary.title, "Theirs A");
    let e = c::drafts_resolve(&app, DraftsResolveArgs { id: edit_a, action: DraftAction::DiscardMine }).await.unwrap_err();
    assert_eq!(e.code, IpcCode::NotFound);
    remote.stop().await;
}

#[tokio::test]
async fn a_send_mine_while_still_offline_is_queued_again() {
    let mut remote = Remote::start().await;
    let (app, _dir, _store) = app_on(&remote).await;
    let (_, cards) = demo(&app).await;
    let a = cards[0].id.clone();
    c::card_get(&app, CardId { card_id: a.clone() }).await.unwrap();
    remote.stop().await;
    assert_eq!(c::card_update(&app, CardUpdateArgs { card_id: a.clone(), update: title("Mine") }).await.unwrap_err().code, IpcCode::Queued);
    let id = edit_of(&c::drafts_status(&app).await.unwrap(), &a);
    let e = c::drafts_resolve(&app, DraftsResolveArgs { id, action: DraftAction::SendMine }).await.unwrap_err();
    assert_eq!(e.code, IpcCode::Queued);
    assert_eq!(c::drafts_status(&app).await.unwrap().waiting, 1);
    remote.restart().await;
    let s = c::drafts_sync(&app).await.unwrap();
    assert_eq!((s.sent, s.waiting), (1, 0));
    remote.stop().await;
}

#[tokio::test]
async fn the_base_of_an_offline_edit_is_what_this_profile_read_not_another_profile() {
    // Two profiles on the same account see the same cards. What one profile last read of a card must not
    // become the base of the other profile's offline edit, or a change made meanwhile would be overwritten
    // without a conflict.
    let mut remote = Remote::start().await;
    let (app, _dir, _store) = app_on(&remote).await;
    let first = c::profiles_list(&app).await.unwrap().selected_id.unwrap();
    let second = c::profile_add(&app, ProfileAddArgs { name: "Same account".into(), base_url: Some(remote.base_url()) }).await.unwrap();
    c::key_set(&app, KeySetArgs { profile_id: second.id.clone(), key: remote.key.clone() }).await.unwrap();
    let (_, cards) = demo(&app).await;
    let card = cards[4].id.clone();

    // The first profile reads the card; then it changes elsewhere; then the second profile reads it.
    let read = c::card_get(&app, CardId { card_id: card.clone() }).await.unwrap();
    change_elsewhere(&remote.client(), &card, &read.summary.updated_at, "Theirs, meanwhile").await;
    c::profile_select(&app, ProfileRefArgs { profile_id: second.id.clone() }).await.unwrap();
    c::card_get(&app, CardId { card_id: card.clone() }).await.unwrap();

    // Back on the first profile, offline: its edit is based on what it read, before the change.
    c::profile_select(&app, ProfileRefArgs { profile_id: first.clone() }).await.unwrap();
    remote.stop().await;
    let e = c::card_update(&app, CardUpdateArgs { card_id: card.clone(), update: title("Mine") }).await.unwrap_err();
    assert_eq!(e.code, IpcCode::Queued, "{e:?}");
    remote.restart().await;
    let s = c::drafts_sync(&app).await.unwrap();
    assert_eq!((s.sent, conflicts(&s).len()), (0, 1), "the change made meanwhile is a conflict, not overwritten: {s:?}");
    assert_eq!(remote.client().cards().get(&card).await.unwrap().summary.title, "Theirs, meanwhile");
    remote.stop().await;
}
