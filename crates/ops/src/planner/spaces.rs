//! Spaces: the planner's boards (list, get, create, rename or re-cover, delete).
use crate::{out, Cx, Effect, Meta, OpError, Operation};
use api_types::{CreateSpace, UpdateSpace};
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use serde_json::{json, Value};
use ts_rs::TS;

/// The spaces listed: `cdesk space list`, `list_spaces` and the app's `spaces_list` take this one input.
#[derive(Debug, Clone, Default, clap::Args, Deserialize, Serialize, JsonSchema, TS)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct SpaceListInput {
    /// Archived spaces too.
    #[arg(long)]
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
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

/// A new space: `cdesk space create`, `create_space` and the app's `space_create` take this one input and
/// its one rule ([`SpaceCreateInput::check`]).
#[derive(Debug, Clone, clap::Args, Deserialize, Serialize, JsonSchema, TS)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct SpaceCreateInput {
    /// The space's name.
    pub name: String,
    /// Cover image URL.
    #[arg(long = "cover")]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub cover_url: Option<String>,
    /// Copy the stages (never the cards) of this space (id).
    #[arg(long)]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub duplicate_from: Option<String>,
}

/// A space's name as every face takes it: trimmed, 1 to 120 characters.
pub const SPACE_NAME_MAX: usize = 120;

impl SpaceCreateInput {
    /// The rules of a new space, checked before anything is sent: a name of 1 to 120 characters.
    pub fn check(&self) -> Result<(), OpError> {
        super::checked_name("name", "space", &self.name, SPACE_NAME_MAX).map(drop)
    }
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
        i.check()?;
        let req = CreateSpace { name: i.name.trim().to_string(), cover_url: i.cover_url, duplicate_from: i.duplicate_from, cover_position: None, extra: Default::default() };
        out(cx.client.spaces().create(&req).await?)
    }
}

/// A space renamed or re-covered: `cdesk space update`, `update_space` and the app's `space_rename` take
/// this one input and its rules ([`SpaceUpdateInput::check`]).
#[derive(Debug, Clone, clap::Args, Deserialize, Serialize, JsonSchema, TS)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct SpaceUpdateInput {
    /// The space's id.
    pub space_id: String,
    /// A new name.
    #[arg(long)]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub name: Option<String>,
    /// A new cover image URL.
    #[arg(long = "cover", conflicts_with = "no_cover")]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub cover_url: Option<String>,
    /// Remove the cover (and its framing).
    #[arg(long)]
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub no_cover: bool,
}

impl SpaceUpdateInput {
    /// The rules of a space's change, checked before anything is sent: a name (when given) of 1 to 120
    /// characters, a cover or its removal (not both), and something to change.
    pub fn check(&self) -> Result<(), OpError> {
        if let Some(name) = &self.name {
            super::checked_name("name", "space", name, SPACE_NAME_MAX)?;
        }
        if self.no_cover && self.cover_url.is_some() {
            return Err(OpError::usage("noCover", "give a cover or remove it, not both"));
        }
        if self.name.is_none() && self.cover_url.is_none() && !self.no_cover {
            return Err(OpError::Usage { message: "nothing to change: give a name, a cover or noCover".into(), field: None });
        }
        Ok(())
    }
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
        i.check()?;
        let cover_url = if i.no_cover { Some(None) } else { i.cover_url.map(Some) };
        let req = UpdateSpace { name: i.name.map(|n| n.trim().to_string()), cover_url, ..Default::default() };
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
        details: "Free, and not undoable. Refused while the space holds any card, archived ones included (the error names how many): move them out first (update_card with spaceId), or archive the space instead (archive, assetType space), which is undoable.",
        effect: Effect::Destroy,
        idempotent: true,
        scope: Some("planner:write"),
    };
    async fn run(cx: Cx, i: SpaceId) -> Result<Value, OpError> {
        out(cx.client.spaces().delete(&i.space_id).await?)
    }
}
