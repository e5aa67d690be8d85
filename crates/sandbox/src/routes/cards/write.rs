//! Card writes: create, update (the whole-list rules, scopes by content) and moves between stages.
use super::*;
use crate::tables::archived::{set_archived, Archivable};
use crate::tables::{board, generations, tags};

// ---------- writes ----------

/// What a write starts from: the card as stored (empty for a new card).
#[derive(Default)]
pub(super) struct Current {
    pub(super) id: String,
    pub(super) space_id: String,
    pub(super) stage_id: Option<String>,
    pub(super) scheduled_at: Option<String>,
    pub(super) notes: Option<String>,
    pub(super) revision: i64,
    pub(super) cover_output_id: Option<String>,
    /// `(platform, own scheduledAt)`.
    pub(super) posts: Vec<(String, Option<String>)>,
    pub(super) assets: Vec<StoredAsset>,
}

#[derive(Clone)]
pub(super) struct StoredAsset {
    pub(super) id: String,
    pub(super) output_id: Option<String>,
    pub(super) asset_url: Option<String>,
    pub(super) content_id: Option<String>,
    pub(super) project_id: Option<String>,
}

pub(super) fn load_current(conn: &Connection, account_id: &str, id: &str) -> ApiResult<Current> {
    load_current_for(conn, account_id, id, None)
}

/// [`load_current`] for the write `upd`: the posts and assets as stored are read only when it carries
/// what they are compared with (`posts` or `scheduledAt`; `assets`). A title or a move reads the card's
/// row alone (two queries fewer on a `PATCH /cards/{id}`).
pub(super) fn load_current_for(
    conn: &Connection,
    account_id: &str,
    id: &str,
    upd: Option<&UpdateCard>,
) -> ApiResult<Current> {
    let mut cur = conn
        .cached_row(
            "SELECT id, space_id, stage_id, scheduled_at, notes, revision, cover_output_id
             FROM cards WHERE id = ?1 AND account_id = ?2",
            params![id, account_id],
            |r| {
                Ok(Current {
                    id: r.get(0)?,
                    space_id: r.get(1)?,
                    stage_id: r.get(2)?,
                    scheduled_at: r.get(3)?,
                    notes: r.get(4)?,
                    revision: r.get(5)?,
                    cover_output_id: r.get(6)?,
                    ..Default::default()
                })
            },
        )
        .optional()?
        .ok_or_else(|| ApiError::not_found("Card"))?;
    let posts_needed = upd.is_none_or(|u| u.posts.is_some() || u.scheduled_at.is_some());
    let assets_needed = upd.is_none_or(|u| u.assets.is_some());
    if posts_needed {
        let mut stmt = conn.prepare_cached(
            "SELECT platform, scheduled_at FROM card_posts WHERE card_id = ?1 ORDER BY sort_order",
        )?;
        cur.posts = stmt
            .query_map([id], |r| Ok((r.get(0)?, r.get(1)?)))?
            .collect::<rusqlite::Result<_>>()?;
    }
    if !assets_needed {
        return Ok(cur);
    }
    let mut stmt = conn.prepare_cached(
        "SELECT id, output_id, asset_url, content_id, project_id FROM card_assets WHERE card_id = ?1 ORDER BY sort_order",
    )?;
    cur.assets = stmt
        .query_map([id], |r| {
            Ok(StoredAsset {
                id: r.get(0)?,
                output_id: r.get(1)?,
                asset_url: r.get(2)?,
                content_id: r.get(3)?,
                project_id: r.get(4)?,
            })
        })?
        .collect::<rusqlite::Result<_>>()?;
    Ok(cur)
}

/// The scopes a card write needs beyond `planner:write` (which the gate checks), from what it carries
/// (spec cards rule 8, docs/api.md):
/// - `posts` present → `pipeline:write` (creating and assembling posts);
/// - a write that changes a schedule → `publish:write`. "Changes" because a client that sends the posts
///   back as it read them (own times included) to edit a caption is not scheduling anything; setting the
///   card's time, clearing it, or giving a post a different own time is;
/// - attaching an `outputId` that is not on the card yet, or a `coverOutputId` → `assets:write`.
///   Checked on the tokens as sent, before they are resolved, so a 403 never depends on the file.
pub(super) fn require_write_scopes(caller: &Caller, cur: &Current, upd: &UpdateCard) -> ApiResult<()> {
    if upd.posts.is_some() {
        caller.require(PIPELINE_WRITE)?;
    }
    let norm = |s: &Option<String>| {
        s.as_ref()
            .map(|s| time::normalise(s).unwrap_or_else(|| s.clone()))
    };
    let card_changes = match &upd.scheduled_at {
        Some(v) => norm(v) != cur.scheduled_at || cur.posts.iter().any(|(_, own)| own.is_some()),
        None => false,
    };
    let post_changes = upd.posts.iter().flatten().any(|p| {
        let before = cur
            .posts
            .iter()
            .find(|(pl, _)| *pl == p.platform)
            .and_then(|(_, own)| own.clone());
        norm(&p.scheduled_at) != before
    });
    if card_changes || post_changes {
        caller.require(PUBLISH_WRITE)?;
    }
    let new_output = upd.assets.iter().flatten().any(|a| {
        a.output_id.as_ref().is_some_and(|o| {
            !cur.assets
                .iter()
                .any(|s| s.output_id.as_deref() == Some(o.as_str()))
        })
    });
    let new_cover = upd
        .cover_output_id
        .as_ref()
        .is_some_and(|c| cur.cover_output_id.as_deref() != Some(c.as_str()));
    if new_output || new_cover {
        caller.require(ASSETS_WRITE)?;
    }
    Ok(())
}

pub(crate) async fn create(
    State(state): State<AppState>,
    caller: Caller,
    AppJson(body): AppJson<CreateCard>,
) -> ApiResult<Reply<CardEnvelope<CardDetail>>> {
    let title = check_title(&body.title)?;
    check_platform("platform", &body.platform)?;
    // The rest of a create is an update of the new, empty card: the same rules, checks and scopes.
    let upd = UpdateCard {
        cover_url: body.cover_url.clone().map(Some),
        cover_output_id: body.cover_output_id.clone(),
        tags: body.tags.clone(),
        scheduled_at: body.scheduled_at.clone().map(Some),
        posts: body.posts.clone(),
        assets: body.assets.clone(),
        ..Default::default()
    };
    require_write_scopes(&caller, &Current::default(), &upd)?;
    let detail = state.db().tx(|tx| {
        let account = &caller.account_id;
        let space = board::given_or_default(tx, account, body.space_id.as_deref())?;
        board::ensure_stages(tx, account, &space.id)?;
        let (space_id, stage_id) = match &body.stage {
            Some(key) => resolve_stage(tx, account, &space.id, key, body.space_id.as_deref())?,
            None => {
                let first = board::in_space(tx, &space.id)?.into_iter().next();
                (space.id.clone(), first.map(|s| s.id).ok_or_else(|| ApiError::internal("space without stages"))?)
            }
        };
        let id = new_id();
        let now = time::now_str();
        tx.cached_execute(
            "INSERT INTO cards (id, account_id, space_id, stage_id, board_order, title, platform, notes, created_at,
                 updated_at)
             VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?9)",
            params![id, account, space_id, stage_id, end_of_stage(tx, &stage_id)?, title, body.platform, body.notes, now],
        )?;
        let cur = load_current(tx, account, &id)?;
        apply_update(tx, account, &cur, &upd)?;
        read_detail(tx, account, &id)
    })?;
    Ok(Reply(CardEnvelope { post: detail }))
}

pub(crate) async fn update(
    State(state): State<AppState>,
    caller: Caller,
    Path(id): Path<String>,
    AppJson(body): AppJson<UpdateCard>,
) -> ApiResult<Reply<CardEnvelope<CardDetail>>> {
    let detail = state.db().tx(|tx| {
        let account = caller.account_id.as_str();
        let cur = load_current_for(tx, account, &id, Some(&body))?;
        require_write_scopes(&caller, &cur, &body)?;
        apply_update(tx, account, &cur, &body)?;
        // The reply is the card read again after the write, as `GET /cards/{id}` reads it.
        read_detail(tx, account, &id)
    })?;
    Ok(Reply(CardEnvelope { post: detail }))
}

/// Applies a card write inside the caller's transaction; any error rolls all of it back.
pub(super) fn apply_update(tx: &Connection, account: &str, cur: &Current, upd: &UpdateCard) -> ApiResult<()> {
    let id = cur.id.as_str();
    let now = time::now_str();
    // `sql` is a whole `UPDATE cards SET <column> = ?2 WHERE id = ?1` (a literal: the statement cache
    // is looked up by it, with no string made per request).
    let set = |sql: &str, value: &dyn rusqlite::ToSql| -> rusqlite::Result<usize> {
        tx.cached_execute(sql, params![id, value])
    };

    // The title is checked first (its 400 comes before any other field's) and written at the end, in
    // the same statement as `updated_at`.
    let title = upd.title.as_deref().map(check_title).transpose()?;
    if let Some(platform) = &upd.platform {
        check_platform("platform", platform)?;
        set("UPDATE cards SET platform = ?2 WHERE id = ?1", platform)?;
    }
    if let Some(ct) = &upd.content_type {
        set("UPDATE cards SET content_type = ?2 WHERE id = ?1", ct)?;
    }
    if let Some(fav) = upd.is_favorite {
        set("UPDATE cards SET is_favorite = ?2 WHERE id = ?1", &fav)?;
    }
    if let Some(meta) = &upd.metadata {
        set("UPDATE cards SET metadata = ?2 WHERE id = ?1", &meta.to_string())?;
    }
    if let Some(archived) = upd.archived {
        set_archived(tx, Archivable::Card, account, id, archived)?;
    }
    // A publication made elsewhere, recorded on the card; null clears it.
    if let Some(at) = &upd.published_at {
        set("UPDATE cards SET published_at = ?2 WHERE id = ?1", &rfc3339(&"publishedAt", at.as_deref())?)?;
    }
    if let Some(url) = &upd.publish_url {
        if let Some(u) = url {
            board::check_url("publishUrl", u)?;
        }
        set("UPDATE cards SET publish_url = ?2 WHERE id = ?1", url)?;
    }

    // Cover: a link, or a finished output (served at its URL); null removes it and its framing.
    if upd.cover_output_id.is_some() && matches!(upd.cover_url, Some(Some(_))) {
        return Err(ApiError::bad(
            "coverOutputId",
            "Give coverUrl or coverOutputId, not both",
        ));
    }
    match &upd.cover_url {
        Some(None) => {
            tx.cached_execute(
                "UPDATE cards SET cover_url = NULL, cover_output_id = NULL, cover_x = NULL, cover_y = NULL WHERE id = ?1",
                [id],
            )?;
        }
        Some(Some(url)) => {
            board::check_url("coverUrl", url)?;
            tx.cached_execute(
                "UPDATE cards SET cover_url = ?2, cover_output_id = NULL WHERE id = ?1",
                params![id, url],
            )?;
        }
        None => {}
    }
    if let Some(token) = &upd.cover_output_id {
        let out = generations::resolve_output(tx, account, token, "coverOutputId")?;
        tx.cached_execute(
            "UPDATE cards SET cover_url = ?2, cover_output_id = ?3 WHERE id = ?1",
            params![id, out.url, output_token(&out)],
        )?;
    }
    if let Some(p) = upd.cover_position {
        let ok = |v: f64| v.is_finite() && (0.0..=100.0).contains(&v);
        if !ok(p.x) || !ok(p.y) {
            return Err(ApiError::bad(
                "coverPosition",
                "coverPosition x and y are percentages between 0 and 100",
            ));
        }
        tx.cached_execute(
            "UPDATE cards SET cover_x = ?2, cover_y = ?3 WHERE id = ?1",
            params![id, p.x, p.y],
        )?;
    }

    // Notes are guarded by the revision the writer read.
    if let Some(notes) = &upd.notes {
        let expected = upd.expected_revision.ok_or_else(|| {
            ApiError::bad(
                "expectedRevision",
                "notes needs expectedRevision, the card's revision when you read it",
            )
        })?;
        if expected != cur.revision {
            return Err(ApiError::NotesConflict {
                notes: cur.notes.clone().unwrap_or_default(),
                revision: cur.revision,
            });
        }
        if cur.notes.as_deref() != Some(notes.as_str()) {
            tx.cached_execute(
                "UPDATE cards SET notes = ?2, revision = revision + 1 WHERE id = ?1",
                params![id, notes],
            )?;
        }
    }

    apply_move(tx, account, cur, upd)?;

    // scheduledAt sets the card and every post: posts lose their own times here, and a post in this
    // same write that carries its own time gets it back below. null clears the card and every post.
    if let Some(when) = &upd.scheduled_at {
        set("UPDATE cards SET scheduled_at = ?2 WHERE id = ?1", &rfc3339(&"scheduledAt", when.as_deref())?)?;
        tx.cached_execute(
            "UPDATE card_posts SET scheduled_at = NULL WHERE card_id = ?1",
            [id],
        )?;
    }

    if let Some(posts) = &upd.posts {
        write_posts(tx, account, id, posts)?;
    }
    if let Some(assets) = &upd.assets {
        write_assets(tx, account, cur, assets)?;
    }
    if let Some(names) = &upd.tags {
        let mut ids = Vec::new();
        for (i, name) in names.iter().enumerate() {
            let tag = tags::id_by_name(tx, account, name)?.ok_or_else(|| {
                ApiError::bad(
                    format!("tags[{i}]"),
                    format!("No tag named {name:?}; create it first with POST /tags"),
                )
            })?;
            if !ids.contains(&tag) {
                ids.push(tag);
            }
        }
        tx.cached_execute("DELETE FROM card_tags WHERE card_id = ?1", [id])?;
        for tag in ids {
            tx.cached_execute(
                "INSERT INTO card_tags (card_id, tag_id) VALUES (?1, ?2)",
                params![id, tag],
            )?;
        }
    }
    match &title {
        Some(t) => tx.cached_execute(
            "UPDATE cards SET title = ?2, updated_at = ?3 WHERE id = ?1",
            params![id, t, now],
        )?,
        None => set("UPDATE cards SET updated_at = ?2 WHERE id = ?1", &now)?,
    };
    Ok(())
}

/// Moving (fact sheet 2.8): `stage` (id, slug or name) and/or `spaceId`, then the place in the stage:
/// `beforeCardId` (drag and drop), `boardOrder`, or the end of the stage after a move.
pub(super) fn apply_move(tx: &Connection, account: &str, cur: &Current, upd: &UpdateCard) -> ApiResult<()> {
    let target = match (&upd.stage, &upd.space_id) {
        (Some(key), space) => Some(resolve_stage(
            tx,
            account,
            &cur.space_id,
            key,
            space.as_deref(),
        )?),
        (None, Some(space)) => {
            let space = board::resolve(tx, account, space)?;
            if space.id == cur.space_id {
                None
            } else {
                // The stage with the same slug in the target space, else its first stage.
                board::ensure_stages(tx, account, &space.id)?;
                let slug = match &cur.stage_id {
                    Some(s) => board::by_id(tx, account, s)?.map(|(_, slug)| slug),
                    None => None,
                };
                let all = board::in_space(tx, &space.id)?;
                let stage = all
                    .iter()
                    .find(|s| slug.is_some() && s.slug == slug)
                    .or(all.first())
                    .ok_or_else(|| ApiError::internal("space without stages"))?;
                Some((space.id.clone(), stage.id.clone()))
            }
        }
        (None, None) => None,
    };
    let moved = target
        .as_ref()
        .is_some_and(|(sp, st)| *sp != cur.space_id || Some(st) != cur.stage_id.as_ref());
    let (space_id, stage_id) = target.unwrap_or((
        cur.space_id.clone(),
        cur.stage_id.clone().unwrap_or_default(),
    ));
    if moved {
        tx.cached_execute(
            "UPDATE cards SET space_id = ?2, stage_id = ?3 WHERE id = ?1",
            params![cur.id, space_id, stage_id],
        )?;
    }
    if let Some(before) = &upd.before_card_id {
        let seq = stage_orders(tx, &stage_id, &cur.id)?;
        let index = seq.iter().position(|(c, _)| c == before).ok_or_else(|| {
            ApiError::bad(
                "beforeCardId",
                "beforeCardId must be another card in the stage the card is in (or moves to)",
            )
        })?;
        place_at(tx, &cur.id, seq, index)?;
    } else if let Some(order) = upd.board_order {
        if !order.is_finite() {
            return Err(ApiError::bad(
                "boardOrder",
                "boardOrder must be a finite number",
            ));
        }
        tx.cached_execute(
            "UPDATE cards SET board_order = ?2 WHERE id = ?1",
            params![cur.id, order],
        )?;
    } else if moved {
        tx.cached_execute(
            "UPDATE cards SET board_order = ?2 WHERE id = ?1",
            params![cur.id, end_of_stage(tx, &stage_id)?],
        )?;
    }
    Ok(())
}

/// `(space_id, stage_id)` of a stage given by id, slug or name. An id decides the space (a disagreeing
/// `spaceId` is refused); a slug or name is looked up in `spaceId`, else in `current_space`.
pub(super) fn resolve_stage(
    tx: &Connection,
    account: &str,
    current_space: &str,
    key: &str,
    space_id: Option<&str>,
) -> ApiResult<(String, String)> {
    if let Some((stage_space, _)) = board::by_id(tx, account, key)? {
        if let Some(given) = space_id {
            let given = board::resolve(tx, account, given)?;
            if given.id != stage_space {
                return Err(ApiError::bad(
                    "spaceId",
                    "spaceId disagrees with the stage, which is in another space",
                ));
            }
        }
        return Ok((stage_space, key.to_string()));
    }
    let space = board::given_or_default(tx, account, Some(space_id.unwrap_or(current_space)))?;
    board::ensure_stages(tx, account, &space.id)?;
    let stage =
        board::find_in_space(tx, &space.id, key)?.ok_or_else(|| unknown_stage(tx, &space, key))?;
    Ok((space.id, stage.id))
}

pub(super) fn end_of_stage(conn: &Connection, stage_id: &str) -> rusqlite::Result<f64> {
    let max: Option<f64> = conn.cached_row(
        "SELECT MAX(board_order) FROM cards WHERE stage_id = ?1",
        [stage_id],
        |r| r.get(0),
    )?;
    Ok(max.unwrap_or(0.0) + board::ORDER_STEP)
}

/// `(card id, board_order)` of a stage's cards in order, leaving out `except`.
pub(super) fn stage_orders(
    conn: &Connection,
    stage_id: &str,
    except: &str,
) -> rusqlite::Result<Vec<(String, f64)>> {
    let mut stmt = conn.prepare_cached(
        "SELECT id, board_order FROM cards WHERE stage_id = ?1 AND id <> ?2 ORDER BY board_order, rowid",
    )?;
    let rows = stmt.query_map(params![stage_id, except], |r| Ok((r.get(0)?, r.get(1)?)))?;
    rows.collect()
}

/// Puts a card at `index` of its stage: a midpoint, or the stage renumbered when the gap is used up.
pub(super) fn place_at(
    tx: &Connection,
    card_id: &str,
    seq: Vec<(String, f64)>,
    index: usize,
) -> rusqlite::Result<()> {
    match board::slot(&seq, index) {
        Some(order) => {
            tx.cached_execute(
                "UPDATE cards SET board_order = ?2 WHERE id = ?1",
                params![card_id, order],
            )?;
        }
        None => {
            let mut ids: Vec<String> = seq.into_iter().map(|(id, _)| id).collect();
            ids.insert(index, card_id.to_string());
            board::renumber(tx, "cards", &ids)?;
        }
    }
    Ok(())
}
