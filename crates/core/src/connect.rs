//! "Connect ContentHero" (first run, and any time after): a remote profile made from a key the service
//! gives, in one step that either makes the profile (key in the secret store, profile selected) or makes
//! nothing. The key comes either from the browser sign-in (`api_client::browser_login`, the flow `cdesk
//! login` runs: the service's consent page sends it to a loopback listener here) or pasted. It goes from
//! there to the secret store; the web view gets the profile (id, name, base URL) and never the key.
//!
//! The consent page is opened through the face's URL opener (`AppState::set_url_opener`): the desktop
//! shell keeps the default, the system's browser; web-shell can print it instead (`--open-urls print`),
//! so that a browser test opens it in its own page. This module holds the sign-in under way and the
//! opener ([`Connect`]); the commands over the profiles and the key store are in `commands.rs`.
use std::future::Future;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use api_client::browser_login::{self as bl, BrowserLogin, BrowserLoginError};
use api_types::Balance;
use serde::{Deserialize, Serialize};
use tokio::sync::Notify;
use ts_rs::TS;

use crate::error::{IpcError, IpcResult};
use crate::profiles::{Profile, ProfilesView};

/// Opens a URL in a browser; an `Err` is said to the user with the URL to open by hand.
pub type UrlOpener = Arc<dyn Fn(&str) -> Result<(), String> + Send + Sync>;

/// The name a connected profile gets ("ContentHero", then "ContentHero 2", … when taken).
pub const CONNECTED_NAME: &str = "ContentHero";

/// How long the app waits for the browser (as `cdesk login`).
pub const BROWSER_WAIT: Duration = bl::DEFAULT_WAIT;

/// The opener and the one sign-in under way, per core.
pub struct Connect {
    opener: Mutex<UrlOpener>,
    pending: Mutex<Option<Pending>>,
}

struct Pending {
    /// Taken by `connect_browser_finish` while it waits.
    login: Option<BrowserLogin>,
    base_url: String,
    cancel: Arc<Notify>,
}

impl Default for Connect {
    fn default() -> Self {
        Connect {
            opener: Mutex::new(Arc::new(|url: &str| bl::open_in_browser(url).map_err(|e| e.to_string()))),
            pending: Mutex::new(None),
        }
    }
}

#[derive(Debug, Clone, Default, Deserialize, Serialize, TS)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct ConnectStartArgs {
    /// The service's API address; the default is ContentHero's (`https://app.contenthero.ai/api/v1`).
    #[serde(default)]
    #[ts(optional)]
    pub base_url: Option<String>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct ConnectStarted {
    /// The consent page (port and state of this sign-in, no key), for the user to open by hand.
    pub url: String,
    /// Whether the opener took it (false: the UI asks the user to open `url` themselves).
    pub opened: bool,
}

/// The key is write-only: no `Debug` output, never serialised back, zeroed when dropped.
#[derive(Clone, Deserialize, TS)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct ConnectKeyArgs {
    pub key: String,
    #[serde(default)]
    #[ts(optional)]
    pub base_url: Option<String>,
}

impl Drop for ConnectKeyArgs {
    fn drop(&mut self) {
        zeroize::Zeroize::zeroize(&mut self.key);
    }
}

impl std::fmt::Debug for ConnectKeyArgs {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("ConnectKeyArgs").field("base_url", &self.base_url).field("key", &"<redacted>").finish()
    }
}

/// The profile made (now the selected one), every profile, and the balance the key was checked with.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct Connected {
    pub profile: Profile,
    pub profiles: ProfilesView,
    pub balance: Balance,
}

fn lock<T>(m: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|e| e.into_inner())
}

/// "ContentHero", or the first "ContentHero N" that `taken` says no profile has.
pub fn free_name(taken: impl Fn(&str) -> bool) -> String {
    if !taken(CONNECTED_NAME) {
        return CONNECTED_NAME.to_string();
    }
    (2..).map(|i| format!("{CONNECTED_NAME} {i}")).find(|n| !taken(n)).unwrap_or_else(|| CONNECTED_NAME.into())
}

impl Connect {
    /// Replaces how a URL is opened in a browser.
    pub fn set_opener(&self, opener: UrlOpener) {
        *lock(&self.opener) = opener;
    }

    /// Opens the loopback listener for `base_url` (checked by the caller) and the consent page (through
    /// the opener); answers the page's URL. A sign-in already under way is stopped first.
    pub async fn start(&self, base_url: String) -> IpcResult<ConnectStarted> {
        let login = BrowserLogin::start(&base_url, &bl::hostname()).await.map_err(IpcError::internal)?;
        let url = login.url().to_string();
        let earlier = lock(&self.pending).replace(Pending { login: Some(login), base_url, cancel: Arc::new(Notify::new()) });
        if let Some(earlier) = earlier {
            earlier.cancel.notify_one();
        }
        let opener = lock(&self.opener).clone();
        let opened = match opener(&url) {
            Ok(()) => true,
            Err(e) => {
                tracing::warn!(error = %e, "could not open the browser for the sign-in");
                false
            }
        };
        Ok(ConnectStarted { url, opened })
    }

    /// Waits (3 minutes at most) for the browser's answer to the sign-in [`Connect::start`] opened; a key
    /// is handed to `make` with the base URL (it checks and stores it, and makes the profile).
    pub async fn finish<F, Fut>(&self, make: F) -> IpcResult<Connected>
    where
        F: FnOnce(String, zeroize::Zeroizing<String>) -> Fut,
        Fut: Future<Output = IpcResult<Connected>>,
    {
        let (login, base_url, cancel) = {
            let mut pending = lock(&self.pending);
            match pending.as_mut().and_then(|p| p.login.take().map(|l| (l, p.base_url.clone(), p.cancel.clone()))) {
                Some(v) => v,
                None => return Err(IpcError::validation("browser", "No browser sign-in is under way: choose “Sign in with your browser” again.")),
            }
        };
        let waiting = login.finish(BROWSER_WAIT, |key| make(base_url, key));
        let result = tokio::select! {
            r = waiting => r,
            _ = cancel.notified() => {
                return Err(IpcError::validation("browser", "The sign-in was stopped: nothing was connected."));
            }
        };
        {
            let mut pending = lock(&self.pending);
            if pending.as_ref().is_some_and(|p| Arc::ptr_eq(&p.cancel, &cancel)) {
                *pending = None;
            }
        }
        result.map_err(|e| match e {
            BrowserLoginError::TimedOut(_) => IpcError::validation(
                "browser",
                "No answer came from the browser within 3 minutes, so nothing was connected. Try again, or paste a key instead.",
            ),
            BrowserLoginError::Refused(_) => IpcError::validation("browser", "You chose Cancel in the browser, so nothing was connected."),
            BrowserLoginError::Check(e) => e,
        })
    }

    /// Stops the sign-in under way (its listener closes); false when there was none.
    pub fn cancel(&self) -> bool {
        let pending = lock(&self.pending).take();
        pending.map(|p| p.cancel.notify_one()).is_some()
    }
}
