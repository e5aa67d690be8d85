//! Inspiration reads: tracked accounts (`/accounts`) and their posts (`/content`). Need `brandkit:read`.
use crate::error::Result;
use crate::http::{seg, Call};
use crate::Client;
use api_types::{
    ContentDetail, ContentDetailQuery, ContentList, ContentQuery, TrackedAccount, TrackedAccountDetail,
    TrackedAccountList,
};

pub struct InspirationHandler<'c> {
    pub(crate) client: &'c Client,
}

impl<'c> InspirationHandler<'c> {
    pub fn accounts(&self) -> InspirationAccountsHandler<'c> {
        InspirationAccountsHandler {
            client: self.client,
        }
    }

    pub fn content(&self) -> InspirationContentHandler<'c> {
        InspirationContentHandler {
            client: self.client,
        }
    }
}

pub struct InspirationAccountsHandler<'c> {
    client: &'c Client,
}

impl InspirationAccountsHandler<'_> {
    /// `account_type`: `inspiration` or `brand`; `None` lists both.
    pub async fn list(&self, account_type: Option<&str>) -> Result<Vec<TrackedAccount>> {
        let call = Call::get("/accounts").query_opt("account_type", account_type);
        Ok(self.client.call::<TrackedAccountList>(call).await?.accounts)
    }

    /// `list` narrowed to the accounts linked to one brand kit (`brand_kit_id`).
    pub async fn list_where(
        &self,
        account_type: Option<&str>,
        brand_kit_id: Option<&str>,
    ) -> Result<Vec<TrackedAccount>> {
        let call = Call::get("/accounts")
            .query_opt("account_type", account_type)
            .query_opt("brand_kit_id", brand_kit_id);
        Ok(self.client.call::<TrackedAccountList>(call).await?.accounts)
    }

    pub async fn get(&self, id: &str) -> Result<TrackedAccountDetail> {
        self.client
            .call(Call::get(format!("/accounts/{}", seg(id))))
            .await
    }
}

pub struct InspirationContentHandler<'c> {
    client: &'c Client,
}

impl InspirationContentHandler<'_> {
    /// A page of posts (`outliers`), with `total` and `hasMore`.
    pub async fn list(&self, query: &ContentQuery) -> Result<ContentList> {
        self.client
            .call(Call::get("/content").query_struct(query)?)
            .await
    }

    pub async fn get(&self, content_id: &str) -> Result<ContentDetail> {
        self.client
            .call(Call::get(format!("/content/{}", seg(content_id))))
            .await
    }

    /// One post with its transcript as asked (`transcript`, a window in ms, a search).
    pub async fn get_with(&self, content_id: &str, query: &ContentDetailQuery) -> Result<ContentDetail> {
        self.client
            .call(Call::get(format!("/content/{}", seg(content_id))).query_struct(query)?)
            .await
    }
}
