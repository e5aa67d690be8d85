//! Projects (editor and canvas): list, get, create and import, optionally linked to a card.
use crate::input::one_of;
use crate::{out, Cx, Effect, Meta, OpError, Operation};
use api_types::values::{PROJECT_FILTERS, PROJECT_ORIENTATIONS, PROJECT_TYPES};

/// The words, and the aspect ratios the official CLI sends for them (`--orientation 9:16`, issue 27); the
/// service takes both.
const ORIENTATIONS: [&str; 6] = [PROJECT_ORIENTATIONS[0], PROJECT_ORIENTATIONS[1], PROJECT_ORIENTATIONS[2], "16:9", "9:16", "1:1"];
use api_types::{CreateProject, ImportProject, ImportSource};
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use serde_json::{json, Value};
use ts_rs::TS;

fn type_schema(_: &mut schemars::SchemaGenerator) -> schemars::Schema {
    schemars::json_schema!({ "type": "string", "enum": PROJECT_TYPES })
}

fn filter_schema(_: &mut schemars::SchemaGenerator) -> schemars::Schema {
    schemars::json_schema!({ "type": "string", "enum": PROJECT_FILTERS })
}

fn orientation_schema(_: &mut schemars::SchemaGenerator) -> schemars::Schema {
    schemars::json_schema!({ "type": "string", "enum": ORIENTATIONS })
}

#[derive(Debug, Clone, Default, clap::Args, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct ProjectListInput {
    /// Archived or favourited projects instead of the live ones.
    #[arg(long, value_parser = one_of(PROJECT_FILTERS.iter().copied()))]
    #[serde(default)]
    #[schemars(schema_with = "filter_schema")]
    pub filter: Option<String>,
    /// Only editor or only canvas projects.
    #[arg(long = "type", value_parser = one_of(PROJECT_TYPES.iter().copied()))]
    #[serde(default, rename = "type")]
    #[schemars(schema_with = "type_schema")]
    pub project_type: Option<String>,
    /// Words in the title.
    #[arg(long)]
    #[serde(default)]
    pub search: Option<String>,
}

pub struct ProjectList;
impl Operation for ProjectList {
    type Input = ProjectListInput;
    const META: Meta = Meta {
        path: &["project", "list"],
        tool: "list_projects",
        summary: "List the editor and canvas projects, newest first",
        details: "Free. Needs editor:read. linkedCardId names the card a project was made for.",
        effect: Effect::Read,
        idempotent: true,
        scope: Some("editor:read"),
    };
    async fn run(cx: Cx, i: ProjectListInput) -> Result<Value, OpError> {
        if cx.as_sent {
            return Ok(cx.client.projects().list_where_as_sent(i.filter.as_deref(), i.project_type.as_deref(), i.search.as_deref()).await?);
        }
        let projects = cx.client.projects().list_where(i.filter.as_deref(), i.project_type.as_deref(), i.search.as_deref()).await?;
        Ok(json!({ "projects": projects }))
    }
}

#[derive(Debug, Clone, clap::Args, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct ProjectId {
    /// The project's id.
    pub project_id: String,
}

pub struct ProjectGet;
impl Operation for ProjectGet {
    type Input = ProjectId;
    const META: Meta = Meta {
        path: &["project", "get"],
        tool: "get_project",
        summary: "Show one project",
        details: "Free. Needs editor:read.",
        effect: Effect::Read,
        idempotent: true,
        scope: Some("editor:read"),
    };
    async fn run(cx: Cx, i: ProjectId) -> Result<Value, OpError> {
        if cx.as_sent {
            return Ok(cx.client.projects().get_as_sent(&i.project_id).await?);
        }
        out(cx.client.projects().get(&i.project_id).await?)
    }
}

/// A new project: `cdesk project create`, the agent tool `create_project` and the app's `project_create`
/// take this one input and its rules ([`ProjectCreateInput::check`]).
#[derive(Debug, Clone, Default, clap::Args, Deserialize, Serialize, JsonSchema, TS)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct ProjectCreateInput {
    /// Editor (timeline, the default) or canvas (slides).
    #[arg(long = "type", value_parser = one_of(PROJECT_TYPES.iter().copied()))]
    #[serde(default, rename = "type", skip_serializing_if = "Option::is_none")]
    #[schemars(schema_with = "type_schema")]
    #[ts(optional)]
    pub project_type: Option<String>,
    /// The project's title (a default one when absent).
    #[arg(long)]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub title: Option<String>,
    /// Landscape (16:9, the default), portrait or square.
    #[arg(long, value_parser = one_of(ORIENTATIONS.iter().copied()))]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(schema_with = "orientation_schema")]
    #[ts(optional)]
    pub orientation: Option<String>,
    /// Use this brand kit (id).
    #[arg(long = "brand-kit")]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub brand_kit_id: Option<String>,
    /// Link the new project to this card (id) in the same call.
    #[arg(long = "card")]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub card_id: Option<String>,
}

/// The longest project title.
pub const PROJECT_TITLE_MAX: usize = 200;

impl ProjectCreateInput {
    /// The rules of a new project, checked before anything is sent, in every face: a title, when given,
    /// has words and at most [`PROJECT_TITLE_MAX`] characters; the type is editor or canvas; the
    /// orientation one the service takes.
    pub fn check(&self) -> Result<(), OpError> {
        if let Some(title) = &self.title {
            if title.trim().is_empty() {
                return Err(OpError::usage("title", "Give the project a title (or leave it out for a default one)."));
            }
            if title.trim().chars().count() > PROJECT_TITLE_MAX {
                return Err(OpError::usage("title", format!("The project's title is too long: at most {PROJECT_TITLE_MAX} characters.")));
            }
        }
        if let Some(t) = self.project_type.as_deref().filter(|t| !PROJECT_TYPES.contains(t)) {
            return Err(OpError::usage("type", format!("`{t}` is not a project type: editor or canvas.")));
        }
        if let Some(o) = self.orientation.as_deref().filter(|o| !ORIENTATIONS.contains(o)) {
            return Err(OpError::usage("orientation", format!("`{o}` is not an orientation: one of {}.", ORIENTATIONS.join(", "))));
        }
        Ok(())
    }
}

pub struct ProjectCreate;
impl Operation for ProjectCreate {
    type Input = ProjectCreateInput;
    const META: Meta = Meta {
        path: &["project", "create"],
        tool: "create_project",
        summary: "Create an editor or canvas project, optionally linked to a card",
        details: "Free. Needs editor:write, and planner:write too with cardId (the card gets the project as an asset; a card not yours is 404 and nothing is made). Not idempotent: calling it twice makes two projects; after a timeout, list the projects first.",
        effect: Effect::Write,
        idempotent: false,
        scope: Some("editor:write"),
    };
    async fn run(cx: Cx, i: ProjectCreateInput) -> Result<Value, OpError> {
        i.check()?;
        let req = CreateProject {
            r#type: i.project_type,
            title: i.title.map(|t| t.trim().to_string()),
            orientation: i.orientation,
            brand_kit_id: i.brand_kit_id,
            card_id: i.card_id,
            ..Default::default()
        };
        if cx.as_sent {
            return Ok(cx.client.projects().create_as_sent(&req).await?);
        }
        out(cx.client.projects().create(&req).await?)
    }
}

/// An import: `cdesk project import`, the agent tool `import_project` and the app's `project_import` take
/// this one input and its rules ([`ProjectImportInput::check`]).
#[derive(Debug, Clone, Default, clap::Args, Deserialize, Serialize, JsonSchema, TS)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct ProjectImportInput {
    /// Import a PowerPoint file from this URL.
    #[arg(long = "pptx", value_name = "URL", required_unless_present = "canva_design_id", conflicts_with = "canva_design_id")]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub pptx_url: Option<String>,
    /// Import this Canva design (needs Canva connected in the app).
    #[arg(long = "canva", value_name = "DESIGN_ID")]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub canva_design_id: Option<String>,
    /// The project's title.
    #[arg(long)]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub title: Option<String>,
    /// How many pages the deck has, when known.
    #[arg(long)]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub page_count: Option<i64>,
    /// Link the new project to this card (id) in the same call.
    #[arg(long = "card")]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub card_id: Option<String>,
}

/// The most pages an imported deck has.
pub const IMPORT_PAGES_MAX: i64 = 500;

impl ProjectImportInput {
    /// The rules of an import, checked before anything is sent, in every face: one source, a PowerPoint
    /// file by its http(s) address or a Canva design by a non-empty id; a page count of 1 to
    /// [`IMPORT_PAGES_MAX`]. Answers the source to send.
    pub fn check(&self) -> Result<ImportSource, OpError> {
        let given = |v: &Option<String>| v.as_deref().map(str::trim).map(str::to_string);
        let source = match (given(&self.pptx_url), given(&self.canva_design_id)) {
            (Some(url), None) => {
                if !url::Url::parse(&url).is_ok_and(|u| matches!(u.scheme(), "http" | "https")) {
                    return Err(OpError::usage("pptxUrl", "Give the slide deck's http(s) address."));
                }
                ImportSource::Pptx { file_url: url }
            }
            (None, Some(id)) => {
                if id.is_empty() {
                    return Err(OpError::usage("canvaDesignId", "Give the Canva design's id."));
                }
                ImportSource::Canva { design_id: id }
            }
            _ => return Err(OpError::usage("pptxUrl", "Give one source: pptxUrl or canvaDesignId.")),
        };
        if let Some(n) = self.page_count.filter(|n| !(1..=IMPORT_PAGES_MAX).contains(n)) {
            return Err(OpError::usage("pageCount", format!("A deck has 1 to {IMPORT_PAGES_MAX} pages, not {n}.")));
        }
        Ok(source)
    }

    /// The service's request, after [`Self::check`].
    pub fn request(self) -> Result<ImportProject, OpError> {
        let source = self.check()?;
        let title = self.title.map(|t| t.trim().to_string()).filter(|t| !t.is_empty());
        Ok(ImportProject { source, title, page_count: self.page_count, card_id: self.card_id, extra: Default::default() })
    }
}

pub struct ProjectImport;
impl Operation for ProjectImport {
    type Input = ProjectImportInput;
    const META: Meta = Meta {
        path: &["project", "import"],
        tool: "import_project",
        summary: "Import a PowerPoint deck or a Canva design as a canvas project, optionally linked to a card",
        details: "Free. Give pptxUrl or canvaDesignId (a Canva import without Canva connected is a 400, code canva_not_connected). Needs editor:write, and planner:write too with cardId. Not idempotent: calling it twice makes two projects.",
        effect: Effect::Write,
        idempotent: false,
        scope: Some("editor:write"),
    };
    async fn run(cx: Cx, i: ProjectImportInput) -> Result<Value, OpError> {
        let req = i.request()?;
        out(cx.client.projects().import(&req).await?)
    }
}
