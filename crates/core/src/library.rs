//! The account's media library for the Studio's gallery (docs/ipc.md, "Studio"): the finished outputs
//! of every render and board of the account, wherever it was made (this app, another app, the
//! sandbox's seeded demo), not only the local render queue's. One `MediaSummary` per output, newest
//! first; its output token is `{id}-{variant + 1}`, as the gallery's own.
use api_types::{ContentType, MediaQuery, MediaSummary};
use serde::{Deserialize, Serialize};
use ts_rs::TS;

use crate::error::{IpcError, IpcResult};
use crate::session::Session;

/// Outputs per `media_library` page at most (the service's limit).
pub const LIBRARY_PAGE_MAX: u32 = 100;

#[derive(Debug, Clone, Default, Deserialize, Serialize, TS)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct MediaLibraryArgs {
    /// Only these media types; every type when absent or empty.
    #[serde(default)]
    #[ts(optional)]
    pub content_type: Option<Vec<ContentType>>,
    /// 1–100; the service's default (50) when absent.
    #[serde(default)]
    #[ts(optional)]
    pub limit: Option<u32>,
    /// How many outputs of the list to skip (paging).
    #[serde(default)]
    #[ts(optional)]
    pub offset: Option<u32>,
}

/// A page of the account's finished creations (renders and boards; not uploads), newest first.
pub async fn media_library(session: &impl Session, args: MediaLibraryArgs) -> IpcResult<Vec<MediaSummary>> {
    if let Some(limit) = args.limit {
        if !(1..=LIBRARY_PAGE_MAX).contains(&limit) {
            return Err(IpcError::validation("limit", format!("Ask for 1 to {LIBRARY_PAGE_MAX} outputs at a time.")));
        }
    }
    let mut types: Vec<&str> = args.content_type.unwrap_or_default().iter().map(|t| t.as_str()).collect();
    types.sort_unstable();
    types.dedup();
    let query = MediaQuery {
        source: Some("creations".into()),
        content_type: (!types.is_empty()).then(|| types.join(",")),
        status: Some("completed".into()),
        limit: args.limit,
        offset: args.offset,
        ..Default::default()
    };
    Ok(session.client().await?.media().list(&query).await?.media)
}
