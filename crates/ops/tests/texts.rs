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
