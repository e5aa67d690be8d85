//! Projects (editor / canvas): list, get, create and import, optionally linked to a card in the same
//! call (`cardId` → `linkedCardId` in the reply; a card not the caller's is 404 and no project is made).
use crate::error::Result;
use crate::http::{decode, seg, Call};
use crate::Client;
use api_types::{CreateProject, ImportProject, Project, ProjectCreated, ProjectList};
use reqwest::Method;
use serde_json::Value;

pub struct ProjectsHandler<'c> {
    pub(crate) client: &'c Client,
}

impl ProjectsHandler<'_> {
    pub async fn list(&self) -> Result<Vec<Project>> {
        Ok(self
            .client
            .call::<ProjectList>(Call::get("/projects"))
            .await?
            .projects)
    }

    /// `GET /projects` with its filters: `filter` `archived` or `favorited` (absent: live projects),
    /// `kind` `editor` or `canvas` (sent as `type`), `search` in the title. Newest first.
    pub async fn list_where(
        &self,
        filter: Option<&str>,
        kind: Option<&str>,
        search: Option<&str>,
    ) -> Result<Vec<Project>> {
        let call = Call::get("/projects")
            .query_opt("filter", filter)
            .query_opt("type", kind)
            .query_opt("search", search);
        Ok(self.client.call::<ProjectList>(call).await?.projects)
    }

    pub async fn get(&self, id: &str) -> Result<Project> {
        // `{ project }`; `ProjectCreated` is that envelope with an optional `linkedCardId` beside it.
        Ok(self
            .client
            .call::<ProjectCreated>(Call::get(format!("/projects/{}", seg(id))))
            .await?
            .project)
    }

    /// Use `ProjectCreated::linked_card()` to read the link wherever the reply put it.
    pub async fn create(&self, req: &CreateProject) -> Result<ProjectCreated> {
        self.client
            .call(Call::new(Method::POST, "/projects").json(req)?)
            .await
    }

    pub async fn import(&self, req: &ImportProject) -> Result<ProjectCreated> {
        self.client
            .call(Call::new(Method::POST, "/projects/import").json(req)?)
            .await
    }

    /// [`Self::list_where`], [`Self::get`], [`Self::create`] with the reply as the service sent it (every
    /// field kept: `surface`, `kind`, `revision`, …, numbers as written), after checking it reads as one:
    /// what a script written for the official CLI expects to see (`cdesk --json`).
    pub async fn list_where_as_sent(&self, filter: Option<&str>, kind: Option<&str>, search: Option<&str>) -> Result<Value> {
        let call = Call::get("/projects").query_opt("filter", filter).query_opt("type", kind).query_opt("search", search);
        self.as_sent::<ProjectList>(call).await
    }

    pub async fn get_as_sent(&self, id: &str) -> Result<Value> {
        self.as_sent::<ProjectCreated>(Call::get(format!("/projects/{}", seg(id)))).await
    }

    pub async fn create_as_sent(&self, req: &CreateProject) -> Result<Value> {
        self.as_sent::<ProjectCreated>(Call::new(Method::POST, "/projects").json(req)?).await
    }

    async fn as_sent<T: serde::de::DeserializeOwned>(&self, call: Call) -> Result<Value> {
        let (status, bytes) = self.client.execute(call).await?;
        decode::<T>(status, &bytes)?;
        decode(status, &bytes)
    }
}
