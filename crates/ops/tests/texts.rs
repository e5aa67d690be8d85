//! The texts of both faces, walked over the whole catalogue: every flag and every property says what it
//! is; agent texts speak in properties and tools (never flags, `@file`, exit codes or commands); the
//! shell's help shows no face markers; the schemas hold no default outside their own type.
use contentdesk_ops::catalogue;
use serde_json::Value;

/// Words that belong to the shell, never to an agent's tool text.
const SHELL_WORDS: &[&str] = &["@file", "@FILE", "repeat the flag", "(exit", "in the shell", "the shell also", "{shell:", "{agent:"];

fn descriptions<'a>(schema: &'a Value, at: String, out: &mut Vec<(String, &'a str)>) {
    match schema {
        Value::Object(o) => {
            for (k, v) in o {
                match v {
                    Value::String(d) if k == "description" => out.push((at.clone(), d)),
                    other => descriptions(other, format!("{at}/{k}"), out),
                }
            }
        }
        Value::Array(a) => a.iter().enumerate().for_each(|(i, v)| descriptions(v, format!("{at}/{i}"), out)),
        _ => {}
    }
}

/// A `--flag` in a text (two dashes then a letter).
fn has_flag(text: &str) -> bool {
    text.match_indices("--").any(|(i, _)| text[i + 2..].starts_with(|c: char| c.is_ascii_lowercase()))
}

#[test]
fn every_flag_and_argument_has_help_in_the_shell_and_no_face_marker() {
    let mut missing = Vec::new();
    for e in catalogue() {
        let command = e.command();
        for a in command.get_arguments() {
            let help = a.get_help().map(ToString::to_string).unwrap_or_default();
            if help.trim().is_empty() {
                missing.push(format!("{} {}", e.meta.command(), a.get_id()));
            }
            assert!(!help.contains("{shell:") && !help.contains("{agent:"), "{}: a face marker in --{}: {help}", e.meta.command(), a.get_id());
        }
    }
    assert!(missing.is_empty(), "{} arguments without help: {missing:#?}", missing.len());
}

#[test]
fn every_property_has_a_description() {
    let mut missing = Vec::new();
    for e in catalogue() {
        let schema = e.input_schema();
        for (name, p) in schema.get("properties").and_then(Value::as_object).into_iter().flatten() {
            let described = p.get("description").and_then(Value::as_str).is_some_and(|d| !d.trim().is_empty());
            if !described {
                missing.push(format!("{}.{name}", e.meta.tool));
            }
        }
    }
    assert!(missing.is_empty(), "{} properties without a description: {missing:#?}", missing.len());
}

#[test]
fn agent_texts_speak_in_properties_and_tools() {
    let commands: Vec<String> = catalogue().iter().map(|e| format!("`{}", e.meta.command())).collect();
    let mut wrong = Vec::new();
    for e in catalogue() {
        let schema = e.input_schema();
        let mut texts = Vec::new();
        descriptions(&schema, String::new(), &mut texts);
        texts.push(("details".into(), e.meta.details));
        texts.push(("summary".into(), e.meta.summary));
        for (at, text) in texts {
            let shell = SHELL_WORDS.iter().find(|w| text.contains(**w)).map(|w| w.to_string())
                .or_else(|| has_flag(text).then(|| "a --flag".to_string()))
                .or_else(|| commands.iter().find(|c| text.contains(c.as_str())).cloned());
            if let Some(w) = shell {
                wrong.push(format!("{}{at}: {w:?} in {text:?}", e.meta.tool));
            }
        }
    }
    assert!(wrong.is_empty(), "{} agent texts speak shell:\n{}", wrong.len(), wrong.join("\n"));
}

#[test]
fn no_default_outside_its_own_type() {
    fn walk(v: &Value, at: &str, bad: &mut Vec<String>) {
        match v {
            Value::Object(o) => {
                if o.get("default") == Some(&Value::Null) {
                    let null_ok = match o.get("type") {
                        Some(Value::String(t)) => t == "null",
                        Some(Value::Array(ts)) => ts.iter().any(|t| t == "null"),
                        _ => o.contains_key("anyOf") || o.contains_key("oneOf"),
                    };
                    if !null_ok {
                        bad.push(at.to_string());
                    }
                }
                o.iter().for_each(|(k, v)| walk(v, &format!("{at}/{k}"), bad));
            }
            Value::Array(a) => a.iter().enumerate().for_each(|(i, v)| walk(v, &format!("{at}/{i}"), bad)),
            _ => {}
        }
    }
    let mut bad = Vec::new();
    for e in catalogue() {
        walk(&e.input_schema(), e.meta.tool, &mut bad);
    }
    assert!(bad.is_empty(), "\"default\": null outside the type: {bad:#?}");
}

/// Every text of both faces, with where it is: each flag's help (and long help) in the shell's words,
/// each command's about and after-help, each property's description in the agents' words, each summary
/// and each tool's details.
fn every_text() -> Vec<(String, String)> {
    let mut all = Vec::new();
    for e in catalogue() {
        let command = e.command();
        for (what, text) in [("about", command.get_about()), ("after_help", command.get_after_help())] {
            if let Some(t) = text {
                all.push((format!("{} {what}", e.meta.command()), t.to_string()));
            }
        }
        for a in command.get_arguments() {
            for text in [a.get_help(), a.get_long_help()].into_iter().flatten() {
                all.push((format!("{} --{}", e.meta.command(), a.get_id()), text.to_string()));
            }
        }
        let mut texts = Vec::new();
        let schema = e.input_schema();
        descriptions(&schema, String::new(), &mut texts);
        all.extend(texts.into_iter().map(|(at, t)| (format!("{}{at}", e.meta.tool), t.to_string())));
        all.push((format!("{} details", e.meta.tool), contentdesk_ops::agent_text(e.meta.details)));
    }
    all
}

/// A date written `2027-02-01` somewhere in `text`.
fn has_date(text: &str) -> bool {
    let b = text.as_bytes();
    (0..b.len().saturating_sub(9)).any(|i| {
        let d = &b[i..i + 10];
        d[4] == b'-' && d[7] == b'-' && d.iter().enumerate().all(|(j, c)| j == 4 || j == 7 || c.is_ascii_digit())
    })
}

#[test]
fn every_example_is_written_as_one_so_the_example_tests_run_it() {
    // The tests that run every example (crates/cli/tests/help_examples.rs, tests/mcp/test_examples.py)
    // find them by `contentdesk_ops::examples`: an example written any other way would never be run.
    let known: Vec<&str> = contentdesk_ops::PLACEHOLDERS.iter().map(|(p, _)| *p).collect();
    let mut wrong = Vec::new();
    let mut count = 0;
    for (at, text) in every_text() {
        for (i, _) in text.match_indices("e.g.") {
            if !text[i + 4..].trim_start().starts_with('`') {
                wrong.push(format!("{at}: an `e.g.` not followed by a backticked form: {text:?}"));
            }
        }
        let examples = contentdesk_ops::examples(&text);
        count += examples.len();
        let mut rest = text.clone();
        for x in &examples {
            rest = rest.replace(&format!("`{x}`"), "");
            let words = x.split(|c: char| !(c.is_ascii_uppercase() || c == '_'));
            for w in words.filter(|w| w.ends_with("_ID") && w.len() > 3) {
                if !known.contains(&w) {
                    wrong.push(format!("{at}: the placeholder {w} is not one of PLACEHOLDERS"));
                }
            }
        }
        if has_date(&rest) || rest.contains("{\"") {
            wrong.push(format!("{at}: a date or a JSON object outside an `e.g.` list (write it as an example, or as a shape): {text:?}"));
        }
    }
    assert!(wrong.is_empty(), "{} texts show forms no test runs:\n{}", wrong.len(), wrong.join("\n"));
    assert!(count > 20, "only {count} examples found");
}
