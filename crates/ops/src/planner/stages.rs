//! Stages: the columns of a space (list, create, rename, recolour or move, delete moving the cards).
use crate::{out, Cx, Effect, Meta, OpError, Operation};
use api_types::{CreateStage, DeleteStage, UpdateStage};
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use serde_json::Value;
use ts_rs::TS;

#[derive(Debug, Clone, Default, clap::Args, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct StageListInput {
    /// The space (id); the default space when absent.
    #[arg(long = "space")]
    #[serde(default)]
    pub space_id: Option<String>,
}

pub struct StageList;
impl Operation for StageList {
    type Input = StageListInput;
    const META: Meta = Meta {
        path: &["stage", "list"],
        tool: "list_stages",
        summary: "List the stages (columns) of a space in board order",
        details: "Free. The reply names the space read (the default one without spaceId). A stage's id, slug or name is what create_card and move_card take as stage.",
        effect: Effect::Read,
        idempotent: true,
        scope: None,
    };
    async fn run(cx: Cx, i: StageListInput) -> Result<Value, OpError> {
        out(cx.client.stages().list(i.space_id.as_deref()).await?)
    }
}

/// A stage's name as every face takes it: trimmed, 1 to 60 characters.
pub const STAGE_NAME_MAX: usize = 60;

/// Where a stage goes on the board: after one stage or before one, not both.
fn check_place(after_id: &Option<String>, before_id: &Option<String>) -> Result<(), OpError> {
    if after_id.is_some() && before_id.is_some() {
        return Err(OpError::usage("beforeId", "Move a stage after one stage or before one, not both."));
    }
    Ok(())
}

/// A new stage: `cdesk stage create`, `create_stage` and the app's `stage_create` take this one input and
/// its rules ([`StageCreateInput::check`]).
#[derive(Debug, Clone, clap::Args, Deserialize, Serialize, JsonSchema, TS)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct StageCreateInput {
    /// The stage's name.
    pub name: String,
    /// The space (id); the default space when absent.
    #[arg(long = "space")]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub space_id: Option<String>,
    /// Hex colour, `#RRGGBB`.
    #[arg(long)]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub color: Option<String>,
    /// Place it right after this stage (id).
    #[arg(long = "after", conflicts_with = "before_id")]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub after_id: Option<String>,
    /// Place it right before this stage (id).
    #[arg(long = "before")]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub before_id: Option<String>,
}

impl StageCreateInput {
    /// The rules of a new stage, checked before anything is sent: a name of 1 to 60 characters, and one
    /// place at most.
    pub fn check(&self) -> Result<(), OpError> {
        super::checked_name("name", "stage", &self.name, STAGE_NAME_MAX)?;
        check_place(&self.after_id, &self.before_id)
    }
}

pub struct StageCreate;
impl Operation for StageCreate {
    type Input = StageCreateInput;
    const META: Meta = Meta {
        path: &["stage", "create"],
        tool: "create_stage",
        summary: "Add a stage (column) to a space, at the end or next to another",
        details: "Free. The slug comes from the name; a second stage whose name makes the same slug is refused (409), so a retry after a timeout makes no duplicate.",
        effect: Effect::Write,
        idempotent: true,
        scope: Some("planner:write"),
    };
    async fn run(cx: Cx, i: StageCreateInput) -> Result<Value, OpError> {
        i.check()?;
        let req = CreateStage {
            name: i.name.trim().to_string(),
            space_id: i.space_id,
            color: i.color,
            after_id: i.after_id,
            before_id: i.before_id,
            extra: Default::default(),
        };
        out(cx.client.stages().create(&req).await?)
    }
}

/// The space a stage write names: the one given, else the account's default (one read of the stages).
async fn space_or_default(cx: &Cx, space_id: Option<String>) -> Result<String, OpError> {
    match space_id {
        Some(id) => Ok(id),
        None => Ok(cx.client.stages().list(None).await?.space.id),
    }
}

/// A stage renamed, recoloured or moved: `cdesk stage update`, `update_stage` and the app's `stage_update`
/// take this one input and its rules ([`StageUpdateInput::check`]).
#[derive(Debug, Clone, clap::Args, Deserialize, Serialize, JsonSchema, TS)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct StageUpdateInput {
    /// The stage's id.
    pub stage_id: String,
    /// The stage's space (id); the default space when absent.
    #[arg(long = "space")]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub space_id: Option<String>,
    /// A new name (the slug follows it).
    #[arg(long)]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub name: Option<String>,
    /// Hex colour, `#RRGGBB`.
    #[arg(long)]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub color: Option<String>,
    /// Place it right after this stage (id).
    #[arg(long = "after", conflicts_with = "before_id")]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub after_id: Option<String>,
    /// Place it right before this stage (id).
    #[arg(long = "before")]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub before_id: Option<String>,
    /// Move it to the far left.
    #[arg(long, conflicts_with_all = ["to_end", "after_id", "before_id"])]
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub to_start: bool,
    /// Move it to the far right.
    #[arg(long, conflicts_with_all = ["after_id", "before_id"])]
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub to_end: bool,
}

impl StageUpdateInput {
    /// The rules of a stage's change, checked before anything is sent: a name (when given) of 1 to 60
    /// characters, one place at most, and something to change.
    pub fn check(&self) -> Result<(), OpError> {
        if let Some(name) = &self.name {
            super::checked_name("name", "stage", name, STAGE_NAME_MAX)?;
        }
        check_place(&self.after_id, &self.before_id)?;
        let moves = [self.after_id.is_some(), self.before_id.is_some(), self.to_start, self.to_end];
        if moves.iter().filter(|m| **m).count() > 1 {
            return Err(OpError::usage("toStart", "give one place: afterId, beforeId, toStart or toEnd"));
        }
        if self.name.is_none() && self.color.is_none() && !moves.contains(&true) {
            return Err(OpError::Usage { message: "nothing to change: give a name, a color or a place".into(), field: None });
        }
        Ok(())
    }
}

pub struct StageUpdate;
impl Operation for StageUpdate {
    type Input = StageUpdateInput;
    const META: Meta = Meta {
        path: &["stage", "update"],
        tool: "update_stage",
        summary: "Rename, recolour or move a stage",
        details: "Free. Only the fields given change. `respaced: true` in the reply means the whole board was renumbered: list the stages again before using sort orders.",
        effect: Effect::Write,
        idempotent: true,
        scope: Some("planner:write"),
    };
    async fn run(cx: Cx, i: StageUpdateInput) -> Result<Value, OpError> {
        i.check()?;
        let after_id = if i.to_start { Some(None) } else { i.after_id.map(Some) };
        let before_id = if i.to_end { Some(None) } else { i.before_id.map(Some) };
        let req = UpdateStage {
            space_id: space_or_default(&cx, i.space_id).await?,
            name: i.name.map(|n| n.trim().to_string()),
            color: i.color,
            after_id,
            before_id,
            extra: Default::default(),
        };
        out(cx.client.stages().update(&i.stage_id, &req).await?)
    }
}

/// A stage deleted: `cdesk stage delete`, `delete_stage` and the app's `stage_delete` take this one input
/// and its rule ([`StageDeleteInput::check`]).
#[derive(Debug, Clone, clap::Args, Deserialize, Serialize, JsonSchema, TS)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct StageDeleteInput {
    /// The stage's id.
    pub stage_id: String,
    /// The stage's space (id); the default space when absent.
    #[arg(long = "space")]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub space_id: Option<String>,
    /// Where its cards go (a stage id of the same space); needed unless the stage is empty.
    #[arg(long = "target")]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub target_stage_id: Option<String>,
}

impl StageDeleteInput {
    /// The rule of a delete, checked before anything is sent: its cards go to another stage, not to itself.
    pub fn check(&self) -> Result<(), OpError> {
        if self.target_stage_id.as_deref().map(str::trim) == Some(self.stage_id.as_str()) {
            return Err(OpError::usage("targetStageId", "Choose another stage for the cards of the stage you delete."));
        }
        Ok(())
    }
}

pub struct StageDelete;
impl Operation for StageDelete {
    type Input = StageDeleteInput;
    const META: Meta = Meta {
        path: &["stage", "delete"],
        tool: "delete_stage",
        summary: "Delete a stage, moving its cards to another stage",
        details: "Free, and not undoable. A stage holding cards needs targetStageId (the error names how many cards); the move and the delete are one step. The reply lists the stages left.",
        effect: Effect::Destroy,
        idempotent: true,
        scope: Some("planner:write"),
    };
    async fn run(cx: Cx, i: StageDeleteInput) -> Result<Value, OpError> {
        i.check()?;
        let req = DeleteStage { space_id: space_or_default(&cx, i.space_id).await?, target_stage_id: i.target_stage_id, extra: Default::default() };
        out(cx.client.stages().delete(&i.stage_id, &req).await?)
    }
}
