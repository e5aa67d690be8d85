//! One entry point for every command by name, so web-shell (and anything else that speaks JSON) calls
//! exactly what the desktop shell calls.
use serde::de::DeserializeOwned;
use serde::Serialize;
use serde_json::Value;

use crate::commands as c;
use crate::error::{IpcCode, IpcError, IpcResult};
use crate::state::AppState;

/// The commands `dispatch` knows, for error messages and tests.
pub const COMMANDS: &[&str] = &[
    "app_info", "profiles_list", "profile_add", "profile_rename", "profile_remove", "profile_select", "key_set",
    "key_test", "sign_out", "balance", "spaces_list", "stages_list", "cards_list", "brand_kits_list",
    "board_load", "space_create", "space_rename", "space_archive", "stage_create", "stage_update", "stage_delete",
    "card_create", "card_move", "card_get", "card_update", "card_archive", "tags_list", "connected_accounts_list",
    "drafts_status", "drafts_sync", "drafts_resolve",
    "content_list", "projects_list", "project_create", "project_import", "media_upload", "card_publish",
    "models_list", "voices_list", "studio_quote", "studio_generate", "studio_jobs", "studio_cancel", "studio_retry",
    "studio_clear_finished", "card_attach_output", "media_library",
    "brand_kit_page", "brand_kit_sections", "brand_kit_save", "brand_kit_drafts", "brand_kit_draft_discard",
    "brand_kit_section_add", "brand_kit_section_archive", "brand_kit_history", "brand_kit_revert", "knowledge_list",
    "knowledge_search", "knowledge_add", "knowledge_remove",
];

/// Reads `args` into the command's argument struct; a bad field is a validation error naming it.
fn args<T: DeserializeOwned>(v: Value) -> IpcResult<T> {
    let v = if v.is_null() { Value::Object(Default::default()) } else { v };
    serde_path_to_error::deserialize(v).map_err(|e| {
        let path = e.path().to_string();
        let inner = e.into_inner().to_string();
        // serde names a missing field in its message only: lift it into `field`.
        let field = if path == "." {
            inner.split('`').nth(1).map(String::from).unwrap_or_default()
        } else {
            path
        };
        IpcError::validation(field, format!("Invalid arguments: {inner}"))
    })
}

fn out<T: Serialize>(r: IpcResult<T>) -> IpcResult<Value> {
    r.and_then(|v| serde_json::to_value(v).map_err(|e| IpcError::internal(e.to_string())))
}

pub async fn dispatch(state: &AppState, command: &str, a: Value) -> IpcResult<Value> {
    match command {
        "app_info" => out(c::app_info(state).await),
        "profiles_list" => out(c::profiles_list(state).await),
        "profile_add" => out(c::profile_add(state, args(a)?).await),
        "profile_rename" => out(c::profile_rename(state, args(a)?).await),
        "profile_remove" => out(c::profile_remove(state, args(a)?).await),
        "profile_select" => out(c::profile_select(state, args(a)?).await),
        "key_set" => out(c::key_set(state, args(a)?).await),
        "key_test" => out(c::key_test(state, args(a)?).await),
        "sign_out" => out(c::sign_out(state, args(a)?).await),
        "balance" => out(c::balance(state).await),
        "spaces_list" => out(c::spaces_list(state, args(a)?).await),
        "stages_list" => out(c::stages_list(state, args(a)?).await),
        "cards_list" => out(c::cards_list(state, args(a)?).await),
        "brand_kits_list" => out(c::brand_kits_list(state).await),
        "board_load" => out(c::board_load(state, args(a)?).await),
        "space_create" => out(c::space_create(state, args(a)?).await),
        "space_rename" => out(c::space_rename(state, args(a)?).await),
        "space_archive" => out(c::space_archive(state, args(a)?).await),
        "stage_create" => out(c::stage_create(state, args(a)?).await),
        "stage_update" => out(c::stage_update(state, args(a)?).await),
        "stage_delete" => out(c::stage_delete(state, args(a)?).await),
        "card_create" => out(c::card_create(state, args(a)?).await),
        "card_move" => out(c::card_move(state, args(a)?).await),
        "card_get" => out(c::card_get(state, args(a)?).await),
        "card_update" => out(c::card_update(state, args(a)?).await),
        "card_archive" => out(c::card_archive(state, args(a)?).await),
        "tags_list" => out(c::tags_list(state).await),
        "connected_accounts_list" => out(c::connected_accounts_list(state).await),
        "drafts_status" => out(c::drafts_status(state).await),
        "drafts_sync" => out(c::drafts_sync(state).await),
        "drafts_resolve" => out(c::drafts_resolve(state, args(a)?).await),
        "content_list" => out(c::content_list(state, args(a)?).await),
        "projects_list" => out(c::projects_list(state).await),
        "project_create" => out(c::project_create(state, args(a)?).await),
        "project_import" => out(c::project_import(state, args(a)?).await),
        "media_upload" => out(c::media_upload(state, args(a)?).await),
        "card_publish" => out(c::card_publish(state, args(a)?).await),
        "models_list" => out(c::models_list(state, args(a)?).await),
        "voices_list" => out(c::voices_list(state).await),
        "studio_quote" => out(c::studio_quote(state, args(a)?).await),
        "studio_generate" => out(c::studio_generate(state, args(a)?).await),
        "studio_jobs" => out(c::studio_jobs(state).await),
        "studio_cancel" => out(c::studio_cancel(state, args(a)?).await),
        "studio_retry" => out(c::studio_retry(state, args(a)?).await),
        "studio_clear_finished" => out(c::studio_clear_finished(state).await),
        "card_attach_output" => out(c::card_attach_output(state, args(a)?).await),
        "media_library" => out(c::media_library(state, args(a)?).await),
        "brand_kit_page" => out(c::brand_kit_page(state, args(a)?).await),
        "brand_kit_sections" => out(c::brand_kit_sections(state, args(a)?).await),
        "brand_kit_save" => out(c::brand_kit_save(state, args(a)?).await),
        "brand_kit_drafts" => out(c::brand_kit_drafts(state, args(a)?).await),
        "brand_kit_draft_discard" => out(c::brand_kit_draft_discard(state, args(a)?).await),
        "brand_kit_section_add" => out(c::brand_kit_section_add(state, args(a)?).await),
        "brand_kit_section_archive" => out(c::brand_kit_section_archive(state, args(a)?).await),
        "brand_kit_history" => out(c::brand_kit_history(state, args(a)?).await),
        "brand_kit_revert" => out(c::brand_kit_revert(state, args(a)?).await),
        "knowledge_list" => out(c::knowledge_list(state, args(a)?).await),
        "knowledge_search" => out(c::knowledge_search(state, args(a)?).await),
        "knowledge_add" => out(c::knowledge_add(state, args(a)?).await),
        "knowledge_remove" => out(c::knowledge_remove(state, args(a)?).await),
        other => Err(IpcError::new(IpcCode::Internal, format!("Unknown command “{other}”."))),
    }
}
