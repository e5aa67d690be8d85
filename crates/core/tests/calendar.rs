//! The calendar's posts (`calendar_posts`) against the real sandbox over HTTP, behind a layer that counts
//! the `GET /cards/{id}` requests reaching it: posts with their own times come back, and a card is read
//! once until its `updatedAt` changes. Also what the sandbox does with a card's time and posts in one
//! PATCH (rule 3 of PATCH /cards/{id}), which the calendar's card drag relies on.
mod common;

use api_client::{ApiKey, Client};
use api_types::{PostInput, UpdateCard};
use contentdesk_core::commands::{self as c, *};
use contentdesk_core::{AppState, IpcCode, MemoryStore};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;

struct Counted {
    app: AppState,
    direct: Client,
    card_reads: Arc<AtomicUsize>,
    _db: tempdb::TempDb,
}

mod tempdb {
    pub struct TempDb(pub std::path::PathBuf);
    impl Drop for TempDb {
        fn drop(&mut self) {
            for ext in ["", "-wal", "-shm"] {
                let mut p = self.0.clone().into_os_string();
                p.push(ext);
                let _ = std::fs::remove_file(std::path::PathBuf::from(p));
            }
        }
    }
}

/// The sandbox (demo seeded) served with a layer counting `GET /cards/{id}`; the app's one profile on it.
async fn counted() -> Counted {
    let db = std::env::temp_dir().join(format!("contentdesk-calendar-{}.db", uuid::Uuid::new_v4()));
    let state = sandbox::AppState::open(&db, sandbox::Config::for_tests()).expect("open db");
    let seeded = sandbox::seed::seed_demo(&state, &Default::default()).expect("seed");
    let key = {
        let conn = state.db().lock();
        sandbox::auth::create_key(&conn, &seeded.account_id, "calendar test", api_types::scopes::ALL).expect("key").1
    };
    let card_reads = Arc::new(AtomicUsize::new(0));
    let n = card_reads.clone();
    let router = sandbox::app(state.clone()).layer(axum::middleware::from_fn(move |req: axum::extract::Request, next: axum::middleware::Next| {
        let n = n.clone();
        async move {
            let p = req.uri().path();
            if req.method() == axum::http::Method::GET && p.starts_with("/api/v1/cards/") && p["/api/v1/cards/".len()..].split('/').count() == 1 {
                n.fetch_add(1, Ordering::SeqCst);
            }
            next.run(req).await
        }
    }));
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    state.set_origin(format!("http://{addr}"));
    tokio::spawn(async move {
        let _ = axum::serve(listener, router).await;
    });
    let base = format!("http://{addr}{}", api_types::API_PREFIX);
    let store = Arc::new(MemoryStore::new());
    let app = common::start_app(&common::temp_dir("calendar"), &store).await;
    let p = c::profile_add(&app, ProfileAddArgs { name: "Work".into(), base_url: Some(base.clone()) }).await.unwrap();
    c::profile_select(&app, ProfileIdArgs { id: p.id.clone() }).await.unwrap();
    c::key_set(&app, KeySetArgs { profile_id: p.id, key: key.clone() }).await.unwrap();
    let direct = Client::new(base, ApiKey::new(key)).unwrap();
    Counted { app, direct, card_reads, _db: tempdb::TempDb(db) }
}

fn post(platform: &str, at: Option<&str>) -> PostInput {
    PostInput { platform: platform.into(), scheduled_at: at.map(str::to_string), ..Default::default() }
}

/// A card in a new space, at `at`, with `posts`.
async fn scheduled_card(app: &AppState, title: &str, at: &str, posts: Vec<PostInput>) -> String {
    let s = c::space_create(app, SpaceCreateArgs { name: format!("Calendar {title}") }).await.unwrap();
    let board = c::board_load(app, BoardLoadArgs { space_id: s.id.clone(), ..Default::default() }).await.unwrap();
    let id = c::card_create(app, CardCreateArgs { space_id: s.id, stage_id: board.stages[0].id.clone(), title: title.into(), platform: "instagram".into() })
        .await
        .unwrap()
        .id;
    let update = UpdateCard { scheduled_at: Some(Some(at.into())), posts: Some(posts), ..Default::default() };
    c::card_update(app, CardUpdateArgs { card_id: id.clone(), update }).await.unwrap();
    id
}

async fn stamp(direct: &Client, id: &str) -> CardStamp {
    let read = direct.cards().get(id).await.unwrap();
    CardStamp { id: id.into(), updated_at: read.summary.updated_at }
}

fn times(posts: &CardPosts) -> Vec<(String, Option<String>)> {
    let mut t: Vec<_> = posts.posts.iter().map(|p| (p.platform.clone().unwrap(), p.scheduled_at.clone().map(|t| t.replace(".000Z", "Z")))).collect();
    t.sort();
    t
}

#[tokio::test]
async fn posts_come_with_their_own_times_and_a_card_is_read_again_only_when_it_changed() {
    let t = counted().await;
    let a = scheduled_card(&t.app, "A", "2026-03-10T09:00:00Z", vec![post("instagram", Some("2026-03-12T15:30:00Z")), post("tiktok", None)]).await;
    let b = scheduled_card(&t.app, "B", "2026-03-11T09:00:00Z", vec![post("linkedin", None)]).await;
    let stamps = vec![stamp(&t.direct, &a).await, stamp(&t.direct, &b).await];

    let before = t.card_reads.load(Ordering::SeqCst);
    let got = c::calendar_posts(&t.app, CalendarPostsArgs { cards: stamps.clone() }).await.unwrap();
    assert_eq!(t.card_reads.load(Ordering::SeqCst) - before, 2, "each card read once");
    let of = |id: &str, got: &[CardPosts]| got.iter().find(|p| p.card_id == id).cloned().expect("card answered");
    assert_eq!(
        times(&of(&a, &got)),
        [("instagram".to_string(), Some("2026-03-12T15:30:00Z".to_string())), ("tiktok".to_string(), Some("2026-03-10T09:00:00Z".to_string()))],
        "the post with its own time keeps it; the other has the card's"
    );
    assert_eq!(times(&of(&b, &got)), [("linkedin".to_string(), Some("2026-03-11T09:00:00Z".to_string()))]);

    // Asked again with the same updatedAt: no request.
    let again = c::calendar_posts(&t.app, CalendarPostsArgs { cards: stamps.clone() }).await.unwrap();
    assert_eq!(t.card_reads.load(Ordering::SeqCst) - before, 2, "unchanged cards are not read again");
    assert_eq!(times(&of(&a, &again)), times(&of(&a, &got)));

    // Someone else moves A's instagram post: A's updatedAt changes, only A is read again.
    let moved = UpdateCard { posts: Some(vec![post("instagram", Some("2026-03-14T08:00:00Z")), post("tiktok", None)]), ..Default::default() };
    t.direct.cards().update(&a, &moved).await.unwrap();
    let stamps = vec![stamp(&t.direct, &a).await, stamp(&t.direct, &b).await];
    let before = t.card_reads.load(Ordering::SeqCst);
    let third = c::calendar_posts(&t.app, CalendarPostsArgs { cards: stamps }).await.unwrap();
    assert_eq!(t.card_reads.load(Ordering::SeqCst) - before, 1, "only the changed card is read again");
    assert_eq!(times(&of(&a, &third))[0].1.as_deref(), Some("2026-03-14T08:00:00Z"));

    // A card gone is left out; too many cards are refused before any request.
    let gone = c::calendar_posts(&t.app, CalendarPostsArgs { cards: vec![CardStamp { id: "no-such-card".into(), updated_at: None }] }).await.unwrap();
    assert!(gone.is_empty());
    let many = (0..501).map(|i| CardStamp { id: format!("c{i}"), updated_at: None }).collect();
    let before = t.card_reads.load(Ordering::SeqCst);
    let e = c::calendar_posts(&t.app, CalendarPostsArgs { cards: many }).await.unwrap_err();
    assert_eq!((e.code, e.field.as_deref()), (IpcCode::Validation, Some("cards")));
    assert_eq!(t.card_reads.load(Ordering::SeqCst), before);
}

/// Rule 3: `scheduledAt` sets the card's time and every post's; a post sent in the same PATCH with its
/// own `scheduledAt` keeps it. The calendar's card drag sends `posts` along for exactly this.
#[tokio::test]
async fn a_card_time_with_posts_keeps_the_posts_own_times_and_alone_moves_every_post() {
    let t = counted().await;
    let a = scheduled_card(&t.app, "Both", "2026-03-10T09:00:00Z", vec![post("instagram", Some("2026-03-12T15:30:00Z")), post("tiktok", None)]).await;
    let both = UpdateCard {
        scheduled_at: Some(Some("2026-03-17T09:00:00Z".into())),
        posts: Some(vec![post("instagram", Some("2026-03-12T15:30:00Z")), post("tiktok", None)]),
        ..Default::default()
    };
    let read = c::card_update(&t.app, CardUpdateArgs { card_id: a.clone(), update: both }).await.unwrap();
    let got = CardPosts { card_id: a.clone(), updated_at: None, scheduled_at: None, posts: read.posts };
    assert_eq!(
        times(&got),
        [("instagram".to_string(), Some("2026-03-12T15:30:00Z".to_string())), ("tiktok".to_string(), Some("2026-03-17T09:00:00Z".to_string()))]
    );
    let alone = UpdateCard { scheduled_at: Some(Some("2026-03-24T09:00:00Z".into())), ..Default::default() };
    let read = c::card_update(&t.app, CardUpdateArgs { card_id: a, update: alone }).await.unwrap();
    let got = CardPosts { card_id: String::new(), updated_at: None, scheduled_at: None, posts: read.posts };
    assert!(times(&got).iter().all(|(_, at)| at.as_deref() == Some("2026-03-24T09:00:00Z")), "scheduledAt alone moves every post: {:?}", times(&got));
}
