//! The service's value lists, each declared once. Rust reads them from here; the UI gets the same lists
//! from the generated `ui/src/lib/bindings/valueLists.ts` (written by `export-bindings` from
//! [`value_lists`]). Fields that carry these values stay strings on read, so a value added by the service
//! shows as-is; the sandbox refuses values outside the lists on write.
use crate::open::ValueList;
use crate::{ContentType, GenerationStatus, ModelKind};

/// The platforms a post can publish to (one post per platform on a card).
pub const PLATFORMS: &[&str] = &["youtube", "instagram", "tiktok", "facebook", "linkedin", "x", "threads", "general"];

/// Each platform's name as people write it, one table for every face: the UI (generated into
/// `valueLists.ts` as `PLATFORM_NAMES`) and `cdesk --human` read it from here.
pub const PLATFORM_NAMES: &[(&str, &str)] = &[
    ("youtube", "YouTube"),
    ("instagram", "Instagram"),
    ("tiktok", "TikTok"),
    ("facebook", "Facebook"),
    ("linkedin", "LinkedIn"),
    ("x", "X"),
    ("threads", "Threads"),
    ("general", "General"),
];

/// A platform's name ("TikTok" for `tiktok`); a platform the service added since is shown as its id.
pub fn platform_name(id: &str) -> &str {
    PLATFORM_NAMES.iter().find(|(k, _)| *k == id).map_or(id, |(_, name)| name)
}

/// Brand-kit tabs.
pub const TABS: &[&str] = &["overview", "voice", "visual"];

/// Widths of a brand-kit section's card.
pub const WIDTHS: &[&str] = &["full", "half"];

/// The longest name a brand-kit section is given (added or renamed), in characters after trimming: the
/// app's name fields hold this many, and every face refuses more before sending (the service's own limit
/// is not published).
pub const SECTION_NAME_MAX_CHARS: usize = 120;

/// A section's `position` in its tab (the newest era's `Placement`).
pub const SECTION_POSITIONS: &[&str] = &["top", "bottom"];

/// Where a knowledge item comes from.
pub const KNOWLEDGE_SOURCE_TYPES: &[&str] = &["text", "url", "youtube", "file"];

/// What `POST /archive` archives.
pub const ARCHIVE_ASSET_TYPES: &[&str] = &["card", "brand_kit", "brand_kit_section", "project", "space"];

/// What a reference board can show (boards are a pipeline, not a registry model).
pub const BOARD_TYPES: &[&str] =
    &["character", "pose", "mascot", "creature", "weapon", "vehicle", "object", "location", "shot"];

/// Knowledge files that are video or audio by their extension: these are added only by a hosted URL
/// (spec §4 "Knowledge base"), never sent from this computer.
pub const KNOWLEDGE_MEDIA_EXTENSIONS: &[&str] =
    &["mp4", "mov", "m4v", "webm", "avi", "mkv", "mp3", "wav", "m4a", "aac", "ogg", "flac", "opus"];

/// The largest knowledge file sent from this computer as base64 `fileData`, decoded (the sandbox's limit;
/// the real service's is not published). Larger files go by `fileUrl`.
pub const KNOWLEDGE_MAX_FILE_BYTES: usize = 4 * 1024 * 1024;

/// Upscale factors.
pub const UPSCALE_FACTORS: &[&str] = &["2x", "4x"];

/// Kinds of project (`type` on create and list; `surface` and `kind` were its older names).
pub const PROJECT_TYPES: &[&str] = &["editor", "canvas"];

/// A new project's orientation.
pub const PROJECT_ORIENTATIONS: &[&str] = &["landscape", "portrait", "square"];

/// `filter` of `GET /projects` (absent: live projects).
pub const PROJECT_FILTERS: &[&str] = &["archived", "favorited"];

/// What a tracked account is to the brand (`account_type`).
pub const TRACKED_ACCOUNT_TYPES: &[&str] = &["inspiration", "brand"];

/// Whose content `GET /content` reads (`scope`).
pub const CONTENT_SCOPES: &[&str] = &["all", "inspiration", "brand"];

/// Kinds of inspiration content (`content_type` of `GET /content`; not the studio's content types).
pub const INSPIRATION_CONTENT_TYPES: &[&str] = &["video", "short", "reel", "carousel", "image"];

/// How `GET /content` sorts (`sort_by`; `relevance` goes with `search`).
pub const CONTENT_SORT_FIELDS: &[&str] = &["score", "date", "views", "engagement", "relevance"];

/// Sort directions.
pub const SORT_ORDERS: &[&str] = &["asc", "desc"];

/// Every value list by the name the UI imports it under, for `export-bindings`. The roles are the
/// starter sections' keys (`STARTER_SECTIONS`, declared once with their tabs and names).
pub fn value_lists() -> Vec<(&'static str, Vec<&'static str>)> {
    vec![
        ("PLATFORMS", PLATFORMS.to_vec()),
        ("TABS", TABS.to_vec()),
        ("WIDTHS", WIDTHS.to_vec()),
        ("SECTION_POSITIONS", SECTION_POSITIONS.to_vec()),
        ("ROLES", crate::roles()),
        ("KNOWLEDGE_SOURCE_TYPES", KNOWLEDGE_SOURCE_TYPES.to_vec()),
        ("ARCHIVE_ASSET_TYPES", ARCHIVE_ASSET_TYPES.to_vec()),
        ("BOARD_TYPES", BOARD_TYPES.to_vec()),
        ("UPSCALE_FACTORS", UPSCALE_FACTORS.to_vec()),
        ("KNOWLEDGE_MEDIA_EXTENSIONS", KNOWLEDGE_MEDIA_EXTENSIONS.to_vec()),
        ("CONTENT_TYPES", ContentType::ALL.to_vec()),
        ("MODEL_KINDS", ModelKind::ALL.to_vec()),
        ("GENERATION_STATUSES", GenerationStatus::ALL.to_vec()),
        ("SCOPES", crate::scopes::ALL.to_vec()),
    ]
}

/// Every value → words map the UI shows, by the name it imports it under, for `export-bindings`: the
/// scopes in the words a person decides on (Settings → Granted apps shows these, the code beside them), and
/// the starter roles by their default names (the brand kit shows a role by name, never by its key), and the
/// platforms by their names.
pub fn value_words() -> Vec<(&'static str, Vec<(&'static str, &'static str)>)> {
    vec![
        ("SCOPE_DESCRIPTIONS", crate::scopes::DESCRIPTIONS.to_vec()),
        ("ROLE_NAMES", crate::STARTER_SECTIONS.iter().map(|(key, _, name)| (*key, *name)).collect()),
        ("PLATFORM_NAMES", PLATFORM_NAMES.to_vec()),
    ]
}

/// Every number the UI checks too, by the name it imports it under, for `export-bindings`.
pub fn value_numbers() -> Vec<(&'static str, u64)> {
    vec![
        ("KNOWLEDGE_MAX_FILE_BYTES", KNOWLEDGE_MAX_FILE_BYTES as u64),
        ("SECTION_NAME_MAX_CHARS", SECTION_NAME_MAX_CHARS as u64),
    ]
}

#[cfg(test)]
mod tests {
    #[test]
    fn every_platform_has_one_name() {
        let ids: Vec<&str> = super::PLATFORM_NAMES.iter().map(|(id, _)| *id).collect();
        assert_eq!(ids, super::PLATFORMS, "one name per platform, in the same order");
        assert_eq!(super::platform_name("tiktok"), "TikTok");
        assert_eq!(super::platform_name("mastodon"), "mastodon", "an unknown platform shows as its id");
    }

    #[test]
    fn every_starter_section_is_on_a_known_tab() {
        for (_, tab, _) in crate::STARTER_SECTIONS {
            assert!(super::TABS.contains(tab), "{tab}");
        }
    }
}
