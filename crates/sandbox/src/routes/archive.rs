//! `POST /archive` (fact sheet 2.12): archives or restores a card, space, project, brand kit or brand-kit
//! section. Archiving is a timestamp only, never a delete: a restored card keeps its schedule and all
//! else. Needs `favorites:write` (checked by the gate).
use crate::auth::Caller;
use crate::error::{ApiError, ApiResult};
use crate::extract::AppJson;
use crate::state::AppState;
use crate::tables::archived::{set_archived, Archivable};
use crate::tables::brand_kits;
use api_types::{ArchiveRequest, ArchiveResult, ARCHIVE_ASSET_TYPES};
use axum::extract::State;
use axum::Json;

/// Archiving has no table of its own: it stamps the record's own `archived_at`.
pub const SCHEMA: &str = "";

pub(crate) async fn archive(
    State(state): State<AppState>,
    caller: Caller,
    AppJson(body): AppJson<ArchiveRequest>,
) -> ApiResult<Json<ArchiveResult>> {
    let archived = body.archived.unwrap_or(true);
    let account = &caller.account_id;
    state.db().tx(|tx| match body.asset_type.as_str() {
        "card" => set_archived(tx, Archivable::Card, account, &body.id, archived),
        "space" => set_archived(tx, Archivable::Space, account, &body.id, archived),
        "project" => set_archived(tx, Archivable::Project, account, &body.id, archived),
        "brand_kit" | "brand_kit_section" => {
            brand_kits::set_archived(tx, account, &body.asset_type, &body.id, archived)
        }
        other => Err(ApiError::InvalidValue {
            message: format!(
                "assetType {other:?} cannot be archived; valid values: {}",
                ARCHIVE_ASSET_TYPES.join(", ")
            ),
            field: "assetType".into(),
            valid: ARCHIVE_ASSET_TYPES.iter().map(|s| s.to_string()).collect(),
        }),
    })?;
    Ok(Json(ArchiveResult { archived }))
}
