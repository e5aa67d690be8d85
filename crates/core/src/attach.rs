//! What the card editor attaches and publishes (docs/ipc.md, "Attach and publish"): inspiration posts to
//! pick by `contentId`, projects made or imported linked to a card (`cardId` → `linkedCardId`), local
//! files uploaded to media (ticket, PUT, complete → `outputId`) and publishing a card now. Each is a plain
//! async function over the session (`session::Session`), like those in `planner`.
use api_types::{
    ContentList, CreateProject, Project, ProjectCreated, PublishRequest,
    PublishResult, UploadedMedia,
};
pub use contentdesk_ops::planner::CardPublishInput;
pub use contentdesk_ops::projects::{ProjectCreateInput, ProjectImportInput};
pub use contentdesk_ops::inspiration::ContentListInput;

use crate::error::{IpcError, IpcResult};
use crate::session::Session;

/// The largest file `media_upload` sends: the catalogue's (the sandbox's upload limit; the fact sheet names
/// no number; the service answers 400 on `sizeBytes` past its own).
pub const MAX_UPLOAD_BYTES: usize = contentdesk_ops::MAX_UPLOAD_BYTES as usize;
pub use contentdesk_ops::media::{MediaUploadInput, UPLOAD_TYPE_PREFIXES};

fn non_empty(v: Option<String>) -> Option<String> {
    v.map(|s| s.trim().to_string()).filter(|s| !s.is_empty())
}

fn check_card_id(card_id: &str) -> IpcResult<String> {
    let id = card_id.trim();
    if id.is_empty() {
        return Err(IpcError::validation("cardId", "Choose the card to link it to."));
    }
    Ok(id.to_string())
}

/// A page of inspiration posts (creator, handle, outlier score, views, thumbnail, `id` = the `contentId`
/// to attach), best outliers first.
/// Takes the catalogue's `ContentListInput`, its rules and its query (as `cdesk content list`).
pub async fn content_list(session: &impl Session, args: ContentListInput) -> IpcResult<ContentList> {
    args.check()?;
    let query = args.query();
    Ok(session.client().await?.inspiration().content().list(&query).await?)
}

pub async fn projects_list(session: &impl Session) -> IpcResult<Vec<Project>> {
    Ok(session.client().await?.projects().list().await?)
}

/// The answer always carries `linkedCardId` beside the project (wherever the service put it).
fn linked(mut created: ProjectCreated) -> ProjectCreated {
    created.linked_card_id = created.linked_card().map(String::from);
    if created.project.linked_card_id.is_none() {
        created.project.linked_card_id = created.linked_card_id.clone();
    }
    created
}

/// Takes the catalogue's `ProjectCreateInput` and its rules (as `cdesk project create` and
/// `create_project`); the app always links the project to a card and names it.
pub async fn project_create(session: &impl Session, args: ProjectCreateInput) -> IpcResult<ProjectCreated> {
    args.check()?;
    let card_id = check_card_id(args.card_id.as_deref().unwrap_or_default())?;
    let title = args.title.as_deref().map(str::trim).unwrap_or_default();
    if title.is_empty() {
        return Err(IpcError::validation("title", "Give the project a title."));
    }
    let req = CreateProject {
        r#type: non_empty(args.project_type),
        title: Some(title.to_string()),
        orientation: non_empty(args.orientation),
        brand_kit_id: non_empty(args.brand_kit_id),
        card_id: Some(card_id),
        ..Default::default()
    };
    Ok(linked(session.client().await?.projects().create(&req).await?))
}

/// Takes the catalogue's `ProjectImportInput` and its rules (as `cdesk project import` and
/// `import_project`); the app always links the project to a card.
pub async fn project_import(session: &impl Session, args: ProjectImportInput) -> IpcResult<ProjectCreated> {
    let card_id = check_card_id(args.card_id.as_deref().unwrap_or_default())?;
    let req = ProjectImportInput { card_id: Some(card_id), ..args }.request()?;
    Ok(linked(session.client().await?.projects().import(&req).await?))
}

/// Takes the catalogue's `MediaUploadInput` and its rules (as `cdesk media upload` and `upload_media`:
/// [`MediaUploadInput::check`], name, type, size, validation naming the field), then ticket → PUT →
/// complete. The web view sends the file's bytes (`contentBase64`), never a path. The answer's `outputId`
/// attaches the file to a card (`assets: [{ outputId }]`).
pub async fn media_upload(session: &impl Session, args: MediaUploadInput) -> IpcResult<UploadedMedia> {
    if args.file.is_some() {
        return Err(IpcError::validation("file", "The app does not take `file` here; send the file's bytes as contentBase64 (cdesk media upload takes a path)."));
    }
    let up = args.read(contentdesk_ops::FileAccess::Trusted).await?;
    let uploaded = session.client().await?.media().upload(&up.name, &up.content_type, up.bytes).await?;
    tracing::info!(output = %uploaded.output_id, "file uploaded");
    Ok(uploaded)
}

/// Publishes the card's posts now (`publish:write`; a 403 is `missingScope` naming it). Answers each
/// platform's outcome: success with the post's URL, or its error.
pub async fn card_publish(session: &impl Session, args: CardPublishInput) -> IpcResult<PublishResult> {
    args.check()?;
    let card_id = args.card_id.trim().to_string();
    let req = PublishRequest { platform: non_empty(args.platform), ..Default::default() };
    let client = session.client().await?;
    // Never sent twice blindly: the posts are read first, so that when the answer is lost a second read
    // shows which were published by this request.
    let wanted = |p: &api_types::Post| req.platform.as_ref().is_none_or(|w| p.platform.as_ref() == Some(w));
    let before = client.cards().get(&card_id).await?;
    let published_before: Vec<(String, Option<String>)> =
        before.posts.iter().filter(|p| wanted(p)).map(|p| (p.id.clone(), p.published_at.clone())).collect();
    match client.cards().publish(&card_id, &req).await {
        Ok(r) => Ok(r),
        Err(e) if crate::planner::answer_lost(&e) => {
            let mut err = IpcError::from(e);
            match client.cards().get(&card_id).await {
                Ok(after) => {
                    let results: Vec<api_types::PublishOutcome> = after
                        .posts
                        .iter()
                        .filter(|p| wanted(p) && p.published_at.is_some())
                        .filter(|p| !published_before.iter().any(|(id, at)| id == &p.id && at == &p.published_at))
                        .map(|p| api_types::PublishOutcome {
                            success: true,
                            platform: p.platform.clone().unwrap_or_default(),
                            post_id: Some(p.id.clone()),
                            url: None,
                            error: None,
                        })
                        .collect();
                    if results.is_empty() {
                        err.message = format!("{} Nothing was published (checked); publishing again is safe.", err.message);
                        Err(err)
                    } else {
                        tracing::info!(card = %card_id, "publish's answer was lost; the read shows it landed");
                        Ok(PublishResult { card_id, published_count: results.len() as i64, failed_count: 0, results })
                    }
                }
                Err(_) => {
                    err.message = format!("{} The posts may have been published: open the card and check before publishing again.", err.message);
                    Err(err)
                }
            }
        }
        Err(e) => Err(e.into()),
    }
}
