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
    /// `GET /cards` (the listings).
    card_lists: Arc<AtomicUsize>,
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
    counted_with(0).await.0
}

/// As [`counted`], with `extra` more cards in the demo space (no time, no posts yet); also answers the
/// sandbox's state (the test gives those cards times and posts in its database).
async fn counted_with(extra: usize) -> (Counted, sandbox::AppState) {
    let db = std::env::temp_dir().join(format!("contentdesk-calendar-{}.db", uuid::Uuid::new_v4()));
    let state = sandbox::AppState::open(&db, sandbox::Config::for_tests()).expect("open db");
    let seeded = sandbox::seed::seed_demo(&state, &sandbox::seed::DemoOptions { extra_cards: extra }).expect("seed");
    let key = {
        let conn = state.db().lock();
        sandbox::auth::create_key(&conn, &seeded.account_id, "calendar test", api_types::scopes::ALL).expect("key").1
    };
    let card_reads = Arc::new(AtomicUsize::new(0));
    let card_lists = Arc::new(AtomicUsize::new(0));
    let (n, l) = (card_reads.clone(), card_lists.clone());
    let router = sandbox::app(state.clone()).layer(axum::middleware::from_fn(move |req: axum::extract::Request, next: axum::middleware::Next| {
        let (n, l) = (n.clone(), l.clone());
        async move {
            let p = req.uri().path();
            if req.method() == axum::http::Method::GET && p.starts_with("/api/v1/cards/") && p["/api/v1/cards/".len()..].split('/').count() == 1 {
                n.fetch_add(1, Ordering::SeqCst);
            }
            if req.method() == axum::http::Method::GET && p == "/api/v1/cards" {
                l.fetch_add(1, Ordering::SeqCst);
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
    c::profile_select(&app, ProfileRefArgs { profile_id: p.id.clone() }).await.unwrap();
    c::key_set(&app, KeySetArgs { profile_id: p.id, key: key.clone() }).await.unwrap();
    let direct = Client::new(base, ApiKey::new(key)).unwrap();
    (Counted { app, direct, card_reads, card_lists, _db: tempdb::TempDb(db) }, state)
}

fn post(platform: &str, at: Option<&str>) -> PostInput {
    PostInput { platform: platform.into(), scheduled_at: at.map(str::to_string), ..Default::default() }
}

/// A card in a new space, at `at`, with `posts`.
async fn scheduled_card(app: &AppState, title: &str, at: &str, posts: Vec<PostInput>) -> String {
    let s = c::space_create(app, SpaceCreateInput { cover_url: None, duplicate_from: None, name: format!("Calendar {title}") }).await.unwrap();
    let board = c::board_load(app, BoardLoadArgs { filters: BoardFilters::space(s.id.clone()), ..Default::default() }).await.unwrap();
    let id = c::card_create(app, common::new_card(&s.id, &board.stages[0].id, title, "instagram"))
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
    let got = CardPosts { card_id: a.clone(), updated_at: None, scheduled_at: None, posts: read.posts, findings: vec![] };
    assert_eq!(
        times(&got),
        [("instagram".to_string(), Some("2026-03-12T15:30:00Z".to_string())), ("tiktok".to_string(), Some("2026-03-17T09:00:00Z".to_string()))]
    );
    let alone = UpdateCard { scheduled_at: Some(Some("2026-03-24T09:00:00Z".into())), ..Default::default() };
    let read = c::card_update(&t.app, CardUpdateArgs { card_id: a, update: alone }).await.unwrap();
    let got = CardPosts { card_id: String::new(), updated_at: None, scheduled_at: None, posts: read.posts, findings: vec![] };
    assert!(times(&got).iter().all(|(_, at)| at.as_deref() == Some("2026-03-24T09:00:00Z")), "scheduledAt alone moves every post: {:?}", times(&got));
}

/// Every post of the visible weeks at its own time (issue 16's open end: only the first 500 cards of a
/// window were read, and a post more than 14 days from its card's time showed at the card's time until its
/// card was read). 620 cards with posts in a five-week window, more than one call's 500 reads; one card
/// 20 days before the window with a post inside it, one inside with its post 20 days after it.
/// The 620 cards are given their time and post straight in the sandbox's database (test set-up: 1,240
/// requests would add seconds and test nothing more); the two far cards go through the API.
#[tokio::test]
async fn the_window_has_every_post_at_its_own_time_past_500_cards_and_20_days_from_its_card() {
    const EXTRA: usize = 620;
    let (t, state) = counted_with(EXTRA).await;
    let space = c::spaces_list(&t.app, SpaceListInput::default()).await.unwrap()[0].id.clone();
    let (from, to) = ("2026-05-04T00:00:00Z", "2026-06-08T00:00:00Z");
    {
        let conn = state.db().lock();
        let ids: Vec<String> = {
            let mut q = conn.prepare("SELECT id FROM cards WHERE title LIKE 'Idea #%' ORDER BY title").unwrap();
            q.query_map([], |r| r.get(0)).unwrap().map(Result::unwrap).collect()
        };
        assert_eq!(ids.len(), EXTRA);
        for (n, id) in ids.iter().enumerate() {
            // Spread over the 35 days of the window, 09:00 to 16:00.
            let at = format!("2026-05-{:02}T{:02}:00:00.000Z", 4 + n % 28, 9 + n % 8);
            conn.execute("UPDATE cards SET scheduled_at = ?2, updated_at = ?2 WHERE id = ?1", rusqlite::params![id, at]).unwrap();
            conn.execute(
                "INSERT INTO card_posts (id, card_id, platform, format, scheduled_at, status, platform_settings, sort_order)
                 VALUES (?1, ?2, 'linkedin', 'post', NULL, 'draft', '{}', 0)",
                rusqlite::params![uuid::Uuid::new_v4().to_string(), id],
            )
            .unwrap();
        }
    }
    let stage = c::board_load(&t.app, BoardLoadArgs { filters: BoardFilters::space(space.clone()), ..Default::default() }).await.unwrap().stages[0].id.clone();
    let make = |title: &'static str, card_at: &'static str, post_at: &'static str| {
        let (app, space, stage) = (t.app.clone(), space.clone(), stage.clone());
        async move {
            let id = c::card_create(&app, common::new_card(&space, &stage, title, "instagram")).await.unwrap().id;
            let update = UpdateCard { scheduled_at: Some(Some(card_at.into())), posts: Some(vec![post("instagram", Some(post_at))]), ..Default::default() };
            c::card_update(&app, CardUpdateArgs { card_id: id.clone(), update }).await.unwrap();
            id
        }
    };
    // The card 19 days before the window, its post 20 days after the card (inside the window).
    let early = make("Card before the window", "2026-04-15T09:00:00Z", "2026-05-05T10:00:00Z").await;
    // The card inside the window, its post 20 days after it (after the window).
    let late = make("Post after the window", "2026-05-20T09:00:00Z", "2026-06-09T09:00:00Z").await;

    let args = CalendarWindowArgs { filters: BoardFilters::space(space.clone()), from: from.into(), to: to.into(), ..Default::default() };
    let before = t.card_reads.load(Ordering::SeqCst);
    let first = c::calendar_window(&t.app, args.clone()).await.unwrap();
    assert!(first.listed as usize > EXTRA + 2, "every page of the space is listed: {}", first.listed);
    assert_eq!(t.card_reads.load(Ordering::SeqCst) - before, CALENDAR_READS_PER_CALL, "at most 500 reads a call");
    assert!(first.unread > 0, "more than one call's reads: {}", first.unread);
    assert!(first.cards.iter().all(|p| p.card_id != early), "the far card is read last (nearest first)");
    let mut all = first.cards;
    let mut unread = first.unread;
    let mut calls = 1;
    // The follow-ups use the first call's listing (`continued`): no page of the space is listed again.
    let lists = t.card_lists.load(Ordering::SeqCst);
    while unread > 0 {
        let next = c::calendar_window(&t.app, CalendarWindowArgs { continued: Some(true), ..args.clone() }).await.unwrap();
        assert_eq!(t.card_lists.load(Ordering::SeqCst), lists, "a follow-up lists nothing");
        assert!(next.unread < unread, "each call reads more");
        unread = next.unread;
        all = next.cards;
        calls += 1;
    }
    assert!(calls >= 2);
    let got = |id: &str| all.iter().find(|p| p.card_id == id).cloned();
    let early_posts = got(&early).expect("the card 19 days before the window is answered: its post lies in it");
    assert_eq!(times(&early_posts), [("instagram".to_string(), Some("2026-05-05T10:00:00Z".to_string()))]);
    let late_posts = got(&late).expect("the card in the window is answered, so its post is not shown at the card's time");
    assert_eq!(times(&late_posts), [("instagram".to_string(), Some("2026-06-09T09:00:00Z".to_string()))]);
    let ideas = all.iter().filter(|p| p.posts.iter().any(|q| q.platform.as_deref() == Some("linkedin")) && p.posts.len() == 1).count();
    assert!(ideas >= EXTRA, "every card of the window is answered: {ideas}");

    // Everything read: asked again, no card is read (kept by updatedAt); the same cards answered. A
    // `continued` call once nothing was left unread lists the space afresh (the listing was dropped).
    let before = t.card_reads.load(Ordering::SeqCst);
    let again = c::calendar_window(&t.app, args.clone()).await.unwrap();
    assert_eq!((t.card_reads.load(Ordering::SeqCst) - before, again.unread, again.cards.len()), (0, 0, all.len()));
    let lists = t.card_lists.load(Ordering::SeqCst);
    let fresh = c::calendar_window(&t.app, CalendarWindowArgs { continued: Some(true), ..args.clone() }).await.unwrap();
    assert!(t.card_lists.load(Ordering::SeqCst) > lists, "no listing held once every card was read");
    assert_eq!(fresh.cards.len(), all.len());

    // A window with neither: the far pair is left out.
    let june = CalendarWindowArgs { from: "2026-07-01T00:00:00Z".into(), to: "2026-07-08T00:00:00Z".into(), ..args.clone() };
    let june = c::calendar_window(&t.app, june).await.unwrap();
    assert!(june.cards.iter().all(|p| p.card_id != early && p.card_id != late));
    let e = c::calendar_window(&t.app, CalendarWindowArgs { from: "May".into(), ..args }).await.unwrap_err();
    assert_eq!((e.code, e.field.as_deref()), (IpcCode::Validation, Some("from")));
}

/// Issue 28 point 2: each card's posts come with the preflight findings of the card as read (the one rules
/// engine, api-types `preflight::check`, as `cdesk card check` prints them): the board's tile and the
/// calendar's chip mark a card by them. An X post over 280 blocks; a card within every rule has none; an
/// edit that fixes it is read again (new `updatedAt`) and its findings go.
#[tokio::test]
async fn posts_carry_the_preflight_findings_of_the_card_as_read() {
    let t = counted().await;
    let caption = |n: usize| PostInput { platform: "x".into(), platform_specific_data: Some(serde_json::json!({ "caption": "a".repeat(n) })), ..Default::default() };
    let long = scheduled_card(&t.app, "Long", "2026-03-10T09:00:00Z", vec![caption(281)]).await;
    let fine = scheduled_card(&t.app, "Fine", "2026-03-10T10:00:00Z", vec![caption(280)]).await;
    let got = c::calendar_posts(&t.app, CalendarPostsArgs { cards: vec![stamp(&t.direct, &long).await, stamp(&t.direct, &fine).await] }).await.unwrap();
    let of = |id: &str| got.iter().find(|p| p.card_id == id).cloned().expect("card answered");
    let findings = of(&long).findings;
    assert_eq!(findings.len(), 1, "{findings:?}");
    assert_eq!((findings[0].platform.as_str(), findings[0].rule.as_str(), findings[0].limit, findings[0].actual), ("x", "max_length", 280.0, 281.0));
    assert!(findings[0].blocks());
    let read = t.direct.cards().get(&long).await.unwrap();
    assert_eq!(findings, api_types::preflight::check(&api_types::preflight::PreflightInput::from_card(&read)), "the same check as `card check`");
    assert!(of(&fine).findings.is_empty(), "280 is within X's rule");

    t.direct.cards().update(&long, &UpdateCard { posts: Some(vec![caption(10)]), ..Default::default() }).await.unwrap();
    let again = c::calendar_posts(&t.app, CalendarPostsArgs { cards: vec![stamp(&t.direct, &long).await] }).await.unwrap();
    assert!(again[0].findings.is_empty(), "fixed and read again: {:?}", again[0].findings);
}
