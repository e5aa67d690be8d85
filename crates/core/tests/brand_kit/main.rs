//! The brand-kit commands (docs/ipc.md, "Brand kit") against a real sandbox over HTTP: the summary page,
//! filtered reads, all-or-nothing saves with `expectedVersion`, two editors racing on one section (the
//! loser's text kept as a draft across a restart), history and a revert of a revert, add / archive /
//! restore, the knowledge base and its plan cap, and the removed field-model inputs.
#[path = "../common/mod.rs"]
mod common;
use api_client::{ApiError, Method, SectionFilter};
use common::{app_on, start_app, Remote};
use contentdesk_core::commands::{self as c, *};
use contentdesk_core::{ipc, AppState, IpcCode};
use contentdesk_ops::input::Paging;
use serde_json::json;

async fn kit_id(app: &AppState) -> String {
    let kits = c::brand_kits_list(app).await.unwrap();
    kits.iter().find(|k| k.is_default).unwrap_or(&kits[0]).id.clone()
}

async fn version_of(app: &AppState, kit: &str, key: &str) -> i64 {
    let page = c::brand_kit_page(app, BrandKitIdArgs { brand_kit_id: kit.into() }).await.unwrap();
    page.sections.iter().find(|s| s.key == key).unwrap_or_else(|| panic!("no section {key}")).version
}

/// What the service has now, read by someone else.
async fn body_on_service(remote: &Remote, kit: &str, key: &str) -> (i64, String) {
    let v = remote.client().brand_kits().get_sections(kit, &SectionFilter::keys([key])).await.unwrap();
    let s = &v.sections[0];
    (s.version, s.body.clone())
}

fn edit(key: &str, body: &str, expected_version: i64) -> SectionEdit {
    SectionEdit { key: key.into(), body: Some(body.into()), expected_version, ..Default::default() }
}

async fn save(app: &AppState, kit: &str, sections: Vec<SectionEdit>) -> contentdesk_core::IpcResult<Vec<api_types::BrandKitSection>> {
    c::brand_kit_save(app, BrandKitSaveArgs { brand_kit_id: kit.into(), sections }).await
}

mod sections;
mod knowledge;
mod inputs;
