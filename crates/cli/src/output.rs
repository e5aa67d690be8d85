//! What goes to stdout (data) and stderr (talk). JSON when piped or with `--json`, in the shapes the
//! official CLI prints (the service's replies, 2-space pretty); readable key-values and tables at a
//! terminal or with `--human`. Errors: `{error, exitCode, …}` on stderr when piped, a plain `Error: …` line
//! at a terminal (red unless `NO_COLOR`).
use serde_json::Value;
use std::io::{IsTerminal, Write};

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Format {
    Json,
    Human,
}

impl Format {
    /// `--json` / `--human` win; else JSON unless stdout is a terminal.
    pub fn choose(json: bool, human: bool) -> Format {
        if json {
            Format::Json
        } else if human || std::io::stdout().is_terminal() {
            Format::Human
        } else {
            Format::Json
        }
    }
}

pub fn color() -> bool {
    std::env::var_os("NO_COLOR").is_none_or(|v| v.is_empty()) && std::io::stderr().is_terminal()
}

pub fn print(value: &Value, format: Format) {
    let mut out = std::io::stdout().lock();
    let text = match format {
        Format::Json => serde_json::to_string_pretty(value).unwrap_or_default(),
        Format::Human => human(value),
    };
    // A closed pipe (`| head`) is not an error worth a panic.
    let _ = writeln!(out, "{text}");
}

pub fn print_error(error: &Value, format: Format) {
    let mut err = std::io::stderr().lock();
    if format == Format::Json {
        let _ = writeln!(err, "{}", serde_json::to_string(error).unwrap_or_default());
        return;
    }
    let message = error.get("error").and_then(Value::as_str).unwrap_or("failed");
    if color() {
        let _ = writeln!(err, "\x1b[31mError:\x1b[0m {message}");
    } else {
        let _ = writeln!(err, "Error: {message}");
    }
}

/// A scalar as a person reads it.
fn scalar(v: &Value) -> String {
    match v {
        Value::Null => "–".into(),
        Value::String(s) => s.clone(),
        Value::Array(a) if a.iter().all(|x| !x.is_object() && !x.is_array()) => a.iter().map(scalar).collect::<Vec<_>>().join(", "),
        Value::Array(a) => format!("[{} items]", a.len()),
        Value::Object(o) => format!("{{{} fields}}", o.len()),
        other => other.to_string(),
    }
}

/// The columns of a table of objects: the scalar fields of the first rows, the common ones first, at
/// most eight.
fn columns(rows: &[Value]) -> Vec<String> {
    const FIRST: &[&str] = &["id", "modelId", "outputId", "key", "name", "title", "displayName", "status", "stage", "platform", "contentType"];
    let mut cols: Vec<String> = Vec::new();
    for row in rows.iter().take(20) {
        if let Some(o) = row.as_object() {
            for (k, v) in o {
                let simple = !v.is_object() && !(v.is_array() && v.as_array().is_some_and(|a| a.iter().any(|x| x.is_object())));
                if simple && !cols.contains(k) {
                    cols.push(k.clone());
                }
            }
        }
    }
    cols.sort_by_key(|c| FIRST.iter().position(|f| f == c).unwrap_or(FIRST.len()));
    cols.truncate(8);
    cols
}

fn table(rows: &[Value]) -> String {
    if rows.is_empty() {
        return "(none)".into();
    }
    if !rows.iter().all(Value::is_object) {
        return rows.iter().map(scalar).collect::<Vec<_>>().join("\n");
    }
    let cols = columns(rows);
    let cell = |row: &Value, c: &str| {
        let s = scalar(row.get(c).unwrap_or(&Value::Null));
        let mut chars = s.chars();
        let cut: String = chars.by_ref().take(48).collect();
        if chars.next().is_some() { format!("{cut}…") } else { cut }
    };
    let widths: Vec<usize> = cols
        .iter()
        .map(|c| rows.iter().map(|r| cell(r, c).chars().count()).max().unwrap_or(0).max(c.chars().count()))
        .collect();
    let line = |cells: Vec<String>| {
        cells.iter().zip(&widths).map(|(c, w)| format!("{c:<w$}")).collect::<Vec<_>>().join("  ").trim_end().to_string()
    };
    let mut lines = vec![line(cols.clone())];
    lines.extend(rows.iter().map(|r| line(cols.iter().map(|c| cell(r, c)).collect())));
    lines.join("\n")
}

/// Key-values for an object; a table for its list (`cards`, `models`, …) or for a bare array.
pub fn human(value: &Value) -> String {
    match value {
        Value::Array(rows) => table(rows),
        Value::Object(o) => {
            let list = o.iter().find(|(_, v)| v.as_array().is_some_and(|a| !a.is_empty() && a.iter().all(Value::is_object)));
            let width = o.keys().map(|k| k.chars().count()).max().unwrap_or(0);
            let mut lines: Vec<String> = o
                .iter()
                .filter(|(k, _)| list.is_none_or(|(lk, _)| lk != *k))
                .map(|(k, v)| format!("{k:<width$}  {}", scalar(v)))
                .collect();
            if let Some((k, Value::Array(rows))) = list {
                lines.push(String::new());
                lines.push(format!("{k}:"));
                lines.push(table(rows));
            }
            lines.join("\n")
        }
        other => scalar(other),
    }
}
