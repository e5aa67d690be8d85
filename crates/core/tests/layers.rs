//! The core's imports have no circle (docs/ARCHITECTURE.md, "Inside the core"): read from its sources, a
//! module is a file of `src/` or a folder of it, and `crate::<module>` anywhere outside a comment is an
//! edge. Only the command layer knows `AppState`; the domain modules take the session.
use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

#[path = "layers/circle.rs"]
mod circle;
use circle::find_circle;

/// The modules that may name `AppState`: the running state itself and the command layer over it.
const COMMAND_LAYER: &[&str] = &["state", "commands", "ipc", "command_table", "lib"];

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

/// `src/studio/poller.rs` → `studio`; `src/drafts.rs` → `drafts`; binaries are not modules of the library.
fn module_of(src: &Path, file: &Path) -> Option<String> {
    let rel = file.strip_prefix(src).unwrap();
    let first = rel.components().next()?.as_os_str().to_string_lossy().into_owned();
    if first == "bin" {
        return None;
    }
    Some(first.trim_end_matches(".rs").to_string())
}

/// The code of a file without its comments (line comments and doc comments; the core has no block ones).
fn code(text: &str) -> String {
    text.lines()
        .map(|l| match l.find("//") {
            Some(i) => &l[..i],
            None => l,
        })
        .collect::<Vec<_>>()
        .join("\n")
}

/// Every `crate::<name>` (and `$crate::<name>`) in `code`.
fn crate_paths(code: &str) -> BTreeSet<String> {
    let mut out = BTreeSet::new();
    let mut rest = code;
    while let Some(i) = rest.find("crate::") {
        let after = &rest[i + "crate::".len()..];
        let name: String = after.chars().take_while(|c| c.is_ascii_alphanumeric() || *c == '_').collect();
        if !name.is_empty() {
            out.insert(name);
        }
        rest = after;
    }
    out
}

struct Sources {
    /// module → the modules it names.
    edges: BTreeMap<String, BTreeSet<String>>,
    /// module → whether its code names `AppState` (ours, not the sandbox's).
    knows_app_state: BTreeMap<String, bool>,
}

fn read_sources() -> Sources {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut files = Vec::new();
    rust_files(&src, &mut files);
    let mut edges: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    let mut knows_app_state = BTreeMap::new();
    let modules: BTreeSet<String> = files.iter().filter_map(|f| module_of(&src, f)).collect();
    for f in &files {
        let Some(m) = module_of(&src, f) else { continue };
        let code = code(&std::fs::read_to_string(f).unwrap());
        let targets = crate_paths(&code).into_iter().filter(|t| modules.contains(t) && *t != m);
        edges.entry(m.clone()).or_default().extend(targets);
        let names_it = code.replace("sandbox::AppState", "").contains("AppState");
        *knows_app_state.entry(m).or_insert(false) |= names_it;
    }
    Sources { edges, knows_app_state }
}

#[test]
fn the_cores_imports_have_no_circle() {
    let s = read_sources();
    // The reading itself works: the command layer reaches the state, the domain modules the session.
    assert!(s.edges["commands"].contains("state"), "{:?}", s.edges["commands"]);
    assert!(s.edges["planner"].contains("session"), "{:?}", s.edges["planner"]);
    if let Some(circle) = find_circle(&s.edges) {
        panic!("the core's imports go round: {}", circle.join(" → "));
    }
}

#[test]
fn only_the_command_layer_knows_app_state() {
    let s = read_sources();
    assert!(s.knows_app_state["state"]);
    let domain: Vec<&String> =
        s.knows_app_state.iter().filter(|(m, knows)| **knows && !COMMAND_LAYER.contains(&m.as_str())).map(|(m, _)| m).collect();
    assert!(domain.is_empty(), "these modules name AppState; give them the session (`session::Session`) instead: {domain:?}");
    // The session itself is a leaf: it names no module but the error type.
    let session: Vec<&String> = s.edges["session"].iter().filter(|m| *m != "error").collect();
    assert!(session.is_empty(), "session.rs must stay a leaf: {session:?}");
}

#[test]
fn a_circle_is_found_when_there_is_one() {
    let edge = |a: &str, b: &[&str]| (a.to_string(), b.iter().map(|s| s.to_string()).collect::<BTreeSet<_>>());
    let circle: BTreeMap<_, _> = [edge("state", &["studio"]), edge("studio", &["planner"]), edge("planner", &["state"])].into();
    assert_eq!(find_circle(&circle).unwrap(), vec!["planner", "state", "studio", "planner"]);
    let line: BTreeMap<_, _> = [edge("state", &["studio"]), edge("studio", &["session"]), edge("session", &[])].into();
    assert_eq!(find_circle(&line), None);
}
