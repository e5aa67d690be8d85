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
    roles, BrandKit, BrandKitList, BrandKitQuery, BrandKitSection, BrandKitSectionsView, BrandKitSummaryView, SectionConflict, SectionRevision, SectionSummary,
    SectionWrite, UpdateBrandKit, LogoInput, Typography, COLOR_ROLES, REMOVED_INPUTS, SECTION_POSITIONS, STARTER_SECTIONS, TABS, WIDTHS,
};
use axum::extract::{Path, Request, State};
use axum::response::{IntoResponse, Response};
use axum::Json;
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

/// The `detail` values of a kit read.
mod fields;
mod read_modes;
mod rows;
mod sections;
mod seed;
use fields::*;
use read_modes::*;
pub use read_modes::outline;
use rows::*;
use sections::*;
use crate::tables::brand_kits::{KIT_COLUMNS, KitRow, kit_from_row, kit_row};
pub use seed::seed_demo;

const DETAILS: &[&str] = &["summary", "full"];
/// Where a body written through this API came from (`SectionRevision.bodySource`).
const SOURCE_API: &str = "api";

// ---------------------------------------------------------------------------------------------------
// Handlers
// ---------------------------------------------------------------------------------------------------

/// Query of `GET /brand-kits`.
#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct ListQuery {
    /// `true`: only favorited kits.
    #[serde(default)]
    favorited: Option<bool>,
    /// `true`: the archived kits instead of the live ones.
    #[serde(default)]
    archived: Option<bool>,
}

pub(crate) async fn list_kits(
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

pub(crate) async fn read_kit(
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
        ReadMode::Archived(filter) => {
            let sections = all_sections(&conn, &kit.summary.id)?
                .into_iter()
                .filter(|s| s.archived && filter.matches(s))
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
pub(crate) async fn patch_kit(
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
