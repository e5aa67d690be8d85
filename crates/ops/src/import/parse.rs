//! Reading an import file: CSV (RFC 4180, a header row) or JSON (an array of row objects), each row with
//! the line it starts on. A file that is neither is refused here, before anything is sent.
//!
//! CSV columns are found by name, in any order: `title,stage,platforms,scheduledAt,caption,notes` and an
//! optional `key`. The columns `calendar export --format csv` writes are read where they overlap: its
//! `title`, `scheduledAt` and `caption` are the same columns, its `platform` (one platform) is read as
//! `platforms`, and its `uid` as the row `key`; its other columns (`cardId`, `postId`, `format`, `accountId`,
//! `status`) are ignored and named in the report.
use crate::OpError;
use serde_json::Value;

/// The import's file kinds.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Kind {
    Csv,
    Json,
}

/// One row as the file gives it (text, not yet checked).
#[derive(Debug, Clone, Default, PartialEq)]
pub struct RawRow {
    /// The line of the file the row starts on (1-based; a CSV's header is line 1).
    pub line: usize,
    pub title: String,
    pub stage: String,
    /// As written: `;`-separated in CSV; an array or a `;`-separated string in JSON.
    pub platforms: Vec<String>,
    pub scheduled_at: String,
    pub caption: String,
    pub notes: String,
    pub key: String,
}

/// A row that could not even be read (a JSON row that is not an object, a field of the wrong type).
#[derive(Debug, Clone, PartialEq)]
pub struct Unreadable {
    pub line: usize,
    pub field: String,
    pub message: String,
}

#[derive(Debug, Clone, PartialEq)]
pub struct Parsed {
    pub kind: Kind,
    pub rows: Vec<Result<RawRow, Unreadable>>,
    /// Columns (CSV) or fields (JSON) the import does not read.
    pub ignored: Vec<String>,
}

pub const COLUMNS: [&str; 7] = ["title", "stage", "platforms", "scheduledAt", "caption", "notes", "key"];

fn refuse(name: &str, why: &str) -> OpError {
    OpError::usage(
        "file",
        format!("{name} is neither CSV nor JSON ({why}): give a CSV with a header row naming at least `title` (columns {}) or a JSON array of row objects; nothing was created", COLUMNS.join(",")),
    )
}

/// The file's rows. The kind is the extension's (`.csv`, `.json`), else the content's: JSON when it opens
/// with `[` or `{`, CSV when its first line names a `title` column; else refused.
pub fn parse(name: &str, bytes: &[u8]) -> Result<Parsed, OpError> {
    let text = std::str::from_utf8(bytes).map_err(|_| refuse(name, "it is not UTF-8 text"))?;
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    if text.contains('\0') {
        return Err(refuse(name, "it holds NUL bytes: a binary file"));
    }
    let lower = name.to_ascii_lowercase();
    let opens_json = matches!(text.trim_start().chars().next(), Some('[') | Some('{'));
    if lower.ends_with(".json") || (!lower.ends_with(".csv") && opens_json) {
        return json(name, text);
    }
    csv(name, text)
}

fn csv(name: &str, text: &str) -> Result<Parsed, OpError> {
    let records = records(text).map_err(|why| refuse(name, &why))?;
    let Some((_, header)) = records.first() else { return Err(refuse(name, "it is empty")) };
    let header: Vec<String> = header.iter().map(|h| h.trim().to_string()).collect();
    let col = |names: &[&str]| header.iter().position(|h| names.iter().any(|n| h.eq_ignore_ascii_case(n)));
    let Some(title) = col(&["title"]) else {
        return Err(refuse(name, "its first line names no `title` column"));
    };
    let (stage, platforms, at, caption, notes) = (col(&["stage"]), col(&["platforms", "platform"]), col(&["scheduledAt"]), col(&["caption"]), col(&["notes"]));
    let key = col(&["key"]).or_else(|| col(&["uid"]));
    let read: Vec<usize> = [Some(title), stage, platforms, at, caption, notes, key].into_iter().flatten().collect();
    let ignored = header.iter().enumerate().filter(|(i, h)| !read.contains(i) && !h.is_empty()).map(|(_, h)| h.clone()).collect();
    let mut rows = Vec::new();
    for (line, fields) in records.into_iter().skip(1) {
        if fields.iter().all(|f| f.trim().is_empty()) {
            continue;
        }
        let get = |i: Option<usize>| i.and_then(|i| fields.get(i)).map(|s| s.trim().to_string()).unwrap_or_default();
        rows.push(Ok(RawRow {
            line,
            title: get(Some(title)),
            stage: get(stage),
            platforms: split_platforms(&get(platforms)),
            scheduled_at: get(at),
            caption: get(caption),
            notes: get(notes),
            key: get(key),
        }));
    }
    Ok(Parsed { kind: Kind::Csv, rows, ignored })
}

fn split_platforms(s: &str) -> Vec<String> {
    s.split(';').map(str::trim).filter(|p| !p.is_empty()).map(str::to_string).collect()
}

/// RFC 4180 records with the line each starts on; CRLF or LF row ends, quoted fields may hold both.
fn records(text: &str) -> Result<Vec<(usize, Vec<String>)>, String> {
    let mut out = Vec::new();
    let (mut row, mut field) = (Vec::new(), String::new());
    let (mut line, mut start) = (1usize, 1usize);
    let (mut quoted, mut was_quoted) = (false, false);
    let mut chars = text.chars().peekable();
    while let Some(c) = chars.next() {
        if quoted {
            match c {
                '"' if chars.peek() == Some(&'"') => {
                    chars.next();
                    field.push('"');
                }
                '"' => quoted = false,
                c => {
                    if c == '\n' {
                        line += 1;
                    }
                    field.push(c);
                }
            }
            continue;
        }
        match c {
            '"' if field.is_empty() && !was_quoted => (quoted, was_quoted) = (true, true),
            '"' => return Err(format!("line {line} has a quote inside an unquoted field")),
            ',' => {
                row.push(std::mem::take(&mut field));
                was_quoted = false;
            }
            '\r' if chars.peek() == Some(&'\n') => {}
            '\n' => {
                row.push(std::mem::take(&mut field));
                out.push((start, std::mem::take(&mut row)));
                was_quoted = false;
                line += 1;
                start = line;
            }
            c => field.push(c),
        }
    }
    if quoted {
        return Err(format!("a quoted field opened on line {start} is never closed"));
    }
    if !field.is_empty() || !row.is_empty() || was_quoted {
        row.push(field);
        out.push((start, row));
    }
    Ok(out)
}

fn json(name: &str, text: &str) -> Result<Parsed, OpError> {
    let value: Value = serde_json::from_str(text).map_err(|e| refuse(name, &format!("not valid JSON: {e}")))?;
    let items = match &value {
        Value::Array(items) => items,
        Value::Object(o) => match o.get("rows").or_else(|| o.get("cards")) {
            Some(Value::Array(items)) => items,
            _ => return Err(refuse(name, "a JSON object without a `rows` array")),
        },
        _ => return Err(refuse(name, "JSON that is not an array of rows")),
    };
    let starts = element_lines(text);
    let mut ignored: Vec<String> = Vec::new();
    let mut rows = Vec::new();
    for (i, item) in items.iter().enumerate() {
        let line = starts.get(i).copied().unwrap_or(0);
        let Some(o) = item.as_object() else {
            rows.push(Err(Unreadable { line, field: "row".into(), message: format!("row {} is not an object", i + 1) }));
            continue;
        };
        for k in o.keys() {
            if !COLUMNS.contains(&k.as_str()) && k != "platform" && k != "uid" && !ignored.contains(k) {
                ignored.push(k.clone());
            }
        }
        let text = |names: &[&str]| -> Result<String, Unreadable> {
            for n in names {
                match o.get(*n) {
                    None | Some(Value::Null) => continue,
                    Some(Value::String(s)) => return Ok(s.trim().to_string()),
                    Some(other) => return Err(Unreadable { line, field: n.to_string(), message: format!("`{n}` is {other}, not text") }),
                }
            }
            Ok(String::new())
        };
        let platforms = match o.get("platforms").or_else(|| o.get("platform")) {
            None | Some(Value::Null) => Ok(Vec::new()),
            Some(Value::String(s)) => Ok(split_platforms(s)),
            Some(Value::Array(list)) => list
                .iter()
                .map(|p| p.as_str().map(|s| s.trim().to_string()).ok_or_else(|| Unreadable { line, field: "platforms".into(), message: format!("a platform is {p}, not text") }))
                .collect(),
            Some(other) => Err(Unreadable { line, field: "platforms".into(), message: format!("`platforms` is {other}, not a list") }),
        };
        let row = (|| {
            Ok(RawRow {
                line,
                title: text(&["title"])?,
                stage: text(&["stage"])?,
                platforms: platforms?,
                scheduled_at: text(&["scheduledAt"])?,
                caption: text(&["caption"])?,
                notes: text(&["notes"])?,
                key: text(&["key", "uid"])?,
            })
        })();
        rows.push(row);
    }
    Ok(Parsed { kind: Kind::Json, rows, ignored })
}

/// The line each element of the outer array (or of the `rows`/`cards` array) starts on: a scan of the
/// text that follows strings and nesting, taking the elements at array depth 1 of the list.
fn element_lines(text: &str) -> Vec<usize> {
    let list_depth = if text.trim_start().starts_with('{') { 2 } else { 1 };
    let mut out = Vec::new();
    let (mut depth, mut line) = (0usize, 1usize);
    let (mut in_string, mut escaped, mut expect) = (false, false, false);
    for c in text.chars() {
        if c == '\n' {
            line += 1;
        }
        if in_string {
            match (escaped, c) {
                (true, _) => escaped = false,
                (false, '\\') => escaped = true,
                (false, '"') => in_string = false,
                _ => {}
            }
            continue;
        }
        if expect && !c.is_whitespace() && c != ']' {
            out.push(line);
            expect = false;
        }
        match c {
            '"' => in_string = true,
            '[' | '{' => {
                depth += 1;
                if c == '[' && depth == list_depth {
                    expect = true;
                }
            }
            ']' | '}' => {
                depth = depth.saturating_sub(1);
                expect = false;
            }
            ',' if depth == list_depth => expect = true,
            _ => {}
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn csv_rows_carry_the_line_they_start_on_and_quoted_newlines_count() {
        let text = "title,platforms,caption\r\nOne,x;instagram,\"a, b\"\r\nTwo,x,\"two\nlines\"\r\n\r\nThree,tiktok,c\r\n";
        let p = parse("plan.csv", text.as_bytes()).unwrap();
        let got: Vec<(usize, String, Vec<String>, String)> = p.rows.into_iter().map(|r| r.unwrap()).map(|r| (r.line, r.title, r.platforms, r.caption)).collect();
        assert_eq!(got[0], (2, "One".into(), vec!["x".into(), "instagram".into()], "a, b".into()));
        assert_eq!(got[1], (3, "Two".into(), vec!["x".into()], "two\nlines".into()));
        assert_eq!(got[2].0, 6);
    }

    #[test]
    fn the_exports_csv_columns_are_read_where_they_overlap() {
        let text = "uid,scheduledAt,title,platform,caption,cardId,postId,format,accountId,status\r\nc1-x@content-desk,2026-12-01T09:00:00Z,Launch,x,hello,c1,p1,,,\r\n";
        let p = parse("export.csv", text.as_bytes()).unwrap();
        let row = p.rows[0].clone().unwrap();
        assert_eq!((row.key.as_str(), row.platforms.as_slice(), row.scheduled_at.as_str()), ("c1-x@content-desk", &["x".to_string()][..], "2026-12-01T09:00:00Z"));
        assert_eq!(p.ignored, ["cardId", "postId", "format", "accountId", "status"]);
    }

    #[test]
    fn json_rows_carry_their_lines() {
        let text = "[\n  {\"title\": \"A\", \"platforms\": [\"x\"]},\n  {\"title\": \"B\",\n   \"platforms\": \"x;tiktok\"},\n  3\n]";
        let p = parse("plan.json", text.as_bytes()).unwrap();
        assert_eq!(p.rows[0].as_ref().unwrap().line, 2);
        assert_eq!(p.rows[1].as_ref().unwrap().platforms, ["x", "tiktok"]);
        assert_eq!(p.rows[1].as_ref().unwrap().line, 3);
        assert_eq!(p.rows[2].as_ref().unwrap_err().line, 5);
    }

    #[test]
    fn neither_csv_nor_json_is_refused() {
        for (name, bytes) in [("a.png", &b"\x89PNG\r\n\x1a\n\0\0"[..]), ("notes.txt", b"just some words\nmore"), ("a.json", b"title,x"), ("x", b"")] {
            let e = parse(name, bytes).unwrap_err();
            assert_eq!(e.exit_code(), 2, "{name}");
            assert!(e.to_string().contains("neither CSV nor JSON"), "{e}");
        }
    }
}
