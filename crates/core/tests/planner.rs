//! The planner's commands against the embedded sandbox over real HTTP (docs/ipc.md, "Planner"): the
//! board in order and paged past 100 cards, moves by `beforeCardId`, stages, spaces, archive and restore,
//! card edits with the declarative lists checked before sending and the notes conflict.
mod common;

use api_types::{CardAssetInput, PostInput, UpdateCard};
use contentdesk_core::commands::{self as c, *};
use contentdesk_core::{ipc, AppState, IpcCode};
use serde_json::json;

/// The catalogue's archive input for a card (`off`: restore).
fn card_archived(id: &str, archived: bool) -> ArchiveInput {
    ArchiveInput { asset_type: "card".into(), id: id.to_string(), off: !archived, base_updated_at: None, title: None }
}

async fn app() -> AppState {
    common::embedded_app("planner").await
}

/// A new empty space (its default stages) for one test.
async fn space(app: &AppState, name: &str) -> (String, Vec<String>) {
    let s = c::space_create(app, SpaceCreateInput { cover_url: None, duplicate_from: None, name: name.into() }).await.unwrap();
    let board = c::board_load(app, BoardLoadArgs { filters: BoardFilters::space(s.id.clone()), ..Default::default() }).await.unwrap();
    assert!(board.stages.len() >= 2, "a new space has its default stages");
    assert!(board.cards.is_empty());
    (s.id, board.stages.into_iter().map(|s| s.id).collect())
}

async fn card(app: &AppState, space: &str, stage: &str, title: &str) -> String {
    c::card_create(app, common::new_card(space, stage, title, "instagram"))
        .await
        .unwrap()
        .id
}

async fn titles(app: &AppState, space: &str, stage: &str) -> Vec<String> {
    let board = c::board_load(app, BoardLoadArgs { filters: BoardFilters::space(space), ..Default::default() }).await.unwrap();
    board.cards.into_iter().filter(|c| c.stage_id.as_deref() == Some(stage)).map(|c| c.title).collect()
}

#[tokio::test]
async fn a_card_moves_before_another_between_and_within_columns_and_to_the_end() {
    let app = app().await;
    let (sp, st) = space(&app, "Moves").await;
    let a = card(&app, &sp, &st[0], "A").await;
    let b = card(&app, &sp, &st[0], "B").await;
    let x = card(&app, &sp, &st[1], "X").await;
    assert_eq!(titles(&app, &sp, &st[0]).await, ["A", "B"]);

    // B before A in the same column.
    let moved = c::card_move(&app, CardMoveInput { card_id: b.clone(), stage: st[0].clone(), before_card_id: Some(a.clone()), base_updated_at: None, title: None }).await.unwrap();
    assert_eq!(moved.stage_id.as_deref(), Some(st[0].as_str()));
    assert_eq!(titles(&app, &sp, &st[0]).await, ["B", "A"]);
    // A to the other column, before X.
    c::card_move(&app, CardMoveInput { card_id: a.clone(), stage: st[1].clone(), before_card_id: Some(x.clone()), base_updated_at: None, title: None }).await.unwrap();
    assert_eq!(titles(&app, &sp, &st[1]).await, ["A", "X"]);
    assert_eq!(titles(&app, &sp, &st[0]).await, ["B"]);
    // B to the end of the second column.
    c::card_move(&app, CardMoveInput { card_id: b.clone(), stage: st[1].clone(), before_card_id: None, base_updated_at: None, title: None }).await.unwrap();
    assert_eq!(titles(&app, &sp, &st[1]).await, ["A", "X", "B"]);

    // Before itself is refused locally; before a card of another column is the service's 400.
    let e = c::card_move(&app, CardMoveInput { card_id: b.clone(), stage: st[1].clone(), before_card_id: Some(b.clone()), base_updated_at: None, title: None }).await.unwrap_err();
    assert_eq!((e.code, e.field.as_deref()), (IpcCode::Validation, Some("beforeCardId")));
    let c2 = card(&app, &sp, &st[0], "C").await;
    let e = c::card_move(&app, CardMoveInput { card_id: b.clone(), stage: st[1].clone(), before_card_id: Some(c2), base_updated_at: None, title: None }).await.unwrap_err();
    assert_eq!((e.code, e.field.as_deref(), e.status), (IpcCode::Validation, Some("beforeCardId"), Some(400)));
    assert_eq!(titles(&app, &sp, &st[1]).await, ["A", "X", "B"], "a refused move changes nothing");
    // A card that is not there.
    let e = c::card_move(&app, CardMoveInput { card_id: "nope".into(), stage: st[1].clone(), before_card_id: None, base_updated_at: None, title: None }).await.unwrap_err();
    assert_eq!(e.code, IpcCode::NotFound);
}

#[tokio::test]
async fn the_board_pages_past_one_hundred_cards_in_stage_then_board_order_and_a_first_page_board_comes_first() {
    let app = app().await;
    let (sp, st) = space(&app, "Big").await;
    for i in 0..130 {
        card(&app, &sp, &st[if i < 110 { 0 } else { 1 }], &format!("card {i:03}")).await;
    }
    let board = c::board_load(&app, BoardLoadArgs { filters: BoardFilters::space(sp.clone()), ..Default::default() }).await.unwrap();
    assert_eq!((board.cards.len(), board.total, board.complete), (130, 130, true), "all pages are read");
    let stage_of: Vec<&str> = board.cards.iter().map(|c| c.stage_id.as_deref().unwrap()).collect();
    assert!(stage_of[..110].iter().all(|s| *s == st[0]) && stage_of[110..].iter().all(|s| *s == st[1]), "grouped by stage, in stage order");
    let first: Vec<&str> = board.cards[..3].iter().map(|c| c.title.as_str()).collect();
    assert_eq!(first, ["card 000", "card 001", "card 002"], "board order within a stage");
    assert_eq!(board.space.id, sp);
    assert_eq!((board.stage_totals[&st[0]], board.stage_totals[&st[1]]), (110, 20));

    // First page: each stage's first 20 at once, with each stage's true count, marked incomplete.
    let first = c::board_load(&app, BoardLoadArgs { filters: BoardFilters::space(sp.clone()), first_page: Some(true), ..Default::default() }).await.unwrap();
    assert_eq!((first.cards.len(), first.total, first.complete), (40, 130, false));
    assert_eq!((first.stage_totals[&st[0]], first.stage_totals[&st[1]]), (110, 20));
    let ids = |b: &contentdesk_core::planner::Board| b.cards.iter().map(|c| c.id.clone()).collect::<Vec<_>>();
    assert_eq!(ids(&first)[..20], ids(&board)[..20], "the same first cards in the same order");
    assert_eq!(ids(&first)[20..], ids(&board)[110..], "and the second stage whole");
}

#[tokio::test]
async fn filters_search_platform_tag_and_the_archived_view_with_restore() {
    let app = app().await;
    let (sp, st) = space(&app, "Filters").await;
    let a = card(&app, &sp, &st[0], "Launch reel").await;
    let b = c::card_create(&app, common::new_card(&sp, &st[0], "Blog post", "linkedin"))
        .await
        .unwrap()
        .id;
    c::card_update(&app, CardUpdateArgs { card_id: b.clone(), update: UpdateCard { tags: Some(vec!["launch".into()]), ..Default::default() } })
        .await
        .unwrap();
    let load = |search: Option<&str>, platform: Option<&str>, tag: Option<&str>, archived: Option<bool>| BoardLoadArgs {
        filters: BoardFilters {
            space_id: sp.clone(),
            search: search.map(String::from),
            platform: platform.map(String::from),
            tag: tag.map(String::from),
            archived,
        },
        ..Default::default()
    };
    let ids = |b: contentdesk_core::planner::Board| b.cards.into_iter().map(|c| c.id).collect::<Vec<_>>();
    assert_eq!(ids(c::board_load(&app, load(Some("reel"), None, None, None)).await.unwrap()), std::slice::from_ref(&a));
    assert_eq!(ids(c::board_load(&app, load(None, Some("linkedin"), None, None)).await.unwrap()), std::slice::from_ref(&b));
    assert_eq!(ids(c::board_load(&app, load(None, None, Some("launch"), None)).await.unwrap()), std::slice::from_ref(&b));
    assert_eq!(ids(c::board_load(&app, load(Some("  "), None, None, None)).await.unwrap()).len(), 2, "a blank search is no filter");

    assert!(c::card_archive(&app, card_archived(&a, true)).await.unwrap().archived);
    assert_eq!(ids(c::board_load(&app, load(None, None, None, None)).await.unwrap()), std::slice::from_ref(&b), "archived cards leave the board");
    assert_eq!(ids(c::board_load(&app, load(None, None, None, Some(true))).await.unwrap()), std::slice::from_ref(&a), "and show under Archived");
    let restored = c::card_archive(&app, card_archived(&a, false)).await.unwrap();
    assert!(!restored.archived);
    assert_eq!(ids(c::board_load(&app, load(None, None, None, None)).await.unwrap()).len(), 2, "restored");
    // The catalogue's rule (ArchiveInput::check, as in cdesk archive and the `archive` tool): a kind the
    // service archives and an id; and the app's own: each command archives its kind. Nothing is sent.
    for (args, field) in [
        (ArchiveInput { asset_type: "folder".into(), ..card_archived(&a, true) }, "assetType"),
        (ArchiveInput { asset_type: "space".into(), ..card_archived(&a, true) }, "assetType"),
        (card_archived(" ", true), "id"),
    ] {
        let e = c::card_archive(&app, args).await.unwrap_err();
        assert_eq!((e.code, e.field.as_deref()), (IpcCode::Validation, Some(field)), "{e:?}");
    }
    let e = c::space_archive(&app, card_archived(&a, true)).await.unwrap_err();
    assert_eq!((e.code, e.field.as_deref()), (IpcCode::Validation, Some("assetType")), "{e:?}");
    assert_eq!(ids(c::board_load(&app, load(None, None, None, None)).await.unwrap()).len(), 2, "nothing was archived");
    // The app's old `{ cardId, archived }` is refused by name (the first one serde meets).
    let e = ipc::dispatch(&app, "card_archive", json!({ "cardId": a, "archived": true })).await.unwrap_err();
    assert_eq!((e.code, e.field.as_deref()), (IpcCode::Validation, Some("archived")), "{e:?}");
}

#[tokio::test]
async fn stages_are_created_renamed_recoloured_moved_and_deleted_with_their_cards_moved() {
    let app = app().await;
    let (sp, st) = space(&app, "Stages").await;
    let review = c::stage_create(&app, StageCreateInput { before_id: None, space_id: Some(sp.clone()), name: " Legal check ".into(), color: Some("#aa3366".into()), after_id: None })
        .await
        .unwrap();
    assert_eq!((review.name.as_str(), review.color.as_deref()), ("Legal check", Some("#AA3366")), "{review:?}");
    let board = c::board_load(&app, BoardLoadArgs { filters: BoardFilters::space(sp.clone()), ..Default::default() }).await.unwrap();
    assert_eq!(board.stages.last().unwrap().id, review.id, "a new stage goes at the end");

    let up = c::stage_update(&app, StageUpdateInput { to_start: false, to_end: false, space_id: Some(sp.clone()), stage_id: review.id.clone(), name: Some("Client review".into()), color: Some("#225588".into()), after_id: None, before_id: Some(st[0].clone()) })
        .await
        .unwrap();
    assert_eq!((up.stage.name.as_str(), up.stage.color.as_deref()), ("Client review", Some("#225588".to_uppercase().as_str())));
    let board = c::board_load(&app, BoardLoadArgs { filters: BoardFilters::space(sp.clone()), ..Default::default() }).await.unwrap();
    assert_eq!(board.stages[0].id, review.id, "moved first");

    let e = c::stage_update(&app, StageUpdateInput { to_start: false, to_end: false, space_id: Some(sp.clone()), stage_id: review.id.clone(), name: Some("  ".into()), color: None, after_id: None, before_id: None })
        .await
        .unwrap_err();
    assert_eq!((e.code, e.field.as_deref()), (IpcCode::Validation, Some("name")));

    card(&app, &sp, &review.id, "one").await;
    card(&app, &sp, &review.id, "two").await;
    let e = c::stage_delete(&app, StageDeleteInput { space_id: Some(sp.clone()), stage_id: review.id.clone(), target_stage_id: Some(review.id.clone()) })
        .await
        .unwrap_err();
    assert_eq!(e.field.as_deref(), Some("targetStageId"));
    let gone = c::stage_delete(&app, StageDeleteInput { space_id: Some(sp.clone()), stage_id: review.id.clone(), target_stage_id: Some(st[1].clone()) })
        .await
        .unwrap();
    assert_eq!(gone.moved_cards, 2);
    assert_eq!(titles(&app, &sp, &st[1]).await, ["one", "two"]);
    assert!(!gone.stages.iter().any(|s| s.id == review.id));
}

#[tokio::test]
async fn spaces_are_created_renamed_archived_and_restored() {
    let app = app().await;
    let e = c::space_create(&app, SpaceCreateInput { cover_url: None, duplicate_from: None, name: "   ".into() }).await.unwrap_err();
    assert_eq!((e.code, e.field.as_deref()), (IpcCode::Validation, Some("name")));
    let (sp, _) = space(&app, "Autumn").await;
    let renamed = c::space_rename(&app, SpaceUpdateInput { cover_url: None, no_cover: false, space_id: sp.clone(), name: Some("Autumn launch".into()) }).await.unwrap();
    assert_eq!(renamed.name, "Autumn launch");
    c::space_archive(&app, ArchiveInput { asset_type: "space".into(), id: sp.clone(), off: false, base_updated_at: None, title: None }).await.unwrap();
    let live = c::spaces_list(&app, SpaceListInput::default()).await.unwrap();
    assert!(!live.iter().any(|s| s.id == sp));
    let all = c::spaces_list(&app, SpaceListInput { archived: true }).await.unwrap();
    assert!(all.iter().any(|s| s.id == sp && s.archived_at.is_some()));
    c::space_archive(&app, ArchiveInput { asset_type: "space".into(), id: sp.clone(), off: true, base_updated_at: None, title: None }).await.unwrap();
    assert!(c::spaces_list(&app, SpaceListInput::default()).await.unwrap().iter().any(|s| s.id == sp));
}

#[tokio::test]
async fn card_edits_check_the_lists_first_and_a_notes_conflict_keeps_both_texts() {
    let app = app().await;
    let (sp, st) = space(&app, "Edits").await;
    let id = card(&app, &sp, &st[0], "Edit me").await;
    let read = c::card_get(&app, CardId { card_id: id.clone() }).await.unwrap();

    // Two links and an instagram post: read back in carousel order.
    let links = vec![CardAssetInput::link("https://example.com/a.png"), CardAssetInput::link("https://example.com/b.png")];
    let post = PostInput { platform: "instagram".into(), ..Default::default() };
    let after = c::card_update(&app, CardUpdateArgs { card_id: id.clone(), update: UpdateCard { assets: Some(links), posts: Some(vec![post.clone()]), ..Default::default() } })
        .await
        .unwrap();
    let urls: Vec<_> = after.assets.iter().map(|a| a.asset_url.clone().unwrap()).collect();
    assert_eq!(urls, ["https://example.com/a.png", "https://example.com/b.png"]);
    // Reorder: the same ids in a new order.
    let reversed: Vec<_> = after.assets.iter().rev().map(|a| CardAssetInput::keep(a.id.clone())).collect();
    let after = c::card_update(&app, CardUpdateArgs { card_id: id.clone(), update: UpdateCard { assets: Some(reversed), ..Default::default() } })
        .await
        .unwrap();
    assert_eq!(after.assets[0].asset_url.as_deref(), Some("https://example.com/b.png"));

    // Checked before sending: two references in one entry, a kept link added again, two instagram posts.
    let two_refs = CardAssetInput { asset_url: Some("https://example.com/c.png".into()), content_id: Some("x".into()), ..Default::default() };
    let e = c::card_update(&app, CardUpdateArgs { card_id: id.clone(), update: UpdateCard { assets: Some(vec![two_refs]), ..Default::default() } })
        .await
        .unwrap_err();
    assert_eq!((e.code, e.field.as_deref(), e.status), (IpcCode::Validation, Some("assets[0]"), None));
    let again = vec![CardAssetInput::keep(after.assets[0].id.clone()), CardAssetInput::link("https://example.com/b.png")];
    let e = c::card_update(&app, CardUpdateArgs { card_id: id.clone(), update: UpdateCard { assets: Some(again), ..Default::default() } })
        .await
        .unwrap_err();
    assert_eq!(e.field.as_deref(), Some("assets[1]"));
    let e = c::card_update(&app, CardUpdateArgs { card_id: id.clone(), update: UpdateCard { posts: Some(vec![post.clone(), post]), ..Default::default() } })
        .await
        .unwrap_err();
    assert_eq!(e.field.as_deref(), Some("posts[1]"));
    assert_eq!(c::card_get(&app, CardId { card_id: id.clone() }).await.unwrap().assets.len(), 2, "nothing was written");

    // Notes: without a revision refused locally; with a stale one the 409 carries theirs.
    let e = c::card_update(&app, CardUpdateArgs { card_id: id.clone(), update: UpdateCard { notes: Some("mine".into()), ..Default::default() } })
        .await
        .unwrap_err();
    assert_eq!(e.field.as_deref(), Some("expectedRevision"));
    let theirs = c::card_update(&app, CardUpdateArgs { card_id: id.clone(), update: UpdateCard { notes: Some("theirs".into()), expected_revision: Some(read.revision), ..Default::default() } })
        .await
        .unwrap();
    let e = c::card_update(&app, CardUpdateArgs { card_id: id.clone(), update: UpdateCard { notes: Some("mine".into()), expected_revision: Some(read.revision), ..Default::default() } })
        .await
        .unwrap_err();
    assert_eq!(e.code, IpcCode::NotesConflict);
    assert_eq!((e.notes.as_deref(), e.revision), (Some("theirs"), Some(theirs.revision)));
    let mine = c::card_update(&app, CardUpdateArgs { card_id: id.clone(), update: UpdateCard { notes: Some("mine".into()), expected_revision: e.revision, ..Default::default() } })
        .await
        .unwrap();
    assert_eq!(mine.notes.as_deref(), Some("mine"));
}

#[tokio::test]
async fn planner_commands_answer_through_dispatch_with_the_wire_shape() {
    let app = app().await;
    let (sp, st) = space(&app, "Wire").await;
    let id = card(&app, &sp, &st[0], "Wired").await;
    let v = ipc::dispatch(&app, "card_move", json!({ "cardId": id, "stage": st[1] })).await.unwrap();
    assert_eq!(v["stageId"], json!(st[1]));
    let v = ipc::dispatch(&app, "board_load", json!({ "spaceId": sp })).await.unwrap();
    assert_eq!(v["cards"][0]["id"], json!(id));
    assert!(v["stages"].as_array().unwrap().len() >= 2 && v["space"]["id"] == json!(sp));
    let e = ipc::dispatch(&app, "card_move", json!({ "cardId": id })).await.unwrap_err();
    assert_eq!((e.code, e.field.as_deref()), (IpcCode::Validation, Some("stage")));
    // The move's rule is the catalogue's (`CardMoveInput::check`, as in `cdesk card move` and `move_card`):
    // not before itself, refused before anything is sent.
    let e = ipc::dispatch(&app, "card_move", json!({ "cardId": id, "stage": st[0], "beforeCardId": id })).await.unwrap_err();
    assert_eq!((e.code, e.field.as_deref(), e.status), (IpcCode::Validation, Some("beforeCardId"), None));
    assert!(e.message.contains("before itself"), "{}", e.message);
    let v = ipc::dispatch(&app, "card_get", json!({ "cardId": id })).await.unwrap();
    assert_eq!(v["stageId"], json!(st[1]), "the refused move changed nothing");
    let v = ipc::dispatch(&app, "card_update", json!({ "cardId": id, "update": { "title": "Renamed" } })).await.unwrap();
    assert_eq!(v["title"], json!("Renamed"));
    assert!(v["revision"].is_number());
    let e = ipc::dispatch(&app, "card_update", json!({ "cardId": id, "update": { "bogus": 1 } })).await.unwrap_err();
    assert_eq!(e.code, IpcCode::Validation);
    assert!(ipc::dispatch(&app, "tags_list", json!(null)).await.unwrap().is_array());
    assert!(ipc::dispatch(&app, "connected_accounts_list", json!(null)).await.unwrap().is_array());
    for name in ["board_load", "card_update", "stage_delete", "connected_accounts_list"] {
        assert!(ipc::COMMANDS.contains(&name));
    }
}

/// The rules of spaces and stages are the catalogue's inputs' (`SpaceCreateInput::check`, … as in `cdesk
/// space|stage …` and the agent tools): refused through dispatch, with the wire shape, before anything is
/// sent; a field the input does not have is refused too.
#[tokio::test]
async fn space_stage_and_card_rules_are_the_catalogues_through_dispatch() {
    let app = app().await;
    let (sp, st) = space(&app, "Rules").await;
    let long = "x".repeat(121);
    for (command, args, field, words) in [
        ("space_create", json!({ "name": "  " }), Some("name"), "Give the space a name."),
        ("space_create", json!({ "name": long }), Some("name"), "at most 120 characters"),
        ("space_rename", json!({ "spaceId": sp, "name": " " }), Some("name"), "Give the space a name."),
        ("space_rename", json!({ "spaceId": sp }), None, "nothing to change"),
        ("space_rename", json!({ "spaceId": sp, "nmae": "Typo" }), Some("nmae"), "unknown field"),
        ("stage_create", json!({ "spaceId": sp, "name": "x".repeat(61) }), Some("name"), "at most 60 characters"),
        ("stage_create", json!({ "spaceId": sp, "name": "Both", "afterId": st[0], "beforeId": st[1] }), Some("beforeId"), "not both"),
        ("stage_update", json!({ "spaceId": sp, "stageId": st[0], "afterId": st[1], "beforeId": st[1] }), Some("beforeId"), "not both"),
        ("stage_update", json!({ "spaceId": sp, "stageId": st[0] }), None, "nothing to change"),
        ("stage_delete", json!({ "spaceId": sp, "stageId": st[0], "targetStageId": st[0] }), Some("targetStageId"), "Choose another stage"),
        ("card_create", json!({ "spaceId": sp, "stage": st[0], "title": " ", "platform": "x" }), Some("title"), "Give the card a title."),
        ("card_create", json!({ "spaceId": sp, "stage": st[0], "title": "x".repeat(301), "platform": "x" }), Some("title"), "at most 300 characters"),
        ("card_create", json!({ "spaceId": sp, "stage": st[0], "title": "Where", "platform": "myspace" }), Some("platform"), "not a platform"),
        ("card_create", json!({ "spaceId": sp, "stage": st[0], "title": "Where", "platform": " " }), Some("platform"), "Choose the card's platform."),
        ("card_create", json!({ "spaceId": sp, "stageId": st[0], "title": "Old name", "platform": "x" }), Some("stageId"), "unknown field"),
        ("card_create", json!({ "stage": st[0], "title": "No space", "platform": "x" }), Some("spaceId"), "Name the"),
    ] {
        let e = ipc::dispatch(&app, command, args.clone()).await.unwrap_err();
        assert_eq!(e.code, IpcCode::Validation, "{command} {args}: {e:?}");
        if field.is_some() {
            assert_eq!(e.field.as_deref(), field, "{command} {args}: {e:?}");
        }
        assert!(e.message.contains(words), "{command} {args}: {}", e.message);
    }
    let board = c::board_load(&app, BoardLoadArgs { filters: BoardFilters::space(sp.clone()), ..Default::default() }).await.unwrap();
    assert_eq!(board.stages.iter().map(|s| s.id.clone()).collect::<Vec<_>>(), st, "nothing was sent");
    assert!(board.cards.is_empty(), "no card was made: {:?}", board.cards);
    assert_eq!(board.space.name, "Rules");
    // What the app's command cannot keep offline is refused by name (the catalogue's other faces take it).
    let e = ipc::dispatch(&app, "stage_update", json!({ "spaceId": sp, "stageId": st[1], "toStart": true })).await.unwrap_err();
    assert_eq!((e.code, e.field.as_deref()), (IpcCode::Validation, Some("toStart")), "{e:?}");
    // The app's shape goes through.
    let v = ipc::dispatch(&app, "stage_create", json!({ "spaceId": sp, "name": " Sign-off ", "afterId": st[0] })).await.unwrap();
    assert_eq!(v["name"], json!("Sign-off"));
    let v = ipc::dispatch(&app, "space_rename", json!({ "spaceId": sp, "name": " Rules kept " })).await.unwrap();
    assert_eq!(v["name"], json!("Rules kept"));
    // A card as `cdesk card create` takes it: trimmed, tags by name, a date alone, at the end of its stage.
    let v = ipc::dispatch(&app, "card_create", json!({ "spaceId": sp, "stage": st[1], "title": " Launch ", "platform": "x", "tags": ["launch"], "scheduledAt": "2027-02-01" })).await.unwrap();
    assert_eq!((v["title"].clone(), v["stageId"].clone()), (json!("Launch"), json!(st[1])), "{v}");
    assert_eq!(v["tags"], json!(["launch"]), "{v}");
    assert!(v["scheduledAt"].as_str().is_some_and(|t| t.starts_with("2027-0")), "{v}");
}

/// The board and the calendar share one filter group (`BoardFilters`, flattened into their flat JSON); a
/// flattened type cannot deny unknown fields in serde, so each command refuses them by name itself.
#[tokio::test]
async fn the_board_and_the_calendar_refuse_a_misspelt_filter_by_name() {
    let app = app().await;
    let (sp, _) = space(&app, "Typos").await;
    // spaces_list takes the catalogue's SpaceListInput (`archived`), the old `includeArchived` is refused.
    let e = ipc::dispatch(&app, "spaces_list", json!({ "includeArchived": true })).await.unwrap_err();
    assert_eq!((e.code, e.field.as_deref()), (IpcCode::Validation, Some("includeArchived")), "{e:?}");
    let e = ipc::dispatch(&app, "board_load", json!({ "spaceId": sp, "platfrom": "tiktok" })).await.unwrap_err();
    assert_eq!((e.code, e.field.as_deref()), (IpcCode::Validation, Some("platfrom")), "{e:?}");
    assert!(e.message.contains("unknown field `platfrom`"), "{}", e.message);
    let window = json!({ "spaceId": sp, "from": "2026-03-01T00:00:00Z", "to": "2026-03-08T00:00:00Z" });
    let mut typo = window.clone();
    typo["serach"] = json!("launch");
    let e = ipc::dispatch(&app, "calendar_window", typo).await.unwrap_err();
    assert_eq!((e.code, e.field.as_deref()), (IpcCode::Validation, Some("serach")), "{e:?}");
    // Missing the space is named as before; the flat shape with the filters goes through.
    let e = ipc::dispatch(&app, "calendar_window", json!({ "from": "2026-03-01T00:00:00Z", "to": "2026-03-08T00:00:00Z" })).await.unwrap_err();
    assert_eq!(e.field.as_deref(), Some("spaceId"), "{e:?}");
    let v = ipc::dispatch(&app, "board_load", json!({ "spaceId": sp, "platform": "tiktok", "search": "x", "archived": true, "firstPage": true })).await.unwrap();
    assert_eq!(v["space"]["id"], json!(sp));
    let mut filtered = window.clone();
    filtered["tag"] = json!("launch");
    let v = ipc::dispatch(&app, "calendar_window", filtered).await.unwrap();
    assert_eq!(v["listed"], json!(0));
}
