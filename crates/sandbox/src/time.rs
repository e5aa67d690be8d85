//! Timestamps on the wire: RFC 3339 UTC with milliseconds.
use time::{
    format_description::{well_known::Rfc3339, FormatItem},
    macros::format_description,
    OffsetDateTime, UtcOffset,
};

/// Always three subsecond digits and a `Z`: `2026-11-22T13:30:00.000Z`.
const WIRE: &[FormatItem<'static>] = format_description!(
    "[year]-[month]-[day]T[hour]:[minute]:[second].[subsecond digits:3]Z"
);

pub fn now() -> OffsetDateTime {
    OffsetDateTime::now_utc()
}

pub fn fmt(t: OffsetDateTime) -> String {
    t.to_offset(UtcOffset::UTC).format(WIRE).unwrap_or_default()
}

pub fn now_str() -> String {
    fmt(now())
}

/// Milliseconds since the epoch, for ordering and render deadlines.
pub fn now_ms() -> i64 {
    (now().unix_timestamp_nanos() / 1_000_000) as i64
}

/// A time in milliseconds since the epoch, in the wire form.
pub fn fmt_ms(ms: i64) -> String {
    OffsetDateTime::from_unix_timestamp_nanos(ms as i128 * 1_000_000).map(fmt).unwrap_or_else(|_| now_str())
}

pub fn parse(s: &str) -> Option<OffsetDateTime> {
    OffsetDateTime::parse(s, &Rfc3339).ok()
}

/// Normalises a client-given time to the wire form, or `None` when it is not RFC 3339.
pub fn normalise(s: &str) -> Option<String> {
    parse(s).map(fmt)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn zero_milliseconds_are_kept_and_offsets_become_utc() {
        assert_eq!(normalise("2026-11-22T10:00:00+02:00").as_deref(), Some("2026-11-22T08:00:00.000Z"));
        assert_eq!(normalise("2026-11-22T10:00:00.1234Z").as_deref(), Some("2026-11-22T10:00:00.123Z"));
        assert_eq!(normalise("yesterday"), None);
    }
}
