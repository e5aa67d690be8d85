//! The archive flag of every record `POST /archive` takes: cards, spaces and projects stamp their own
//! `archived_at`, brand kits and their sections their `is_archived`. Archiving is never a delete; `false`
//! restores, keeping the schedule, a section's versions and all else. One function for all five.
use crate::error::{ApiError, ApiResult};
use crate::time;
use rusqlite::{params, Connection};

/// A record archived by stamping its own row. The table name comes from this closed set only.
#[derive(Debug, Clone, Copy)]
pub enum Archivable {
    Card,
    Space,
    Project,
    BrandKit,
    BrandKitSection,
}

impl Archivable {
    /// The record `POST /archive`'s `assetType` names; `None` for a type that cannot be archived.
    pub fn of_asset_type(asset_type: &str) -> Option<Archivable> {
        Some(match asset_type {
            "card" => Archivable::Card,
            "space" => Archivable::Space,
            "project" => Archivable::Project,
            "brand_kit" => Archivable::BrandKit,
            "brand_kit_section" => Archivable::BrandKitSection,
            _ => return None,
        })
    }

    fn update(self) -> &'static str {
        match self {
            Archivable::Card => "UPDATE cards SET archived_at = CASE WHEN ?3 THEN COALESCE(archived_at, ?4) ELSE NULL END, updated_at = ?4 WHERE id = ?1 AND account_id = ?2",
            Archivable::Space => "UPDATE spaces SET archived_at = CASE WHEN ?3 THEN COALESCE(archived_at, ?4) ELSE NULL END, updated_at = ?4 WHERE id = ?1 AND account_id = ?2",
            Archivable::Project => "UPDATE projects SET archived_at = CASE WHEN ?3 THEN COALESCE(archived_at, ?4) ELSE NULL END, updated_at = ?4 WHERE id = ?1 AND account_id = ?2",
            Archivable::BrandKit => "UPDATE brand_kits SET is_archived = ?3, updated_at = ?4 WHERE id = ?1 AND account_id = ?2",
            Archivable::BrandKitSection => "UPDATE brand_kit_sections SET is_archived = ?3, updated_at = ?4 WHERE id = ?1 AND brand_kit_id IN (SELECT id FROM brand_kits WHERE account_id = ?2)",
        }
    }

    fn noun(self) -> &'static str {
        match self {
            Archivable::Card => "Card",
            Archivable::Space => "Space",
            Archivable::Project => "Project",
            Archivable::BrandKit => "Brand kit",
            Archivable::BrandKitSection => "Brand kit section",
        }
    }
}

/// `POST /archive` (and a card's `archived` field): archives (`true`) or restores (`false`); 404 when the
/// record is unknown or not the caller's.
pub fn set_archived(
    conn: &Connection,
    what: Archivable,
    account_id: &str,
    id: &str,
    archived: bool,
) -> ApiResult<()> {
    let n = conn.execute(
        what.update(),
        params![id, account_id, archived, time::now_str()],
    )?;
    if n == 0 {
        return Err(ApiError::not_found(what.noun()));
    }
    Ok(())
}
