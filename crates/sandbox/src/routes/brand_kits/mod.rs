//! Brand kits: a kit's content is a set of Markdown sections addressed by a stable `key`, each with an
//! integer `version` that increments on every body change (spec §2, §4 "Brand kit", §9).
//!
//! - `GET /brand-kits` lists the caller's kits, the default first.
//! - `GET /brand-kits/{id}` has three read modes, as the spec's text gives them: `detail=summary` (no
//!   bodies; size and `##` outline), optionally filtered by `keys`/`roles`/`tabs`; a filter (bodies;
//!   `history=true` adds earlier versions, and without a filter gives every section's); and the full kit.
//!   (The newest SDK refuses summary+filter and an unfiltered history read; `docs/api.md` says why we
//!   follow the spec.)
//! - `PATCH /brand-kits/{id}` writes sections all or nothing with optimistic concurrency
//!   (`expectedVersion`, 409 with the current bodies), then the kit's other fields. The old field model's
//!   inputs are refused with a 400 naming the section to write instead.
//!
//! Every body a section has had is kept (`brand_kit_section_revisions`) so history reads and `revertTo`
//! work; a revert lands as a new version, so it can itself be reverted.
use crate::db::CachedRow as _;
use crate::auth::Caller;
use crate::db::new_id;
use crate::error::{ApiError, ApiResult};
use crate::extract::{from_value, parse_json, read_body, AppQuery};
use crate::state::AppState;
use crate::time;
use api_types::scopes::{BRANDKIT_READ, BRANDKIT_WRITE};
use api_types::{
    roles, BrandKit, BrandKitList, BrandKitQuery, BrandKitSection, BrandKitSectionsView,
    BrandKitSummary, BrandKitSummaryView, SectionConflict, SectionRevision, SectionSummary,
    SectionWrite, UpdateBrandKit, BrandColor, LogoInput, Typography, COLOR_ROLES, REMOVED_INPUTS, STARTER_SECTIONS, TABS, WIDTHS,
};
use axum::extract::{Path, Request, State};
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use axum::{Json, Router};
use rusqlite::{params, Connection, OptionalExtension};
use serde::Deserialize;
use std::collections::HashSet;

pub const SCHEMA: &str = "
CREATE TABLE IF NOT EXISTS brand_kits (
    id TEXT PRIMARY KEY,
    account_id TEXT NOT NULL REFERENCES accounts(id),
    name TEXT NOT NULL,
    is_default INTEGER NOT NULL DEFAULT 0,
    is_active INTEGER NOT NULL DEFAULT 1,
    is_favorited INTEGER NOT NULL DEFAULT 0,
    is_archived INTEGER NOT NULL DEFAULT 0,
    website_urls TEXT NOT NULL DEFAULT '[]',
    created_at TEXT NOT NULL,
    updated_at TEXT NOT NULL
);
CREATE INDEX IF NOT EXISTS brand_kits_by_account ON brand_kits(account_id);
CREATE TABLE IF NOT EXISTS brand_kit_sections (
    id TEXT PRIMARY KEY,
    brand_kit_id TEXT NOT NULL REFERENCES brand_kits(id),
    key TEXT NOT NULL,
    role TEXT,
    tab TEXT NOT NULL,
    section_name TEXT NOT NULL,
    width TEXT NOT NULL,
    version INTEGER NOT NULL,
    body TEXT NOT NULL,
    sort_order REAL NOT NULL,
    is_archived INTEGER NOT NULL DEFAULT 0,
    updated_at TEXT,
    UNIQUE (brand_kit_id, key)
);
CREATE TABLE IF NOT EXISTS brand_kit_section_revisions (
    section_id TEXT NOT NULL REFERENCES brand_kit_sections(id),
    version INTEGER NOT NULL,
    body TEXT NOT NULL,
    body_source TEXT NOT NULL,
    created_at TEXT NOT NULL,
    PRIMARY KEY (section_id, version)
);
";

/// `(method, path)` of every route this module serves under `/api/v1` (kept in step with
/// `docs/openapi.yaml` by a test). `GET /brand-kit-templates` was removed from the API (spec §4 rule 7)
/// and is deliberately not served.
pub const ROUTES: &[(&str, &str)] = &[
    ("GET", "/brand-kits"),
    ("GET", "/brand-kits/{id}"),
    ("PATCH", "/brand-kits/{id}"),
];

/// The `detail` values of a kit read.
mod seed;
pub use seed::seed_demo;

const DETAILS: &[&str] = &["summary", "full"];
/// Where a body written through this API came from (`SectionRevision.bodySource`).
const SOURCE_API: &str = "api";

pub fn router() -> Router<AppState> {
    Router::new()
        .route("/brand-kits", get(list_kits))
        .route("/brand-kits/{id}", get(read_kit).patch(patch_kit))
}

// ---------------------------------------------------------------------------------------------------
// Handlers
// ---------------------------------------------------------------------------------------------------

/// Query of `GET /brand-kits`.
#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
struct ListQuery {
    /// `true`: only favorited kits.
    #[serde(default)]
    favorited: Option<bool>,
    /// `true`: the archived kits instead of the live ones.
    #[serde(default)]
    archived: Option<bool>,
}

async fn list_kits(
    State(state): State<AppState>,
    caller: Caller,
    AppQuery(q): AppQuery<ListQuery>,
) -> ApiResult<Json<BrandKitList>> {
    caller.require(BRANDKIT_READ)?;
    let conn = state.db().lock();
    let archived = q.archived.unwrap_or(false);
    let brand_kits = kit_rows(&conn, &caller.account_id)?
        .into_iter()
        .filter(|k| k.summary.is_archived == archived)
        .filter(|k| !q.favorited.unwrap_or(false) || k.summary.is_favorited)
        .map(|k| k.summary)
        .collect();
    Ok(Json(BrandKitList { brand_kits }))
}

async fn read_kit(
    State(state): State<AppState>,
    caller: Caller,
    Path(id): Path<String>,
    AppQuery(q): AppQuery<BrandKitQuery>,
) -> ApiResult<Response> {
    caller.require(BRANDKIT_READ)?;
    let mode = ReadMode::from_query(&q)?;
    let conn = state.db().lock();
    let kit = kit_row(&conn, &caller.account_id, &id)?;
    Ok(match mode {
        ReadMode::Full => Json(full_kit(&conn, kit)?).into_response(),
        ReadMode::Summary(filter) => {
            let sections = visible_sections(&conn, &kit.summary.id)?
                .into_iter()
                .filter(|s| filter.matches(s))
                .map(SectionRow::summary)
                .collect();
            Json(BrandKitSummaryView {
                id: kit.summary.id,
                name: kit.summary.name,
                sections,
            })
            .into_response()
        }
        ReadMode::Filtered { filter, history } => {
            let mut sections = Vec::new();
            for row in visible_sections(&conn, &kit.summary.id)?
                .into_iter()
                .filter(|s| filter.matches(s))
            {
                let revisions = if history {
                    Some(earlier_revisions(&conn, &row)?)
                } else {
                    None
                };
                sections.push(BrandKitSection {
                    revisions,
                    ..row.wire()
                });
            }
            Json(BrandKitSectionsView {
                id: kit.summary.id,
                name: kit.summary.name,
                sections,
            })
            .into_response()
        }
    })
}

/// `PATCH /brand-kits/{id}`: the raw JSON is looked at first so a removed input of the old field model
/// gets a 400 naming the section to write, rather than a bare "unknown field".
async fn patch_kit(
    State(state): State<AppState>,
    caller: Caller,
    Path(id): Path<String>,
    req: Request,
) -> ApiResult<Json<BrandKit>> {
    caller.require(BRANDKIT_WRITE)?;
    let bytes = read_body(req, &state).await?;
    let raw: serde_json::Value = parse_json(&bytes)?;
    let Some(object) = raw.as_object() else {
        return Err(ApiError::bad("body", "The body must be a JSON object"));
    };
    refuse_removed_inputs(object)?;
    let patch: UpdateBrandKit = from_value(raw)?;
    let kit = state.db().tx(|tx| {
        let kit = kit_row(tx, &caller.account_id, &id)?;
        if let Some(writes) = &patch.sections {
            write_sections(tx, &kit.summary.id, writes)?;
        }
        write_kit_fields(tx, &caller.account_id, &kit.summary.id, &patch)?;
        let kit = kit_row(tx, &caller.account_id, &id)?;
        full_kit(tx, kit)
    })?;
    Ok(Json(kit))
}

/// Spec §4 rule 6: the old field model's inputs are a 400 naming the replacement section.
fn refuse_removed_inputs(object: &serde_json::Map<String, serde_json::Value>) -> ApiResult<()> {
    let present: Vec<&(&str, &str)> = REMOVED_INPUTS
        .iter()
        .filter(|(name, _)| object.contains_key(*name))
        .collect();
    let Some((name, section)) = present.first() else {
        return Ok(());
    };
    let target = if section.starts_with("the ") {
        section.to_string()
    } else {
        format!("the `{section}` section")
    };
    let mut message = format!(
        "`{name}` was removed: write {target} through `sections`, using keys from a `detail=summary` read"
    );
    if *section == "design_guidelines" {
        message.push_str(
            ". Visual style and design principles belong in the `design_guidelines` section",
        );
    }
    if present.len() > 1 {
        let others: Vec<String> = present[1..].iter().map(|(n, _)| format!("`{n}`")).collect();
        message.push_str(&format!(" (also removed: {})", others.join(", ")));
    }
    Err(ApiError::bad(*name, message))
}

// ---------------------------------------------------------------------------------------------------
// Read modes
// ---------------------------------------------------------------------------------------------------

enum ReadMode {
    Full,
    Summary(SectionFilter),
    Filtered {
        filter: SectionFilter,
        history: bool,
    },
}

/// `keys`, `roles`, `tabs`: each a comma list; a section must match every list given (AND).
struct SectionFilter {
    keys: Option<Vec<String>>,
    roles: Option<Vec<String>>,
    tabs: Option<Vec<String>>,
}

impl SectionFilter {
    fn matches(&self, s: &SectionRow) -> bool {
        let within = |list: &Option<Vec<String>>, v: Option<&str>| {
            list.as_ref()
                .is_none_or(|l| v.is_some_and(|v| l.iter().any(|x| x == v)))
        };
        within(&self.keys, Some(&s.key))
            && within(&self.roles, s.role.as_deref())
            && within(&self.tabs, Some(&s.tab))
    }

    fn is_empty(&self) -> bool {
        self.keys.is_none() && self.roles.is_none() && self.tabs.is_none()
    }
}

/// A comma list; an empty parameter counts as not given.
fn comma_list(s: &Option<String>) -> Option<Vec<String>> {
    let list: Vec<String> = s
        .as_deref()?
        .split(',')
        .map(str::trim)
        .filter(|s| !s.is_empty())
        .map(String::from)
        .collect();
    (!list.is_empty()).then_some(list)
}

fn invalid(field: &str, message: String, valid: &[&str]) -> ApiError {
    ApiError::InvalidValue {
        message,
        field: field.into(),
        valid: valid.iter().map(|s| s.to_string()).collect(),
    }
}

/// Every value of `list` must be in `valid`: spec §4 "any unknown role or tab is refused with 400 naming
/// the valid values".
fn check_all(field: &str, list: &Option<Vec<String>>, valid: &[&str]) -> ApiResult<()> {
    for v in list.iter().flatten() {
        if !valid.contains(&v.as_str()) {
            return Err(invalid(
                field,
                format!(
                    "Unknown {field} value \"{v}\": valid values are {}",
                    valid.join(", ")
                ),
                valid,
            ));
        }
    }
    Ok(())
}

impl ReadMode {
    fn from_query(q: &BrandKitQuery) -> ApiResult<ReadMode> {
        let filter = SectionFilter {
            keys: comma_list(&q.keys),
            roles: comma_list(&q.roles),
            tabs: comma_list(&q.tabs),
        };
        check_all("roles", &filter.roles, &roles())?;
        check_all("tabs", &filter.tabs, TABS)?;
        let history = q.history.unwrap_or(false);
        let detail = q.detail.as_deref();
        if let Some(d) = detail {
            if !DETAILS.contains(&d) {
                return Err(invalid(
                    "detail",
                    format!(
                        "Unknown detail \"{d}\": valid values are summary, full (or leave it out)"
                    ),
                    DETAILS,
                ));
            }
        }
        if detail == Some("summary") && history {
            return Err(invalid(
                "history",
                "`history=true` reads bodies and earlier versions; a `detail=summary` read has no bodies: leave one out"
                    .into(),
                &["false"],
            ));
        }
        Ok(if detail == Some("summary") {
            ReadMode::Summary(filter)
        } else if !filter.is_empty() || history {
            // An unfiltered history read is every section with its earlier versions.
            ReadMode::Filtered { filter, history }
        } else {
            ReadMode::Full
        })
    }
}

/// The section's own `## ` headings, in order; lines inside fenced code blocks are not headings.
pub fn outline(body: &str) -> Vec<String> {
    let mut in_fence = false;
    let mut out = Vec::new();
    for line in body.lines() {
        let trimmed = line.trim_start();
        if trimmed.starts_with("```") || trimmed.starts_with("~~~") {
            in_fence = !in_fence;
            continue;
        }
        if in_fence {
            continue;
        }
        if let Some(h) = trimmed.strip_prefix("## ") {
            let h = h.trim().trim_end_matches('#').trim();
            if !h.is_empty() {
                out.push(h.to_string());
            }
        }
    }
    out
}

// ---------------------------------------------------------------------------------------------------
// Rows
// ---------------------------------------------------------------------------------------------------

struct KitRow {
    summary: BrandKitSummary,
    website_urls: Vec<String>,
    brand_colors: Vec<BrandColor>,
    typography: Option<Typography>,
    logos: Vec<serde_json::Value>,
}

const KIT_COLUMNS: &str =
    "id, name, is_default, is_active, is_favorited, is_archived, created_at, website_urls, brand_colors, typography, logos";

fn kit_rows(conn: &Connection, account_id: &str) -> ApiResult<Vec<KitRow>> {
    let mut stmt = conn.prepare_cached(
        &format!("SELECT {KIT_COLUMNS} FROM brand_kits WHERE account_id = ?1 ORDER BY is_default DESC, created_at, rowid"),
    )?;
    let rows = stmt.query_map([account_id], kit_from_row)?;
    Ok(rows.collect::<rusqlite::Result<_>>()?)
}

fn kit_from_row(r: &rusqlite::Row) -> rusqlite::Result<KitRow> {
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
fn kit_row(conn: &Connection, account_id: &str, id: &str) -> ApiResult<KitRow> {
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

#[derive(Clone)]
struct SectionRow {
    id: String,
    key: String,
    role: Option<String>,
    tab: String,
    section_name: String,
    width: String,
    version: i64,
    body: String,
    sort_order: f64,
    archived: bool,
    updated_at: Option<String>,
}

impl SectionRow {
    fn wire(&self) -> BrandKitSection {
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

    fn summary(self) -> SectionSummary {
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
fn all_sections(conn: &Connection, kit_id: &str) -> ApiResult<Vec<SectionRow>> {
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
fn visible_sections(conn: &Connection, kit_id: &str) -> ApiResult<Vec<SectionRow>> {
    Ok(all_sections(conn, kit_id)?
        .into_iter()
        .filter(|s| !s.archived)
        .collect())
}

/// The section's earlier bodies (versions before the current one), newest first.
fn earlier_revisions(conn: &Connection, s: &SectionRow) -> ApiResult<Vec<SectionRevision>> {
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

fn revision_body(conn: &Connection, section_id: &str, version: i64) -> ApiResult<Option<String>> {
    Ok(conn
        .cached_row(
            "SELECT body FROM brand_kit_section_revisions WHERE section_id = ?1 AND version = ?2",
            params![section_id, version],
            |r| r.get(0),
        )
        .optional()?)
}

fn full_kit(conn: &Connection, kit: KitRow) -> ApiResult<BrandKit> {
    let sections = visible_sections(conn, &kit.summary.id)?
        .iter()
        .map(SectionRow::wire)
        .collect();
    let knowledge = crate::routes::knowledge::refs_for_kit(conn, &kit.summary.id)?;
    let (brand_accounts, inspiration_accounts) = crate::routes::inspiration::kit_accounts(conn, &kit.summary.id)?;
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

// ---------------------------------------------------------------------------------------------------
// Writes
// ---------------------------------------------------------------------------------------------------

/// What one `sections` entry will do, decided before anything is written.
enum Planned<'a> {
    Edit {
        row: &'a SectionRow,
        body: Option<String>,
        name: Option<String>,
        width: Option<String>,
        tab: Option<String>,
    },
    Add {
        name: String,
        tab: String,
        width: String,
        body: String,
    },
}

/// Spec §4 rules 1–5: every entry is checked against the current sections first; a single invalid
/// entry is a 400 and a single stale `expectedVersion` a 409 listing every stale entry, and in both
/// cases nothing is written. Runs inside the PATCH's transaction.
fn write_sections(tx: &Connection, kit_id: &str, writes: &[SectionWrite]) -> ApiResult<()> {
    let sections = all_sections(tx, kit_id)?;
    let mut seen = HashSet::new();
    let mut planned = Vec::with_capacity(writes.len());
    let mut conflicts = Vec::new();
    for (i, w) in writes.iter().enumerate() {
        let at = |f: &str| format!("sections[{i}].{f}");
        let name = match &w.section_name {
            Some(n) if n.trim().is_empty() => {
                return Err(ApiError::bad(
                    at("sectionName"),
                    "`sectionName` cannot be empty",
                ))
            }
            n => n.as_ref().map(|n| n.trim().to_string()),
        };
        if let Some(width) = &w.width {
            if !WIDTHS.contains(&width.as_str()) {
                return Err(invalid(
                    &at("width"),
                    format!("Unknown width \"{width}\": valid values are full, half"),
                    WIDTHS,
                ));
            }
        }
        if let Some(tab) = &w.tab {
            if !TABS.contains(&tab.as_str()) {
                return Err(invalid(
                    &at("tab"),
                    format!(
                        "Unknown tab \"{tab}\": valid values are {}",
                        TABS.join(", ")
                    ),
                    TABS,
                ));
            }
        }
        let Some(key) = &w.key else {
            // Rule 2: an entry without a key adds a section.
            let Some(name) = name else {
                return Err(ApiError::bad(
                    at("sectionName"),
                    "Adding a section (an entry without `key`) needs `sectionName`",
                ));
            };
            let Some(tab) = w.tab.clone() else {
                return Err(invalid(
                    &at("tab"),
                    format!(
                        "Adding a section (an entry without `key`) needs `tab`: one of {}",
                        TABS.join(", ")
                    ),
                    TABS,
                ));
            };
            if w.revert_to.is_some() {
                return Err(ApiError::bad(
                    at("revertTo"),
                    "`revertTo` needs the `key` of an existing section",
                ));
            }
            planned.push(Planned::Add {
                name,
                tab,
                width: w.width.clone().unwrap_or_else(|| "full".into()),
                body: w.body.clone().unwrap_or_default(),
            });
            continue;
        };
        // Rule 1: an entry with a key edits that section.
        if !seen.insert(key.as_str()) {
            return Err(ApiError::bad(
                at("key"),
                format!("Section `{key}` is named twice; send one entry per section"),
            ));
        }
        let Some(row) = sections.iter().find(|s| &s.key == key) else {
            let valid: Vec<&str> = sections
                .iter()
                .filter(|s| !s.archived)
                .map(|s| s.key.as_str())
                .collect();
            return Err(invalid(
                &at("key"),
                format!(
                    "No section with key `{key}` in this kit; use keys from a `detail=summary` read ({}), or leave \
                     `key` out to add a section",
                    valid.join(", ")
                ),
                &valid,
            ));
        };
        if row.archived {
            return Err(ApiError::bad(
                at("key"),
                format!("Section `{key}` is archived; restore it before editing it"),
            ));
        }
        // Rule 3: an edit says which version it read.
        let Some(expected) = w.expected_version else {
            return Err(ApiError::bad(
                at("expectedVersion"),
                format!(
                    "Editing section `{key}` needs `expectedVersion`: the version you last read (now {})",
                    row.version
                ),
            ));
        };
        let body = match (&w.body, w.revert_to) {
            (Some(_), Some(_)) => {
                return Err(ApiError::bad(
                    at("revertTo"),
                    "Send either `body` or `revertTo`, not both",
                ));
            }
            (Some(b), None) => Some(b.clone()),
            (None, Some(v)) => match revision_body(tx, &row.id, v)? {
                Some(b) => Some(b),
                None => {
                    return Err(ApiError::bad(
                        at("revertTo"),
                        format!(
                            "Section `{key}` has no version {v}; its versions are 1 to {}",
                            row.version
                        ),
                    ))
                }
            },
            (None, None) => None,
        };
        // Rule 5: collect every stale entry so the caller can resolve them all in one go.
        if expected != row.version {
            conflicts.push(SectionConflict {
                key: row.key.clone(),
                version: row.version,
                body: row.body.clone(),
            });
            continue;
        }
        planned.push(Planned::Edit {
            row,
            body,
            name,
            width: w.width.clone(),
            tab: w.tab.clone(),
        });
    }
    if !conflicts.is_empty() {
        return Err(ApiError::SectionConflict(conflicts));
    }
    let now = time::now_str();
    for p in planned {
        match p {
            Planned::Edit {
                row,
                body,
                name,
                width,
                tab,
            } => edit_section(tx, row, body, name, width, tab, &now)?,
            Planned::Add {
                name,
                tab,
                width,
                body,
            } => {
                add_section(
                    tx,
                    kit_id,
                    &new_key(tx, kit_id)?,
                    None,
                    &tab,
                    &name,
                    &width,
                    &body,
                    SOURCE_API,
                    &now,
                )?;
            }
        }
    }
    Ok(())
}

/// Applies one checked edit. The version moves only when the body changes (spec §9); a rename or a
/// width change keeps it.
fn edit_section(
    tx: &Connection,
    row: &SectionRow,
    body: Option<String>,
    name: Option<String>,
    width: Option<String>,
    tab: Option<String>,
    now: &str,
) -> ApiResult<()> {
    let mut changed = false;
    if let Some(body) = body.filter(|b| *b != row.body) {
        let version = row.version + 1;
        tx.execute(
            "UPDATE brand_kit_sections SET body = ?2, version = ?3 WHERE id = ?1",
            params![row.id, body, version],
        )?;
        tx.execute(
            "INSERT INTO brand_kit_section_revisions (section_id, version, body, body_source, created_at)
             VALUES (?1, ?2, ?3, ?4, ?5)",
            params![row.id, version, body, SOURCE_API, now],
        )?;
        changed = true;
    }
    if let Some(name) = name.filter(|n| *n != row.section_name) {
        tx.execute(
            "UPDATE brand_kit_sections SET section_name = ?2 WHERE id = ?1",
            params![row.id, name],
        )?;
        changed = true;
    }
    if let Some(width) = width.filter(|w| *w != row.width) {
        tx.execute(
            "UPDATE brand_kit_sections SET width = ?2 WHERE id = ?1",
            params![row.id, width],
        )?;
        changed = true;
    }
    if let Some(tab) = tab.filter(|t| *t != row.tab) {
        // Moving to another tab puts the section at that tab's end.
        let order = next_sort_order(tx, &row_kit(tx, &row.id)?, &tab)?;
        tx.execute(
            "UPDATE brand_kit_sections SET tab = ?2, sort_order = ?3 WHERE id = ?1",
            params![row.id, tab, order],
        )?;
        changed = true;
    }
    if changed {
        tx.execute(
            "UPDATE brand_kit_sections SET updated_at = ?2 WHERE id = ?1",
            params![row.id, now],
        )?;
    }
    Ok(())
}

fn row_kit(conn: &Connection, section_id: &str) -> ApiResult<String> {
    Ok(conn.cached_row(
        "SELECT brand_kit_id FROM brand_kit_sections WHERE id = ?1",
        [section_id],
        |r| r.get(0),
    )?)
}

fn next_sort_order(conn: &Connection, kit_id: &str, tab: &str) -> rusqlite::Result<f64> {
    conn.cached_row(
        "SELECT COALESCE(MAX(sort_order), 0) + 1 FROM brand_kit_sections WHERE brand_kit_id = ?1 AND tab = ?2",
        params![kit_id, tab],
        |r| r.get(0),
    )
}

/// `custom_<short id>`, unique within the kit.
fn new_key(conn: &Connection, kit_id: &str) -> rusqlite::Result<String> {
    loop {
        let key = format!("custom_{}", &new_id().replace('-', "")[..8]);
        let taken: Option<i64> = conn
            .cached_row(
                "SELECT 1 FROM brand_kit_sections WHERE brand_kit_id = ?1 AND key = ?2",
                params![kit_id, key],
                |r| r.get(0),
            )
            .optional()?;
        if taken.is_none() {
            return Ok(key);
        }
    }
}

/// Inserts a section at version 1 with its first revision.
#[allow(clippy::too_many_arguments)]
fn add_section(
    conn: &Connection,
    kit_id: &str,
    key: &str,
    role: Option<&str>,
    tab: &str,
    name: &str,
    width: &str,
    body: &str,
    source: &str,
    now: &str,
) -> rusqlite::Result<String> {
    let id = new_id();
    let order = next_sort_order(conn, kit_id, tab)?;
    conn.execute(
        "INSERT INTO brand_kit_sections (id, brand_kit_id, key, role, tab, section_name, width, version, body,
             sort_order, updated_at)
         VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, 1, ?8, ?9, ?10)",
        params![id, kit_id, key, role, tab, name, width, body, order, now],
    )?;
    conn.execute(
        "INSERT INTO brand_kit_section_revisions (section_id, version, body, body_source, created_at)
         VALUES (?1, 1, ?2, ?3, ?4)",
        params![id, body, source, now],
    )?;
    Ok(id)
}

/// The PATCH's other fields, applied after the sections (spec §4 rule 4).
fn write_kit_fields(
    tx: &Connection,
    account_id: &str,
    kit_id: &str,
    patch: &UpdateBrandKit,
) -> ApiResult<()> {
    let now = time::now_str();
    if let Some(name) = &patch.name {
        let name = name.trim();
        if name.is_empty() {
            return Err(ApiError::bad("name", "`name` cannot be empty"));
        }
        tx.execute(
            "UPDATE brand_kits SET name = ?2, updated_at = ?3 WHERE id = ?1",
            params![kit_id, name, now],
        )?;
    }
    if let Some(urls) = &patch.website_urls {
        let mut kept: Vec<String> = Vec::new();
        for (i, url) in urls.iter().enumerate() {
            let url = url.trim();
            if !(url.starts_with("https://") || url.starts_with("http://")) || url.len() < 11 {
                return Err(ApiError::bad(
                    format!("websiteUrls[{i}]"),
                    format!("\"{url}\" is not an http(s) URL"),
                ));
            }
            if !kept.iter().any(|k| k == url) {
                kept.push(url.to_string());
            }
        }
        let json = serde_json::to_string(&kept).map_err(ApiError::internal)?;
        tx.execute(
            "UPDATE brand_kits SET website_urls = ?2, updated_at = ?3 WHERE id = ?1",
            params![kit_id, json, now],
        )?;
    }
    if let Some(colors) = &patch.brand_colors {
        for (i, c) in colors.iter().enumerate() {
            let hex = c.hex.trim_start_matches('#');
            if !c.hex.starts_with('#') || hex.len() != 6 || !hex.chars().all(|ch| ch.is_ascii_hexdigit()) {
                return Err(ApiError::bad(format!("brandColors[{i}].hex"), format!("\"{}\" is not a #RRGGBB colour", c.hex)));
            }
            if let Some(role) = &c.role {
                if !COLOR_ROLES.contains(&role.as_str()) {
                    return Err(ApiError::not_one_of(format!("brandColors[{i}].role"), role, COLOR_ROLES));
                }
            }
        }
        let json = serde_json::to_string(colors).map_err(ApiError::internal)?;
        tx.execute("UPDATE brand_kits SET brand_colors = ?2, updated_at = ?3 WHERE id = ?1", params![kit_id, json, now])?;
    }
    if let Some(typography) = &patch.typography {
        // Merges: a font left out keeps its value; `null` clears the whole typography.
        let old = kit_row(tx, account_id, kit_id)?.typography.unwrap_or_default();
        let merged = typography.as_ref().map(|t| {
            Typography {
                title_font: t.title_font.clone().or(old.title_font),
                body_font: t.body_font.clone().or(old.body_font),
            }
        });
        let json = merged.map(|t| serde_json::to_string(&t)).transpose().map_err(ApiError::internal)?;
        tx.execute("UPDATE brand_kits SET typography = ?2, updated_at = ?3 WHERE id = ?1", params![kit_id, json, now])?;
    }
    if let Some(assets) = &patch.assets {
        check_logos("assets", assets)?;
    }
    if let Some(logos) = &patch.logos {
        check_logos("logos", logos)?;
        let json = serde_json::to_string(logos).map_err(ApiError::internal)?;
        tx.execute("UPDATE brand_kits SET logos = ?2, updated_at = ?3 WHERE id = ?1", params![kit_id, json, now])?;
    }
    for (field, list) in [("brandAccounts", &patch.brand_accounts), ("inspirationAccounts", &patch.inspiration_accounts)] {
        for (i, entry) in list.iter().flatten().enumerate() {
            let ok = match entry {
                serde_json::Value::String(id) => !id.trim().is_empty(),
                serde_json::Value::Object(o) => o.get("handleOrUrl").and_then(|h| h.as_str()).is_some_and(|h| !h.trim().is_empty()),
                _ => false,
            };
            if !ok {
                return Err(ApiError::bad(
                    format!("{field}[{i}]"),
                    format!("`{field}[{i}]` must be a tracked-account id or `{{ \"platform\"?, \"handleOrUrl\" }}`"),
                ));
            }
        }
    }
    for (field, account_type, list) in
        [("brandAccounts", "brand", &patch.brand_accounts), ("inspirationAccounts", "inspiration", &patch.inspiration_accounts)]
    {
        if let Some(entries) = list {
            crate::routes::inspiration::set_kit_accounts(tx, account_id, kit_id, (field, account_type), entries, &now)?;
        }
    }
    if patch.extract == Some(true) && kit_row(tx, account_id, kit_id)?.website_urls.is_empty() {
        return Err(ApiError::bad("extract", "`extract` imports from the kit's first website; add one to `websiteUrls` first"));
    }
    match patch.archive {
        Some(true) => {
            tx.execute("UPDATE brand_kits SET is_archived = 1, updated_at = ?2 WHERE id = ?1", params![kit_id, now])?;
        }
        Some(false) => {
            return Err(ApiError::bad("archive", "`archive` can only be true; restore a kit with POST /archive and `archived: false`"))
        }
        None => {}
    }
    match patch.is_default {
        Some(true) => {
            tx.execute(
                "UPDATE brand_kits SET is_default = 0 WHERE account_id = ?1",
                [account_id],
            )?;
            tx.execute(
                "UPDATE brand_kits SET is_default = 1, updated_at = ?2 WHERE id = ?1",
                params![kit_id, now],
            )?;
        }
        Some(false) => {
            return Err(ApiError::bad(
                "isDefault",
                "`isDefault` can only be set to true; make another kit the default instead",
            ))
        }
        None => {}
    }
    Ok(())
}

/// A logo or asset entry names exactly one of `url` (http or https) or `outputId`; `layout` and `colorMode`
/// take the service's values.
fn check_logos(field: &str, logos: &[LogoInput]) -> ApiResult<()> {
    const LAYOUTS: &[&str] = &["horizontal", "stacked", "icon", "wordmark"];
    const COLOR_MODES: &[&str] = &["full_color", "light", "dark", "grayscale"];
    for (i, l) in logos.iter().enumerate() {
        match (&l.url, &l.output_id) {
            (Some(u), None) if u.starts_with("https://") || u.starts_with("http://") => {}
            (Some(u), None) => return Err(ApiError::bad(format!("{field}[{i}].url"), format!("\"{u}\" is not an http(s) URL"))),
            (None, Some(_)) => {}
            _ => return Err(ApiError::bad(format!("{field}[{i}]"), format!("`{field}[{i}]` needs exactly one of `url` or `outputId`"))),
        }
        for (name, value, valid) in [("layout", &l.layout, LAYOUTS), ("colorMode", &l.color_mode, COLOR_MODES)] {
            if let Some(v) = value {
                if !valid.contains(&v.as_str()) {
                    return Err(ApiError::not_one_of(format!("{field}[{i}].{name}"), v, valid));
                }
            }
        }
    }
    Ok(())
}

/// `POST /archive` for `brand_kit` and `brand_kit_section`: archives (`true`) or restores (`false`).
/// Unknown or another account's: 404. Archiving is soft: a restored section comes back with its
/// versions and history.
pub fn set_archived(
    conn: &rusqlite::Connection,
    account_id: &str,
    asset_type: &str,
    id: &str,
    archived: bool,
) -> crate::error::ApiResult<()> {
    let now = time::now_str();
    let n = match asset_type {
        "brand_kit_section" => conn.execute(
            "UPDATE brand_kit_sections SET is_archived = ?3, updated_at = ?4
             WHERE id = ?1 AND brand_kit_id IN (SELECT id FROM brand_kits WHERE account_id = ?2)",
            params![id, account_id, archived, now],
        )?,
        "brand_kit" => conn.execute(
            "UPDATE brand_kits SET is_archived = ?3, updated_at = ?4 WHERE id = ?1 AND account_id = ?2",
            params![id, account_id, archived, now],
        )?,
        other => {
            return Err(ApiError::InvalidValue {
                message: format!("`{other}` is not a brand-kit asset type: use brand_kit or brand_kit_section"),
                field: "assetType".into(),
                valid: vec!["brand_kit".into(), "brand_kit_section".into()],
            })
        }
    };
    if n == 0 {
        return Err(ApiError::not_found(if asset_type == "brand_kit" {
            "Brand kit"
        } else {
            "Brand kit section"
        }));
    }
    Ok(())
}

