//! The app's duplicate, repeat and posting queue (docs/ipc.md, "Planner") against the embedded sandbox over
//! real HTTP: the slots kept in `queue-slots.json` of the app's data folder by profile id, checked before
//! they are written; a card queued into its account's next free slot; duplicate and repeat read back.
mod common;

use api_types::{PostInput, UpdateCard};
use contentdesk_core::commands::{self as c, *};
use contentdesk_core::{AppState, IpcCode};

async fn app() -> AppState {
    common::embedded_app("plan").await
}

#[tokio::test]
async fn slots_are_kept_per_profile_checked_and_used_by_the_queue() {
    let app = app().await;
    assert_eq!(c::queue_slots_get(&app).await.unwrap().slots, vec![], "no slots yet");
    let accounts = c::connected_accounts_list(&app).await.unwrap();
    let account = accounts.first().expect("the sandbox connects an account").clone();
    let platform = account.platform.clone().unwrap();

    // A bad slot is refused naming it, and nothing is written.
    let bad = QueueSettings { slots: vec![QueueSlot { account_id: account.id.clone(), weekday: 0, time: "09:00".into() }], clash_minutes: 30 };
    let e = c::queue_slots_set(&app, bad).await.unwrap_err();
    assert_eq!((e.code, e.field.as_deref()), (IpcCode::Validation, Some("slots[0].weekday")), "{e:?}");
    assert!(c::queue_slots_get(&app).await.unwrap().slots.is_empty());

    let slots: Vec<QueueSlot> = (1..=7).map(|d| QueueSlot { account_id: account.id.clone(), weekday: d, time: "07:45".into() }).collect();
    c::queue_slots_set(&app, QueueSettings { slots: slots.clone(), clash_minutes: 20 }).await.unwrap();
    let file: serde_json::Value = serde_json::from_slice(&std::fs::read(app.data_dir().join("queue-slots.json")).unwrap()).unwrap();
    let profile = contentdesk_core::session::Session::selected_profile(&app).expect("a selected profile");
    assert_eq!(file[&profile]["slots"].as_array().unwrap().len(), 7, "{file}");
    assert_eq!(c::queue_slots_get(&app).await.unwrap().clash_minutes, 20);

    let sp = c::space_create(&app, SpaceCreateInput { cover_url: None, duplicate_from: None, name: "Queue".into() }).await.unwrap();
    let board = c::board_load(&app, BoardLoadArgs { filters: BoardFilters::space(sp.id.clone()), ..Default::default() }).await.unwrap();
    let stage = board.stages[0].id.clone();
    let space = sp.id.clone();
    let made = c::card_create(&app, common::new_card(&space, &stage, "App queue", &platform)).await.unwrap();
    let posts = vec![PostInput { platform: platform.clone(), connected_account_id: Some(account.id.clone()), ..Default::default() }];
    c::card_update(&app, CardUpdateArgs { card_id: made.id.clone(), update: UpdateCard { posts: Some(posts), ..Default::default() } }).await.unwrap();
    let q = c::card_queue(&app, CardId { card_id: made.id.clone() }).await.unwrap();
    assert!(q.placed[0].scheduled_at.ends_with("T07:45:00Z"), "{q:?}");

    let copy = c::card_duplicate(&app, CardId { card_id: made.id.clone() }).await.unwrap();
    assert_eq!((copy.title.as_str(), copy.scheduled_at.as_deref()), ("App queue (copy)", None));
    let copies = c::card_repeat(&app, CardRepeatInput { card_id: made.id.clone(), every: "2d".into(), count: Some(3), until: None }).await.unwrap();
    assert_eq!(copies.len(), 3);
    let e = c::card_repeat(&app, CardRepeatInput { card_id: made.id, every: "2d".into(), count: Some(60), until: None }).await.unwrap_err();
    assert_eq!(e.field.as_deref(), Some("count"), "{e:?}");
}
