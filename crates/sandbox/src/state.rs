//! Shared state: the database, the configuration, the public origin and the rate-limit windows.
use crate::config::Config;
use crate::db::Db;
use std::collections::HashMap;
use std::path::Path;
use std::sync::{Arc, Mutex, RwLock};
use std::time::Instant;

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
    /// Opens (or creates) the SQLite file and brings its schema up to date.
    pub fn open(path: &Path, config: Config) -> rusqlite::Result<Self> {
        Ok(Self::with_db(Db::open(path)?, config))
    }

    fn with_db(db: Db, config: Config) -> Self {
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
    pub fn take_rate_token_within(&self, key_id: &str, limit: Option<crate::RateLimit>) -> Result<(), f64> {
        let Some(limit) = limit else { return Ok(()) };
        let mut windows = self.inner.windows.lock().unwrap_or_else(|e| e.into_inner());
        let now = Instant::now();
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
