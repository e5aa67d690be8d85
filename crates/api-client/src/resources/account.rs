//! `GET /account/balance`, the model registry (`/models`) and voices (`/voices`).
use crate::error::Result;
use crate::http::{decode, seg, Call};
use crate::Client;
use api_types::{Balance, ContentType, Deleted, ModelInfo, ModelList, OAuthGrant, Voice, VoiceList};
use reqwest::Method;

pub struct AccountHandler<'c> {
    pub(crate) client: &'c Client,
}

impl AccountHandler<'_> {
    /// The credit balance. A 200 also proves the key works.
    pub async fn balance(&self) -> Result<Balance> {
        self.client.call(Call::get("/account/balance")).await
    }

    /// The apps the account granted delegated (OAuth) access to, live grants only. Needs an API key (an
    /// app's own token is refused with 403).
    pub async fn granted_apps(&self) -> Result<Vec<OAuthGrant>> {
        self.client.call(Call::get("/oauth/grants")).await
    }

    /// Revokes a granted app: its tokens stop at the very next call.
    pub async fn revoke_granted_app(&self, grant_id: &str) -> Result<Deleted> {
        self.client
            .call(Call::new(Method::DELETE, format!("/oauth/grants/{}", seg(grant_id))))
            .await
    }
}

pub struct ModelsHandler<'c> {
    pub(crate) client: &'c Client,
}

impl ModelsHandler<'_> {
    /// The live registry, optionally of one content type.
    pub async fn list(&self, content_type: Option<ContentType>) -> Result<Vec<ModelInfo>> {
        let call = Call::get("/models").query_opt("contentType", content_type.map(|c| c.as_str()));
        Ok(self.client.call::<ModelList>(call).await?.models)
    }

    pub async fn get(&self, model_id: &str) -> Result<ModelInfo> {
        self.client
            .call(Call::get(format!("/models/{}", seg(model_id))))
            .await
    }

    /// [`Self::list`] and [`Self::get`] with the reply as the service sent it (capabilities in its own
    /// spelling, numbers as written), after checking it reads as one: what a script written for the
    /// official CLI expects to see (`cdesk --json`).
    pub async fn list_as_sent(&self, content_type: Option<ContentType>) -> Result<serde_json::Value> {
        let call = Call::get("/models").query_opt("contentType", content_type.map(|c| c.as_str()));
        let (status, bytes) = self.client.execute(call).await?;
        decode::<ModelList>(status, &bytes)?;
        decode(status, &bytes)
    }

    pub async fn get_as_sent(&self, model_id: &str) -> Result<serde_json::Value> {
        let (status, bytes) = self.client.execute(Call::get(format!("/models/{}", seg(model_id)))).await?;
        decode::<ModelInfo>(status, &bytes)?;
        decode(status, &bytes)
    }
}

pub struct VoicesHandler<'c> {
    pub(crate) client: &'c Client,
}

impl VoicesHandler<'_> {
    pub async fn list(&self) -> Result<Vec<Voice>> {
        Ok(self
            .client
            .call::<VoiceList>(Call::get("/voices"))
            .await?
            .voices)
    }

    pub async fn get(&self, voice_id: &str) -> Result<Voice> {
        self.client
            .call(Call::get(format!("/voices/{}", seg(voice_id))))
            .await
    }
}
