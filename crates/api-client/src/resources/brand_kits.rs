//! Brand kits (three read modes, section writes with `expectedVersion`) and their knowledge base.
use crate::error::{ApiError, Result};
use crate::http::{seg, Call};
use crate::Client;
use api_types::{
    AddKnowledge, BrandKit, BrandKitList, BrandKitQuery, BrandKitSectionsView, BrandKitSummary,
    BrandKitSummaryView, Deleted, KnowledgeAdded, KnowledgeEnvelope, KnowledgeItem, KnowledgeList,
    KnowledgeMatch, KnowledgeSearch, SectionWrite, UpdateBrandKit,
};
use reqwest::Method;

pub struct BrandKitsHandler<'c> {
    pub(crate) client: &'c Client,
}

/// Which sections a filtered read returns (lists are AND-combined), and whether with their history.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct SectionFilter {
    pub keys: Vec<String>,
    pub roles: Vec<String>,
    pub tabs: Vec<String>,
    /// Adds each section's earlier versions (`revisions`, newest first).
    pub history: bool,
}

impl SectionFilter {
    pub fn keys<S: Into<String>>(keys: impl IntoIterator<Item = S>) -> Self {
        SectionFilter {
            keys: keys.into_iter().map(Into::into).collect(),
            ..Default::default()
        }
    }
    pub fn roles<S: Into<String>>(roles: impl IntoIterator<Item = S>) -> Self {
        SectionFilter {
            roles: roles.into_iter().map(Into::into).collect(),
            ..Default::default()
        }
    }
    pub fn tabs<S: Into<String>>(tabs: impl IntoIterator<Item = S>) -> Self {
        SectionFilter {
            tabs: tabs.into_iter().map(Into::into).collect(),
            ..Default::default()
        }
    }
    pub fn with_history(mut self) -> Self {
        self.history = true;
        self
    }

    fn to_query(&self) -> BrandKitQuery {
        let csv = |v: &Vec<String>| (!v.is_empty()).then(|| v.join(","));
        BrandKitQuery {
            detail: None,
            keys: csv(&self.keys),
            roles: csv(&self.roles),
            tabs: csv(&self.tabs),
            history: self.history.then_some(true),
            archived: None,
        }
    }
}

impl BrandKitsHandler<'_> {
    pub async fn list(&self) -> Result<Vec<BrandKitSummary>> {
        Ok(self
            .client
            .call::<BrandKitList>(Call::get("/brand-kits"))
            .await?
            .brand_kits)
    }

    /// `GET /brand-kits?favorited=true&archived=true`: only favourites, and the archived kits instead of
    /// the live ones (each filter sent only when asked for).
    pub async fn list_filtered(&self, favorited: bool, archived: bool) -> Result<Vec<BrandKitSummary>> {
        let call = Call::get("/brand-kits")
            .query_opt("favorited", favorited.then_some("true"))
            .query_opt("archived", archived.then_some("true"));
        Ok(self.client.call::<BrandKitList>(call).await?.brand_kits)
    }

    /// The whole kit (no mode).
    pub async fn get_full(&self, id: &str) -> Result<BrandKit> {
        self.client
            .call(Call::get(format!("/brand-kits/{}", seg(id))))
            .await
    }

    /// `detail=summary`: sections without bodies; the keys there are the ones to write with.
    pub async fn get_summary(&self, id: &str) -> Result<BrandKitSummaryView> {
        self.client
            .call(Call::get(format!("/brand-kits/{}", seg(id))).query("detail", "summary"))
            .await
    }

    /// The kit's archived sections in summary form (`detail=summary&archived=true`), which a restore names.
    pub async fn get_archived_sections(&self, id: &str) -> Result<BrandKitSummaryView> {
        self.client
            .call(Call::get(format!("/brand-kits/{}", seg(id))).query("detail", "summary").query("archived", "true"))
            .await
    }

    /// `detail=summary` narrowed by a filter's keys, roles and tabs (its `history` is not for summaries).
    pub async fn get_summary_filtered(&self, id: &str, filter: &SectionFilter) -> Result<BrandKitSummaryView> {
        let mut query = filter.to_query();
        query.detail = Some("summary".into());
        let call = Call::get(format!("/brand-kits/{}", seg(id))).query_struct(&query)?;
        self.client.call(call).await
    }

    /// A filtered read, optionally with history; a filter with no keys, roles or tabs and `history` reads
    /// every section with its earlier versions. An unknown role or tab is a 400 naming the valid ones.
    pub async fn get_sections(
        &self,
        id: &str,
        filter: &SectionFilter,
    ) -> Result<BrandKitSectionsView> {
        let call =
            Call::get(format!("/brand-kits/{}", seg(id))).query_struct(&filter.to_query())?;
        self.client.call(call).await
    }

    /// Any read mode, as the raw JSON answer (for combinations the typed reads do not make).
    pub async fn get_with(&self, id: &str, query: &BrandKitQuery) -> Result<serde_json::Value> {
        self.client
            .call(Call::get(format!("/brand-kits/{}", seg(id))).query_struct(query)?)
            .await
    }

    pub async fn update(&self, id: &str, req: &UpdateBrandKit) -> Result<BrandKit> {
        self.client
            .call(Call::new(Method::PATCH, format!("/brand-kits/{}", seg(id))).json(req)?)
            .await
    }

    /// Writes sections all or nothing. On a stale `expectedVersion` the error is
    /// `ApiError::SectionConflict` carrying each changed section's current version and body: re-apply the
    /// change to that body and send again with the new version.
    pub async fn write_sections(&self, id: &str, sections: Vec<SectionWrite>) -> Result<BrandKit> {
        if sections.is_empty() {
            return Err(ApiError::local_validation(
                "sections",
                "no section to write",
            ));
        }
        self.update(
            id,
            &UpdateBrandKit {
                sections: Some(sections),
                ..Default::default()
            },
        )
        .await
    }
}

pub struct KnowledgeHandler<'c> {
    pub(crate) client: &'c Client,
    pub(crate) kit: String,
}

impl KnowledgeHandler<'_> {
    fn path(&self, rest: &str) -> String {
        format!("/brand-kits/{}/knowledge{rest}", seg(&self.kit))
    }

    pub async fn list(&self, limit: Option<u32>, offset: Option<u32>) -> Result<KnowledgeList> {
        let call = Call::get(self.path(""))
            .query_opt("limit", limit)
            .query_opt("offset", offset);
        self.client.call(call).await
    }

    pub async fn get(&self, knowledge_id: &str) -> Result<KnowledgeItem> {
        let call = Call::get(self.path(&format!("/{}", seg(knowledge_id))));
        Ok(self.client.call::<KnowledgeEnvelope>(call).await?.item)
    }

    /// `limit` 1–50 (server default 8), `threshold` 0–1 (server default 0.45).
    pub async fn search(
        &self,
        q: &str,
        limit: Option<u32>,
        threshold: Option<f64>,
    ) -> Result<Vec<KnowledgeMatch>> {
        let call = Call::get(self.path("/search"))
            .query("q", q)
            .query_opt("limit", limit)
            .query_opt("threshold", threshold);
        Ok(self.client.call::<KnowledgeSearch>(call).await?.matches)
    }

    /// Adds an item. At the plan's cap the service answers a 402 with `limitReached` (read as
    /// [`ApiError::LimitReached`]); a 200 `{ "limitReached": true }` with no item, which the spec's words
    /// also allow, is the same error, so a returned `KnowledgeAdded` always has its `item`. A 200 with an
    /// item and `limitReached: true` is an add that filled the kit to its cap.
    pub async fn add(&self, req: &AddKnowledge) -> Result<KnowledgeAdded> {
        let added: KnowledgeAdded = self
            .client
            .call(Call::new(Method::POST, self.path("")).json(req)?)
            .await?;
        match (&added.item, added.limit_reached) {
            (Some(_), _) => Ok(added),
            (None, true) => Err(ApiError::LimitReached {
                message: "This brand kit is at its plan's knowledge cap; nothing was added".into(),
                limit: None,
                current: None,
                status: 200,
                body: r#"{"limitReached":true}"#.into(),
            }),
            (None, false) => Err(ApiError::Decode {
                status: 200,
                body: String::new(),
                error: "the reply to a knowledge add has no `item` and no `limitReached`".into(),
            }),
        }
    }

    pub async fn remove(&self, knowledge_id: &str) -> Result<Deleted> {
        let call = Call::new(
            Method::DELETE,
            self.path(&format!("/{}", seg(knowledge_id))),
        );
        self.client.call(call).await
    }
}
