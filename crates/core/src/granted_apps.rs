//! The apps a profile's account granted delegated (OAuth) access to, and revoking one (issue 15, point 5):
//! `GET`/`DELETE /oauth/grants` with the profile's key. Settings lists them with Revoke.
use crate::error::IpcResult;
use crate::session::Session;
use api_types::OAuthGrant;
use serde::{Deserialize, Serialize};
use ts_rs::TS;

#[derive(Debug, Clone, Deserialize, Serialize, TS)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct GrantRevokeArgs {
    pub profile_id: String,
    pub grant_id: String,
}

/// The profile's granted apps, oldest first.
pub async fn list(session: &impl Session, profile_id: &str) -> IpcResult<Vec<OAuthGrant>> {
    Ok(session.client_for(profile_id).await?.account().granted_apps().await?)
}

/// Revokes one at once (its tokens stop at the next call) and answers the list as it is now.
pub async fn revoke(session: &impl Session, args: GrantRevokeArgs) -> IpcResult<Vec<OAuthGrant>> {
    let client = session.client_for(&args.profile_id).await?;
    client.account().revoke_granted_app(&args.grant_id).await?;
    tracing::info!(profile = %args.profile_id, grant = %args.grant_id, "granted app revoked");
    Ok(client.account().granted_apps().await?)
}
