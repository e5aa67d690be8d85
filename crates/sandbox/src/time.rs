//! Timestamps on the wire: RFC 3339 UTC with milliseconds.
use time::{format_description::well_known::Rfc3339, OffsetDateTime};

pub fn now() -> OffsetDateTime {
    OffsetDateTime::now_utc()
}

pub fn fmt(t: OffsetDateTime) -> String {
    let t = t.replace_nanosecond((t.nanosecond() / 1_000_000) * 1_000_000).unwrap_or(t);
    t.format(&Rfc3339).unwrap_or_default()
}

pub fn now_str() -> String {
    fmt(now())
}

/// Milliseconds since the epoch, for ordering and render deadlines.
pub fn now_ms() -> i64 {
    (now().unix_timestamp_nanos() / 1_000_000) as i64
}

pub fn parse(s: &str) -> Option<OffsetDateTime> {
    OffsetDateTime::parse(s, &Rfc3339).ok()
}

/// Normalises a client-given time to the wire form, or `None` when it is not RFC 3339.
pub fn normalise(s: &str) -> Option<String> {
    parse(s).map(|t| fmt(t.to_offset(time::UtcOffset::UTC)))
}
