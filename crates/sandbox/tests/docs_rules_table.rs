//! Keeps the "Rules → tests" table of `docs/api.md` honest: every test it names
//! (`crate/tests/file.rs::test`) exists in that file as a `#[test]` or `#[tokio::test]` function, every row
//! names at least one test or says why it is not applicable, and the row count written under the table is
//! the real one.
use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

fn crates_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

/// The lines of the "## Rules → tests" section.
fn section() -> Vec<String> {
    let path = crates_dir().join("../docs/api.md");
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("read {}: {e}", path.display()));
    let mut lines = text.lines().skip_while(|l| l.trim() != "## Rules → tests");
    assert!(lines.next().is_some(), "docs/api.md has no \"## Rules → tests\" section");
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

/// Whether `source` has `fn name(` under a test attribute.
fn has_test(source: &str, name: &str) -> bool {
    let lines: Vec<&str> = source.lines().collect();
    lines.iter().enumerate().any(|(i, l)| {
        let l = l.trim_start();
        let is_fn = [format!("async fn {name}("), format!("fn {name}(")]
            .iter()
            .any(|p| l.starts_with(p.as_str()));
        is_fn
            && lines[..i]
                .iter()
                .rev()
                .take_while(|p| p.trim_start().starts_with("#[") || p.trim().is_empty())
                .any(|p| {
                    let p = p.trim_start();
                    p.starts_with("#[test") || p.starts_with("#[tokio::test")
                })
    })
}

#[test]
fn every_test_the_rules_table_names_exists() {
    let section = section();
    let rows = rows(&section);
    assert!(rows.len() >= 60, "the table has only {} rows", rows.len());
    let mut missing = BTreeSet::new();
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
        for (krate, file, name) in refs {
            named += 1;
            let path = crates_dir().join(&krate).join("tests").join(&file);
            let source = std::fs::read_to_string(&path).unwrap_or_default();
            if !has_test(&source, &name) {
                missing.insert(format!("{krate}/tests/{file}::{name}"));
            }
        }
    }
    assert!(named > 100, "only {named} test references");
    assert!(missing.is_empty(), "tests named in docs/api.md that do not exist:\n{}", missing.into_iter().collect::<Vec<_>>().join("\n"));
    assert!(bare.is_empty(), "rows that name no test and give no reason:\n{}", bare.join("\n"));
    let summary = format!("Rows: {}, of which {not_applicable} are \"not applicable\"", rows.len());
    assert!(
        section.iter().any(|l| l.starts_with(&summary)),
        "the line under the table should begin: {summary}"
    );
}

#[test]
fn the_checker_tells_a_test_from_a_helper() {
    let source = "#[tokio::test]\nasync fn real() {}\n\nasync fn helper() {}\n#[test]\n#[ignore]\nfn other() {}\n";
    assert!(has_test(source, "real"));
    assert!(has_test(source, "other"));
    assert!(!has_test(source, "helper"));
    assert!(!has_test(source, "rea"));
    let refs = references("| 1 | x | `sandbox/tests/a.rs::b_c`, `api-client/tests/d.rs::e` and `not::this` |");
    assert_eq!(refs.len(), 2);
    assert_eq!(refs[1], ("api-client".into(), "d.rs".into(), "e".into()));
}
