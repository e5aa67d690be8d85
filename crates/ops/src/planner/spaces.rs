//! Spaces: the planner's boards (list, get, create, rename or re-cover, delete).
use crate::{out, Cx, Effect, Meta, OpError, Operation};
use api_types::{CreateSpace, UpdateSpace};
use schemars::JsonSchema;
use serde::Deserialize;
use serde_json::{json, Value};

#[derive(Debug, Clone, Default, clap::Args, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct SpaceListInput {
    /// Archived spaces too.
    #[arg(long)]
    #[serde(default)]
    pub archived: bool,
}

pub struct SpaceList;
impl Operation for SpaceList {
    type Input = SpaceListInput;
    const META: Meta = Meta {
        path: &["space", "list"],
        tool: "list_spaces",
        summary: "List the spaces (boards), with how many live cards each holds",
        details: "Free. A space's id is what the card and stage tools take as spaceId; without one they use the default space.",
        effect: Effect::Read,
        idempotent: true,
        scope: None,
    };
    async fn run(cx: Cx, i: SpaceListInput) -> Result<Value, OpError> {
        Ok(json!({ "spaces": cx.client.spaces().list(i.archived).await? }))
    }
}

#[derive(Debug, Clone, clap::Args, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct SpaceId {
    /// The space's id.
    pub space_id: String,
}

pub struct SpaceGet;
impl Operation for SpaceGet {
    type Input = SpaceId;
    const META: Meta = Meta {
        path: &["space", "get"],
        tool: "get_space",
        summary: "Show one space",
        details: "Free. list_stages with its id shows its columns, list_cards its cards.",
        effect: Effect::Read,
        idempotent: true,
        scope: None,
    };
    async fn run(cx: Cx, i: SpaceId) -> Result<Value, OpError> {
        out(cx.client.spaces().get(&i.space_id).await?)
    }
}

#[derive(Debug, Clone, clap::Args, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct SpaceCreateInput {
    pub name: String,
    /// Cover image URL.
    #[arg(long = "cover")]
    #[serde(default)]
    pub cover_url: Option<String>,
    /// Copy the stages (never the cards) of this space (id).
    #[arg(long)]
    #[serde(default)]
    pub duplicate_from: Option<String>,
}

pub struct SpaceCreate;
impl Operation for SpaceCreate {
    type Input = SpaceCreateInput;
    const META: Meta = Meta {
        path: &["space", "create"],
        tool: "create_space",
        summary: "Create a space (a board), optionally with the stages of another",
        details: "Free. Not idempotent: calling it twice makes two spaces; after a timeout, list the spaces first. A new space gets the default stages on first use, or copies duplicateFrom's stages.",
        effect: Effect::Write,
        idempotent: false,
        scope: Some("planner:write"),
    };
    async fn run(cx: Cx, i: SpaceCreateInput) -> Result<Value, OpError> {
        let req = CreateSpace { name: i.name, cover_url: i.cover_url, duplicate_from: i.duplicate_from, cover_position: None, extra: Default::default() };
        out(cx.client.spaces().create(&req).await?)
    }
}

#[derive(Debug, Clone, clap::Args, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct SpaceUpdateInput {
    pub space_id: String,
    #[arg(long)]
    #[serde(default)]
    pub name: Option<String>,
    /// A new cover image URL.
    #[arg(long = "cover", conflicts_with = "no_cover")]
    #[serde(default)]
    pub cover_url: Option<String>,
    /// Remove the cover (and its framing).
    #[arg(long)]
    #[serde(default)]
    pub no_cover: bool,
}

pub struct SpaceUpdate;
impl Operation for SpaceUpdate {
    type Input = SpaceUpdateInput;
    const META: Meta = Meta {
        path: &["space", "update"],
        tool: "update_space",
        summary: "Rename a space or change its cover",
        details: "Free. Only the fields given change. Archive a space with the archive tool (assetType space).",
        effect: Effect::Write,
        idempotent: true,
        scope: Some("planner:write"),
    };
    async fn run(cx: Cx, i: SpaceUpdateInput) -> Result<Value, OpError> {
        if i.no_cover && i.cover_url.is_some() {
            return Err(OpError::usage("noCover", "give a cover or remove it, not both"));
        }
        let cover_url = if i.no_cover { Some(None) } else { i.cover_url.map(Some) };
        if i.name.is_none() && cover_url.is_none() {
            return Err(OpError::Usage { message: "nothing to change: give a name, a cover or noCover".into(), field: None });
        }
        let req = UpdateSpace { name: i.name, cover_url, ..Default::default() };
        out(cx.client.spaces().update(&i.space_id, &req).await?)
    }
}

pub struct SpaceDelete;
impl Operation for SpaceDelete {
    type Input = SpaceId;
    const META: Meta = Meta {
        path: &["space", "delete"],
        tool: "delete_space",
        summary: "Delete an empty space for good",
        details: "Free, and not undoable. Refused while the space holds cards (the error names how many): move or archive them first, or archive the space instead (archive tool, assetType space), which can be undone.",
        effect: Effect::Destroy,
        idempotent: true,
        scope: Some("planner:write"),
    };
    async fn run(cx: Cx, i: SpaceId) -> Result<Value, OpError> {
        out(cx.client.spaces().delete(&i.space_id).await?)
    }
}
