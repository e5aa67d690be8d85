//! Inspiration (`tracked_accounts`, `tracked_content`): a post as a card shows it, and a brand kit's accounts.
use crate::db::{new_id, CachedRow as _};
use crate::error::{ApiError, ApiResult};
use api_types::{BrandKitAccount, CardAssetInspiration, ContentSummary};
use rusqlite::{params, Connection, OptionalExtension};

pub const PLATFORMS: &[&str] = &["youtube", "instagram"];

/// The inspiration figures of a tracked post the caller can see, for a card asset attached by
/// `contentId`; `None` when the caller cannot see it (the card write answers 404).
pub fn content_for_card(
    conn: &rusqlite::Connection,
    account_id: &str,
    content_id: &str,
) -> crate::error::ApiResult<Option<api_types::CardAssetInspiration>> {
    // One post by its primary key: `read_content_where` with an id walked every tracked post of the
    // account (its `?2 IS NULL OR c.id = ?2` cannot use the key), a tenth of a `GET /cards/{id}`.
    Ok(conn
        .cached_row(
            "SELECT c.platform, c.content_type, a.name, a.handle, c.published_at, c.view_count, c.like_count,
                    c.comment_count, c.outlier_score, c.engagement_rate, c.thumbnail_url
             FROM tracked_content c JOIN tracked_accounts a ON a.id = c.tracked_account_id
             WHERE c.id = ?2 AND c.account_id = ?1 AND a.account_id = ?1",
            params![account_id, content_id],
            |r| {
                Ok(CardAssetInspiration {
                    platform: r.get(0)?,
                    content_type: r.get(1)?,
                    creator: r.get(2)?,
                    handle: r.get(3)?,
                    published_at: r.get(4)?,
                    view_count: r.get(5)?,
                    like_count: r.get(6)?,
                    comment_count: r.get(7)?,
                    outlier_score: r.get(8)?,
                    engagement_rate: r.get(9)?,
                    thumbnail_url: r.get(10)?,
                })
            },
        )
        .optional()?)
}

/// The ids of an account's tracked posts, highest outlier score first (for other modules' demo seeds,
/// which attach inspiration posts to cards).
pub fn content_ids(conn: &Connection, account_id: &str) -> rusqlite::Result<Vec<String>> {
    let mut stmt = conn.prepare_cached(
        "SELECT id FROM tracked_content WHERE account_id = ?1 ORDER BY outlier_score DESC, id",
    )?;
    let rows = stmt.query_map([account_id], |r| r.get(0))?;
    rows.collect()
}

/// Links the account's tracked accounts to a brand kit (the kit's brand and inspiration accounts).
pub fn link_to_brand_kit(
    conn: &Connection,
    account_id: &str,
    brand_kit_id: &str,
) -> rusqlite::Result<()> {
    conn.execute(
        "UPDATE tracked_accounts SET brand_kit_id = ?2 WHERE account_id = ?1 AND brand_kit_id IS NULL",
        params![account_id, brand_kit_id],
    )?;
    Ok(())
}

pub fn one_of(field: &str, value: &str, valid: &[&str]) -> ApiResult<()> {
    if valid.contains(&value) {
        return Ok(());
    }
    Err(ApiError::InvalidValue {
        message: format!(
            "Unknown `{field}` \"{value}\": use one of {}",
            valid.join(", ")
        ),
        field: field.to_string(),
        valid: valid.iter().map(|s| s.to_string()).collect(),
    })
}

/// The tracked accounts linked to a brand kit, as its full read lists them: `(brand, inspiration)`.
pub fn kit_accounts(conn: &Connection, kit_id: &str) -> ApiResult<(Vec<BrandKitAccount>, Vec<BrandKitAccount>)> {
    let mut stmt = conn.prepare_cached(
        "SELECT id, platform, name, handle, avatar_url, follower_count, account_type
         FROM tracked_accounts WHERE brand_kit_id = ?1 ORDER BY sort_order, created_at, id",
    )?;
    let rows = stmt.query_map([kit_id], |r| {
        Ok(BrandKitAccount {
            id: r.get(0)?,
            platform: r.get(1)?,
            name: r.get(2)?,
            handle: r.get(3)?,
            avatar_url: r.get(4)?,
            follower_count: r.get::<_, Option<i64>>(5)?.map(|n| n as f64),
            account_type: r.get(6)?,
        })
    })?;
    let all: Vec<BrandKitAccount> = rows.collect::<rusqlite::Result<_>>()?;
    Ok(all.into_iter().partition(|a| a.account_type.as_deref() != Some("inspiration")))
}

/// `brandAccounts` / `inspirationAccounts` on a kit PATCH: replaces the kit's accounts of that type. An
/// entry is a tracked-account id of the caller (linked; another's or an unknown one is 404 naming the
/// entry) or `{ platform?, handleOrUrl }`, which starts tracking a new account (`syncStatus: pending`; the
/// sandbox never fetches it). Entries were checked for shape before.
pub fn set_kit_accounts(
    conn: &Connection,
    account_id: &str,
    kit_id: &str,
    (field, account_type): (&str, &str),
    entries: &[serde_json::Value],
    now: &str,
) -> ApiResult<()> {
    conn.execute(
        "UPDATE tracked_accounts SET brand_kit_id = NULL WHERE account_id = ?1 AND brand_kit_id = ?2 AND account_type = ?3",
        params![account_id, kit_id, account_type],
    )?;
    for (i, entry) in entries.iter().enumerate() {
        match entry {
            serde_json::Value::String(id) => {
                let linked = conn.execute(
                    "UPDATE tracked_accounts SET brand_kit_id = ?3, account_type = ?4, sort_order = ?5
                     WHERE account_id = ?1 AND id = ?2",
                    params![account_id, id.trim(), kit_id, account_type, i as i64],
                )?;
                if linked == 0 {
                    return Err(ApiError::NotFound(format!("{field}[{i}]: tracked account {id} not found")));
                }
            }
            serde_json::Value::Object(o) => {
                let given = o.get("handleOrUrl").and_then(|h| h.as_str()).unwrap_or_default().trim();
                let platform = match o.get("platform").and_then(|p| p.as_str()) {
                    Some(p) => {
                        one_of(&format!("{field}[{i}].platform"), p, PLATFORMS)?;
                        p.to_string()
                    }
                    None if given.contains("youtube.com") || given.contains("youtu.be") => "youtube".into(),
                    None => "instagram".into(),
                };
                let tail = given.trim_end_matches('/').rsplit('/').next().unwrap_or(given).trim_start_matches('@');
                let handle = format!("@{tail}");
                conn.execute(
                    "INSERT INTO tracked_accounts (id, account_id, platform, handle, name, sync_status, account_type,
                        brand_kit_id, sort_order, created_at)
                     VALUES (?1, ?2, ?3, ?4, ?4, 'pending', ?5, ?6, ?7, ?8)",
                    params![new_id(), account_id, platform, handle, account_type, kit_id, i as i64, now],
                )?;
            }
            _ => return Err(ApiError::internal(format!("{field}[{i}] was not checked"))),
        }
    }
    Ok(())
}

/// A tracked post with what the filters need beside its wire form.
pub struct ContentRow {
    pub summary: ContentSummary,
    /// The tracked account's id.
    pub account_id: String,
    pub account_type: String,
    pub description: Option<String>,
    pub hashtags: Vec<String>,
}

impl ContentRow {
    /// `search` (already lower-case) against the title, description, hashtags and creator.
    pub fn matches(&self, search: &str) -> bool {
        let s = &self.summary;
        [
            &s.title,
            &self.description,
            &s.source_creator,
            &s.account_handle,
        ]
        .iter()
        .any(|f| {
            f.as_ref()
                .is_some_and(|t| t.to_lowercase().contains(search))
        }) || self
            .hashtags
            .iter()
            .any(|h| h.to_lowercase().contains(search))
    }
}

pub fn read_content_where(
    conn: &Connection,
    account_id: &str,
    content_id: Option<&str>,
) -> ApiResult<Vec<ContentRow>> {
    let mut stmt = conn.prepare_cached(
        "SELECT c.id, c.platform, c.content_type, c.title, c.url, c.thumbnail_url, c.view_count, c.like_count,
                c.comment_count, c.share_count, c.duration_seconds, c.outlier_score, c.engagement_rate,
                c.published_at, a.name, a.handle, a.id, a.account_type, c.description, c.hashtags
         FROM tracked_content c JOIN tracked_accounts a ON a.id = c.tracked_account_id
         WHERE c.account_id = ?1 AND a.account_id = ?1 AND (?2 IS NULL OR c.id = ?2)",
    )?;
    let rows = stmt.query_map(params![account_id, content_id], |r| {
        let hashtags: String = r.get(19)?;
        Ok(ContentRow {
            summary: ContentSummary {
                id: r.get(0)?,
                platform: r.get(1)?,
                content_type: r.get(2)?,
                title: r.get(3)?,
                url: r.get(4)?,
                thumbnail_url: r.get(5)?,
                view_count: r.get(6)?,
                like_count: r.get(7)?,
                comment_count: r.get(8)?,
                share_count: r.get(9)?,
                duration_seconds: r.get(10)?,
                outlier_score: r.get(11)?,
                engagement_rate: r.get(12)?,
                published_at: r.get(13)?,
                source_creator: r.get(14)?,
                account_handle: r.get(15)?,
                account_id: r.get(16)?,
            },
            account_id: r.get(16)?,
            account_type: r.get(17)?,
            description: r.get(18)?,
            hashtags: serde_json::from_str(&hashtags).unwrap_or_default(),
        })
    })?;
    Ok(rows.collect::<rusqlite::Result<_>>()?)
}
