//! Preview-only values (issue 28 point 3): the `previews` part of `fixtures/platform-rules.json`, the one
//! table the rules come from, read here and by the UI's `planner/editor/previewLogic.ts`. Per platform: how
//! a post with several images is shown (`multi`: carousel or grid, `gridMax`) and where the platform cuts
//! the text behind "…more" (`cut`). Each value names the platform page it was read on and the day; a value
//! no page states is left out (the fixture's `unsourced` says what was looked for), and a platform with no
//! `cut` is previewed with its whole text.

use std::collections::BTreeMap;
use std::sync::OnceLock;

use serde::Deserialize;

use crate::preflight::Counting;

#[derive(Debug, Clone, Deserialize)]
pub struct PreviewTable {
    /// What was looked for and not found on any platform page (left out, never guessed).
    pub unsourced: Vec<String>,
    pub platforms: BTreeMap<String, PlatformPreview>,
}

#[derive(Debug, Clone, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct PlatformPreview {
    /// `carousel` (one at a time) or `grid` (tiled); absent: drawn as a grid.
    #[serde(default)]
    pub multi: Option<String>,
    /// A grid shows at most this many; the rest are counted (+N).
    #[serde(default)]
    pub grid_max: Option<u32>,
    /// Where the text is cut behind "…more"; absent: the whole text is shown.
    #[serde(default)]
    pub cut: Option<Cut>,
    pub source: String,
    pub read: String,
    #[serde(default)]
    pub note: Option<String>,
}

#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Cut {
    pub limit: u32,
    /// As a text rule counts (`x_weighted`, `threads`, `code_points`, `utf16`, `utf8_bytes`).
    pub counting: String,
}

#[derive(Deserialize)]
struct Fixture {
    previews: PreviewTable,
}

/// The preview table, parsed once.
pub fn previews() -> &'static PreviewTable {
    static TABLE: OnceLock<PreviewTable> = OnceLock::new();
    TABLE.get_or_init(|| {
        serde_json::from_str::<Fixture>(include_str!("../fixtures/platform-rules.json"))
            .expect("platform-rules.json has a valid `previews`")
            .previews
    })
}

impl PreviewTable {
    /// Where `platform` cuts a text, if a platform page says so.
    pub fn cut(&self, platform: &str) -> Option<&Cut> {
        self.platforms.get(platform)?.cut.as_ref()
    }
}

impl Cut {
    pub fn counting(&self) -> Option<Counting> {
        Counting::parse(&self.counting)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn is_day(s: &str) -> bool {
        let b = s.as_bytes();
        b.len() == 10 && b[4] == b'-' && b[7] == b'-' && s.replace('-', "").bytes().all(|b| b.is_ascii_digit())
    }

    #[test]
    fn every_preview_value_is_sourced_and_known() {
        let t = previews();
        assert!(!t.unsourced.is_empty(), "what was looked for and not found is said");
        for (platform, p) in &t.platforms {
            assert!(crate::PLATFORMS.contains(&platform.as_str()), "{platform} is not a platform of the API");
            assert!(p.source.starts_with("https://"), "{platform}: {}", p.source);
            assert!(is_day(&p.read), "{platform}: read {:?} is not a day", p.read);
            assert!(matches!(p.multi.as_deref(), None | Some("carousel" | "grid")), "{platform}: {:?}", p.multi);
            if p.grid_max.is_some() {
                assert_eq!(p.multi.as_deref(), Some("grid"), "{platform}: gridMax belongs to a grid");
            }
            if let Some(cut) = &p.cut {
                assert!(cut.counting().is_some(), "{platform}: counting {}", cut.counting);
                assert!(cut.limit > 0, "{platform}");
            }
        }
    }

    #[test]
    fn the_sourced_shapes_are_read() {
        let t = previews();
        let x = &t.platforms["x"];
        assert_eq!((x.multi.as_deref(), x.grid_max), (Some("grid"), Some(4)));
        assert_eq!(t.platforms["instagram"].multi.as_deref(), Some("carousel"));
        // No platform page read states a cut: none is in the table, so none is guessed.
        assert!(t.platforms.keys().all(|p| t.cut(p).is_none()));
    }

    #[test]
    fn a_cut_without_its_counting_is_refused() {
        let bad = r#"{"previews":{"unsourced":[],"platforms":{"x":{"cut":{"limit":3},"source":"https://a.b","read":"2026-11-27"}}}}"#;
        assert!(serde_json::from_str::<Fixture>(bad).is_err());
        let good = r#"{"previews":{"unsourced":[],"platforms":{"x":{"cut":{"limit":3,"counting":"x_weighted"},"source":"https://a.b","read":"2026-11-27"}}}}"#;
        let t = serde_json::from_str::<Fixture>(good).unwrap().previews;
        assert_eq!(t.cut("x").unwrap().limit, 3);
        assert!(t.cut("instagram").is_none());
    }
}
