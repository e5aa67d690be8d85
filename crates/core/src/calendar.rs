//! The calendar's posts. The board's card list carries no posts (only `GET /cards/{id}` has them), yet a
//! post may carry its own `scheduledAt` (PATCH /cards/{id}, rule 3): the calendar places each post at
//! its own time. `calendar_posts` reads the posts of the cards the UI names (those whose time lies in the
//! visible range plus a margin: the UI picks them, placement.ts `cardsNear`), a few reads at a time, and
//! keeps each card's posts in memory with the card's `updatedAt`: a card whose summary did not change
//! is not read again (against a service with rate limits every read counts).
use std::collections::HashMap;
use std::sync::{Arc, Mutex, OnceLock};

use api_types::Post;
use serde::{Deserialize, Serialize};
use ts_rs::TS;

use crate::error::{IpcCode, IpcError, IpcResult};
use crate::session::Session;

/// At most this many cards per call (validation, field `cards`).
pub const CALENDAR_MAX_CARDS: usize = 500;
/// Card reads in flight at once.
pub const CALENDAR_READS_AT_ONCE: usize = 4;

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
}

/// `(data folder, profile id, card id)` → the card's posts as last read.
type Kept = HashMap<(String, String, String), CardPosts>;

fn kept() -> &'static Mutex<Kept> {
    static KEPT: OnceLock<Mutex<Kept>> = OnceLock::new();
    KEPT.get_or_init(|| Mutex::new(HashMap::new()))
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
        let gate = Arc::new(tokio::sync::Semaphore::new(CALENDAR_READS_AT_ONCE));
        let mut reads = tokio::task::JoinSet::new();
        for (i, id) in missing {
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
                    let posts = CardPosts { card_id: card.summary.id.clone(), updated_at: card.summary.updated_at.clone(), scheduled_at: card.summary.scheduled_at.clone(), posts: card.posts };
                    kept().lock().unwrap_or_else(|e| e.into_inner()).insert(key(&posts.card_id), posts.clone());
                    out[i] = Some(posts);
                }
                Err(e) if e.code == IpcCode::NotFound => {}
                Err(e) => failed = failed.or(Some(e)),
            }
        }
        if let Some(e) = failed {
            return Err(e);
        }
    }
    Ok(out.into_iter().flatten().collect())
}
