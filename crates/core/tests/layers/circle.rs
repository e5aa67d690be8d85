//! Finding a circle in an import graph: shared by the core's and the sandbox's `tests/layers.rs` (the
//! sandbox's includes this file with `#[path]`), so both layer checks walk the graph the same way.

use std::collections::{BTreeMap, BTreeSet};

/// A circle through `edges`, as the path of modules, when there is one.
pub fn find_circle(edges: &BTreeMap<String, BTreeSet<String>>) -> Option<Vec<String>> {
    fn visit(
        m: &str,
        edges: &BTreeMap<String, BTreeSet<String>>,
        path: &mut Vec<String>,
        done: &mut BTreeSet<String>,
    ) -> Option<Vec<String>> {
        if let Some(i) = path.iter().position(|p| p == m) {
            let mut circle = path[i..].to_vec();
            circle.push(m.to_string());
            return Some(circle);
        }
        if done.contains(m) {
            return None;
        }
        path.push(m.to_string());
        for next in edges.get(m).into_iter().flatten() {
            if let Some(c) = visit(next, edges, path, done) {
                return Some(c);
            }
        }
        path.pop();
        done.insert(m.to_string());
        None
    }
    let mut done = BTreeSet::new();
    edges.keys().find_map(|m| visit(m, edges, &mut Vec::new(), &mut done))
}
