//! `cdesk backup create [-o FILE]` and `cdesk backup restore FILE [--force]`: this computer's data (the
//! app's data folder: settings without keys, outbox, studio queue, queue slots, UI preferences) as one file,
//! through `contentdesk_core::backup`. A restore takes the folder's lock first, so it never writes under a
//! running app.
use clap::{Arg, ArgAction, ArgMatches, Command};
use contentdesk_core::backup;
use contentdesk_core::state::DataDirLock;
use contentdesk_ops::OpError;
use serde_json::{json, Value};
use std::path::PathBuf;

pub fn command() -> Command {
    Command::new("backup")
        .about("Back up or restore this computer's Content Desk data (settings without keys, outbox, studio queue, queue slots, UI preferences)")
        .subcommand_required(true)
        .subcommand(
            Command::new("create")
                .about("Write the data folder's backup as one JSON file (never a key: refused if any part holds one)")
                .arg(Arg::new("output").short('o').long("output").value_name("FILE").value_parser(clap::value_parser!(PathBuf)).help("Write it here (atomically) instead of stdout")),
        )
        .subcommand(
            Command::new("restore")
                .about("Restore a backup into the data folder (empty, or --force to replace); the profiles then need their keys again")
                .arg(Arg::new("file").required(true).value_name("FILE").value_parser(clap::value_parser!(PathBuf)).help("The backup to restore (a file `cdesk backup create` wrote)"))
                .arg(Arg::new("force").long("force").action(ArgAction::SetTrue).help("Replace the files the folder already has")),
        )
}

fn data_dir() -> Result<PathBuf, OpError> {
    crate::keys::app_data_dir().ok_or_else(|| OpError::Usage { message: "cannot find the app's data folder: set CONTENTDESK_DATA_DIR (or HOME)".into(), field: None })
}

fn fail(message: String) -> OpError {
    OpError::Internal(message)
}

/// `backup create`: the backup on stdout (`None` returned: printed raw), or written to `-o` and described.
pub fn create(sub: &ArgMatches) -> Result<Option<Value>, OpError> {
    let dir = data_dir()?;
    let env_key = std::env::var("CONTENTHERO_API_KEY").unwrap_or_default();
    let secrets: Vec<&str> = [env_key.as_str()].into_iter().filter(|s| !s.is_empty()).collect();
    let value = backup::create(&dir, &secrets).map_err(fail)?;
    let text = serde_json::to_string_pretty(&value).map_err(|e| fail(e.to_string()))? + "\n";
    let files: Vec<String> = value["files"].as_object().map(|m| m.keys().cloned().collect()).unwrap_or_default();
    match sub.get_one::<PathBuf>("output") {
        Some(path) => {
            contentdesk_core::jsonfile::write_bytes(path, text.as_bytes()).map_err(fail)?;
            Ok(Some(json!({ "file": path, "dataDir": dir, "files": files, "studioQueue": !value["studioQueue"].is_null() })))
        }
        None => {
            print!("{text}");
            Ok(None)
        }
    }
}

/// `backup restore FILE`: what was written where.
pub fn restore(sub: &ArgMatches) -> Result<Value, OpError> {
    let dir = data_dir()?;
    let file = sub.get_one::<PathBuf>("file").expect("required");
    let bytes = std::fs::read(file).map_err(|e| OpError::Usage { message: format!("cannot read {}: {e}", file.display()), field: Some("file".into()) })?;
    let value: Value = serde_json::from_slice(&bytes).map_err(|e| OpError::Usage { message: format!("{} is not a Content Desk backup ({e})", file.display()), field: Some("file".into()) })?;
    std::fs::create_dir_all(&dir).map_err(|e| fail(format!("cannot create {}: {e}", dir.display())))?;
    let Some(_lock) = DataDirLock::try_take(&dir, "cdesk").map_err(|e| fail(e.message))? else {
        return Err(fail(format!("Content Desk (or another cdesk command) is using {}: quit it, then restore", dir.display())));
    };
    let wrote = backup::restore(&dir, &value, sub.get_flag("force")).map_err(|m| OpError::Usage { message: m, field: Some("file".into()) })?;
    Ok(json!({ "restored": wrote, "dataDir": dir }))
}
