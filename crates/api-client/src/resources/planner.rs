//! The planner: spaces, stages, cards (posts and assets), tags, archive, connected accounts. Space and
//! stage bodies and list queries are snake_case in the spec era (facts 1.8); the `api-types` requests
//! already serialise that way. Card replies are enveloped as `post` (or `card`, both accepted).
use crate::card_edit::CardEdit;
use crate::error::Result;
use crate::http::{seg, Call};
use crate::Client;
use api_types::{
    ArchiveRequest, ArchiveResult, CardDetail, CardEnvelope, CardList, CardQuery, CardSummary,
    ConnectedAccount, ConnectedAccountEnvelope, ConnectedAccountList, CreateCard, CreateSpace,
    CreateStage, DeleteStage, Deleted, PublishRequest, PublishResult, Space, SpaceEnvelope,
    SpaceList, StageDeleted, StageEnvelope, StageList, StageUpdated, Tag, TagEnvelope, TagInput,
    TagList, UpdateCard, UpdateSpace, UpdateStage,
};
use reqwest::Method;

pub struct SpacesHandler<'c> {
    pub(crate) client: &'c Client,
}

impl SpacesHandler<'_> {
    pub async fn list(&self, include_archived: bool) -> Result<Vec<Space>> {
        let call =
            Call::get("/spaces").query_opt("include_archived", include_archived.then_some("true"));
        Ok(self.client.call::<SpaceList>(call).await?.spaces)
    }

    pub async fn get(&self, id: &str) -> Result<Space> {
        Ok(self
            .client
            .call::<SpaceEnvelope>(Call::get(format!("/spaces/{}", seg(id))))
            .await?
            .space)
    }

    pub async fn create(&self, req: &CreateSpace) -> Result<Space> {
        Ok(self
            .client
            .call::<SpaceEnvelope>(Call::new(Method::POST, "/spaces").json(req)?)
            .await?
            .space)
    }

    pub async fn update(&self, id: &str, req: &UpdateSpace) -> Result<Space> {
        let call = Call::new(Method::PATCH, format!("/spaces/{}", seg(id))).json(req)?;
        Ok(self.client.call::<SpaceEnvelope>(call).await?.space)
    }

    /// Refused while the space holds cards.
    pub async fn delete(&self, id: &str) -> Result<Deleted> {
        self.client
            .call(Call::new(Method::DELETE, format!("/spaces/{}", seg(id))))
            .await
    }
}

pub struct StagesHandler<'c> {
    pub(crate) client: &'c Client,
}

impl StagesHandler<'_> {
    /// The stages of a space in board order (`None`: the account's default space).
    pub async fn list(&self, space_id: Option<&str>) -> Result<StageList> {
        self.client
            .call(Call::get("/stages").query_opt("space_id", space_id))
            .await
    }

    pub async fn create(&self, req: &CreateStage) -> Result<api_types::Stage> {
        Ok(self
            .client
            .call::<StageEnvelope>(Call::new(Method::POST, "/stages").json(req)?)
            .await?
            .stage)
    }

    /// `respaced: true` in the reply means the whole board was renumbered: list again.
    pub async fn update(&self, id: &str, req: &UpdateStage) -> Result<StageUpdated> {
        self.client
            .call(Call::new(Method::PATCH, format!("/stages/{}", seg(id))).json(req)?)
            .await
    }

    /// DELETE with a JSON body naming where the stage's cards go.
    pub async fn delete(&self, id: &str, req: &DeleteStage) -> Result<StageDeleted> {
        self.client
            .call(Call::new(Method::DELETE, format!("/stages/{}", seg(id))).json(req)?)
            .await
    }
}

pub struct CardsHandler<'c> {
    pub(crate) client: &'c Client,
}

impl CardsHandler<'_> {
    pub async fn list(&self, query: &CardQuery) -> Result<CardList> {
        self.client
            .call(Call::get("/cards").query_struct(query)?)
            .await
    }

    pub async fn create(&self, req: &CreateCard) -> Result<CardSummary> {
        let call = Call::new(Method::POST, "/cards").json(req)?;
        Ok(self
            .client
            .call::<CardEnvelope<CardSummary>>(call)
            .await?
            .post)
    }

    /// The card with its posts and assets, each asset under the field that attached it.
    pub async fn get(&self, id: &str) -> Result<CardDetail> {
        Ok(self
            .client
            .call::<CardEnvelope<CardDetail>>(Call::get(format!("/cards/{}", seg(id))))
            .await?
            .post)
    }

    /// `posts` and `assets`, when given, are the whole desired lists (see `edit` for the safe way).
    pub async fn update(&self, id: &str, req: &UpdateCard) -> Result<CardSummary> {
        let call = Call::new(Method::PATCH, format!("/cards/{}", seg(id))).json(req)?;
        Ok(self
            .client
            .call::<CardEnvelope<CardSummary>>(call)
            .await?
            .post)
    }

    /// Read → change → check locally → PATCH the full lists. The closure edits a `CardEdit` made from
    /// the card as it is now; a list the server would refuse with 400 is refused here, before sending.
    pub async fn edit(&self, id: &str, change: impl FnOnce(&mut CardEdit)) -> Result<CardSummary> {
        let card = self.get(id).await?;
        let mut edit = CardEdit::from_card(&card);
        change(&mut edit);
        edit.validate()?;
        self.update(id, &edit.into_update()).await
    }

    pub async fn publish(&self, id: &str, req: &PublishRequest) -> Result<PublishResult> {
        self.client
            .call(Call::new(Method::POST, format!("/cards/{}/publish", seg(id))).json(req)?)
            .await
    }
}

pub struct TagsHandler<'c> {
    pub(crate) client: &'c Client,
}

impl TagsHandler<'_> {
    pub async fn list(&self) -> Result<Vec<Tag>> {
        Ok(self.client.call::<TagList>(Call::get("/tags")).await?.tags)
    }

    pub async fn create(&self, name: &str) -> Result<Tag> {
        let call = Call::new(Method::POST, "/tags").json(&TagInput {
            name: name.to_string(),
            ..Default::default()
        })?;
        Ok(self.client.call::<TagEnvelope>(call).await?.tag)
    }

    pub async fn update(&self, id: &str, name: &str) -> Result<Tag> {
        let call = Call::new(Method::PATCH, format!("/tags/{}", seg(id))).json(&TagInput {
            name: name.to_string(),
            ..Default::default()
        })?;
        Ok(self.client.call::<TagEnvelope>(call).await?.tag)
    }

    /// Also removes the tag from every card.
    pub async fn delete(&self, id: &str) -> Result<Deleted> {
        self.client
            .call(Call::new(Method::DELETE, format!("/tags/{}", seg(id))))
            .await
    }
}

pub struct ConnectedAccountsHandler<'c> {
    pub(crate) client: &'c Client,
}

impl ConnectedAccountsHandler<'_> {
    pub async fn list(&self) -> Result<Vec<ConnectedAccount>> {
        Ok(self
            .client
            .call::<ConnectedAccountList>(Call::get("/connected-accounts"))
            .await?
            .accounts)
    }

    pub async fn get(&self, id: &str) -> Result<ConnectedAccount> {
        let call = Call::get(format!("/connected-accounts/{}", seg(id)));
        Ok(self
            .client
            .call::<ConnectedAccountEnvelope>(call)
            .await?
            .account)
    }
}

impl Client {
    /// `POST /archive`: archives (or with `archived: Some(false)` restores) a card, a brand kit, a
    /// brand-kit section, a project or a space.
    pub async fn archive(&self, req: &ArchiveRequest) -> Result<ArchiveResult> {
        self.call(Call::new(Method::POST, "/archive").json(req)?)
            .await
    }
}
