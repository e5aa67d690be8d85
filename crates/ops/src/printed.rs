//! What `cdesk --json` prints of a reply: the part the official CLI prints, numbers as the service sent them.
use crate::*;

/// Where the official CLI prints a part of the reply rather than the reply itself: the list inside the
/// service's envelope (`{"tags": […]}` → `[…]`), the record inside a wrapper (`{"project": {…}}` → `{…}`).
/// The official client unwraps these (contenthero-sdk 0.3.4, `packages/sdk/src/client.ts`); `cdesk --json`
/// prints the same ([`Entry::printed`]), so a script written for the official CLI (`… | jq '.[].name'`)
/// runs on cdesk. The lists cdesk has and the official CLI does not (cards, spaces, tracked accounts)
/// follow the same rule; a reply that is more than a list (`stage list`: the space and its
/// stages) is printed whole. `cdesk --envelope` prints every reply whole; agents get the whole reply.
pub(crate) const PRINTED_PART: &[(&str, &str)] = &[
    ("list_tags", "tags"),
    ("list_projects", "projects"),
    ("get_project", "project"),
    ("create_project", "project"),
    ("import_project", "project"),
    ("list_connected_accounts", "accounts"),
    ("list_brand_kits", "brandKits"),
    ("list_media", "media"),
    ("list_voices", "voices"),
    ("list_cards", "cards"),
    ("list_spaces", "spaces"),
    ("list_accounts", "accounts"),
];

/// What the shell prints of a reply ([`Entry::printed`]).
#[derive(Debug, Clone, PartialEq)]
pub struct Printed {
    /// What goes to stdout: the part the official CLI prints, or the whole reply.
    pub data: Value,
    /// The rest of a list's envelope when it says there is more (`hasMore`, `total`, …): for the shell to
    /// say on stderr, never in `data`.
    pub paging: Option<serde_json::Map<String, Value>>,
}

/// A JSON value with its numbers written as JavaScript writes them (the official CLI is Node: every number
/// a double, `500.0` printed `500`): an integral float becomes an integer. What the service sent as `500`
/// and a typed read held as `f64` prints `500` again.
pub fn js_numbers(value: Value) -> Value {
    match value {
        Value::Number(n) if n.is_f64() => match n.as_f64() {
            // Integers a double holds exactly (|x| < 2^53).
            Some(f) if f.fract() == 0.0 && f.abs() < 9_007_199_254_740_992.0 => Value::from(f as i64),
            _ => Value::Number(n),
        },
        Value::Array(a) => Value::Array(a.into_iter().map(js_numbers).collect()),
        Value::Object(o) => Value::Object(o.into_iter().map(|(k, v)| (k, js_numbers(v))).collect()),
        other => other,
    }
}
