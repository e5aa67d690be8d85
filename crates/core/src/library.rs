//! The account's media library for the Studio's gallery (docs/ipc.md, "Studio"): the finished outputs
//! of every render and board of the account, wherever it was made (this app, another app, the
//! sandbox's seeded demo), not only the local render queue's. One `MediaSummary` per output, newest
//! first; its output token is `{id}-{variant + 1}`, as the gallery's own.
use api_types::{MediaQuery, MediaSummary};

use crate::error::IpcResult;
use crate::session::Session;

/// The catalogue's `MediaListInput` (as `cdesk media list` and `list_media`); the gallery's defaults are
/// the finished creations.
pub use contentdesk_ops::media::MediaListInput;

/// A page of the account's finished creations (renders and boards; not uploads), newest first.
pub async fn media_library(session: &impl Session, args: MediaListInput) -> IpcResult<Vec<MediaSummary>> {
    args.check()?;
    let blank = |v: Option<String>| v.map(|s| s.trim().to_string()).filter(|s| !s.is_empty());
    let query = MediaQuery {
        source: blank(args.source).or_else(|| Some("creations".into())),
        content_type: blank(args.content_type),
        kind: blank(args.kind),
        status: blank(args.status).or_else(|| Some("completed".into())),
        limit: args.page.limit,
        offset: args.page.offset,
    };
    Ok(session.client().await?.media().list(&query).await?.media)
}
