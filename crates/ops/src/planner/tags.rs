//! Tags for cards (list, create, rename, remove from every card).
use crate::account::Nothing;
use crate::{out, Cx, Effect, Meta, OpError, Operation};
use schemars::JsonSchema;
use serde::Deserialize;
use serde_json::{json, Value};

pub struct TagList;
impl Operation for TagList {
    type Input = Nothing;
    const META: Meta = Meta {
        path: &["tag", "list"],
        tool: "list_tags",
        summary: "List the account's tags",
        details: "Free. Cards take tags by name or id (create_card, update_card); list_cards filters by one.",
        effect: Effect::Read,
        idempotent: true,
        scope: None,
    };
    async fn run(cx: Cx, _: Nothing) -> Result<Value, OpError> {
        Ok(json!({ "tags": cx.client.tags().list().await? }))
    }
}

#[derive(Debug, Clone, clap::Args, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct TagName {
    /// The name (stored lowercased).
    pub name: String,
}

pub struct TagCreate;
impl Operation for TagCreate {
    type Input = TagName;
    const META: Meta = Meta {
        path: &["tag", "create"],
        tool: "create_tag",
        summary: "Create a tag",
        details: "Free. Names are lowercased; a name that exists is refused (409), so a retry after a timeout makes no duplicate.",
        effect: Effect::Write,
        idempotent: true,
        scope: Some("planner:write"),
    };
    async fn run(cx: Cx, i: TagName) -> Result<Value, OpError> {
        out(cx.client.tags().create(&i.name).await?)
    }
}

#[derive(Debug, Clone, clap::Args, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct TagRename {
    /// The tag's id.
    pub tag_id: String,
    /// Its new name (stored lowercased).
    pub name: String,
}

pub struct TagUpdate;
impl Operation for TagUpdate {
    type Input = TagRename;
    const META: Meta = Meta {
        path: &["tag", "update"],
        tool: "update_tag",
        summary: "Rename a tag (every card keeps it)",
        details: "Free. A name another tag has is refused (409).",
        effect: Effect::Write,
        idempotent: true,
        scope: Some("planner:write"),
    };
    async fn run(cx: Cx, i: TagRename) -> Result<Value, OpError> {
        out(cx.client.tags().update(&i.tag_id, &i.name).await?)
    }
}

#[derive(Debug, Clone, clap::Args, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct TagId {
    /// The tag's id.
    pub tag_id: String,
}

pub struct TagRemove;
impl Operation for TagRemove {
    type Input = TagId;
    const META: Meta = Meta {
        path: &["tag", "remove"],
        tool: "delete_tag",
        summary: "Delete a tag and take it off every card",
        details: "Free, and not undoable: the cards lose the tag.",
        effect: Effect::Destroy,
        idempotent: true,
        scope: Some("planner:write"),
    };
    async fn run(cx: Cx, i: TagId) -> Result<Value, OpError> {
        out(cx.client.tags().delete(&i.tag_id).await?)
    }
}
