//! `GET /account/balance`, the model registry (`/models`) and voices (`/voices`).
use crate::error::Result;
use crate::http::{seg, Call};
use crate::Client;
use api_types::{Balance, ContentType, ModelInfo, ModelList, Voice, VoiceList};

pub struct AccountHandler<'c> {
    pub(crate) client: &'c Client,
}

impl AccountHandler<'_> {
    /// The credit balance. A 200 also proves the key works.
    pub async fn balance(&self) -> Result<Balance> {
        self.client.call(Call::get("/account/balance")).await
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
