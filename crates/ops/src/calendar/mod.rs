//! The planner's calendar: `calendar export` / `export_calendar`, one event per scheduled post of a
//! space in a window, as ICS (RFC 5545), CSV (RFC 4180) or JSON. A post's time is its own `scheduledAt`,
//! else its card's (spec "Post"). The API cannot filter cards by time (spec "Cards"; as the app's
//! calendar, crates/core/src/calendar.rs): every page of the space's live cards is listed, then the
//! cards that have posts (their summary's `platforms`) are read, a few at a time.
//!
//! The reply is a document ([`crate::Document`]): the shell writes its text raw to stdout or `--output`,
//! an agent reads it fenced with a count.
pub mod ics;

use crate::planner::all_cards;
use crate::{out, Cx, Effect, Meta, OpError, Operation, ProgressEvent};
use api_types::{CardDetail, CardQuery, CardSummary};
use ics::Event;
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use serde_json::Value;
use std::sync::Arc;
use time::format_description::well_known::Rfc3339;
use time::{OffsetDateTime, UtcOffset};

/// Card reads in flight at once (as the app's calendar).
const READS_AT_ONCE: usize = 4;

#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, clap::ValueEnum, Deserialize, Serialize, JsonSchema, ts_rs::TS)]
#[serde(rename_all = "lowercase")]
pub enum ExportFormat {
    /// iCalendar (RFC 5545), for calendar apps.
    #[default]
    Ics,
    /// CSV (RFC 4180) with a header row.
    Csv,
    /// A JSON array of events.
    Json,
}

impl ExportFormat {
    fn media_type(self) -> &'static str {
        match self {
            ExportFormat::Ics => "text/calendar",
            ExportFormat::Csv => "text/csv",
            ExportFormat::Json => "application/json",
        }
    }
}

#[derive(Debug, Clone, clap::Args, Deserialize, Serialize, JsonSchema, ts_rs::TS)]
#[serde(rename_all = "camelCase")]
pub struct CalendarExportInput {
    /// ics (RFC 5545, for calendar apps), csv (RFC 4180, a header row) or json (an array of events).
    #[arg(long, value_enum, default_value_t = ExportFormat::Ics)]
    #[serde(default)]
    #[schemars(schema_with = "format_schema")]
    #[ts(optional, as = "Option<ExportFormat>")]
    pub format: ExportFormat,
    /// The window's start: a date (00:00{shell:  local time}{agent:  UTC}) or an RFC 3339 time, e.g. `2026-12-01` or `2026-12-01T09:00:00+01:00`.
    #[arg(long, value_name = "DATE")]
    pub from: String,
    /// The window's end, not included: a date (00:00{shell:  local time}{agent:  UTC}) or an RFC 3339 time, e.g. `2027-01-01` or `2027-01-01T00:00:00Z`.
    #[arg(long, value_name = "DATE")]
    pub to: String,
    /// The space (id); the default space when absent.
    #[arg(long = "space")]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub space_id: Option<String>,
}

/// The format as a plain value list (no `$ref`), as the other inputs' value lists.
fn format_schema(_: &mut schemars::SchemaGenerator) -> schemars::Schema {
    schemars::json_schema!({ "type": "string", "enum": ["ics", "csv", "json"], "default": "ics" })
}

/// The reply: the document and what it holds.
#[derive(Debug, Clone, Serialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct Export {
    pub format: ExportFormat,
    pub media_type: &'static str,
    /// The window, UTC (`to` not included).
    pub from: String,
    pub to: String,
    pub space: Option<Value>,
    /// Events in the document.
    pub count: usize,
    pub document: String,
}

pub struct CalendarExport;
impl Operation for CalendarExport {
    type Input = CalendarExportInput;
    const META: Meta = Meta {
        path: &["calendar", "export"],
        tool: "export_calendar",
        summary: "Export a space's scheduled posts in a window as ICS, CSV or JSON, one event per post",
        details: "Free. Each post is one event at its own time (else its card's), with a stable UID (card and platform), the card's title and the platform as summary, the caption as description. Reads every card of the space (the API cannot filter by time): slow on large spaces.",
        effect: Effect::Read,
        idempotent: true,
        scope: None,
    };
    async fn run(cx: Cx, i: CalendarExportInput) -> Result<Value, OpError> {
        let from = instant("from", &i.from)?;
        let to = instant("to", &i.to)?;
        if to <= from {
            return Err(OpError::usage(
                "to",
                format!("--to {} is not after --from {}: the window is empty (--to is not included); give a later --to", utc(to), utc(from)),
            ));
        }
        let query = CardQuery { space_id: i.space_id.clone(), ..Default::default() };
        let list = all_cards(&cx, query).await?;
        let space = list.space.as_ref().map(|s| serde_json::to_value(s).unwrap_or_default());
        let with_posts: Vec<CardSummary> = list.cards.into_iter().filter(|c| !c.is_archived && !c.platforms.is_empty()).collect();
        let details = read_cards(&cx, &with_posts).await?;
        let mut events = events_in(&details, from, to);
        events.sort_by(|a, b| (&a.scheduled_at, &a.title, &a.platform, &a.uid).cmp(&(&b.scheduled_at, &b.title, &b.platform, &b.uid)));
        let name = space.as_ref().and_then(|s| s.get("name")).and_then(Value::as_str).map(|n| format!("Content Desk: {n}"));
        let document = match i.format {
            ExportFormat::Ics => ics::calendar(&events, name.as_deref()),
            ExportFormat::Csv => ics::csv(&events),
            ExportFormat::Json => {
                let mut text = serde_json::to_string_pretty(&events).map_err(|e| OpError::Internal(format!("could not encode the events: {e}")))?;
                text.push('\n');
                text
            }
        };
        out(Export { format: i.format, media_type: i.format.media_type(), from: utc(from), to: utc(to), space, count: events.len(), document })
    }
}

/// The events of `cards` whose time lies in `[from, to)`: a post's own time, else its card's.
pub fn events_in(cards: &[CardDetail], from: OffsetDateTime, to: OffsetDateTime) -> Vec<Event> {
    let now = utc(OffsetDateTime::now_utc());
    let mut events = Vec::new();
    for card in cards {
        let c = &card.summary;
        let stamp = c.updated_at.as_deref().and_then(parse_rfc3339).map(utc).unwrap_or_else(|| now.clone());
        for post in &card.posts {
            let Some(at) = post.scheduled_at.as_deref().or(c.scheduled_at.as_deref()).and_then(parse_rfc3339) else { continue };
            if at < from || at >= to {
                continue;
            }
            let platform = post.platform.clone().unwrap_or_else(|| "general".into());
            let uid = match &post.platform {
                Some(p) => format!("{}-{p}@content-desk", c.id),
                None => format!("{}-post-{}@content-desk", c.id, post.id),
            };
            let settings = post.platform_settings.as_ref();
            let text = |k: &str| settings.and_then(|s| s.get(k)).and_then(Value::as_str).filter(|s| !s.is_empty());
            events.push(Event {
                uid,
                scheduled_at: utc(at),
                title: c.title.clone(),
                platform,
                caption: text("caption").or_else(|| text("description")).unwrap_or("").to_string(),
                card_id: c.id.clone(),
                post_id: post.id.clone(),
                format: post.format.clone(),
                account_id: post.connected_account_id.clone(),
                status: post.status.clone(),
                stamp: stamp.clone(),
            });
        }
    }
    events
}

/// Reads the cards (posts are only in `GET /cards/{id}`), [`READS_AT_ONCE`] at a time, saying how many
/// are read. A card gone meanwhile (404) is left out.
async fn read_cards(cx: &Cx, cards: &[CardSummary]) -> Result<Vec<CardDetail>, OpError> {
    let gate = Arc::new(tokio::sync::Semaphore::new(READS_AT_ONCE));
    let mut reads = tokio::task::JoinSet::new();
    for (i, c) in cards.iter().enumerate() {
        let (client, gate, id) = (cx.client.clone(), gate.clone(), c.id.clone());
        reads.spawn(async move {
            let _permit = gate.acquire_owned().await;
            (i, client.cards().get(&id).await)
        });
    }
    let mut got: Vec<Option<CardDetail>> = vec![None; cards.len()];
    let mut done = 0;
    while let Some(joined) = reads.join_next().await {
        let (i, read) = joined.map_err(|e| OpError::Internal(format!("a card read failed: {e}")))?;
        match read {
            Ok(card) => got[i] = Some(card),
            Err(e) if e.status() == Some(404) => {}
            Err(e) => return Err(e.into()),
        }
        done += 1;
        if done % 25 == 0 || done == cards.len() {
            cx.progress.event(ProgressEvent::Page { fetched: done, total: Some(cards.len() as u64) });
        }
    }
    Ok(got.into_iter().flatten().collect())
}

fn parse_rfc3339(s: &str) -> Option<OffsetDateTime> {
    OffsetDateTime::parse(s, &Rfc3339).ok()
}

/// A window's end: a date (its start, [`crate::day_start`]) or an RFC 3339 time; else a usage error naming the field.
pub fn instant(field: &str, s: &str) -> Result<OffsetDateTime, OpError> {
    let s = s.trim();
    if let Some(t) = parse_rfc3339(s) {
        return Ok(t);
    }
    if let Some(d) = crate::days::date_alone(s) {
        return Ok(crate::day_start(d));
    }
    Err(OpError::usage(field, format!("{field} “{s}” is not a date or a time: give a date (2026-12-01) or an RFC 3339 time (2026-12-01T09:00:00Z)")))
}

/// UTC, whole seconds: `2026-12-01T09:00:00Z`.
pub fn utc(t: OffsetDateTime) -> String {
    let t = t.to_offset(UtcOffset::UTC).replace_nanosecond(0).unwrap_or(t);
    t.format(&Rfc3339).unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_date_is_midnight_utc_and_a_time_keeps_its_offset() {
        assert_eq!(utc(instant("from", "2026-12-01").unwrap()), "2026-12-01T00:00:00Z");
        assert_eq!(utc(instant("from", "2026-12-01T09:00:00+01:00").unwrap()), "2026-12-01T08:00:00Z");
        assert_eq!(utc(instant("to", "2026-12-01T09:00:00.750Z").unwrap()), "2026-12-01T09:00:00Z");
        let e = instant("to", "next week").unwrap_err();
        assert_eq!((e.exit_code(), e.to_json()["field"].as_str()), (2, Some("to")));
        assert!(e.to_string().starts_with("to “next week”"), "names the field as both faces call it: {e}");
    }

    #[test]
    fn the_format_is_a_plain_value_list_for_agents() {
        let schema = crate::by_tool("export_calendar").unwrap().input_schema();
        let format = &schema["properties"]["format"];
        assert_eq!(format["enum"], serde_json::json!(["ics", "csv", "json"]), "{format}");
        assert!(format.get("$ref").is_none());
        assert_eq!(schema["required"], serde_json::json!(["from", "to"]));
    }

    #[test]
    fn a_post_is_at_its_own_time_else_its_cards_and_to_is_not_included() {
        let card: CardDetail = serde_json::from_value(serde_json::json!({
            "id": "c1", "title": "Launch", "scheduledAt": "2026-12-01T09:00:00Z", "updatedAt": "2026-11-20T08:00:00.123Z",
            "platforms": ["x", "instagram", "tiktok"],
            "posts": [
                { "id": "p1", "platform": "x", "platformSettings": { "caption": "hello" } },
                { "id": "p2", "platform": "instagram", "scheduledAt": "2026-12-02T10:00:00+02:00" },
                { "id": "p3", "platform": "tiktok", "scheduledAt": "2026-12-03T00:00:00Z" }
            ]
        }))
        .unwrap();
        let (from, to) = (instant("from", "2026-12-01").unwrap(), instant("to", "2026-12-03").unwrap());
        let events = events_in(&[card], from, to);
        let got: Vec<(&str, &str, &str)> = events.iter().map(|e| (e.uid.as_str(), e.scheduled_at.as_str(), e.caption.as_str())).collect();
        assert_eq!(got, [("c1-x@content-desk", "2026-12-01T09:00:00Z", "hello"), ("c1-instagram@content-desk", "2026-12-02T08:00:00Z", "")]);
        assert_eq!(events[0].stamp, "2026-11-20T08:00:00Z");
    }
}
