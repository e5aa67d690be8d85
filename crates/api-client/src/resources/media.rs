//! The account's library (`GET /media`), uploads (ticket → PUT bytes → complete) and imports by URL
//! (facts 2.4). The PUT goes to object storage, so it carries no `Authorization` header and exactly the
//! ticket's `uploadHeaders`.
use crate::error::{ApiError, Result};
use crate::http::{seg, Call};
use crate::transfer::OnBytes;
use crate::Client;
use api_types::{
    CreateUpload, ImportMedia, ImportedMedia, MediaList, MediaQuery, UploadTicket, UploadedMedia,
};
use bytes::Bytes;
use reqwest::header::{HeaderMap, HeaderName, HeaderValue, CONTENT_TYPE};
use reqwest::Method;

pub struct MediaHandler<'c> {
    pub(crate) client: &'c Client,
}

impl MediaHandler<'_> {
    /// A page of the account's library, newest first, one `MediaSummary` per output (its token is
    /// `{id}-{variant + 1}`). The service's defaults: `source` creations, `limit` 50.
    pub async fn list(&self, query: &MediaQuery) -> Result<MediaList> {
        self.client
            .call(Call::get("/media").query_struct(query)?)
            .await
    }

    pub async fn create_upload(&self, req: &CreateUpload) -> Result<UploadTicket> {
        self.client
            .call(Call::new(Method::POST, "/media/uploads").json(req)?)
            .await
    }

    /// PUTs the bytes where the ticket says, with exactly its `uploadHeaders` (no auth). Without
    /// headers on the ticket, sends `Content-Type: application/octet-stream`.
    pub async fn put_bytes(&self, ticket: &UploadTicket, bytes: impl Into<Bytes>) -> Result<()> {
        self.put_with_type(ticket, bytes.into(), "application/octet-stream", None)
            .await
    }

    pub async fn complete_upload(&self, output_id: &str) -> Result<UploadedMedia> {
        let call = Call::new(
            Method::POST,
            format!("/media/uploads/{}/complete", seg(output_id)),
        );
        self.client.call(call).await
    }

    /// Ticket, PUT, complete: the file's `outputId` and URL, ready to attach to a card or use as a
    /// reference.
    pub async fn upload(
        &self,
        file_name: &str,
        content_type: &str,
        bytes: impl Into<Bytes>,
    ) -> Result<UploadedMedia> {
        let bytes = bytes.into();
        let ticket = self
            .create_upload(&CreateUpload {
                file_name: file_name.to_string(),
                content_type: content_type.to_string(),
                size_bytes: Some(bytes.len() as u64),
                ..Default::default()
            })
            .await?;
        self.put_with_type(&ticket, bytes, content_type, None).await?;
        self.complete_upload(&ticket.output_id).await
    }

    /// [`upload`](Self::upload), reporting `(bytes sent, total)` of the PUT as it goes.
    pub async fn upload_with_progress(
        &self,
        file_name: &str,
        content_type: &str,
        bytes: impl Into<Bytes>,
        on_bytes: OnBytes,
    ) -> Result<UploadedMedia> {
        let bytes = bytes.into();
        let ticket = self
            .create_upload(&CreateUpload {
                file_name: file_name.to_string(),
                content_type: content_type.to_string(),
                size_bytes: Some(bytes.len() as u64),
                ..Default::default()
            })
            .await?;
        self.put_with_type(&ticket, bytes, content_type, Some(on_bytes))
            .await?;
        self.complete_upload(&ticket.output_id).await
    }

    /// Imports a file by URL; idempotent by content on the server.
    pub async fn import(&self, req: &ImportMedia) -> Result<ImportedMedia> {
        self.client
            .call(Call::new(Method::POST, "/media/imports").json(req)?)
            .await
    }

    async fn put_with_type(
        &self,
        ticket: &UploadTicket,
        bytes: Bytes,
        fallback_type: &str,
        on_bytes: Option<OnBytes>,
    ) -> Result<()> {
        let mut headers = HeaderMap::new();
        match &ticket.upload_headers {
            Some(given) if !given.is_empty() => {
                for (name, value) in given {
                    let name = HeaderName::from_bytes(name.as_bytes())
                        .map_err(|_| ApiError::Config(format!("bad upload header name {name}")))?;
                    let value = HeaderValue::from_str(value).map_err(|_| {
                        ApiError::Config(format!("bad upload header value for {name}"))
                    })?;
                    headers.insert(name, value);
                }
            }
            _ => {
                let value = HeaderValue::from_str(fallback_type)
                    .map_err(|_| ApiError::Config(format!("bad content type {fallback_type}")))?;
                headers.insert(CONTENT_TYPE, value);
            }
        }
        self.client
            .put_raw(&ticket.upload_url, headers, bytes, on_bytes)
            .await
    }
}
