//! Keeps the "Rules → tests" table of `docs/api.md` honest: every numbered rule of the spec's sections 4 to
//! 8 has a row; every test a row names (`crate/tests/file.rs::test`) exists in that file as a `#[test]` or
//! `#[tokio::test]` function that is not ignored and asserts something; a row that states an error status
//! names at least one test that checks that status; every row names at least one test or says why it is
//! not applicable; and the row count written under the table is the real one.
use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

fn crates_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

/// The lines of the "## Rules → tests" section.
fn section() -> Vec<String> {
    named_section("## Rules → tests")
}

/// The lines of one `## ` section of docs/api.md.
fn named_section(title: &str) -> Vec<String> {
    let path = crates_dir().join("../docs/api.md");
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("read {}: {e}", path.display()));
    let mut lines = text.lines().skip_while(|l| l.trim() != title);
    assert!(lines.next().is_some(), "docs/api.md has no \"{title}\" section");
    lines.take_while(|l| !l.starts_with("## ")).map(str::to_string).collect()
}

/// The table's body rows (header and separator left out).
fn rows(section: &[String]) -> Vec<String> {
    section
        .iter()
        .filter(|l| l.starts_with('|'))
        .skip(2)
        .cloned()
        .collect()
}

/// `crate/tests/file.rs::name` references inside backticks.
fn references(row: &str) -> Vec<(String, String, String)> {
    row.split('`')
        .skip(1)
        .step_by(2)
        .filter_map(|code| {
            let (file, name) = code.split_once("::")?;
            let (krate, file) = file.split_once("/tests/")?;
            let ok = file.ends_with(".rs")
                && !krate.contains('/')
                && !name.is_empty()
                && name.chars().all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '_');
            ok.then(|| (krate.to_string(), file.to_string(), name.to_string()))
        })
        .collect()
}

/// The body of `fn name` in `source` when it is a test that runs (under `#[test]` or `#[tokio::test]`,
/// not `#[ignore]`): the lines from the signature to the closing brace at the signature's indentation.
fn test_body(source: &str, name: &str) -> Option<String> {
    let lines: Vec<&str> = source.lines().collect();
    let start = lines.iter().enumerate().position(|(i, l)| {
        let t = l.trim_start();
        let is_fn = [format!("async fn {name}("), format!("fn {name}(")]
            .iter()
            .any(|p| t.starts_with(p.as_str()));
        let attrs: Vec<&str> = lines[..i]
            .iter()
            .rev()
            .take_while(|p| p.trim_start().starts_with("#[") || p.trim().is_empty())
            .map(|p| p.trim_start())
            .collect();
        is_fn
            && attrs.iter().any(|p| p.starts_with("#[test") || p.starts_with("#[tokio::test"))
            && !attrs.iter().any(|p| p.starts_with("#[ignore"))
    })?;
    let indent = &lines[start][..lines[start].len() - lines[start].trim_start().len()];
    let close = format!("{indent}}}");
    let end = lines[start..].iter().position(|l| l.trim_end() == close).map_or(lines.len(), |e| start + e + 1);
    Some(lines[start..end].join("\n"))
}

fn has_test(source: &str, name: &str) -> bool {
    test_body(source, name).is_some()
}

/// Whether a test body can fail: it asserts, panics, unwraps an expected error or calls a helper whose
/// name says it checks (`assert_…`, `expect_…`, `check_…`).
fn asserts(body: &str) -> bool {
    ["assert", "panic!(", ".expect(", ".expect_err(", ".unwrap_err(", "expect_", "check_", "unreachable!("]
        .iter()
        .any(|a| body.contains(a))
}

/// The words by which a test checks an error status: the number itself or the name the code gives it.
fn status_words(status: &str) -> &'static [&'static str] {
    match status {
        "400" => &["400", "BAD_REQUEST", "Invalid", "Validation"],
        "401" => &["401", "UNAUTHORIZED", "Unauthorized", "Auth"],
        "402" => &["402", "PAYMENT_REQUIRED", "InsufficientCredits", "Credits"],
        "403" => &["403", "FORBIDDEN", "Forbidden", "MissingScope"],
        "404" => &["404", "NOT_FOUND", "NotFound"],
        "409" => &["409", "CONFLICT", "Conflict"],
        "413" => &["413", "PAYLOAD_TOO_LARGE", "TooLarge"],
        "429" => &["429", "TOO_MANY_REQUESTS", "RateLimited"],
        _ => &[],
    }
}

/// Error statuses a row's rule text states (the first two cells, before the tests).
fn stated_statuses(row: &str) -> Vec<String> {
    let rule: String = row.split('|').skip(1).take(2).collect::<Vec<_>>().join(" ");
    let mut found: Vec<String> = rule
        .split(|c: char| !c.is_ascii_digit())
        .filter(|w| w.len() == 3 && w.starts_with('4') && !status_words(w).is_empty())
        .map(str::to_string)
        .collect();
    found.dedup();
    found
}

/// The rules the spec numbers in sections 4 to 8 (written out from `spec/content-production-api-v1.md`),
/// as the first cell of the row that must cover each: `(section label, rule numbers)`. Sections 7 and 8
/// are a table and a list, so their rows are matched by status and by topic.
const SPEC_RULES: &[(&str, &[&str])] = &[
    ("4 Generation", &["1", "2", "3", "4", "5"]),
    ("4 Cards", &["1", "2", "3", "4", "5", "6", "7", "8"]),
    ("4 Sections", &["1", "2", "3", "4", "5", "6", "7", "8"]),
    ("5", &[".1", ".2", ".3", ".4", ".5", ".6", ".7", ".8", ".9"]),
    ("7", &[" 400", " 403", " 404", " 409", " 429"]),
];
const SPEC_UNNUMBERED: &[(&str, &str)] = &[
    ("4 Archive", "card"),
    ("4 Archive", "brand_kit_section"),
    ("4 Projects", "cardId"),
    ("4 Brand kit reads", "summary"),
    ("4 Brand kit reads", "history"),
    ("4 Knowledge", "fileUrl"),
    ("4 Knowledge", "fileData"),
    ("4 Knowledge", "limitReached"),
    ("7", "limitReached"),
    ("8", "rate-limited per key"),
    ("8", "smart-wait"),
    ("8", "plan-limited"),
    ("8", "`full` and `half`"),
];

fn first_cell(row: &str) -> String {
    row.split('|').nth(1).unwrap_or("").trim().to_string()
}

/// Which spec rules have no row.
fn uncovered(rows: &[String]) -> Vec<String> {
    let mut out = Vec::new();
    for (section, numbers) in SPEC_RULES {
        for n in *numbers {
            let label = format!("{section}{}{n}", if n.starts_with(['.', ' ']) { "" } else { " " });
            let hit = rows.iter().any(|r| {
                let c = first_cell(r);
                c == label || c.starts_with(&format!("{label} "))
            });
            if !hit {
                out.push(label);
            }
        }
    }
    for (section, topic) in SPEC_UNNUMBERED {
        let hit = rows.iter().any(|r| {
            let c = first_cell(r);
            (c == *section || c.starts_with(&format!("{section} "))) && r.contains(topic)
        });
        if !hit {
            out.push(format!("{section}: {topic}"));
        }
    }
    out
}

#[test]
fn every_test_the_rules_table_names_exists() {
    let section = section();
    let rows = rows(&section);
    assert!(rows.len() >= 60, "the table has only {} rows", rows.len());
    let gaps = uncovered(&rows);
    assert!(gaps.is_empty(), "spec rules with no row in the table: {gaps:?}");
    let mut missing = BTreeSet::new();
    let mut hollow = BTreeSet::new();
    let mut unchecked_status = Vec::new();
    let mut bare = Vec::new();
    let mut not_applicable = 0;
    let mut named = 0;
    for row in &rows {
        let refs = references(row);
        if row.contains("not applicable") {
            not_applicable += 1;
        } else if refs.is_empty() {
            bare.push(row.clone());
        }
        let mut bodies = Vec::new();
        for (krate, file, name) in refs {
            named += 1;
            let path = crates_dir().join(&krate).join("tests").join(&file);
            let source = std::fs::read_to_string(&path).unwrap_or_default();
            match test_body(&source, &name) {
                None => {
                    missing.insert(format!("{krate}/tests/{file}::{name}"));
                }
                Some(body) if !asserts(&body) => {
                    hollow.insert(format!("{krate}/tests/{file}::{name}"));
                }
                Some(body) => bodies.push(body),
            }
        }
        if !bodies.is_empty() {
            for status in stated_statuses(row) {
                if !bodies.iter().any(|b| status_words(&status).iter().any(|w| b.contains(w))) {
                    unchecked_status.push(format!("{status}: {}", first_cell(row)));
                }
            }
        }
    }
    assert!(named > 100, "only {named} test references");
    assert!(missing.is_empty(), "tests named in docs/api.md that do not exist:\n{}", missing.into_iter().collect::<Vec<_>>().join("\n"));
    assert!(hollow.is_empty(), "tests named in docs/api.md that assert nothing:\n{}", hollow.into_iter().collect::<Vec<_>>().join("\n"));
    assert!(unchecked_status.is_empty(), "rows stating a status that none of their tests checks:\n{}", unchecked_status.join("\n"));
    assert!(bare.is_empty(), "rows that name no test and give no reason:\n{}", bare.join("\n"));
    let summary = format!("Rows: {}, of which {not_applicable} are \"not applicable\"", rows.len());
    assert!(
        section.iter().any(|l| l.starts_with(&summary)),
        "the line under the table should begin: {summary}"
    );
}

/// "Where the sources disagree": every choice is pinned by at least one test that runs and asserts, and
/// the row count under the table is the real one.
#[test]
fn every_choice_where_the_sources_disagree_is_pinned_by_a_real_test() {
    let section = named_section("## Where the sources disagree");
    let rows = rows(&section);
    assert!(rows.len() >= 40, "the table has only {} rows", rows.len());
    let mut problems = Vec::new();
    for row in &rows {
        let last_cell = row.trim_end().trim_end_matches('|').rsplit('|').next().unwrap_or_default();
        let pins: Vec<String> = references(last_cell).into_iter()
            .map(|(krate, file, name)| {
                let source = std::fs::read_to_string(crates_dir().join(&krate).join("tests").join(&file)).unwrap_or_default();
                match test_body(&source, &name) {
                    None => format!("{krate}/tests/{file}::{name} is not a test that runs"),
                    Some(body) if !asserts(&body) => format!("{krate}/tests/{file}::{name} asserts nothing"),
                    Some(_) => String::new(),
                }
            })
            .collect();
        if pins.is_empty() {
            problems.push(format!("pinned by no test: {}", first_cell(row)));
        }
        problems.extend(pins.into_iter().filter(|p| !p.is_empty()));
    }
    assert!(problems.is_empty(), "{}", problems.join("\n"));
    let summary = format!("Rows: {}.", rows.len());
    assert!(section.iter().any(|l| l.trim() == summary), "the line under the table should read: {summary}");
}

#[test]
fn the_checker_tells_a_test_from_a_helper() {
    let source = "#[tokio::test]\nasync fn real() {}\n\nasync fn helper() {}\n#[test]\n#[cfg(unix)]\nfn other() {}\n";
    assert!(has_test(source, "real"));
    assert!(has_test(source, "other"));
    assert!(!has_test(source, "helper"));
    assert!(!has_test(source, "rea"));
    let ignored = "#[test]\n#[ignore]\nfn skipped() {\n    assert!(false);\n}\n";
    assert!(!has_test(ignored, "skipped"), "an ignored test runs nothing");
    let nested = "mod m {\n    #[test]\n    fn t() {\n        let x = 1;\n    }\n    fn after() { assert!(true) }\n}\n";
    let body = test_body(nested, "t").unwrap();
    assert!(!asserts(&body), "the body stops at its own closing brace: {body}");
    assert!(asserts("fn a() {\n    assert_eq!(1, 1);\n}"));
    assert_eq!(stated_statuses("| 4 Cards 4 | two references is 400, else 404 | `x` |"), ["400", "404"]);
    assert!(stated_statuses("| 8 | ours: 600 a minute | `x` |").is_empty());
    let rows = vec!["| 4 Cards 1 | x | |".to_string(), "| 8 | `full` and `half` | |".to_string()];
    let gaps = uncovered(&rows);
    assert!(gaps.contains(&"4 Cards 2".to_string()) && !gaps.contains(&"4 Cards 1".to_string()), "{gaps:?}");
    assert!(gaps.contains(&"5.9".to_string()) && !gaps.iter().any(|g| g.contains("full")), "{gaps:?}");
    let refs = references("| 1 | x | `sandbox/tests/a.rs::b_c`, `api-client/tests/d.rs::e` and `not::this` |");
    assert_eq!(refs.len(), 2);
    assert_eq!(refs[1], ("api-client".into(), "d.rs".into(), "e".into()));
}
