//! `POST /archive` (fact sheet 2.12): archives or restores a card, space, project, brand kit or brand-kit
//! section. Archiving is a timestamp only, never a delete: a restored card keeps its schedule and all
//! else. Needs `favorites:write` (checked by the gate).
use crate::auth::Caller;
use crate::error::{ApiError, ApiResult};
use crate::extract::AppJson;
use crate::state::AppState;
use crate::tables::archived::{set_archived, Archivable};
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
    let what = Archivable::of_asset_type(&body.asset_type).ok_or_else(|| ApiError::InvalidValue {
        message: format!("assetType {:?} cannot be archived; valid values: {}", body.asset_type, ARCHIVE_ASSET_TYPES.join(", ")),
        field: "assetType".into(),
        valid: ARCHIVE_ASSET_TYPES.iter().map(|s| s.to_string()).collect(),
    })?;
    state.db().tx(|tx| set_archived(tx, what, account, &body.id, archived))?;
    Ok(Json(ArchiveResult { archived }))
}
