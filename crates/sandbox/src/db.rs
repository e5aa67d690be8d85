//! One SQLite file in WAL mode behind a mutex. Each resource module owns its tables (`SCHEMA`); they
//! are created here in one place. A write that returned is committed to the WAL file.
use rusqlite::Connection;
use std::path::Path;
use std::sync::{Arc, Mutex, MutexGuard};

#[derive(Clone)]
pub struct Db {
    conn: Arc<Mutex<Connection>>,
}

impl Db {
    pub fn open(path: &Path) -> rusqlite::Result<Self> {
        let conn = Connection::open(path)?;
        conn.pragma_update(None, "journal_mode", "WAL")?;
        conn.pragma_update(None, "synchronous", "NORMAL")?;
        conn.pragma_update(None, "foreign_keys", "ON")?;
        conn.busy_timeout(std::time::Duration::from_secs(5))?;
        // Every statement is prepared once and reused (`prepare_cached`, `cached_row`): re-preparing the
        // same SQL on every request was most of a request's cost under load.
        conn.set_prepared_statement_cache_capacity(256);
        migrate(&conn)?;
        Ok(Db { conn: Arc::new(Mutex::new(conn)) })
    }

    /// The connection, for one short synchronous piece of work (never held across an `.await`).
    pub fn lock(&self) -> MutexGuard<'_, Connection> {
        self.conn.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Runs the reads of `f` in one read transaction: a record read with several statements (a card,
    /// its posts, its assets…) sees one snapshot, and SQLite takes its file lock once.
    pub fn read<T, E>(&self, f: impl FnOnce(&Connection) -> Result<T, E>) -> Result<T, E>
    where
        E: From<rusqlite::Error>,
    {
        let conn = self.lock();
        let tx = conn.unchecked_transaction()?;
        let out = f(&tx)?;
        tx.commit()?;
        Ok(out)
    }

    /// Runs `f` in one transaction: all or nothing.
    pub fn tx<T, E>(&self, f: impl FnOnce(&rusqlite::Transaction) -> Result<T, E>) -> Result<T, E>
    where
        E: From<rusqlite::Error>,
    {
        let mut conn = self.lock();
        let tx = conn.transaction()?;
        let out = f(&tx)?;
        tx.commit()?;
        Ok(out)
    }
}

fn migrate(conn: &Connection) -> rusqlite::Result<()> {
    for schema in crate::routes::SCHEMAS {
        conn.execute_batch(schema)?;
    }
    for (table, column, decl) in ADDED_COLUMNS {
        let has: bool = conn.query_row(
            &format!("SELECT COUNT(*) > 0 FROM pragma_table_info('{table}') WHERE name = ?1"),
            [column],
            |r| r.get(0),
        )?;
        if !has {
            conn.execute_batch(&format!("ALTER TABLE {table} ADD COLUMN {column} {decl}"))?;
        }
    }
    Ok(())
}

/// Columns added after a table first shipped: added to a sandbox file made by an older build too.
const ADDED_COLUMNS: &[(&str, &str, &str)] = &[
    ("knowledge_items", "tags", "TEXT NOT NULL DEFAULT '[]'"),
    ("brand_kits", "brand_colors", "TEXT NOT NULL DEFAULT '[]'"),
    ("brand_kits", "typography", "TEXT"),
    ("brand_kits", "logos", "TEXT NOT NULL DEFAULT '[]'"),
];

/// A new record id.
pub fn new_id() -> String {
    uuid::Uuid::new_v4().to_string()
}

/// `query_row` through the statement cache: the same SQL is prepared once per connection.
pub trait CachedRow {
    fn cached_row<T, P, F>(&self, sql: &str, params: P, f: F) -> rusqlite::Result<T>
    where
        P: rusqlite::Params,
        F: FnOnce(&rusqlite::Row<'_>) -> rusqlite::Result<T>;
}

impl CachedRow for Connection {
    fn cached_row<T, P, F>(&self, sql: &str, params: P, f: F) -> rusqlite::Result<T>
    where
        P: rusqlite::Params,
        F: FnOnce(&rusqlite::Row<'_>) -> rusqlite::Result<T>,
    {
        self.prepare_cached(sql)?.query_row(params, f)
    }
}
