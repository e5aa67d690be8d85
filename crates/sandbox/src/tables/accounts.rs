//! Accounts' credits (`accounts`): the balance, a charge and a refund.
use crate::db::CachedRow as _;
use crate::error::{ApiError, ApiResult};
use api_types::Balance;
use rusqlite::{params, Connection, OptionalExtension};

pub fn read_balance(conn: &Connection, account_id: &str) -> ApiResult<Balance> {
    conn.cached_row(
        "SELECT balance, tier, auto_topup FROM accounts WHERE id = ?1",
        [account_id],
        |r| Ok(Balance { balance: r.get(0)?, tier: r.get(1)?, auto_topup_enabled: r.get::<_, i64>(2)? != 0 }),
    )
    .optional()?
    .ok_or_else(|| ApiError::not_found("Account"))
}

/// Takes `credits` from the account, or 402 with the balance and what was needed; nothing is taken
/// then. Call inside the transaction that records what was bought.
pub fn charge(conn: &Connection, account_id: &str, credits: f64) -> ApiResult<f64> {
    let balance: f64 = conn.cached_row("SELECT balance FROM accounts WHERE id = ?1", [account_id], |r| r.get(0))?;
    if balance + 1e-9 < credits {
        return Err(ApiError::InsufficientCredits { balance, required: credits });
    }
    conn.execute("UPDATE accounts SET balance = balance - ?2 WHERE id = ?1", params![account_id, credits])?;
    Ok(balance - credits)
}

/// Gives `credits` back (a failed render).
pub fn refund(conn: &Connection, account_id: &str, credits: f64) -> rusqlite::Result<()> {
    conn.execute("UPDATE accounts SET balance = balance + ?2 WHERE id = ?1", params![account_id, credits])?;
    Ok(())
}
