//! A brand kit's knowledge: texts, pages, videos and files the service chunks and searches
//! (`/brand-kits/{id}/knowledge`, fact sheet 2.14 and 3.7).
use crate::input::{Paging, PagingHelp};
use crate::{out, Cx, Effect, Meta, OpError, Operation};
use api_types::AddKnowledge;
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use ts_rs::TS;
use serde_json::{json, Value};
use std::path::PathBuf;

/// A page of a kit's knowledge: `knowledge list`, `list_brand_knowledge` and the app's `knowledge_list`
/// take this one input (the page's rule: [`Paging::check`]).
#[derive(Debug, Clone, clap::Args, Deserialize, Serialize, JsonSchema, TS)]
#[serde(rename_all = "camelCase")]
pub struct KnowledgeListInput {
    /// The kit's id.
    pub brand_kit_id: String,
    #[command(flatten)]
    #[serde(flatten)]
    pub page: Paging<KnowledgePage>,
    /// What the app sent that this input does not name (refused by `check`).
    #[arg(skip)]
    #[serde(flatten, skip_serializing)]
    #[schemars(skip)]
    #[ts(skip)]
    pub unknown: crate::input::Unknown,
}

impl KnowledgeListInput {
    /// The rules of a page of knowledge, in every face: a kit, 1 to 100 items at a time, no field it does
    /// not name.
    pub fn check(&self) -> Result<(), OpError> {
        self.unknown.refuse()?;
        if self.brand_kit_id.trim().is_empty() {
            return Err(OpError::usage("brandKitId", "Choose the brand kit."));
        }
        self.page.check()
    }
}

#[derive(Debug, Clone, Default)]
pub struct KnowledgePage;
impl PagingHelp for KnowledgePage {
    const LIMIT: &str = "At most this many (the service's default: 50).";
}

pub struct KnowledgeList;
impl Operation for KnowledgeList {
    type Input = KnowledgeListInput;
    const META: Meta = Meta {
        path: &["knowledge", "list"],
        tool: "list_brand_knowledge",
        summary: "List a brand kit's knowledge items",
        details: "Free. To find what the knowledge says about something, search_brand_knowledge is better than reading every item.",
        effect: Effect::Read,
        idempotent: true,
        scope: Some(api_types::scopes::BRANDKIT_READ),
    };
    async fn run(cx: Cx, i: KnowledgeListInput) -> Result<Value, OpError> {
        i.check()?;
        out(cx.client.knowledge(&i.brand_kit_id).list(i.page.limit, i.page.offset).await?)
    }
}

/// One knowledge item: `knowledge get`/`remove`, their agent tools, and the app's `knowledge_remove`.
#[derive(Debug, Clone, clap::Args, Deserialize, Serialize, JsonSchema, TS)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct KnowledgeItemInput {
    /// The kit's id.
    pub brand_kit_id: String,
    /// The knowledge item's id (`knowledge list`).
    pub knowledge_id: String,
}

pub struct KnowledgeGet;
impl Operation for KnowledgeGet {
    type Input = KnowledgeItemInput;
    const META: Meta = Meta {
        path: &["knowledge", "get"],
        tool: "get_brand_knowledge",
        summary: "Read one knowledge item with its text",
        details: "Free. The text may be capped; search_brand_knowledge finds passages in long items.",
        effect: Effect::Read,
        idempotent: true,
        scope: Some(api_types::scopes::BRANDKIT_READ),
    };
    async fn run(cx: Cx, i: KnowledgeItemInput) -> Result<Value, OpError> {
        Ok(json!({ "item": out(cx.client.knowledge(&i.brand_kit_id).get(&i.knowledge_id).await?)? }))
    }
}

/// The most passages a search answers (the service's cap).
pub const SEARCH_MAX_LIMIT: u32 = 50;

/// A search of a kit's knowledge: `knowledge search`, `search_brand_knowledge` and the app's
/// `knowledge_search` take this one input and its one rule ([`KnowledgeSearchInput::check`]).
#[derive(Debug, Clone, clap::Args, Deserialize, Serialize, JsonSchema, TS)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct KnowledgeSearchInput {
    /// The kit's id.
    pub brand_kit_id: String,
    /// What to look for.
    #[arg(value_name = "QUERY")]
    pub query: String,
    /// At most this many passages, 1 to 50 (the service's default: 8).
    #[arg(long)]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub limit: Option<u32>,
    /// The least similarity, 0 to 1 (the service's default: 0.45).
    #[arg(long)]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub threshold: Option<f64>,
}

impl KnowledgeSearchInput {
    /// The rules of a search, checked before anything is sent, in every face: words to look for, and 1 to
    /// [`SEARCH_MAX_LIMIT`] passages.
    pub fn check(&self) -> Result<(), OpError> {
        if self.query.trim().is_empty() {
            return Err(OpError::usage("query", "Give the words to search for."));
        }
        if let Some(l) = self.limit {
            if !(1..=SEARCH_MAX_LIMIT).contains(&l) {
                return Err(OpError::usage("limit", format!("Ask for 1 to {SEARCH_MAX_LIMIT} matches.")));
            }
        }
        Ok(())
    }
}

pub struct KnowledgeSearch;
impl Operation for KnowledgeSearch {
    type Input = KnowledgeSearchInput;
    const META: Meta = Meta {
        path: &["knowledge", "search"],
        tool: "search_brand_knowledge",
        summary: "Search a brand kit's knowledge for passages about a query",
        details: "Free. Returns the best passages with their similarity and source; lower the threshold for more, vaguer matches.",
        effect: Effect::Read,
        idempotent: true,
        scope: Some(api_types::scopes::BRANDKIT_READ),
    };
    async fn run(cx: Cx, i: KnowledgeSearchInput) -> Result<Value, OpError> {
        i.check()?;
        let matches = cx.client.knowledge(&i.brand_kit_id).search(&i.query, i.limit, i.threshold).await?;
        Ok(json!({ "matches": out(matches)? }))
    }
}

/// An add: `cdesk knowledge add`, the agent tool `add_brand_knowledge` and the app's `knowledge_add` take
/// this one input and its rules ([`KnowledgeAddInput::request`]).
#[derive(Clone, Default, clap::Args, Deserialize, Serialize, JsonSchema, TS)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct KnowledgeAddInput {
    /// The kit's id.
    pub brand_kit_id: String,
    /// Text to keep.
    #[arg(long)]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub text: Option<String>,
    /// A web page the service reads (a YouTube address is sent as a video).
    #[arg(long)]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub url: Option<String>,
    /// A YouTube video the service transcribes.
    #[arg(long)]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub youtube: Option<String>,
    /// A hosted file the service fetches and chunks (large documents, video, audio).
    #[arg(long)]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub file_url: Option<String>,
    /// A small document or image on this computer, sent inline (the shell only).
    #[arg(long, value_name = "PATH")]
    #[serde(skip)]
    #[schemars(skip)]
    #[ts(skip)]
    pub file: Option<PathBuf>,
    /// The app's only: a small document or image's bytes, base64 (a `data:…;base64,` prefix is accepted),
    /// sent inline as the shell sends `--file`. Not a flag nor an agent's field.
    #[arg(skip)]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(skip)]
    #[ts(optional)]
    pub file_data: Option<String>,
    /// The app's only: the inline file's name (its extension, and the title when none is given).
    #[arg(skip)]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(skip)]
    #[ts(optional)]
    pub file_name: Option<String>,
    /// The app's only: the inline file's MIME type (video or audio is refused inline).
    #[arg(skip)]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(skip)]
    #[ts(optional)]
    pub mime_type: Option<String>,
    /// The file's extension without a dot, when its name or URL does not say.
    #[arg(long)]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub file_ext: Option<String>,
    /// The item's title.
    #[arg(long)]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub title: Option<String>,
}

/// An inline file's bytes are never shown.
impl std::fmt::Debug for KnowledgeAddInput {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("KnowledgeAddInput")
            .field("brand_kit_id", &self.brand_kit_id)
            .field("text", &self.text.as_ref().map(|t| format!("<{} characters>", t.len())))
            .field("url", &self.url)
            .field("youtube", &self.youtube)
            .field("file_url", &self.file_url)
            .field("file", &self.file)
            .field("file_data", &self.file_data.as_ref().map(|d| format!("<{} characters>", d.len())))
            .field("file_name", &self.file_name)
            .field("mime_type", &self.mime_type)
            .field("file_ext", &self.file_ext)
            .field("title", &self.title)
            .finish()
    }
}

/// What a refused inline file is pointed to instead.
pub const HOSTED: &str = "Put the file where it can be downloaded (a hosted link) and add it by that address (fileUrl): \
                          the service fetches and reads it.";

/// The size base64 text decodes to (padded or not), without decoding it.
pub fn decoded_len(b64: &str) -> usize {
    let n = b64.len();
    let pad = b64.bytes().rev().take(2).filter(|b| *b == b'=').count();
    (n - pad) * 3 / 4
}

/// A file name's or URL's extension, lowercase, without the dot (at most 10 characters).
fn ext_of(name: &str) -> Option<String> {
    let name = name.rsplit(['/', '\\']).next().unwrap_or(name);
    let name = name.split(['?', '#']).next().unwrap_or(name);
    name.rsplit_once('.').map(|(_, e)| e.trim().to_ascii_lowercase()).filter(|e| !e.is_empty() && e.len() <= 10)
}

fn is_youtube(url: &str) -> bool {
    url::Url::parse(url).ok().and_then(|u| u.host_str().map(str::to_ascii_lowercase)).is_some_and(|h| {
        h == "youtu.be" || h == "youtube.com" || h.ends_with(".youtube.com")
    })
}

fn web_address(field: &str, raw: &str) -> Result<String, OpError> {
    let raw = raw.trim();
    if !url::Url::parse(raw).is_ok_and(|u| matches!(u.scheme(), "http" | "https") && u.host().is_some()) {
        return Err(OpError::usage(field, format!("“{raw}” is not a web address (http:// or https://).")));
    }
    Ok(raw.to_string())
}

impl KnowledgeAddInput {
    /// The rules of an add, checked before anything is sent, in every face, and the request they allow:
    /// a kit; exactly one source (text, a web page, a YouTube video, a hosted file, or a file inline: the
    /// app's bytes or the shell's `--file`); an http(s) address; a file inline neither video nor audio,
    /// not empty, at most [`api_types::values::KNOWLEDGE_MAX_FILE_BYTES`], and of a known kind (its
    /// extension).
    pub fn request(self) -> Result<AddKnowledge, OpError> {
        use api_types::values::{KNOWLEDGE_MAX_FILE_BYTES, KNOWLEDGE_MEDIA_EXTENSIONS};
        if self.brand_kit_id.trim().is_empty() {
            return Err(OpError::usage("brandKitId", "Give the brand kit."));
        }
        let given = |v: &Option<String>| v.as_deref().map(str::trim).filter(|s| !s.is_empty()).map(str::to_string);
        let (text, url, youtube, file_url, file_data) = (given(&self.text), given(&self.url), given(&self.youtube), given(&self.file_url), given(&self.file_data));
        let sources = [text.is_some(), url.is_some(), youtube.is_some(), file_url.is_some(), file_data.is_some(), self.file.is_some()];
        if sources.iter().filter(|g| **g).count() != 1 {
            return Err(OpError::usage(
                "source",
                "Add one thing at a time: text, a web page (url), a YouTube video (youtube), a hosted file (fileUrl) or a file from this computer.",
            ));
        }
        let title = given(&self.title);
        let mut file_name = given(&self.file_name);
        let mut req = AddKnowledge { title, ..Default::default() };
        if text.is_some() {
            req.source_type = "text".into();
            req.text = self.text;
            return Ok(req);
        }
        if let Some(url) = url {
            let url = web_address("url", &url)?;
            req.source_type = if is_youtube(&url) { "youtube" } else { "url" }.into();
            req.url = Some(url);
            return Ok(req);
        }
        if let Some(url) = youtube {
            req.source_type = "youtube".into();
            req.url = Some(web_address("youtube", &url)?);
            return Ok(req);
        }
        let data = match (file_data, self.file) {
            (Some(data), _) => data,
            (None, Some(path)) => {
                let bytes = std::fs::read(&path).map_err(|e| OpError::usage("file", format!("cannot read {}: {e}", path.display())))?;
                file_name = path.file_name().and_then(|n| n.to_str()).map(str::to_string);
                base64(&bytes)
            }
            (None, None) => String::new(),
        };
        let named_ext = self
            .file_ext
            .as_deref()
            .map(|e| e.trim().trim_start_matches('.').to_ascii_lowercase())
            .filter(|e| !e.is_empty())
            .or_else(|| file_name.as_deref().and_then(ext_of));
        if let Some(url) = file_url {
            req.source_type = "file".into();
            req.file_ext = named_ext;
            req.file_url = Some(web_address("fileUrl", &url)?);
            return Ok(req);
        }
        let data = crate::media::base64_text(&data);
        let data: String = data.chars().filter(|c| !c.is_ascii_whitespace()).collect();
        let media = self.mime_type.as_deref().is_some_and(|m| m.starts_with("video/") || m.starts_with("audio/"))
            || named_ext.as_deref().is_some_and(|e| KNOWLEDGE_MEDIA_EXTENSIONS.contains(&e));
        let field = if self.file_data.is_some() { "fileData" } else { "file" };
        if media {
            return Err(OpError::usage(field, format!("Video and audio cannot be sent from this computer as a file. {HOSTED}")));
        }
        let size = decoded_len(&data);
        if size > KNOWLEDGE_MAX_FILE_BYTES {
            return Err(OpError::usage(
                field,
                format!(
                    "This file is {:.1} MB; files sent from this computer can be at most {} MB. {HOSTED}",
                    size as f64 / (1024.0 * 1024.0),
                    KNOWLEDGE_MAX_FILE_BYTES / (1024 * 1024)
                ),
            ));
        }
        if size == 0 {
            return Err(OpError::usage(field, "The file is empty."));
        }
        let Some(ext) = named_ext else {
            return Err(OpError::usage("fileExt", "Say what kind of file this is (its extension, such as pdf, docx, md or png)."));
        };
        req.source_type = "file".into();
        if req.title.is_none() {
            req.title = file_name;
        }
        req.file_ext = Some(ext);
        req.file_data = Some(data);
        Ok(req)
    }
}

/// Standard base64 with padding (a file's bytes inline, `fileData`).
fn base64(bytes: &[u8]) -> String {
    use base64::Engine as _;
    base64::engine::general_purpose::STANDARD.encode(bytes)
}

pub struct KnowledgeAdd;
impl Operation for KnowledgeAdd {
    type Input = KnowledgeAddInput;
    const META: Meta = Meta {
        path: &["knowledge", "add"],
        tool: "add_brand_knowledge",
        summary: "Add text, a web page, a YouTube video or a file to a brand kit's knowledge",
        details: "Free, up to the plan's cap of items (then an error says the cap is reached and nothing is added). Give exactly one of text, url, youtube or fileUrl. Each call adds another item.",
        effect: Effect::Write,
        idempotent: false,
        scope: Some(api_types::scopes::BRANDKIT_WRITE),
    };
    async fn run(cx: Cx, i: KnowledgeAddInput) -> Result<Value, OpError> {
        let kit = i.brand_kit_id.trim().to_string();
        let req = i.request()?;
        out(cx.client.knowledge(&kit).add(&req).await?)
    }
}

pub struct KnowledgeRemove;
impl Operation for KnowledgeRemove {
    type Input = KnowledgeItemInput;
    const META: Meta = Meta {
        path: &["knowledge", "remove"],
        tool: "remove_brand_knowledge",
        summary: "Remove an item from a brand kit's knowledge",
        details: "Free. The item and its passages are deleted for good.",
        effect: Effect::Destroy,
        idempotent: true,
        scope: Some(api_types::scopes::BRANDKIT_WRITE),
    };
    async fn run(cx: Cx, i: KnowledgeItemInput) -> Result<Value, OpError> {
        out(cx.client.knowledge(&i.brand_kit_id).remove(&i.knowledge_id).await?)
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn base64_pads_like_the_standard() {
        for (raw, enc) in [("", ""), ("f", "Zg=="), ("fo", "Zm8="), ("foo", "Zm9v"), ("foob", "Zm9vYg=="), ("fooba", "Zm9vYmE="), ("foobar", "Zm9vYmFy")] {
            assert_eq!(super::base64(raw.as_bytes()), enc);
        }
        assert_eq!(super::base64(&[0xff, 0xfe, 0x00]), "//4A");
    }
}

#[cfg(test)]
mod add_tests {
    use super::*;
    use api_types::values::KNOWLEDGE_MAX_FILE_BYTES;

    #[test]
    fn decoded_sizes_are_exact_for_padded_and_unpadded_base64() {
        use base64::Engine;
        for n in [0usize, 1, 2, 3, 4, 5, 100, 4097] {
            let bytes = vec![7u8; n];
            assert_eq!(decoded_len(&base64::engine::general_purpose::STANDARD.encode(&bytes)), n);
            assert_eq!(decoded_len(&base64::engine::general_purpose::STANDARD_NO_PAD.encode(&bytes)), n);
        }
    }

    /// The field and message of a refused add.
    fn refused(f: impl FnOnce(&mut KnowledgeAddInput)) -> (String, String) {
        let mut a = KnowledgeAddInput { brand_kit_id: "k".into(), ..Default::default() };
        f(&mut a);
        match a.request().unwrap_err() {
            OpError::Usage { message, field } => (field.unwrap_or_default(), message),
            other => panic!("a usage error: {other:?}"),
        }
    }

    fn sent(f: impl FnOnce(&mut KnowledgeAddInput)) -> AddKnowledge {
        let mut a = KnowledgeAddInput { brand_kit_id: "k".into(), ..Default::default() };
        f(&mut a);
        a.request().unwrap()
    }

    #[test]
    fn knowledge_adds_are_checked_before_sending() {
        assert_eq!(refused(|_| {}).0, "source");
        assert_eq!(refused(|a| a.brand_kit_id = " ".into()).0, "brandKitId");
        assert_eq!(refused(|a| (a.text, a.url) = (Some("t".into()), Some("https://example.com".into()))).0, "source");
        assert_eq!(refused(|a| (a.text, a.file) = (Some("t".into()), Some("notes.md".into()))).0, "source");
        // Video and audio as base64: refused, pointing at a hosted URL.
        let (field, message) = refused(|a| (a.file_data, a.file_name) = (Some("AAAA".into()), Some("talk.MP4".into())));
        assert_eq!(field, "fileData");
        assert!(message.contains("fileUrl"), "{message}");
        let (_, message) = refused(|a| (a.file_data, a.file_ext, a.mime_type) = (Some("AAAA".into()), Some("bin".into()), Some("audio/mpeg".into())));
        assert!(message.contains("fileUrl"), "{message}");
        // Too big: refused before sending, pointing at a hosted URL.
        let (field, message) = refused(|a| (a.file_data, a.file_ext) = (Some("A".repeat((KNOWLEDGE_MAX_FILE_BYTES / 3 + 1) * 4)), Some("pdf".into())));
        assert_eq!(field, "fileData");
        assert!(message.contains("fileUrl") && message.contains("4 MB"), "{message}");
        assert_eq!(refused(|a| a.file_data = Some("aGk=".into())).0, "fileExt");
        let ok = sent(|a| (a.file_data, a.file_name) = (Some("data:text/markdown;base64,aGk=".into()), Some("notes.md".into())));
        assert_eq!(serde_json::to_value(&ok).unwrap(), json!({"sourceType": "file", "fileData": "aGk=", "fileExt": "md", "title": "notes.md"}));
        assert_eq!(sent(|a| a.url = Some("https://www.youtube.com/watch?v=x".into())).source_type, "youtube");
        assert_eq!(sent(|a| a.youtube = Some("https://youtu.be/x".into())).source_type, "youtube");
        assert_eq!(refused(|a| a.file_url = Some("ftp://x/y.mp4".into())).0, "fileUrl");
        assert_eq!(refused(|a| a.url = Some("example.com".into())).0, "url");
        assert_eq!(sent(|a| a.file_url = Some("https://cdn.example.com/talk.mp4".into())).source_type, "file");
        assert_eq!(sent(|a| a.text = Some("  kept as given ".into())).text.as_deref(), Some("  kept as given "));
    }
}
