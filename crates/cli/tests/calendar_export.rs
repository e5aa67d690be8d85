//! `cdesk calendar export` as a separate process against the real sandbox over HTTP: a space of its own
//! with cards and posts made through the API in the test, exported as ICS, CSV and JSON and read back
//! field by field. ICS: CRLF only, no physical line over 75 octets, unfolded and unescaped it gives the
//! titles, platforms and captions back; a stable UID per post and byte-identical output across two
//! exports; DTSTART in UTC at the post's own time else its card's; `--to` not included. CSV parsed back
//! (RFC 4180) equals the JSON. An empty window, `--to` before `--from`, `--output FILE`.
mod desk;

use contentdesk_sandbox::testing::TestSandbox;
use desk::Desk;
use serde_json::{json, Value};
use std::collections::BTreeMap;

/// Unfolds an ICS and splits it into (name, value) content lines; asserts CRLF only and 75 octets.
fn content_lines(ics: &str) -> Vec<(String, String)> {
    assert!(ics.ends_with("\r\n"), "ends with CRLF");
    let body = &ics[..ics.len() - 2];
    for (i, l) in body.split("\r\n").enumerate() {
        assert!(!l.contains('\n') && !l.contains('\r'), "line {i}: a bare CR or LF: {l:?}");
        assert!(l.len() <= 75, "line {i} has {} octets: {l:?}", l.len());
    }
    body.replace("\r\n ", "")
        .split("\r\n")
        .map(|l| {
            let (name, value) = l.split_once(':').unwrap_or_else(|| panic!("not a content line: {l}"));
            (name.to_string(), value.to_string())
        })
        .collect()
}

/// A TEXT value unescaped.
fn unescape(v: &str) -> String {
    let mut out = String::new();
    let mut chars = v.chars();
    while let Some(c) = chars.next() {
        if c == '\\' {
            match chars.next() {
                Some('n') | Some('N') => out.push('\n'),
                Some(other) => out.push(other),
                None => panic!("a lone backslash ends {v:?}"),
            }
        } else {
            assert!(c != ';' && c != ',', "an unescaped {c:?} in a TEXT value: {v:?}");
            out.push(c);
        }
    }
    out
}

/// The VEVENTs, each as its properties.
fn vevents(ics: &str) -> Vec<BTreeMap<String, String>> {
    let lines = content_lines(ics);
    assert_eq!(lines.first().map(|(n, v)| (n.as_str(), v.as_str())), Some(("BEGIN", "VCALENDAR")));
    assert_eq!(lines.last().map(|(n, v)| (n.as_str(), v.as_str())), Some(("END", "VCALENDAR")));
    assert!(lines.iter().any(|(n, v)| n == "VERSION" && v == "2.0"));
    assert!(lines.iter().any(|(n, _)| n == "PRODID"));
    let mut events = Vec::new();
    let mut at: Option<BTreeMap<String, String>> = None;
    for (name, value) in lines {
        match (name.as_str(), value.as_str()) {
            ("BEGIN", "VEVENT") => at = Some(BTreeMap::new()),
            ("END", "VEVENT") => events.push(at.take().expect("an open VEVENT")),
            _ => {
                if let Some(e) = at.as_mut() {
                    assert!(e.insert(name.clone(), value).is_none(), "{name} twice in one VEVENT");
                }
            }
        }
    }
    events
}

/// RFC 4180 records (quoted fields with doubled quotes, CRLF row ends).
fn csv_records(text: &str) -> Vec<Vec<String>> {
    let (mut rows, mut row, mut field) = (Vec::new(), Vec::new(), String::new());
    let mut chars = text.chars().peekable();
    let mut quoted = false;
    while let Some(c) = chars.next() {
        match (quoted, c) {
            (true, '"') if chars.peek() == Some(&'"') => {
                chars.next();
                field.push('"');
            }
            (true, '"') => quoted = false,
            (true, c) => field.push(c),
            (false, '"') if field.is_empty() => quoted = true,
            (false, ',') => row.push(std::mem::take(&mut field)),
            (false, '\r') => {
                assert_eq!(chars.next(), Some('\n'), "a row ends with CRLF");
                row.push(std::mem::take(&mut field));
                rows.push(std::mem::take(&mut row));
            }
            (false, c) => {
                assert!(c != '\n', "a bare LF outside quotes");
                field.push(c);
            }
        }
    }
    assert!(field.is_empty() && row.is_empty(), "the last row ends with CRLF");
    rows
}

fn text(v: &Value) -> String {
    v.as_str().unwrap_or_else(|| panic!("a string: {v}")).to_string()
}

#[tokio::test(flavor = "multi_thread")]
async fn export_writes_one_event_per_scheduled_post_in_each_format() {
    let sb = TestSandbox::start().await;
    let desk = Desk::new(&sb);
    let space = text(&desk.run(&["space", "create", "Export plan"]).await.ok()["id"]);
    let caption = "Line one; with, commas\nLine two \\ a backslash, Grüße and emoji 🎉🎉 and a long tail that runs well past seventy-five octets";
    let posts = json!([
        { "platform": "instagram", "platformSpecificData": { "caption": caption } },
        { "platform": "x", "scheduledAt": "2026-12-02T10:00:00+02:00", "platformSpecificData": { "caption": "own time" } },
        { "platform": "tiktok", "scheduledAt": "2027-01-01T00:00:00Z" }
    ])
    .to_string();
    let launch = text(
        &desk.run(&["card", "create", "Launch; day, one", "--platform", "instagram", "--space", &space, "--scheduled-at", "2026-12-01T00:00:00Z", "--posts", &posts]).await.ok()["id"],
    );
    let later_posts = json!([{ "platform": "youtube", "platformSpecificData": { "caption": "later" } }]).to_string();
    let later = text(&desk.run(&["card", "create", "Next year", "--platform", "youtube", "--space", &space, "--scheduled-at", "2027-02-01T09:00:00Z", "--posts", &later_posts]).await.ok()["id"]);
    // A card with a time and no posts, and one with posts and no time: neither is an event.
    desk.run(&["card", "create", "No posts", "--platform", "x", "--space", &space, "--scheduled-at", "2026-12-05T09:00:00Z"]).await.ok();
    desk.run(&["card", "create", "No time", "--platform", "x", "--space", &space, "--posts", r#"[{"platform":"x"}]"#]).await.ok();

    let window = ["--from", "2026-12-01", "--to", "2027-01-01T00:00:00Z", "--space", space.as_str()];
    let export = |format: &'static str| {
        let mut args = vec!["calendar", "export", "--format", format];
        args.extend(window);
        args
    };

    // ICS.
    let first = desk.run(&export("ics")).await;
    assert_eq!((first.code, first.stderr.as_str()), (0, ""), "piped: quiet on success");
    let events = vevents(&first.stdout);
    let got: Vec<(&str, &str, &str)> = events.iter().map(|e| (e["UID"].as_str(), e["DTSTART"].as_str(), e["SUMMARY"].as_str())).collect();
    let (ig, x) = (format!("{launch}-instagram@content-desk"), format!("{launch}-x@content-desk"));
    assert_eq!(
        got,
        [(ig.as_str(), "20261201T000000Z", r"Launch\; day\, one (instagram)"), (x.as_str(), "20261202T080000Z", r"Launch\; day\, one (x)")],
        "the card's time for instagram (at --from: included), the post's own for x (in UTC), tiktok at --to left out, next year's card left out"
    );
    assert_eq!(unescape(&events[0]["DESCRIPTION"]), caption);
    assert_eq!(unescape(&events[1]["DESCRIPTION"]), "own time");
    for e in &events {
        assert!(e["DTSTAMP"].ends_with('Z') && e["DTSTAMP"].len() == 16, "{e:?}");
    }
    let second = desk.run(&export("ics")).await;
    assert_eq!(second.stdout, first.stdout, "an unchanged plan exports the same bytes (stable UIDs and stamps)");

    // A whole year: next year's card appears, with its own UID; the earlier UIDs do not change.
    let wide = desk.run(&["calendar", "export", "--from", "2026-01-01", "--to", "2028-01-01", "--space", &space]).await;
    let uids: Vec<String> = vevents(&wide.stdout).iter().map(|e| e["UID"].clone()).collect();
    assert_eq!(uids, [ig.clone(), x.clone(), format!("{launch}-tiktok@content-desk"), format!("{later}-youtube@content-desk")]);

    // JSON and CSV: the same events.
    let json_run = desk.run(&export("json")).await;
    let events_json: Value = json_run.ok();
    let rows = events_json.as_array().expect("an array of events");
    assert_eq!(rows.len(), 2);
    assert_eq!(rows[0]["uid"], ig.as_str());
    assert_eq!((rows[0]["title"].as_str(), rows[0]["platform"].as_str(), rows[0]["caption"].as_str()), (Some("Launch; day, one"), Some("instagram"), Some(caption)));
    assert_eq!((rows[1]["scheduledAt"].as_str(), rows[1]["cardId"].as_str()), (Some("2026-12-02T08:00:00Z"), Some(launch.as_str())));
    let csv_run = desk.run(&export("csv")).await;
    assert_eq!((csv_run.code, csv_run.stderr.as_str()), (0, ""));
    let records = csv_records(&csv_run.stdout);
    let header = &records[0];
    assert_eq!(header.join(","), "uid,scheduledAt,title,platform,caption,cardId,postId,format,accountId,status");
    assert_eq!(records.len(), 3);
    for (record, row) in records[1..].iter().zip(rows) {
        for (name, value) in header.iter().zip(record) {
            assert_eq!(value.as_str(), row[name].as_str().unwrap_or(""), "{name}");
        }
    }

    // --output FILE: the same bytes in the file, nothing on stdout.
    let file = desk.path("plan.ics");
    let mut args = export("ics");
    let file_arg = file.display().to_string();
    args.extend(["--output", file_arg.as_str()]);
    let written = desk.run(&args).await;
    assert_eq!((written.code, written.stdout.as_str()), (0, ""), "{}", written.stderr);
    assert_eq!(std::fs::read_to_string(&file).unwrap(), first.stdout);

    // --verbose: progress and what was written on stderr, never on stdout.
    let mut args = export("ics");
    args.push("--verbose");
    let verbose = desk.run(&args).await;
    assert_eq!(verbose.stdout, first.stdout);
    assert!(verbose.stderr.contains("fetched 4 of 4"), "the listing's pages: {}", verbose.stderr);
    assert!(verbose.stderr.contains("fetched 3 of 3"), "the cards with posts read: {}", verbose.stderr);
    assert!(verbose.stderr.contains("2 events from 2026-12-01T00:00:00Z to 2027-01-01T00:00:00Z (not included) in space Export plan written"), "{}", verbose.stderr);
}

#[tokio::test(flavor = "multi_thread")]
async fn an_empty_window_is_a_valid_empty_calendar_and_a_backward_one_is_refused() {
    let sb = TestSandbox::start().await;
    let desk = Desk::new(&sb);
    let empty = desk.run(&["calendar", "export", "--from", "2001-01-01", "--to", "2001-02-01"]).await;
    assert_eq!(empty.code, 0, "{}", empty.stderr);
    assert!(vevents(&empty.stdout).is_empty());
    assert!(empty.stderr.starts_with("note: no scheduled posts from 2001-01-01T00:00:00Z"), "{}", empty.stderr);
    let csv = desk.run(&["calendar", "export", "--format", "csv", "--from", "2001-01-01", "--to", "2001-02-01"]).await;
    assert_eq!(csv_records(&csv.stdout).len(), 1, "the header alone");

    let refused = desk.run(&["calendar", "export", "--from", "2026-12-01", "--to", "2026-11-01"]).await.fails(2);
    assert_eq!(refused["field"], "to");
    assert!(text(&refused["error"]).contains("--to 2026-11-01T00:00:00Z is not after --from"), "{refused}");
    let bad = desk.run(&["calendar", "export", "--from", "tomorrow", "--to", "2026-11-01"]).await.fails(2);
    assert_eq!(bad["field"], "from", "{bad}");
    assert!(text(&bad["error"]).contains("is not a date or a time"), "{bad}");
    // --help says what a date means.
    let help = desk.run(&["calendar", "export", "--help"]).await;
    assert!(help.stdout.contains("00:00 local time") && help.stdout.contains("not included") && help.stdout.contains("--output"), "{}", help.stdout);
}
