//! Help texts written once for both faces (`{shell: …}` / `{agent: …}` parts, a command in backticks read
//! as its tool for agents) and the schema touches each face needs.
use crate::by_path;
use serde_json::Value;

/// A text written for both faces, as one face reads it. `{shell: …}` is for the shell only (flags,
/// `@file`, exit codes), `{agent: …}` for agent tools only (properties); each face keeps its own part's
/// words and drops the other's (with the space before it).
pub fn face_text(text: &str, shell: bool) -> String {
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(start) = rest.find('{') {
        let (before, from) = rest.split_at(start);
        let tag = ["{shell: ", "{agent: "].into_iter().find(|t| from.starts_with(t));
        let Some(tag) = tag else {
            out.push_str(before);
            out.push('{');
            rest = &from[1..];
            continue;
        };
        // The marked part ends at its matching brace (JSON inside it keeps its own braces).
        let body = &from[tag.len()..];
        let mut depth = 0usize;
        let end = body.char_indices().find(|&(_, c)| match c {
            '{' => {
                depth += 1;
                false
            }
            '}' if depth == 0 => true,
            '}' => {
                depth -= 1;
                false
            }
            _ => false,
        });
        let Some((end, _)) = end else {
            out.push_str(rest);
            return out;
        };
        let kept = (tag == "{shell: ") == shell;
        // A dropped part takes the space before it with it, unless the other face's part follows at
        // once and stands in its place (`give {shell: --script}{agent: script}` is `give script`).
        let replaced = ["{shell: ", "{agent: "].iter().any(|t| body[end + 1..].starts_with(t));
        if kept || replaced {
            out.push_str(before);
        } else {
            out.push_str(before.strip_suffix(' ').unwrap_or(before));
        }
        if kept {
            out.push_str(&body[..end]);
        }
        rest = &body[end + 1..];
    }
    out.push_str(rest);
    out
}

/// A text in the agents' words: [`face_text`], then each command named in backticks as its tool
/// (`` `model list --type video` `` is `` `list_models` (type video) ``), each `--flag` as its word.
pub fn agent_text(text: &str) -> String {
    let text = face_text(text, false);
    let mut out = String::with_capacity(text.len());
    let mut parts = text.split('`');
    if let Some(first) = parts.next() {
        out.push_str(first);
    }
    let mut inside = true;
    for part in parts {
        if inside {
            let words: Vec<&str> = part.split_whitespace().collect();
            let tool = (1..=words.len().min(3)).rev().find_map(|n| by_path(&words[..n]).map(|e| (e, n)));
            match tool {
                Some((e, n)) => {
                    out.push('`');
                    out.push_str(e.meta.tool);
                    out.push('`');
                    let rest: Vec<&str> = words[n..].iter().map(|w| w.trim_start_matches("--")).collect();
                    if !rest.is_empty() {
                        out.push_str(&format!(" ({})", rest.join(" ")));
                    }
                }
                None => {
                    out.push('`');
                    out.push_str(part);
                    out.push('`');
                }
            }
        } else {
            out.push_str(part);
        }
        inside = !inside;
    }
    out
}

/// Every description of a schema in the agents' words ([`agent_text`]).
pub(crate) fn for_agents(schema: &mut Value) {
    match schema {
        Value::Object(o) => {
            for (k, v) in o.iter_mut() {
                match v {
                    Value::String(d) if k == "description" => *d = agent_text(d),
                    other => for_agents(other),
                }
            }
        }
        Value::Array(a) => a.iter_mut().for_each(for_agents),
        _ => {}
    }
}

/// Every help text of a command in the shell's words ([`face_text`]).
pub(crate) fn for_shell(command: clap::Command) -> clap::Command {
    let command = match command.get_about().map(ToString::to_string) {
        Some(about) if about.contains('{') => command.about(face_text(&about, true)),
        _ => command,
    };
    command.mut_args(|a| {
        let help = a.get_help().map(ToString::to_string).filter(|h| h.contains('{'));
        let long = a.get_long_help().map(ToString::to_string).filter(|h| h.contains('{'));
        let a = match help {
            Some(h) => a.help(face_text(&h, true)),
            None => a,
        };
        match long {
            Some(h) => a.long_help(face_text(&h, true)),
            None => a,
        }
    })
}

/// The examples a text shows, in the order written. An example is a backticked form in a list after
/// `e.g.`: ``e.g. `1:1`, `16:9` or `9:16` `` (separated by `, `, ` or `, `, or `). In a flag's or a
/// property's text the form is that field's value: the shell runs `--flag FORM`, an agent sends
/// `{"field": FORM}` (FORM read as JSON when it parses, else as a string); a form starting `cdesk ` is a
/// whole command line (the shell's only). Where an id is needed, a placeholder in capitals stands for
/// it ([`PLACEHOLDERS`]): the tests that run every example (crates/cli/tests/help_examples.rs,
/// tests/mcp/test_examples.py) put a record of their own there. Write shapes (`[{platform, caption?}]`)
/// outside an `e.g.` list: a shape is not run.
pub fn examples(text: &str) -> Vec<String> {
    let mut found = Vec::new();
    for (at, _) in text.match_indices("e.g.") {
        let mut rest = text[at + 4..].trim_start();
        while let Some(body) = rest.strip_prefix('`') {
            let Some(end) = body.find('`') else { break };
            found.push(body[..end].to_string());
            rest = &body[end + 1..];
            // The next one follows `, `, ` or ` or `, or ` (a line break counts as a space).
            let comma = rest.strip_prefix(',');
            let after_comma = comma.unwrap_or(rest).trim_start();
            let or = after_comma.strip_prefix("or").filter(|r| r.starts_with(char::is_whitespace));
            let next = or.unwrap_or(after_comma).trim_start();
            if (comma.is_none() && or.is_none()) || !next.starts_with('`') {
                break;
            }
            rest = next;
        }
    }
    found
}

/// The placeholders an example may hold, each standing for a record's id ([`examples`]).
pub const PLACEHOLDERS: &[(&str, &str)] = &[
    ("CARD_ID", "a card with a time and a post"),
    ("SPACE_ID", "a space"),
    ("STAGE_ID", "a stage of the default space"),
    ("TAG_ID", "a tag"),
    ("ACCOUNT_ID", "a connected account's `id` (an X account)"),
    ("PROJECT_ID", "an editor project"),
    ("CANVAS_ID", "a canvas project"),
    ("OUTPUT_ID", "a finished image render's output token"),
];

/// Drops `"default": null` where the schema does not allow null (an optional field's absence is said by
/// `required`; strict validators refuse a default outside its own type).
pub(crate) fn no_null_defaults(schema: &mut Value) {
    match schema {
        Value::Object(o) => {
            let allows_null = match o.get("type") {
                Some(Value::String(t)) => t == "null",
                Some(Value::Array(ts)) => ts.iter().any(|t| t == "null"),
                _ => ["anyOf", "oneOf"].iter().any(|k| o.get(*k).and_then(Value::as_array).is_some_and(|a| a.iter().any(|s| s.get("type") == Some(&Value::from("null"))))),
            };
            if o.get("default") == Some(&Value::Null) && !allows_null {
                o.remove("default");
            }
            o.values_mut().for_each(no_null_defaults);
        }
        Value::Array(a) => a.iter_mut().for_each(no_null_defaults),
        _ => {}
    }
}


#[cfg(test)]
mod tests {
    use super::{examples, face_text};

    #[test]
    fn examples_are_the_backticked_forms_after_e_g() {
        assert_eq!(examples("Aspect, e.g. `1:1`, `16:9` or `9:16` (what the model takes: `model get`)."), ["1:1", "16:9", "9:16"]);
        assert_eq!(examples("A time (e.g. `2027-02-01T09:30:00Z`, or `2027-02-01`) or e.g. `{\"a\": 1}`"), ["2027-02-01T09:30:00Z", "2027-02-01", "{\"a\": 1}"]);
        assert_eq!(examples("`summary`: sections; e.g. a row that failed, `x`"), Vec::<String>::new(), "no backtick right after e.g.: prose");
        assert_eq!(examples("e.g. `a`, then `b`"), ["a"], "a list ends at the first word that is not a separator");
        assert_eq!(examples("e.g. `a`,\n`b` or\n`c` `d`"), ["a", "b", "c"], "a line break is a space; two forms need a separator");
    }

    #[test]
    fn each_face_keeps_its_own_words() {
        let t = "Tags {shell: comma-separated }(names or ids){agent: , as an array}. A JSON {a: 1} stays.";
        assert_eq!(face_text(t, true), "Tags comma-separated (names or ids). A JSON {a: 1} stays.");
        assert_eq!(face_text(t, false), "Tags(names or ids), as an array. A JSON {a: 1} stays.");
        assert_eq!(face_text("Posts {shell: (`@file` reads a file: [{\"platform\": \"x\"}])} as JSON", true), "Posts (`@file` reads a file: [{\"platform\": \"x\"}]) as JSON");
        assert_eq!(face_text("Posts {shell: (`@file` reads a file: [{\"platform\": \"x\"}])} as JSON", false), "Posts as JSON");
        // A part with the other face's part right after it: the space before stays for the kept one.
        let t = "(or give {shell: --script and --voice}{agent: script and voiceId} instead; {shell: repeated}{agent: an array})";
        assert_eq!(face_text(t, false), "(or give script and voiceId instead; an array)");
        assert_eq!(face_text(t, true), "(or give --script and --voice instead; repeated)");
    }
}
