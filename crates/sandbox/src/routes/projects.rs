//! Projects (editor and canvas), created or imported, optionally linked to a card in the same call
//! (spec section 4 "Projects", fact sheet 2.11, 3.10). Reads need `editor:read`, creates `editor:write`
//! (the gate checks both) and, with `cardId`, also `planner:write`. A card that is not the caller's is a
//! 404 before any project is made; the link appends a project asset to the card, in the same transaction.
use crate::db::CachedRow as _;
use crate::auth::Caller;
use crate::db::new_id;
use crate::error::{ApiError, ApiResult};
use crate::extract::{AppJson, AppQuery};
use crate::state::AppState;
use crate::time;
use api_types::scopes::PLANNER_WRITE;
use api_types::{CreateProject, ImportProject, ImportSource, Project, ProjectCreated};
use axum::extract::{Path, State};
use axum::Json;
use rusqlite::{params, Connection, OptionalExtension};
use serde::{Deserialize, Serialize};
use crate::tables::{board, cards};
use crate::tables::projects::{COLS, find, from_row};

pub const SCHEMA: &str = "
CREATE TABLE IF NOT EXISTS projects (
    id TEXT PRIMARY KEY,
    account_id TEXT NOT NULL REFERENCES accounts(id),
    type TEXT NOT NULL,
    title TEXT NOT NULL,
    orientation TEXT NOT NULL,
    width INTEGER NOT NULL,
    height INTEGER NOT NULL,
    thumbnail_url TEXT,
    brand_kit_id TEXT,
    linked_card_id TEXT,
    -- Where an import came from (JSON), NULL for a created project.
    source TEXT,
    page_count INTEGER,
    archived_at TEXT,
    favorited_at TEXT,
    created_at TEXT NOT NULL,
    updated_at TEXT NOT NULL
);
CREATE INDEX IF NOT EXISTS projects_by_account ON projects(account_id);
";

pub const TYPES: &[&str] = &["editor", "canvas"];
pub const ORIENTATIONS: &[&str] = &["landscape", "portrait", "square"];
/// The aspect ratios the official client sends for the orientations (issue 27), in [`ORIENTATIONS`]' order.
pub const ORIENTATION_RATIOS: &[&str] = &["16:9", "9:16", "1:1"];
pub const FILTERS: &[&str] = &["archived", "favorited"];

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct ProjectQuery {
    #[serde(default)]
    filter: Option<String>,
    /// `type`, or the older `surface` / `kind`.
    #[serde(default, rename = "type", alias = "surface", alias = "kind")]
    r#type: Option<String>,
    #[serde(default)]
    search: Option<String>,
}

#[derive(Serialize)]
pub(crate) struct ProjectEnvelope {
    project: Served,
}

/// A project as the service sends it: its surface under `type` and under the older names the official
/// client (0.3.4) reads, `surface` and the deprecated `kind` (facts 3.10: "aliases emitted"); a detail
/// (get, create, import) also carries the composition's `revision`, the token `applyEditorOps` takes.
/// The sandbox edits no compositions (it has no `/editor/ops`), so a project stays at its first revision, 0.
#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
pub(crate) struct Served {
    #[serde(flatten)]
    project: Project,
    surface: String,
    kind: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    revision: Option<i64>,
}

/// The first revision of a composition (see [`Served`]).
const FIRST_REVISION: i64 = 0;

impl Served {
    fn summary(project: Project) -> Served {
        Served { surface: project.r#type.clone(), kind: project.r#type.clone(), project, revision: None }
    }
    fn detail(project: Project) -> Served {
        Served { revision: Some(FIRST_REVISION), ..Served::summary(project) }
    }
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
pub(crate) struct ServedList {
    projects: Vec<Served>,
}

/// The reply to a create or import: the project (a detail) and `linkedCardId` beside it.
#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
pub(crate) struct ServedCreated {
    project: Served,
    linked_card_id: Option<String>,
}

fn served_created(c: ProjectCreated) -> Json<ServedCreated> {
    Json(ServedCreated { project: Served::detail(c.project), linked_card_id: c.linked_card_id })
}

pub(crate) async fn list(
    State(state): State<AppState>,
    caller: Caller,
    AppQuery(q): AppQuery<ProjectQuery>,
) -> ApiResult<Json<ServedList>> {
    let mut conds = vec!["account_id = ?".to_string()];
    let mut args = vec![caller.account_id.clone()];
    match q.filter.as_deref() {
        None => conds.push("archived_at IS NULL".into()),
        Some("archived") => conds.push("archived_at IS NOT NULL".into()),
        Some("favorited") => conds.push("favorited_at IS NOT NULL AND archived_at IS NULL".into()),
        Some(other) => return Err(ApiError::not_one_of("filter", other, FILTERS)),
    }
    if let Some(t) = &q.r#type {
        one_of("type", t, TYPES)?;
        conds.push("type = ?".into());
        args.push(t.clone());
    }
    if let Some(search) = q.search.as_deref().map(str::trim).filter(|s| !s.is_empty()) {
        conds.push("title LIKE '%' || ? || '%'".into());
        args.push(search.to_string());
    }
    let conn = state.db().reader()?;
    let mut stmt = conn.prepare_cached(&format!(
        "SELECT {COLS} FROM projects WHERE {} ORDER BY rowid DESC", // newest first
        conds.join(" AND ")
    ))?;
    let projects = stmt
        .query_map(rusqlite::params_from_iter(&args), from_row)?
        .collect::<rusqlite::Result<Vec<_>>>()?;
    Ok(Json(ServedList { projects: projects.into_iter().map(Served::summary).collect() }))
}

pub(crate) async fn one(
    State(state): State<AppState>,
    caller: Caller,
    Path(id): Path<String>,
) -> ApiResult<Json<ProjectEnvelope>> {
    let conn = state.db().reader()?;
    let project =
        find(&conn, &caller.account_id, &id)?.ok_or_else(|| ApiError::not_found("Project"))?;
    Ok(Json(ProjectEnvelope { project: Served::detail(project) }))
}

/// What a new project is made of, from a create or an import.
struct NewProject {
    r#type: String,
    title: String,
    orientation: String,
    width: i64,
    height: i64,
    brand_kit_id: Option<String>,
    source: Option<String>,
    page_count: Option<i64>,
}

pub(crate) async fn create(
    State(state): State<AppState>,
    caller: Caller,
    AppJson(body): AppJson<CreateProject>,
) -> ApiResult<Json<ServedCreated>> {
    check_card_link(&caller, body.card_id.as_deref())?;
    let r#type = body.r#type.clone().unwrap_or_else(|| "editor".into());
    one_of("type", &r#type, TYPES)?;
    let (orientation, width, height) = frame(body.orientation.as_deref(), body.width, body.height)?;
    let new = NewProject {
        r#type,
        title: title_or(body.title.as_deref(), "Untitled project")?,
        orientation,
        width,
        height,
        brand_kit_id: body.brand_kit_id.clone(),
        source: None,
        page_count: None,
    };
    make(&state, &caller, new, body.card_id.as_deref()).map(served_created)
}

pub(crate) async fn import(
    State(state): State<AppState>,
    caller: Caller,
    AppJson(body): AppJson<ImportProject>,
) -> ApiResult<Json<ServedCreated>> {
    check_card_link(&caller, body.card_id.as_deref())?;
    // The card is checked before the source, so a foreign card is a 404 whatever the source is.
    if let Some(card) = &body.card_id {
        let conn = state.db().lock();
        if !cards::exists(&conn, &caller.account_id, card)? {
            return Err(ApiError::not_found("Card"));
        }
    }
    let file_url = match &body.source {
        ImportSource::Canva { .. } => {
            // The sandbox has no Canva connection, as an account that never connected Canva.
            return Err(ApiError::Coded {
                message: "Canva is not connected to this account; connect it in the app, or import a PPTX by fileUrl"
                    .into(),
                code: "canva_not_connected",
            });
        }
        ImportSource::Pptx { file_url } => file_url,
    };
    board::check_url("source.fileUrl", file_url)?;
    if let Some(n) = body.page_count {
        if !(1..=500).contains(&n) {
            return Err(ApiError::bad("pageCount", "pageCount must be 1 to 500"));
        }
    }
    // A slide deck becomes a canvas project named after the file unless a title is given.
    let from_file = file_url
        .rsplit('/')
        .next()
        .and_then(|f| f.split(['?', '#']).next())
        .map(|f| f.trim_end_matches(".pptx").replace(['-', '_'], " "))
        .filter(|f| !f.trim().is_empty())
        .unwrap_or_else(|| "Imported deck".into());
    let new = NewProject {
        r#type: "canvas".into(),
        title: title_or(body.title.as_deref(), &from_file)?,
        orientation: "landscape".into(),
        width: 1920,
        height: 1080,
        brand_kit_id: None,
        source: Some(serde_json::json!({ "type": "pptx", "fileUrl": file_url }).to_string()),
        page_count: Some(body.page_count.unwrap_or(1)),
    };
    make(&state, &caller, new, body.card_id.as_deref()).map(served_created)
}

/// Linking to a card writes to the card, so it needs `planner:write` too (spec).
fn check_card_link(caller: &Caller, card_id: Option<&str>) -> ApiResult<()> {
    if card_id.is_some() {
        caller.require(PLANNER_WRITE)?;
    }
    Ok(())
}

/// Inserts the project and, with a card, links it — all in one transaction, the card checked first.
fn make(
    state: &AppState,
    caller: &Caller,
    new: NewProject,
    card_id: Option<&str>,
) -> ApiResult<ProjectCreated> {
    let account = &caller.account_id;
    state.db().tx(|tx| {
        if let Some(card) = card_id {
            if !cards::exists(tx, account, card)? {
                return Err(ApiError::not_found("Card"));
            }
        }
        // A project names only the caller's own brand kit (another account's is "not found" too).
        if let Some(kit) = new.brand_kit_id.as_deref() {
            let found = tx
                .cached_row(
                    "SELECT 1 FROM brand_kits WHERE id = ?1 AND account_id = ?2",
                    params![kit, account],
                    |_| Ok(()),
                )
                .optional()?;
            if found.is_none() {
                return Err(ApiError::not_found("Brand kit"));
            }
        }
        let id = new_id();
        let now = time::now_str();
        tx.execute(
            "INSERT INTO projects (id, account_id, type, title, orientation, width, height, brand_kit_id,
                 linked_card_id, source, page_count, created_at, updated_at)
             VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?12)",
            params![
                id,
                account,
                new.r#type,
                new.title,
                new.orientation,
                new.width,
                new.height,
                new.brand_kit_id,
                card_id,
                new.source,
                new.page_count,
                now
            ],
        )?;
        if let Some(card) = card_id {
            cards::link_project(tx, card, &id)?;
        }
        let project = find(tx, account, &id)?.ok_or_else(|| ApiError::internal("project vanished"))?;
        Ok(ProjectCreated { linked_card_id: project.linked_card_id.clone(), project })
    })
}

/// Orientation and size: 16:9 landscape by default (fact sheet 2.11); a size given alone implies the
/// orientation, an orientation alone implies the size.
fn frame(
    orientation: Option<&str>,
    width: Option<i64>,
    height: Option<i64>,
) -> ApiResult<(String, i64, i64)> {
    // An aspect ratio stands for its word (stored and answered as the word).
    let orientation = orientation.map(|o| ORIENTATION_RATIOS.iter().position(|r| *r == o).map_or(o, |i| ORIENTATIONS[i]));
    if let Some(o) = orientation {
        let valid: Vec<&str> = ORIENTATIONS.iter().chain(ORIENTATION_RATIOS).copied().collect();
        one_of("orientation", o, &valid)?;
    }
    for (field, v) in [("width", width), ("height", height)] {
        if v.is_some_and(|v| !(16..=8192).contains(&v)) {
            return Err(ApiError::bad(
                field,
                format!("{field} must be 16 to 8192 pixels"),
            ));
        }
    }
    let (w, h) = match (width, height, orientation) {
        (Some(w), Some(h), _) => (w, h),
        (None, None, Some("portrait")) => (1080, 1920),
        (None, None, Some("square")) => (1080, 1080),
        (None, None, _) => (1920, 1080),
        (Some(_), None, _) => return Err(ApiError::bad("height", "give height with width")),
        (None, Some(_), _) => return Err(ApiError::bad("width", "give width with height")),
    };
    let implied = match w.cmp(&h) {
        std::cmp::Ordering::Greater => "landscape",
        std::cmp::Ordering::Less => "portrait",
        std::cmp::Ordering::Equal => "square",
    };
    Ok((orientation.unwrap_or(implied).to_string(), w, h))
}

fn title_or(title: Option<&str>, default: &str) -> ApiResult<String> {
    match title.map(str::trim) {
        None | Some("") => Ok(default.trim().to_string()),
        Some(t) if t.chars().count() > 300 => {
            Err(ApiError::bad("title", "title is at most 300 characters"))
        }
        Some(t) => Ok(t.to_string()),
    }
}

fn one_of(field: &str, value: &str, valid: &[&str]) -> ApiResult<()> {
    if valid.contains(&value) {
        Ok(())
    } else {
        Err(ApiError::not_one_of(field, value, valid))
    }
}

/// A demo project, linked to one demo card (after the cards are seeded).
pub fn seed_demo(
    conn: &Connection,
    account_id: &str,
) -> rusqlite::Result<()> {
    let now = time::now_str();
    let card = cards::demo_card(conn, account_id)?;
    let id = new_id();
    conn.execute(
        "INSERT INTO projects (id, account_id, type, title, orientation, width, height, linked_card_id, created_at,
             updated_at)
         VALUES (?1, ?2, 'editor', 'Spring launch teaser edit', 'portrait', 1080, 1920, ?3, ?4, ?4)",
        params![id, account_id, card, now],
    )?;
    if let Some(card) = card {
        cards::link_project(conn, &card, &id)?;
    }
    conn.execute(
        "INSERT INTO projects (id, account_id, type, title, orientation, width, height, created_at, updated_at)
         VALUES (?1, ?2, 'canvas', 'Caption formulas carousel', 'square', 1080, 1080, ?3, ?3)",
        params![new_id(), account_id, now],
    )?;
    Ok(())
}
