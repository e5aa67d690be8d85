//! The media library: upload a file (ticket → PUT of the bytes → complete, with the bytes' progress),
//! import one by URL, list what is there.
use crate::input::{Paging, PagingHelp};
use crate::{out, save, Cx, Effect, Meta, OpError, Operation, ProgressEvent};
use api_types::{ImportMedia, MediaQuery};
use schemars::JsonSchema;
use serde::Deserialize;
use serde_json::Value;
use std::path::PathBuf;
use std::sync::Arc;

#[derive(Debug, Clone, clap::Args, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct MediaUploadInput {
    /// The file to upload (a path on this computer).
    #[arg(value_name = "FILE")]
    pub file: PathBuf,
    /// Its MIME type (e.g. image/png); guessed from the extension when absent.
    #[arg(long)]
    #[serde(default)]
    pub content_type: Option<String>,
    /// The name it gets in the library; the file's own name when absent.
    #[arg(long = "name")]
    #[serde(default)]
    pub name: Option<String>,
}

pub struct MediaUpload;
impl Operation for MediaUpload {
    type Input = MediaUploadInput;
    const META: Meta = Meta {
        path: &["media", "upload"],
        tool: "upload_media",
        summary: "Upload a file to the media library and get its outputId and URL",
        details: "Free. The outputId (as an output token) can then be a reference of a render or an asset of a card. Each call uploads again: a second upload of the same file is a second library item (import_media by URL is idempotent).",
        effect: Effect::Write,
        idempotent: false,
        scope: Some(api_types::scopes::ASSETS_WRITE),
    };
    async fn run(cx: Cx, i: MediaUploadInput) -> Result<Value, OpError> {
        let path = i.file.clone();
        let bytes = tokio::task::spawn_blocking(move || std::fs::read(&path))
            .await
            .map_err(|e| OpError::Internal(format!("could not read the file: {e}")))?
            .map_err(|e| OpError::usage("file", format!("cannot read {}: {e}", i.file.display())))?;
        let name = match i.name.filter(|n| !n.trim().is_empty()) {
            Some(n) => n,
            None => i.file.file_name().and_then(|n| n.to_str()).unwrap_or("upload").to_string(),
        };
        let content_type = i.content_type.filter(|t| !t.trim().is_empty()).unwrap_or_else(|| save::content_type_of(&i.file).to_string());
        let progress = cx.progress.clone();
        progress.event(ProgressEvent::Bytes { done: 0, total: bytes.len() as u64 });
        let on_bytes: api_client::OnBytes = Arc::new(move |done, total| progress.event(ProgressEvent::Bytes { done, total }));
        out(cx.client.media().upload_with_progress(&name, &content_type, bytes, on_bytes).await?)
    }
}

#[derive(Debug, Clone, clap::Args, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct MediaImportInput {
    /// The file's URL (http or https).
    #[arg(value_name = "URL")]
    pub url: String,
    /// Its MIME type, when the URL does not say.
    #[arg(long)]
    #[serde(default)]
    pub content_type: Option<String>,
    /// The name it gets in the library.
    #[arg(long = "name")]
    #[serde(default)]
    pub file_name: Option<String>,
}

pub struct MediaImport;
impl Operation for MediaImport {
    type Input = MediaImportInput;
    const META: Meta = Meta {
        path: &["media", "import"],
        tool: "import_media",
        summary: "Import a file into the media library by its URL",
        details: "Free. Idempotent by content: importing the same file again returns the same outputId with alreadyExisted: true.",
        effect: Effect::Write,
        idempotent: true,
        scope: Some(api_types::scopes::ASSETS_WRITE),
    };
    async fn run(cx: Cx, i: MediaImportInput) -> Result<Value, OpError> {
        let req = ImportMedia { url: i.url, content_type: i.content_type, file_name: i.file_name, ..Default::default() };
        out(cx.client.media().import(&req).await?)
    }
}

/// A page of the media library: `media list`, `list_media` and the app's `media_library` take this one
/// input (the page's rule: [`Paging::check`]).
#[derive(Debug, Clone, Default, clap::Args, Deserialize, serde::Serialize, JsonSchema, ts_rs::TS)]
#[serde(rename_all = "camelCase")]
pub struct MediaListInput {
    /// `creations` (the default: renders and boards), `uploads` (uploads and imports), `stock` or `all`.
    #[arg(long)]
    #[serde(default)]
    #[ts(optional)]
    pub source: Option<String>,
    /// Media types, comma-separated: image, video, audio, transcript.
    #[arg(long = "type")]
    #[serde(default, alias = "type")]
    #[ts(optional)]
    pub content_type: Option<String>,
    /// `creation`, `board`, `look` or `upload`.
    #[arg(long)]
    #[serde(default)]
    #[ts(optional)]
    pub kind: Option<String>,
    /// `processing`, `completed` or `failed`.
    #[arg(long)]
    #[serde(default)]
    #[ts(optional)]
    pub status: Option<String>,
    #[command(flatten)]
    #[serde(flatten)]
    pub page: Paging<MediaPage>,
    /// What the app sent that this input does not name (refused by `check`).
    #[arg(skip)]
    #[serde(flatten, skip_serializing)]
    #[schemars(skip)]
    #[ts(skip)]
    pub unknown: crate::input::Unknown,
}

impl MediaListInput {
    /// The rules of a page of media, in every face: 1 to 100 at a time, no field it does not name.
    pub fn check(&self) -> Result<(), OpError> {
        self.unknown.refuse()?;
        self.page.check()
    }
}

#[derive(Debug, Clone, Default)]
pub struct MediaPage;
impl PagingHelp for MediaPage {
    const LIMIT: &str = "At most this many, 1 to 100 (the service's default: 50).";
}

pub struct MediaList;
impl Operation for MediaList {
    type Input = MediaListInput;
    const META: Meta = Meta {
        path: &["media", "list"],
        tool: "list_media",
        summary: "List the media library, newest first: renders, boards, uploads and imports",
        details: "Free. Each item's output token is `<id>-<variant + 1>` (or its mediaId): use it as a reference or a card asset. Renders are listed by default; source uploads lists uploads and imports.",
        effect: Effect::Read,
        idempotent: true,
        scope: None,
    };
    async fn run(cx: Cx, i: MediaListInput) -> Result<Value, OpError> {
        i.check()?;
        let query = MediaQuery { source: i.source, content_type: i.content_type, status: i.status, kind: i.kind, limit: i.page.limit, offset: i.page.offset };
        out(cx.client.media().list(&query).await?)
    }
}
