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
    let t = t.to_offset(UtcOffset::UTC);
    // Years 0-9999 written by hand (every write stamps `updated_at`: `format` walking `WIRE` was 1.5% of
    // a `PATCH /cards/{id}`'s instructions); the same bytes as `format(WIRE)` (tests below), which
    // writes any other year.
    let year = t.year();
    if !(0..=9999).contains(&year) {
        return t.format(WIRE).unwrap_or_default();
    }
    let mut out = [0u8; 24];
    let mut put = |at: usize, n: u32, digits: u32| {
        let mut n = n;
        for i in (0..digits as usize).rev() {
            out[at + i] = b'0' + (n % 10) as u8;
            n /= 10;
        }
    };
    put(0, year as u32, 4);
    put(5, u8::from(t.month()) as u32, 2);
    put(8, t.day() as u32, 2);
    put(11, t.hour() as u32, 2);
    put(14, t.minute() as u32, 2);
    put(17, t.second() as u32, 2);
    put(20, t.millisecond() as u32, 3);
    for (at, sep) in [(4, b'-'), (7, b'-'), (10, b'T'), (13, b':'), (16, b':'), (19, b'.'), (23, b'Z')] {
        out[at] = sep;
    }
    out.iter().map(|&b| b as char).collect()
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

    #[test]
    fn the_hand_written_form_is_the_format_descriptions() {
        let mut instants = vec![
            OffsetDateTime::UNIX_EPOCH,
            OffsetDateTime::UNIX_EPOCH - time::Duration::nanoseconds(1),
            time::macros::datetime!(0000-01-01 00:00:00.000_999 UTC),
            time::macros::datetime!(0999-12-31 23:59:59.999_999_999 UTC),
            time::macros::datetime!(9999-12-31 23:59:59.999_999_999 UTC),
            time::macros::datetime!(2026-11-22 10:00:00.1239 +02:00),
            time::macros::datetime!(-0001-06-15 12:00:00 UTC),
            now(),
        ];
        // Every month and day, hours and minutes across a few years, with odd nanoseconds.
        let mut t = time::macros::datetime!(2023-12-30 21:17:03.000_000_007 UTC);
        for _ in 0..5000 {
            t += time::Duration::seconds(31_337) + time::Duration::nanoseconds(987_654_321);
            instants.push(t);
        }
        for t in instants {
            assert_eq!(fmt(t), t.to_offset(UtcOffset::UTC).format(WIRE).unwrap(), "{t}");
        }
    }
}
