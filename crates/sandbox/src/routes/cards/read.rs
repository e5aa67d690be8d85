//! Card reads: the list with its filters and paging, and one card with its posts and assets.
use super::*;
use crate::tables::{board, inspiration, projects};

// ---------- reads ----------

/// The columns of a card summary, as a literal so that a query can be one `concat!` (no string made
/// per request).
macro_rules! summary_cols {
    () => {
        "c.id, c.title, c.platform, c.space_id, c.stage_id, c.board_order, c.content_type, \
         c.cover_url, c.is_favorite, c.archived_at, c.scheduled_at, c.published_at, c.publish_url, c.created_at, \
         c.updated_at"
    };
}
pub(super) const SUMMARY_COLS: &str = summary_cols!();

pub(super) fn summary_from_row(r: &Row) -> rusqlite::Result<CardSummary> {
    let archived_at: Option<String> = r.get(9)?;
    Ok(CardSummary {
        id: r.get(0)?,
        title: r.get(1)?,
        platform: r.get(2)?,
        space_id: r.get(3)?,
        stage_id: r.get(4)?,
        board_order: r.get(5)?,
        content_type: r.get(6)?,
        cover_url: r.get(7)?,
        is_favorite: r.get::<_, i64>(8)? != 0,
        is_archived: archived_at.is_some(),
        archived_at,
        scheduled_at: r.get(10)?,
        published_at: r.get(11)?,
        publish_url: r.get(12)?,
        created_at: r.get(13)?,
        updated_at: r.get(14)?,
        platforms: Vec::new(),
        tags: Vec::new(),
    })
}

/// Adds the post platforms and tag names a summary lists.
pub(super) fn fill_summary(conn: &Connection, s: &mut CardSummary) -> rusqlite::Result<()> {
    let mut stmt = conn
        .prepare_cached("SELECT platform FROM card_posts WHERE card_id = ?1 ORDER BY sort_order")?;
    s.platforms = stmt
        .query_map([&s.id], |r| r.get(0))?
        .collect::<rusqlite::Result<_>>()?;
    s.tags = read_tags(conn, &s.id)?;
    Ok(())
}

/// A card's tag names, by name.
fn read_tags(conn: &Connection, card_id: &str) -> rusqlite::Result<Vec<String>> {
    // Sorted here, not by `ORDER BY t.name`: SQLite sorted these few names in a temporary B-tree on every
    // card read. `String`'s order is SQLite's BINARY collation (bytes), so the order is the same.
    let mut stmt =
        conn.prepare_cached("SELECT t.name FROM card_tags ct JOIN tags t ON t.id = ct.tag_id WHERE ct.card_id = ?1")?;
    let mut tags: Vec<String> = stmt.query_map([card_id], |r| r.get(0))?.collect::<rusqlite::Result<_>>()?;
    tags.sort_unstable();
    Ok(tags)
}

pub(crate) async fn list(
    State(state): State<AppState>,
    caller: Caller,
    AppQuery(q): AppQuery<CardQuery>,
) -> ApiResult<Reply<CardList>> {
    state
        .db()
        .tx(|tx| list_cards(tx, &caller.account_id, &q))
        .map(Reply)
}

pub(super) fn list_cards(conn: &Connection, account_id: &str, q: &CardQuery) -> ApiResult<CardList> {
    // Out of range is a 400 naming `limit`, as on `/content` and the knowledge lists (never clamped).
    let limit = q.limit.unwrap_or(DEFAULT_LIMIT);
    if !(1..=MAX_LIMIT).contains(&limit) {
        return Err(ApiError::bad(
            "limit",
            format!("`limit` must be between 1 and {MAX_LIMIT}"),
        ));
    }
    let space = board::given_or_default(conn, account_id, q.space_id.as_deref())?;
    board::ensure_stages(conn, account_id, &space.id)?;
    let mut conds = vec!["c.account_id = ?".to_string(), "c.space_id = ?".to_string()];
    let mut args: Vec<String> = vec![account_id.to_string(), space.id.clone()];
    // `archived=true` lists the archived cards (the archive view); otherwise they are left out.
    conds.push(
        if q.archived == Some(true) {
            "c.archived_at IS NOT NULL"
        } else {
            "c.archived_at IS NULL"
        }
        .into(),
    );
    if let Some(p) = &q.platform {
        check_platform("platform", p)?;
        conds.push(
            "(c.platform = ? OR EXISTS (SELECT 1 FROM card_posts p WHERE p.card_id = c.id AND p.platform = ?))".into(),
        );
        args.push(p.clone());
        args.push(p.clone());
    }
    if let Some(key) = &q.stage {
        let stage = board::find_in_space(conn, &space.id, key)?
            .ok_or_else(|| unknown_stage(conn, &space, key))?;
        conds.push("c.stage_id = ?".into());
        args.push(stage.id);
    }
    if let Some(fav) = q.is_favorite {
        conds.push(
            if fav {
                "c.is_favorite = 1"
            } else {
                "c.is_favorite = 0"
            }
            .into(),
        );
    }
    if let Some(tag) = &q.tag {
        conds.push(
            "EXISTS (SELECT 1 FROM card_tags ct JOIN tags t ON t.id = ct.tag_id WHERE ct.card_id = c.id AND t.name = ?)"
                .into(),
        );
        args.push(tag.trim().to_lowercase());
    }
    if let Some(search) = q.search.as_deref().map(str::trim).filter(|s| !s.is_empty()) {
        conds.push("c.title LIKE ? ESCAPE '\\'".into());
        let escaped = search
            .replace('\\', "\\\\")
            .replace('%', "\\%")
            .replace('_', "\\_");
        args.push(format!("%{escaped}%"));
    }
    let offset = q.offset.unwrap_or(0);
    let where_ = conds.join(" AND ");
    let total: i64 = conn.cached_row(
        &format!("SELECT COUNT(*) FROM cards c WHERE {where_}"),
        params_from_iter(&args),
        |r| r.get(0),
    )?;
    let mut stmt = conn.prepare_cached(&format!(
        "SELECT {SUMMARY_COLS} FROM cards c LEFT JOIN stages s ON s.id = c.stage_id WHERE {where_}
         ORDER BY s.sort_order, c.board_order, c.rowid LIMIT {limit} OFFSET {offset}"
    ))?;
    let mut cards = stmt
        .query_map(params_from_iter(&args), summary_from_row)?
        .collect::<rusqlite::Result<Vec<_>>>()?;
    for c in &mut cards {
        fill_summary(conn, c)?;
    }
    let has_more = (offset as i64) + (cards.len() as i64) < total;
    Ok(CardList {
        cards,
        total,
        has_more,
        next_cursor: None,
        space: Some(space),
    })
}

pub(super) fn unknown_stage(conn: &Connection, space: &ResolvedSpace, key: &str) -> ApiError {
    let valid: Vec<String> = board::in_space(conn, &space.id)
        .map(|s| s.into_iter().map(|s| s.slug.unwrap_or(s.name)).collect())
        .unwrap_or_default();
    ApiError::InvalidValue {
        message: format!(
            "No stage {key:?} in the space \"{}\"; give a stage id, slug or name: {}",
            space.name,
            valid.join(", ")
        ),
        field: "stage".into(),
        valid,
    }
}

pub(crate) async fn one(
    State(state): State<AppState>,
    caller: Caller,
    Path(id): Path<String>,
) -> ApiResult<Reply<CardEnvelope<CardDetail>>> {
    let post = state.db().read(|conn| read_detail(conn, &caller.account_id, &id))?;
    Ok(Reply(CardEnvelope { post }))
}

/// The caller's card `id` as `GET /cards/{id}` gives it, or 404.
pub fn read_detail(conn: &Connection, account_id: &str, id: &str) -> ApiResult<CardDetail> {
    let found = conn
        .cached_row(
            concat!(
                "SELECT ",
                summary_cols!(),
                ", c.notes, c.revision, c.cover_x, c.cover_y, c.metadata
                 FROM cards c WHERE c.id = ?1 AND c.account_id = ?2"
            ),
            params![id, account_id],
            |r| {
                let x: Option<f64> = r.get(17)?;
                let y: Option<f64> = r.get(18)?;
                let metadata: Option<String> = r.get(19)?;
                Ok((
                    summary_from_row(r)?,
                    r.get::<_, Option<String>>(15)?,
                    r.get::<_, i64>(16)?,
                    x.zip(y).map(|(x, y)| Position { x, y }),
                    metadata.and_then(|m| serde_json::from_str(&m).ok()),
                ))
            },
        )
        .optional()?;
    let (mut summary, notes, revision, cover_position, metadata) =
        found.ok_or_else(|| ApiError::not_found("Card"))?;
    let mut posts = read_posts(conn, id)?;
    let tags = read_tags(conn, id)?;
    let assets = read_assets(conn, account_id, id)?;
    // A post without its own time has the card's.
    if let Some(card_time) = &summary.scheduled_at {
        for p in posts.iter_mut().filter(|p| p.scheduled_at.is_none()) {
            p.scheduled_at = Some(card_time.clone());
        }
    }
    // The posts give the summary's platforms (the same rows in the same order).
    summary.platforms = posts.iter().filter_map(|p| p.platform.clone()).collect();
    summary.tags = tags;
    Ok(CardDetail {
        summary,
        notes,
        revision,
        cover_position,
        metadata,
        assets,
        posts,
    })
}

/// Posts with their own times (`None` for a post that has the card's): [`read_detail`] gives those
/// the card's, so that, like the real service, no flag says which (the client compares the post's time
/// with the card's).
fn read_posts(conn: &Connection, card_id: &str) -> rusqlite::Result<Vec<Post>> {
    let mut stmt = conn.prepare_cached(
        "SELECT id, connected_account_id, platform, format, status, scheduled_at, published_at, platform_settings
         FROM card_posts WHERE card_id = ?1 ORDER BY sort_order",
    )?;
    let rows = stmt.query_map([card_id], |r| {
        let own: Option<String> = r.get(5)?;
        let settings: Option<String> = r.get(7)?;
        Ok(Post {
            id: r.get(0)?,
            connected_account_id: r.get(1)?,
            platform: r.get(2)?,
            format: r.get(3)?,
            status: r.get(4)?,
            scheduled_at: own,
            published_at: r.get(6)?,
            platform_settings: settings.and_then(|s| serde_json::from_str(&s).ok()),
        })
    })?;
    rows.collect()
}

/// Assets in carousel order, each under the field that attached it; `assetId` (deprecated) is the
/// pointed-at id whatever the kind.
pub(super) fn read_assets(conn: &Connection, account_id: &str, card_id: &str) -> ApiResult<Vec<CardAsset>> {
    let mut stmt = conn.prepare_cached(
        "SELECT id, asset_type, output_id, asset_url, content_id, project_id, display_name, preview_url, sort_order
         FROM card_assets WHERE card_id = ?1 ORDER BY sort_order",
    )?;
    let rows = stmt.query_map([card_id], |r| {
        Ok(CardAsset {
            id: r.get(0)?,
            asset_type: r.get(1)?,
            output_id: r.get(2)?,
            asset_url: r.get(3)?,
            content_id: r.get(4)?,
            project_id: r.get(5)?,
            asset_id: None,
            display_name: r.get(6)?,
            preview_url: r.get(7)?,
            inspiration: None,
            sort_order: Some(r.get::<_, i64>(8)? as f64),
        })
    })?;
    let mut assets = rows.collect::<rusqlite::Result<Vec<_>>>()?;
    for a in &mut assets {
        a.asset_id = a
            .output_id
            .clone()
            .or(a.content_id.clone())
            .or(a.project_id.clone());
        if let Some(content_id) = &a.content_id {
            a.inspiration = inspiration::content_for_card(conn, account_id, content_id)?;
            if a.preview_url.is_none() {
                a.preview_url = a.inspiration.as_ref().and_then(|i| i.thumbnail_url.clone());
            }
        }
        if let Some(project_id) = &a.project_id {
            if let Some(p) = projects::find(conn, account_id, project_id)? {
                a.display_name = a.display_name.take().or(p.title);
                a.preview_url = a.preview_url.take().or(p.thumbnail_url);
            }
        }
    }
    Ok(assets)
}
