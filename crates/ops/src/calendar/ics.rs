//! The iCalendar writer (RFC 5545) and the CSV writer (RFC 4180) of `calendar export`: pure functions
//! over [`Event`]s, no I/O. ICS: CRLF line endings, content lines folded at 75 octets (never inside a
//! UTF-8 character; the continuation's leading space counts), TEXT values escaped (`\\`, `\;`, `\,`,
//! `\n`; other control characters dropped), a VCALENDAR with PRODID and VERSION, each VEVENT with UID,
//! DTSTAMP and DTSTART in UTC. CSV: a header row, CRLF, a field quoted when it holds `"`, `,`, CR or LF.
use serde::Serialize;

/// One scheduled post, as every format writes it.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Event {
    /// Stable per post: its card and platform (a card has one post per platform, spec "Post").
    pub uid: String,
    /// When it goes out, UTC, RFC 3339 (`2026-12-01T09:00:00Z`).
    pub scheduled_at: String,
    pub title: String,
    pub platform: String,
    pub caption: String,
    pub card_id: String,
    pub post_id: String,
    pub format: Option<String>,
    pub account_id: Option<String>,
    pub status: Option<String>,
    /// The card's last change (UTC, RFC 3339): the VEVENT's DTSTAMP, so an unchanged plan exports the
    /// same bytes.
    #[serde(skip)]
    pub stamp: String,
}

/// The CSV columns, in order (the JSON's field names).
pub const CSV_COLUMNS: [&str; 10] = ["uid", "scheduledAt", "title", "platform", "caption", "cardId", "postId", "format", "accountId", "status"];

pub const PRODID: &str = "-//Content Desk//cdesk calendar export//EN";

/// A whole calendar: `name` as X-WR-CALNAME (the name calendar apps give an imported calendar).
pub fn calendar(events: &[Event], name: Option<&str>) -> String {
    let mut out = String::with_capacity(256 + events.len() * 400);
    line(&mut out, "BEGIN:VCALENDAR");
    line(&mut out, "VERSION:2.0");
    line(&mut out, &format!("PRODID:{PRODID}"));
    line(&mut out, "CALSCALE:GREGORIAN");
    if let Some(name) = name {
        line(&mut out, &format!("X-WR-CALNAME:{}", escape(name)));
    }
    for e in events {
        line(&mut out, "BEGIN:VEVENT");
        line(&mut out, &format!("UID:{}", escape(&e.uid)));
        line(&mut out, &format!("DTSTAMP:{}", basic_utc(&e.stamp)));
        line(&mut out, &format!("DTSTART:{}", basic_utc(&e.scheduled_at)));
        line(&mut out, &format!("SUMMARY:{}", escape(&summary(e))));
        if !e.caption.is_empty() {
            line(&mut out, &format!("DESCRIPTION:{}", escape(&e.caption)));
        }
        line(&mut out, &format!("CATEGORIES:{}", escape(&e.platform)));
        line(&mut out, "END:VEVENT");
    }
    line(&mut out, "END:VCALENDAR");
    out
}

/// The card's title and the platform: `Launch teaser (instagram)`.
pub fn summary(e: &Event) -> String {
    format!("{} ({})", e.title, e.platform)
}

/// `2026-12-01T09:00:00Z` (already UTC, whole seconds) as iCalendar's UTC form `20261201T090000Z`.
pub fn basic_utc(rfc3339_utc: &str) -> String {
    let digits: String = rfc3339_utc.chars().take(19).filter(char::is_ascii_digit).collect();
    format!("{}T{}Z", &digits[..8.min(digits.len())], digits.get(8..).unwrap_or(""))
}

/// One content line, folded, with its CRLF.
fn line(out: &mut String, content: &str) {
    fold_into(out, content);
    out.push_str("\r\n");
}

/// `content` folded at 75 octets: a CRLF and one space before the octet that would be the 76th of a
/// line (the space is that line's first octet), never inside a UTF-8 character.
pub fn fold_into(out: &mut String, content: &str) {
    let mut used = 0;
    for ch in content.chars() {
        let n = ch.len_utf8();
        if used + n > 75 {
            out.push_str("\r\n ");
            used = 1;
        }
        out.push(ch);
        used += n;
    }
}

pub fn fold(content: &str) -> String {
    let mut out = String::with_capacity(content.len() + content.len() / 70 * 3);
    fold_into(&mut out, content);
    out
}

/// A TEXT value (RFC 5545 3.3.11): backslash, semicolon, comma and newlines escaped; CR LF, CR and LF
/// each one `\n`; other control characters (not allowed in a content line) dropped, a tab kept.
pub fn escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len() + 8);
    let mut chars = text.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            '\\' => out.push_str("\\\\"),
            ';' => out.push_str("\\;"),
            ',' => out.push_str("\\,"),
            '\r' => {
                if chars.peek() == Some(&'\n') {
                    chars.next();
                }
                out.push_str("\\n");
            }
            '\n' => out.push_str("\\n"),
            '\t' => out.push('\t'),
            c if c.is_control() => {}
            c => out.push(c),
        }
    }
    out
}

/// The events as CSV (RFC 4180): the header row of [`CSV_COLUMNS`], one row per event, CRLF after each.
pub fn csv(events: &[Event]) -> String {
    let mut out = String::with_capacity(128 + events.len() * 300);
    out.push_str(&CSV_COLUMNS.join(","));
    out.push_str("\r\n");
    for e in events {
        let fields: [&str; 10] = [
            &e.uid,
            &e.scheduled_at,
            &e.title,
            &e.platform,
            &e.caption,
            &e.card_id,
            &e.post_id,
            e.format.as_deref().unwrap_or(""),
            e.account_id.as_deref().unwrap_or(""),
            e.status.as_deref().unwrap_or(""),
        ];
        for (i, f) in fields.iter().enumerate() {
            if i > 0 {
                out.push(',');
            }
            csv_field(&mut out, f);
        }
        out.push_str("\r\n");
    }
    out
}

fn csv_field(out: &mut String, f: &str) {
    if f.contains(['"', ',', '\r', '\n']) {
        out.push('"');
        out.push_str(&f.replace('"', "\"\""));
        out.push('"');
    } else {
        out.push_str(f);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn event(title: &str, caption: &str) -> Event {
        Event {
            uid: "c1-instagram@content-desk".into(),
            scheduled_at: "2026-12-01T09:30:00Z".into(),
            title: title.into(),
            platform: "instagram".into(),
            caption: caption.into(),
            card_id: "c1".into(),
            post_id: "p1".into(),
            format: None,
            account_id: None,
            status: None,
            stamp: "2026-11-20T08:00:00Z".into(),
        }
    }

    /// Each line's octets without its CRLF.
    fn lines(ics: &str) -> Vec<&str> {
        assert!(ics.ends_with("\r\n"));
        ics[..ics.len() - 2].split("\r\n").collect()
    }

    #[test]
    fn folding_is_at_exactly_75_octets_and_never_inside_a_character() {
        let a75 = "a".repeat(75);
        assert_eq!(fold(&a75), a75, "75 octets fit on one line");
        assert_eq!(fold(&"a".repeat(76)), format!("{a75}\r\n a"));
        // 74 ASCII then a 3-octet character: 77 octets, the character goes whole to the next line.
        let s = format!("{}€x", "a".repeat(74));
        assert_eq!(fold(&s), format!("{}\r\n €x", "a".repeat(74)));
        // 73 ASCII then "é" (2 octets): exactly 75, one line.
        let s = format!("{}é", "a".repeat(73));
        assert_eq!(fold(&s), s);
        // A long run of 4-octet emoji: every physical line at most 75 octets, unfolding gives it back.
        let long = "🎉".repeat(100);
        let folded = fold(&long);
        let physical: Vec<&str> = folded.split("\r\n").collect();
        assert_eq!(physical.last().map(|l| l.len()), Some(1 + 4 * 10), "18 + 4 x 18 + 10 = 100");
        for (i, l) in physical[..physical.len() - 1].iter().enumerate() {
            assert!(l.len() <= 75, "line {i} has {} octets", l.len());
            if i > 0 {
                assert!(l.starts_with(' '));
                assert_eq!(l.len(), 1 + 4 * 18, "continuation lines: a space and 18 emoji (73 octets; one more would be 77)");
            } else {
                assert_eq!(l.len(), 72, "18 emoji; a 19th would be 76 octets");
            }
        }
        assert_eq!(folded.replace("\r\n ", ""), long);
    }

    #[test]
    fn text_is_escaped_and_controls_dropped() {
        assert_eq!(escape(r"a\b;c,d"), r"a\\b\;c\,d");
        assert_eq!(escape("one\r\ntwo\nthree\rfour"), r"one\ntwo\nthree\nfour");
        assert_eq!(escape("bell\u{7}\ttab"), "bell\ttab");
        assert_eq!(escape("Grüße 🎉"), "Grüße 🎉");
    }

    #[test]
    fn a_calendar_has_crlf_lines_its_header_and_each_events_properties() {
        let ics = calendar(&[event("Launch; day, one", "Line one\nLine two \\ ok")], Some("Plan"));
        assert!(!ics.replace("\r\n", "").contains('\n'), "no bare LF");
        assert!(!ics.replace("\r\n", "").contains('\r'), "no bare CR");
        let l = lines(&ics);
        assert_eq!(&l[..5], ["BEGIN:VCALENDAR", "VERSION:2.0", &format!("PRODID:{PRODID}"), "CALSCALE:GREGORIAN", "X-WR-CALNAME:Plan"]);
        assert!(l.contains(&"UID:c1-instagram@content-desk"));
        assert!(l.contains(&"DTSTAMP:20261120T080000Z"));
        assert!(l.contains(&"DTSTART:20261201T093000Z"));
        assert!(l.contains(&r"SUMMARY:Launch\; day\, one (instagram)"));
        assert!(l.contains(&r"DESCRIPTION:Line one\nLine two \\ ok"));
        assert_eq!(l.last(), Some(&"END:VCALENDAR"));
        let empty = calendar(&[], None);
        assert_eq!(empty, format!("BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:{PRODID}\r\nCALSCALE:GREGORIAN\r\nEND:VCALENDAR\r\n"));
    }

    #[test]
    fn long_captions_are_folded_in_the_calendar() {
        let ics = calendar(&[event("T", &"ü".repeat(200))], None);
        for l in lines(&ics) {
            assert!(l.len() <= 75, "{} octets: {l}", l.len());
        }
        let unfolded = ics.replace("\r\n ", "");
        assert!(unfolded.contains(&format!("DESCRIPTION:{}\r\n", "ü".repeat(200))));
    }

    #[test]
    fn csv_quotes_what_needs_it_and_ends_rows_with_crlf() {
        let text = csv(&[event("Say \"hi\", all", "two\nlines")]);
        let rows: Vec<&str> = text.split_inclusive("\r\n").collect();
        assert_eq!(rows[0], "uid,scheduledAt,title,platform,caption,cardId,postId,format,accountId,status\r\n");
        assert_eq!(rows[1], "c1-instagram@content-desk,2026-12-01T09:30:00Z,\"Say \"\"hi\"\", all\",instagram,\"two\nlines\",c1,p1,,,\r\n");
        assert_eq!(csv(&[]), "uid,scheduledAt,title,platform,caption,cardId,postId,format,accountId,status\r\n");
    }
}
