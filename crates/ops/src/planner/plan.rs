//! Planning a card again: duplicate it, or repeat it as materialised copies (issue 28 point 5).
//!
//! Both make ordinary cards on the service, at once, each with its own fields: no hidden local scheduler.
//! A copy keeps the card's space, stage, platform, tags, cover, notes, posts (platform, format, account,
//! caption and the rest of `platformSpecificData`) and assets in carousel order; it never keeps a post's
//! status or publication (a copy has not been published).
//!
//! - **Duplicate** (`card duplicate`, `duplicate_card`, the app's `card_duplicate`): the title gets
//!   " (copy)" and the copy is **unscheduled** (the card's and every post's time left out), as Buffer's and
//!   Later's "duplicate" do: the copy is a draft to give a time of its own, so that two identical posts
//!   never go out at once by accident.
//! - **Repeat** (`card repeat`, `repeat_card`, `card_repeat`): copies every N days or weeks after the
//!   card's own time, for `count` copies or until a date (included); each copy's time, and each post's own
//!   time, moved by the same step. The title is kept. Refused before anything is made: an unscheduled
//!   card, a step that is not `Nd`/`Nw` (1 day to 52 weeks), no or both bounds, more than
//!   [`MAX_REPEATS`] copies, an `until` before the first copy.
use crate::{out, Cx, Effect, Meta, OpError, Operation};
use api_client::Client;
use api_types::{CardAssetInput, CardDetail, CardSummary, CreateCard, PostInput};
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use serde_json::Value;
use time::format_description::well_known::Rfc3339;
use time::{Duration, OffsetDateTime};
use ts_rs::TS;

use super::CardId;

/// The most copies one repeat makes (a year of weekly posts).
pub const MAX_REPEATS: u32 = 52;

/// What a copy of `card` is created with; `shift`: moved by this much (a repeat), `None`: unscheduled
/// (a duplicate).
pub fn copy_request(card: &CardDetail, title: String, shift: Option<Duration>) -> CreateCard {
    let s = &card.summary;
    let moved = |t: &str| -> Option<String> {
        let d = shift?;
        let at = OffsetDateTime::parse(t, &Rfc3339).ok()?;
        Some(crate::calendar::utc(at + d))
    };
    let card_at = s.scheduled_at.as_deref();
    let posts: Vec<PostInput> = card
        .posts
        .iter()
        .filter_map(|p| PostInput::from_post(p, card_at))
        .map(|p| PostInput { scheduled_at: p.scheduled_at.as_deref().and_then(moved), status: None, ..p })
        .collect();
    let assets: Vec<CardAssetInput> = card
        .assets
        .iter()
        .filter_map(|a| {
            let input = CardAssetInput { display_name: a.display_name.clone(), ..Default::default() };
            if let Some(o) = &a.output_id {
                Some(CardAssetInput { output_id: Some(o.clone()), ..input })
            } else if let Some(c) = a.content_id_or_alias() {
                Some(CardAssetInput { content_id: Some(c.to_string()), ..input })
            } else if let Some(p) = &a.project_id {
                Some(CardAssetInput { project_id: Some(p.clone()), ..input })
            } else {
                a.asset_url.as_ref().map(|u| CardAssetInput { asset_url: Some(u.clone()), ..input })
            }
        })
        .collect();
    let platform = s.platform.clone().or_else(|| posts.first().map(|p| p.platform.clone())).unwrap_or_else(|| "general".into());
    CreateCard {
        title,
        platform,
        space_id: s.space_id.clone(),
        stage: s.stage_id.clone(),
        cover_url: s.cover_url.clone(),
        cover_output_id: None,
        tags: (!s.tags.is_empty()).then(|| s.tags.clone()),
        notes: card.notes.clone().filter(|n| !n.is_empty()),
        scheduled_at: card_at.and_then(moved),
        posts: (!posts.is_empty()).then_some(posts),
        assets: (!assets.is_empty()).then_some(assets),
        extra: Default::default(),
    }
}

/// The duplicate's title: " (copy)" added.
pub fn copy_title(title: &str) -> String {
    format!("{} (copy)", title.trim_end())
}

/// Duplicates the card (see the module's comment); answers the copy.
pub async fn duplicate_card(client: &Client, card_id: &str) -> Result<CardSummary, OpError> {
    let card = client.cards().get(card_id).await?;
    let req = copy_request(&card, copy_title(&card.summary.title), None);
    Ok(client.cards().create(&req).await?)
}

pub struct CardDuplicate;
impl Operation for CardDuplicate {
    type Input = CardId;
    const META: Meta = Meta {
        path: &["card", "duplicate"],
        tool: "duplicate_card",
        summary: "Duplicate a card with its posts, assets and notes, unscheduled, \" (copy)\" in its title",
        details: "Free. Not idempotent: each call makes one more copy. The copy is in the same space and stage, with no time (give it one with update_card or queue_card).",
        effect: Effect::Write,
        idempotent: false,
        scope: Some("planner:write"),
    };
    async fn run(cx: Cx, i: CardId) -> Result<Value, OpError> {
        out(duplicate_card(&cx.client, &i.card_id).await?)
    }
}

/// A repeat: `cdesk card repeat ID --every 1w --count 4`, the agent tool `repeat_card` and the app's
/// `card_repeat` take this one input and its rules ([`CardRepeatInput::times`]).
#[derive(Debug, Clone, clap::Args, Deserialize, Serialize, JsonSchema, TS)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct CardRepeatInput {
    /// The card to repeat (it must have a time).
    pub card_id: String,
    /// How often: days or weeks, e.g. `3d` or `1w` (1 day to 52 weeks).
    #[arg(long)]
    pub every: String,
    /// How many copies (1-52); give this or `until`.
    #[arg(long, conflicts_with = "until", required_unless_present = "until")]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub count: Option<u32>,
    /// The last day a copy may fall on, included: a date or an RFC 3339 time, e.g. `2027-03-01` or
    /// `2027-03-01T09:00:00Z`; give this or `count`.
    #[arg(long)]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub until: Option<String>,
}

/// `3d` → 3 days, `2w` → 14 days; else a usage error naming `every`.
pub fn parse_every(every: &str) -> Result<Duration, OpError> {
    let s = every.trim().to_ascii_lowercase();
    let bad = || OpError::usage("every", format!("“{every}” is not a step: give days or weeks, as 3d or 1w (1 day to 52 weeks)."));
    let (n, unit) = s.split_at(s.len().saturating_sub(1));
    let n: i64 = n.trim().parse().map_err(|_| bad())?;
    let days = match unit {
        "d" => n,
        "w" => n * 7,
        _ => return Err(bad()),
    };
    if !(1..=52 * 7).contains(&days) {
        return Err(bad());
    }
    Ok(Duration::days(days))
}

impl CardRepeatInput {
    /// The copies' times after `first` (the card's time), by the input's rules; a usage error naming the
    /// field otherwise. Nothing is sent before this passes.
    pub fn times(&self, first: Option<&str>) -> Result<Vec<OffsetDateTime>, OpError> {
        let step = parse_every(&self.every)?;
        let Some(first) = first.and_then(|t| OffsetDateTime::parse(t, &Rfc3339).ok()) else {
            return Err(OpError::usage("cardId", "The card has no time to repeat from: schedule it first."));
        };
        match (self.count, &self.until) {
            (Some(_), Some(_)) => Err(OpError::usage("until", "Give either a count or an until date, not both.")),
            (None, None) => Err(OpError::usage("count", "Say how many copies (count) or until when (until).")),
            (Some(n), None) => {
                if !(1..=MAX_REPEATS).contains(&n) {
                    return Err(OpError::usage("count", format!("Make 1 to {MAX_REPEATS} copies.")));
                }
                Ok((1..=i64::from(n)).map(|k| first + step * k as i32).collect())
            }
            (None, Some(until)) => {
                let mut end = crate::calendar::instant("until", until)?;
                if until.trim().len() == 10 {
                    // A date: the whole day is included.
                    end += Duration::days(1) - Duration::seconds(1);
                }
                let times: Vec<OffsetDateTime> = (1..).map(|k: i32| first + step * k).take_while(|t| *t <= end).take(MAX_REPEATS as usize + 1).collect();
                if times.is_empty() {
                    return Err(OpError::usage("until", "The until date is before the first copy: nothing to make."));
                }
                if times.len() > MAX_REPEATS as usize {
                    return Err(OpError::usage("until", format!("That makes more than {MAX_REPEATS} copies: choose an earlier date or a longer step.")));
                }
                Ok(times)
            }
        }
    }
}

/// Repeats the card (see the module's comment); answers the copies in time order.
pub async fn repeat_card(client: &Client, input: &CardRepeatInput) -> Result<Vec<CardSummary>, OpError> {
    let card = client.cards().get(&input.card_id).await?;
    let first = OffsetDateTime::parse(card.summary.scheduled_at.as_deref().unwrap_or(""), &Rfc3339).ok();
    let times = input.times(card.summary.scheduled_at.as_deref())?;
    let mut made = Vec::with_capacity(times.len());
    for at in &times {
        let shift = first.map(|f| *at - f);
        let req = copy_request(&card, card.summary.title.clone(), shift);
        match client.cards().create(&req).await {
            Ok(c) => made.push(c),
            Err(e) if made.is_empty() => return Err(e.into()),
            Err(e) => {
                return Err(OpError::Usage {
                    message: format!("{} of {} copies were made (the last at {}); then: {}", made.len(), times.len(), made.last().and_then(|c: &CardSummary| c.scheduled_at.clone()).unwrap_or_default(), OpError::from(e)),
                    field: None,
                })
            }
        }
    }
    Ok(made)
}

pub struct CardRepeat;
impl Operation for CardRepeat {
    type Input = CardRepeatInput;
    const META: Meta = Meta {
        path: &["card", "repeat"],
        tool: "repeat_card",
        summary: "Repeat a scheduled card: copies every N days or weeks, for a count or until a date",
        details: "Free. Not idempotent: each call makes new copies. The copies are ordinary cards made at once, each at the card's time plus one more step (posts with their own times moved alike), title kept. At most 52 copies.",
        effect: Effect::Write,
        idempotent: false,
        scope: Some("planner:write"),
    };
    async fn run(cx: Cx, i: CardRepeatInput) -> Result<Value, OpError> {
        let cards = repeat_card(&cx.client, &i).await?;
        out(serde_json::json!({ "cards": cards, "count": cards.len() }))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn input(every: &str, count: Option<u32>, until: Option<&str>) -> CardRepeatInput {
        CardRepeatInput { card_id: "c".into(), every: every.into(), count, until: until.map(String::from) }
    }

    #[test]
    fn repeat_bounds_are_checked_before_anything_is_made() {
        let at = Some("2026-12-01T09:00:00Z");
        let t = |i: CardRepeatInput| i.times(at).map(|v| v.into_iter().map(crate::calendar::utc).collect::<Vec<_>>());
        assert_eq!(t(input("1w", Some(2), None)).unwrap(), ["2026-12-08T09:00:00Z", "2026-12-15T09:00:00Z"]);
        assert_eq!(t(input("3d", None, Some("2026-12-07"))).unwrap(), ["2026-12-04T09:00:00Z", "2026-12-07T09:00:00Z"]);
        assert_eq!(t(input("1w", Some(52), None)).unwrap().len(), 52);
        let field = |i: CardRepeatInput| match i.times(at) {
            Err(OpError::Usage { field, .. }) => field.unwrap_or_default(),
            other => panic!("{other:?}"),
        };
        assert_eq!(field(input("1w", Some(0), None)), "count");
        assert_eq!(field(input("1w", Some(53), None)), "count");
        assert_eq!(field(input("1w", None, None)), "count");
        assert_eq!(field(input("1w", Some(2), Some("2027-01-01"))), "until");
        assert_eq!(field(input("1w", None, Some("2026-12-07"))), "until");
        assert_eq!(field(input("1d", None, Some("2027-06-01"))), "until");
        for bad in ["0d", "1h", "w", "53w", "-1d", ""] {
            assert_eq!(field(input(bad, Some(1), None)), "every", "{bad}");
        }
        assert!(matches!(input("1w", Some(1), None).times(None), Err(OpError::Usage { field: Some(f), .. }) if f == "cardId"));
    }
}
