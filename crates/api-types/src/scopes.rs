//! The spec-era key scopes (spec section 5, fact sheet 1.4). Kept as plain strings on the wire.

pub const GENERATE: &str = "generate:*";
pub const PIPELINE_WRITE: &str = "pipeline:write";
pub const PUBLISH_WRITE: &str = "publish:write";
pub const BRANDKIT_READ: &str = "brandkit:read";
pub const BRANDKIT_WRITE: &str = "brandkit:write";
pub const ASSETS_WRITE: &str = "assets:write";
pub const PLANNER_WRITE: &str = "planner:write";
pub const FAVORITES_WRITE: &str = "favorites:write";
pub const EDITOR_READ: &str = "editor:read";
pub const EDITOR_WRITE: &str = "editor:write";

/// Every scope a key of this era can hold; a sandbox key minted "with every scope" holds these.
pub const ALL: &[&str] = &[
    GENERATE,
    PIPELINE_WRITE,
    PUBLISH_WRITE,
    BRANDKIT_READ,
    BRANDKIT_WRITE,
    ASSETS_WRITE,
    PLANNER_WRITE,
    FAVORITES_WRITE,
    EDITOR_READ,
    EDITOR_WRITE,
];

/// Each scope in words a person decides on (consent pages: the CLI's login, OAuth).
pub const DESCRIPTIONS: &[(&str, &str)] = &[
    (GENERATE, "Spend credits on renders (images, video, audio, boards)"),
    (PIPELINE_WRITE, "Run and change pipelines"),
    (PUBLISH_WRITE, "Publish and schedule posts on your connected accounts"),
    (BRANDKIT_READ, "Read your brand kits, their knowledge and your inspiration"),
    (BRANDKIT_WRITE, "Change your brand kits and add knowledge"),
    (ASSETS_WRITE, "Upload and import media into your library"),
    (PLANNER_WRITE, "Create and change spaces, stages, cards and tags"),
    (FAVORITES_WRITE, "Favourite and archive items"),
    (EDITOR_READ, "Read your editor and canvas projects"),
    (EDITOR_WRITE, "Create and change editor and canvas projects"),
];

/// A scope's words (the scope itself when it has none).
pub fn describe(scope: &str) -> &str {
    DESCRIPTIONS.iter().find(|(s, _)| *s == scope).map_or(scope, |(_, d)| d)
}

/// Where a user grants a scope, for messages that tell them what to do.
pub const WHERE_TO_GRANT: &str = "Settings → API keys in the ContentHero app";

#[cfg(test)]
mod tests {
    #[test]
    fn every_scope_has_words() {
        for s in super::ALL {
            assert_ne!(super::describe(s), *s, "{s} has no description");
        }
        assert_eq!(super::DESCRIPTIONS.len(), super::ALL.len());
    }
}
