//! Shared state: the database, the configuration, the public origin and the rate-limit windows.
use crate::config::Config;
use crate::db::Db;
use std::collections::HashMap;
use std::sync::{Arc, Mutex, RwLock};
use std::time::Instant;

/// How many rate-limit windows are kept before the passed ones are forgotten.
const MAX_WINDOWS: usize = 4096;

#[derive(Clone)]
pub struct AppState {
    inner: Arc<Inner>,
}

struct Inner {
    db: Db,
    config: Config,
    origin: RwLock<String>,
    windows: Mutex<HashMap<String, (Instant, u32)>>,
}

impl AppState {
    /// The state over an open database (`AppState::open`, in `service.rs`, opens the file with every
    /// table of the sandbox).
    pub fn new(db: Db, config: Config) -> Self {
        AppState {
            inner: Arc::new(Inner {
                db,
                config,
                origin: RwLock::new("http://127.0.0.1".into()),
                windows: Mutex::new(HashMap::new()),
            }),
        }
    }

    pub fn db(&self) -> &Db {
        &self.inner.db
    }

    pub fn config(&self) -> &Config {
        &self.inner.config
    }

    /// `http://127.0.0.1:PORT`: where files and upload URLs point.
    pub fn origin(&self) -> String {
        self.inner.origin.read().map(|o| o.clone()).unwrap_or_default()
    }

    pub fn set_origin(&self, origin: String) {
        if let Ok(mut o) = self.inner.origin.write() {
            *o = origin;
        }
    }

    /// Counts one request for `key_id`; `Err(seconds to wait)` past the limit.
    pub fn take_rate_token(&self, key_id: &str) -> Result<(), f64> {
        self.take_rate_token_within(key_id, self.inner.config.rate_limit)
    }

    /// [`Self::take_rate_token`] against another limit (the OAuth endpoints' per-address one); the
    /// windows are shared, so `key_id`s of different limits must not collide (prefix them).
    pub fn take_rate_token_within(&self, key_id: &str, limit: Option<crate::config::RateLimit>) -> Result<(), f64> {
        let Some(limit) = limit else { return Ok(()) };
        let mut windows = self.inner.windows.lock().unwrap_or_else(|e| e.into_inner());
        let now = Instant::now();
        // Callers without a key (the OAuth endpoints' addresses) could add windows without end: past
        // MAX_WINDOWS a new one first forgets those whose window has passed (a live one is kept, so flooding
        // from other addresses cannot reset a limited one).
        if windows.len() >= MAX_WINDOWS && !windows.contains_key(key_id) {
            windows.retain(|_, (start, _)| now.duration_since(*start) < limit.window);
        }
        let entry = windows.entry(key_id.to_string()).or_insert((now, 0));
        if now.duration_since(entry.0) >= limit.window {
            *entry = (now, 0);
        }
        if entry.1 >= limit.requests {
            let wait = limit.window.saturating_sub(now.duration_since(entry.0));
            return Err(((wait.as_millis() as f64) / 1000.0).max(0.001));
        }
        entry.1 += 1;
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::config::RateLimit;
    use std::time::Duration;

    fn state() -> (AppState, std::path::PathBuf) {
        let dir = std::env::temp_dir().join(format!("rate-windows-{}", crate::db::new_id()));
        std::fs::create_dir_all(&dir).unwrap();
        (AppState::open(&dir.join("sandbox.db"), Config::for_tests()).unwrap(), dir)
    }

    #[test]
    fn windows_that_passed_are_forgotten_past_the_cap_and_live_ones_kept() {
        let (s, dir) = state();
        let len = || s.inner.windows.lock().unwrap().len();
        // A zero-length window has always passed: at the cap, a new caller clears them all.
        let passed = Some(RateLimit { requests: 1, window: Duration::ZERO });
        for i in 0..MAX_WINDOWS {
            s.take_rate_token_within(&format!("gone:{i}"), passed).unwrap();
        }
        assert_eq!(len(), MAX_WINDOWS);
        s.take_rate_token_within("new", passed).unwrap();
        assert_eq!(len(), 1);
        // Live windows stay, and a limited caller is still limited after a flood of others.
        let live = Some(RateLimit { requests: 1, window: Duration::from_secs(60) });
        s.take_rate_token_within("limited", live).unwrap();
        assert!(s.take_rate_token_within("limited", live).is_err());
        for i in 0..MAX_WINDOWS {
            s.take_rate_token_within(&format!("flood:{i}"), live).unwrap();
        }
        assert!(len() > MAX_WINDOWS);
        assert!(s.take_rate_token_within("limited", live).is_err(), "not reset by the flood");
        let _ = std::fs::remove_dir_all(&dir);
    }
}
