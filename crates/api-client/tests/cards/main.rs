//! Cards (spec §4 "Cards" rules 1–8, "Archive"): declarative posts and assets, carousel order, schedule,
//! the 400s for bad entries, the 404s for what the caller cannot see, and the scopes of writes.
#[path = "../common/mod.rs"]
mod common;
use api_types::{
    scopes, ArchiveRequest, CardAssetInput, CardDetail, CardQuery, ContentQuery, ContentType,
    CreateCard, CreateProject, GenerateRequest, ModelKind, PostInput, UpdateCard,
};
use common::*;
use contentdesk_api_client::{ApiError, Client};

async fn new_card(client: &Client, title: &str) -> CardDetail {
    let created = ok(client
        .cards()
        .create(&CreateCard {
            title: title.into(),
            platform: "instagram".into(),
            ..Default::default()
        })
        .await);
    ok(client.cards().get(&created.id).await)
}

/// A finished image output of the caller's, as a token.
async fn output(client: &Client) -> String {
    let models = ok(client.models().list(Some(ContentType::Image)).await);
    let m = models
        .iter()
        .find(|m| m.kind == ModelKind::Generate)
        .expect("image model");
    let r = ok(client
        .studio()
        .generate(&GenerateRequest {
            model_id: m.model_id.clone(),
            prompt: Some("tile".into()),
            ..Default::default()
        })
        .await);
    let opts = contentdesk_api_client::WaitOptions {
        initial: Some(std::time::Duration::from_millis(30)),
        ..Default::default()
    };
    ok(client.studio().wait(&r.output_id, opts).await);
    r.output_id
}

async fn content_id(client: &Client) -> String {
    let list = ok(client
        .inspiration()
        .content()
        .list(&ContentQuery::default())
        .await);
    list.outliers
        .first()
        .expect("seeded inspiration content")
        .id
        .clone()
}

async fn project_id(client: &Client) -> String {
    ok(client
        .projects()
        .create(&CreateProject {
            title: Some("Cut".into()),
            ..Default::default()
        })
        .await)
    .project
    .id
}

/// The same instant whether or not zero milliseconds are written (the format has its own test).
fn instant(t: &Option<String>) -> Option<String> {
    t.as_ref().map(|t| t.replace(".000Z", "Z"))
}

fn validation_field(e: &ApiError) -> Option<&str> {
    match e {
        ApiError::Validation { field, .. } => field.as_deref(),
        _ => None,
    }
}


mod rules_1_to_3;
mod rules_4_to_6;
mod rules_7_8_notes_archive;
mod preflight;
#[allow(unused_imports)]
use rules_1_to_3::*;
#[allow(unused_imports)]
use rules_4_to_6::*;
#[allow(unused_imports)]
use rules_7_8_notes_archive::*;
