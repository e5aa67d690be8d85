//! Knowledge items (`knowledge_items`): the references of a kit.
use crate::error::ApiResult;
use api_types::KnowledgeRef;
use rusqlite::Connection;

/// The first characters of an item shown in lists.
pub const PREVIEW_CHARS: usize = 160;

/// The kit's items as the full brand-kit read lists them, newest first.
pub fn refs_for_kit(conn: &Connection, kit_id: &str) -> ApiResult<Vec<KnowledgeRef>> {
    let mut stmt = conn.prepare_cached(
        "SELECT id, title, source_type, source_url, content FROM knowledge_items WHERE brand_kit_id = ?1
         ORDER BY created_at DESC, rowid DESC",
    )?;
    let rows = stmt.query_map([kit_id], |r| {
        let content: String = r.get(4)?;
        let preview = content.split_whitespace().collect::<Vec<_>>().join(" ");
        Ok(KnowledgeRef {
            id: r.get(0)?,
            title: r.get(1)?,
            source_type: r.get(2)?,
            source_url: r.get(3)?,
            content_preview: (!preview.is_empty())
                .then(|| preview.chars().take(PREVIEW_CHARS).collect()),
        })
    })?;
    Ok(rows.collect::<rusqlite::Result<_>>()?)
}
