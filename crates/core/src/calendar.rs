//! The calendar's posts. The board's card list carries no posts (only `GET /cards/{id}` has them), yet a
//! post may carry its own `scheduledAt` (PATCH /cards/{id}, rule 3): the calendar places each post at
//! its own time. Each card's posts are kept in memory with the card's `updatedAt`: a card whose summary
//! did not change is not read again (against a service with rate limits every read counts).
//!
//! `calendar_window` answers the posts of the visible weeks. The API cannot say which cards have a post
//! in a window: `GET /cards` filters by space, stage, platform, tag, search, favourite and archived only,
//! never by time, and a post's own time is only in `GET /cards/{id}` (spec "Cards"; contract facts 1.7 and
//! the `card list` flags). So the core reads more widely than the window: every page of the space's cards
//! (the board's filters), then the posts of every card that has posts (its summary's `platforms`),
//! nearest the window first, at most `CALENDAR_READS_PER_CALL` new reads per call (the UI calls again
//! while `unread` is not 0; a card already read at its `updatedAt` costs nothing), and answers the cards
//! with anything in the window: the card's time or a post's own time, however far apart the two are.
//! `calendar_posts` reads the cards the caller names.
use std::collections::HashMap;
use std::sync::{Arc, Mutex, OnceLock};

use api_types::preflight::{self, Finding, PreflightInput};
use api_types::{CardSummary, Post};
use time::format_description::well_known::Rfc3339;
use time::OffsetDateTime;
use serde::{Deserialize, Serialize};
use ts_rs::TS;

use crate::error::{IpcCode, IpcError, IpcResult};
use crate::planner::{all_pages, BoardFilters, Unknown};
use crate::session::Session;

/// At most this many cards per call (validation, field `cards`).
pub const CALENDAR_MAX_CARDS: usize = 500;
/// Card reads in flight at once.
pub const CALENDAR_READS_AT_ONCE: usize = 4;
/// New card reads per `calendar_window` call at most (the rest are `unread`; the next call reads them).
pub const CALENDAR_READS_PER_CALL: usize = 500;

#[derive(Debug, Clone, Deserialize, Serialize, TS)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct CalendarPostsArgs {
    /// The cards to read, each with the `updatedAt` of its summary as the board has it.
    pub cards: Vec<CardStamp>,
}

#[derive(Debug, Clone, Deserialize, Serialize, TS)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct CardStamp {
    pub id: String,
    /// Absent: the card is read every time.
    #[serde(default)]
    #[ts(optional)]
    pub updated_at: Option<String>,
}

#[derive(Debug, Clone, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct CardPosts {
    pub card_id: String,
    /// The card's `updatedAt` when its posts were read.
    pub updated_at: Option<String>,
    /// The card's time as read (a post whose time differs from it has its own).
    pub scheduled_at: Option<String>,
    pub posts: Vec<Post>,
    /// The platform preflight of the card as read (api-types `preflight::check`, the one rules engine
    /// `cdesk card check` runs): what the board's tile and the calendar's chip mark (issue 28 point 2).
    #[serde(default)]
    pub findings: Vec<Finding>,
}

/// `(data folder, profile id, card id)` → the card's posts as last read.
type Kept = HashMap<(String, String, String), CardPosts>;

fn kept() -> &'static Mutex<Kept> {
    static KEPT: OnceLock<Mutex<Kept>> = OnceLock::new();
    KEPT.get_or_init(|| Mutex::new(HashMap::new()))
}

/// `(data folder, profile id, space id, archived, platform, tag, search)`: whose listing it is.
type ListingKey = (String, String, String, Option<bool>, Option<String>, Option<String>, Option<String>);

/// The listing of a `calendar_window` call that left cards unread, for its follow-ups (`continued`);
/// dropped by the call that leaves none, so it is held only while the calendar reads a large space.
fn listings() -> &'static Mutex<HashMap<ListingKey, Vec<CardSummary>>> {
    static LISTINGS: OnceLock<Mutex<HashMap<ListingKey, Vec<CardSummary>>>> = OnceLock::new();
    LISTINGS.get_or_init(|| Mutex::new(HashMap::new()))
}

/// The posts of `args.cards`, read again only for a card whose `updatedAt` differs from the one its
/// posts were read with. A card gone meanwhile (404) is left out; any other failed read is the answer.
pub async fn calendar_posts(session: &impl Session, args: CalendarPostsArgs) -> IpcResult<Vec<CardPosts>> {
    if args.cards.len() > CALENDAR_MAX_CARDS {
        return Err(IpcError::validation(
            "cards",
            format!("At most {CALENDAR_MAX_CARDS} cards at a time; ask for the visible weeks only."),
        ));
    }
    let profile = session.selected_profile().unwrap_or_default();
    let dir = session.data_dir().to_string_lossy().into_owned();
    let key = |id: &str| (dir.clone(), profile.clone(), id.to_string());
    let mut out: Vec<Option<CardPosts>> = Vec::with_capacity(args.cards.len());
    let mut missing: Vec<(usize, String)> = Vec::new();
    {
        let kept = kept().lock().unwrap_or_else(|e| e.into_inner());
        for (i, c) in args.cards.iter().enumerate() {
            match kept.get(&key(&c.id)) {
                Some(p) if c.updated_at.is_some() && p.updated_at == c.updated_at => out.push(Some(p.clone())),
                _ => {
                    out.push(None);
                    missing.push((i, c.id.clone()));
                }
            }
        }
    }
    if !missing.is_empty() {
        let client = session.client().await?;
        let ids: Vec<String> = missing.iter().map(|(_, id)| id.clone()).collect();
        let read = read_cards(&client, &key, ids).await?;
        for ((i, _), got) in missing.into_iter().zip(read) {
            out[i] = got;
        }
    }
    Ok(out.into_iter().flatten().collect())
}

/// Reads the cards `ids` (`CALENDAR_READS_AT_ONCE` at a time) into the memory, answering each one's posts
/// in the same order (`None`: the card is gone, 404). Any other failed read is the answer.
async fn read_cards(
    client: &api_client::Client,
    key: &(impl Fn(&str) -> (String, String, String) + Sync),
    ids: Vec<String>,
) -> IpcResult<Vec<Option<CardPosts>>> {
    let gate = Arc::new(tokio::sync::Semaphore::new(CALENDAR_READS_AT_ONCE));
    let mut reads = tokio::task::JoinSet::new();
    let mut out: Vec<Option<CardPosts>> = vec![None; ids.len()];
    for (i, id) in ids.into_iter().enumerate() {
        let (client, gate) = (client.clone(), gate.clone());
        reads.spawn(async move {
            let _permit = gate.acquire_owned().await;
            (i, client.cards().get(&id).await)
        });
    }
    let mut failed: Option<IpcError> = None;
    while let Some(done) = reads.join_next().await {
        let Ok((i, read)) = done else { continue };
        match read.map_err(IpcError::from) {
            Ok(card) => {
                let findings = preflight::check(&PreflightInput::from_card(&card));
                let posts = CardPosts { card_id: card.summary.id.clone(), updated_at: card.summary.updated_at.clone(), scheduled_at: card.summary.scheduled_at.clone(), posts: card.posts, findings };
                kept().lock().unwrap_or_else(|e| e.into_inner()).insert(key(&posts.card_id), posts.clone());
                out[i] = Some(posts);
            }
            Err(e) if e.code == IpcCode::NotFound => {}
            Err(e) => failed = failed.or(Some(e)),
        }
    }
    match failed {
        Some(e) => Err(e),
        None => Ok(out),
    }
}

#[derive(Debug, Clone, Default, Deserialize, Serialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct CalendarWindowArgs {
    /// The space and the board's filters (as `board_load`).
    #[serde(flatten)]
    pub filters: BoardFilters,
    /// The window's first instant (RFC 3339; the first visible day's midnight in the user's zone).
    pub from: String,
    /// The window's end (RFC 3339, not included: the midnight after the last visible day).
    pub to: String,
    /// `true`: a follow-up of the last call for the same space and filters, whose `unread` was above 0:
    /// that call's listing of the space is used again rather than listed again (50 requests for 5,000
    /// cards on every follow-up otherwise). With no such listing the space is listed as usual.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub continued: Option<bool>,
    #[serde(flatten, skip_serializing)]
    #[ts(skip)]
    pub unknown: Unknown,
}

/// The posts of a calendar window.
#[derive(Debug, Clone, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct CalendarWindow {
    /// The posts of every card read that has something in the window: the card's time, or a post's own
    /// time (a card whose time lies in the window but whose posts all lie elsewhere is here too, so
    /// that its posts are not shown at the card's time).
    pub cards: Vec<CardPosts>,
    /// Cards with posts not read yet (past `CALENDAR_READS_PER_CALL` this call): call again for them.
    pub unread: u32,
    /// Cards listed for the window (every page of the space with the board's filters).
    pub listed: u32,
}

fn instant(field: &str, s: &str) -> IpcResult<i128> {
    OffsetDateTime::parse(s, &Rfc3339)
        .map(|t| t.unix_timestamp_nanos() / 1_000_000)
        .map_err(|_| IpcError::validation(field, format!("“{s}” is not a time: give an RFC 3339 time such as 2026-03-01T00:00:00Z.")))
}

fn millis(s: Option<&str>) -> Option<i128> {
    s.and_then(|s| OffsetDateTime::parse(s, &Rfc3339).ok()).map(|t| t.unix_timestamp_nanos() / 1_000_000)
}

/// The posts of every card with something in `[from, to)`, whatever its own time (see the module's
/// words: the API cannot filter by time, so every card with posts is read, nearest the window first).
pub async fn calendar_window(session: &impl Session, args: CalendarWindowArgs) -> IpcResult<CalendarWindow> {
    args.unknown.refuse()?;
    let (from, to) = (instant("from", &args.from)?, instant("to", &args.to)?);
    if to <= from {
        return Err(IpcError::validation("to", "The window ends before it starts: give a later `to`."));
    }
    let client = session.client().await?;
    let query = args.filters.query();
    let profile = session.selected_profile().unwrap_or_default();
    let dir = session.data_dir().to_string_lossy().into_owned();
    let listing: ListingKey = (
        dir.clone(),
        profile.clone(),
        args.filters.space_id.clone(),
        query.archived,
        query.platform.clone(),
        query.tag.clone(),
        query.search.clone(),
    );
    let before = if args.continued == Some(true) {
        listings().lock().unwrap_or_else(|e| e.into_inner()).remove(&listing)
    } else {
        None
    };
    let cards = match before {
        Some(cards) => cards,
        None => {
            // Every page: unlike the board, no 5,000-card bound.
            let (mut cards, _) = all_pages(&client, query, usize::MAX).await?;
            args.filters.live_unless_archived(&mut cards);
            cards
        }
    };
    let listed = cards.len() as u32;
    let key = |id: &str| (dir.clone(), profile.clone(), id.to_string());
    let in_window = |t: Option<i128>| t.is_some_and(|t| t >= from && t < to);
    // How far a card's time lies from the window (0 inside; a card with no time last).
    let distance = |c: &CardSummary| match millis(c.scheduled_at.as_deref()) {
        Some(t) if t < from => from - t,
        Some(t) if t >= to => t - to + 1,
        Some(_) => 0,
        None => i128::MAX,
    };
    let with_posts: Vec<&CardSummary> = cards.iter().filter(|c| !c.platforms.is_empty()).collect();
    let (mut known, mut stale): (Vec<CardPosts>, Vec<&CardSummary>) = (Vec::new(), Vec::new());
    {
        let kept = kept().lock().unwrap_or_else(|e| e.into_inner());
        for c in &with_posts {
            match kept.get(&key(&c.id)) {
                Some(p) if c.updated_at.is_some() && p.updated_at == c.updated_at => known.push(p.clone()),
                _ => stale.push(c),
            }
        }
    }
    stale.sort_by_key(|c| distance(c));
    let unread = stale.len().saturating_sub(CALENDAR_READS_PER_CALL) as u32;
    let ids: Vec<String> = stale.iter().take(CALENDAR_READS_PER_CALL).map(|c| c.id.clone()).collect();
    if !ids.is_empty() {
        known.extend(read_cards(&client, &key, ids).await?.into_iter().flatten());
    }
    let mut held = listings().lock().unwrap_or_else(|e| e.into_inner());
    if unread > 0 {
        held.insert(listing, cards);
    } else {
        held.remove(&listing);
    }
    drop(held);
    let cards = known
        .into_iter()
        .filter(|p| in_window(millis(p.scheduled_at.as_deref())) || p.posts.iter().any(|post| in_window(millis(post.scheduled_at.as_deref()))))
        .collect();
    Ok(CalendarWindow { cards, unread, listed })
}
