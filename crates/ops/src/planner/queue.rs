//! The posting queue (issue 28 point 4): time slots per connected account and weekday, kept on this
//! computer with the profile (`queue-slots.json` in the app's data folder, keyed by profile id:
//! [`QueueFile`]), and "add to queue": each of a card's posts scheduled in the next free slot of its own
//! account.
//!
//! Slots are weekday + time **in UTC** (the app's slot editor converts from and to the calendar's time
//! zone when it writes them; across a daylight-saving change a slot keeps its UTC time, so its local time
//! moves by an hour: the editor shows it as it is). A slot is free when no scheduled post of the same
//! account lies within `clashMinutes` of it (the same window that flags a clash). Nothing runs on this
//! computer later: queueing writes the times on the service at once.
use crate::{out, Cx, Effect, Meta, OpError, Operation};
use api_client::Client;
use api_types::{CardDetail, CardQuery, PostInput, UpdateCard};
use serde::{Deserialize, Serialize};
use serde_json::Value;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use time::format_description::well_known::Rfc3339;
use time::{Duration, OffsetDateTime, Time};
use ts_rs::TS;

use super::CardId;

/// The file's name in the app's data folder.
pub const QUEUE_FILE: &str = "queue-slots.json";
/// How far ahead the next free slot is looked for.
pub const HORIZON_WEEKS: i64 = 12;
/// Two posts of one account closer than this (minutes) are a clash, unless the profile says otherwise.
pub const DEFAULT_CLASH_MINUTES: u32 = 30;

/// One slot: an account's weekday and time (UTC).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct QueueSlot {
    pub account_id: String,
    /// 1 = Monday … 7 = Sunday (ISO 8601).
    pub weekday: u8,
    /// `HH:MM`, UTC.
    pub time: String,
}

/// A profile's queue: its slots and how close two posts of one account may be.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct QueueSettings {
    #[serde(default)]
    pub slots: Vec<QueueSlot>,
    #[serde(default = "default_clash")]
    pub clash_minutes: u32,
}

fn default_clash() -> u32 {
    DEFAULT_CLASH_MINUTES
}

impl Default for QueueSettings {
    fn default() -> Self {
        QueueSettings { slots: Vec::new(), clash_minutes: DEFAULT_CLASH_MINUTES }
    }
}

impl QueueSettings {
    /// The rules of a slot list (the app's save runs them): weekday 1-7, a `HH:MM` time, an account,
    /// no slot twice, a clash window of 0-1440 minutes.
    pub fn check(&self) -> Result<(), OpError> {
        if self.clash_minutes > 24 * 60 {
            return Err(OpError::usage("clashMinutes", "A clash window is 0 to 1440 minutes."));
        }
        let mut seen = std::collections::BTreeSet::new();
        for (i, s) in self.slots.iter().enumerate() {
            if s.account_id.trim().is_empty() {
                return Err(OpError::usage(&format!("slots[{i}].accountId"), "Choose the slot's account."));
            }
            if !(1..=7).contains(&s.weekday) {
                return Err(OpError::usage(&format!("slots[{i}].weekday"), "A weekday is 1 (Monday) to 7 (Sunday)."));
            }
            parse_hm(&s.time).ok_or_else(|| OpError::usage(&format!("slots[{i}].time"), format!("“{}” is not a time: write it as 09:30.", s.time)))?;
            if !seen.insert((s.account_id.clone(), s.weekday, s.time.clone())) {
                return Err(OpError::usage(&format!("slots[{i}]"), "This slot is there twice."));
            }
        }
        Ok(())
    }
}

fn parse_hm(s: &str) -> Option<Time> {
    let (h, m) = s.trim().split_once(':')?;
    Time::from_hms(h.parse().ok()?, m.parse().ok()?, 0).ok()
}

/// `queue-slots.json`: each profile's [`QueueSettings`] by profile id.
pub struct QueueFile {
    pub path: PathBuf,
}

impl QueueFile {
    pub fn in_dir(data_dir: &Path) -> QueueFile {
        QueueFile { path: data_dir.join(QUEUE_FILE) }
    }

    fn read_all(&self) -> Result<BTreeMap<String, QueueSettings>, OpError> {
        match std::fs::read(&self.path) {
            Ok(bytes) => serde_json::from_slice(&bytes).map_err(|e| OpError::Internal(format!("{} cannot be read: {e}", self.path.display()))),
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(BTreeMap::new()),
            Err(e) => Err(OpError::Internal(format!("{} cannot be read: {e}", self.path.display()))),
        }
    }

    /// The profile's queue (empty when it has none).
    pub fn get(&self, profile_id: &str) -> Result<QueueSettings, OpError> {
        Ok(self.read_all()?.remove(profile_id).unwrap_or_default())
    }

    /// Writes the profile's queue (checked first), atomically (a temporary file renamed over).
    pub fn set(&self, profile_id: &str, settings: QueueSettings) -> Result<QueueSettings, OpError> {
        settings.check()?;
        let mut all = self.read_all()?;
        all.insert(profile_id.to_string(), settings.clone());
        let text = serde_json::to_vec_pretty(&all).map_err(|e| OpError::Internal(e.to_string()))?;
        if let Some(dir) = self.path.parent() {
            std::fs::create_dir_all(dir).map_err(|e| OpError::Internal(format!("cannot create {}: {e}", dir.display())))?;
        }
        let tmp = self.path.with_extension("json.tmp");
        std::fs::write(&tmp, text).and_then(|_| std::fs::rename(&tmp, &self.path)).map_err(|e| OpError::Internal(format!("cannot write {}: {e}", self.path.display())))?;
        Ok(settings)
    }
}

/// Where a face finds the queue: the file and the profile (cdesk: the app's data folder and the profile
/// the key came from; the app: its own).
#[derive(Debug, Clone)]
pub struct QueuePlace {
    pub data_dir: PathBuf,
    pub profile_id: String,
}

/// The slots of `account` from `after` on (within [`HORIZON_WEEKS`]), in time order.
pub fn slot_times(settings: &QueueSettings, account: &str, after: OffsetDateTime) -> Vec<OffsetDateTime> {
    let after = after.to_offset(time::UtcOffset::UTC);
    let mut out = Vec::new();
    for day in 0..(HORIZON_WEEKS * 7) {
        let date = after.date() + Duration::days(day);
        let wd = date.weekday().number_from_monday();
        for s in settings.slots.iter().filter(|s| s.account_id == account && s.weekday == wd) {
            if let Some(t) = parse_hm(&s.time) {
                let at = date.with_time(t).assume_utc();
                if at > after {
                    out.push(at);
                }
            }
        }
    }
    out.sort();
    out.dedup();
    out
}

/// The first slot of `account` after `after` with no time of `taken` within `clash` of it.
pub fn next_free(settings: &QueueSettings, account: &str, after: OffsetDateTime, taken: &[OffsetDateTime]) -> Option<OffsetDateTime> {
    let clash = Duration::minutes(i64::from(settings.clash_minutes));
    slot_times(settings, account, after).into_iter().find(|s| taken.iter().all(|t| (*t - *s).abs() >= clash.max(Duration::SECOND)))
}

/// A scheduled post: its card, account and time.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct ScheduledPost {
    pub card_id: String,
    pub account_id: String,
    pub platform: String,
    pub at: String,
}

fn parse(t: &str) -> Option<OffsetDateTime> {
    OffsetDateTime::parse(t, &Rfc3339).ok()
}

/// The scheduled posts of a card (each post's own time, else the card's), with an account.
pub fn scheduled_posts(card: &CardDetail) -> Vec<ScheduledPost> {
    if card.summary.published_at.is_some() || card.summary.is_archived {
        return Vec::new();
    }
    card.posts
        .iter()
        .filter(|p| p.published_at.is_none())
        .filter_map(|p| {
            let at = p.scheduled_at.as_deref().or(card.summary.scheduled_at.as_deref())?;
            Some(ScheduledPost { card_id: card.summary.id.clone(), account_id: p.connected_account_id.clone()?, platform: p.platform.clone()?, at: at.to_string() })
        })
        .collect()
}

/// The posts that clash: two posts of one account on different cards within `minutes` of each other
/// (both are flagged).
pub fn clashes(posts: &[ScheduledPost], minutes: u32) -> Vec<ScheduledPost> {
    let window = Duration::minutes(i64::from(minutes));
    let times: Vec<Option<OffsetDateTime>> = posts.iter().map(|p| parse(&p.at)).collect();
    posts
        .iter()
        .enumerate()
        .filter(|(i, p)| {
            posts.iter().enumerate().any(|(j, q)| {
                *i != j && q.account_id == p.account_id && q.card_id != p.card_id && matches!((times[*i], times[j]), (Some(a), Some(b)) if (a - b).abs() < window)
            })
        })
        .map(|(_, p)| p.clone())
        .collect()
}

/// Every scheduled post of the account's live cards, in every space (each scheduled card read once).
pub async fn all_scheduled(client: &Client, except: &str) -> Result<Vec<ScheduledPost>, OpError> {
    let mut out = Vec::new();
    for space in client.spaces().list(false).await? {
        let mut offset = 0u32;
        loop {
            let q = CardQuery { space_id: Some(space.id.clone()), limit: Some(100), offset: Some(offset), ..Default::default() };
            let page = client.cards().list(&q).await?;
            let n = page.cards.len() as u32;
            for c in page.cards.into_iter().filter(|c| c.id != except && c.scheduled_at.is_some() && c.published_at.is_none()) {
                out.extend(scheduled_posts(&client.cards().get(&c.id).await?));
            }
            offset += n;
            if n == 0 || !page.has_more && i64::from(offset) >= page.total {
                break;
            }
        }
    }
    Ok(out)
}

/// Where one post went.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS, schemars::JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct Placed {
    pub platform: String,
    pub account_id: String,
    pub scheduled_at: String,
}

/// A card added to the queue: read back, and where each post went.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS, schemars::JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct Queued {
    pub card: CardDetail,
    pub placed: Vec<Placed>,
}

/// Adds the card to the queue: each post in the next free slot of its account after `now` (the card's
/// time: its earliest); answers the card read back and where each post went.
pub async fn queue_card(client: &Client, settings: &QueueSettings, card_id: &str, now: OffsetDateTime) -> Result<Queued, OpError> {
    let card = client.cards().get(card_id).await?;
    if card.posts.is_empty() {
        return Err(OpError::usage("cardId", "The card has no posts to queue: add a post for a platform first."));
    }
    for (i, p) in card.posts.iter().enumerate() {
        if p.connected_account_id.is_none() {
            let platform = p.platform.clone().unwrap_or_default();
            return Err(OpError::usage(&format!("posts[{i}].accountId"), format!("The {platform} post has no account: choose the account it goes out from first.")));
        }
    }
    let mut taken: BTreeMap<String, Vec<OffsetDateTime>> = BTreeMap::new();
    for p in all_scheduled(client, card_id).await? {
        if let Some(t) = parse(&p.at) {
            taken.entry(p.account_id).or_default().push(t);
        }
    }
    let mut posts = Vec::new();
    let mut placed = Vec::new();
    for p in &card.posts {
        let account = p.connected_account_id.clone().unwrap_or_default();
        let platform = p.platform.clone().unwrap_or_default();
        if !settings.slots.iter().any(|s| s.account_id == account) {
            return Err(OpError::usage("slots", format!("The {platform} post's account has no queue slots: add its times in Settings › Posting queue first. Nothing was scheduled.")));
        }
        let list = taken.entry(account.clone()).or_default();
        let Some(at) = next_free(settings, &account, now, list) else {
            return Err(OpError::usage("slots", format!("Every slot of the {platform} post's account is taken for the next {HORIZON_WEEKS} weeks: add slots or free one. Nothing was scheduled.")));
        };
        list.push(at);
        let at = crate::calendar::utc(at);
        placed.push(Placed { platform, account_id: account, scheduled_at: at.clone() });
        let mut input = PostInput::from_post(p, None).unwrap_or_default();
        input.scheduled_at = Some(at);
        input.status = None;
        posts.push(input);
    }
    let first = posts.iter().filter_map(|p| p.scheduled_at.clone()).min();
    let update = UpdateCard { scheduled_at: Some(first), ..Default::default() };
    client.cards().update(card_id, &update).await?;
    client.cards().update(card_id, &UpdateCard { posts: Some(posts), ..Default::default() }).await?;
    let card = client.cards().get(card_id).await?;
    Ok(Queued { card, placed })
}

pub struct CardQueue;
impl Operation for CardQueue {
    type Input = CardId;
    const META: Meta = Meta {
        path: &["card", "queue"],
        tool: "queue_card",
        summary: "Add a card to the posting queue: each post in the next free slot of its account",
        details: "Free. Slots are set in Content Desk (Settings › Posting queue; queue-slots.json in the app's data folder). A slot is free when no scheduled post of that account is within the clash window. Each post needs an account; an account without slots is refused and nothing is scheduled.",
        effect: Effect::Write,
        idempotent: false,
        scope: Some("planner:write"),
    };
    async fn run(cx: Cx, i: CardId) -> Result<Value, OpError> {
        let Some(place) = cx.queue.clone() else {
            return Err(OpError::usage("slots", "The posting queue is kept with a Content Desk profile on this computer: use --profile NAME or --sandbox (no profile, no slots)."));
        };
        let settings = QueueFile::in_dir(&place.data_dir).get(&place.profile_id)?;
        let now = OffsetDateTime::now_utc();
        out(queue_card(&cx.client, &settings, &i.card_id, now).await?)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn at(s: &str) -> OffsetDateTime {
        OffsetDateTime::parse(s, &Rfc3339).unwrap()
    }

    fn week(account: &str) -> QueueSettings {
        let slots = (1..=7).flat_map(|d| ["09:00", "17:30"].map(|t| QueueSlot { account_id: account.into(), weekday: d, time: t.into() })).collect();
        QueueSettings { slots, clash_minutes: 30 }
    }

    #[test]
    fn a_full_week_of_slots_is_walked_in_order_and_taken_slots_are_skipped() {
        let s = week("a");
        // 2026-11-27 is a Friday.
        let now = at("2026-11-27T10:00:00Z");
        let got: Vec<String> = slot_times(&s, "a", now).into_iter().take(4).map(crate::calendar::utc).collect();
        assert_eq!(got, ["2026-11-27T17:30:00Z", "2026-11-28T09:00:00Z", "2026-11-28T17:30:00Z", "2026-11-29T09:00:00Z"]);
        assert_eq!(slot_times(&s, "a", now).len(), 14 * HORIZON_WEEKS as usize - 1);
        // A post 20 minutes from a slot takes it (clash window 30); 30 minutes away does not.
        let taken = [at("2026-11-27T17:50:00Z"), at("2026-11-28T08:30:00Z")];
        assert_eq!(next_free(&s, "a", now, &taken).map(crate::calendar::utc).as_deref(), Some("2026-11-28T09:00:00Z"));
        let taken = [at("2026-11-27T17:50:00Z"), at("2026-11-28T08:45:00Z")];
        assert_eq!(next_free(&s, "a", now, &taken).map(crate::calendar::utc).as_deref(), Some("2026-11-28T17:30:00Z"));
        assert_eq!(next_free(&s, "b", now, &[]), None, "no slot for another account");
    }

    #[test]
    fn posts_of_one_account_within_the_window_clash_and_others_do_not() {
        let p = |card: &str, acc: &str, t: &str| ScheduledPost { card_id: card.into(), account_id: acc.into(), platform: "x".into(), at: t.into() };
        let posts = [
            p("c1", "a", "2026-12-01T09:00:00Z"),
            p("c2", "a", "2026-12-01T09:29:00Z"),
            p("c3", "a", "2026-12-01T10:00:00Z"),
            p("c4", "b", "2026-12-01T09:00:00Z"),
        ];
        let flagged: Vec<String> = clashes(&posts, 30).into_iter().map(|p| p.card_id).collect();
        assert_eq!(flagged, ["c1", "c2"]);
        assert!(clashes(&posts, 0).is_empty());
    }

    #[test]
    fn slot_lists_are_checked() {
        let mut s = week("a");
        assert!(s.check().is_ok());
        s.slots.push(s.slots[0].clone());
        assert!(matches!(s.check(), Err(OpError::Usage { field: Some(f), .. }) if f.starts_with("slots[")));
        let bad = QueueSettings { slots: vec![QueueSlot { account_id: "a".into(), weekday: 8, time: "09:00".into() }], clash_minutes: 30 };
        assert!(matches!(bad.check(), Err(OpError::Usage { field: Some(f), .. }) if f == "slots[0].weekday"));
        let bad = QueueSettings { slots: vec![QueueSlot { account_id: "a".into(), weekday: 1, time: "9h".into() }], clash_minutes: 30 };
        assert!(matches!(bad.check(), Err(OpError::Usage { field: Some(f), .. }) if f == "slots[0].time"));
    }
}
