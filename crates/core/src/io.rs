//! Import and export in the app (issue 28 point 6): the catalogue's `card import` and `calendar export`
//! (`contentdesk_ops::import`, `contentdesk_ops::calendar`) run over the selected profile's client, so the
//! app, `cdesk` and the agent tools share one parser, one set of row rules and one ICS writer.
//!
//! The web view hands over the file's text (it read the file the user chose): the core never opens a path
//! the web view names, so `text` is required. Progress is the UI's: it creates the rows a few lines at a
//! time (`lines`), each call idempotent by the rows' keys.
use contentdesk_ops::calendar::{CalendarExport, CalendarExportInput, ExportFormat};
use contentdesk_ops::import::{CardImport, CardImportInput};
use contentdesk_ops::{Cx, Operation};
use serde::{Deserialize, Serialize};
use ts_rs::TS;

use crate::error::{IpcError, IpcResult};
use crate::session::Session;

/// A row of the file the import made (or would make).
#[derive(Debug, Clone, Deserialize, Serialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct ImportRow {
    /// The line the row starts on (CSV: counting the header as 1; JSON: the object's line).
    pub line: u32,
    /// The row's key, kept on its card as the notes' last line `cdesk-import-key: KEY`.
    pub key: String,
    pub title: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub stage: Option<String>,
    pub platforms: Vec<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub scheduled_at: Option<String>,
    /// The card made (absent in a dry run).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub card_id: Option<String>,
}

/// A row whose key is already on a card of the space: not made again.
#[derive(Debug, Clone, Deserialize, Serialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct ImportExisting {
    pub line: u32,
    pub key: String,
    pub title: String,
    pub card_id: String,
}

/// A row refused: its line, the field at fault and why.
#[derive(Debug, Clone, Deserialize, Serialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct ImportRefused {
    pub line: u32,
    pub field: String,
    pub message: String,
}

/// What an import did (or, `dryRun`, would do).
#[derive(Debug, Clone, Deserialize, Serialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct ImportReport {
    pub dry_run: bool,
    /// `csv` or `json`.
    pub format: String,
    pub file: String,
    pub existing: Vec<ImportExisting>,
    pub refused: Vec<ImportRefused>,
    /// Columns (CSV) or fields (JSON) the import does not read.
    pub ignored_columns: Vec<String>,
    /// A dry run: the rows it would make.
    #[serde(default)]
    pub would_create: Vec<ImportRow>,
    /// The rows made.
    #[serde(default)]
    pub created: Vec<ImportRow>,
}

/// The catalogue's import over the selected profile; `text` is required (the web view read the file).
pub async fn card_import(session: &impl Session, args: CardImportInput) -> IpcResult<ImportReport> {
    if args.text.is_none() {
        return Err(IpcError::validation("text", "Give the file's content (the app reads the file you choose; it opens no path)."));
    }
    let client = session.client().await?;
    let reply = CardImport::run(Cx::new(client), args).await?;
    serde_json::from_value(reply).map_err(|e| IpcError::internal(format!("the import's report could not be read: {e}")))
}

/// A calendar file, ready to save.
#[derive(Debug, Clone, Serialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct ExportedFile {
    pub format: ExportFormat,
    pub media_type: String,
    /// A name to save it under: `content-desk-<space>-<from>-<to>.<ext>`.
    pub file_name: String,
    /// The events in it.
    pub count: u32,
    pub text: String,
}

/// The catalogue's calendar export over the selected profile, with a file name.
pub async fn calendar_export(session: &impl Session, args: CalendarExportInput) -> IpcResult<ExportedFile> {
    let client = session.client().await?;
    let format = args.format;
    let reply = CalendarExport::run(Cx::new(client), args).await?;
    let text = |k: &str| reply.get(k).and_then(serde_json::Value::as_str).unwrap_or_default().to_string();
    let space = reply.get("space").and_then(|s| s.get("name")).and_then(serde_json::Value::as_str).unwrap_or("calendar");
    let ext = match format {
        ExportFormat::Ics => "ics",
        ExportFormat::Csv => "csv",
        ExportFormat::Json => "json",
    };
    let day = |k: &str| text(k).chars().take(10).collect::<String>();
    let file_name = format!("content-desk-{}-{}-{}.{ext}", slug(space), day("from"), day("to"));
    Ok(ExportedFile {
        format,
        media_type: text("mediaType"),
        file_name,
        count: reply.get("count").and_then(serde_json::Value::as_u64).unwrap_or(0) as u32,
        text: text("document"),
    })
}

/// A name safe in a file name: letters and digits, the rest as `-`, at most 40 characters.
fn slug(name: &str) -> String {
    let s: String = name.chars().map(|c| if c.is_alphanumeric() { c.to_ascii_lowercase() } else { '-' }).collect();
    let s: String = s.split('-').filter(|p| !p.is_empty()).collect::<Vec<_>>().join("-");
    let s: String = s.chars().take(40).collect();
    if s.is_empty() {
        "calendar".into()
    } else {
        s
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn a_space_name_becomes_a_safe_file_name() {
        assert_eq!(super::slug("Spring launch / Q2!"), "spring-launch-q2");
        assert_eq!(super::slug("../.."), "calendar");
    }
}
