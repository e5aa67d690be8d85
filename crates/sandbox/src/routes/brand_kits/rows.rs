//! Kits and sections as stored, and the full kit as read.
use super::*;

pub(super) fn kit_rows(conn: &Connection, account_id: &str) -> ApiResult<Vec<KitRow>> {
    let mut stmt = conn.prepare_cached(
        &format!("SELECT {KIT_COLUMNS} FROM brand_kits WHERE account_id = ?1 ORDER BY is_default DESC, created_at, rowid"),
    )?;
    let rows = stmt.query_map([account_id], kit_from_row)?;
    Ok(rows.collect::<rusqlite::Result<_>>()?)
}

#[derive(Clone)]
pub(super) struct SectionRow {
    pub(super) id: String,
    pub(super) key: String,
    pub(super) role: Option<String>,
    pub(super) tab: String,
    pub(super) section_name: String,
    pub(super) width: String,
    pub(super) version: i64,
    pub(super) body: String,
    pub(super) sort_order: f64,
    pub(super) archived: bool,
    pub(super) updated_at: Option<String>,
}

impl SectionRow {
    pub(super) fn wire(&self) -> BrandKitSection {
        BrandKitSection {
            id: self.id.clone(),
            key: self.key.clone(),
            role: self.role.clone(),
            tab: self.tab.clone(),
            section_name: self.section_name.clone(),
            width: self.width.clone(),
            version: self.version,
            body: self.body.clone(),
            updated_at: self.updated_at.clone(),
            sort_order: Some(self.sort_order),
            revisions: None,
        }
    }

    pub(super) fn summary(self) -> SectionSummary {
        SectionSummary {
            char_count: self.body.chars().count() as i64,
            outline: outline(&self.body),
            id: self.id,
            key: self.key,
            role: self.role,
            tab: self.tab,
            section_name: self.section_name,
            width: self.width,
            version: self.version,
            updated_at: self.updated_at,
            sort_order: Some(self.sort_order),
        }
    }
}

/// Every section of a kit, archived ones included, in page order: by tab, then `sort_order`.
pub(super) fn all_sections(conn: &Connection, kit_id: &str) -> ApiResult<Vec<SectionRow>> {
    let mut stmt = conn.prepare_cached(
        "SELECT id, key, role, tab, section_name, width, version, body, sort_order, is_archived, updated_at
         FROM brand_kit_sections WHERE brand_kit_id = ?1",
    )?;
    let rows = stmt.query_map([kit_id], |r| {
        Ok(SectionRow {
            id: r.get(0)?,
            key: r.get(1)?,
            role: r.get(2)?,
            tab: r.get(3)?,
            section_name: r.get(4)?,
            width: r.get(5)?,
            version: r.get(6)?,
            body: r.get(7)?,
            sort_order: r.get(8)?,
            archived: r.get(9)?,
            updated_at: r.get(10)?,
        })
    })?;
    let mut rows: Vec<SectionRow> = rows.collect::<rusqlite::Result<_>>()?;
    let tab_index = |t: &str| TABS.iter().position(|x| *x == t).unwrap_or(TABS.len());
    rows.sort_by(|a, b| {
        tab_index(&a.tab)
            .cmp(&tab_index(&b.tab))
            .then(a.sort_order.total_cmp(&b.sort_order))
            .then_with(|| a.key.cmp(&b.key))
    });
    Ok(rows)
}

/// The sections reads return: archived ones are gone until restored.
pub(super) fn visible_sections(conn: &Connection, kit_id: &str) -> ApiResult<Vec<SectionRow>> {
    Ok(all_sections(conn, kit_id)?
        .into_iter()
        .filter(|s| !s.archived)
        .collect())
}

/// The section's earlier bodies (versions before the current one), newest first.
pub(super) fn earlier_revisions(conn: &Connection, s: &SectionRow) -> ApiResult<Vec<SectionRevision>> {
    let mut stmt = conn.prepare_cached(
        "SELECT version, body, body_source, created_at FROM brand_kit_section_revisions
         WHERE section_id = ?1 AND version < ?2 ORDER BY version DESC",
    )?;
    let rows = stmt.query_map(params![s.id, s.version], |r| {
        Ok(SectionRevision {
            version: r.get(0)?,
            body: r.get(1)?,
            body_source: r.get(2)?,
            created_at: r.get(3)?,
        })
    })?;
    Ok(rows.collect::<rusqlite::Result<_>>()?)
}

pub(super) fn revision_body(conn: &Connection, section_id: &str, version: i64) -> ApiResult<Option<String>> {
    Ok(conn
        .cached_row(
            "SELECT body FROM brand_kit_section_revisions WHERE section_id = ?1 AND version = ?2",
            params![section_id, version],
            |r| r.get(0),
        )
        .optional()?)
}

pub(super) fn full_kit(conn: &Connection, kit: KitRow) -> ApiResult<BrandKit> {
    let sections = visible_sections(conn, &kit.summary.id)?
        .iter()
        .map(SectionRow::wire)
        .collect();
    let knowledge = crate::tables::knowledge::refs_for_kit(conn, &kit.summary.id)?;
    let (brand_accounts, inspiration_accounts) = crate::tables::inspiration::kit_accounts(conn, &kit.summary.id)?;
    Ok(BrandKit {
        summary: kit.summary,
        website_urls: kit.website_urls,
        brand_colors: kit.brand_colors,
        typography: kit.typography,
        logos: kit.logos,
        sections,
        knowledge,
        // The sandbox never reads a website into a kit, so it has no extraction to report.
        extraction_status: None,
        analysis_status: None,
        extraction_error: None,
        brand_accounts,
        inspiration_accounts,
    })
}
