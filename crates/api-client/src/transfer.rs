//! Files: downloading what the service points to (a render's output, a library item) with the key only for
//! the API's own origin, and upload bodies that report their progress chunk by chunk.
use crate::error::{ApiError, Result};
use crate::http::{failed_attempt, origin};
use crate::retry;
use crate::Client;
use bytes::Bytes;
use reqwest::header::{AUTHORIZATION, CONTENT_TYPE, RETRY_AFTER};
use std::sync::Arc;
use std::time::SystemTime;

/// A file fetched by [`Client::download`].
#[derive(Debug, Clone)]
pub struct Downloaded {
    pub bytes: Bytes,
    /// The `Content-Type` the server sent, without parameters.
    pub content_type: Option<String>,
}

/// Reports `(bytes sent, total)` of an upload.
pub type OnBytes = Arc<dyn Fn(u64, u64) + Send + Sync>;

/// How much of an upload is handed to the connection at a time (and reported).
pub(crate) const UPLOAD_CHUNK: usize = 64 * 1024;

/// An upload body that reports each chunk as the connection takes it.
pub(crate) struct ChunkedBody {
    pub(crate) bytes: Bytes,
    pub(crate) sent: usize,
    pub(crate) report: OnBytes,
}

impl http_body::Body for ChunkedBody {
    type Data = Bytes;
    type Error = std::convert::Infallible;

    fn poll_frame(
        mut self: std::pin::Pin<&mut Self>,
        _: &mut std::task::Context<'_>,
    ) -> std::task::Poll<Option<std::result::Result<http_body::Frame<Bytes>, Self::Error>>> {
        let total = self.bytes.len();
        if self.sent >= total {
            return std::task::Poll::Ready(None);
        }
        let end = (self.sent + UPLOAD_CHUNK).min(total);
        let chunk = self.bytes.slice(self.sent..end);
        self.sent = end;
        (self.report)(end as u64, total as u64);
        std::task::Poll::Ready(Some(Ok(http_body::Frame::data(chunk))))
    }

    fn is_end_stream(&self) -> bool {
        self.sent >= self.bytes.len()
    }

    fn size_hint(&self) -> http_body::SizeHint {
        http_body::SizeHint::with_exact((self.bytes.len() - self.sent) as u64)
    }
}

impl Client {
    /// An absolute URL: a path starting with `/` is on the API's origin.
    pub(crate) fn absolute(&self, url: &str) -> String {
        if url.starts_with('/') {
            format!("{}{}", origin(&self.inner.base_url), url)
        } else {
            url.to_string()
        }
    }

    /// Whether `url` is on the API's own origin (same scheme, host and port as the base URL).
    pub fn is_api_origin(&self, url: &str) -> bool {
        let base = &self.inner.base;
        match reqwest::Url::parse(url) {
            Ok(u) => {
                u.scheme() == base.scheme()
                    && u.host_str() == base.host_str()
                    && u.port_or_known_default() == base.port_or_known_default()
            }
            Err(_) => false,
        }
    }

    /// GETs a file the service pointed to (a render's output URL, a library item's URL): the whole body
    /// and its content type. The API key goes only to the API's own origin (object storage and CDNs
    /// take none); a redirect to another host drops it too. Retried like any read.
    pub async fn download(&self, url: &str) -> Result<Downloaded> {
        let url = self.absolute(url);
        if !(url.starts_with("https://") || url.starts_with("http://")) {
            return Err(ApiError::Config(format!(
                "cannot download `{url}`: not an http(s) URL"
            )));
        }
        let with_key = self.is_api_origin(&url);
        let mut attempt = 0;
        loop {
            attempt += 1;
            let mut req = self.inner.http.get(&url);
            if with_key {
                req = req.header(AUTHORIZATION, self.inner.auth.clone());
            }
            let secret = if with_key { self.inner.key.expose() } else { "" };
            let result = async {
                let resp = req
                    .send()
                    .await
                    .map_err(|e| ApiError::from_reqwest(&e, secret))?;
                let status = resp.status().as_u16();
                let header_retry = resp
                    .headers()
                    .get(RETRY_AFTER)
                    .and_then(|v| v.to_str().ok())
                    .and_then(|v| retry::parse_retry_after(v, SystemTime::now()));
                let content_type = resp
                    .headers()
                    .get(CONTENT_TYPE)
                    .and_then(|v| v.to_str().ok())
                    .map(|v| v.split(';').next().unwrap_or(v).trim().to_ascii_lowercase())
                    .filter(|v| !v.is_empty());
                let bytes = resp
                    .bytes()
                    .await
                    .map_err(|e| ApiError::from_reqwest(&e, secret))?;
                Ok::<_, ApiError>((status, header_retry, content_type, bytes))
            }
            .await;
            match result {
                Ok((status, _, content_type, bytes)) if (200..300).contains(&status) => {
                    tracing::debug!(method = "GET", path = "<file url>", status, "download");
                    return Ok(Downloaded { bytes, content_type });
                }
                failed => {
                    let (outcome, error) = failed_attempt(failed.map(|(status, retry, _, body)| (status, retry, body)));
                    self.wait_or_give_up(attempt, &outcome, error, true).await?;
                }
            }
        }
    }
}

