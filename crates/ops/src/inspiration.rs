//! Inspiration: tracked accounts (the brand's own and those it learns from) and their posts.
use crate::input::{one_of, Paging, PagingHelp};
use crate::{out, Cx, Effect, Meta, OpError, Operation};
use api_types::values::{CONTENT_SCOPES, CONTENT_SORT_FIELDS, INSPIRATION_CONTENT_TYPES, PLATFORMS, SORT_ORDERS, TRACKED_ACCOUNT_TYPES};
use api_types::ContentQuery;
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use serde_json::{json, Value};
use ts_rs::TS;

fn enum_of(values: &[&str]) -> schemars::Schema {
    schemars::json_schema!({ "type": "string", "enum": values })
}
fn kind_schema(_: &mut schemars::SchemaGenerator) -> schemars::Schema {
    enum_of(TRACKED_ACCOUNT_TYPES)
}
fn scope_schema(_: &mut schemars::SchemaGenerator) -> schemars::Schema {
    enum_of(CONTENT_SCOPES)
}
fn content_type_schema(_: &mut schemars::SchemaGenerator) -> schemars::Schema {
    enum_of(INSPIRATION_CONTENT_TYPES)
}
fn sort_schema(_: &mut schemars::SchemaGenerator) -> schemars::Schema {
    enum_of(CONTENT_SORT_FIELDS)
}
fn order_schema(_: &mut schemars::SchemaGenerator) -> schemars::Schema {
    enum_of(SORT_ORDERS)
}

#[derive(Debug, Clone, Default, clap::Args, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct TrackedAccountListInput {
    /// Only the brand's own accounts, or only those tracked for inspiration.
    #[arg(long, value_parser = one_of(TRACKED_ACCOUNT_TYPES.iter().copied()))]
    #[serde(default)]
    #[schemars(schema_with = "kind_schema")]
    pub kind: Option<String>,
    /// Only the accounts of this brand kit (id).
    #[arg(long = "brand-kit")]
    #[serde(default)]
    pub brand_kit_id: Option<String>,
}

pub struct TrackedAccountList;
impl Operation for TrackedAccountList {
    type Input = TrackedAccountListInput;
    const META: Meta = Meta {
        path: &["tracked-account", "list"],
        tool: "list_accounts",
        summary: "List the tracked accounts: the brand's own and those followed for inspiration",
        details: "Free. Needs brandkit:read. get_account gives an account's totals and top posts; list_content with accountIds its posts.",
        effect: Effect::Read,
        idempotent: true,
        scope: Some("brandkit:read"),
    };
    async fn run(cx: Cx, i: TrackedAccountListInput) -> Result<Value, OpError> {
        let accounts = cx.client.inspiration().accounts().list_where(i.kind.as_deref(), i.brand_kit_id.as_deref()).await?;
        Ok(json!({ "accounts": accounts }))
    }
}

#[derive(Debug, Clone, clap::Args, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct TrackedAccountId {
    /// The tracked account's `id` (as list_accounts shows it; not its platform `accountId`).
    pub account_id: String,
}

pub struct TrackedAccountGet;
impl Operation for TrackedAccountGet {
    type Input = TrackedAccountId;
    const META: Meta = Meta {
        path: &["tracked-account", "get"],
        tool: "get_account",
        summary: "Show a tracked account with its totals, averages, top and recent posts",
        details: "Free. Needs brandkit:read.",
        effect: Effect::Read,
        idempotent: true,
        scope: Some("brandkit:read"),
    };
    async fn run(cx: Cx, i: TrackedAccountId) -> Result<Value, OpError> {
        out(cx.client.inspiration().accounts().get(&i.account_id).await?)
    }
}

/// A page of tracked posts: `content list`, `list_content` and the app's `content_list` take this one
/// input, its rules ([`ContentListInput::check`]) and its query ([`ContentListInput::query`]).
#[derive(Debug, Clone, Default, clap::Args, Deserialize, Serialize, JsonSchema, TS)]
#[serde(rename_all = "camelCase")]
pub struct ContentListInput {
    /// Whose posts: all (the default), the inspiration accounts' or the brand's own.
    #[arg(long, value_parser = one_of(CONTENT_SCOPES.iter().copied()))]
    #[serde(default)]
    #[schemars(schema_with = "scope_schema")]
    #[ts(optional)]
    pub scope: Option<String>,
    /// Only posts from this platform.
    #[arg(long, value_parser = one_of(PLATFORMS.iter().copied()))]
    #[serde(default)]
    #[schemars(schema_with = "crate::input::platform_schema")]
    #[ts(optional)]
    pub platform: Option<String>,
    /// Only this kind of post.
    #[arg(long = "type", value_parser = one_of(INSPIRATION_CONTENT_TYPES.iter().copied()))]
    #[serde(default)]
    #[schemars(schema_with = "content_type_schema")]
    #[ts(optional)]
    pub content_type: Option<String>,
    /// At least this outlier score (views against the account's usual).
    #[arg(long = "min-score")]
    #[serde(default)]
    #[ts(optional)]
    pub outlier_score_min: Option<f64>,
    /// At least this many views.
    #[arg(long = "min-views")]
    #[serde(default)]
    #[ts(as = "Option<f64>", optional)]
    pub views_min: Option<i64>,
    /// Words in the title or description.
    #[arg(long)]
    #[serde(default)]
    #[ts(optional)]
    pub search: Option<String>,
    /// Sort by (score by default).
    #[arg(long = "sort", value_parser = one_of(CONTENT_SORT_FIELDS.iter().copied()))]
    #[serde(default)]
    #[schemars(schema_with = "sort_schema")]
    #[ts(optional)]
    pub sort_by: Option<String>,
    /// Sort direction (desc by default).
    #[arg(long = "order", value_parser = one_of(SORT_ORDERS.iter().copied()))]
    #[serde(default)]
    #[schemars(schema_with = "order_schema")]
    #[ts(optional)]
    pub sort_order: Option<String>,
    /// Only these tracked accounts (their `id`s, not their platform `accountId`s; {shell: comma-separated or repeated}{agent: an array}).
    #[arg(long = "account", value_delimiter = ',')]
    #[serde(default)]
    #[ts(optional)]
    pub account_ids: Option<Vec<String>>,
    #[command(flatten)]
    #[serde(flatten)]
    pub page: Paging<ContentPage>,
    /// What the app sent that this input does not name (refused by `check`).
    #[arg(skip)]
    #[serde(flatten, skip_serializing)]
    #[schemars(skip)]
    #[ts(skip)]
    pub unknown: crate::input::Unknown,
}

#[derive(Debug, Clone, Default)]
pub struct ContentPage;
impl PagingHelp for ContentPage {
    const LIMIT: &str = "At most this many (1-100; the service's default is 20).";
}

pub struct ContentList;
impl Operation for ContentList {
    type Input = ContentListInput;
    const META: Meta = Meta {
        path: &["content", "list"],
        tool: "list_content",
        summary: "List tracked posts, best outliers first, filtered by scope, platform, type, score, views or words",
        details: "Free. Needs brandkit:read. One page (limit/offset; total and hasMore say what is left). Use a post's id with get_content for its description and hashtags, or attach it to a card (assets with contentId).",
        effect: Effect::Read,
        idempotent: true,
        scope: Some("brandkit:read"),
    };
    async fn run(cx: Cx, i: ContentListInput) -> Result<Value, OpError> {
        i.check()?;
        out(cx.client.inspiration().content().list(&i.query()).await?)
    }
}

impl ContentListInput {
    /// The rules of a page of posts, checked before anything is sent, in every face: a platform the
    /// service knows, 1 to 100 posts at a time.
    pub fn check(&self) -> Result<(), OpError> {
        self.unknown.refuse()?;
        crate::planner::check_platform("platform", self.platform.as_deref())?;
        self.page.check()
    }

    /// The service's query for this input (blank words and an empty account list are left out).
    pub fn query(&self) -> ContentQuery {
        let i = self.clone();
        ContentQuery {
            scope: i.scope,
            platform: i.platform,
            content_type: i.content_type,
            outlier_score_min: i.outlier_score_min,
            views_min: i.views_min,
            search: i.search.map(|s| s.trim().to_string()).filter(|s| !s.is_empty()),
            sort_by: i.sort_by,
            sort_order: i.sort_order,
            account_ids: i.account_ids.filter(|ids| !ids.is_empty()).map(|ids| ids.join(",")),
            limit: i.page.limit,
            offset: i.page.offset,
        }
    }
}

#[derive(Debug, Clone, clap::Args, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct ContentGetInput {
    /// The post's id (from list_content).
    pub content_id: String,
    /// The transcript too: `text` (one string) or `segments` (timed, with speakers); `none` by default.
    #[arg(long, value_name = "none|text|segments", num_args = 0..=1, default_missing_value = "text")]
    #[serde(default)]
    pub transcript: Option<String>,
    /// Only the transcript from this millisecond.
    #[arg(long, value_name = "MS")]
    #[serde(default)]
    pub start_ms: Option<i64>,
    /// Only the transcript up to this millisecond.
    #[arg(long, value_name = "MS")]
    #[serde(default)]
    pub end_ms: Option<i64>,
    /// Only the transcript's segments that contain this text.
    #[arg(long, value_name = "TEXT")]
    #[serde(default)]
    pub transcript_search: Option<String>,
}

pub struct ContentGet;
impl Operation for ContentGet {
    type Input = ContentGetInput;
    const META: Meta = Meta {
        path: &["content", "get"],
        tool: "get_content",
        summary: "Show one tracked post with its description, hashtags and figures, and its transcript when asked",
        details: "Free. Needs brandkit:read.",
        effect: Effect::Read,
        idempotent: true,
        scope: Some("brandkit:read"),
    };
    async fn run(cx: Cx, i: ContentGetInput) -> Result<Value, OpError> {
        let narrowed = i.start_ms.is_some() || i.end_ms.is_some() || i.transcript_search.is_some();
        // A window or a search asks for the transcript: as text unless told.
        let transcript = i.transcript.or_else(|| narrowed.then(|| "text".to_string()));
        let query = api_types::ContentDetailQuery { transcript, start_ms: i.start_ms, end_ms: i.end_ms, transcript_search: i.transcript_search };
        out(cx.client.inspiration().content().get_with(&i.content_id, &query).await?)
    }
}
