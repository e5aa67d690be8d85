//! The embedded default: the local sandbox, in this process, on a free loopback port, with its SQLite
//! file in the app's data folder. Seeded with the demo once; a key with every scope minted for the app.
use sandbox::{auth, seed, Config, RenderTimes, RunningSandbox};
use std::time::Duration;
use std::path::{Path, PathBuf};

use crate::error::{IpcError, IpcResult};

/// The name the app's own sandbox keys carry (so a new one can retire the old ones).
const KEY_NAME: &str = "Content Desk (embedded)";

/// The local sandbox's pace and limit, from the environment's variables as `var` reads them (tests,
/// journeys, benchmarks set them; the faces pass `std::env::var`): `CONTENTDESK_SANDBOX_RENDER_MS` is
/// `<ms>` for every kind or a list such as `image:300,video:2000` (kinds `image`, `video`, `audio`, `board`,
/// `lip-sync`); `CONTENTDESK_SANDBOX_SMART_WAIT_MS` is `<ms>`; `CONTENTDESK_SANDBOX_RATE_LIMIT` is requests
/// a minute per key, `0` for none (the browser journeys, which share one key across every journey, in
/// more requests a minute than a person makes). Unset: the real service's pace (renders of seconds, a 50 s
/// smart-wait) and its 600 a minute.
pub fn sandbox_config_from(var: impl Fn(&str) -> Option<String>) -> Config {
    let mut config = Config::default();
    if let Some(ms) = var("CONTENTDESK_SANDBOX_SMART_WAIT_MS").and_then(|v| v.trim().parse::<u64>().ok()) {
        config.smart_wait = Duration::from_millis(ms);
    }
    if let Some(spec) = var("CONTENTDESK_SANDBOX_RENDER_MS") {
        apply_render_spec(&mut config.render, &spec);
    }
    if let Some(per_minute) = var("CONTENTDESK_SANDBOX_RATE_LIMIT").and_then(|v| v.trim().parse::<u32>().ok()) {
        config.rate_limit = (per_minute > 0).then(|| sandbox::RateLimit { requests: per_minute, window: Duration::from_secs(60) });
    }
    config
}

fn apply_render_spec(r: &mut RenderTimes, spec: &str) {
    for part in spec.split(',').map(str::trim).filter(|p| !p.is_empty()) {
        let (kind, ms) = part.split_once(':').unwrap_or(("all", part));
        let Ok(ms) = ms.trim().parse::<u64>() else {
            tracing::warn!(part, "ignored: not <kind>:<ms>");
            continue;
        };
        let d = Duration::from_millis(ms);
        match kind.trim() {
            "all" => *r = RenderTimes::all(d),
            "image" => r.image = d,
            "video" => r.video = d,
            "audio" => r.audio = d,
            "board" => r.board = d,
            "lip-sync" => r.lip_sync = d,
            other => tracing::warn!(kind = other, "ignored: unknown render kind"),
        }
    }
}

/// Whether an existing SQLite file is sound (`quick_check`); a missing file is fine (created fresh).
fn check_sqlite(path: &Path) -> Result<(), String> {
    if !path.exists() {
        return Ok(());
    }
    let conn = rusqlite::Connection::open_with_flags(path, rusqlite::OpenFlags::SQLITE_OPEN_READ_WRITE).map_err(|e| e.to_string())?;
    let check: String = conn.query_row("PRAGMA quick_check", [], |r| r.get(0)).map_err(|e| e.to_string())?;
    if check == "ok" {
        Ok(())
    } else {
        Err(format!("the database is damaged: {check}"))
    }
}

pub struct Embedded {
    pub running: RunningSandbox,
    /// The URL file this sandbox published (removed when it stops).
    url_file: Option<PathBuf>,
}

/// The file in the data folder that names the running app's local sandbox while it serves: its URL
/// and the app's pid, never a key. Written (atomically) after the core took the data folder's lock,
/// removed when the sandbox stops; one left by a crash is stale, which the lock tells: a reader that can
/// take `contentdesk.lock` knows no core runs, and a core that takes it removes the file first.
pub const URL_FILE: &str = "sandbox-url.json";

/// The name of the keys `cdesk` mints in the local sandbox for one command when it cannot read the
/// app's key from the keyring (revoked when the command ends).
pub const TERMINAL_KEY_NAME: &str = "cdesk (terminal)";

/// What [`URL_FILE`] holds.
#[derive(serde::Serialize, serde::Deserialize, Debug, Clone, Default)]
#[serde(rename_all = "camelCase")]
pub struct PublishedUrl {
    pub url: String,
    pub pid: u32,
}

/// The URL the running app's local sandbox published in `data_dir`, when the file is there and readable.
/// Only meaningful while the data folder's lock is held by someone else (see [`URL_FILE`]).
pub fn published_url(data_dir: &Path) -> Option<PublishedUrl> {
    crate::jsonfile::read::<Option<PublishedUrl>>(&data_dir.join(URL_FILE), "the local sandbox's URL").ok().flatten()
}

/// Removes a [`URL_FILE`] left by a core that did not stop cleanly. Call only while holding the lock.
pub fn remove_stale_url(data_dir: &Path) {
    let path = data_dir.join(URL_FILE);
    if path.exists() {
        tracing::info!(path = %path.display(), "removing the local sandbox URL a stopped core left");
        let _ = std::fs::remove_file(path);
    }
}

/// A key minted in the local sandbox's database for one terminal command (every scope, the demo
/// account), revoked when dropped. The secret lives in memory only.
pub struct TerminalKey {
    db: PathBuf,
    id: String,
    pub secret: zeroize::Zeroizing<String>,
}

impl TerminalKey {
    /// Mints it in `data_dir/sandbox.db`, through a connection of its own (SQLite's WAL lets it write
    /// while the app's sandbox serves the same file).
    pub fn mint(data_dir: &Path) -> Result<TerminalKey, String> {
        let db = data_dir.join("sandbox.db");
        let conn = open_for_keys(&db)?;
        let fail = |e: rusqlite::Error| format!("cannot mint a key in the local sandbox ({}): {e}", db.display());
        let account = auth::first_account(&conn).map_err(fail)?.ok_or("the local sandbox has no account yet: open Content Desk once")?;
        let (info, secret) = auth::create_key(&conn, &account, TERMINAL_KEY_NAME, api_types::scopes::ALL).map_err(fail)?;
        Ok(TerminalKey { db, id: info.id, secret: zeroize::Zeroizing::new(secret) })
    }
}

impl Drop for TerminalKey {
    fn drop(&mut self) {
        let revoked = open_for_keys(&self.db).and_then(|c| auth::revoke_key(&c, &self.id).map_err(|e| e.to_string()));
        if let Err(e) = revoked {
            tracing::warn!(error = %e, "could not revoke the terminal's local sandbox key");
        }
    }
}

fn open_for_keys(db: &Path) -> Result<rusqlite::Connection, String> {
    if !db.exists() {
        return Err(format!("there is no local sandbox in {} yet: open Content Desk once", db.parent().unwrap_or(db).display()));
    }
    let conn = rusqlite::Connection::open_with_flags(db, rusqlite::OpenFlags::SQLITE_OPEN_READ_WRITE)
        .map_err(|e| format!("cannot open the local sandbox ({}): {e}", db.display()))?;
    conn.busy_timeout(Duration::from_secs(5)).map_err(|e| e.to_string())?;
    Ok(conn)
}

/// Whether `secret` is a live key of the sandbox in `data_dir` (read in its database).
pub fn key_is_live_in(data_dir: &Path, secret: &str) -> bool {
    open_for_keys(&data_dir.join("sandbox.db")).is_ok_and(|conn| {
        conn.query_row("SELECT 1 FROM api_keys WHERE secret_hash = ?1 AND revoked_at IS NULL", [auth::hash_secret(secret)], |_| Ok(()))
            .is_ok()
    })
}

impl Drop for Embedded {
    fn drop(&mut self) {
        if let Some(path) = self.url_file.take() {
            let _ = std::fs::remove_file(path);
        }
    }
}

impl Embedded {
    /// Opens (or creates and seeds) `sandbox.db` in `data_dir` and serves it on `127.0.0.1:0`.
    /// A `sandbox.db` that is not a sound SQLite database, or that the sandbox cannot open, is set aside as
    /// `sandbox.db.damaged-<UTC time>` and a fresh one seeded; the notice says so, for the user.
    pub async fn start(data_dir: &Path, config: Config) -> IpcResult<(Embedded, Option<String>)> {
        let path = data_dir.join("sandbox.db");
        let mut notice = None;
        let checked = check_sqlite(&path).and_then(|()| sandbox::AppState::open(&path, config.clone()).map_err(|e| e.to_string()));
        let state = match checked {
            Ok(s) => s,
            Err(why) if path.exists() => {
                let to = crate::jsonfile::set_aside(&path).map_err(|e| {
                    IpcError::internal(format!("the local sandbox {} cannot be read ({why}) nor set aside ({e})", path.display()))
                })?;
                notice = Some(crate::jsonfile::set_aside_notice("The local sandbox's data", &path, &to, &why));
                sandbox::AppState::open(&path, config)
                    .map_err(|e| IpcError::internal(format!("cannot open the local sandbox at {}: {e}", path.display())))?
            }
            Err(why) => return Err(IpcError::internal(format!("cannot open the local sandbox at {}: {why}", path.display()))),
        };
        let seeded = seed::seed_demo(&state, &seed::DemoOptions::default())
            .map_err(|e| IpcError::internal(format!("cannot seed the local sandbox: {e}")))?;
        if seeded.created {
            tracing::info!("local sandbox seeded with the demo data");
        }
        let running = sandbox::spawn(state, "127.0.0.1:0")
            .await
            .map_err(|e| IpcError::internal(format!("cannot start the local sandbox: {e}")))?;
        tracing::info!(url = %running.base_url(), "local sandbox serving");
        Ok((Embedded { running, url_file: None }, notice))
    }

    /// Writes [`URL_FILE`] in `data_dir` (atomically) so `cdesk --sandbox` finds this sandbox; removed
    /// when this `Embedded` is dropped. Call only while holding the data folder's lock.
    pub fn publish_url(&mut self, data_dir: &Path) -> IpcResult<()> {
        let path = data_dir.join(URL_FILE);
        let value = PublishedUrl { url: self.base_url(), pid: std::process::id() };
        crate::jsonfile::write(&path, &value, "the local sandbox's URL")?;
        self.url_file = Some(path);
        Ok(())
    }

    pub fn base_url(&self) -> String {
        self.running.base_url()
    }

    /// Whether `secret` is a live key of this sandbox (checked in its database, not over HTTP).
    pub fn key_is_live(&self, secret: &str) -> bool {
        let conn = self.running.state.db().lock();
        conn.query_row(
            "SELECT 1 FROM api_keys WHERE secret_hash = ?1 AND revoked_at IS NULL",
            [auth::hash_secret(secret)],
            |_| Ok(()),
        )
        .is_ok()
    }

    /// Mints a key with every scope for the demo account and revokes the app's earlier ones, so runs
    /// without a keyring do not pile up live keys.
    pub fn mint_key(&self) -> IpcResult<String> {
        let conn = self.running.state.db().lock();
        let fail = |e: rusqlite::Error| IpcError::internal(format!("cannot mint a local sandbox key: {e}"));
        let account = auth::first_account(&conn)
            .map_err(fail)?
            .ok_or_else(|| IpcError::internal("the local sandbox has no account"))?;
        for k in auth::list_keys(&conn).map_err(fail)? {
            if k.name == KEY_NAME && k.revoked_at.is_none() {
                auth::revoke_key(&conn, &k.id).map_err(fail)?;
            }
        }
        let (_, secret) = auth::create_key(&conn, &account, KEY_NAME, api_types::scopes::ALL).map_err(fail)?;
        Ok(secret)
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn the_environment_sets_the_local_sandboxs_pace_and_limit() {
        let env = |pairs: &'static [(&'static str, &'static str)]| move |name: &str| pairs.iter().find(|(k, _)| *k == name).map(|(_, v)| v.to_string());
        let default = super::sandbox_config_from(env(&[]));
        assert_eq!(default.rate_limit.as_ref().map(|r| r.requests), Some(600), "the service's limit unless told");
        let none = super::sandbox_config_from(env(&[("CONTENTDESK_SANDBOX_RATE_LIMIT", "0"), ("CONTENTDESK_SANDBOX_SMART_WAIT_MS", "250")]));
        assert!(none.rate_limit.is_none());
        assert_eq!(none.smart_wait, std::time::Duration::from_millis(250));
        let some = super::sandbox_config_from(env(&[("CONTENTDESK_SANDBOX_RATE_LIMIT", "30")]));
        assert_eq!(some.rate_limit.map(|r| (r.requests, r.window.as_secs())), Some((30, 60)));
    }

    use super::*;

    #[test]
    fn render_spec_sets_one_kind_or_all() {
        let mut r = RenderTimes::default();
        apply_render_spec(&mut r, "image:100, lip-sync:7000,bogus,video:x");
        assert_eq!(r.image, Duration::from_millis(100));
        assert_eq!(r.lip_sync, Duration::from_millis(7000));
        assert_eq!(r.video, RenderTimes::default().video);
        apply_render_spec(&mut r, "250");
        assert_eq!(r.video, Duration::from_millis(250));
        assert_eq!(r.audio, Duration::from_millis(250));
    }
}
