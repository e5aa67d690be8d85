//! Platform preflight (issue 28, points 1 and 2): will each post of a card be accepted by its platform?
//!
//! The rules are one table, `fixtures/platform-rules.json`, read here at compile time and by the UI's
//! `planner/editor/platformRules.ts` as a JSON import; `fixtures/platform-rules-cases.json` holds both to the
//! same findings. Every rule carries the platform page it was read on and the day; a value no platform page
//! states is not in the table. The check is a pure function (no I/O, no clock), so it lives beside the wire
//! types every crate already depends on: the client, the core, the CLI and the agent tools call the same one.
//!
//! Input: a card's posts (platform, format, `platformSpecificData` as the wire carries it) and its assets
//! (kind; aspect ratio, duration and size only when known). Output: findings
//! `{platform, field, rule, limit, actual, severity, source}`, the shape `cdesk card check` prints. A platform
//! or format the table does not know gets no findings, and a value that is not known (an asset's size, a
//! kind that is neither image nor video) is never guessed: no false alarms.

use std::collections::BTreeMap;
use std::sync::OnceLock;

use serde::{Deserialize, Serialize, Serializer};
use serde_json::Value;
use ts_rs::TS;
use unicode_normalization::UnicodeNormalization;

/// The table as written in `fixtures/platform-rules.json`.
#[derive(Debug, Clone, Deserialize)]
pub struct RuleTable {
    pub platforms: BTreeMap<String, PlatformRules>,
}

#[derive(Debug, Clone, Deserialize)]
pub struct PlatformRules {
    /// The formats the table knows; a post with another (set) format gets no findings.
    pub formats: Vec<String>,
    pub rules: Vec<Rule>,
}

/// One row of the table.
#[derive(Debug, Clone, Deserialize)]
pub struct Rule {
    /// `max_length`, `max_links`, `max_count`, `alone`, `max_size`, `min_duration`, `max_duration`,
    /// `min_aspect_ratio`, `max_aspect_ratio`.
    pub rule: String,
    /// `caption`, `title`, `description` (text rules) or `media`.
    pub field: String,
    /// How a text rule counts (`x_weighted`, `threads`, `code_points`, `utf16`, `utf8_bytes`).
    #[serde(default)]
    pub counting: Option<String>,
    /// Which assets a media rule looks at: `image`, `video` or `any` (both).
    #[serde(default)]
    pub kind: Option<String>,
    pub limit: f64,
    /// `blocks` (the platform refuses) or `warns` (it cuts, crops or hides).
    pub severity: String,
    /// Only these formats (every known format when absent).
    #[serde(default)]
    pub formats: Option<Vec<String>>,
    pub source: String,
    pub read: String,
    #[serde(default)]
    pub note: Option<String>,
}

/// The table, parsed once.
pub fn table() -> &'static RuleTable {
    static TABLE: OnceLock<RuleTable> = OnceLock::new();
    TABLE.get_or_init(|| {
        serde_json::from_str(include_str!("../fixtures/platform-rules.json")).expect("platform-rules.json is valid")
    })
}

/// A post as the check reads it: the wire's `PostInput` (written as `platformSpecificData`) or `Post` (read
/// back as `platformSettings`).
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, TS)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase")]
pub struct PreflightPost {
    pub platform: String,
    #[serde(default)]
    pub format: Option<String>,
    #[serde(default, alias = "platformSettings")]
    pub platform_specific_data: Option<Value>,
}

/// An asset of the card as the check reads it. Only what is known is given.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, TS)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase")]
pub struct PreflightAsset {
    /// `image` or `video`; anything else (a link, a project, not known) is left out of media rules.
    #[serde(default)]
    pub kind: Option<String>,
    /// Width / height.
    #[serde(default)]
    pub aspect_ratio: Option<f64>,
    #[serde(default)]
    pub duration_seconds: Option<f64>,
    #[serde(default)]
    pub size_bytes: Option<f64>,
}

/// A card's posts and assets (carousel order).
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, TS)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase")]
pub struct PreflightInput {
    #[serde(default)]
    pub posts: Vec<PreflightPost>,
    #[serde(default)]
    pub assets: Vec<PreflightAsset>,
}

impl PreflightInput {
    /// A card as `GET /cards/{id}` reads it: its posts (a post without a platform is left out) and its assets
    /// in carousel order, each with the kind its `assetType` gives (`image`, `video`; any other is not media).
    /// The wire carries no size, duration or aspect ratio, so those rules wait for a caller that knows them.
    pub fn from_card(card: &crate::CardDetail) -> PreflightInput {
        PreflightInput {
            posts: card
                .posts
                .iter()
                .filter_map(|p| {
                    Some(PreflightPost {
                        platform: p.platform.clone()?,
                        format: p.format.clone(),
                        platform_specific_data: p.platform_settings.clone(),
                    })
                })
                .collect(),
            assets: card
                .assets
                .iter()
                .map(|a| PreflightAsset { kind: a.asset_type.clone(), ..Default::default() })
                .collect(),
        }
    }
}

/// What `cdesk card check` prints: `{"findings": [...]}`.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, TS)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct Report {
    pub findings: Vec<Finding>,
}

impl Report {
    /// Whether any finding blocks (the platform would refuse the post).
    pub fn blocks(&self) -> bool {
        self.findings.iter().any(Finding::blocks)
    }
}

/// One broken rule: `{platform, field, rule, limit, actual, severity, source}`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct Finding {
    pub platform: String,
    /// `caption`, `title`, `description`, `media`, or `assets[i]` for one asset.
    pub field: String,
    pub rule: String,
    #[serde(serialize_with = "number")]
    pub limit: f64,
    #[serde(serialize_with = "number")]
    pub actual: f64,
    pub severity: String,
    pub source: String,
}

impl Finding {
    pub fn blocks(&self) -> bool {
        self.severity == "blocks"
    }
}

/// A whole number is written without a fraction (`280`, not `280.0`), as JavaScript writes it.
fn number<S: Serializer>(x: &f64, s: S) -> Result<S::Ok, S::Error> {
    if x.fract() == 0.0 && x.abs() < 9_007_199_254_740_992.0 {
        s.serialize_i64(*x as i64)
    } else {
        s.serialize_f64(*x)
    }
}

/// The findings of a card, against the shipped table.
pub fn check(input: &PreflightInput) -> Vec<Finding> {
    check_with(table(), input)
}

/// The findings of a card against `table`: posts in order, each post's rules in table order.
pub fn check_with(table: &RuleTable, input: &PreflightInput) -> Vec<Finding> {
    let mut out = Vec::new();
    for post in &input.posts {
        let Some(platform) = table.platforms.get(&post.platform) else { continue };
        if let Some(format) = &post.format {
            if !platform.formats.iter().any(|f| f == format) {
                continue;
            }
        }
        for rule in &platform.rules {
            if let Some(only) = &rule.formats {
                if !post.format.as_ref().is_some_and(|f| only.contains(f)) {
                    continue;
                }
            }
            apply(rule, post, &input.assets, &mut out);
        }
    }
    out
}

fn apply(rule: &Rule, post: &PreflightPost, assets: &[PreflightAsset], out: &mut Vec<Finding>) {
    let finding = |field: String, actual: f64| Finding {
        platform: post.platform.clone(),
        field,
        rule: rule.rule.clone(),
        limit: rule.limit,
        actual,
        severity: rule.severity.clone(),
        source: rule.source.clone(),
    };
    let of_kind = |a: &PreflightAsset| match (rule.kind.as_deref(), a.kind.as_deref()) {
        (Some("any"), Some("image" | "video")) => true,
        (Some(k), Some(a)) => k == a,
        _ => false,
    };
    match rule.rule.as_str() {
        "max_length" | "max_links" => {
            let Some(text) = text_field(post, &rule.field) else { return };
            let actual = if rule.rule == "max_links" {
                count_links(text)
            } else {
                match rule.counting.as_deref().and_then(Counting::parse) {
                    Some(c) => count(text, c),
                    None => return,
                }
            };
            if actual as f64 > rule.limit {
                out.push(finding(rule.field.clone(), actual as f64));
            }
        }
        "max_count" => {
            let n = assets.iter().filter(|a| of_kind(a)).count() as f64;
            if n > rule.limit {
                out.push(finding(rule.field.clone(), n));
            }
        }
        "alone" => {
            let media = assets.iter().filter(|a| matches!(a.kind.as_deref(), Some("image" | "video"))).count();
            if assets.iter().any(of_kind) && media as f64 > rule.limit {
                out.push(finding(rule.field.clone(), media as f64));
            }
        }
        "max_size" | "min_duration" | "max_duration" | "min_aspect_ratio" | "max_aspect_ratio" => {
            for (i, a) in assets.iter().enumerate() {
                if !of_kind(a) {
                    continue;
                }
                let value = match rule.rule.as_str() {
                    "max_size" => a.size_bytes,
                    "min_duration" | "max_duration" => a.duration_seconds,
                    _ => a.aspect_ratio,
                };
                let Some(v) = value else { continue };
                let broken = if rule.rule.starts_with("min_") { v < rule.limit } else { v > rule.limit };
                if broken {
                    out.push(finding(format!("assets[{i}]"), v));
                }
            }
        }
        _ => {}
    }
}

/// A text field of the post's platform data (`caption`, `title`, `description`); absent or not a string: none.
fn text_field<'a>(post: &'a PreflightPost, field: &str) -> Option<&'a str> {
    post.platform_specific_data.as_ref()?.as_object()?.get(field)?.as_str()
}

/// How a platform counts a text.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Counting {
    /// X: NFC first; a link counts 23 (t.co); an emoji sequence 2; a code point in one of the four
    /// weight-1 ranges (U+0000-10FF, U+2000-200D, U+2010-201F, U+2032-2037) 1, any other 2.
    XWeighted,
    /// Threads: one per code point, an emoji sequence its UTF-8 bytes.
    Threads,
    CodePoints,
    Utf16,
    Utf8Bytes,
}

impl Counting {
    pub fn parse(s: &str) -> Option<Counting> {
        Some(match s {
            "x_weighted" => Counting::XWeighted,
            "threads" => Counting::Threads,
            "code_points" => Counting::CodePoints,
            "utf16" => Counting::Utf16,
            "utf8_bytes" => Counting::Utf8Bytes,
            _ => return None,
        })
    }
}

/// What X counts a URL as, whatever its length (docs.x.com, "Counting characters").
pub const X_URL_WEIGHT: u64 = 23;

/// The length of `text` as the platform counts it.
pub fn count(text: &str, counting: Counting) -> u64 {
    match counting {
        Counting::CodePoints => text.chars().count() as u64,
        Counting::Utf16 => text.encode_utf16().count() as u64,
        Counting::Utf8Bytes => text.len() as u64,
        Counting::Threads => {
            let chars: Vec<char> = text.chars().collect();
            let mut n = 0u64;
            let mut i = 0;
            while i < chars.len() {
                match emoji_len(&chars, i) {
                    0 => {
                        n += 1;
                        i += 1;
                    }
                    len => {
                        n += chars[i..i + len].iter().map(|c| c.len_utf8() as u64).sum::<u64>();
                        i += len;
                    }
                }
            }
            n
        }
        Counting::XWeighted => {
            // Most text is already NFC: the quick check spares normalising it (the same result).
            let chars: Vec<char> = match unicode_normalization::is_nfc_quick(text.chars()) {
                unicode_normalization::IsNormalized::Yes => text.chars().collect(),
                _ => text.nfc().collect(),
            };
            let mut n = 0u64;
            let mut i = 0;
            while i < chars.len() {
                if let Some(len) = url_len(&chars, i) {
                    n += X_URL_WEIGHT;
                    i += len;
                    continue;
                }
                match emoji_len(&chars, i) {
                    0 => {
                        n += x_weight(chars[i]);
                        i += 1;
                    }
                    len => {
                        n += 2;
                        i += len;
                    }
                }
            }
            n
        }
    }
}

fn x_weight(c: char) -> u64 {
    match c as u32 {
        0x0000..=0x10FF | 0x2000..=0x200D | 0x2010..=0x201F | 0x2032..=0x2037 => 1,
        _ => 2,
    }
}

/// The links in a text (as the URL rule below finds them), each distinct URL once.
pub fn count_links(text: &str) -> u64 {
    let chars: Vec<char> = text.chars().collect();
    let mut seen: Vec<String> = Vec::new();
    let mut i = 0;
    while i < chars.len() {
        if let Some(len) = url_len(&chars, i) {
            let url: String = chars[i..i + len].iter().collect();
            if !seen.contains(&url) {
                seen.push(url);
            }
            i += len;
        } else {
            i += 1;
        }
    }
    seen.len() as u64
}

/// A URL starting at `i`: `http://`, `https://` (any case) or `www.`, at the start of the text or after a
/// character that is not a letter, digit, `/`, `@` or `.`, running to the next whitespace, without trailing
/// punctuation (`.,:;!?'")]}>`). Its length in chars, or none.
fn url_len(chars: &[char], i: usize) -> Option<usize> {
    if !matches!(chars[i], 'h' | 'H' | 'w' | 'W') {
        return None;
    }
    if i > 0 {
        let p = chars[i - 1];
        if p.is_alphanumeric() || p == '/' || p == '@' || p == '.' {
            return None;
        }
    }
    let starts =
        |prefix: &str| prefix.chars().enumerate().all(|(k, p)| chars.get(i + k).is_some_and(|c| c.to_ascii_lowercase() == p));
    let head = if starts("https://") {
        8
    } else if starts("http://") {
        7
    } else if starts("www.") {
        4
    } else {
        return None;
    };
    let mut end = i + head;
    while end < chars.len() && !chars[end].is_whitespace() {
        end += 1;
    }
    while end > i + head && matches!(chars[end - 1], '.' | ',' | ':' | ';' | '!' | '?' | '\'' | '"' | ')' | ']' | '}' | '>') {
        end -= 1;
    }
    // A host needs at least one character after the scheme, and a dot somewhere in it.
    let rest = &chars[i + head..end];
    let host_end = rest.iter().position(|c| matches!(c, '/' | '?' | '#')).unwrap_or(rest.len());
    let host = &rest[..host_end];
    if host.is_empty() || !host.contains(&'.') || host.first() == Some(&'.') || host.last() == Some(&'.') {
        return None;
    }
    Some(end - i)
}

/// A pictographic code point that starts an emoji on its own.
fn pictographic(c: char) -> bool {
    matches!(c as u32, 0x1F000..=0x1FAFF | 0x2600..=0x27BF | 0x2B00..=0x2BFF)
}

fn regional_indicator(c: char) -> bool {
    matches!(c as u32, 0x1F1E6..=0x1F1FF)
}

/// What may follow an emoji's base inside one sequence: the emoji variation selector, skin tones, the
/// keycap and the tag characters (subdivision flags).
fn emoji_modifier(c: char) -> bool {
    matches!(c as u32, 0xFE0F | 0x1F3FB..=0x1F3FF | 0x20E3 | 0xE0020..=0xE007F)
}

/// An emoji base at `i`: a pictographic code point, or any code point followed by U+FE0F or U+20E3 (`©️`, `1️⃣`).
fn emoji_base(chars: &[char], i: usize) -> bool {
    pictographic(chars[i]) || matches!(chars.get(i + 1).map(|c| *c as u32), Some(0xFE0F | 0x20E3))
}

/// The length in chars of the emoji sequence at `i` (a flag pair, or a base with its modifiers and any
/// ZWJ-joined bases), 0 when none starts there.
fn emoji_len(chars: &[char], i: usize) -> usize {
    if regional_indicator(chars[i]) {
        return if chars.get(i + 1).is_some_and(|c| regional_indicator(*c)) { 2 } else { 1 };
    }
    if !emoji_base(chars, i) {
        return 0;
    }
    let mut j = i + 1;
    loop {
        while j < chars.len() && emoji_modifier(chars[j]) {
            j += 1;
        }
        if j + 1 < chars.len() && chars[j] == '\u{200D}' && emoji_base(chars, j + 1) {
            j += 2;
        } else {
            return j - i;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_rule_is_sourced_and_known() {
        const RULES: &[&str] = &[
            "max_length", "max_links", "max_count", "alone", "max_size", "min_duration", "max_duration",
            "min_aspect_ratio", "max_aspect_ratio",
        ];
        let t = table();
        for (platform, p) in &t.platforms {
            assert!(crate::PLATFORMS.contains(&platform.as_str()), "{platform} is not a platform of the API");
            assert_ne!(platform, "general", "general has no rules");
            for r in &p.rules {
                assert!(RULES.contains(&r.rule.as_str()), "{platform}: {}", r.rule);
                assert!(r.source.starts_with("https://"), "{platform} {}: {}", r.rule, r.source);
                let date = r.read.as_bytes();
                assert!(
                    date.len() == 10 && date[4] == b'-' && date[7] == b'-' && r.read.replace('-', "").bytes().all(|b| b.is_ascii_digit()),
                    "{platform} {}: read {:?} is not a day (YYYY-MM-DD)",
                    r.rule,
                    r.read
                );
                assert!(matches!(r.severity.as_str(), "blocks" | "warns"), "{platform} {}", r.rule);
                if r.rule == "max_length" {
                    assert!(Counting::parse(r.counting.as_deref().unwrap_or("")).is_some(), "{platform}");
                }
                for f in r.formats.iter().flatten() {
                    assert!(p.formats.contains(f), "{platform}: {f}");
                }
            }
        }
    }

    #[test]
    fn a_card_as_read_is_checked_with_its_posts_and_the_kinds_of_its_assets() {
        let card: crate::CardDetail = serde_json::from_value(serde_json::json!({
            "id": "c1", "title": "t",
            "posts": [
                {"id": "p1", "platform": "x", "platformSettings": {"caption": "a".repeat(281)}},
                {"id": "p2", "platform": null, "platformSettings": {"caption": "a".repeat(999)}},
                {"id": "p3", "platform": "linkedin", "format": "post"}
            ],
            "assets": [
                {"id": "a1", "assetType": "image"}, {"id": "a2", "assetType": "video"}, {"id": "a3", "assetType": "link"}
            ]
        }))
        .unwrap();
        let input = PreflightInput::from_card(&card);
        assert_eq!(input.posts.len(), 2);
        assert_eq!(input.posts[1].format.as_deref(), Some("post"));
        let report = Report { findings: check(&input) };
        let rules: Vec<_> = report.findings.iter().map(|f| (f.platform.as_str(), f.field.as_str(), f.rule.as_str())).collect();
        assert_eq!(rules, [("x", "caption", "max_length"), ("x", "media", "alone")]);
        assert!(report.blocks());
        assert!(!Report { findings: check(&PreflightInput::default()) }.blocks());
        let json = serde_json::to_value(&report).unwrap();
        assert_eq!(json["findings"][0]["actual"], serde_json::json!(281));
        let mut keys: Vec<_> = json["findings"][0].as_object().unwrap().keys().cloned().collect();
        keys.sort();
        assert_eq!(keys, ["actual", "field", "limit", "platform", "rule", "severity", "source"]);
    }

    #[test]
    fn a_finding_writes_whole_numbers_without_a_fraction() {
        let f = Finding {
            platform: "x".into(),
            field: "caption".into(),
            rule: "max_length".into(),
            limit: 280.0,
            actual: 0.5625,
            severity: "blocks".into(),
            source: "s".into(),
        };
        let v = serde_json::to_value(&f).unwrap();
        assert_eq!(v["limit"], serde_json::json!(280));
        assert_eq!(v["actual"], serde_json::json!(0.5625));
    }
}
