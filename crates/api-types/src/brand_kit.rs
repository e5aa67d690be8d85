//! Brand kits: Markdown sections with versions, read modes, all-or-nothing writes with `expectedVersion`.
use crate::common::double_option;
use crate::open::Extra;
use serde::{Deserialize, Serialize};
use serde_json::Value;
use ts_rs::TS;

/// The eight starter sections: `(key = role, tab, default name)`.
pub const STARTER_SECTIONS: &[(&str, &str, &str)] = &[
    ("about", "overview", "About"),
    ("audience", "overview", "Audience"),
    ("offer", "overview", "Offer"),
    ("content_strategy", "overview", "Content Strategy"),
    ("voice_and_tone", "voice", "Voice & Tone"),
    ("writing_style", "voice", "Writing Style"),
    ("speaking_style", "voice", "Speaking Style"),
    ("design_guidelines", "visual", "Design Guidelines"),
];

/// The roles: a starter section's role is its key.
pub fn roles() -> Vec<&'static str> {
    STARTER_SECTIONS.iter().map(|s| s.0).collect()
}

/// Inputs of the old field model, refused with a 400 that names the section to write instead.
pub const REMOVED_INPUTS: &[(&str, &str)] = &[
    ("businessName", "about"),
    ("primaryOffer", "offer"),
    ("nicheDefinition", "about"),
    ("positioning", "about"),
    ("audience", "audience"),
    ("voiceProfile", "voice_and_tone"),
    ("contentStrategy", "content_strategy"),
    ("visualStyle", "design_guidelines"),
    ("designPrinciples", "design_guidelines"),
    ("fields", "the matching section"),
];

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase")]
pub struct BrandKitSummary {
    pub id: String,
    pub name: String,
    #[serde(default)]
    pub is_default: bool,
    #[serde(default)]
    pub is_active: bool,
    #[serde(default)]
    pub is_favorited: bool,
    #[serde(default)]
    pub is_archived: bool,
    #[serde(default)]
    pub created_at: Option<String>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase")]
pub struct BrandKitList {
    #[serde(default)]
    pub brand_kits: Vec<BrandKitSummary>,
}

/// An earlier body of a section (history reads, newest first).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase")]
pub struct SectionRevision {
    pub version: i64,
    pub body: String,
    /// `user | agent | api | extraction | migration`.
    #[serde(default)]
    pub body_source: Option<String>,
    #[serde(default)]
    pub created_at: Option<String>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase")]
pub struct BrandKitSection {
    // Tolerant: a kit from before sections (the field model, pre-0.4.14) still decodes, its sections
    // without ids or keys; such a section cannot be written (no key) and shows as read.
    #[serde(default)]
    pub id: String,
    #[serde(default)]
    pub key: String,
    #[serde(default)]
    pub role: Option<String>,
    #[serde(default)]
    pub tab: String,
    #[serde(default)]
    pub section_name: String,
    #[serde(default = "full_width")]
    pub width: String,
    #[serde(default)]
    pub version: i64,
    #[serde(default)]
    pub body: String,
    #[serde(default)]
    pub updated_at: Option<String>,
    #[serde(default)]
    pub sort_order: Option<f64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub revisions: Option<Vec<SectionRevision>>,
}

fn full_width() -> String {
    "full".into()
}

/// A section in summary form: no body, with its size and its own `##` headings.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase")]
pub struct SectionSummary {
    pub id: String,
    pub key: String,
    #[serde(default)]
    pub role: Option<String>,
    pub tab: String,
    pub section_name: String,
    pub width: String,
    pub version: i64,
    #[serde(default)]
    pub updated_at: Option<String>,
    #[serde(default)]
    pub sort_order: Option<f64>,
    #[serde(default)]
    pub char_count: i64,
    #[serde(default)]
    pub outline: Vec<String>,
}

/// `GET /brand-kits/{id}?detail=summary`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct BrandKitSummaryView {
    pub id: String,
    pub name: String,
    #[serde(default)]
    pub sections: Vec<SectionSummary>,
}

/// `GET /brand-kits/{id}?keys=…|roles=…|tabs=…[&history=true]`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct BrandKitSectionsView {
    pub id: String,
    pub name: String,
    #[serde(default)]
    pub sections: Vec<BrandKitSection>,
}

/// A knowledge item as listed inside a full brand kit.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase")]
pub struct KnowledgeRef {
    pub id: String,
    #[serde(default)]
    pub title: Option<String>,
    #[serde(default)]
    pub source_type: Option<String>,
    #[serde(default)]
    pub source_url: Option<String>,
    #[serde(default)]
    pub content_preview: Option<String>,
}

/// `GET /brand-kits/{id}` (no mode, or `detail=full`) and the reply to a PATCH.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase")]
pub struct BrandKit {
    #[serde(flatten)]
    pub summary: BrandKitSummary,
    #[serde(default)]
    pub website_urls: Vec<String>,
    #[serde(default)]
    pub brand_colors: Vec<BrandColor>,
    #[serde(default)]
    pub typography: Option<Typography>,
    /// Logos as the service describes them (`url`, `name`, `isPrimary`, `layout`, `colorMode`, …).
    #[serde(default)]
    #[ts(type = "Array<Record<string, unknown>>")]
    pub logos: Vec<Value>,
    #[serde(default)]
    pub sections: Vec<BrandKitSection>,
    #[serde(default)]
    pub knowledge: Vec<KnowledgeRef>,
    /// Reading a website into the kit: `idle | extracting | reviewing | complete | failed` (raw; the
    /// sandbox never extracts and sends none).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub extraction_status: Option<String>,
    /// `queued | running | done | failed` (raw).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub analysis_status: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub extraction_error: Option<String>,
    /// The brand's own social accounts and the accounts it takes inspiration from (read only here).
    #[serde(default, deserialize_with = "crate::common::null_as_default")]
    pub brand_accounts: Vec<BrandKitAccount>,
    #[serde(default, deserialize_with = "crate::common::null_as_default")]
    pub inspiration_accounts: Vec<BrandKitAccount>,
}

/// A tracked account listed on a full brand kit: `accountType` is `brand | inspiration` (raw).
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, TS)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase")]
pub struct BrandKitAccount {
    #[serde(default)]
    pub id: Option<String>,
    #[serde(default)]
    pub platform: Option<String>,
    #[serde(default)]
    pub name: Option<String>,
    #[serde(default)]
    pub handle: Option<String>,
    #[serde(default)]
    pub avatar_url: Option<String>,
    #[serde(default)]
    pub follower_count: Option<f64>,
    #[serde(default)]
    pub account_type: Option<String>,
}

/// Query of `GET /brand-kits/{id}`: one of three read modes.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, TS)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(deny_unknown_fields)]
pub struct BrandKitQuery {
    /// `summary` or `full`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub detail: Option<String>,
    /// Comma-separated lists, AND-combined.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub keys: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub roles: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tabs: Option<String>,
    /// With a filter only: include `revisions`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub history: Option<bool>,
    /// With `detail=summary` only: the kit's archived sections instead of its live ones (the spec is
    /// silent on listing archived sections; this follows `archived=true` of the kit, card and media lists).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub archived: Option<bool>,
}

/// A brand colour: `#RRGGBB`, with an optional name and role (`primary | secondary | tertiary | accent`).
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, TS)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase")]
pub struct BrandColor {
    pub hex: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub name: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub role: Option<String>,
}

/// The colour roles a brand colour may have.
pub const COLOR_ROLES: &[&str] = &["primary", "secondary", "tertiary", "accent"];

#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, TS)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase")]
pub struct Typography {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub title_font: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub body_font: Option<String>,
}

/// A logo or brand asset to keep on the kit: by `url` or by `outputId` (the bytes are copied in).
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, TS)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase")]
pub struct LogoInput {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub url: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub output_id: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub name: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub is_primary: Option<bool>,
    /// `horizontal | stacked | icon | wordmark`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub layout: Option<String>,
    /// `full_color | light | dark | grayscale`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub color_mode: Option<String>,
    #[serde(flatten)]
    #[ts(skip)]
    pub extra: Extra,
}

/// One entry of `sections` in a PATCH: with `key` it edits that section, without it adds one.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, TS)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase")]
pub struct SectionWrite {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub key: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub section_name: Option<String>,
    /// Required when adding.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tab: Option<String>,
    /// Replaces the whole body.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub body: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub width: Option<String>,
    /// The version last read; a stale one refuses the whole write with 409.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub expected_version: Option<i64>,
    /// Restore an earlier version as a new version; not combined with `body`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub revert_to: Option<i64>,
    /// Placement within the section's tab (its new tab when `tab` moves it), newest era's `Placement`:
    /// right after the section with this id …
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub after_id: Option<String>,
    /// … or right before this one …
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub before_id: Option<String>,
    /// … or at the tab's `top` or `bottom`. At most one of the three.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub position: Option<String>,
    #[serde(flatten)]
    #[ts(skip)]
    pub extra: Extra,
}

/// `PATCH /brand-kits/{id}`. The removed field-model inputs have no field here, so the typed client does
/// not send them (and the sandbox names the section to write instead).
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, TS)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase")]
pub struct UpdateBrandKit {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub name: Option<String>,
    /// Replaces the list (primary first); does not start an import.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub website_urls: Option<Vec<String>>,
    /// Replaces the list.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub brand_colors: Option<Vec<BrandColor>>,
    /// Merges into the kit's typography; `null` clears it.
    #[serde(default, deserialize_with = "double_option", skip_serializing_if = "Option::is_none")]
    #[ts(optional, type = "Typography | null")]
    pub typography: Option<Option<Typography>>,
    /// Replaces the list.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub logos: Option<Vec<LogoInput>>,
    /// Replaces the list.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub assets: Option<Vec<LogoInput>>,
    /// Replaces the list; an entry is a tracked-account id or `{ platform?, handleOrUrl }`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(type = "Array<string | Record<string, unknown>>")]
    pub brand_accounts: Option<Vec<Value>>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(type = "Array<string | Record<string, unknown>>")]
    pub inspiration_accounts: Option<Vec<Value>>,
    /// Only `true`: make this the default kit.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub is_default: Option<bool>,
    /// Re-run the import from the first website.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub extract: Option<bool>,
    /// Only `true`: archive the kit.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub archive: Option<bool>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub sections: Option<Vec<SectionWrite>>,
    #[serde(flatten)]
    #[ts(skip)]
    pub extra: Extra,
}
