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

#[derive(Debug, Clone, clap::Args, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct KnowledgeAddInput {
    /// The kit's id.
    pub brand_kit_id: String,
    /// Text to keep.
    #[arg(long)]
    #[serde(default)]
    pub text: Option<String>,
    /// A web page the service reads.
    #[arg(long)]
    #[serde(default)]
    pub url: Option<String>,
    /// A YouTube video the service transcribes.
    #[arg(long)]
    #[serde(default)]
    pub youtube: Option<String>,
    /// A hosted file the service fetches and chunks (large documents, video, audio).
    #[arg(long)]
    #[serde(default)]
    pub file_url: Option<String>,
    /// A small document or image on this computer, sent inline (the shell only).
    #[arg(long, value_name = "PATH")]
    #[serde(skip)]
    #[schemars(skip)]
    pub file: Option<PathBuf>,
    /// The file's extension without a dot, when its name or URL does not say.
    #[arg(long)]
    #[serde(default)]
    pub file_ext: Option<String>,
    /// The item's title.
    #[arg(long)]
    #[serde(default)]
    pub title: Option<String>,
}

/// Standard base64 with padding (a file's bytes inline, `fileData`).
fn base64(bytes: &[u8]) -> String {
    const ABC: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    let mut out = String::with_capacity(bytes.len().div_ceil(3) * 4);
    for chunk in bytes.chunks(3) {
        let n = (chunk[0] as u32) << 16 | (*chunk.get(1).unwrap_or(&0) as u32) << 8 | *chunk.get(2).unwrap_or(&0) as u32;
        for (i, shift) in [18, 12, 6, 0].into_iter().enumerate() {
            if i <= chunk.len() {
                out.push(ABC[(n >> shift & 63) as usize] as char);
            } else {
                out.push('=');
            }
        }
    }
    out
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
        let given = [i.text.is_some(), i.url.is_some(), i.youtube.is_some(), i.file_url.is_some(), i.file.is_some()].iter().filter(|g| **g).count();
        if given != 1 {
            return Err(OpError::usage("text", "give exactly one source: text, url, youtube, fileUrl (or --file in the shell)"));
        }
        let mut req = AddKnowledge { title: i.title, file_ext: i.file_ext, ..Default::default() };
        if let Some(text) = i.text {
            req.source_type = "text".into();
            req.text = Some(text);
        } else if let Some(url) = i.url {
            req.source_type = "url".into();
            req.url = Some(url);
        } else if let Some(url) = i.youtube {
            req.source_type = "youtube".into();
            req.url = Some(url);
        } else if let Some(url) = i.file_url {
            req.source_type = "file".into();
            req.file_url = Some(url);
        } else if let Some(path) = i.file {
            let bytes = std::fs::read(&path).map_err(|e| OpError::usage("file", format!("cannot read {}: {e}", path.display())))?;
            req.source_type = "file".into();
            req.file_data = Some(base64(&bytes));
            if req.file_ext.is_none() {
                req.file_ext = path.extension().and_then(|e| e.to_str()).map(str::to_ascii_lowercase);
            }
            if req.title.is_none() {
                req.title = path.file_name().and_then(|n| n.to_str()).map(str::to_string);
            }
        }
        out(cx.client.knowledge(&i.brand_kit_id).add(&req).await?)
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
