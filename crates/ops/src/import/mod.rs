//! `card import FILE` / `import_cards`: cards from a CSV or JSON file, one card per row, its posts one per
//! platform with the row's caption.
//!
//! Idempotent: each row has a stable key (its `key` column, else the export's `uid`, else a hash of the
//! row's fields and its rank among identical rows), recorded on the card it makes as the last line of the
//! card's notes, `cdesk-import-key: KEY`. The notes live on the service, so any computer sees them. Before
//! creating, the space's live cards with a row's title are read and their keys collected: a row whose key
//! is there is reported as `existing` and not made again. (Removing that line from a card's notes makes
//! the next import make the card again.)
//!
//! Each row is checked first (title, stage of the space by name/slug/id, known platforms, an RFC 3339
//! time, and the platform rules that block, on the caption); a row that breaks one is refused with its
//! line and field and the others still go. `--line N` imports only those lines (a row that failed, once
//! fixed). A file that is neither CSV nor JSON is refused before anything is sent.
pub mod parse;

use crate::calendar::{instant, utc};
use crate::planner::all_cards;
use crate::{out, Cx, Effect, Meta, OpError, Operation, ProgressEvent};
use api_client::ApiError;
use api_types::preflight::{check, PreflightInput, PreflightPost};
use api_types::{CardQuery, CreateCard, PostInput, Stage};
use parse::RawRow;
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use serde_json::{json, Value};
use std::collections::{HashMap, HashSet};
use std::sync::Arc;

/// The notes line that records a row's key on its card.
pub const KEY_LINE: &str = "cdesk-import-key: ";

/// Card reads in flight at once while collecting keys.
const READS_AT_ONCE: usize = 4;

#[derive(Debug, Clone, clap::Args, Deserialize, Serialize, JsonSchema, ts_rs::TS)]
#[serde(rename_all = "camelCase")]
pub struct CardImportInput {
    /// The file to import: CSV (header `title,stage,platforms,scheduledAt,caption,notes`, platforms separated by `;`) or JSON (an array of those fields); `-` reads stdin.
    #[arg(value_name = "FILE", required_unless_present = "text")]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub file: Option<String>,
    /// The file's text itself instead of a path (agents).
    #[arg(long, conflicts_with = "file", hide = true)]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub text: Option<String>,
    /// The space (id); the default space when absent.
    #[arg(long = "space")]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub space_id: Option<String>,
    /// Show what would be created (and refused) without creating anything.
    #[arg(long)]
    #[serde(default)]
    #[ts(optional, as = "Option<bool>")]
    pub dry_run: bool,
    /// Only the rows starting on these lines (comma-separated), such as a row that failed, once fixed.
    #[arg(long = "line", value_delimiter = ',', value_name = "N")]
    #[serde(default)]
    #[ts(optional, as = "Option<Vec<u32>>")]
    pub lines: Vec<usize>,
}

/// A row refused, with its line and the field at fault.
#[derive(Debug, Clone, Serialize, PartialEq, JsonSchema)]
pub struct Refused {
    pub line: usize,
    pub field: String,
    pub message: String,
}

/// A row checked and ready to create.
#[derive(Debug, Clone, Serialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct Planned {
    pub line: usize,
    pub key: String,
    pub title: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub stage: Option<String>,
    pub platforms: Vec<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub scheduled_at: Option<String>,
    #[serde(skip)]
    caption: String,
    #[serde(skip)]
    notes: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub card_id: Option<String>,
}

pub struct CardImport;
impl Operation for CardImport {
    type Input = CardImportInput;
    const META: Meta = Meta {
        path: &["card", "import"],
        tool: "import_cards",
        summary: "Import cards from a CSV or JSON file, one card per row; dryRun shows what it would create",
        details: "Free. Pass the file's content as `text` (columns as `file` says; stage by name; an optional key column). Idempotent: each row's key is kept in its card's notes (`cdesk-import-key:`), so a second run creates nothing new. A row that breaks a rule is refused with its line and field; the rest still import. A file neither CSV nor JSON is refused before anything is created.",
        effect: Effect::Write,
        idempotent: true,
        scope: Some("planner:write"),
    };
    async fn run(cx: Cx, i: CardImportInput) -> Result<Value, OpError> {
        let (name, bytes) = read_input(&i)?;
        let parsed = parse::parse(&name, &bytes)?;
        let stages = cx.client.stages().list(i.space_id.as_deref()).await?;
        let mut refused = Vec::new();
        let mut planned = Vec::new();
        let mut seen: HashMap<String, usize> = HashMap::new();
        let wanted = |line: usize| i.lines.is_empty() || i.lines.contains(&line);
        for row in parsed.rows {
            let row = match row {
                Ok(r) => r,
                Err(u) => {
                    if wanted(u.line) {
                        refused.push(Refused { line: u.line, field: u.field, message: u.message });
                    }
                    continue;
                }
            };
            // The key counts every row, wanted or not, so `--line` gives a row the key a whole run gives it.
            let base = if row.key.is_empty() { derived_key(&row) } else { row.key.clone() };
            let rank = seen.entry(base.clone()).or_insert(0);
            *rank += 1;
            let key = if *rank == 1 { base } else { format!("{base}-{rank}") };
            if !wanted(row.line) {
                continue;
            }
            match checked(row, key, &stages.stages) {
                Ok(p) => planned.push(p),
                Err(r) => refused.push(r),
            }
        }
        let unknown: Vec<usize> = i.lines.iter().copied().filter(|l| !planned.iter().any(|p| p.line == *l) && !refused.iter().any(|r| r.line == *l)).collect();
        if let Some(l) = unknown.first() {
            return Err(OpError::usage("line", format!("--line {l}: no row of {name} starts on that line; nothing was created")));
        }

        // Which keys are already on the space's cards.
        let titles: HashSet<&str> = planned.iter().map(|p| p.title.as_str()).collect();
        let list = all_cards(&cx, CardQuery { space_id: i.space_id.clone(), ..Default::default() }).await?;
        let candidates: Vec<String> = list.cards.iter().filter(|c| !c.is_archived && titles.contains(c.title.as_str())).map(|c| c.id.clone()).collect();
        let have = keys_on(&cx, &candidates).await?;
        let (existing, new): (Vec<Planned>, Vec<Planned>) = planned.into_iter().partition(|p| have.contains_key(&p.key));
        let existing: Vec<Value> = existing.iter().map(|p| json!({ "line": p.line, "key": p.key, "title": p.title, "cardId": have[&p.key] })).collect();

        let space = serde_json::to_value(&stages.space).unwrap_or_default();
        let mut reply = json!({
            "dryRun": i.dry_run,
            "format": parsed.kind,
            "file": name,
            "space": space,
            "existing": existing,
            "refused": refused,
            "ignoredColumns": parsed.ignored,
        });
        if i.dry_run {
            reply["wouldCreate"] = serde_json::to_value(&new).unwrap_or_default();
            return out(reply);
        }
        let total = new.len();
        let mut created = Vec::new();
        for (n, mut p) in new.into_iter().enumerate() {
            match cx.client.cards().create(&request(&p, i.space_id.clone())).await {
                Ok(card) => {
                    p.card_id = Some(card.id);
                    created.push(p);
                }
                Err(ApiError::Validation { message, field, .. }) => {
                    refused.push(Refused { line: p.line, field: field.unwrap_or_else(|| "row".into()), message: format!("the service refused it: {message}") });
                }
                Err(e) => return Err(e.into()),
            }
            if (n + 1) % 10 == 0 || n + 1 == total {
                cx.progress.event(ProgressEvent::Step { what: "created", done: n + 1, total });
            }
        }
        refused.sort_by_key(|r| r.line);
        reply["created"] = serde_json::to_value(&created).unwrap_or_default();
        reply["refused"] = serde_json::to_value(&refused).unwrap_or_default();
        out(reply)
    }
}

/// The file's name (for messages and the kind) and bytes.
fn read_input(i: &CardImportInput) -> Result<(String, Vec<u8>), OpError> {
    match (&i.text, i.file.as_deref()) {
        (Some(text), _) => Ok((i.file.clone().unwrap_or_else(|| "the text".into()), text.as_bytes().to_vec())),
        (None, Some("-")) => {
            let mut buf = Vec::new();
            std::io::Read::read_to_end(&mut std::io::stdin(), &mut buf).map_err(|e| OpError::usage("file", format!("cannot read stdin: {e}")))?;
            Ok(("stdin".into(), buf))
        }
        (None, Some(path)) => std::fs::read(path).map(|b| (path.to_string(), b)).map_err(|e| OpError::usage("file", format!("cannot read {path}: {e}"))),
        (None, None) => Err(OpError::usage("file", "give the file to import (or its content as `text`)")),
    }
}

/// A stable key from the row's fields (FNV-1a, 64 bits; the same on every computer and every build).
pub fn derived_key(r: &RawRow) -> String {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    let parts = [r.title.as_str(), r.stage.as_str(), &r.platforms.join(";"), r.scheduled_at.as_str(), r.caption.as_str(), r.notes.as_str()];
    for part in parts {
        for b in part.bytes().chain([0x1f]) {
            h ^= b as u64;
            h = h.wrapping_mul(0x0100_0000_01b3);
        }
    }
    format!("row-{h:016x}")
}

/// The row checked against the space's stages, the platforms, the time and the blocking platform rules.
fn checked(r: RawRow, key: String, stages: &[Stage]) -> Result<Planned, Refused> {
    let refuse = |field: &str, message: String| Refused { line: r.line, field: field.into(), message };
    if r.title.is_empty() {
        return Err(refuse("title", "a card needs a title".into()));
    }
    if r.title.chars().count() > 500 {
        return Err(refuse("title", format!("the title has {} characters, at most 500", r.title.chars().count())));
    }
    let stage = if r.stage.is_empty() {
        None
    } else {
        let s = stages.iter().find(|s| s.id == r.stage || s.name.eq_ignore_ascii_case(&r.stage) || s.slug.as_deref().is_some_and(|g| g.eq_ignore_ascii_case(&r.stage)));
        let Some(s) = s else {
            let names: Vec<&str> = stages.iter().map(|s| s.name.as_str()).collect();
            return Err(refuse("stage", format!("no stage “{}” in this space; its stages are {}", r.stage, names.join(", "))));
        };
        Some(s.id.clone())
    };
    if r.platforms.is_empty() {
        return Err(refuse("platforms", format!("name at least one platform ({}), separated by `;`", api_types::values::PLATFORMS.join(", "))));
    }
    let mut platforms: Vec<String> = Vec::new();
    for p in &r.platforms {
        let lower = p.to_ascii_lowercase();
        if !api_types::values::PLATFORMS.contains(&lower.as_str()) {
            return Err(refuse("platforms", format!("“{p}” is not a platform; the platforms are {}", api_types::values::PLATFORMS.join(", "))));
        }
        if platforms.contains(&lower) {
            return Err(refuse("platforms", format!("“{p}” is named twice: a card has one post per platform")));
        }
        platforms.push(lower);
    }
    let scheduled_at = if r.scheduled_at.is_empty() {
        None
    } else {
        Some(utc(instant("scheduledAt", &r.scheduled_at).map_err(|_| refuse("scheduledAt", format!("“{}” is not a date or an RFC 3339 time (2026-12-01T09:00:00Z)", r.scheduled_at)))?))
    };
    if !r.caption.is_empty() {
        let input = PreflightInput {
            posts: platforms.iter().map(|p| PreflightPost { platform: p.clone(), format: None, platform_specific_data: Some(json!({ "caption": r.caption })) }).collect(),
            assets: Vec::new(),
        };
        if let Some(f) = check(&input).into_iter().find(|f| f.severity == "blocks" && f.field == "caption") {
            return Err(refuse("caption", format!("{}: {} is {} over the limit of {} ({}; {})", f.platform, f.rule, f.actual, f.limit, f.severity, f.source)));
        }
    }
    Ok(Planned { line: r.line, key, title: r.title, stage, platforms, scheduled_at, caption: r.caption, notes: r.notes, card_id: None })
}

fn request(p: &Planned, space_id: Option<String>) -> CreateCard {
    let notes = if p.notes.is_empty() { format!("{KEY_LINE}{}", p.key) } else { format!("{}\n\n{KEY_LINE}{}", p.notes, p.key) };
    let posts = p
        .platforms
        .iter()
        .map(|platform| PostInput {
            platform: platform.clone(),
            platform_specific_data: (!p.caption.is_empty()).then(|| json!({ "caption": p.caption })),
            ..Default::default()
        })
        .collect();
    CreateCard {
        title: p.title.clone(),
        platform: p.platforms[0].clone(),
        space_id,
        stage: p.stage.clone(),
        notes: Some(notes),
        scheduled_at: p.scheduled_at.clone(),
        posts: Some(posts),
        ..Default::default()
    }
}

/// The import keys recorded on these cards: key → card id.
async fn keys_on(cx: &Cx, ids: &[String]) -> Result<HashMap<String, String>, OpError> {
    let gate = Arc::new(tokio::sync::Semaphore::new(READS_AT_ONCE));
    let mut reads = tokio::task::JoinSet::new();
    for id in ids {
        let (client, gate, id) = (cx.client.clone(), gate.clone(), id.clone());
        reads.spawn(async move {
            let _permit = gate.acquire_owned().await;
            client.cards().get(&id).await
        });
    }
    let mut keys = HashMap::new();
    while let Some(joined) = reads.join_next().await {
        match joined.map_err(|e| OpError::Internal(format!("a card read failed: {e}")))? {
            Ok(card) => {
                for line in card.notes.as_deref().unwrap_or("").lines() {
                    if let Some(k) = line.trim().strip_prefix(KEY_LINE) {
                        keys.insert(k.trim().to_string(), card.summary.id.clone());
                    }
                }
            }
            Err(e) if e.status() == Some(404) => {}
            Err(e) => return Err(e.into()),
        }
    }
    Ok(keys)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn stage(name: &str) -> Stage {
        serde_json::from_value(json!({ "id": format!("st-{name}"), "name": name, "slug": name.to_lowercase() })).unwrap()
    }

    fn row(title: &str, platforms: &[&str], caption: &str) -> RawRow {
        RawRow { line: 7, title: title.into(), platforms: platforms.iter().map(|s| s.to_string()).collect(), caption: caption.into(), ..Default::default() }
    }

    #[test]
    fn each_rule_refuses_with_its_field() {
        let stages = [stage("Ideas"), stage("Ready")];
        let field = |r: RawRow| checked(r, "k".into(), &stages).map(|p| p.stage).map_err(|e| (e.line, e.field));
        assert_eq!(field(row("A", &["x"], "hi")), Ok(None));
        assert_eq!(field(RawRow { stage: "ready".into(), ..row("A", &["x"], "") }), Ok(Some("st-Ready".into())));
        assert_eq!(field(row("", &["x"], "")), Err((7, "title".into())));
        assert_eq!(field(RawRow { stage: "Done".into(), ..row("A", &["x"], "") }), Err((7, "stage".into())));
        assert_eq!(field(row("A", &[], "")), Err((7, "platforms".into())));
        assert_eq!(field(row("A", &["myspace"], "")), Err((7, "platforms".into())));
        assert_eq!(field(RawRow { scheduled_at: "tomorrow".into(), ..row("A", &["x"], "") }), Err((7, "scheduledAt".into())));
        assert_eq!(field(row("A", &["x"], &"a".repeat(281))), Err((7, "caption".into())));
        assert_eq!(field(row("A", &["instagram"], &"a".repeat(281))), Ok(None));
    }

    #[test]
    fn a_rows_key_is_stable_and_follows_its_fields() {
        let a = row("A", &["x"], "hi");
        assert_eq!(derived_key(&a), derived_key(&a.clone()));
        assert_ne!(derived_key(&a), derived_key(&row("A", &["x"], "hi!")));
        assert_eq!(derived_key(&a), "row-".to_string() + &derived_key(&a)[4..]);
    }
}
