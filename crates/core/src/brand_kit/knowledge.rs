//! The knowledge base commands: list, search, add (base64 for small files, a hosted link for large ones), remove.
use super::*;

/// Takes the catalogue's `KnowledgeListInput` and its rules (as `cdesk knowledge list`).
pub async fn knowledge_list(session: &impl Session, args: KnowledgeListInput) -> IpcResult<KnowledgeList> {
    args.check()?;
    let kit_id = required("brandKitId", &args.brand_kit_id, "brand kit")?;
    Ok(session.client().await?.knowledge(&kit_id).list(args.page.limit, args.page.offset).await?)
}

/// The passages of the kit's knowledge that match `query`, best first, with their similarity (0–1).
/// The input and its rules are the catalogue's (`cdesk knowledge search`, `search_brand_knowledge`).
pub async fn knowledge_search(session: &impl Session, args: KnowledgeSearchInput) -> IpcResult<Vec<KnowledgeMatch>> {
    args.check()?;
    let kit_id = required("brandKitId", &args.brand_kit_id, "brand kit")?;
    let query = args.query.trim();
    Ok(session.client().await?.knowledge(&kit_id).search(query, args.limit, args.threshold).await?)
}

/// The size base64 text decodes to (padded or not), without decoding it.
pub(super) fn decoded_len(b64: &str) -> usize {
    let n = b64.len();
    let pad = b64.bytes().rev().take(2).filter(|b| *b == b'=').count();
    (n - pad) * 3 / 4
}

pub(super) fn ext_of(name: &str) -> Option<String> {
    let name = name.rsplit(['/', '\\']).next().unwrap_or(name);
    let name = name.split(['?', '#']).next().unwrap_or(name);
    name.rsplit_once('.').map(|(_, e)| e.trim().to_ascii_lowercase()).filter(|e| !e.is_empty() && e.len() <= 10)
}

pub(super) fn is_youtube(url: &str) -> bool {
    url::Url::parse(url).ok().and_then(|u| u.host_str().map(str::to_ascii_lowercase)).is_some_and(|h| {
        h == "youtu.be" || h == "youtube.com" || h.ends_with(".youtube.com")
    })
}

pub(super) const HOSTED: &str = "Put the file where it can be downloaded (a hosted link) and add it by that address (fileUrl): \
                      the service fetches and reads it.";

/// What an add sends, checked first: one source, a file small enough and neither video nor audio for
/// base64.
pub(super) fn knowledge_input(args: &KnowledgeAddArgs) -> IpcResult<api_types::AddKnowledge> {
    let given = |v: &Option<String>| v.as_deref().is_some_and(|s| !s.trim().is_empty());
    let sources = [given(&args.file_data), given(&args.file_url), given(&args.url), given(&args.text)];
    if sources.iter().filter(|g| **g).count() != 1 {
        return Err(IpcError::validation(
            "source",
            "Add one thing at a time: a file (fileData), a hosted file (fileUrl), a web page (url) or text.",
        ));
    }
    let title = args.title.as_deref().map(str::trim).filter(|t| !t.is_empty()).map(String::from);
    let named_ext = args
        .file_ext
        .as_deref()
        .map(|e| e.trim().trim_start_matches('.').to_ascii_lowercase())
        .filter(|e| !e.is_empty())
        .or_else(|| args.file_name.as_deref().and_then(ext_of));
    let mut input = api_types::AddKnowledge { title, ..Default::default() };
    if let Some(text) = args.text.as_deref().filter(|t| !t.trim().is_empty()) {
        input.source_type = "text".into();
        input.text = Some(text.to_string());
    } else if let Some(url) = args.url.as_deref().filter(|u| !u.trim().is_empty()) {
        let url = check_url("url", url)?;
        input.source_type = if is_youtube(&url) { "youtube" } else { "url" }.into();
        input.url = Some(url);
    } else if let Some(url) = args.file_url.as_deref().filter(|u| !u.trim().is_empty()) {
        let url = check_url("fileUrl", url)?;
        input.source_type = "file".into();
        input.file_ext = named_ext;
        input.file_url = Some(url);
    } else {
        let data = args.file_data.as_deref().unwrap_or_default().trim();
        let data = match data.split_once(";base64,") {
            Some((head, rest)) if head.starts_with("data:") => rest,
            _ => data,
        };
        let data: String = data.chars().filter(|c| !c.is_ascii_whitespace()).collect();
        let media = args.mime_type.as_deref().is_some_and(|m| m.starts_with("video/") || m.starts_with("audio/"))
            || named_ext.as_deref().is_some_and(|e| MEDIA_EXTS.contains(&e));
        if media {
            return Err(IpcError::validation(
                "fileData",
                format!("Video and audio cannot be sent from this computer as a file. {HOSTED}"),
            ));
        }
        let size = decoded_len(&data);
        if size > KNOWLEDGE_MAX_FILE_BYTES {
            return Err(IpcError::validation(
                "fileData",
                format!(
                    "This file is {:.1} MB; files sent from this computer can be at most {} MB. {HOSTED}",
                    size as f64 / (1024.0 * 1024.0),
                    KNOWLEDGE_MAX_FILE_BYTES / (1024 * 1024)
                ),
            ));
        }
        if size == 0 {
            return Err(IpcError::validation("fileData", "The file is empty."));
        }
        let Some(ext) = named_ext else {
            return Err(IpcError::validation(
                "fileExt",
                "Say what kind of file this is (its extension, such as pdf, docx, md or png).",
            ));
        };
        input.source_type = "file".into();
        if input.title.is_none() {
            input.title = args.file_name.as_deref().map(str::trim).filter(|n| !n.is_empty()).map(String::from);
        }
        input.file_ext = Some(ext);
        input.file_data = Some(data);
    }
    Ok(input)
}

/// Adds a file, a hosted file, a web page or text. At the plan's cap nothing is added and the answer is
/// `limitReached`.
pub async fn knowledge_add(session: &impl Session, args: KnowledgeAddArgs) -> IpcResult<KnowledgeAdded> {
    let kit_id = required("brandKitId", &args.brand_kit_id, "brand kit")?;
    let input = knowledge_input(&args)?;
    let client = session.client().await?;
    client.knowledge(&kit_id).add(&input).await.map_err(|e| match e {
        ApiError::LimitReached { limit, current, status, .. } => {
            let counts = match (current, limit) {
                (Some(c), Some(l)) => format!(" ({c} of {l} items)"),
                (None, Some(l)) => format!(" ({l} items)"),
                _ => String::new(),
            };
            IpcError {
                status: (status != 0).then_some(status),
                ..IpcError::new(
                    IpcCode::LimitReached,
                    format!(
                        "This kit is at its plan's cap for knowledge{counts}: nothing was added. Remove an item you no \
                         longer need, or upgrade the plan, then add this again."
                    ),
                )
            }
        }
        other => IpcError::from(other),
    })
}

pub async fn knowledge_remove(session: &impl Session, args: KnowledgeItemInput) -> IpcResult<Deleted> {
    let kit_id = required("brandKitId", &args.brand_kit_id, "brand kit")?;
    let id = required("knowledgeId", &args.knowledge_id, "knowledge item")?;
    Ok(session.client().await?.knowledge(&kit_id).remove(&id).await?)
}
