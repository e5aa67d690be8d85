//! Brand kits (`brand_kits`): the caller's kit, the default one, and the archive flag of a kit or section.
use crate::db::CachedRow as _;
use crate::error::{ApiError, ApiResult};
use api_types::{BrandColor, BrandKitSummary, Typography};
use rusqlite::{params, Connection, OptionalExtension};

pub struct KitRow {
    pub summary: BrandKitSummary,
    pub website_urls: Vec<String>,
    pub brand_colors: Vec<BrandColor>,
    pub typography: Option<Typography>,
    pub logos: Vec<serde_json::Value>,
}

pub const KIT_COLUMNS: &str =
    "id, name, is_default, is_active, is_favorited, is_archived, created_at, website_urls, brand_colors, typography, logos";

pub fn kit_from_row(r: &rusqlite::Row) -> rusqlite::Result<KitRow> {
    let urls: String = r.get(7)?;
    Ok(KitRow {
        summary: BrandKitSummary {
            id: r.get(0)?,
            name: r.get(1)?,
            is_default: r.get(2)?,
            is_active: r.get(3)?,
            is_favorited: r.get(4)?,
            is_archived: r.get(5)?,
            created_at: r.get(6)?,
        },
        website_urls: serde_json::from_str(&urls).unwrap_or_default(),
        brand_colors: serde_json::from_str(&r.get::<_, String>(8)?).unwrap_or_default(),
        typography: r.get::<_, Option<String>>(9)?.and_then(|t| serde_json::from_str(&t).ok()),
        logos: serde_json::from_str(&r.get::<_, String>(10)?).unwrap_or_default(),
    })
}

/// The caller's kit, or 404 (another account's kit is "not found" too).
pub fn kit_row(conn: &Connection, account_id: &str, id: &str) -> ApiResult<KitRow> {
    conn.cached_row(
        &format!("SELECT {KIT_COLUMNS} FROM brand_kits WHERE id = ?1 AND account_id = ?2"),
        params![id, account_id],
        kit_from_row,
    )
    .optional()?
    .ok_or_else(|| ApiError::not_found("Brand kit"))
}

/// Whether the caller owns kit `id` (the knowledge routes' check).
pub fn owns_kit(conn: &Connection, account_id: &str, id: &str) -> ApiResult<()> {
    kit_row(conn, account_id, id).map(|_| ())
}

/// The caller's default kit, if any (the knowledge demo seed attaches to it).
pub fn default_kit_id(conn: &Connection, account_id: &str) -> rusqlite::Result<Option<String>> {
    conn.cached_row(
        "SELECT id FROM brand_kits WHERE account_id = ?1 AND is_default = 1 ORDER BY created_at LIMIT 1",
        [account_id],
        |r| r.get(0),
    )
    .optional()
}

