//! One SQLite file in WAL mode: one writer connection behind a mutex, and a small pool of read-only
//! connections. In WAL mode readers do not wait for a writer (they read the last committed snapshot), so a
//! request that only reads (authenticating the key, a card, a list) goes on while a write holds the writer
//! or waits for it; before the pool every read queued behind the one connection's mutex. The tables are
//! the caller's ([`Schema`]: each module owns its `SCHEMA`, `service::SCHEMA` lists them); this module
//! knows none of them. A write that returned is committed to the WAL file, so every reader sees it from
//! then on.
use rusqlite::{Connection, OpenFlags};
use std::ops::Deref;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex, MutexGuard};

/// Read connections kept open between requests (more are opened when all are busy, and closed after).
const IDLE_READERS: usize = 4;

#[derive(Clone)]
pub struct Db {
    conn: Arc<Mutex<Connection>>,
    readers: Arc<Readers>,
}

struct Readers {
    path: PathBuf,
    idle: Mutex<Vec<Connection>>,
}

/// A pooled read-only connection, handed back to the pool when dropped.
pub struct Reader<'a> {
    conn: Option<Connection>,
    pool: &'a Readers,
}

impl Deref for Reader<'_> {
    type Target = Connection;
    fn deref(&self) -> &Connection {
        self.conn.as_ref().expect("a reader holds its connection until dropped")
    }
}

impl Drop for Reader<'_> {
    fn drop(&mut self) {
        if let Some(conn) = self.conn.take() {
            // A connection still inside a read transaction (a reader that panicked mid-read) would keep
            // answering from its old snapshot: it is closed, never pooled.
            if !conn.is_autocommit() {
                return;
            }
            let mut idle = self.pool.idle.lock().unwrap_or_else(|e| e.into_inner());
            if idle.len() < IDLE_READERS {
                idle.push(conn);
            }
        }
    }
}

impl Readers {
    fn take(&self) -> rusqlite::Result<Reader<'_>> {
        let idle = self.idle.lock().unwrap_or_else(|e| e.into_inner()).pop();
        let conn = match idle {
            Some(c) => c,
            None => open_reader(&self.path)?,
        };
        Ok(Reader { conn: Some(conn), pool: self })
    }
}

fn open_reader(path: &Path) -> rusqlite::Result<Connection> {
    let conn = Connection::open_with_flags(
        path,
        OpenFlags::SQLITE_OPEN_READ_ONLY | OpenFlags::SQLITE_OPEN_NO_MUTEX | OpenFlags::SQLITE_OPEN_URI,
    )?;
    conn.busy_timeout(std::time::Duration::from_secs(5))?;
    conn.set_prepared_statement_cache_capacity(256);
    Ok(conn)
}

/// What a file holds: every table (SQL run at each open, so `CREATE … IF NOT EXISTS` and the `DROP`s of
/// what older builds kept), and the columns added after a table first shipped.
pub struct Schema {
    pub tables: &'static [&'static str],
    /// `(table, column, declaration)`: added to a file made by an older build.
    pub added_columns: &'static [(&'static str, &'static str, &'static str)],
}

impl Db {
    /// Opens (or creates) the file and brings it to `schema`.
    pub fn open(path: &Path, schema: &Schema) -> rusqlite::Result<Self> {
        let conn = Connection::open(path)?;
        conn.pragma_update(None, "journal_mode", "WAL")?;
        conn.pragma_update(None, "synchronous", "NORMAL")?;
        conn.pragma_update(None, "foreign_keys", "ON")?;
        conn.busy_timeout(std::time::Duration::from_secs(5))?;
        // Every statement is prepared once and reused (`prepare_cached`, `cached_row`): re-preparing the
        // same SQL on every request was most of a request's cost under load.
        conn.set_prepared_statement_cache_capacity(256);
        migrate(&conn, schema)?;
        // The file's own path as SQLite resolved it, so readers open the very same file.
        let path = conn.path().map(PathBuf::from).unwrap_or_else(|| path.to_path_buf());
        let readers = Readers { path, idle: Mutex::new(Vec::new()) };
        // One reader opened now: a file the writer can open but a reader cannot fails here, not later.
        drop(readers.take()?);
        Ok(Db {
            conn: Arc::new(Mutex::new(conn)),
            readers: Arc::new(readers),
        })
    }

    /// The writer connection, for one short synchronous piece of work (never held across an `.await`).
    /// Writes, and reads that must see or block a write of the same request, go here.
    pub fn lock(&self) -> MutexGuard<'_, Connection> {
        self.conn.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// A read-only connection from the pool, for a request that only reads: it does not wait for the
    /// writer. It sees every write that has returned; a write made through it fails.
    pub fn reader(&self) -> rusqlite::Result<Reader<'_>> {
        self.readers.take()
    }

    /// Runs the reads of `f` in one read transaction on a pooled reader: a record read with several
    /// statements (a card, its posts, its assets…) sees one snapshot, and SQLite takes its file lock once.
    pub fn read<T, E>(&self, f: impl FnOnce(&Connection) -> Result<T, E>) -> Result<T, E>
    where
        E: From<rusqlite::Error>,
    {
        let conn = self.reader()?;
        // BEGIN and COMMIT through the statement cache: `unchecked_transaction` parses both again on every
        // request (measured: SQL parsing was the largest piece of a `GET /cards/{id}` after the socket).
        conn.prepare_cached("BEGIN")?.execute([])?;
        match f(&conn) {
            Ok(out) => {
                conn.prepare_cached("COMMIT")?.execute([])?;
                Ok(out)
            }
            Err(e) => {
                conn.prepare_cached("ROLLBACK")?.execute([])?;
                Err(e)
            }
        }
    }

    /// Runs `f` in one transaction on the writer: all or nothing. BEGIN and COMMIT go through the
    /// statement cache (a `PATCH /cards/{id}` parsed both on every request before); whatever way `f`
    /// ends (an error, a failed COMMIT, a panic), the transaction is rolled back before the writer is
    /// handed on.
    pub fn tx<T, E>(&self, f: impl FnOnce(&Connection) -> Result<T, E>) -> Result<T, E>
    where
        E: From<rusqlite::Error>,
    {
        let conn = self.lock();
        conn.prepare_cached("BEGIN")?.execute([])?;
        let open = RollbackUnlessDone(&conn);
        let out = f(open.0)?;
        open.0.prepare_cached("COMMIT")?.execute([])?;
        Ok(out)
    }
}

/// Rolls back the connection's open transaction when dropped, if one is still open.
struct RollbackUnlessDone<'a>(&'a Connection);

impl Drop for RollbackUnlessDone<'_> {
    fn drop(&mut self) {
        if !self.0.is_autocommit() {
            let _ = self.0.execute_batch("ROLLBACK");
        }
    }
}

fn migrate(conn: &Connection, schema: &Schema) -> rusqlite::Result<()> {
    for tables in schema.tables {
        conn.execute_batch(tables)?;
    }
    for (table, column, decl) in schema.added_columns {
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

    /// `execute` through the statement cache.
    fn cached_execute<P: rusqlite::Params>(&self, sql: &str, params: P) -> rusqlite::Result<usize>;
}

impl CachedRow for Connection {
    fn cached_row<T, P, F>(&self, sql: &str, params: P, f: F) -> rusqlite::Result<T>
    where
        P: rusqlite::Params,
        F: FnOnce(&rusqlite::Row<'_>) -> rusqlite::Result<T>,
    {
        self.prepare_cached(sql)?.query_row(params, f)
    }

    fn cached_execute<P: rusqlite::Params>(&self, sql: &str, params: P) -> rusqlite::Result<usize> {
        self.prepare_cached(sql)?.execute(params)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::panic::{catch_unwind, AssertUnwindSafe};

    fn open() -> (Db, PathBuf) {
        let dir = std::env::temp_dir().join(format!("contentdesk-db-test-{}", new_id()));
        std::fs::create_dir_all(&dir).unwrap();
        let db = Db::open(&dir.join("t.db"), &Schema { tables: &[], added_columns: &[] }).unwrap();
        db.lock().execute_batch("CREATE TABLE t (x INTEGER)").unwrap();
        (db, dir)
    }

    fn count(db: &Db) -> i64 {
        db.read(|c| c.query_row("SELECT COUNT(*) FROM t", [], |r| r.get(0))).unwrap()
    }

    fn insert(db: &Db) {
        db.tx(|c| c.execute("INSERT INTO t VALUES (1)", []).map(|_| ())).unwrap();
    }

    #[test]
    fn a_write_that_fails_or_panics_is_rolled_back_and_the_writer_goes_on() {
        let (db, dir) = open();
        let failed: Result<(), rusqlite::Error> = db.tx(|c| {
            c.execute("INSERT INTO t VALUES (1)", [])?;
            Err(rusqlite::Error::InvalidQuery)
        });
        assert!(failed.is_err());
        let panicked = catch_unwind(AssertUnwindSafe(|| {
            let _: Result<(), rusqlite::Error> = db.tx(|c| {
                c.execute("INSERT INTO t VALUES (1)", [])?;
                panic!("a handler bug in the middle of a write")
            });
        }));
        assert!(panicked.is_err());
        // A transaction left open would make this BEGIN fail and keep the two rows above.
        insert(&db);
        assert_eq!(count(&db), 1);
        std::fs::remove_dir_all(dir).ok();
    }

    #[test]
    fn a_read_that_fails_or_panics_leaves_no_old_snapshot_in_the_pool() {
        let (db, dir) = open();
        assert_eq!(count(&db), 0);
        let failed: Result<i64, rusqlite::Error> = db.read(|c| {
            c.query_row("SELECT COUNT(*) FROM t", [], |r| r.get::<_, i64>(0))?;
            Err(rusqlite::Error::InvalidQuery)
        });
        assert!(failed.is_err());
        insert(&db);
        // The pool hands back the connection just used: had it stayed in its read transaction, it
        // would still count 0.
        assert_eq!(count(&db), 1);
        let panicked = catch_unwind(AssertUnwindSafe(|| {
            let _: Result<i64, rusqlite::Error> = db.read(|c| {
                c.query_row("SELECT COUNT(*) FROM t", [], |r| r.get::<_, i64>(0))?;
                panic!("a handler bug in the middle of a read")
            });
        }));
        assert!(panicked.is_err());
        insert(&db);
        assert_eq!(count(&db), 2);
        std::fs::remove_dir_all(dir).ok();
    }
}
