//! What an added item is made of: text, a web page, a YouTube link, base64 `fileData` or a hosted `fileUrl`, checked and read into text.
use super::*;

pub(super) const ITEM_COLUMNS: &str =
    "id, title, source_type, source_url, file_ext, size_bytes, created_at, updated_at, content, tags";

pub(super) fn item_from_row(r: &rusqlite::Row, with_content: bool) -> rusqlite::Result<KnowledgeItem> {
    let content: Option<String> = if with_content {
        Some(
            r.get::<_, String>(8)?
                .chars()
                .take(DETAIL_CONTENT_CHARS)
                .collect(),
        )
    } else {
        None
    };
    Ok(KnowledgeItem {
        id: r.get(0)?,
        title: r.get(1)?,
        source_type: r.get(2)?,
        source_url: r.get(3)?,
        file_ext: r.get(4)?,
        size_bytes: r.get(5)?,
        created_at: r.get(6)?,
        updated_at: r.get(7)?,
        tags: serde_json::from_str(&r.get::<_, String>(9)?).unwrap_or_default(),
        content,
    })
}

/// A checked add: what will be stored.
pub(super) struct Source {
    pub(super) title: String,
    pub(super) source_type: String,
    pub(super) source_url: Option<String>,
    pub(super) file_ext: Option<String>,
    pub(super) size_bytes: Option<i64>,
    /// The searchable text; empty when the sandbox has none (unfetched address, image, binary document).
    pub(super) content: String,
}

impl Source {
    pub(super) fn from_input(input: AddKnowledge, max_file_bytes: usize) -> ApiResult<Source> {
        let st = input.source_type.as_str();
        if !KNOWLEDGE_SOURCE_TYPES.contains(&st) {
            return Err(ApiError::InvalidValue {
                message: format!(
                    "Unknown sourceType \"{st}\": valid values are {}",
                    KNOWLEDGE_SOURCE_TYPES.join(", ")
                ),
                field: "sourceType".into(),
                valid: KNOWLEDGE_SOURCE_TYPES
                    .iter()
                    .map(|s| s.to_string())
                    .collect(),
            });
        }
        // Fields that belong to another source type are refused, so a mistaken add is not half-read.
        let given = [
            ("text", input.text.is_some()),
            ("url", input.url.is_some()),
            ("fileData", input.file_data.is_some()),
            ("fileUrl", input.file_url.is_some()),
            ("fileExt", input.file_ext.is_some()),
        ];
        let allowed: &[&str] = match st {
            "text" => &["text"],
            "url" | "youtube" => &["url"],
            _ => &["fileData", "fileUrl", "fileExt"],
        };
        if let Some((field, _)) = given.iter().find(|(f, g)| *g && !allowed.contains(f)) {
            return Err(ApiError::bad(
                *field,
                format!("`{field}` is not used with sourceType {st}"),
            ));
        }
        let title = input
            .title
            .as_deref()
            .map(str::trim)
            .filter(|t| !t.is_empty())
            .map(String::from);
        match st {
            "text" => {
                let text = input.text.unwrap_or_default();
                if text.trim().is_empty() {
                    return Err(ApiError::bad("text", "sourceType text needs `text`"));
                }
                Ok(Source {
                    title: title.unwrap_or_else(|| first_line_title(&text, "Text note")),
                    source_type: st.into(),
                    source_url: None,
                    file_ext: None,
                    size_bytes: Some(text.len() as i64),
                    content: text,
                })
            }
            "url" | "youtube" => {
                let url = input
                    .url
                    .as_deref()
                    .map(str::trim)
                    .unwrap_or_default()
                    .to_string();
                if url.is_empty() {
                    return Err(ApiError::bad("url", format!("sourceType {st} needs `url`")));
                }
                check_http_url("url", &url)?;
                if st == "youtube" && !is_youtube(&url) {
                    return Err(ApiError::bad(
                        "url",
                        "sourceType youtube needs a youtube.com or youtu.be `url`",
                    ));
                }
                Ok(Source {
                    title: title.unwrap_or_else(|| url.clone()),
                    source_type: st.into(),
                    source_url: Some(url),
                    file_ext: None,
                    size_bytes: None,
                    // Recorded, not fetched: the sandbox has no internet.
                    content: String::new(),
                })
            }
            _ => Self::file(
                input.file_data,
                input.file_url,
                input.file_ext,
                title,
                max_file_bytes,
            ),
        }
    }

    pub(super) fn file(
        data: Option<String>,
        url: Option<String>,
        ext: Option<String>,
        title: Option<String>,
        max_bytes: usize,
    ) -> ApiResult<Source> {
        let ext = ext
            .map(|e| e.trim().trim_start_matches('.').to_ascii_lowercase())
            .filter(|e| !e.is_empty());
        match (data, url) {
            (Some(_), Some(_)) | (None, None) => Err(ApiError::bad(
                "fileData",
                "sourceType file needs exactly one of `fileData` (base64, small documents and images) or `fileUrl` \
                 (hosted: large files, video, audio)",
            )),
            (None, Some(url)) => {
                let url = url.trim().to_string();
                check_http_url("fileUrl", &url)?;
                let name = url_file_name(&url);
                let ext = ext.or_else(|| {
                    name.as_deref().and_then(|n| n.rsplit_once('.')).map(|(_, e)| e.to_ascii_lowercase())
                });
                Ok(Source {
                    title: title.or(name).unwrap_or_else(|| url.clone()),
                    source_type: "file".into(),
                    source_url: Some(url),
                    file_ext: ext,
                    size_bytes: None,
                    // Recorded, not fetched: the sandbox has no internet.
                    content: String::new(),
                })
            }
            (Some(data), None) => {
                let Some(ext) = ext else {
                    return Err(ApiError::InvalidValue {
                        message: format!("`fileData` needs `fileExt` (no dot): one of {}", FILE_DATA_EXTS.join(", ")),
                        field: "fileExt".into(),
                        valid: FILE_DATA_EXTS.iter().map(|s| s.to_string()).collect(),
                    });
                };
                let hosted = "send it by hosted `fileUrl` instead; the server fetches and chunks it";
                if MEDIA_EXTS.contains(&ext.as_str()) {
                    return Err(ApiError::bad(
                        "fileData",
                        format!("Video and audio ({ext}) cannot be sent as base64 `fileData`: {hosted}"),
                    ));
                }
                if !FILE_DATA_EXTS.contains(&ext.as_str()) {
                    return Err(ApiError::InvalidValue {
                        message: format!(
                            "`fileData` is for small documents and images ({}); for a .{ext} file, {hosted}",
                            FILE_DATA_EXTS.join(", ")
                        ),
                        field: "fileExt".into(),
                        valid: FILE_DATA_EXTS.iter().map(|s| s.to_string()).collect(),
                    });
                }
                let bytes = decode_base64(&data, max_bytes, hosted)?;
                let content = extract_text(&ext, &bytes);
                Ok(Source {
                    title: title.unwrap_or_else(|| first_line_title(&content, &format!("Uploaded {ext} file"))),
                    source_type: "file".into(),
                    source_url: None,
                    file_ext: Some(ext),
                    size_bytes: Some(bytes.len() as i64),
                    content,
                })
            }
        }
    }
}

/// Decodes `fileData` (standard or URL-safe alphabet, padding optional, a `data:…;base64,` prefix and
/// line breaks tolerated) and enforces the size limit on the decoded bytes.
pub(super) fn decode_base64(data: &str, max_bytes: usize, hosted: &str) -> ApiResult<Vec<u8>> {
    use base64::engine::general_purpose::{STANDARD, STANDARD_NO_PAD, URL_SAFE, URL_SAFE_NO_PAD};
    let data = match data.split_once(";base64,") {
        Some((prefix, rest)) if prefix.starts_with("data:") => rest,
        _ => data,
    };
    let clean: String = data.chars().filter(|c| !c.is_ascii_whitespace()).collect();
    if clean.is_empty() {
        return Err(ApiError::bad("fileData", "`fileData` is empty"));
    }
    let too_big = || {
        ApiError::bad(
            "fileData",
            format!("The file is larger than {max_bytes} bytes, the limit for base64 `fileData`: {hosted}"),
        )
    };
    // Refuse before decoding when even the shortest reading of the text is over the limit.
    if clean.len() / 4 * 3 > max_bytes + 3 {
        return Err(too_big());
    }
    let bytes = [STANDARD, URL_SAFE, STANDARD_NO_PAD, URL_SAFE_NO_PAD]
        .iter()
        .find_map(|engine| engine.decode(&clean).ok())
        .ok_or_else(|| ApiError::bad("fileData", "`fileData` is not valid base64"))?;
    if bytes.len() > max_bytes {
        return Err(too_big());
    }
    Ok(bytes)
}

/// The text of a file: as it is for text-like kinds; for other documents only when the bytes are plain
/// UTF-8 (the sandbox has no PDF or Word reader); images have none.
pub(super) fn extract_text(ext: &str, bytes: &[u8]) -> String {
    if TEXT_EXTS.contains(&ext) {
        let text = String::from_utf8_lossy(bytes).into_owned();
        return if ext == "html" || ext == "htm" {
            strip_tags(&text)
        } else {
            text
        };
    }
    if matches!(ext, "pdf" | "doc" | "docx") {
        if let Ok(text) = std::str::from_utf8(bytes) {
            let printable = text
                .chars()
                .filter(|c| !c.is_control() || c.is_whitespace())
                .count();
            if printable * 10 >= text.chars().count() * 9 {
                return text.to_string();
            }
        }
    }
    String::new()
}

pub(super) fn strip_tags(html: &str) -> String {
    let mut out = String::with_capacity(html.len());
    let mut in_tag = false;
    for c in html.chars() {
        match c {
            '<' => in_tag = true,
            '>' if in_tag => {
                in_tag = false;
                out.push(' ');
            }
            _ if !in_tag => out.push(c),
            _ => {}
        }
    }
    out
}

pub(super) fn check_http_url(field: &str, url: &str) -> ApiResult<()> {
    let rest = url
        .strip_prefix("https://")
        .or_else(|| url.strip_prefix("http://"));
    match rest {
        Some(r) if !r.is_empty() && !r.starts_with('/') && !url.contains(char::is_whitespace) => {
            Ok(())
        }
        _ => Err(ApiError::bad(
            field,
            format!("`{field}` must be an http(s) URL"),
        )),
    }
}

pub(super) fn is_youtube(url: &str) -> bool {
    let host = url
        .split("://")
        .nth(1)
        .unwrap_or("")
        .split(['/', '?', '#'])
        .next()
        .unwrap_or("")
        .to_ascii_lowercase();
    let host = host
        .rsplit('@')
        .next()
        .unwrap_or("")
        .split(':')
        .next()
        .unwrap_or("");
    host == "youtu.be" || host == "youtube.com" || host.ends_with(".youtube.com")
}

pub(super) fn url_file_name(url: &str) -> Option<String> {
    let path = url.split(['?', '#']).next()?.split("://").nth(1)?;
    let (_, path) = path.split_once('/')?;
    path.rsplit('/')
        .next()
        .filter(|n| !n.is_empty())
        .map(String::from)
}

/// A title from the first non-empty line (Markdown heading marks dropped), at most 80 characters.
pub(super) fn first_line_title(text: &str, fallback: &str) -> String {
    let line = text
        .lines()
        .map(|l| l.trim().trim_start_matches('#').trim())
        .find(|l| !l.is_empty());
    match line {
        Some(l) if l.chars().count() > 80 => format!("{}…", l.chars().take(79).collect::<String>()),
        Some(l) => l.to_string(),
        None => fallback.to_string(),
    }
}

pub(super) fn insert_item(conn: &Connection, kit_id: &str, s: &Source) -> rusqlite::Result<String> {
    let id = new_id();
    let now = time::now_str();
    conn.execute(
        "INSERT INTO knowledge_items (id, brand_kit_id, title, source_type, source_url, file_ext, size_bytes, content,
             created_at, updated_at)
         VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?9)",
        params![id, kit_id, s.title, s.source_type, s.source_url, s.file_ext, s.size_bytes, s.content, now],
    )?;
    for (i, chunk) in chunk_text(&s.content, CHUNK_CHARS).iter().enumerate() {
        conn.execute(
            "INSERT INTO knowledge_chunks (knowledge_id, chunk_index, content) VALUES (?1, ?2, ?3)",
            params![id, i as i64, chunk],
        )?;
    }
    Ok(id)
}
