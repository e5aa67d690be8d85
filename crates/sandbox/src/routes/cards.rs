//! Cards: the unit of work on a board, with their posts (one per platform) and assets (carousel order).
//! Spec section 4 "Cards" and fact sheet 2.8, 3.9. `PATCH /cards/{id}` follows the spec's rules:
//! `posts` and `assets` are declarative, `scheduledAt` sets the card and every post (a post's own time
//! overrides), asset entries name exactly one reference and never the same thing twice, and the scopes a
//! write needs depend on what it carries. Card replies are enveloped as `post` (docs/api.md).
use crate::db::CachedRow as _;
use crate::auth::Caller;
use crate::db::new_id;
use crate::error::{ApiError, ApiResult};
use crate::extract::{parse_json, read_body, AppJson, AppQuery};
use crate::routes::{connected_accounts, inspiration, projects, spaces, stages, studio, tags};
use crate::state::AppState;
use crate::time;
use api_types::scopes::{ASSETS_WRITE, PIPELINE_WRITE, PUBLISH_WRITE};
use api_types::{
    CardAsset, CardAssetInput, CardDetail, CardEnvelope, CardList, CardQuery, CardSummary,
    CreateCard, Position, Post, PostInput, PublishOutcome, PublishRequest, PublishResult,
    ResolvedSpace, UpdateCard, PLATFORMS,
};
use axum::extract::{Path, Request, State};
use axum::routing::{get, post};
use axum::{Json, Router};
use rusqlite::{params, params_from_iter, Connection, OptionalExtension, Row};
use std::collections::HashMap;

pub const SCHEMA: &str = "
CREATE TABLE IF NOT EXISTS cards (
    id TEXT PRIMARY KEY,
    account_id TEXT NOT NULL REFERENCES accounts(id),
    space_id TEXT NOT NULL REFERENCES spaces(id),
    stage_id TEXT REFERENCES stages(id),
    board_order REAL NOT NULL,
    title TEXT NOT NULL,
    platform TEXT,
    content_type TEXT,
    cover_url TEXT,
    cover_output_id TEXT,
    cover_x REAL,
    cover_y REAL,
    is_favorite INTEGER NOT NULL DEFAULT 0,
    archived_at TEXT,
    scheduled_at TEXT,
    published_at TEXT,
    publish_url TEXT,
    notes TEXT,
    revision INTEGER NOT NULL DEFAULT 0,
    metadata TEXT,
    created_at TEXT NOT NULL,
    updated_at TEXT NOT NULL
);
CREATE INDEX IF NOT EXISTS cards_by_board ON cards(space_id, stage_id, board_order);
CREATE INDEX IF NOT EXISTS cards_by_account ON cards(account_id);
CREATE TABLE IF NOT EXISTS card_posts (
    id TEXT PRIMARY KEY,
    card_id TEXT NOT NULL REFERENCES cards(id) ON DELETE CASCADE,
    platform TEXT NOT NULL,
    format TEXT,
    connected_account_id TEXT,
    -- The post's own time; NULL inherits the card's.
    scheduled_at TEXT,
    status TEXT,
    platform_settings TEXT,
    published_at TEXT,
    publish_url TEXT,
    sort_order INTEGER NOT NULL,
    UNIQUE (card_id, platform)
);
CREATE INDEX IF NOT EXISTS card_posts_by_card ON card_posts(card_id);
CREATE TABLE IF NOT EXISTS card_assets (
    id TEXT PRIMARY KEY,
    card_id TEXT NOT NULL REFERENCES cards(id) ON DELETE CASCADE,
    sort_order INTEGER NOT NULL,
    asset_type TEXT,
    output_id TEXT,
    asset_url TEXT,
    content_id TEXT,
    project_id TEXT,
    display_name TEXT,
    preview_url TEXT,
    metadata TEXT
);
CREATE INDEX IF NOT EXISTS card_assets_by_card ON card_assets(card_id);
CREATE TABLE IF NOT EXISTS card_tags (
    card_id TEXT NOT NULL REFERENCES cards(id) ON DELETE CASCADE,
    tag_id TEXT NOT NULL REFERENCES tags(id) ON DELETE CASCADE,
    PRIMARY KEY (card_id, tag_id)
);
";

/// `(method, path)` of every route this module serves under `/api/v1` (kept in step with
/// `docs/openapi.yaml` by a test).
pub const ROUTES: &[(&str, &str)] = &[
    ("GET", "/cards"),
    ("POST", "/cards"),
    ("GET", "/cards/{id}"),
    ("PATCH", "/cards/{id}"),
    ("POST", "/cards/{id}/publish"),
];

/// Card paging (fact sheet 1.7): 50 by default, at most 100.
const DEFAULT_LIMIT: u32 = 50;
const MAX_LIMIT: u32 = 100;

pub fn router() -> Router<AppState> {
    Router::new()
        .route("/cards", get(list).post(create))
        .route("/cards/{id}", get(one).patch(update))
        .route("/cards/{id}/publish", post(publish))
}

// ---------- reads ----------

const SUMMARY_COLS: &str = "c.id, c.title, c.platform, c.space_id, c.stage_id, c.board_order, c.content_type, \
     c.cover_url, c.is_favorite, c.archived_at, c.scheduled_at, c.published_at, c.publish_url, c.created_at, \
     c.updated_at";

fn summary_from_row(r: &Row) -> rusqlite::Result<CardSummary> {
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
fn fill_summary(conn: &Connection, s: &mut CardSummary) -> rusqlite::Result<()> {
    let mut stmt = conn
        .prepare_cached("SELECT platform FROM card_posts WHERE card_id = ?1 ORDER BY sort_order")?;
    s.platforms = stmt
        .query_map([&s.id], |r| r.get(0))?
        .collect::<rusqlite::Result<_>>()?;
    let mut stmt = conn.prepare_cached(
        "SELECT t.name FROM card_tags ct JOIN tags t ON t.id = ct.tag_id WHERE ct.card_id = ?1 ORDER BY t.name",
    )?;
    s.tags = stmt
        .query_map([&s.id], |r| r.get(0))?
        .collect::<rusqlite::Result<_>>()?;
    Ok(())
}

async fn list(
    State(state): State<AppState>,
    caller: Caller,
    AppQuery(q): AppQuery<CardQuery>,
) -> ApiResult<Json<CardList>> {
    state
        .db()
        .tx(|tx| list_cards(tx, &caller.account_id, &q))
        .map(Json)
}

fn list_cards(conn: &Connection, account_id: &str, q: &CardQuery) -> ApiResult<CardList> {
    // Out of range is a 400 naming `limit`, as on `/content` and the knowledge lists (never clamped).
    let limit = q.limit.unwrap_or(DEFAULT_LIMIT);
    if !(1..=MAX_LIMIT).contains(&limit) {
        return Err(ApiError::bad(
            "limit",
            format!("`limit` must be between 1 and {MAX_LIMIT}"),
        ));
    }
    let space = spaces::given_or_default(conn, account_id, q.space_id.as_deref())?;
    stages::ensure_stages(conn, account_id, &space.id)?;
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
        let stage = stages::find_in_space(conn, &space.id, key)?
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

fn unknown_stage(conn: &Connection, space: &ResolvedSpace, key: &str) -> ApiError {
    let valid: Vec<String> = stages::in_space(conn, &space.id)
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

async fn one(
    State(state): State<AppState>,
    caller: Caller,
    Path(id): Path<String>,
) -> ApiResult<Json<CardEnvelope<CardDetail>>> {
    let post = state.db().read(|conn| read_detail(conn, &caller.account_id, &id))?;
    Ok(Json(CardEnvelope { post }))
}

/// The caller's card `id` as `GET /cards/{id}` gives it, or 404.
pub fn read_detail(conn: &Connection, account_id: &str, id: &str) -> ApiResult<CardDetail> {
    let found = conn
        .cached_row(
            &format!(
                "SELECT {SUMMARY_COLS}, c.notes, c.revision, c.cover_x, c.cover_y, c.metadata
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
    fill_summary(conn, &mut summary)?;
    let posts = read_posts(conn, id, summary.scheduled_at.as_deref())?;
    let assets = read_assets(conn, account_id, id)?;
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

/// Posts with their effective time: their own, else the card's. Like the real service, no flag says
/// which (the client compares the post's time with the card's).
fn read_posts(
    conn: &Connection,
    card_id: &str,
    card_time: Option<&str>,
) -> rusqlite::Result<Vec<Post>> {
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
            scheduled_at: own.or_else(|| card_time.map(String::from)),
            published_at: r.get(6)?,
            platform_settings: settings.and_then(|s| serde_json::from_str(&s).ok()),
        })
    })?;
    rows.collect()
}

/// Assets in carousel order, each under the field that attached it; `assetId` (deprecated) is the
/// pointed-at id whatever the kind.
fn read_assets(conn: &Connection, account_id: &str, card_id: &str) -> ApiResult<Vec<CardAsset>> {
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

// ---------- writes ----------

/// What a write starts from: the card as stored (empty for a new card).
#[derive(Default)]
struct Current {
    id: String,
    space_id: String,
    stage_id: Option<String>,
    scheduled_at: Option<String>,
    notes: Option<String>,
    revision: i64,
    cover_output_id: Option<String>,
    /// `(platform, own scheduledAt)`.
    posts: Vec<(String, Option<String>)>,
    assets: Vec<StoredAsset>,
}

#[derive(Clone)]
struct StoredAsset {
    id: String,
    output_id: Option<String>,
    asset_url: Option<String>,
    content_id: Option<String>,
    project_id: Option<String>,
}

fn load_current(conn: &Connection, account_id: &str, id: &str) -> ApiResult<Current> {
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
    let mut stmt = conn.prepare_cached(
        "SELECT platform, scheduled_at FROM card_posts WHERE card_id = ?1 ORDER BY sort_order",
    )?;
    cur.posts = stmt
        .query_map([id], |r| Ok((r.get(0)?, r.get(1)?)))?
        .collect::<rusqlite::Result<_>>()?;
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
fn require_write_scopes(caller: &Caller, cur: &Current, upd: &UpdateCard) -> ApiResult<()> {
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

async fn create(
    State(state): State<AppState>,
    caller: Caller,
    AppJson(body): AppJson<CreateCard>,
) -> ApiResult<Json<CardEnvelope<CardDetail>>> {
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
        let space = spaces::given_or_default(tx, account, body.space_id.as_deref())?;
        stages::ensure_stages(tx, account, &space.id)?;
        let (space_id, stage_id) = match &body.stage {
            Some(key) => resolve_stage(tx, account, &space.id, key, body.space_id.as_deref())?,
            None => {
                let first = stages::in_space(tx, &space.id)?.into_iter().next();
                (space.id.clone(), first.map(|s| s.id).ok_or_else(|| ApiError::internal("space without stages"))?)
            }
        };
        let id = new_id();
        let now = time::now_str();
        tx.execute(
            "INSERT INTO cards (id, account_id, space_id, stage_id, board_order, title, platform, notes, created_at,
                 updated_at)
             VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?9)",
            params![id, account, space_id, stage_id, end_of_stage(tx, &stage_id)?, title, body.platform, body.notes, now],
        )?;
        let cur = load_current(tx, account, &id)?;
        apply_update(tx, account, &cur, &upd)?;
        read_detail(tx, account, &id)
    })?;
    Ok(Json(CardEnvelope { post: detail }))
}

async fn update(
    State(state): State<AppState>,
    caller: Caller,
    Path(id): Path<String>,
    AppJson(body): AppJson<UpdateCard>,
) -> ApiResult<Json<CardEnvelope<CardDetail>>> {
    let detail = state.db().tx(|tx| {
        let cur = load_current(tx, &caller.account_id, &id)?;
        require_write_scopes(&caller, &cur, &body)?;
        apply_update(tx, &caller.account_id, &cur, &body)?;
        read_detail(tx, &caller.account_id, &id)
    })?;
    Ok(Json(CardEnvelope { post: detail }))
}

/// Applies a card write inside the caller's transaction; any error rolls all of it back.
fn apply_update(tx: &Connection, account: &str, cur: &Current, upd: &UpdateCard) -> ApiResult<()> {
    let id = cur.id.as_str();
    let now = time::now_str();
    let set = |sql: &str, value: &dyn rusqlite::ToSql| -> rusqlite::Result<usize> {
        tx.execute(
            &format!("UPDATE cards SET {sql} = ?2 WHERE id = ?1"),
            params![id, value],
        )
    };

    if let Some(title) = &upd.title {
        set("title", &check_title(title)?)?;
    }
    if let Some(platform) = &upd.platform {
        check_platform("platform", platform)?;
        set("platform", platform)?;
    }
    if let Some(ct) = &upd.content_type {
        set("content_type", ct)?;
    }
    if let Some(fav) = upd.is_favorite {
        set("is_favorite", &fav)?;
    }
    if let Some(meta) = &upd.metadata {
        set("metadata", &meta.to_string())?;
    }
    if let Some(archived) = upd.archived {
        set_archived(tx, account, id, archived)?;
    }
    // A publication made elsewhere, recorded on the card; null clears it.
    if let Some(at) = &upd.published_at {
        set("published_at", &rfc3339(&"publishedAt", at.as_deref())?)?;
    }
    if let Some(url) = &upd.publish_url {
        if let Some(u) = url {
            spaces::check_url("publishUrl", u)?;
        }
        set("publish_url", url)?;
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
            tx.execute(
                "UPDATE cards SET cover_url = NULL, cover_output_id = NULL, cover_x = NULL, cover_y = NULL WHERE id = ?1",
                [id],
            )?;
        }
        Some(Some(url)) => {
            spaces::check_url("coverUrl", url)?;
            tx.execute(
                "UPDATE cards SET cover_url = ?2, cover_output_id = NULL WHERE id = ?1",
                params![id, url],
            )?;
        }
        None => {}
    }
    if let Some(token) = &upd.cover_output_id {
        let out = studio::resolve_output(tx, account, token, "coverOutputId")?;
        tx.execute(
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
        tx.execute(
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
            tx.execute(
                "UPDATE cards SET notes = ?2, revision = revision + 1 WHERE id = ?1",
                params![id, notes],
            )?;
        }
    }

    apply_move(tx, account, cur, upd)?;

    // scheduledAt sets the card and every post: posts lose their own times here, and a post in this
    // same write that carries its own time gets it back below. null clears the card and every post.
    if let Some(when) = &upd.scheduled_at {
        set("scheduled_at", &rfc3339(&"scheduledAt", when.as_deref())?)?;
        tx.execute(
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
        tx.execute("DELETE FROM card_tags WHERE card_id = ?1", [id])?;
        for tag in ids {
            tx.execute(
                "INSERT INTO card_tags (card_id, tag_id) VALUES (?1, ?2)",
                params![id, tag],
            )?;
        }
    }
    set("updated_at", &now)?;
    Ok(())
}

/// Moving (fact sheet 2.8): `stage` (id, slug or name) and/or `spaceId`, then the place in the stage:
/// `beforeCardId` (drag and drop), `boardOrder`, or the end of the stage after a move.
fn apply_move(tx: &Connection, account: &str, cur: &Current, upd: &UpdateCard) -> ApiResult<()> {
    let target = match (&upd.stage, &upd.space_id) {
        (Some(key), space) => Some(resolve_stage(
            tx,
            account,
            &cur.space_id,
            key,
            space.as_deref(),
        )?),
        (None, Some(space)) => {
            let space = spaces::resolve(tx, account, space)?;
            if space.id == cur.space_id {
                None
            } else {
                // The stage with the same slug in the target space, else its first stage.
                stages::ensure_stages(tx, account, &space.id)?;
                let slug = match &cur.stage_id {
                    Some(s) => stages::by_id(tx, account, s)?.map(|(_, slug)| slug),
                    None => None,
                };
                let all = stages::in_space(tx, &space.id)?;
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
        tx.execute(
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
        tx.execute(
            "UPDATE cards SET board_order = ?2 WHERE id = ?1",
            params![cur.id, order],
        )?;
    } else if moved {
        tx.execute(
            "UPDATE cards SET board_order = ?2 WHERE id = ?1",
            params![cur.id, end_of_stage(tx, &stage_id)?],
        )?;
    }
    Ok(())
}

/// `(space_id, stage_id)` of a stage given by id, slug or name. An id decides the space (a disagreeing
/// `spaceId` is refused); a slug or name is looked up in `spaceId`, else in `current_space`.
fn resolve_stage(
    tx: &Connection,
    account: &str,
    current_space: &str,
    key: &str,
    space_id: Option<&str>,
) -> ApiResult<(String, String)> {
    if let Some((stage_space, _)) = stages::by_id(tx, account, key)? {
        if let Some(given) = space_id {
            let given = spaces::resolve(tx, account, given)?;
            if given.id != stage_space {
                return Err(ApiError::bad(
                    "spaceId",
                    "spaceId disagrees with the stage, which is in another space",
                ));
            }
        }
        return Ok((stage_space, key.to_string()));
    }
    let space = spaces::given_or_default(tx, account, Some(space_id.unwrap_or(current_space)))?;
    stages::ensure_stages(tx, account, &space.id)?;
    let stage =
        stages::find_in_space(tx, &space.id, key)?.ok_or_else(|| unknown_stage(tx, &space, key))?;
    Ok((space.id, stage.id))
}

fn end_of_stage(conn: &Connection, stage_id: &str) -> rusqlite::Result<f64> {
    let max: Option<f64> = conn.cached_row(
        "SELECT MAX(board_order) FROM cards WHERE stage_id = ?1",
        [stage_id],
        |r| r.get(0),
    )?;
    Ok(max.unwrap_or(0.0) + stages::ORDER_STEP)
}

/// `(card id, board_order)` of a stage's cards in order, leaving out `except`.
fn stage_orders(
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
fn place_at(
    tx: &Connection,
    card_id: &str,
    seq: Vec<(String, f64)>,
    index: usize,
) -> rusqlite::Result<()> {
    match stages::slot(&seq, index) {
        Some(order) => {
            tx.execute(
                "UPDATE cards SET board_order = ?2 WHERE id = ?1",
                params![card_id, order],
            )?;
        }
        None => {
            let mut ids: Vec<String> = seq.into_iter().map(|(id, _)| id).collect();
            ids.insert(index, card_id.to_string());
            stages::renumber(tx, "cards", &ids)?;
        }
    }
    Ok(())
}

/// The declarative `posts`: keyed by platform, the list is the new state. A post kept by platform keeps
/// its id and publish record; every field the entry leaves out is cleared.
fn write_posts(
    tx: &Connection,
    account: &str,
    card_id: &str,
    posts: &[PostInput],
) -> ApiResult<()> {
    let mut seen: HashMap<&str, usize> = HashMap::new();
    let mut planned = Vec::new();
    for (i, p) in posts.iter().enumerate() {
        let field = format!("posts[{i}]");
        check_platform(&format!("{field}.platform"), &p.platform)?;
        if let Some(j) = seen.insert(p.platform.as_str(), i) {
            return Err(ApiError::bad(
                field.clone(),
                format!("{field} names the platform {:?} again (posts[{j}]); a card has one post per platform", p.platform),
            ));
        }
        // A connected account that is not the caller's is "not found" (404), like any other account's
        // record; one of the caller's for another platform is a 400 naming the field.
        if let Some(ca) = &p.connected_account_id {
            let acct = connected_accounts::find(tx, account, ca)?
                .ok_or_else(|| ApiError::not_found("Connected account"))?;
            if acct.platform.as_deref() != Some(p.platform.as_str()) {
                return Err(ApiError::bad(
                    format!("{field}.connectedAccountId"),
                    format!(
                        "{field}.connectedAccountId is a {} account; this post publishes to {}",
                        acct.platform.unwrap_or_default(),
                        p.platform
                    ),
                ));
            }
        }
        let own = rfc3339(&format!("{field}.scheduledAt"), p.scheduled_at.as_deref())?;
        if let Some(data) = &p.platform_specific_data {
            if !data.is_object() && !data.is_null() {
                return Err(ApiError::bad(
                    format!("{field}.platformSpecificData"),
                    format!("{field}.platformSpecificData must be an object"),
                ));
            }
        }
        planned.push((p, own));
    }
    let keep: Vec<&str> = posts.iter().map(|p| p.platform.as_str()).collect();
    let existing: Vec<String> = {
        let mut stmt = tx.prepare_cached("SELECT platform FROM card_posts WHERE card_id = ?1")?;
        let rows = stmt.query_map([card_id], |r| r.get(0))?;
        rows.collect::<rusqlite::Result<_>>()?
    };
    for platform in existing.iter().filter(|p| !keep.contains(&p.as_str())) {
        tx.execute(
            "DELETE FROM card_posts WHERE card_id = ?1 AND platform = ?2",
            params![card_id, platform],
        )?;
    }
    for (i, (p, own)) in planned.into_iter().enumerate() {
        let settings = p
            .platform_specific_data
            .as_ref()
            .filter(|d| !d.is_null())
            .map(|d| d.to_string());
        if existing.contains(&p.platform) {
            tx.execute(
                "UPDATE card_posts SET format = ?3, connected_account_id = ?4, scheduled_at = ?5, status = ?6,
                     platform_settings = ?7, sort_order = ?8
                 WHERE card_id = ?1 AND platform = ?2",
                params![card_id, p.platform, p.format, p.connected_account_id, own, p.status, settings, i as i64],
            )?;
        } else {
            tx.execute(
                "INSERT INTO card_posts (id, card_id, platform, format, connected_account_id, scheduled_at, status,
                     platform_settings, sort_order)
                 VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9)",
                params![new_id(), card_id, p.platform, p.format, p.connected_account_id, own, p.status, settings, i as i64],
            )?;
        }
    }
    Ok(())
}

/// One planned entry of the declarative `assets`.
enum AssetPlan {
    /// An asset already on the card, by its id (or by the reference it was attached with).
    Keep {
        id: String,
        display_name: Option<String>,
        metadata: Option<String>,
    },
    New {
        asset_type: String,
        output_id: Option<String>,
        asset_url: Option<String>,
        content_id: Option<String>,
        project_id: Option<String>,
        display_name: Option<String>,
        preview_url: Option<String>,
        metadata: Option<String>,
    },
}

/// The declarative, ordered `assets`: the list is the new carousel. Each entry keeps an asset (`{id}`)
/// or names exactly one reference; an entry whose reference is already on the card keeps that asset.
fn write_assets(
    tx: &Connection,
    account: &str,
    cur: &Current,
    entries: &[CardAssetInput],
) -> ApiResult<()> {
    // What each entry points at, for the duplicate rule: ("asset", id), ("file", token or URL),
    // ("content", id), ("project", id). Kept assets count by their own reference too.
    let mut seen: HashMap<(String, String), usize> = HashMap::new();
    let mut plans = Vec::new();
    for (i, e) in entries.iter().enumerate() {
        let field = format!("assets[{i}]");
        // Rule 6: an inspiration post is attached by contentId, never by URL.
        if e.asset_type.as_deref() == Some("inspiration") && e.asset_url.is_some() {
            return Err(ApiError::bad(
                format!("{field}.contentId"),
                format!(
                    "{field}: an inspiration post is attached by contentId (the tracked post's id), not by assetUrl"
                ),
            ));
        }
        // Likewise a project is attached by projectId (fact sheet 3.9: project types as input are refused,
        // naming projectId).
        if e.asset_type.as_deref() == Some("project") && e.project_id.is_none() && e.id.is_none() {
            return Err(ApiError::bad(
                format!("{field}.projectId"),
                format!("{field}: a project is attached by projectId, the project's id"),
            ));
        }
        // Rule 4: exactly one reference.
        let refs = e.references();
        if refs.len() != 1 {
            let named: Vec<&str> = refs.iter().map(|(f, _)| *f).collect();
            return Err(ApiError::bad(
                field.clone(),
                format!(
                    "{field} must name exactly one of id, outputId, assetUrl, contentId, projectId; it names {}",
                    if named.is_empty() { "none".to_string() } else { named.join(" and ") }
                ),
            ));
        }
        let (kind, value) = refs[0];
        let metadata = e.metadata.as_ref().map(|m| m.to_string());
        let same_stored = |pick: &dyn Fn(&StoredAsset) -> Option<&String>| {
            cur.assets
                .iter()
                .find(|s| pick(s).map(String::as_str) == Some(value))
                .map(|s| s.id.clone())
        };
        let (keys, plan) = match kind {
            "id" => {
                let stored = cur.assets.iter().find(|s| s.id == value).ok_or_else(|| {
                    ApiError::bad(
                        field.clone(),
                        format!("{field}: the asset {value:?} is not on this card"),
                    )
                })?;
                (
                    stored_keys(stored),
                    AssetPlan::Keep {
                        id: stored.id.clone(),
                        display_name: e.display_name.clone(),
                        metadata,
                    },
                )
            }
            "outputId" => {
                let out = studio::resolve_output(tx, account, value, &format!("{field}.outputId"))?;
                let token = output_token(&out);
                let keep = same_stored(&|s| s.output_id.as_ref()).or_else(|| {
                    cur.assets
                        .iter()
                        .find(|s| s.output_id.as_deref() == Some(token.as_str()))
                        .map(|s| s.id.clone())
                });
                let plan = match keep {
                    Some(id) => AssetPlan::Keep {
                        id,
                        display_name: e.display_name.clone(),
                        metadata,
                    },
                    None => AssetPlan::New {
                        asset_type: out.content_type.as_str().to_string(),
                        output_id: Some(token.clone()),
                        asset_url: None,
                        content_id: None,
                        project_id: None,
                        display_name: e.display_name.clone(),
                        preview_url: Some(out.url.clone()),
                        metadata,
                    },
                };
                (vec![("file".to_string(), token)], plan)
            }
            "assetUrl" => {
                spaces::check_url(&format!("{field}.assetUrl"), value)?;
                let plan = match same_stored(&|s| s.asset_url.as_ref()) {
                    Some(id) => AssetPlan::Keep {
                        id,
                        display_name: e.display_name.clone(),
                        metadata,
                    },
                    None => AssetPlan::New {
                        asset_type: "link".into(),
                        output_id: None,
                        asset_url: Some(value.to_string()),
                        content_id: None,
                        project_id: None,
                        display_name: e.display_name.clone(),
                        preview_url: Some(value.to_string()),
                        metadata,
                    },
                };
                (vec![("file".to_string(), value.to_string())], plan)
            }
            "contentId" => {
                // Rule 7: a post the caller cannot see is "not found".
                inspiration::content_for_card(tx, account, value)?
                    .ok_or_else(|| ApiError::not_found("Content"))?;
                let plan = match same_stored(&|s| s.content_id.as_ref()) {
                    Some(id) => AssetPlan::Keep {
                        id,
                        display_name: e.display_name.clone(),
                        metadata,
                    },
                    None => AssetPlan::New {
                        asset_type: "inspiration".into(),
                        output_id: None,
                        asset_url: None,
                        content_id: Some(value.to_string()),
                        project_id: None,
                        display_name: e.display_name.clone(),
                        preview_url: None,
                        metadata,
                    },
                };
                (vec![("content".to_string(), value.to_string())], plan)
            }
            _ => {
                // Rule 7: a project that is not the caller's is "not found".
                projects::find(tx, account, value)?
                    .ok_or_else(|| ApiError::not_found("Project"))?;
                let plan = match same_stored(&|s| s.project_id.as_ref()) {
                    Some(id) => AssetPlan::Keep {
                        id,
                        display_name: e.display_name.clone(),
                        metadata,
                    },
                    None => AssetPlan::New {
                        asset_type: "project".into(),
                        output_id: None,
                        asset_url: None,
                        content_id: None,
                        project_id: Some(value.to_string()),
                        display_name: e.display_name.clone(),
                        preview_url: None,
                        metadata,
                    },
                };
                (vec![("project".to_string(), value.to_string())], plan)
            }
        };
        // Rule 5: the same asset, file, post or project twice.
        let mut keys = keys;
        if let AssetPlan::Keep { id, .. } = &plan {
            keys.push(("asset".to_string(), id.clone()));
        }
        for key in keys {
            if let Some(j) = seen.insert(key.clone(), i) {
                if j != i {
                    return Err(ApiError::bad(
                        field.clone(),
                        format!(
                            "{field} names the same {} as assets[{j}]; each asset appears once",
                            describe(&key.0)
                        ),
                    ));
                }
            }
        }
        plans.push(plan);
    }

    let kept: Vec<&str> = plans
        .iter()
        .filter_map(|p| match p {
            AssetPlan::Keep { id, .. } => Some(id.as_str()),
            AssetPlan::New { .. } => None,
        })
        .collect();
    for stored in cur.assets.iter().filter(|s| !kept.contains(&s.id.as_str())) {
        tx.execute("DELETE FROM card_assets WHERE id = ?1", [&stored.id])?;
    }
    for (i, plan) in plans.into_iter().enumerate() {
        match plan {
            AssetPlan::Keep {
                id,
                display_name,
                metadata,
            } => {
                tx.execute(
                    "UPDATE card_assets SET sort_order = ?2, display_name = COALESCE(?3, display_name),
                         metadata = COALESCE(?4, metadata)
                     WHERE id = ?1",
                    params![id, i as i64, display_name, metadata],
                )?;
            }
            AssetPlan::New {
                asset_type,
                output_id,
                asset_url,
                content_id,
                project_id,
                display_name,
                preview_url,
                metadata,
            } => {
                tx.execute(
                    "INSERT INTO card_assets (id, card_id, sort_order, asset_type, output_id, asset_url, content_id,
                         project_id, display_name, preview_url, metadata)
                     VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11)",
                    params![
                        new_id(),
                        cur.id,
                        i as i64,
                        asset_type,
                        output_id,
                        asset_url,
                        content_id,
                        project_id,
                        display_name,
                        preview_url,
                        metadata
                    ],
                )?;
            }
        }
    }
    Ok(())
}

fn stored_keys(s: &StoredAsset) -> Vec<(String, String)> {
    let mut keys = Vec::new();
    if let Some(v) = s.output_id.as_ref().or(s.asset_url.as_ref()) {
        keys.push(("file".to_string(), v.clone()));
    }
    if let Some(v) = &s.content_id {
        keys.push(("content".to_string(), v.clone()));
    }
    if let Some(v) = &s.project_id {
        keys.push(("project".to_string(), v.clone()));
    }
    keys
}

fn describe(kind: &str) -> &'static str {
    match kind {
        "file" => "file (outputId or assetUrl)",
        "content" => "inspiration post (contentId)",
        "project" => "project (projectId)",
        _ => "asset (id)",
    }
}

/// The canonical token of an output: `<uuid>` for the first, `<uuid>-<N>` for the others.
fn output_token(out: &studio::ResolvedOutput) -> String {
    if out.index <= 1 {
        out.output_id.clone()
    } else {
        format!("{}-{}", out.output_id, out.index)
    }
}

/// Appends a project asset to a card (a project created with `cardId`).
pub fn link_project(conn: &Connection, card_id: &str, project_id: &str) -> rusqlite::Result<()> {
    let next: i64 = conn.cached_row(
        "SELECT COALESCE(MAX(sort_order) + 1, 0) FROM card_assets WHERE card_id = ?1",
        [card_id],
        |r| r.get(0),
    )?;
    conn.execute(
        "INSERT INTO card_assets (id, card_id, sort_order, asset_type, project_id) VALUES (?1, ?2, ?3, 'project', ?4)",
        params![new_id(), card_id, next, project_id],
    )?;
    conn.execute(
        "UPDATE cards SET updated_at = ?2 WHERE id = ?1",
        params![card_id, time::now_str()],
    )?;
    Ok(())
}

/// Whether `card_id` is the caller's.
pub fn exists(conn: &Connection, account_id: &str, card_id: &str) -> rusqlite::Result<bool> {
    Ok(conn
        .cached_row(
            "SELECT 1 FROM cards WHERE id = ?1 AND account_id = ?2",
            params![card_id, account_id],
            |r| r.get::<_, i64>(0),
        )
        .optional()?
        .is_some())
}

/// A time as stored (normalised RFC 3339), or a 400 naming `field`; `None` stays `None` (clears).
fn rfc3339(field: &dyn std::fmt::Display, value: Option<&str>) -> ApiResult<Option<String>> {
    value
        .map(|s| {
            time::normalise(s)
                .ok_or_else(|| ApiError::bad(field.to_string(), format!("{field} must be an RFC 3339 time, not {s:?}")))
        })
        .transpose()
}

/// `POST /archive` with `assetType: card`. A timestamp only: restoring keeps the schedule and the rest.
pub fn set_archived(
    conn: &Connection,
    account_id: &str,
    id: &str,
    archived: bool,
) -> ApiResult<()> {
    let n = conn.execute(
        "UPDATE cards SET archived_at = CASE WHEN ?3 THEN COALESCE(archived_at, ?4) ELSE NULL END, updated_at = ?4
         WHERE id = ?1 AND account_id = ?2",
        params![id, account_id, archived, time::now_str()],
    )?;
    if n == 0 {
        return Err(ApiError::not_found("Card"));
    }
    Ok(())
}

fn check_title(title: &str) -> ApiResult<String> {
    let t = title.trim();
    if t.is_empty() || t.chars().count() > 300 {
        return Err(ApiError::bad("title", "title must be 1 to 300 characters"));
    }
    Ok(t.to_string())
}

fn check_platform(field: &str, platform: &str) -> ApiResult<()> {
    if PLATFORMS.contains(&platform) {
        return Ok(());
    }
    Err(ApiError::InvalidValue {
        message: format!(
            "{field} must be one of {}, not {platform:?}",
            PLATFORMS.join(", ")
        ),
        field: field.to_string(),
        valid: PLATFORMS.iter().map(|p| p.to_string()).collect(),
    })
}

// ---------- publish ----------

/// `POST /cards/{id}/publish` (`publish:write`, checked by the gate). Publishes now through each post's
/// connected account: the sandbox records a successful post with a URL on that account's profile; a post
/// with no (usable) connected account fails with a message saying so. The body `{platform?}` is optional.
async fn publish(
    State(state): State<AppState>,
    caller: Caller,
    Path(id): Path<String>,
    req: Request,
) -> ApiResult<Json<PublishResult>> {
    let bytes = read_body(req, &state).await?;
    let body: PublishRequest = if bytes.iter().all(u8::is_ascii_whitespace) {
        PublishRequest::default()
    } else {
        parse_json(&bytes)?
    };
    let result = state.db().tx(|tx| {
        let account = &caller.account_id;
        load_current(tx, account, &id)?;
        if let Some(p) = &body.platform {
            check_platform("platform", p)?;
        }
        let posts: Vec<(String, String, Option<String>)> = {
            let mut stmt = tx.prepare_cached(
                "SELECT id, platform, connected_account_id FROM card_posts WHERE card_id = ?1 ORDER BY sort_order",
            )?;
            let rows = stmt.query_map([&id], |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?)))?;
            rows.collect::<rusqlite::Result<Vec<_>>>()?
        }
        .into_iter()
        .filter(|(_, platform, _)| body.platform.as_ref().is_none_or(|p| p == platform))
        .collect();
        if posts.is_empty() {
            return Err(match &body.platform {
                Some(p) => ApiError::bad("platform", format!("The card has no {p} post to publish")),
                None => ApiError::bad("posts", "The card has no posts to publish; add one per platform first"),
            });
        }
        let now = time::now_str();
        let mut results = Vec::new();
        for (post_id, platform, ca) in posts {
            let acct = match &ca {
                Some(ca) => connected_accounts::find(tx, account, ca)?,
                None => None,
            };
            let usable = acct.filter(|a| a.connection_status.as_deref() == Some("connected"));
            match usable {
                Some(a) => {
                    let base = a.account_url.unwrap_or_else(|| format!("https://{platform}.example"));
                    let url = format!("{}/posts/{}", base.trim_end_matches('/'), &post_id[..8]);
                    tx.execute(
                        "UPDATE card_posts SET status = 'published', published_at = ?2, publish_url = ?3 WHERE id = ?1",
                        params![post_id, now, url],
                    )?;
                    results.push(PublishOutcome {
                        success: true,
                        platform,
                        post_id: Some(post_id),
                        url: Some(url),
                        error: None,
                    });
                }
                None => {
                    tx.execute("UPDATE card_posts SET status = 'failed' WHERE id = ?1", [&post_id])?;
                    let error = if ca.is_some() {
                        format!("The {platform} post's connected account is gone or disconnected; reconnect it in the app")
                    } else {
                        format!("The {platform} post has no connected account; set connectedAccountId on the post")
                    };
                    results.push(PublishOutcome {
                        success: false,
                        platform,
                        post_id: Some(post_id),
                        url: None,
                        error: Some(error),
                    });
                }
            }
        }
        let published = results.iter().filter(|r| r.success).count() as i64;
        if let Some(first) = results.iter().find(|r| r.success) {
            tx.execute(
                "UPDATE cards SET published_at = ?2, publish_url = COALESCE(publish_url, ?3), updated_at = ?2 WHERE id = ?1",
                params![id, now, first.url],
            )?;
        }
        Ok::<_, ApiError>(PublishResult {
            card_id: id.clone(),
            failed_count: results.len() as i64 - published,
            published_count: published,
            results,
        })
    })?;
    Ok(Json(result))
}

// ---------- demo seed ----------

/// `(title, platform, stage index, content type)` of the demo board.
const DEMO_CARDS: &[(&str, &str, usize, &str)] = &[
    ("5 hooks that stop the scroll", "tiktok", 0, "short"),
    ("Behind the scenes: studio tour", "youtube", 0, "video"),
    ("Client story: the café rebrand", "instagram", 0, "carousel"),
    ("Myths about batching content", "linkedin", 0, "post"),
    ("Thread: our editing checklist", "x", 0, "thread"),
    ("How we plan a month of content", "youtube", 1, "video"),
    ("Reel: 3 lighting setups under $100", "instagram", 1, "reel"),
    ("Duet the trending sound", "tiktok", 1, "short"),
    ("Newsletter to LinkedIn carousel", "linkedin", 1, "carousel"),
    ("Launch teaser: spring collection", "instagram", 2, "reel"),
    (
        "Tutorial: colour grading in 10 minutes",
        "youtube",
        2,
        "video",
    ),
    ("Day in the life of an editor", "tiktok", 2, "short"),
    ("Facebook live Q&A recap", "facebook", 2, "video"),
    (
        "Before and after: product photos",
        "instagram",
        3,
        "carousel",
    ),
    ("Why we switched to vertical first", "linkedin", 3, "post"),
    ("Weekly wins", "threads", 3, "post"),
    ("Podcast clip: pricing creative work", "youtube", 3, "short"),
    ("Spring collection launch day", "instagram", 4, "reel"),
    ("Tutorial: audio that doesn't hurt", "youtube", 4, "video"),
    ("Poll: which thumbnail wins?", "x", 4, "post"),
    ("Community spotlight", "facebook", 4, "post"),
    ("Our 2026 studio reel", "youtube", 5, "video"),
    ("Carousel: 7 caption formulas", "instagram", 5, "carousel"),
    ("Trend recap: what worked in March", "tiktok", 5, "short"),
    ("Hiring: join the studio", "linkedin", 5, "post"),
];

const DEMO_TAGS: &[&str] = &[
    "hook",
    "evergreen",
    "launch",
    "tutorial",
    "collab",
    "series",
];

/// The title of the demo card the demo project is linked to.
pub const DEMO_PROJECT_CARD: &str = "Launch teaser: spring collection";

/// The demo space with its stages and cards (posts with connected accounts and captions, links,
/// inspiration posts, tags, notes, schedules), plus `opts.extra_cards` plain cards over the stages.
pub fn seed_demo(
    conn: &Connection,
    account_id: &str,
    opts: &crate::seed::DemoOptions,
) -> rusqlite::Result<()> {
    let space_id = spaces::insert(conn, account_id, spaces::DEFAULT_SPACE_NAME)?;
    stages::ensure_stages(conn, account_id, &space_id)?;
    let stage_ids: Vec<String> = stages::in_space(conn, &space_id)?
        .into_iter()
        .map(|s| s.id)
        .collect();
    let mut tag_ids = Vec::new();
    for name in DEMO_TAGS {
        let tag = api_types::Tag {
            id: new_id(),
            name: name.to_string(),
        };
        tags::insert(conn, account_id, &tag)?;
        tag_ids.push(tag.id);
    }
    let content = inspiration::content_ids(conn, account_id)?;
    let now = ::time::OffsetDateTime::now_utc();
    let at_nine = |days: i64, hour_offset: i64| {
        let day = (now + ::time::Duration::days(days)).replace_time(::time::Time::MIDNIGHT);
        time::fmt(day + ::time::Duration::hours(9 + hour_offset))
    };
    let created = time::now_str();
    let mut per_stage = vec![0usize; stage_ids.len()];
    for (i, (title, platform, stage, content_type)) in DEMO_CARDS.iter().enumerate() {
        let id = new_id();
        per_stage[*stage] += 1;
        let order = per_stage[*stage] as f64 * stages::ORDER_STEP;
        // Review and Scheduled cards have times ahead; Published ones went out in the past weeks.
        let scheduled = match stage {
            3 if i % 2 == 0 => Some(at_nine(10 + i as i64 % 5, 0)),
            4 => Some(at_nine(1 + (i as i64 - 17) * 2, 0)),
            5 => Some(at_nine(-(3 + (i as i64 - 21) * 6), 0)),
            _ => None,
        };
        let published = (*stage == 5).then(|| scheduled.clone()).flatten();
        let publish_url = published
            .as_ref()
            .map(|_| format!("https://example.com/demostudio/{platform}/{}", &id[..8]));
        let notes = (i % 3 == 0).then(|| {
            format!("## {title}\n\n- Hook in the first 2 seconds\n- Call to action: follow for part 2\n- Check the brand kit's voice section before recording\n")
        });
        conn.execute(
            "INSERT INTO cards (id, account_id, space_id, stage_id, board_order, title, platform, content_type,
                 is_favorite, scheduled_at, published_at, publish_url, notes, revision, created_at, updated_at)
             VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14, ?15, ?15)",
            params![
                id,
                account_id,
                space_id,
                stage_ids[*stage],
                order,
                title,
                platform,
                content_type,
                i % 7 == 0,
                scheduled,
                published,
                publish_url,
                notes,
                if notes.is_some() { 1 } else { 0 },
                created
            ],
        )?;
        // Posts: the card's own platform, and a second one on every third card.
        let mut post_platforms = vec![*platform];
        if i % 3 == 1 {
            post_platforms.push(match *platform {
                "youtube" => "tiktok",
                "instagram" => "facebook",
                "tiktok" => "instagram",
                "linkedin" => "x",
                _ => "general",
            });
        }
        for (n, p) in post_platforms.iter().enumerate() {
            let account = if i % 8 == 5 {
                None
            } else {
                connected_accounts::default_for(conn, account_id, p)?
            };
            let settings = serde_json::json!({
                "caption": format!("{title} — new on the channel. #demostudio"),
                "privacy": "public",
            });
            // A second post scheduled two hours after the card: an own time overriding the card's.
            let own =
                (n == 1 && scheduled.is_some()).then(|| at_nine(1 + (i as i64 - 17).max(0) * 2, 2));
            conn.execute(
                "INSERT INTO card_posts (id, card_id, platform, format, connected_account_id, scheduled_at, status,
                     platform_settings, published_at, sort_order)
                 VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10)",
                params![
                    new_id(),
                    id,
                    p,
                    content_type,
                    account,
                    own,
                    if published.is_some() { "published" } else { "draft" },
                    settings.to_string(),
                    published,
                    n as i64
                ],
            )?;
        }
        // Assets: a reference link on even cards, an inspiration post on the early stages.
        let mut sort = 0;
        if i % 2 == 0 {
            let url = format!("https://example.com/refs/{}.jpg", stages::slugify(title));
            conn.execute(
                "INSERT INTO card_assets (id, card_id, sort_order, asset_type, asset_url, display_name, preview_url)
                 VALUES (?1, ?2, ?3, 'link', ?4, 'Reference', ?4)",
                params![new_id(), id, sort, url],
            )?;
            sort += 1;
        }
        if *stage <= 2 && !content.is_empty() {
            conn.execute(
                "INSERT INTO card_assets (id, card_id, sort_order, asset_type, content_id)
                 VALUES (?1, ?2, ?3, 'inspiration', ?4)",
                params![new_id(), id, sort, content[i % content.len()]],
            )?;
        }
        for t in [i % tag_ids.len(), (i * 7 + 3) % tag_ids.len()] {
            conn.execute(
                "INSERT OR IGNORE INTO card_tags (card_id, tag_id) VALUES (?1, ?2)",
                params![id, tag_ids[t]],
            )?;
        }
    }
    seed_extra_cards(conn, account_id, &space_id, &stage_ids, opts.extra_cards)
}

/// Plain cards for board benchmarks: one prepared statement, in the seed's transaction. A quarter go to
/// the first stage (a long backlog of ideas: 1,250 of 5,000, for scrolling a 1,000+-card column), the
/// rest round-robin over the other stages.
fn seed_extra_cards(
    conn: &Connection,
    account_id: &str,
    space_id: &str,
    stage_ids: &[String],
    count: usize,
) -> rusqlite::Result<()> {
    if count == 0 || stage_ids.is_empty() {
        return Ok(());
    }
    let now = time::now_str();
    let mut stmt = conn.prepare_cached(
        "INSERT INTO cards (id, account_id, space_id, stage_id, board_order, title, platform, content_type,
             created_at, updated_at)
         VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, 'post', ?8, ?8)",
    )?;
    let platforms: Vec<&str> = PLATFORMS
        .iter()
        .copied()
        .filter(|p| *p != "general")
        .collect();
    let others = stage_ids.len() - 1;
    let mut per_stage = vec![0usize; stage_ids.len()];
    for n in 0..count {
        let stage = if others == 0 || n % 4 == 0 {
            0
        } else {
            1 + (3 * (n / 4) + n % 4 - 1) % others
        };
        // After the demo cards of the stage (fewer than 100 per stage).
        let order = 100.0 * stages::ORDER_STEP + per_stage[stage] as f64 * stages::ORDER_STEP;
        per_stage[stage] += 1;
        stmt.execute(params![
            new_id(),
            account_id,
            space_id,
            stage_ids[stage],
            order,
            format!("Idea #{}", n + 1),
            platforms[n % platforms.len()],
            now
        ])?;
    }
    Ok(())
}

/// The demo card the demo project is linked to (projects seed after cards).
pub fn demo_card(conn: &Connection, account_id: &str) -> rusqlite::Result<Option<String>> {
    conn.cached_row(
        "SELECT id FROM cards WHERE account_id = ?1 AND title = ?2",
        params![account_id, DEMO_PROJECT_CARD],
        |r| r.get(0),
    )
    .optional()
}
