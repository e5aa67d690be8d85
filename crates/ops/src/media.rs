//! The media library: upload a file (ticket → PUT of the bytes → complete, with the bytes' progress),
//! import one by URL, list what is there.
use crate::input::{Paging, PagingHelp};
use crate::{out, save, Cx, Effect, Meta, OpError, Operation, ProgressEvent};
use api_types::{ImportMedia, MediaQuery};
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use serde_json::Value;
use std::path::PathBuf;
use std::sync::Arc;
use ts_rs::TS;

/// An upload: `cdesk media upload`, the agent tool `upload_media` and the app's `media_upload` take this
/// one input and its rules ([`MediaUploadInput::check`], and [`MediaUploadInput::read`] for the bytes).
#[derive(Clone, clap::Args, Deserialize, Serialize, JsonSchema, TS)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct MediaUploadInput {
    /// The file to upload: a path on the computer running cdesk (not offered by a hosted server).
    #[arg(value_name = "FILE", required = true)]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(skip)]
    pub file: Option<PathBuf>,
    /// Instead of file: the file's bytes, base64 (at most 1 MiB; for larger files use file, or import_media with a URL).
    #[arg(skip)]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub content_base64: Option<String>,
    /// Its MIME type, e.g. `image/png`; guessed from the name's extension when absent.
    #[arg(long)]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub content_type: Option<String>,
    /// The name it gets in the library; the file's own name when absent (needed with contentBase64).
    #[arg(long = "name")]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub name: Option<String>,
}

/// The bytes are never shown (an upload's text can be 67 MB).
impl std::fmt::Debug for MediaUploadInput {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("MediaUploadInput")
            .field("file", &self.file)
            .field("content_base64", &self.content_base64.as_ref().map(|d| format!("<{} characters>", d.len())))
            .field("content_type", &self.content_type)
            .field("name", &self.name)
            .finish()
    }
}

/// A file ready to send: checked by [`MediaUploadInput::read`].
#[derive(Debug)]
pub struct Upload {
    pub name: String,
    pub content_type: String,
    pub bytes: Vec<u8>,
}

/// The longest name a file gets in the library.
pub const MAX_NAME_CHARS: usize = 255;
/// The kinds of file an upload takes (fact sheet 2.4: image, video or audio MIME types).
pub const UPLOAD_TYPE_PREFIXES: &[&str] = &["image/", "video/", "audio/"];

impl MediaUploadInput {
    /// The rules of an upload, checked before anything is read or sent, in every face: one source (a path
    /// or inline bytes; no path on a hosted server), a name of words and at most [`MAX_NAME_CHARS`]
    /// characters (needed with inline bytes), an image, video or audio type (given, or guessed from the
    /// name), and inline text no longer than the limit allows (the app and the shell: [`MAX_UPLOAD_BYTES`];
    /// an agent: [`MAX_INLINE_BYTES`]).
    pub fn check(&self, files: FileAccess) -> Result<(), OpError> {
        match (&self.file, &self.content_base64) {
            (Some(_), Some(_)) => return Err(OpError::usage("file", "give file or contentBase64, not both")),
            (None, None) => return Err(OpError::usage("file", "give the file: file (a path) or contentBase64 (its bytes)")),
            (Some(_), None) if files == FileAccess::Inline => {
                return Err(OpError::usage("file", format!("this server is hosted: it reads no path (a path names its disk, not yours); send the bytes as contentBase64 with a name (at most {} MiB), or a URL to import_media", MAX_INLINE_BYTES / (1024 * 1024))))
            }
            _ => {}
        }
        let name = self.name()?;
        if self.content_base64.is_some() && name.is_none() {
            return Err(OpError::usage("name", "contentBase64 needs a name (e.g. cover.png)"));
        }
        let shown = name.as_deref().unwrap_or("the file");
        let content_type = self.content_type(name.as_deref());
        let typed = content_type.split_once('/').is_some_and(|(a, b)| !a.is_empty() && !b.is_empty());
        if !typed || !UPLOAD_TYPE_PREFIXES.iter().any(|p| content_type.starts_with(p)) {
            return Err(OpError::usage("contentType", format!("Only images, videos and audio can be uploaded; “{shown}” is {content_type}.")));
        }
        if let Some(text) = &self.content_base64 {
            if base64_text(text).len() / 4 * 3 > inline_limit(files) + 3 {
                return Err(too_big_inline(files, shown));
            }
        }
        Ok(())
    }

    /// The name given, trimmed, else the file's own; `None`: neither. A blank or too long name is refused.
    fn name(&self) -> Result<Option<String>, OpError> {
        if let Some(given) = &self.name {
            let name = given.trim();
            if name.is_empty() {
                return Err(OpError::usage("name", "The file has no name."));
            }
            if name.chars().count() > MAX_NAME_CHARS {
                return Err(OpError::usage("name", format!("The file's name is too long: at most {MAX_NAME_CHARS} characters.")));
            }
            return Ok(Some(name.to_string()));
        }
        Ok(self.file.as_ref().map(|f| f.file_name().and_then(|n| n.to_str()).unwrap_or("upload").to_string()))
    }

    /// The type given (lowercase, without parameters), else guessed from the file's extension (a path's,
    /// else the name's).
    fn content_type(&self, name: Option<&str>) -> String {
        match self.content_type.as_deref().map(|t| t.split(';').next().unwrap_or("").trim().to_ascii_lowercase()).filter(|t| !t.is_empty()) {
            Some(t) => t,
            None => save::content_type_of(self.file.as_deref().unwrap_or(std::path::Path::new(name.unwrap_or("")))).to_string(),
        }
    }

    /// The file to send, after [`MediaUploadInput::check`]: its bytes read (a path) or decoded (inline),
    /// not empty, at most the limit; for an agent, bytes that are the media their type says.
    pub async fn read(self, files: FileAccess) -> Result<Upload, OpError> {
        self.check(files)?;
        let name = self.name()?.unwrap_or_else(|| "upload".into());
        let content_type = self.content_type(Some(&name));
        let field = if self.content_base64.is_some() { "contentBase64" } else { "file" };
        let bytes = match (self.file, self.content_base64) {
            (Some(file), _) => file_bytes(file, files).await?,
            (None, Some(text)) => inline_bytes(&text, files, &name)?,
            (None, None) => unreachable!("check refuses an upload without a source"),
        };
        if bytes.is_empty() {
            return Err(OpError::usage(field, format!("“{name}” is empty.")));
        }
        if files != FileAccess::Trusted {
            check_media(&bytes, &content_type, field)?;
        }
        Ok(Upload { name, content_type, bytes })
    }
}

/// The largest file an upload sends (the service's limit, 50 MiB); checked before the file is read.
pub const MAX_UPLOAD_BYTES: u64 = 50 * 1024 * 1024;
/// The largest file an agent sends inline as `contentBase64` (its text, 1.33x, must fit in one tool
/// call's arguments: 2 MiB).
pub const MAX_INLINE_BYTES: usize = 1024 * 1024;

/// What an upload may read ([`Cx::files`]): the face decides, the one operation obeys.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum FileAccess {
    /// The shell and the app: the user names the file; any path, any bytes (the service judges them).
    #[default]
    Trusted,
    /// An agent on the user's computer (`cdesk mcp` over stdio): a path, but only a regular file whose
    /// first bytes are an image, a video or audio of the type given, so an agent talked into it cannot
    /// send a key file, a config or `/proc/self/environ`; inline bytes checked the same way.
    Media,
    /// A hosted agent server (`cdesk mcp --http`): no path at all (it would name the server's disk, not
    /// the caller's); inline bytes only, checked as for [`FileAccess::Media`].
    Inline,
}

/// The kinds of media a file's first bytes say it is (`image`, `video`, `audio`); empty for anything
/// else (text, archives, executables, SVG: the library takes no scripts). Containers that hold sound or
/// pictures (MP4/MOV/M4A, Matroska/WebM, Ogg) may be either.
pub fn sniffed_kinds(head: &[u8]) -> &'static [&'static str] {
    let at = |i: usize, m: &[u8]| head.get(i..i + m.len()) == Some(m);
    if at(0, b"\x89PNG\r\n\x1a\n") || at(0, b"\xff\xd8\xff") || at(0, b"GIF87a") || at(0, b"GIF89a") || (at(0, b"RIFF") && at(8, b"WEBP")) {
        return &["image"];
    }
    if at(4, b"ftyp") {
        return match head.get(8..12) {
            Some(b"avif" | b"avis" | b"heic" | b"heix" | b"mif1" | b"msf1") => &["image"],
            _ => &["video", "audio"],
        };
    }
    if at(0, b"\x1a\x45\xdf\xa3") || at(0, b"OggS") {
        return &["video", "audio"];
    }
    let mp3_frame = head.len() >= 2 && head[0] == 0xff && head[1] & 0xe0 == 0xe0;
    if (at(0, b"RIFF") && at(8, b"WAVE")) || at(0, b"ID3") || at(0, b"fLaC") || mp3_frame {
        return &["audio"];
    }
    &[]
}

/// The fence of an agent's upload: at most `max` bytes, and bytes that are the media `content_type`
/// says (`field`: where the refusal points).
fn check_media(bytes: &[u8], content_type: &str, field: &str) -> Result<(), OpError> {
    let declared = content_type.split('/').next().unwrap_or("").trim().to_ascii_lowercase();
    let kinds = sniffed_kinds(bytes);
    if kinds.is_empty() {
        return Err(OpError::usage(field, "not uploaded: the file is not an image, video or audio file (PNG, JPEG, GIF, WebP, AVIF/HEIC, MP4/MOV/M4A, WebM, Ogg, WAV, MP3, FLAC, by its first bytes); an agent uploads media only"));
    }
    if !kinds.contains(&declared.as_str()) {
        return Err(OpError::usage("contentType", format!("not uploaded: the file's bytes are {} but its type is {content_type}", kinds.join(" or "))));
    }
    Ok(())
}

/// The most bytes `contentBase64` carries: the upload limit for the app, [`MAX_INLINE_BYTES`] for an
/// agent (its text must fit in one tool call's arguments).
fn inline_limit(files: FileAccess) -> usize {
    if files == FileAccess::Trusted {
        MAX_UPLOAD_BYTES as usize
    } else {
        MAX_INLINE_BYTES
    }
}

fn too_big_inline(files: FileAccess, name: &str) -> OpError {
    if files == FileAccess::Trusted {
        return OpError::usage("contentBase64", format!("“{name}” is larger than the upload limit of {} MiB.", MAX_UPLOAD_BYTES / (1024 * 1024)));
    }
    OpError::usage("contentBase64", format!("not uploaded: more than {} MiB inline; give a URL to import_media instead", MAX_INLINE_BYTES / (1024 * 1024)))
}

/// The base64 of an inline file's text (an upload's `contentBase64`, a knowledge add's `fileData`), a
/// `data:…;base64,` prefix taken off.
pub(crate) fn base64_text(text: &str) -> &str {
    let text = text.trim();
    match text.split_once(";base64,") {
        Some((head, rest)) if head.starts_with("data:") => rest,
        _ => text,
    }
}

/// The bytes of `contentBase64`, at most [`inline_limit`], refused before decoding when the text alone is
/// too long.
fn inline_bytes(text: &str, files: FileAccess, name: &str) -> Result<Vec<u8>, OpError> {
    use base64::Engine as _;
    let text = base64_text(text);
    if text.len() / 4 * 3 > inline_limit(files) + 3 {
        return Err(too_big_inline(files, name));
    }
    let bytes = base64::engine::general_purpose::STANDARD.decode(text).map_err(|e| OpError::usage("contentBase64", format!("not valid base64: {e}")))?;
    if bytes.len() > inline_limit(files) {
        return Err(too_big_inline(files, name));
    }
    Ok(bytes)
}

/// The bytes of a local file: a regular file (not a device or a pipe that would never end), at most
/// [`MAX_UPLOAD_BYTES`], its size read before its bytes.
async fn file_bytes(path: PathBuf, files: FileAccess) -> Result<Vec<u8>, OpError> {
    let shown = path.display().to_string();
    tokio::task::spawn_blocking(move || {
        let cannot = |e: std::io::Error| OpError::usage("file", format!("cannot read {shown}: {e}"));
        let meta = std::fs::metadata(&path).map_err(cannot)?;
        if files != FileAccess::Trusted && !meta.is_file() {
            return Err(OpError::usage("file", format!("not uploaded: {shown} is not a regular file")));
        }
        if meta.len() > MAX_UPLOAD_BYTES {
            return Err(OpError::usage("file", format!("not uploaded: {shown} is {} bytes, over the upload limit of {} MiB", meta.len(), MAX_UPLOAD_BYTES / (1024 * 1024))));
        }
        std::fs::read(&path).map_err(cannot)
    })
    .await
    .map_err(|e| OpError::Internal(format!("could not read the file: {e}")))?
}

pub struct MediaUpload;
impl Operation for MediaUpload {
    type Input = MediaUploadInput;
    const META: Meta = Meta {
        path: &["media", "upload"],
        tool: "upload_media",
        summary: "Upload a file to the media library and get its outputId and URL",
        details: "Free. Images, video and audio only. The outputId (as an output token) can then be a reference of a render or an asset of a card. Each call uploads again (import_media by URL is idempotent).",
        effect: Effect::Write,
        idempotent: false,
        scope: Some(api_types::scopes::ASSETS_WRITE),
    };
    async fn run(cx: Cx, i: MediaUploadInput) -> Result<Value, OpError> {
        let Upload { name, content_type, bytes } = i.read(cx.files).await?;
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

#[cfg(test)]
mod tests {
    use super::*;
    use base64::Engine as _;

    #[test]
    fn first_bytes_say_the_kind_of_media() {
        let cases: &[(&[u8], &[&str])] = &[
            (b"\x89PNG\r\n\x1a\n\0\0\0\rIHDR", &["image"]),
            (b"\xff\xd8\xff\xe0\0\x10JFIF", &["image"]),
            (b"GIF89a\x01\0", &["image"]),
            (b"RIFF\0\0\0\0WEBPVP8 ", &["image"]),
            (b"\0\0\0\x1cftypavif", &["image"]),
            (b"\0\0\0\x18ftypmp42\0\0", &["video", "audio"]),
            (b"\0\0\0\x20ftypM4A \0\0", &["video", "audio"]),
            (b"\x1a\x45\xdf\xa3\x9f", &["video", "audio"]),
            (b"RIFF\0\0\0\0WAVEfmt ", &["audio"]),
            (b"ID3\x04\0", &["audio"]),
            (b"\xff\xfb\x90\x64", &["audio"]),
            (b"fLaC\0", &["audio"]),
            (b"-----BEGIN OPENSSH PRIVATE KEY-----", &[]),
            (b"<svg xmlns=\"http://www.w3.org/2000/svg\"><script>", &[]),
            (b"CONTENTHERO_API_KEY=ch_live_x\0PATH=/bin", &[]),
            (b"PK\x03\x04", &[]),
            (b"\x7fELF", &[]),
            (b"", &[]),
            (b"\x89PN", &[]),
        ];
        for (head, kinds) in cases {
            assert_eq!(sniffed_kinds(head), *kinds, "{:?}", String::from_utf8_lossy(head));
        }
    }

    #[test]
    fn an_agent_uploads_only_media_of_the_type_it_says() {
        let png = b"\x89PNG\r\n\x1a\n\0\0\0\rIHDR";
        assert!(check_media(png, "image/png", "file").is_ok());
        assert!(check_media(b"\0\0\0\x18ftypisom", "audio/mp4", "file").is_ok(), "an MP4 container may hold sound");
        let wrong = check_media(png, "video/mp4", "file").unwrap_err().to_string();
        assert!(wrong.contains("bytes are image but its type is video/mp4"), "{wrong}");
        let text = check_media(b"password=hunter2", "image/png", "contentBase64").unwrap_err();
        assert!(matches!(&text, OpError::Usage { field: Some(f), .. } if f == "contentBase64"), "{text:?}");
    }

    #[test]
    fn inline_bytes_are_capped_before_and_after_decoding() {
        let b64 = |n: usize| base64::engine::general_purpose::STANDARD.encode(vec![0u8; n]);
        let agent = |text: &str| inline_bytes(text, FileAccess::Media, "a.png");
        assert_eq!(agent(&b64(MAX_INLINE_BYTES)).unwrap().len(), MAX_INLINE_BYTES, "the limit itself passes");
        let over = agent(&b64(MAX_INLINE_BYTES + 1)).unwrap_err().to_string();
        assert!(over.contains("more than 1 MiB inline"), "{over}");
        assert_eq!(inline_bytes(&b64(MAX_INLINE_BYTES + 1), FileAccess::Trusted, "a.png").unwrap().len(), MAX_INLINE_BYTES + 1, "the app sends up to the upload limit");
        assert_eq!(agent("data:image/png;base64,iVBORw0KGgo=").unwrap(), b"\x89PNG\r\n\x1a\n");
        assert!(agent("not base64!").unwrap_err().to_string().contains("not valid base64"));
    }
}
