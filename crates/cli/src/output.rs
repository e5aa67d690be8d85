//! What goes to stdout (data) and stderr (talk). JSON when piped or with `--json`, in the shapes the
//! official CLI prints (the service's replies, 2-space pretty); readable key-values and tables at a
//! terminal or with `--human`. Errors: `{error, exitCode, …}` on stderr when piped, a plain `Error: …` line
//! at a terminal (red unless `NO_COLOR`).
use contentdesk_ops::{Document, OpError};
use serde_json::Value;
use std::io::{IsTerminal, Write};
use std::path::{Path, PathBuf};

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

/// `--output FILE` on a command whose reply is a document (contentdesk_ops::Entry::makes_document): the
/// shell's own flag, never an agent's field (a tool does not write files on this computer).
pub fn with_output_flag(command: clap::Command) -> clap::Command {
    command.arg(
        clap::Arg::new("output")
            .long("output")
            .short('o')
            .value_name("FILE")
            .value_parser(clap::value_parser!(PathBuf))
            .help("Write the document to FILE (atomically: a whole file or none) instead of stdout"),
    )
    .after_help("The document goes out raw (stdout, or --output FILE) whatever --json or --human say; what is said about it goes to stderr.")
}

/// A document as it is: its text raw on stdout, or into `--output FILE` atomically; on stderr, a note
/// when it holds nothing (always: the file is valid but empty) and, when `talk`, what was written.
pub fn document(doc: &Document, reply: &Value, sub: &clap::ArgMatches, talk: bool) -> Result<(), OpError> {
    let target = sub.get_one::<PathBuf>("output");
    match target {
        Some(path) => write_atomically(path, doc.text.as_bytes())
            .map_err(|e| OpError::Usage { message: format!("cannot write {}: {e}", path.display()), field: Some("output".into()) })?,
        None => {
            let mut out = std::io::stdout().lock();
            // A closed pipe (`| head`) is not an error worth a panic.
            let _ = out.write_all(doc.text.as_bytes()).and_then(|()| out.flush());
        }
    }
    let window = match (reply.get("from").and_then(Value::as_str), reply.get("to").and_then(Value::as_str)) {
        (Some(from), Some(to)) => format!(" from {from} to {to} (not included)"),
        _ => String::new(),
    };
    let space = reply.get("space").and_then(|s| s.get("name")).and_then(Value::as_str).map(|n| format!(" in space {n}")).unwrap_or_default();
    if doc.count == 0 {
        eprintln!("note: no scheduled posts{window}{space}: the document is valid and empty");
    } else if talk {
        let whereto = target.map(|p| format!(" to {}", p.display())).unwrap_or_default();
        eprintln!("{} events{window}{space} written{whereto}", doc.count);
    }
    Ok(())
}

/// `bytes` into `path` as a whole or not at all: a temporary file beside it, synced, then renamed over it.
fn write_atomically(path: &Path, bytes: &[u8]) -> std::io::Result<()> {
    let dir = path.parent().filter(|d| !d.as_os_str().is_empty()).unwrap_or(Path::new("."));
    let name = path.file_name().ok_or_else(|| std::io::Error::new(std::io::ErrorKind::InvalidInput, "not a file name"))?;
    let tmp = dir.join(format!(".{}.{}.tmp", name.to_string_lossy(), std::process::id()));
    let written = (|| {
        let mut f = std::fs::File::create(&tmp)?;
        f.write_all(bytes)?;
        f.sync_all()?;
        std::fs::rename(&tmp, path)
    })();
    if written.is_err() {
        let _ = std::fs::remove_file(&tmp);
    }
    written
}

/// What stderr says when a list printed bare has more than it shows: the service's paging fields and how
/// to get the rest.
pub fn more_note(paging: &serde_json::Map<String, Value>, data: &Value) -> String {
    let shown = data.as_array().map_or(0, Vec::len) as u64;
    let offset = paging.get("offset").and_then(Value::as_u64).unwrap_or(0);
    let of = paging.get("total").and_then(Value::as_u64).map(|t| format!(" of {t}")).unwrap_or_default();
    format!(
        "{shown}{of} listed, there are more: --offset {} for the next page (card list: --all for every page); --envelope prints {} on stdout",
        offset + shown,
        Value::Object(paging.clone())
    )
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

/// A scalar as a person reads it; a nested record by its name or title.
fn scalar(v: &Value) -> String {
    match v {
        Value::Null => "–".into(),
        Value::String(s) => s.clone(),
        Value::Array(a) if a.iter().all(|x| !x.is_object() && !x.is_array()) => a.iter().map(scalar).collect::<Vec<_>>().join(", "),
        Value::Array(a) => format!("[{} items]", a.len()),
        Value::Object(o) => match ["name", "title", "displayName", "id"].iter().find_map(|k| o.get(*k).and_then(Value::as_str)) {
            Some(label) => label.to_string(),
            None => format!("{{{} fields}}", o.len()),
        },
        other => other.to_string(),
    }
}

/// Columns a person reads first, in this order; then the rest; then the times.
const FIRST: &[&str] = &[
    "id", "key", "modelId", "outputId", "name", "sectionName", "title", "displayName", "status", "platform", "contentType",
    "kind", "tab", "width", "version", "stageId", "scheduledAt", "balance",
];
/// Columns that say little in a table (positions, long texts, internal flags).
const HIDDEN: &[&str] = &["boardOrder", "sortOrder", "description", "body", "notes", "metadata"];
const LAST: &[&str] = &["createdAt", "updatedAt"];

/// The columns of a table of objects: the scalar fields of the first rows that hold a value in at least one
/// row, the common ones first, at most eight.
fn columns(rows: &[Value]) -> Vec<String> {
    let mut cols: Vec<String> = Vec::new();
    for row in rows.iter().take(50) {
        if let Some(o) = row.as_object() {
            for (k, v) in o {
                let labelled = |o: &serde_json::Map<String, Value>| ["name", "title", "displayName", "id"].iter().any(|k| o.get(*k).is_some_and(Value::is_string));
                let simple = match v {
                    Value::Array(a) => !a.iter().any(Value::is_object),
                    Value::Object(o) => labelled(o),
                    _ => true,
                };
                if simple && !v.is_null() && !cols.contains(k) && !HIDDEN.contains(&k.as_str()) {
                    cols.push(k.clone());
                }
            }
        }
    }
    let rank = |c: &String| {
        FIRST.iter().position(|f| f == c).unwrap_or(FIRST.len() + LAST.iter().position(|l| l == c).map_or(0, |i| i + 1))
    };
    cols.sort_by_key(rank);
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
