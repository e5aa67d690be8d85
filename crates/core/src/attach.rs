//! What the card editor attaches and publishes (docs/ipc.md, "Attach and publish"): inspiration posts to
//! pick by `contentId`, projects made or imported linked to a card (`cardId` → `linkedCardId`), local
//! files uploaded to media (ticket, PUT, complete → `outputId`) and publishing a card now. Each is a plain
//! async function over the session (`session::Session`), like those in `planner`.
use api_types::{
    ContentList, CreateProject, Project, ProjectCreated, PublishRequest,
    PublishResult, UploadedMedia,
};
use base64::Engine;
pub use contentdesk_ops::planner::CardPublishInput;
pub use contentdesk_ops::projects::{ProjectCreateInput, ProjectImportInput};
pub use contentdesk_ops::inspiration::ContentListInput;
use serde::{Deserialize, Serialize};
use ts_rs::TS;

use crate::error::{IpcError, IpcResult};
use crate::session::Session;

/// The largest file `media_upload` sends: the sandbox's upload limit (the fact sheet names no number;
/// the service answers 400 on `sizeBytes` past its own).
pub const MAX_UPLOAD_BYTES: usize = 50 * 1024 * 1024;
/// The kinds of file media uploads take (fact sheet 2.4: image, video or audio MIME types).
pub const UPLOAD_TYPE_PREFIXES: &[&str] = &["image/", "video/", "audio/"];

/// A file from the web view: its bytes as base64 (works the same in the desktop window and a browser).
#[derive(Clone, Deserialize, Serialize, TS)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct MediaUploadArgs {
    pub file_name: String,
    /// A MIME type: `image/…`, `video/…` or `audio/…`.
    pub content_type: String,
    /// Standard base64; a `data:…;base64,` prefix is accepted.
    pub data_base64: String,
}

impl std::fmt::Debug for MediaUploadArgs {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("MediaUploadArgs")
            .field("file_name", &self.file_name)
            .field("content_type", &self.content_type)
            .field("data_base64", &format_args!("<{} characters>", self.data_base64.len()))
            .finish()
    }
}


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

/// Checks the file locally (name, type, size: validation naming the field), then ticket → PUT → complete.
/// The answer's `outputId` attaches the file to a card (`assets: [{ outputId }]`).
pub async fn media_upload(session: &impl Session, args: MediaUploadArgs) -> IpcResult<UploadedMedia> {
    let file_name = args.file_name.trim();
    if file_name.is_empty() {
        return Err(IpcError::validation("fileName", "The file has no name."));
    }
    if file_name.chars().count() > 255 {
        return Err(IpcError::validation("fileName", "The file's name is too long: at most 255 characters."));
    }
    let content_type = args.content_type.split(';').next().unwrap_or("").trim().to_ascii_lowercase();
    let typed = content_type.split_once('/').is_some_and(|(a, b)| !a.is_empty() && !b.is_empty());
    if !typed || !UPLOAD_TYPE_PREFIXES.iter().any(|p| content_type.starts_with(p)) {
        let shown = if args.content_type.trim().is_empty() { "an unknown type" } else { args.content_type.trim() };
        return Err(IpcError::validation(
            "contentType",
            format!("Only images, videos and audio can be uploaded; “{file_name}” is {shown}."),
        ));
    }
    let data = args.data_base64.trim();
    let data = match data.split_once(";base64,") {
        Some((head, rest)) if head.starts_with("data:") => rest,
        _ => data,
    };
    let too_big = || {
        IpcError::validation(
            "dataBase64",
            format!("“{file_name}” is larger than the upload limit of {} MB.", MAX_UPLOAD_BYTES / (1024 * 1024)),
        )
    };
    // Refused before decoding when the text alone says it is too large.
    if data.len() / 4 * 3 > MAX_UPLOAD_BYTES + 3 {
        return Err(too_big());
    }
    let bytes = base64::engine::general_purpose::STANDARD
        .decode(data)
        .map_err(|e| IpcError::validation("dataBase64", format!("The file's data is not valid base64 ({e}).")))?;
    if bytes.is_empty() {
        return Err(IpcError::validation("dataBase64", format!("“{file_name}” is empty.")));
    }
    if bytes.len() > MAX_UPLOAD_BYTES {
        return Err(too_big());
    }
    let uploaded = session.client().await?.media().upload(file_name, &content_type, bytes).await?;
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
