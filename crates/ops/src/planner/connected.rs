//! Connected accounts: the social accounts posts publish to (read only; connecting happens in the app).
use crate::account::Nothing;
use crate::{out, Cx, Effect, Meta, OpError, Operation};
use schemars::JsonSchema;
use serde::Deserialize;
use serde_json::{json, Value};

pub struct ConnectedAccountList;
impl Operation for ConnectedAccountList {
    type Input = Nothing;
    const META: Meta = Meta {
        path: &["connected-account", "list"],
        tool: "list_connected_accounts",
        summary: "List the social accounts connected for publishing, the default first",
        details: "Free. Each has two ids: `id`, the connection's (what a post's accountId in create_card and update_card takes, and get_connected_account's accountId), and `accountId`, the platform's own (shown, never taken). publish_post publishes through them. Accounts are connected in the app, not here.",
        effect: Effect::Read,
        idempotent: true,
        scope: None,
    };
    async fn run(cx: Cx, _: Nothing) -> Result<Value, OpError> {
        Ok(json!({ "accounts": cx.client.connected_accounts().list().await? }))
    }
}

#[derive(Debug, Clone, clap::Args, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct ConnectedAccountId {
    /// The connected account's `id` (as list_connected_accounts shows it; not its platform `accountId`).
    pub account_id: String,
}

pub struct ConnectedAccountGet;
impl Operation for ConnectedAccountGet {
    type Input = ConnectedAccountId;
    const META: Meta = Meta {
        path: &["connected-account", "get"],
        tool: "get_connected_account",
        summary: "Show one connected account: platform, handle, connection status, capabilities",
        details: "Free. Credentials are never shown.",
        effect: Effect::Read,
        idempotent: true,
        scope: None,
    };
    async fn run(cx: Cx, i: ConnectedAccountId) -> Result<Value, OpError> {
        out(cx.client.connected_accounts().get(&i.account_id).await?)
    }
}
