//! The sandbox's imports have no circle (docs/ARCHITECTURE.md, "Inside the sandbox"), read from its
//! sources. A module is a file or folder of `src/`, and each file or folder of `src/routes/` and
//! `src/tables/` is a module of its own (`routes::cards`, `tables::board`). An edge is a `crate::` path
//! outside a comment (`crate::routes::{a, b}` names both), a `super::` path of a route or table, and a
//! parent's `child::` path (`routes/mod.rs` naming `cards::router`).
use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

#[path = "../../core/tests/layers/circle.rs"]
mod circle;
use circle::find_circle;

/// Folders whose files and folders are modules each.
const SPLIT: &[&str] = &["routes", "tables"];

fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            rust_files(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

/// `src/db.rs` → `db`; `src/oauth/token.rs` → `oauth`; `src/routes/cards/read.rs` → `routes::cards`;
/// `src/routes/mod.rs` → `routes`; `src/main.rs` is the binary, not a module of the library.
fn module_of(src: &Path, file: &Path) -> Option<String> {
    let parts: Vec<String> = file
        .strip_prefix(src)
        .unwrap()
        .components()
        .map(|c| c.as_os_str().to_string_lossy().trim_end_matches(".rs").to_string())
        .collect();
    let first = parts[0].clone();
    if first == "main" {
        return None;
    }
    if SPLIT.contains(&first.as_str()) && parts.len() > 1 && parts[1] != "mod" {
        return Some(format!("{first}::{}", parts[1]));
    }
    Some(first)
}

/// The code of a file without its line and doc comments.
fn code(text: &str) -> String {
    text.lines()
        .map(|l| match l.find("//") {
            Some(i) if !l[..i].ends_with(':') => &l[..i],
            _ => l,
        })
        .collect::<Vec<_>>()
        .join("\n")
}

fn ident(s: &str) -> String {
    s.chars().take_while(|c| c.is_ascii_alphanumeric() || *c == '_').collect()
}

/// The module paths named after each `prefix` in `code`: `a`, and `a::b` for `a::b` and `a::{b, c}`.
fn paths_after(code: &str, prefix: &str) -> BTreeSet<String> {
    let mut out = BTreeSet::new();
    let mut rest = code;
    while let Some(i) = rest.find(prefix) {
        let boundary = i == 0 || !rest[..i].ends_with(|c: char| c.is_ascii_alphanumeric() || c == '_' || c == ':');
        let after = &rest[i + prefix.len()..];
        rest = after;
        if !boundary {
            continue;
        }
        let first = ident(after);
        if first.is_empty() {
            continue;
        }
        let tail = &after[first.len()..];
        let Some(tail) = tail.strip_prefix("::") else {
            out.insert(first);
            continue;
        };
        {
            if let Some(group) = tail.strip_prefix('{') {
                let group = &group[..group.find('}').unwrap_or(group.len())];
                for item in group.split(',') {
                    let second = ident(item.trim());
                    if !second.is_empty() {
                        out.insert(format!("{first}::{second}"));
                    }
                }
            } else {
                let second = ident(tail);
                if second.is_empty() {
                    out.insert(first);
                } else {
                    out.insert(format!("{first}::{second}"));
                }
            }
        }
    }
    out
}

/// The deepest module `path` names (`routes::cards::read_detail` → `routes::cards`).
fn resolve(path: &str, modules: &BTreeSet<String>) -> Option<String> {
    if modules.contains(path) {
        return Some(path.to_string());
    }
    let first = path.split("::").next()?;
    modules.contains(first).then(|| first.to_string())
}

/// module → the modules it names.
fn read_edges() -> BTreeMap<String, BTreeSet<String>> {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut files = Vec::new();
    rust_files(&src, &mut files);
    let modules: BTreeSet<String> = files.iter().filter_map(|f| module_of(&src, f)).collect();
    let mut edges: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    for f in &files {
        let Some(m) = module_of(&src, f) else { continue };
        let code = code(&std::fs::read_to_string(f).unwrap());
        let mut named: Vec<String> = paths_after(&code, "crate::").into_iter().collect();
        let rel = f.strip_prefix(&src).unwrap();
        let depth = rel.components().count();
        let is_mod = rel.file_name().is_some_and(|n| n == "mod.rs");
        if let Some((parent, _)) = m.split_once("::") {
            // `super::` in `routes/x.rs` or `routes/x/mod.rs` is `routes`; deeper, the module itself.
            if depth == 2 || (depth == 3 && is_mod) {
                named.extend(paths_after(&code, "super::").into_iter().map(|p| format!("{parent}::{p}")));
            }
        } else if SPLIT.contains(&m.as_str()) {
            // The parent names its children by their bare names (`cards::router`).
            let prefix = format!("{m}::");
            for child in modules.iter().filter_map(|c| c.strip_prefix(&prefix)) {
                if !paths_after(&code, &format!("{child}::")).is_empty() || code.contains(&format!("{child}::{{")) {
                    named.push(format!("{m}::{child}"));
                }
            }
        }
        let targets: BTreeSet<String> =
            named.iter().filter_map(|p| resolve(p, &modules)).filter(|t| *t != m).collect();
        edges.entry(m).or_default().extend(targets);
    }
    edges
}

#[test]
fn the_sandboxs_imports_have_no_circle() {
    let e = read_edges();
    // The reading itself works: grouped imports, parents naming children, `super::`.
    assert!(e["routes"].contains("routes::cards"), "{:?}", e["routes"]);
    assert!(e["routes::projects"].contains("tables::cards"), "{:?}", e["routes::projects"]);
    assert!(e["routes::cards"].contains("tables::board"), "{:?}", e["routes::cards"]);
    assert!(e["gate"].contains("oauth") && e["gate"].contains("auth"), "{:?}", e["gate"]);
    if let Some(circle) = find_circle(&e) {
        panic!("the sandbox's imports go round: {}", circle.join(" → "));
    }
}

#[test]
fn the_layers_are_where_the_architecture_says() {
    let e = read_edges();
    // The database, the HTML pages, the time and the errors import nothing of the sandbox.
    for leaf in ["db", "pages", "time", "error", "config"] {
        assert!(e[leaf].is_empty(), "{leaf} must stay a leaf: {:?}", e[leaf]);
    }
    // Keys below OAuth, both below the gate that reads either.
    assert!(!e["auth"].contains("oauth"), "auth (keys) imports oauth: {:?}", e["auth"]);
    // No route module imports another; the tables import no route.
    for (m, to) in &e {
        let bad: Vec<&String> = to
            .iter()
            .filter(|t| {
                (m.starts_with("routes::") && t.starts_with("routes"))
                    || (m.starts_with("tables") && t.starts_with("routes"))
            })
            .collect();
        assert!(bad.is_empty(), "{m} imports {bad:?}");
    }
}

#[test]
fn a_circle_is_found_when_there_is_one() {
    let edge = |a: &str, b: &[&str]| (a.to_string(), b.iter().map(|s| s.to_string()).collect::<BTreeSet<_>>());
    let circle: BTreeMap<_, _> = [edge("db", &["routes"]), edge("routes", &["gate"]), edge("gate", &["db"])].into();
    assert_eq!(find_circle(&circle).unwrap(), vec!["db", "routes", "gate", "db"]);
    let line: BTreeMap<_, _> = [edge("routes", &["gate"]), edge("gate", &["db"]), edge("db", &[])].into();
    assert_eq!(find_circle(&line), None);
    assert_eq!(
        paths_after("use crate::routes::{cards, spaces}; crate::db::new_id(); xcrate::y", "crate::"),
        ["db::new_id", "routes::cards", "routes::spaces"].into_iter().map(String::from).collect()
    );
}
