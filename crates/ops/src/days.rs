//! A date alone (`2027-02-01`) where a time is asked for, as each face reads it. An agent's (and the
//! app's) date is 00:00 UTC that day, as JavaScript reads a date: the same wherever the server runs. The
//! shell's is 00:00 in this computer's time zone, as a creator typing `--scheduled-at 2027-02-01` at their
//! own desk means it (`cdesk` says so with [`dates_in_local_time`] before a command runs; `cdesk mcp` does
//! not). One rule for every field that takes a date: a card's and a post's `scheduledAt`, a calendar
//! export's window, a repeat's `until`.
use std::sync::OnceLock;
use time::{Date, OffsetDateTime, Time, UtcOffset};

/// The zone's offset from UTC at an instant (Unix seconds), when this face reads dates in local time.
static LOCAL: OnceLock<fn(i64) -> Option<UtcOffset>> = OnceLock::new();

/// From now on in this process, a date alone is 00:00 in the zone `offset_at` describes (its offset at
/// an instant, daylight saving included). Called once, by the shell.
pub fn dates_in_local_time(offset_at: fn(i64) -> Option<UtcOffset>) {
    let _ = LOCAL.set(offset_at);
}

/// The instant `date` starts: 00:00 UTC, or 00:00 local time after [`dates_in_local_time`].
pub fn day_start(date: Date) -> OffsetDateTime {
    let midnight = date.with_time(Time::MIDNIGHT);
    let Some(offset_at) = LOCAL.get() else { return midnight.assume_utc() };
    // The offset at UTC midnight, then at the local midnight it gives (a change of offset that day).
    let first = offset_at(midnight.assume_utc().unix_timestamp()).unwrap_or(UtcOffset::UTC);
    let offset = offset_at(midnight.assume_offset(first).unix_timestamp()).unwrap_or(first);
    midnight.assume_offset(offset)
}

/// `2027-02-01` as a date; anything else `None`.
pub fn date_alone(text: &str) -> Option<Date> {
    let t = text.trim();
    if t.len() != 10 {
        return None;
    }
    Date::parse(t, time::macros::format_description!("[year]-[month]-[day]")).ok()
}
