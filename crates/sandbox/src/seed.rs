//! `--seed demo`: one account with 500 credits, connected accounts per platform, inspiration accounts and
//! content, a space with its stages and 20+ cards (posts, assets), a project, a brand kit with the eight
//! starter sections in real Markdown, knowledge items, and a finished render or two. Seeded once per
//! database file.
use crate::db::CachedRow as _;
use crate::auth;
use crate::routes;
use crate::state::AppState;
use crate::time;
use rusqlite::{params, OptionalExtension};

pub const SCHEMA: &str = "
CREATE TABLE IF NOT EXISTS seed_marks (
    name TEXT PRIMARY KEY,
    account_id TEXT NOT NULL,
    created_at TEXT NOT NULL
);
";

pub const DEMO_CREDITS: f64 = 500.0;

#[derive(Debug, Clone, Default)]
pub struct DemoOptions {
    /// Cards beyond the demo's own, spread over the demo space's stages (board benchmarks).
    pub extra_cards: usize,
}

#[derive(Debug, Clone)]
pub struct DemoSeed {
    pub account_id: String,
    /// `false` when the file had been seeded before and was left as it was.
    pub created: bool,
}

/// Seeds the demo once; a second call finds the mark and changes nothing.
pub fn seed_demo(state: &AppState, opts: &DemoOptions) -> rusqlite::Result<DemoSeed> {
    state.db().tx(|tx| {
        let existing: Option<String> = tx
            .cached_row("SELECT account_id FROM seed_marks WHERE name = 'demo'", [], |r| r.get(0))
            .optional()?;
        if let Some(account_id) = existing {
            return Ok(DemoSeed { account_id, created: false });
        }
        let account_id = auth::create_account(tx, "Demo creator", DEMO_CREDITS)?;
        routes::connected_accounts::seed_demo(tx, &account_id)?;
        routes::inspiration::seed_demo(tx, &account_id)?;
        routes::studio::seed_demo(tx, &account_id)?;
        routes::cards::seed_demo(tx, &account_id, opts.extra_cards)?;
        routes::projects::seed_demo(tx, &account_id)?;
        routes::brand_kits::seed_demo(tx, &account_id)?;
        routes::knowledge::seed_demo(tx, &account_id)?;
        tx.execute(
            "INSERT INTO seed_marks (name, account_id, created_at) VALUES ('demo', ?1, ?2)",
            params![account_id, time::now_str()],
        )?;
        Ok(DemoSeed { account_id, created: true })
    })
}
