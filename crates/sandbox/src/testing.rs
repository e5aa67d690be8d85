//! A sandbox for tests: a real SQLite file in the temp folder, served on `127.0.0.1:0`, seeded with the
//! demo, with helpers to mint keys of given scopes and a second account. Used by this crate's tests and
//! by the client's and the app core's.
use crate::db::CachedRow as _;
use crate::auth;
use crate::config::Config;
use crate::seed::{self, DemoOptions};
use crate::state::AppState;
use crate::RunningSandbox;
use std::path::PathBuf;

pub struct TestSandbox {
    pub running: RunningSandbox,
    /// The demo account.
    pub account_id: String,
    /// A key of the demo account with every scope.
    pub key: String,
    db_path: PathBuf,
}

impl TestSandbox {
    /// The demo seed, test timings (fast renders, short smart-wait, no rate limit).
    pub async fn start() -> Self {
        Self::start_with(Config::for_tests()).await
    }

    pub async fn start_with(config: Config) -> Self {
        let db_path = std::env::temp_dir().join(format!("contentdesk-test-{}.db", uuid::Uuid::new_v4()));
        let state = AppState::open(&db_path, config).expect("open sandbox db");
        let seeded = seed::seed_demo(&state, &DemoOptions::default()).expect("seed demo");
        let key = {
            let conn = state.db().lock();
            auth::create_key(&conn, &seeded.account_id, "test: every scope", api_types::scopes::ALL)
                .expect("mint key")
                .1
        };
        let running = crate::spawn(state, "127.0.0.1:0").await.expect("bind sandbox");
        TestSandbox { running, account_id: seeded.account_id, key, db_path }
    }

    pub fn state(&self) -> &AppState {
        &self.running.state
    }

    /// `http://127.0.0.1:PORT/api/v1`.
    pub fn base_url(&self) -> String {
        self.running.base_url()
    }

    /// A key of the demo account holding exactly `scopes`.
    pub fn key_with(&self, scopes: &[&str]) -> String {
        let conn = self.state().db().lock();
        auth::create_key(&conn, &self.account_id, "test: some scopes", scopes).expect("mint key").1
    }

    /// The id of a key, from its secret (for revocation tests).
    pub fn key_id(&self, secret: &str) -> String {
        let conn = self.state().db().lock();
        conn.cached_row("SELECT id FROM api_keys WHERE secret_hash = ?1", [auth::hash_secret(secret)], |r| r.get(0))
            .expect("key id")
    }

    pub fn revoke(&self, secret: &str) {
        let id = self.key_id(secret);
        let conn = self.state().db().lock();
        auth::revoke_key(&conn, &id).expect("revoke");
    }

    /// A second, empty account with `credits` and a key with every scope: `(account_id, key)`.
    pub fn other_account(&self, credits: f64) -> (String, String) {
        let conn = self.state().db().lock();
        let account = auth::create_account(&conn, "Other creator", credits).expect("account");
        let key = auth::create_key(&conn, &account, "test: other", api_types::scopes::ALL).expect("key").1;
        (account, key)
    }

    /// Sets the demo account's balance.
    pub fn set_balance(&self, credits: f64) {
        let conn = self.state().db().lock();
        conn.execute("UPDATE accounts SET balance = ?2 WHERE id = ?1", rusqlite::params![self.account_id, credits])
            .expect("set balance");
    }

    pub fn balance(&self) -> f64 {
        let conn = self.state().db().lock();
        conn.cached_row("SELECT balance FROM accounts WHERE id = ?1", [&self.account_id], |r| r.get(0))
            .expect("balance")
    }

    /// An app the demo account granted `scopes` to, as the consent page would leave it (a registered
    /// client, a live grant and an access token for the API): `(grant_id, access_token)`. For the tests of
    /// the clients of `/oauth/grants`; the flow itself is tested over HTTP in this crate's `tests/oauth/`.
    pub fn grant_app(&self, client_name: &str, scopes: &[&str]) -> (String, String) {
        let conn = self.state().db().lock();
        let client_id = crate::db::new_id();
        let grant_id = crate::db::new_id();
        conn.execute(
            "INSERT INTO oauth_clients (id, name, redirect_uris, grant_types, created_at) VALUES (?1, ?2, '[\"http://127.0.0.1/cb\"]', 'authorization_code', ?3)",
            rusqlite::params![client_id, client_name, crate::time::now_str()],
        )
        .expect("client");
        conn.execute(
            "INSERT INTO oauth_grants (id, account_id, client_id, scopes, created_at) VALUES (?1, ?2, ?3, ?4, ?5)",
            rusqlite::params![grant_id, self.account_id, client_id, scopes.join(" "), crate::time::now_str()],
        )
        .expect("grant");
        let scopes: Vec<String> = scopes.iter().map(|s| s.to_string()).collect();
        let token = crate::oauth::mint(&conn, "access", &grant_id, &self.base_url(), &scopes, Some(600)).expect("token");
        (grant_id, token)
    }

    pub fn db_path(&self) -> &std::path::Path {
        &self.db_path
    }
}

impl Drop for TestSandbox {
    fn drop(&mut self) {
        for ext in ["", "-wal", "-shm"] {
            let mut p = self.db_path.clone().into_os_string();
            p.push(ext);
            let _ = std::fs::remove_file(PathBuf::from(p));
        }
    }
}

/// The form the CLI consent page (`GET /cli/auth`, `routes/cli_auth.rs`) posts back when its user picks
/// `action` (`connect` or `cancel`) with `scopes` ticked: the page's hidden fields and those choices. For
/// tests that play the user's browser (`cdesk login`, the client's browser login, the app's Connect).
pub fn consent_form(page: &str, action: &str, scopes: &[&str]) -> Vec<(String, String)> {
    let hidden = |name: &str| {
        let at = page.find(&format!("name=\"{name}\" value=\"")).unwrap_or_else(|| panic!("no {name} in the page: {page}"));
        let rest = &page[at + name.len() + 15..];
        rest[..rest.find('"').unwrap()].to_string()
    };
    let mut form: Vec<(String, String)> = ["port", "state", "label", "token"].iter().map(|n| (n.to_string(), hidden(n))).collect();
    form.push(("action".into(), action.into()));
    form.extend(scopes.iter().map(|s| ("scope".to_string(), s.to_string())));
    form
}
