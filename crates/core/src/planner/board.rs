//! A space's board: its stages in board order and every card matching the filters (pages of 100), or each
//! stage's first page at once; what the calendar shares: the one filter group (`BoardFilters`) and the paging
//! (`all_pages`).
use api_types::{CardQuery, CardSummary, ResolvedSpace, Stage};
use serde::{Deserialize, Serialize};
use ts_rs::TS;

use super::non_empty;
use crate::error::{IpcError, IpcResult};
use crate::outbox::{self, WithOutbox};
/// Cards asked for per `GET /cards` page (the service's maximum).
const PAGE: u32 = 100;
/// Cards per stage in a first-page board: four screens of a column at 860 px (five tiles show), the rest
/// follows behind. 40 before: half the reply's bytes and the tiles' first render cost less (issue 16's cold load).
const FIRST_PAGE: u32 = 20;
/// A board holds at most this many cards (50 pages); past it the UI says so and asks for a filter.
pub const BOARD_MAX_CARDS: usize = 5_000;

/// A space's board: its stages in board order and its cards, ordered by stage then `boardOrder`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct Board {
    pub space: ResolvedSpace,
    pub stages: Vec<Stage>,
    pub cards: Vec<CardSummary>,
    /// Cards matching the filters on the service; more than `cards.len()` only past `BOARD_MAX_CARDS`
    /// or for a first-page board.
    pub total: i64,
    /// Cards matching the filters per stage id (what each column's count says).
    pub stage_totals: std::collections::BTreeMap<String, i64>,
    /// `false`: a first-page board (each stage's first page only); load again without `firstPage` for
    /// the rest.
    pub complete: bool,
}

/// The board's view of a space: the space and the filters that narrow it. The one filter group of the
/// board (`board_load`) and the calendar (`calendar_window`), flat in their JSON.
#[derive(Debug, Clone, Default, Deserialize, Serialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct BoardFilters {
    pub space_id: String,
    /// `true`: the archived cards only.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub archived: Option<bool>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub search: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub platform: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub tag: Option<String>,
}

impl BoardFilters {
    /// A space's whole board, unfiltered.
    pub fn space(space_id: impl Into<String>) -> Self {
        BoardFilters { space_id: space_id.into(), ..Default::default() }
    }

    /// The `GET /cards` query of the board with these filters (blank ones left out), from its first page.
    pub(crate) fn query(&self) -> CardQuery {
        CardQuery {
            space_id: Some(self.space_id.clone()),
            archived: self.archived.filter(|a| *a),
            platform: non_empty(self.platform.clone()),
            tag: non_empty(self.tag.clone()),
            search: non_empty(self.search.clone()),
            limit: Some(PAGE),
            offset: Some(0),
            ..Default::default()
        }
    }

    /// The service lists archived cards with the live ones only when asked for them alone.
    pub(crate) fn live_unless_archived(&self, cards: &mut Vec<CardSummary>) {
        if self.archived != Some(true) {
            cards.retain(|c| !c.is_archived);
        }
    }
}

/// The fields of a command's JSON that its type does not name: the args that flatten [`BoardFilters`]
/// refuse them by name with the catalogue's [`Unknown`], as its listing inputs do.
pub use contentdesk_ops::input::Unknown;

#[derive(Debug, Clone, Default, Deserialize, Serialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct BoardLoadArgs {
    #[serde(flatten)]
    pub filters: BoardFilters,
    /// `true`: only each stage's first page, asked for all stages at once (the board shows at once;
    /// the UI then loads the whole board behind it).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub first_page: Option<bool>,
    #[serde(flatten, skip_serializing)]
    #[ts(skip)]
    pub unknown: Unknown,
}

pub async fn board_load(session: &impl WithOutbox, args: BoardLoadArgs) -> IpcResult<Board> {
    args.unknown.refuse()?;
    let f = &args.filters;
    let client = session.client().await?;
    let stage_list = client.stages().list(Some(&f.space_id)).await?;
    outbox::saw_stages(session, &stage_list.stages);
    let mut stages = stage_list.stages;
    stages.sort_by(|a, b| a.sort_order.total_cmp(&b.sort_order));
    let query = f.query();
    let (mut cards, total, complete): (Vec<CardSummary>, Totals, bool) = if args.first_page == Some(true) {
        first_pages(&client, &stages, &query).await?
    } else {
        let (cards, total) = all_pages(&client, query, BOARD_MAX_CARDS).await?;
        (cards, Totals::All(total), true)
    };
    f.live_unless_archived(&mut cards);
    let rank: std::collections::HashMap<&str, usize> =
        stages.iter().enumerate().map(|(i, s)| (s.id.as_str(), i)).collect();
    let stage_rank = |c: &CardSummary| c.stage_id.as_deref().and_then(|s| rank.get(s)).copied().unwrap_or(usize::MAX);
    cards.sort_by(|a, b| {
        stage_rank(a)
            .cmp(&stage_rank(b))
            .then(a.board_order.unwrap_or(f64::MAX).total_cmp(&b.board_order.unwrap_or(f64::MAX)))
    });
    let stage_totals = match &total {
        Totals::PerStage(t) => t.clone(),
        Totals::All(_) => {
            let mut t: std::collections::BTreeMap<String, i64> = stages.iter().map(|s| (s.id.clone(), 0)).collect();
            for c in &cards {
                if let Some(s) = &c.stage_id {
                    *t.entry(s.clone()).or_default() += 1;
                }
            }
            t
        }
    };
    let total = match total {
        Totals::PerStage(t) => t.values().sum(),
        Totals::All(n) => n,
    };
    Ok(Board { space: stage_list.space, stages, cards, total, stage_totals, complete })
}

enum Totals {
    All(i64),
    PerStage(std::collections::BTreeMap<String, i64>),
}

/// Every page of `query`, one after another (the service's order is the board's), until the last page
/// or `max` cards; with the service's total.
pub(crate) async fn all_pages(client: &api_client::Client, mut query: CardQuery, max: usize) -> IpcResult<(Vec<CardSummary>, i64)> {
    let mut cards: Vec<CardSummary> = Vec::new();
    loop {
        let page = client.cards().list(&query).await?;
        let got = page.cards.len();
        cards.extend(page.cards);
        if !page.has_more || got == 0 || cards.len() >= max {
            return Ok((cards, page.total));
        }
        query.offset = Some(cards.len() as u32);
    }
}

/// Each stage's first page, all asked for at once.
async fn first_pages(
    client: &api_client::Client,
    stages: &[Stage],
    query: &CardQuery,
) -> IpcResult<(Vec<CardSummary>, Totals, bool)> {
    let mut set = tokio::task::JoinSet::new();
    for stage in stages {
        let client = client.clone();
        let query = CardQuery { stage: Some(stage.id.clone()), limit: Some(FIRST_PAGE), ..query.clone() };
        let id = stage.id.clone();
        set.spawn(async move { (id, client.cards().list(&query).await) });
    }
    let (mut cards, mut totals, mut complete) = (Vec::new(), std::collections::BTreeMap::new(), true);
    while let Some(joined) = set.join_next().await {
        let (id, page) = joined.map_err(|e| IpcError::internal(format!("a board page failed: {e}")))?;
        let page = page?;
        complete &= !page.has_more;
        totals.insert(id, page.total);
        cards.extend(page.cards);
    }
    Ok((cards, Totals::PerStage(totals), complete))
}
