//! The exit codes `cdesk --help` lists are the ones the commands return (issue 26 point 9): the list is
//! read from the help itself (`Exit codes: 0 ok, 1 …`), and each code it names has cases here, each run
//! as a separate process against the real sandbox; a code the help lists without a case here fails, and so
//! does a case that returns another code.
mod desk;

use contentdesk_sandbox::config::{Config, RenderTimes};
use contentdesk_sandbox::testing::TestSandbox;
use desk::Desk;
use std::time::Duration;

/// The codes the help lists, each with its words (`3` → `auth (401, 403, no key…)`).
fn listed(help: &str) -> Vec<(u8, String)> {
    let line = help.lines().find_map(|l| l.strip_prefix("Exit codes: ")).unwrap_or_else(|| panic!("no `Exit codes:` line in: {help}"));
    // "0 ok, 1 error (…), 2 …": a code is a number at the start of the line or after ", ".
    let mut codes = Vec::new();
    let mut rest = line;
    while !rest.is_empty() {
        let digits: String = rest.chars().take_while(char::is_ascii_digit).collect();
        let code: u8 = digits.parse().unwrap_or_else(|_| panic!("`{rest}` does not start with a code"));
        let from = digits.len();
        // Its words run to the next ", N " at depth 0 (commas inside parentheses belong to the words).
        let (mut depth, mut end) = (0i32, rest.len());
        for (i, c) in rest.char_indices().skip(from) {
            match c {
                '(' => depth += 1,
                ')' => depth -= 1,
                ',' if depth == 0 && rest[i + 1..].trim_start().starts_with(|c: char| c.is_ascii_digit()) => {
                    end = i;
                    break;
                }
                _ => {}
            }
        }
        codes.push((code, rest[from..end].trim().trim_end_matches('.').to_string()));
        rest = rest.get(end + 1..).unwrap_or("").trim_start();
    }
    codes
}

#[tokio::test(flavor = "multi_thread")]
async fn every_exit_code_the_help_lists_is_what_its_cases_return() {
    let sb = TestSandbox::start().await;
    let desk = Desk::new(&sb);
    let help = desk.command(&["--help"]).env("COLUMNS", "100000").output().unwrap();
    let listed = listed(&String::from_utf8_lossy(&help.stdout));
    assert_eq!(listed.iter().map(|(c, _)| *c).collect::<Vec<_>>(), (0..=6).collect::<Vec<u8>>(), "{listed:?}");

    let id = |v: serde_json::Value| v["id"].as_str().unwrap().to_string();
    let card = id(desk.run(&["card", "create", "Codes", "--platform", "instagram", "--notes", "first"]).await.ok());
    let rev = desk.run(&["card", "get", &card]).await.ok()["revision"].as_i64().unwrap().to_string();
    desk.run(&["card", "update", &card, "--notes", "second", "--expected-revision", &rev]).await.ok();
    let lone = id(desk.run(&["card", "create", "No account", "--platform", "tiktok", "--posts", r#"[{"platform":"tiktok"}]"#]).await.ok());
    let long = format!(r#"[{{"platform":"x","caption":"{}"}}]"#, "a".repeat(281));
    let too_long = id(desk.run(&["card", "create", "Too long", "--platform", "x", "--posts", &long]).await.ok());
    let csv = desk.path("rows.csv");
    std::fs::write(&csv, "title,stage,platforms\nFine,,x\nBad,,myspace\n").unwrap();
    let csv = csv.to_string_lossy().into_owned();
    let reader = sb.key_with(&["brandkit:read"]);
    // (code, what the case is, its key, its command)
    let cases: Vec<(u8, &str, &str, Vec<&str>)> = vec![
        (0, "a read", &sb.key, vec!["account", "balance"]),
        (0, "auth status with a key", &sb.key, vec!["auth", "status"]),
        (1, "a 404", &sb.key, vec!["card", "get", "no-such-card"]),
        (1, "a publish where every post failed", &sb.key, vec!["card", "publish", &lone]),
        (2, "a usage error (clap)", &sb.key, vec!["card", "create", "Hi"]),
        (2, "a 400", &sb.key, vec!["generate", "image", "a mug", "--aspect", "7:3", "--cost"]),
        (3, "no key", "", vec!["account", "balance"]),
        (3, "auth status without a key", "", vec!["auth", "status"]),
        (3, "a 403 naming the scope", &reader, vec!["card", "create", "Hi", "--platform", "x"]),
        (3, "a 401", "ch_live_not_a_key_of_this_sandbox", vec!["account", "balance"]),
        (5, "a 409: notes on a stale revision", &sb.key, vec!["card", "update", &card, "--notes", "mine", "--expected-revision", &rev]),
        (6, "a card check with a finding that blocks", &sb.key, vec!["card", "check", &too_long]),
        (6, "an import with a row refused", &sb.key, vec!["card", "import", &csv]),
    ];
    let mut wrong = Vec::new();
    for (code, what, key, args) in &cases {
        let r = desk.run_as(key, args).await;
        if r.code != i32::from(*code) {
            wrong.push(format!("{what} (cdesk {}): exit {}, the help says {code}: {}", args.join(" "), r.code, r.stderr.trim()));
        }
    }
    // 4: a render not finished in time, on a sandbox whose renders are slow.
    let slow = TestSandbox::start_with(Config { smart_wait: Duration::from_millis(50), render: RenderTimes::all(Duration::from_secs(30)), ..Config::for_tests() }).await;
    let r = Desk::new(&slow).run(&["generate", "image", "a slow mug", "--timeout", "1"]).await;
    if r.code != 4 {
        wrong.push(format!("a render not finished in time: exit {}, the help says 4: {}", r.code, r.stderr.trim()));
    }
    let covered: Vec<u8> = cases.iter().map(|c| c.0).chain([4]).collect();
    for (code, words) in &listed {
        assert!(covered.contains(code), "the help lists {code} ({words}) and no case here returns it");
    }
    assert!(wrong.is_empty(), "exit codes that are not what the help says:\n{}", wrong.join("\n"));
}

#[test]
fn the_list_is_read_code_by_code() {
    let l = listed("x\nExit codes: 0 ok, 1 error (also a, b), 2 usage or 400, 6 a check.\n");
    assert_eq!(l, vec![(0, "ok".into()), (1, "error (also a, b)".into()), (2, "usage or 400".into()), (6, "a check".into())]);
}
