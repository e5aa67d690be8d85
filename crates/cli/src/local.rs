//! `--sandbox` / `--profile <the app's sandbox profile>`: the desktop app's local sandbox from the
//! terminal, on the same `sandbox.db` the window shows (docs/ARCHITECTURE.md, "The files on this
//! computer"). One sandbox server per database at a time, decided by the data folder's lock
//! `contentdesk.lock`:
//! - the app runs (it holds the lock and has published `sandbox-url.json`): cdesk talks to the app's
//!   sandbox at that URL;
//! - nobody holds the lock: cdesk takes it (`cdesk <pid>` written in it), opens `sandbox.db` itself and
//!   serves it on a loopback port for this one command (in this process), then lets go. An app starting
//!   meanwhile waits for it (a command is short) and then says who has the folder;
//! - another cdesk holds it: this one waits for it to end.
//!
//! The key: the app's sandbox profile key from the OS keyring when it is there and live; else one minted
//! in `sandbox.db` for this command only (`cdesk (terminal)`), kept in memory and revoked at the end.
//! No key is written to any file.
use crate::keys::{keyring_service, KeySource, LocalTarget};
use contentdesk_core::embedded::{self, Embedded, TerminalKey};
use contentdesk_core::state::DataDirLock;
use contentdesk_core::{KeyringStore, SecretStore};
use std::time::{Duration, Instant};
use zeroize::Zeroizing;

/// How long cdesk waits for the folder: another cdesk command to end, or a starting app to publish its
/// sandbox's URL.
const WAIT: Duration = Duration::from_secs(20);

/// The local sandbox reached for one command; what it holds (a server of its own and the folder's
/// lock, a minted key) is let go when it is dropped.
pub struct Local {
    pub base_url: String,
    pub key: Zeroizing<String>,
    pub source: KeySource,
    /// Whether the running app's sandbox is used (else this process serves it).
    pub via_app: bool,
    // Dropped in this order: the key is revoked, then the server stops, then the lock goes.
    _minted: Option<TerminalKey>,
    _served: Option<Embedded>,
    _lock: Option<DataDirLock>,
}

/// Reaches the local sandbox of `target`'s data folder (see the module's comment).
pub async fn open(target: &LocalTarget, talk: bool) -> Result<Local, String> {
    let dir = &target.data_dir;
    std::fs::create_dir_all(dir).map_err(|e| format!("cannot create the data folder {}: {e}", dir.display()))?;
    let started = Instant::now();
    let mut said = false;
    let (base_url, served, lock) = loop {
        if let Some(lock) = DataDirLock::try_take(dir, "cdesk").map_err(|e| e.message)? {
            // Nobody runs on this folder: a URL file here is a stopped core's.
            embedded::remove_stale_url(dir);
            let config = embedded::sandbox_config_from(contentdesk_core::state::env_set);
            let (served, notice) = Embedded::start(dir, config).await.map_err(|e| e.message)?;
            if let Some(n) = notice {
                eprintln!("{n}");
            }
            break (served.base_url(), Some(served), Some(lock));
        }
        if let Some(published) = embedded::published_url(dir) {
            break (published.url, None, None);
        }
        let holder = DataDirLock::holder(dir);
        if started.elapsed() >= WAIT {
            return Err(match holder {
                Some((who, pid)) if who == "cdesk" => format!(
                    "another cdesk command (process {pid}) is using the local sandbox of {}; try again when it ends. A `cdesk mcp --sandbox` session holds it until it stops: open Content Desk first and both share the app's sandbox",
                    dir.display()
                ),
                _ => format!(
                    "Content Desk is running with {} but its local sandbox is not serving: it has no Sandbox profile, or is still starting. Add the sandbox in its Settings, or try again",
                    dir.display()
                ),
            });
        }
        if talk && !said {
            said = true;
            match &holder {
                Some((who, pid)) if who == "cdesk" => eprintln!("waiting for another cdesk command (process {pid}) that is using the local sandbox…"),
                _ => eprintln!("waiting for Content Desk's local sandbox to start…"),
            }
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    };
    let via_app = served.is_none();
    // The app's own key for its sandbox profile, when the keyring gives it and it is live.
    let stored = target.profile_id.as_deref().and_then(|id| {
        KeyringStore::new(keyring_service()).get(id).ok().flatten().map(Zeroizing::new)
    });
    let (key, source, minted) = match stored.filter(|k| embedded::key_is_live_in(dir, k)) {
        Some(k) => (k, KeySource::Keyring, None),
        None => {
            let minted = TerminalKey::mint(dir)?;
            (minted.secret.clone(), KeySource::Sandbox, Some(minted))
        }
    };
    Ok(Local { base_url, key, source, via_app, _minted: minted, _served: served, _lock: lock })
}
