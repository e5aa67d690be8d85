//! Cards: list with every filter, get, create, update, move, publish.
use crate::input::{one_of, Json, Unknown};
use crate::{out, Cx, Effect, Meta, OpError, Operation, ProgressEvent};
use api_types::{CardAssetInput, CardQuery, CreateCard, PostInput, PublishRequest, UpdateCard};
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use ts_rs::TS;
use serde_json::{json, Value};

/// The largest page the service serves.
const PAGE: u32 = 100;

#[derive(Debug, Clone, Default, clap::Args, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct CardListInput {
    /// Only this space (id); the default space when absent.
    #[arg(long = "space")]
    #[serde(default)]
    pub space_id: Option<String>,
    /// Only this stage (id, slug or name).
    #[arg(long)]
    #[serde(default)]
    pub stage: Option<String>,
    /// Only cards with a post for this platform.
    #[arg(long, value_parser = one_of(api_types::values::PLATFORMS.iter().copied()))]
    #[serde(default)]
    #[schemars(schema_with = "crate::input::platform_schema")]
    pub platform: Option<String>,
    /// Only cards with this tag, by its name or id (e.g. `launch` or `TAG_ID`).
    #[arg(long)]
    #[serde(default)]
    pub tag: Option<String>,
    /// Words in the title (the service searches titles only, in the space).
    #[arg(long)]
    #[serde(default)]
    pub search: Option<String>,
    /// Archived cards instead of live ones.
    #[arg(long)]
    #[serde(default)]
    pub archived: bool,
    /// Favourites only.
    #[arg(long)]
    #[serde(default)]
    pub favorite: bool,
    /// At most this many (one page; the service serves up to 100).
    #[arg(long)]
    #[serde(default)]
    pub limit: Option<u32>,
    /// Skip this many cards (the next page: offset + limit).
    #[arg(long)]
    #[serde(default)]
    pub offset: Option<u32>,
    /// Every page, not only the first.
    #[arg(long, conflicts_with_all = ["limit", "offset"])]
    #[serde(default)]
    pub all: bool,
}

pub struct CardList;
impl Operation for CardList {
    type Input = CardListInput;
    const META: Meta = Meta {
        path: &["card", "list"],
        tool: "list_cards",
        summary: "List the cards of a space, filtered by stage, platform, tag, search or archive",
        details: "Free. One page by default (limit/offset); `all` pages through everything.",
        effect: Effect::Read,
        idempotent: true,
        scope: None,
    };
    async fn run(cx: Cx, mut i: CardListInput) -> Result<Value, OpError> {
        i.tag = tag_names(&cx, i.tag.map(|t| vec![t])).await?.and_then(|t| t.into_iter().next());
        let query = card_query(&i);
        if !i.all {
            return out(cx.client.cards().list(&query).await?);
        }
        out(all_cards(&cx, query).await?)
    }
}

/// Every page of `query`, saying each page fetched ([`ProgressEvent::Page`]); `hasMore` false.
pub(crate) async fn all_cards(cx: &Cx, mut query: CardQuery) -> Result<api_types::CardList, OpError> {
    query.limit = Some(PAGE);
    let page = |offset: usize| CardQuery { offset: Some(offset as u32), ..query.clone() };
    let mut all = cx.client.cards().list(&page(0)).await?;
    cx.progress.event(ProgressEvent::Page { fetched: all.cards.len(), total: u64::try_from(all.total).ok() });
    while all.has_more || (all.cards.len() as i64) < all.total {
        let next = cx.client.cards().list(&page(all.cards.len())).await?;
        if next.cards.is_empty() {
            break;
        }
        all.cards.extend(next.cards);
        all.has_more = next.has_more;
        all.total = next.total;
        cx.progress.event(ProgressEvent::Page { fetched: all.cards.len(), total: u64::try_from(all.total).ok() });
    }
    all.has_more = false;
    Ok(all)
}

fn card_query(i: &CardListInput) -> CardQuery {
    CardQuery {
        space_id: i.space_id.clone(),
        archived: i.archived.then_some(true),
        platform: i.platform.clone(),
        stage: i.stage.clone(),
        is_favorite: i.favorite.then_some(true),
        tag: i.tag.clone(),
        search: i.search.clone(),
        limit: i.limit,
        offset: i.offset,
    }
}

#[derive(Debug, Clone, clap::Args, Deserialize, Serialize, JsonSchema, TS)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct CardId {
    /// The card's id.
    pub card_id: String,
}

pub struct CardGet;
impl Operation for CardGet {
    type Input = CardId;
    const META: Meta = Meta {
        path: &["card", "get"],
        tool: "get_card",
        summary: "Show one card with its posts, assets, notes and notes revision",
        details: "Free. The notes revision is what update_card's expectedRevision wants.",
        effect: Effect::Read,
        idempotent: true,
        scope: None,
    };
    async fn run(cx: Cx, i: CardId) -> Result<Value, OpError> {
        out(cx.client.cards().get(&i.card_id).await?)
    }
}

pub struct CardCheck;
impl Operation for CardCheck {
    type Input = CardId;
    const META: Meta = Meta {
        path: &["card", "check"],
        tool: "check_card",
        summary: "Check a card's posts against each platform's rules before scheduling or publishing",
        details: "Free. Findings name platform, field, rule, limit, actual, severity (blocks: the platform will refuse it; warns: it will cut, crop or hide) and the rule's source. Fix what blocks before publish_post. Unknown platforms and formats get none.",
        effect: Effect::Read,
        idempotent: true,
        scope: None,
    };
    async fn run(cx: Cx, i: CardId) -> Result<Value, OpError> {
        use api_types::preflight::{check, PreflightInput, Report};
        let card = cx.client.cards().get(&i.card_id).await?;
        out(Report { findings: check(&PreflightInput::from_card(&card)) })
    }
}

/// Fields a card is written with, shared by create and update.
#[derive(Debug, Clone, Default, clap::Args, Deserialize, Serialize, JsonSchema, TS)]
#[serde(rename_all = "camelCase")]
pub struct CardFields {
    /// Stage id, slug or name.
    #[arg(long)]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub stage: Option<String>,
    /// Cover image URL.
    #[arg(long)]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub cover_url: Option<String>,
    /// Cover from a render: an output token (`<outputId>` or `<outputId>-<n>`).
    #[arg(long)]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub cover_output_id: Option<String>,
    /// Tags, each a name or an id{shell: , comma-separated (e.g. `launch,TAG_ID`)}{agent: , as an array (e.g. `["launch", "TAG_ID"]`)}
    /// (they replace the card's tags).
    #[arg(long, value_delimiter = ',')]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub tags: Option<Vec<String>>,
    /// When the card goes out: an ISO 8601 time, e.g. `2027-02-01T09:30:00Z` or `2027-02-01T10:30:00+01:00`, or a
    /// date alone, e.g. `2027-02-01` (00:00 that day{shell:  in this computer's time zone}{agent:  UTC, as JavaScript reads a date}).
    #[arg(long, value_name = "TIME")]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub scheduled_at: Option<String>,
    /// The whole list of posts{shell: , as JSON (`@FILE` reads a file)}: [{platform, caption?, scheduledAt?, accountId?, format?}]
    /// (`accountId`: the `id` of a connected account, not its platform `accountId`, sent as `connectedAccountId`;
    /// `caption` is sent as `platformSpecificData.caption`; the wire names work too; `scheduledAt` as the card's, a
    /// date alone included), e.g. `[{"platform": "x", "caption": "Out now", "accountId": "ACCOUNT_ID", "scheduledAt": "2027-02-01"}]`.
    #[arg(long, value_name = "JSON|@FILE")]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(schema_with = "crate::input::objects_schema")]
    #[ts(optional, as = "Option<Vec<Value>>")]
    pub posts: Option<Json<Value>>,
    /// The whole list of assets{shell: , as JSON (`@FILE` reads a file)}, in carousel order: each one of
    /// {outputId} (a render's output token), {url} or {assetUrl} (a link), {contentId} (saved inspiration),
    /// {projectId} (an editor project) or {id} (an asset the card already has, kept), e.g.
    /// `[{"url": "https://example.com/cover.png"}, {"outputId": "OUTPUT_ID"}]`.
    #[arg(long, value_name = "JSON|@FILE")]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(schema_with = "crate::input::objects_schema")]
    #[ts(optional, as = "Option<Vec<Value>>")]
    pub assets: Option<Json<Value>>,
}

impl CardFields {
    fn posts(&self) -> Result<Option<Vec<PostInput>>, OpError> {
        self.posts
            .as_ref()
            .map(|Json(v)| serde_json::from_value(friendly_posts(v.clone())?).map_err(|e| OpError::usage("posts", format!("posts: {e}"))))
            .transpose()
    }
    fn assets(&self) -> Result<Option<Vec<CardAssetInput>>, OpError> {
        self.assets
            .as_ref()
            .map(|Json(v)| serde_json::from_value(friendly_assets(v.clone())?).map_err(|e| OpError::usage("assets", format!("assets: {e}"))))
            .transpose()
    }
}

/// Tags as the service takes them (names): a tag given by its id is written as its name (one read of the
/// tags, only when something looks like an id); a name is sent as given.
pub(crate) async fn tag_names(cx: &Cx, tags: Option<Vec<String>>) -> Result<Option<Vec<String>>, OpError> {
    let Some(tags) = tags else { return Ok(None) };
    if !tags.iter().any(|t| uuid::Uuid::parse_str(t.trim()).is_ok()) {
        return Ok(Some(tags));
    }
    let known = cx.client.tags().list().await?;
    Ok(Some(tags.into_iter().map(|t| known.iter().find(|k| k.id == t.trim()).map_or(t, |k| k.name.clone())).collect()))
}

/// Renames a friendly field to its wire name in every object of `list`; both given is a usage error.
fn rename(list: &mut Value, field: &'static str, friendly: &str, wire: &str) -> Result<(), OpError> {
    for item in list.as_array_mut().into_iter().flatten() {
        let Some(o) = item.as_object_mut() else { continue };
        if let Some(v) = o.remove(friendly) {
            if o.contains_key(wire) {
                return Err(OpError::usage(field, format!("{field}: give {friendly} or {wire}, not both")));
            }
            o.insert(wire.into(), v);
        }
    }
    Ok(())
}

/// Posts as people write them: `accountId` for `connectedAccountId`, `caption` for
/// `platformSpecificData.caption` (the wire names work too).
pub(crate) fn friendly_posts(mut posts: Value) -> Result<Value, OpError> {
    rename(&mut posts, "posts", "accountId", "connectedAccountId")?;
    for post in posts.as_array_mut().into_iter().flatten() {
        let Some(o) = post.as_object_mut() else { continue };
        if let Some(Value::String(at)) = o.get_mut("scheduledAt") {
            *at = day_or_time(at);
        }
        if let Some(caption) = o.remove("caption") {
            let data = o.entry("platformSpecificData").or_insert_with(|| json!({}));
            match data.as_object_mut() {
                Some(d) if !d.contains_key("caption") => {
                    d.insert("caption".into(), caption);
                }
                _ => return Err(OpError::usage("posts", "posts: give caption or platformSpecificData.caption, not both")),
            }
        }
    }
    Ok(posts)
}

/// A date alone (`2027-02-01`) as the time the service takes: the day's start ([`crate::day_start`]:
/// `2027-02-01T00:00:00Z` for agents, 00:00 local time in the shell); anything else as given (the
/// service checks it).
pub(crate) fn day_or_time(text: &str) -> String {
    match crate::days::date_alone(text) {
        Some(date) => crate::calendar::utc(crate::day_start(date)),
        None => text.to_string(),
    }
}

/// Assets as people write them: `url` for `assetUrl`.
pub(crate) fn friendly_assets(mut assets: Value) -> Result<Value, OpError> {
    rename(&mut assets, "assets", "url", "assetUrl")?;
    Ok(assets)
}

/// A new card: `cdesk card create`, the agent tool `create_card` and the app's `card_create` take this one
/// input and its rules ([`CardCreateInput::check`]).
#[derive(Debug, Clone, clap::Args, Deserialize, Serialize, JsonSchema, TS)]
#[serde(rename_all = "camelCase")]
pub struct CardCreateInput {
    /// The card's title.
    pub title: String,
    /// The card's main platform (its first post).
    #[arg(long, value_parser = one_of(api_types::values::PLATFORMS.iter().copied()))]
    #[schemars(schema_with = "crate::input::platform_schema")]
    pub platform: String,
    /// The space (id); the default space when absent.
    #[arg(long = "space")]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub space_id: Option<String>,
    /// Notes (Markdown), the card's working text.
    #[arg(long)]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub notes: Option<String>,
    #[command(flatten)]
    #[serde(flatten)]
    pub fields: CardFields,
    /// What the app's JSON names beyond these fields (it flattens [`CardFields`], so serde's
    /// `deny_unknown_fields` cannot refuse it): refused by [`CardCreateInput::check`].
    #[arg(skip)]
    #[serde(flatten, skip_serializing)]
    #[schemars(skip)]
    #[ts(skip)]
    pub unknown: Unknown,
}

/// The longest card title the service takes, in characters.
pub const CARD_TITLE_MAX: usize = 300;

impl CardCreateInput {
    /// The rules of a new card, checked before anything is sent: a title of 1 to 300 characters, one of
    /// the service's platforms, and no field the input does not name.
    pub fn check(&self) -> Result<(), OpError> {
        self.unknown.refuse()?;
        let title = self.title.trim();
        if title.is_empty() {
            return Err(OpError::usage("title", "Give the card a title."));
        }
        if title.chars().count() > CARD_TITLE_MAX {
            return Err(OpError::usage("title", format!("The card's title is too long: at most {CARD_TITLE_MAX} characters.")));
        }
        if self.platform.trim().is_empty() {
            return Err(OpError::usage("platform", "Choose the card's platform."));
        }
        super::check_platform("platform", Some(&self.platform))
    }

    /// The service's request: the rules checked, the title trimmed, tags by name, a date alone as its
    /// day's start, posts and assets in their wire names.
    pub async fn request(self, cx: &Cx) -> Result<CreateCard, OpError> {
        self.check()?;
        Ok(CreateCard {
            title: self.title.trim().to_string(),
            platform: self.platform.trim().to_string(),
            space_id: self.space_id,
            stage: self.fields.stage.clone(),
            cover_url: self.fields.cover_url.clone(),
            cover_output_id: self.fields.cover_output_id.clone(),
            tags: tag_names(cx, self.fields.tags.clone()).await?,
            notes: self.notes,
            scheduled_at: self.fields.scheduled_at.as_deref().map(day_or_time),
            posts: self.fields.posts()?,
            assets: self.fields.assets()?,
            extra: Default::default(),
        })
    }
}

pub struct CardCreate;
impl Operation for CardCreate {
    type Input = CardCreateInput;
    const META: Meta = Meta {
        path: &["card", "create"],
        tool: "create_card",
        summary: "Create a card on the board",
        details: "Free. Not idempotent: calling it twice makes two cards; after a timeout, list the cards first to see whether it was made.",
        effect: Effect::Write,
        idempotent: false,
        scope: Some("planner:write"),
    };
    async fn run(cx: Cx, i: CardCreateInput) -> Result<Value, OpError> {
        let req = i.request(&cx).await?;
        out(cx.client.cards().create(&req).await?)
    }
}

#[derive(Debug, Clone, clap::Args, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct CardUpdateInput {
    /// The card's id.
    pub card_id: String,
    /// A new title.
    #[arg(long)]
    #[serde(default)]
    pub title: Option<String>,
    /// A new main platform.
    #[arg(long, value_parser = one_of(api_types::values::PLATFORMS.iter().copied()))]
    #[serde(default)]
    #[schemars(schema_with = "crate::input::platform_schema")]
    pub platform: Option<String>,
    /// Move to another space (id).
    #[arg(long = "space")]
    #[serde(default)]
    pub space_id: Option<String>,
    /// New notes; needs `expectedRevision` (the notes revision read with the card).
    #[arg(long, requires = "expected_revision")]
    #[serde(default)]
    pub notes: Option<String>,
    /// The card's `revision` as last read (`card get`): new notes are written only if it is still the current one.
    #[arg(long)]
    #[serde(default)]
    pub expected_revision: Option<i64>,
    /// Remove the schedule.
    #[arg(long, conflicts_with = "scheduled_at")]
    #[serde(default)]
    pub clear_schedule: bool,
    #[command(flatten)]
    #[serde(flatten)]
    pub fields: CardFields,
}

pub struct CardUpdate;
impl Operation for CardUpdate {
    type Input = CardUpdateInput;
    const META: Meta = Meta {
        path: &["card", "update"],
        tool: "update_card",
        summary: "Change a card: title, platform, stage, space, tags, cover, schedule, notes, posts, assets",
        details: "Free. Only the fields given change. A stale expectedRevision is a conflict: the current notes come back and nothing is written.",
        effect: Effect::Write,
        idempotent: true,
        scope: Some("planner:write"),
    };
    async fn run(cx: Cx, i: CardUpdateInput) -> Result<Value, OpError> {
        if i.notes.is_some() && i.expected_revision.is_none() {
            return Err(OpError::usage("expectedRevision", "notes need expectedRevision: read the card first (its `revision`)"));
        }
        let scheduled_at = if i.clear_schedule { Some(None) } else { i.fields.scheduled_at.as_deref().map(day_or_time).map(Some) };
        let req = UpdateCard {
            title: i.title,
            platform: i.platform,
            stage: i.fields.stage.clone(),
            space_id: i.space_id,
            cover_url: i.fields.cover_url.clone().map(Some),
            cover_output_id: i.fields.cover_output_id.clone(),
            tags: tag_names(&cx, i.fields.tags.clone()).await?,
            scheduled_at,
            notes: i.notes,
            expected_revision: i.expected_revision,
            posts: i.fields.posts()?,
            assets: i.fields.assets()?,
            ..Default::default()
        };
        if req == (UpdateCard { ..Default::default() }) {
            return Err(OpError::Usage { message: "nothing to change: give at least one field".into(), field: None });
        }
        out(cx.client.cards().update(&i.card_id, &req).await?)
    }
}

/// A move: `cdesk card move`, the agent tool `move_card` and the app's `card_move` take this one input and
/// its one rule ([`CardMoveInput::check`]).
#[derive(Debug, Clone, clap::Args, Deserialize, Serialize, JsonSchema, TS)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct CardMoveInput {
    /// The card's id.
    pub card_id: String,
    /// The stage to move to (id, slug or name).
    #[arg(long)]
    pub stage: String,
    /// Place it before this card in that stage; at the end when absent.
    #[arg(long = "before")]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub before_card_id: Option<String>,
    /// The app's only (its outbox): the card's `updatedAt` as the board had it; kept offline, the move is
    /// a conflict when the card changed elsewhere meanwhile (absent: what the app last read of it). Not a
    /// flag nor an agent's field.
    #[arg(skip)]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(skip)]
    #[ts(optional)]
    pub base_updated_at: Option<String>,
    /// The app's only: the card's title as the board had it (what the list of kept changes calls it).
    #[arg(skip)]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(skip)]
    #[ts(optional)]
    pub title: Option<String>,
}

impl CardMoveInput {
    /// The rules of a move, checked before anything is sent, in every face: a card is not placed before
    /// itself.
    pub fn check(&self) -> Result<(), OpError> {
        if self.before_card_id.as_deref() == Some(self.card_id.as_str()) {
            return Err(OpError::usage("beforeCardId", "A card cannot be placed before itself."));
        }
        Ok(())
    }
}

pub struct CardMove;
impl Operation for CardMove {
    type Input = CardMoveInput;
    const META: Meta = Meta {
        path: &["card", "move"],
        tool: "move_card",
        summary: "Move a card to a stage, optionally before another card",
        details: "Free.",
        effect: Effect::Write,
        idempotent: true,
        scope: Some("planner:write"),
    };
    async fn run(cx: Cx, i: CardMoveInput) -> Result<Value, OpError> {
        i.check()?;
        let req = UpdateCard { stage: Some(i.stage), before_card_id: i.before_card_id, ..Default::default() };
        let card = cx.client.cards().update(&i.card_id, &req).await?;
        Ok(json!(card))
    }
}

/// A publish: `cdesk card publish`, the agent tool `publish_post` and the app's `card_publish` take this
/// one input and its rules ([`CardPublishInput::check`]).
#[derive(Debug, Clone, clap::Args, Deserialize, Serialize, JsonSchema, TS)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct CardPublishInput {
    /// The card's id.
    pub card_id: String,
    /// Only the card's post for this platform; every post when absent.
    #[arg(long, value_parser = one_of(api_types::values::PLATFORMS.iter().copied()))]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(schema_with = "crate::input::platform_schema")]
    #[ts(optional)]
    pub platform: Option<String>,
}

impl CardPublishInput {
    /// The rules of a publish, checked before anything is sent, in every face: a card is named, and the
    /// platform (when given) is one the service knows.
    pub fn check(&self) -> Result<(), OpError> {
        if self.card_id.trim().is_empty() {
            return Err(OpError::usage("cardId", "Choose the card to publish."));
        }
        crate::planner::check_platform("platform", self.platform.as_deref())
    }
}

pub struct CardPublish;
impl Operation for CardPublish {
    type Input = CardPublishInput;
    const META: Meta = Meta {
        path: &["card", "publish"],
        tool: "publish_post",
        summary: "Publish a card's posts now, each through its connected account",
        details: "Free, but it posts publicly and cannot be undone. Never retry it blindly: after a timeout or an error, check each post's publication with get_card first, or it goes out twice. One result per post (success, url or error), and the counts. Needs publish:write; each post needs an accountId (list_connected_accounts). To publish later, set scheduledAt with update_card.",
        effect: Effect::Write,
        idempotent: false,
        scope: Some("publish:write"),
    };
    async fn run(cx: Cx, i: CardPublishInput) -> Result<Value, OpError> {
        i.check()?;
        let req = PublishRequest { platform: i.platform, extra: Default::default() };
        out(cx.client.cards().publish(&i.card_id, &req).await?)
    }
}
