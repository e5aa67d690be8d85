//! Every example a help page shows, run (issue 26 point 9). The examples are found mechanically in the
//! catalogue's texts as the shell shows them (`contentdesk_ops::examples`: backticked forms after `e.g.`),
//! and in the help pages of cdesk's own commands (`cdesk <command> --help`): a flag's example runs as
//! `cdesk <command> <what the command needs> --flag EXAMPLE`, a `cdesk …` example as written. Each runs
//! as a separate process against the real sandbox over HTTP with a key in the environment (as the
//! other CLI tests), and must exit 0. A placeholder (`CARD_ID`, `contentdesk_ops::PLACEHOLDERS`) is
//! replaced by a record this test made. A new example that does not run fails this test; one written
//! another way fails `crates/ops/tests/texts.rs` (every_example_is_written_as_one…).
mod desk;

use contentdesk_ops::{catalogue, examples, PLACEHOLDERS};
use contentdesk_sandbox::testing::TestSandbox;
use desk::Desk;
use serde_json::Value;
use std::collections::BTreeMap;

/// What a command needs besides the flag an example shows (its required arguments, a project for a
/// placement), by tool. A command with an example and no line here runs with nothing else.
const NEEDS: &[(&str, &[&str])] = &[
    ("create_card", &["Example card", "--platform", "x"]),
    ("update_card", &["CARD_ID"]),
    ("repeat_card", &["CARD_ID", "--every", "1w", "--count", "1"]),
    ("export_calendar", &["--from", "2026-11-01", "--to", "2027-03-01"]),
    ("generate_image", &["a mug on a desk", "--project", "PROJECT_ID"]),
    ("generate_video", &["the mug turns", "--project", "PROJECT_ID"]),
    ("generate_audio", &["--prompt", "a short jingle", "--project", "PROJECT_ID"]),
    ("generate_lip_sync", &["--image", "OUTPUT_ID-1", "--audio", "https://example.com/voice.mp3", "--audio-duration", "3"]),
    ("upload_media", &["FILE"]),
];

/// A flag an example gives that takes the place of another the command needs (`--until` for `--count`).
const INSTEAD: &[(&str, &str, &str)] = &[("repeat_card", "until", "count")];

/// The records the placeholders stand for, made in the sandbox.
async fn fixtures(desk: &Desk) -> BTreeMap<&'static str, String> {
    let id = |v: &Value| v["id"].as_str().unwrap_or_else(|| panic!("an id: {v}")).to_string();
    let mut f = BTreeMap::new();
    f.insert("SPACE_ID", id(&desk.run(&["space", "create", "Examples"]).await.ok()));
    let stages = desk.run(&["stage", "list"]).await.ok();
    f.insert("STAGE_ID", id(&stages["stages"][0]));
    // The tag the examples name (`launch`): the demo's own when it has one.
    let tags = desk.run(&["tag", "list"]).await.ok();
    let launch = tags.as_array().and_then(|t| t.iter().find(|t| t["name"] == "launch")).cloned();
    let launch = match launch {
        Some(t) => t,
        None => desk.run(&["tag", "create", "launch"]).await.ok(),
    };
    f.insert("TAG_ID", id(&launch));
    let accounts = desk.run(&["connected-account", "list"]).await.ok();
    let x = accounts.as_array().and_then(|a| a.iter().find(|a| a["platform"] == "x")).unwrap_or_else(|| panic!("an X account: {accounts}"));
    f.insert("ACCOUNT_ID", id(x));
    let card = desk.run(&["card", "create", "Examples' card", "--platform", "x", "--scheduled-at", "2027-02-01T09:30:00Z"]).await.ok();
    f.insert("CARD_ID", id(&card));
    f.insert("PROJECT_ID", id(&desk.run(&["project", "create", "--title", "Examples"]).await.ok()));
    f.insert("CANVAS_ID", id(&desk.run(&["project", "create", "--type", "canvas", "--title", "Example slides"]).await.ok()));
    let render = desk.run(&["generate", "image", "a mug"]).await.ok();
    f.insert("OUTPUT_ID", render["outputId"].as_str().unwrap_or_else(|| panic!("an outputId: {render}")).to_string());
    let png = desk.path("example.png");
    std::fs::write(&png, PNG).unwrap();
    f.insert("FILE", png.to_string_lossy().into_owned());
    for (p, _) in PLACEHOLDERS {
        assert!(f.contains_key(p), "no record for the placeholder {p}");
    }
    f
}

/// A 1x1 PNG.
const PNG: &[u8] = &[
    0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 0x0d, 0x49, 0x48, 0x44, 0x52, 0, 0, 0, 1, 0, 0, 0, 1, 8, 6, 0, 0, 0, 0x1f, 0x15, 0xc4,
    0x89, 0, 0, 0, 0x0d, 0x49, 0x44, 0x41, 0x54, 0x78, 0x9c, 0x63, 0xf8, 0xcf, 0xc0, 0xf0, 0x1f, 0, 0x05, 0, 0x01, 0xff, 0x89, 0x99, 0x3d, 0x1d, 0,
    0, 0, 0, 0x49, 0x45, 0x4e, 0x44, 0xae, 0x42, 0x60, 0x82,
];

/// `text` with each placeholder replaced by its record.
fn fill(text: &str, f: &BTreeMap<&str, String>) -> String {
    // Longest first: FILE is not inside another, but PROJECT_ID must not be cut by a shorter one.
    let mut keys: Vec<&&str> = f.keys().collect();
    keys.sort_by_key(|k| std::cmp::Reverse(k.len()));
    keys.into_iter().fold(text.to_string(), |t, k| t.replace(*k, &f[*k]))
}

/// A command line as a shell splits it (single and double quotes; no expansions).
fn words(line: &str) -> Vec<String> {
    let (mut out, mut word, mut quote, mut any) = (Vec::new(), String::new(), None, false);
    for c in line.chars() {
        match (quote, c) {
            (None, '\'' | '"') => (quote, any) = (Some(c), true),
            (Some(q), c) if c == q => quote = None,
            (None, c) if c.is_whitespace() => {
                if any {
                    out.push(std::mem::take(&mut word));
                }
                any = false;
            }
            (_, c) => (word.push(c), any = true).1,
        }
    }
    if any {
        out.push(word);
    }
    out
}

/// One example to run: where it was shown and the command line.
struct Case {
    shown: String,
    args: Vec<String>,
}

/// Every example of the catalogue's help, as the command lines that run them.
fn catalogue_cases(f: &BTreeMap<&str, String>) -> Vec<Case> {
    let mut cases = Vec::new();
    for e in catalogue() {
        let command = e.command();
        let needs: Vec<String> = NEEDS.iter().find(|(t, _)| *t == e.meta.tool).map(|(_, n)| n.iter().map(|s| s.to_string()).collect()).unwrap_or_default();
        let mut texts: Vec<(Option<&clap::Arg>, String)> = command.get_after_help().map(|h| (None, h.to_string())).into_iter().collect();
        for a in command.get_arguments() {
            texts.extend([a.get_help(), a.get_long_help()].into_iter().flatten().map(|h| (Some(a), h.to_string())));
        }
        for (arg, text) in texts {
            for x in examples(&text) {
                let shown = format!("cdesk {} {}: `{x}`", e.meta.command(), arg.map(|a| format!("--{}", a.get_id())).unwrap_or_default());
                let mut args: Vec<String> = Vec::new();
                if let Some(line) = x.strip_prefix("cdesk ") {
                    args.extend(words(&fill(line, f)));
                    cases.push(Case { shown, args });
                    continue;
                }
                let arg = arg.unwrap_or_else(|| panic!("{shown}: an example outside a flag's help is a whole `cdesk …` line"));
                let Some(long) = arg.get_long() else { panic!("{shown}: an example for a positional argument: write it as a whole `cdesk …` line") };
                args.extend(e.meta.path.iter().map(|s| s.to_string()));
                let mut need = needs.clone();
                // The flag the example shows takes the place of the same flag (or the one it stands in for).
                let dropped: Vec<&str> = std::iter::once(long).chain(INSTEAD.iter().filter(|(t, given, _)| *t == e.meta.tool && *given == long).map(|(_, _, d)| *d)).collect();
                for d in dropped {
                    if let Some(i) = need.iter().position(|w| *w == format!("--{d}")) {
                        need.drain(i..i + 2);
                    }
                }
                // A canvas placement goes on a canvas.
                let project = if x.contains("slideIndex") { "CANVAS_ID" } else { "PROJECT_ID" };
                args.extend(need.iter().map(|w| fill(&w.replace("PROJECT_ID", project), f)));
                args.push(format!("--{long}"));
                args.push(fill(&x, f));
                cases.push(Case { shown, args });
            }
        }
    }
    cases
}

#[tokio::test(flavor = "multi_thread")]
async fn every_example_the_help_shows_runs() {
    let sb = TestSandbox::start().await;
    let desk = Desk::new(&sb);
    let f = fixtures(&desk).await;
    let mut cases = catalogue_cases(&f);
    // cdesk's own commands (not from the catalogue): their help pages as printed, one line each.
    for page in [&["--help"][..], &["schema", "--help"], &["completions", "--help"], &["mcp", "--help"], &["login", "--help"], &["version", "--help"], &["backup", "create", "--help"], &["backup", "restore", "--help"], &["auth", "status", "--help"]] {
        let help = desk.command(page).env("COLUMNS", "100000").output().expect("cdesk runs");
        let text = String::from_utf8_lossy(&help.stdout).into_owned();
        assert!(help.status.success() && !text.is_empty(), "cdesk {page:?}: {text}");
        for x in examples(&text) {
            let line = x.strip_prefix("cdesk ").unwrap_or_else(|| panic!("cdesk {page:?}: the example `{x}` is not a whole `cdesk …` line"));
            cases.push(Case { shown: format!("cdesk {}: `{x}`", page.join(" ")), args: words(&fill(line, &f)) });
        }
    }
    assert!(cases.len() > 20, "only {} examples found", cases.len());
    let mut failed = Vec::new();
    for case in &cases {
        let args: Vec<&str> = case.args.iter().map(String::as_str).collect();
        let run = desk.run(&args).await;
        if run.code != 0 {
            failed.push(format!("{}\n  ran: cdesk {}\n  exit {}: {}", case.shown, case.args.join(" "), run.code, run.stderr.trim()));
        }
    }
    println!("{} examples run", cases.len());
    assert!(failed.is_empty(), "{} of {} examples the help shows fail:\n{}", failed.len(), cases.len(), failed.join("\n"));
}

#[tokio::test(flavor = "multi_thread")]
async fn a_date_alone_is_midnight_in_this_computers_time_zone() {
    // What a creator typing `--scheduled-at 2027-02-01` at their desk means (agents' dates stay UTC:
    // tests/mcp/test_examples.py). A zone 3 h ahead of UTC (POSIX TZ, no zone files needed), and one with
    // daylight saving, whose offset on that date is not today's.
    let sb = TestSandbox::start().await;
    let desk = Desk::new(&sb);
    for (tz, date, start) in [("<+03>-3", "2027-02-01", "2027-01-31T21:00:00"), ("EST5EDT,M3.2.0,M11.1.0", "2027-07-01", "2027-07-01T04:00:00"), ("EST5EDT,M3.2.0,M11.1.0", "2027-02-01", "2027-02-01T05:00:00")] {
        let out = desk.command(&["card", "create", "Local day", "--platform", "x", "--posts", r#"[{"platform":"x"}]"#, "--scheduled-at", date]).env("TZ", tz).env("CONTENTHERO_API_KEY", &sb.key).output().unwrap();
        assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
        let card: Value = serde_json::from_slice(&out.stdout).unwrap();
        assert!(card["scheduledAt"].as_str().unwrap().starts_with(start), "TZ={tz} {date}: {card}");
        // The calendar's window reads a date the same way: the card is in its own local day.
        let next = time_next(date);
        let cal = desk.command(&["calendar", "export", "--format", "json", "--from", date, "--to", &next]).env("TZ", tz).env("CONTENTHERO_API_KEY", &sb.key).output().unwrap();
        let events: Value = serde_json::from_slice(&cal.stdout).unwrap_or_else(|_| panic!("{}", String::from_utf8_lossy(&cal.stderr)));
        assert!(events.to_string().contains(card["id"].as_str().unwrap()), "TZ={tz}: {date}'s window holds the card: {events}");
    }
}

/// The day after a `YYYY-MM-DD` date.
fn time_next(date: &str) -> String {
    let d = time::Date::parse(date, time::macros::format_description!("[year]-[month]-[day]")).unwrap();
    d.next_day().unwrap().to_string()
}
