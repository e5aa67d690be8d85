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
    print_as(value, format, &Human::here(false, None));
}

pub fn print_as(value: &Value, format: Format, h: &Human) {
    let mut out = std::io::stdout().lock();
    let text = match format {
        Format::Json => serde_json::to_string_pretty(value).unwrap_or_default(),
        Format::Human => human(value, h),
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

/// How `--human` prints: the width to fit (one line per row), whether ids are shown (`--wide`), the
/// operation (a quote, a card written), and names for the ids a reply holds (a card's stage).
#[derive(Debug, Clone, Default)]
pub struct Human {
    pub width: usize,
    pub wide: bool,
    pub tool: Option<&'static str>,
    /// Stage ids to their names.
    pub names: std::collections::HashMap<String, String>,
    /// Bold headers (a terminal, `NO_COLOR` unset).
    pub bold: bool,
}

impl Human {
    /// For this terminal: its width (`COLUMNS` wins, else the terminal's, else 120), colour on a
    /// terminal without `NO_COLOR`.
    pub fn here(wide: bool, tool: Option<&'static str>) -> Human {
        let width = std::env::var("COLUMNS").ok().and_then(|c| c.trim().parse().ok()).filter(|w: &usize| *w >= 20)
            .or_else(|| terminal_size::terminal_size_of(std::io::stdout()).map(|(w, _)| w.0 as usize))
            .unwrap_or(120);
        let bold = std::env::var_os("NO_COLOR").is_none_or(|v| v.is_empty()) && std::io::stdout().is_terminal();
        Human { width, wide, tool, names: Default::default(), bold }
    }
}

/// The local time zone's offset, read once at start (before any thread: the only time it can be read
/// safely); UTC when it cannot be read.
static OFFSET: std::sync::OnceLock<time::UtcOffset> = std::sync::OnceLock::new();

pub fn read_local_offset() {
    let _ = OFFSET.set(local_offset().unwrap_or(time::UtcOffset::UTC));
}

/// This computer's offset from UTC now (the C library's, which honours `TZ`).
fn local_offset() -> Option<time::UtcOffset> {
    offset_at(time::OffsetDateTime::now_utc().unix_timestamp())
}

/// This computer's offset from UTC at an instant (Unix seconds), daylight saving included: where a date
/// alone given to a command starts (`contentdesk_ops::dates_in_local_time`).
#[cfg(unix)]
#[allow(unsafe_code)]
pub fn offset_at(at: i64) -> Option<time::UtcOffset> {
    // SAFETY: `localtime_r` reads the time given and writes only into the `tm` given.
    let seconds = unsafe {
        // `time_t` is 32 bits on some targets.
        #[allow(clippy::useless_conversion)]
        let at: libc::time_t = at.try_into().ok()?;
        let mut tm: libc::tm = std::mem::zeroed();
        if libc::localtime_r(&at, &mut tm).is_null() {
            return None;
        }
        tm.tm_gmtoff
    };
    time::UtcOffset::from_whole_seconds(i32::try_from(seconds).ok()?).ok()
}

#[cfg(not(unix))]
pub fn offset_at(_: i64) -> Option<time::UtcOffset> {
    None
}

/// An RFC 3339 time in local time, in the app's one date-and-time style (ui/src/lib/shared/datetime.ts:
/// the day, the month's short name and the year, then the time on the 24-hour clock): "Mar 4, 2026, 14:30"
/// where the locale writes the month first (en-US, as the web view's Intl does), "4 Mar 2026, 14:30" where
/// it writes the day first (en-GB and most others). The month's name is the English one in every locale.
/// The text as given when it is not a time.
pub fn local_time(text: &str) -> Option<String> {
    use time::format_description::well_known::Rfc3339;
    let t = time::OffsetDateTime::parse(text, &Rfc3339).ok()?;
    let offset = *OFFSET.get().unwrap_or(&time::UtcOffset::UTC);
    Some(date_time(t.to_offset(offset), month_first(&locale())))
}

/// The locale that decides how times are written, as the C library reads it: `LC_ALL`, else `LC_TIME`,
/// else `LANG` (the first of them set and not empty).
fn locale() -> String {
    ["LC_ALL", "LC_TIME", "LANG"].iter().find_map(|k| std::env::var(k).ok().filter(|v| !v.is_empty())).unwrap_or_default()
}

/// Whether `locale` ("en_US.UTF-8", "en-GB", "C") writes the month before the day, as Intl's en-US does:
/// the US and the other regions that do (Canada's English, the Philippines), and the C and POSIX locales
/// or none (a web view with no locale of its own speaks en-US).
pub fn month_first(locale: &str) -> bool {
    let name = locale.split(['.', '@']).next().unwrap_or("");
    if name.is_empty() || name == "C" || name == "POSIX" {
        return true;
    }
    let mut parts = name.split(['_', '-']);
    let (lang, region) = (parts.next().unwrap_or(""), parts.next().unwrap_or(""));
    lang == "en" && (region.is_empty() || ["US", "CA", "PH", "UM", "AS", "GU", "MP", "PR", "VI"].contains(&region))
}

/// A wall-clock time in the date-and-time style (see `local_time`).
pub fn date_time(t: time::OffsetDateTime, month_first: bool) -> String {
    const MONTHS: [&str; 12] = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"];
    let month = MONTHS[u8::from(t.month()) as usize - 1];
    let (day, year, hour, minute) = (t.day(), t.year(), t.hour(), t.minute());
    if month_first {
        format!("{month} {day}, {year}, {hour:02}:{minute:02}")
    } else {
        format!("{day} {month} {year}, {hour:02}:{minute:02}")
    }
}

/// A number as JavaScript writes it: `4`, not `4.0`.
fn number(n: &serde_json::Number) -> String {
    match n.as_f64() {
        Some(f) if n.is_f64() && f.fract() == 0.0 && f.abs() < 1e15 => format!("{}", f as i64),
        _ => n.to_string(),
    }
}

/// A scalar as a person reads it; a nested record by its name or title; a time in local time.
fn scalar(v: &Value) -> String {
    match v {
        Value::Null => "–".into(),
        Value::String(s) => local_time(s).unwrap_or_else(|| s.clone()),
        Value::Number(n) => number(n),
        Value::Bool(b) => (if *b { "yes" } else { "no" }).into(),
        Value::Array(a) if a.is_empty() => "–".into(),
        Value::Array(a) if a.iter().all(|x| !x.is_object() && !x.is_array()) => a.iter().map(scalar).collect::<Vec<_>>().join(", "),
        Value::Array(a) => format!("{} items", a.len()),
        Value::Object(o) => match ["name", "title", "displayName", "id"].iter().find_map(|k| o.get(*k).and_then(Value::as_str)) {
            Some(label) => label.to_string(),
            None => format!("{} fields", o.len()),
        },
    }
}

/// A platform, or a list of them, by the names the UI shows ("TikTok, X"), from api-types' one table.
fn platforms(v: &Value) -> String {
    match v {
        Value::String(id) => api_types::values::platform_name(id).to_string(),
        Value::Array(a) if !a.is_empty() => a.iter().map(platforms).collect::<Vec<_>>().join(", "),
        _ => scalar(v),
    }
}

/// `creditsEstimate` as `credits estimate`: a field's name in words.
fn words(key: &str) -> String {
    let mut out = String::new();
    for c in key.chars() {
        if c.is_ascii_uppercase() {
            out.push(' ');
            out.push(c.to_ascii_lowercase());
        } else {
            out.push(c);
        }
    }
    out
}

/// Columns a person reads first, in this order; then the rest; then the times. A card's time comes before
/// its content type: a narrow terminal drops the last columns, and a planner reads when before what kind.
const FIRST: &[&str] = &[
    "id", "key", "modelId", "outputId", "name", "sectionName", "title", "displayName", "status", "stage", "platforms", "platform",
    "scheduledAt", "contentType", "kind", "tab", "width", "version", "tags", "balance",
];
/// Columns that say little in a table (positions, long texts, internal flags, pictures).
const HIDDEN: &[&str] = &["boardOrder", "sortOrder", "description", "body", "notes", "metadata", "coverUrl", "thumbnailUrl", "avatarUrl", "archivedAt"];
const LAST: &[&str] = &["createdAt", "updatedAt"];
/// Columns that give way first when a row is wider than the terminal.
const FLEX: &[&str] = &["title", "name", "displayName", "sectionName", "tags", "platforms", "url"];

/// Whether a column holds ids (shown with `--wide`): `id`, `spaceId`, `stageId`, …, but not the only
/// handle of a record that has no name (`modelId`, `outputId`, `key`).
fn is_id(column: &str, rows: &[Value]) -> bool {
    let named = rows.first().and_then(Value::as_object).is_some_and(|o| ["name", "title", "displayName", "sectionName", "accountName"].iter().any(|k| o.get(*k).is_some_and(Value::is_string)));
    (column == "id" && named) || (column.ends_with("Id") && !["modelId", "outputId"].contains(&column))
}

/// The columns of a table of objects: the scalar fields that hold something in at least one row (a
/// column of `false` says nothing), names for ids, the common ones first, at most eight.
fn columns(rows: &[Value], h: &Human) -> Vec<String> {
    let mut cols: Vec<String> = Vec::new();
    for row in rows.iter().take(50) {
        if let Some(o) = row.as_object() {
            for (k, v) in o {
                let labelled = |o: &serde_json::Map<String, Value>| ["name", "title", "displayName", "id"].iter().any(|k| o.get(*k).is_some_and(Value::is_string));
                let says = match v {
                    Value::Array(a) => !a.is_empty() && !a.iter().any(Value::is_object),
                    Value::Object(o) => labelled(o),
                    Value::Bool(b) => *b,
                    Value::Null => false,
                    _ => true,
                };
                if says && !cols.contains(k) && !HIDDEN.contains(&k.as_str()) {
                    cols.push(k.clone());
                }
            }
        }
    }
    if cols.iter().any(|c| c == "stageId") && !h.names.is_empty() {
        cols.push("stage".into());
    }
    // One platform column: `platforms` holds the main one first.
    if cols.iter().any(|c| c == "platforms") {
        cols.retain(|c| c != "platform");
    }
    if !h.wide {
        // Names, not ids; and the bookkeeping times only when asked for.
        cols.retain(|c| !is_id(c, rows) && !LAST.contains(&c.as_str()));
    }
    let rank = |c: &String| {
        FIRST.iter().position(|f| f == c).unwrap_or(FIRST.len() + LAST.iter().position(|l| l == c).map_or(0, |i| i + 1))
    };
    cols.sort_by_key(rank);
    cols.truncate(if h.wide { 10 } else { 8 });
    cols
}

/// A header as gh writes it: the field's name in capitals, `scheduledAt` as `SCHEDULED`, `isFavorite` as
/// `FAVORITE`.
fn header(c: &str) -> String {
    let c = c.strip_suffix("At").filter(|_| c.len() > 2).unwrap_or(c);
    let c = c.strip_prefix("is").filter(|rest| rest.starts_with(|ch: char| ch.is_ascii_uppercase())).unwrap_or(c);
    words(c).trim().to_uppercase()
}

/// Cut to `w` characters, with `…` when cut.
fn fit(s: &str, w: usize) -> String {
    if s.chars().count() <= w {
        return s.to_string();
    }
    let mut cut: String = s.chars().take(w.saturating_sub(1)).collect();
    cut.push('…');
    cut
}

fn table(rows: &[Value], h: &Human) -> String {
    if rows.is_empty() {
        return "(none)".into();
    }
    if !rows.iter().all(Value::is_object) {
        return rows.iter().map(scalar).collect::<Vec<_>>().join("\n");
    }
    let mut cols = columns(rows, h);
    let cell = |row: &Value, c: &str| -> String {
        if c == "stage" {
            return row.get("stageId").and_then(Value::as_str).and_then(|id| h.names.get(id)).cloned().unwrap_or_else(|| "–".into());
        }
        let v = row.get(c).unwrap_or(&Value::Null);
        if c == "platforms" || c == "platform" {
            // One platform column: a card whose `platforms` is empty still has its main `platform`.
            let main = || row.get("platform").filter(|p| p.is_string());
            return platforms(if c == "platforms" && v.as_array().is_none_or(Vec::is_empty) { main().unwrap_or(v) } else { v });
        }
        // In a table, a flag that is off is blank: the eye finds the ones that are on.
        let flag = c.starts_with("is") && c[2..].starts_with(|ch: char| ch.is_ascii_uppercase());
        let s = if *v == Value::Bool(false) || (flag && v.is_null()) { String::new() } else { scalar(v) };
        // One line per row: a text's line breaks as spaces.
        s.split_whitespace().collect::<Vec<_>>().join(" ")
    };
    let mut cells: Vec<Vec<String>> = rows.iter().map(|r| cols.iter().map(|c| cell(r, c)).collect()).collect();
    let mut heads: Vec<String> = cols.iter().map(|c| header(c)).collect();
    let natural = |cells: &[Vec<String>], heads: &[String]| -> Vec<usize> {
        (0..heads.len()).map(|i| cells.iter().map(|r| r[i].chars().count()).max().unwrap_or(0).max(heads[i].chars().count())).collect()
    };
    let total = |w: &[usize]| w.iter().sum::<usize>() + 2 * w.len().saturating_sub(1);
    // A narrow terminal drops the last columns (the least read) before a name is cut below 24
    // characters or a list below 12; the first two columns stay.
    loop {
        let least: usize = natural(&cells, &heads)
            .iter()
            .enumerate()
            .map(|(i, w)| match cols[i].as_str() {
                c if FLEX.contains(&c) && i == 0 => (*w).min(24),
                c if FLEX.contains(&c) => (*w).min(12),
                _ => *w,
            })
            .sum::<usize>()
            + 2 * cols.len().saturating_sub(1);
        if least <= h.width || cols.len() <= 2 {
            break;
        }
        cols.pop();
        heads.pop();
        cells.iter_mut().for_each(|r| {
            r.pop();
        });
    }
    let mut widths = natural(&cells, &heads);
    // Fit the terminal: the widest flexible column gives way first (a list before the name), then any.
    while total(&widths) > h.width {
        let floor = |i: usize| if i == 0 { 24 } else { 12 };
        let flex = (1..cols.len())
            .filter(|&i| FLEX.contains(&cols[i].as_str()) && widths[i] > floor(i))
            .max_by_key(|&i| widths[i])
            .or_else(|| (0..1).find(|&i| FLEX.contains(&cols[i].as_str()) && widths[i] > floor(i)));
        let any = (0..cols.len()).filter(|&i| widths[i] > heads[i].chars().count().max(6)).max_by_key(|&i| widths[i]);
        match flex.or(any) {
            Some(i) => widths[i] -= 1,
            None => break,
        }
    }
    let line = |cells: &[String]| {
        cells.iter().zip(&widths).map(|(c, w)| format!("{:<w$}", fit(c, *w))).collect::<Vec<_>>().join("  ").trim_end().to_string()
    };
    let head = line(&heads);
    let mut lines = vec![if h.bold { format!("\x1b[1m{head}\x1b[0m") } else { head }];
    lines.extend(cells.iter().map(|r| line(r)));
    lines.join("\n")
}

/// A price as a sentence: "4 credits, nothing charged".
fn quote(o: &serde_json::Map<String, Value>) -> Option<String> {
    let credits = o.get("creditsEstimate")?;
    let n = scalar(credits);
    let unit = if n == "1" { "credit" } else { "credits" };
    let model = o.get("modelId").and_then(Value::as_str).map(|m| format!(" with {m}")).unwrap_or_default();
    Some(format!("{n} {unit}{model}, nothing charged\n(a quote: run it without --cost to render)"))
}

/// A card written, in one line: what, where, and its id for the next command.
fn card_written(o: &serde_json::Map<String, Value>, h: &Human) -> Option<String> {
    let verb = match h.tool? {
        "create_card" => "Created",
        "update_card" => "Updated",
        "move_card" => "Moved",
        _ => return None,
    };
    let title = o.get("title")?.as_str()?;
    let id = o.get("id")?.as_str()?;
    let stage = o.get("stageId").and_then(Value::as_str).and_then(|s| h.names.get(s)).map(|s| format!(" in {s}")).unwrap_or_default();
    let platforms = o.get("platforms").filter(|p| p.as_array().is_some_and(|a| !a.is_empty())).or(o.get("platform")).map(platforms).map(|p| format!(" · {p}")).unwrap_or_default();
    let when = o.get("scheduledAt").and_then(Value::as_str).and_then(local_time).map(|t| format!(" · {t}")).unwrap_or_default();
    Some(format!("{verb} “{title}”{stage}{platforms}{when}\nid {id}"))
}

/// Key-values for an object; a table for its list (`cards`, `models`, …) or for a bare array.
pub fn human(value: &Value, h: &Human) -> String {
    match value {
        Value::Array(rows) => table(rows, h),
        Value::Object(o) => {
            if let Some(line) = quote(o).or_else(|| card_written(o, h)) {
                return line;
            }
            let list = o.iter().find(|(_, v)| v.as_array().is_some_and(|a| !a.is_empty() && a.iter().all(Value::is_object)));
            // A page of a list: the table, then one line saying how much of it this is.
            if let (Some((k, Value::Array(rows))), Some(total)) = (list, o.get("total").and_then(Value::as_u64)) {
                let space = o.get("space").and_then(|s| s.get("name")).and_then(Value::as_str).map(|n| format!(" in {n}")).unwrap_or_default();
                let more = if o.get("hasMore") == Some(&Value::Bool(true)) { " (--offset or --all for more)" } else { "" };
                return format!("{}\n\n{} of {total} {}{space}{more}", table(rows, h), rows.len(), words(k));
            }
            let shown: Vec<(&String, &Value)> = o
                .iter()
                .filter(|(k, _)| list.is_none_or(|(lk, _)| lk != *k))
                .filter(|(k, v)| !v.is_null() && !["boardOrder", "sortOrder"].contains(&k.as_str()) && (h.wide || !is_id(k, std::slice::from_ref(value))))
                .collect();
            let width = shown.iter().map(|(k, _)| words(k).chars().count()).max().unwrap_or(0);
            let mut lines: Vec<String> = shown
                .iter()
                .map(|(k, v)| {
                    let text = match k.as_str() {
                        "stageId" => v.as_str().and_then(|s| h.names.get(s)).cloned().unwrap_or_else(|| scalar(v)),
                        "platform" | "platforms" => platforms(v),
                        _ => scalar(v),
                    };
                    let key = if k.as_str() == "stageId" && !h.names.is_empty() { "stage".to_string() } else { words(k) };
                    let text: String = text.split_whitespace().collect::<Vec<_>>().join(" ");
                    format!("{key:<width$}  {}", fit(&text, h.width.saturating_sub(width + 2).max(20)))
                })
                .collect();
            if let Some((k, Value::Array(rows))) = list {
                lines.push(String::new());
                lines.push(format!("{}:", words(k)));
                lines.push(table(rows, h));
            }
            lines.join("\n")
        }
        other => scalar(other),
    }
}

#[cfg(test)]
mod time_tests {
    use super::{date_time, month_first};

    #[test]
    fn times_are_written_in_the_apps_one_style_month_or_day_first_by_locale() {
        let t = time::macros::datetime!(2026-11-29 09:05 UTC);
        // The same as the web view's Intl with the app's options (ui/src/lib/shared/datetime.test.ts).
        assert_eq!(date_time(t, true), "Nov 29, 2026, 09:05");
        assert_eq!(date_time(t, false), "29 Nov 2026, 09:05");
        assert_eq!(date_time(time::macros::datetime!(2027-01-04 23:59 UTC), true), "Jan 4, 2027, 23:59");
        for l in ["", "C", "POSIX", "C.UTF-8", "en_US.UTF-8", "en-US", "en", "en_CA.UTF-8"] {
            assert!(month_first(l), "{l:?} writes the month first");
        }
        for l in ["en_GB.UTF-8", "en_AU", "de_DE.UTF-8", "fr_FR@euro", "en-IE"] {
            assert!(!month_first(l), "{l:?} writes the day first");
        }
    }
}
