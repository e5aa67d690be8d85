//! Settings' granted apps (issue 15, point 5): the core lists the apps a profile's account granted OAuth
//! access to and revokes one, against a real sandbox playing the remote service. The grant is made in the
//! sandbox as its consent page would leave it (`TestSandbox::grant_app`; the consent flow itself is tested
//! over HTTP in `crates/sandbox/tests/oauth/`).
use contentdesk_core::commands::{self as c, GrantRevokeArgs, ProfileRefArgs};
use contentdesk_core::{AppState, CoreConfig, IpcCode, MemoryStore, Secrets};
use sandbox::testing::TestSandbox;
use serde_json::json;
use std::sync::Arc;

async fn remote_profile(sb: &TestSandbox) -> (AppState, String) {
    let dir = std::env::temp_dir().join(format!("contentdesk-core-{}", uuid::Uuid::new_v4()));
    std::fs::create_dir_all(&dir).unwrap();
    let app = AppState::start(CoreConfig {
        data_dir: dir,
        settings: None,
        secrets: Secrets::Store(Arc::new(MemoryStore::new())),
        embedded_sandbox: false,
        embedded_sandbox_config: Default::default(),
    })
    .await
    .expect("core starts");
    let p = c::profile_add(&app, serde_json::from_value(json!({ "name": "Remote", "baseUrl": sb.base_url() })).unwrap())
        .await
        .unwrap();
    c::key_set(&app, serde_json::from_value(json!({ "profileId": p.id, "key": sb.key })).unwrap()).await.unwrap();
    (app, p.id)
}

#[tokio::test]
async fn settings_lists_the_granted_apps_and_revoke_stops_the_apps_token() {
    let sb = TestSandbox::start().await;
    let (app, profile_id) = remote_profile(&sb).await;
    assert!(c::granted_apps(&app, ProfileRefArgs { profile_id: profile_id.clone() }).await.unwrap().is_empty());

    let (grant_id, token) = sb.grant_app("Team agent", &["planner:write", "brandkit:read"]);
    let (_, _other_token) = sb.grant_app("Another agent", &["editor:read"]);
    let apps = c::granted_apps(&app, ProfileRefArgs { profile_id: profile_id.clone() }).await.unwrap();
    assert_eq!(apps.iter().map(|a| a.client_name.as_str()).collect::<Vec<_>>(), ["Team agent", "Another agent"]);
    assert_eq!(apps[0].scopes, ["planner:write", "brandkit:read"]);

    let after = c::granted_app_revoke(&app, GrantRevokeArgs { profile_id: profile_id.clone(), grant_id: grant_id.clone() })
        .await
        .unwrap();
    assert_eq!(after.iter().map(|a| a.client_name.as_str()).collect::<Vec<_>>(), ["Another agent"]);
    let row = {
        let conn = sb.state().db().reader().unwrap();
        sandbox::oauth::find_token(&conn, &token).unwrap().unwrap()
    };
    assert!(row.grant_revoked, "the app's token stops at its next call");

    // Revoking it again: the service's 404, as a not-found error.
    let e = c::granted_app_revoke(&app, GrantRevokeArgs { profile_id, grant_id }).await.unwrap_err();
    assert_eq!(e.code, IpcCode::NotFound, "{e:?}");
}
