//! Serving stored files, with byte ranges for audio and video.
//!
//! Files are uploads: their bytes and their MIME type come from whoever uploaded them, and they are served
//! on the sandbox's own origin, the one its API answers on. So every file goes out with
//! `X-Content-Type-Options: nosniff` (the declared type is the only one a browser uses),
//! `Content-Security-Policy: sandbox` (a document opened from here gets a unique origin and runs no
//! script), and `Content-Disposition: attachment` unless it is image, audio or video that a browser only
//! displays: an SVG (`image/svg+xml`, any `+xml` type) is a document that can hold script, so it is
//! downloaded when opened, while `<img>` still shows it.
use super::*;

/// Whether a file of this MIME type may be shown inline when opened on its own: image, audio or video,
/// except the XML-based types (SVG), which are documents.
pub(super) fn shown_inline(mime: &str) -> bool {
    let essence = mime_essence(mime);
    media_kind(&essence).is_some() && !essence.ends_with("+xml") && !essence.contains("svg")
}

/// The headers every served file carries (see the module's comment).
fn protect(h: &mut HeaderMap, name: &str, mime: &str) {
    h.insert(header::X_CONTENT_TYPE_OPTIONS, HeaderValue::from_static("nosniff"));
    h.insert(header::CONTENT_SECURITY_POLICY, HeaderValue::from_static("sandbox"));
    if !shown_inline(mime) {
        // Stored names are `{uuid}-{n}.{ext}` with a plain extension; anything else gets no filename.
        let plain = name.chars().all(|c| c.is_ascii_alphanumeric() || "._-".contains(c));
        let value = if plain { format!("attachment; filename=\"{name}\"") } else { "attachment".to_string() };
        h.insert(
            header::CONTENT_DISPOSITION,
            HeaderValue::from_str(&value).unwrap_or(HeaderValue::from_static("attachment")),
        );
    }
}

/// `GET /files/{name}`: the stored bytes with their Content-Type, `X-Sandbox-Render: true` on placeholder
/// renders, and single byte ranges (video elements ask for them before they play); with the headers of
/// `protect` on every answer.
pub(super) async fn serve_file(
    State(state): State<AppState>,
    Path(name): Path<String>,
    headers: HeaderMap,
) -> ApiResult<Response> {
    let file: Option<(Vec<u8>, String, String, bool)> = {
        let conn = state.db().reader()?;
        conn.cached_row(
            "SELECT bytes, mime, sha256, sandbox_render FROM stored_files WHERE name = ?1",
            [&name],
            |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?, r.get(3)?)),
        )
        .optional()?
    };
    let (bytes, mime, sha, render) = file.ok_or_else(|| ApiError::not_found("File"))?;
    let total = bytes.len();
    let range = headers
        .get(header::RANGE)
        .and_then(|v| v.to_str().ok())
        .and_then(|r| parse_range(r, total));
    let (status, body, content_range) = match range {
        Some(Ok((start, end))) => (
            StatusCode::PARTIAL_CONTENT,
            bytes[start..=end].to_vec(),
            Some(format!("bytes {start}-{end}/{total}")),
        ),
        Some(Err(())) => {
            let mut resp = StatusCode::RANGE_NOT_SATISFIABLE.into_response();
            if let Ok(v) = HeaderValue::from_str(&format!("bytes */{total}")) {
                resp.headers_mut().insert(header::CONTENT_RANGE, v);
            }
            protect(resp.headers_mut(), &name, &mime);
            return Ok(resp);
        }
        None => (StatusCode::OK, bytes, None),
    };
    let mut resp = (status, body).into_response();
    let h = resp.headers_mut();
    h.insert(
        header::CONTENT_TYPE,
        HeaderValue::from_str(&mime)
            .unwrap_or(HeaderValue::from_static("application/octet-stream")),
    );
    h.insert(header::ACCEPT_RANGES, HeaderValue::from_static("bytes"));
    // A name is never reused for other bytes.
    h.insert(
        header::CACHE_CONTROL,
        HeaderValue::from_static("public, max-age=31536000, immutable"),
    );
    if let Ok(v) = HeaderValue::from_str(&format!("\"{sha}\"")) {
        h.insert(header::ETAG, v);
    }
    if let Some(cr) = content_range.and_then(|c| HeaderValue::from_str(&c).ok()) {
        h.insert(header::CONTENT_RANGE, cr);
    }
    if render {
        h.insert("x-sandbox-render", HeaderValue::from_static("true"));
    }
    protect(h, &name, &mime);
    Ok(resp)
}

/// A single `bytes=` range: `Some(Ok((start, end)))` inclusive, `Some(Err)` unsatisfiable, `None` to
/// ignore the header (multiple or malformed ranges get the whole file, as HTTP allows).
pub(super) fn parse_range(header: &str, total: usize) -> Option<Result<(usize, usize), ()>> {
    let spec = header.trim().strip_prefix("bytes=")?;
    if spec.contains(',') {
        return None;
    }
    let (a, b) = spec.split_once('-')?;
    let (a, b) = (a.trim(), b.trim());
    if total == 0 {
        return Some(Err(()));
    }
    let (start, end) = if a.is_empty() {
        let n: usize = b.parse().ok()?;
        if n == 0 {
            return Some(Err(()));
        }
        (total.saturating_sub(n), total - 1)
    } else {
        let start: usize = a.parse().ok()?;
        let end = if b.is_empty() {
            total - 1
        } else {
            b.parse::<usize>().ok()?.min(total - 1)
        };
        (start, end)
    };
    if start >= total || start > end {
        return Some(Err(()));
    }
    Some(Ok((start, end)))
}
