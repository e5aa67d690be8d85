//! `POST /media/imports`: a file by URL (a `data:` URL is decoded; nothing is fetched), idempotent by its key.
use super::*;
use crate::tables::generations;

/// What an import URL gave: bytes (fetched) or nothing (recorded by URL).
pub(super) struct Fetched {
    pub(super) bytes: Option<Vec<u8>>,
    pub(super) mime: Option<String>,
}

/// Decodes `data:[<mime>][;base64],<data>`.
pub(super) fn decode_data_url(url: &str) -> ApiResult<Fetched> {
    let bad = |why: &str| ApiError::bad("url", format!("`url` is not a valid data: URL: {why}"));
    let rest = &url[5..];
    let (meta, payload) = rest
        .split_once(',')
        .ok_or_else(|| bad("no comma before the data"))?;
    let is_base64 = meta.split(';').any(|p| p.eq_ignore_ascii_case("base64"));
    let mime = meta
        .split(';')
        .next()
        .map(mime_essence)
        .filter(|m| !m.is_empty());
    let bytes = if is_base64 {
        let clean: String = payload.chars().filter(|c| !c.is_whitespace()).collect();
        base64::engine::general_purpose::STANDARD
            .decode(clean.as_bytes())
            .or_else(|_| base64::engine::general_purpose::URL_SAFE.decode(clean.as_bytes()))
            .map_err(|_| bad("the base64 data does not decode"))?
    } else {
        percent_decode(payload)
    };
    if bytes.is_empty() {
        return Err(bad("it holds no data"));
    }
    Ok(Fetched {
        bytes: Some(bytes),
        mime,
    })
}

pub(super) fn percent_decode(s: &str) -> Vec<u8> {
    let b = s.as_bytes();
    let hex = |c: u8| (c as char).to_digit(16);
    let mut out = Vec::with_capacity(b.len());
    let mut i = 0;
    while i < b.len() {
        if b[i] == b'%' && i + 2 < b.len() {
            if let (Some(h), Some(l)) = (hex(b[i + 1]), hex(b[i + 2])) {
                out.push((h * 16 + l) as u8);
                i += 3;
                continue;
            }
        }
        out.push(b[i]);
        i += 1;
    }
    out
}

/// `contentType` of an import: a kind (`image`) or a MIME type (`image/png`).
pub(super) fn import_kind(given: &str) -> ApiResult<(ContentType, Option<String>)> {
    let g = given.trim().to_ascii_lowercase();
    let kind = match g.as_str() {
        "image" => Some(ContentType::Image),
        "video" => Some(ContentType::Video),
        "audio" => Some(ContentType::Audio),
        _ => media_kind(&g).filter(|_| g.contains('/')),
    };
    let kind = kind.ok_or_else(|| {
        ApiError::bad(
            "contentType",
            format!("`contentType` must be image, video, audio or such a MIME type; got `{given}`"),
        )
    })?;
    Ok((kind, g.contains('/').then(|| mime_essence(&g))))
}

pub(crate) async fn import(
    State(state): State<AppState>,
    caller: Caller,
    AppJson(req): AppJson<ImportMedia>,
) -> ApiResult<Json<ImportedMedia>> {
    caller.require(ASSETS_WRITE)?;
    let url = req.url.trim().to_string();
    if url.is_empty() {
        return Err(ApiError::bad("url", "`url` is required"));
    }
    let given = req.content_type.as_deref().map(import_kind).transpose()?;
    let origin = state.origin();
    let own_prefix = format!("{origin}/files/");
    let lower = url.to_ascii_lowercase();
    let fetched = if lower.starts_with("data:") {
        decode_data_url(&url)?
    } else if let Some(name) = url.strip_prefix(&own_prefix) {
        // One of this sandbox's own files: "fetched" from the database, and only from the caller's own
        // files. File URLs take no key (they stand in for a CDN), but an import copies the bytes into the
        // caller's account: another account's file is "not found", exactly like a name never stored, so
        // an import neither copies it nor tells whether it exists.
        let name = name.split(['?', '#']).next().unwrap_or("");
        let conn = state.db().lock();
        let file: Option<(Vec<u8>, String)> = conn
            .cached_row(
                "SELECT bytes, mime FROM stored_files WHERE name = ?1 AND account_id = ?2",
                params![name, caller.account_id],
                |r| Ok((r.get(0)?, r.get(1)?)),
            )
            .optional()?;
        let (bytes, mime) = file.ok_or_else(|| {
            ApiError::NotFound(format!("File not found: this account has nothing stored at `{url}`"))
        })?;
        Fetched {
            bytes: Some(bytes),
            mime: Some(mime),
        }
    } else if lower.starts_with("http://") || lower.starts_with("https://") {
        let host = url
            .split_once("://")
            .map(|(_, r)| r)
            .unwrap_or("")
            .split(['/', '?', '#'])
            .next()
            .unwrap_or("");
        if host.is_empty() || url.chars().any(char::is_whitespace) {
            return Err(ApiError::bad(
                "url",
                format!("`url` is not a valid URL: `{url}`"),
            ));
        }
        // The sandbox has no internet: the URL is recorded, not fetched.
        Fetched {
            bytes: None,
            mime: None,
        }
    } else {
        return Err(ApiError::bad(
            "url",
            "`url` must be an http(s) URL or a data: URL",
        ));
    };
    if fetched
        .bytes
        .as_ref()
        .is_some_and(|b| b.len() > state.config().max_upload_bytes)
    {
        return Err(ApiError::TooLarge);
    }

    let kind = given
        .as_ref()
        .map(|(k, _)| *k)
        .or_else(|| fetched.mime.as_deref().and_then(media_kind))
        .or_else(|| {
            if lower.starts_with("data:") {
                None
            } else {
                kind_from_extension(&url)
            }
        })
        .ok_or_else(|| {
            ApiError::bad(
                "contentType",
                "Cannot tell whether this is an image, video or audio: send `contentType`",
            )
        })?;
    let mime = fetched
        .mime
        .clone()
        .filter(|m| media_kind(m).is_some())
        .or_else(|| given.as_ref().and_then(|(_, m)| m.clone()))
        .unwrap_or_else(|| {
            format!(
                "{}/{}",
                kind.as_str(),
                if kind == ContentType::Image {
                    "png"
                } else {
                    "mp4"
                }
            )
        });
    let hash = match &fetched.bytes {
        Some(b) => hex::encode(Sha256::digest(b)),
        None => hex::encode(Sha256::digest(format!("url:{url}").as_bytes())),
    };
    let file_name = req
        .file_name
        .as_deref()
        .map(str::trim)
        .filter(|n| !n.is_empty())
        .map(String::from);
    let label = file_name
        .clone()
        .unwrap_or_else(|| url.chars().take(200).collect());

    state.db().tx(|tx| {
        let existing: Option<String> = tx
            .cached_row(
                "SELECT output_id FROM media_imports WHERE account_id = ?1 AND hash = ?2",
                params![caller.account_id, hash],
                |r| r.get(0),
            )
            .optional()?;
        if let Some(output_id) = existing {
            let url = generations::output_urls(tx, &origin, &output_id)?.into_iter().next().unwrap_or_default();
            return Ok(Json(ImportedMedia { output_id: Some(output_id), url, already_existed: true }));
        }
        let output_id = new_id();
        let served = match &fetched.bytes {
            Some(bytes) => {
                let name = format!("{output_id}-1.{}", extension(file_name.as_deref(), &mime));
                store_file(tx, &name, &caller.account_id, &mime, bytes, false)?;
                generations::record_media_output(tx, &output_id, &caller.account_id, true, kind, &label, Some(&name), None)?;
                file_url(&origin, &name)
            }
            None => {
                generations::record_media_output(tx, &output_id, &caller.account_id, true, kind, &label, None, Some(&url))?;
                url.clone()
            }
        };
        tx.execute(
            "INSERT INTO media_imports (account_id, hash, output_id, created_at) VALUES (?1, ?2, ?3, ?4)",
            params![caller.account_id, hash, output_id, time::now_str()],
        )?;
        Ok(Json(ImportedMedia { output_id: Some(output_id), url: served, already_existed: false }))
    })
}
