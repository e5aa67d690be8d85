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

/// Where a user grants a scope, for messages that tell them what to do.
pub const WHERE_TO_GRANT: &str = "Settings → API keys in the ContentHero app";
