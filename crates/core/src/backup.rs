//! Backup and restore of this computer's data as one JSON file (issue 28 point 6): the settings
//! (`settings.json`: profiles without keys, preferences), the outbox (`outbox.json`), the posting queue's
//! slots (`queue-slots.json`), the UI preferences (`ui-preferences.json`, when the app wrote one) and the
//! studio queue (`studio.db`, copied whole with SQLite's `VACUUM INTO`, base64).
//!
//! Never a key: keys live in the OS keyring (`SecretStore`), never in these files; the backup still drops any
//! settings field named like a secret (`apiKey`, `token`, `secret`, `password`) and is refused, naming the
//! file but not the value, when any part holds text shaped like an API key (`ch_live_…`) or equal to a
//! secret the caller knows. A restore writes the files into a data folder that has none of them (or
//! replaces them with `force`), each atomically; the profiles then need their keys again (`cdesk login`).
use base64::Engine;
use serde_json::{json, Map, Value};
use std::path::Path;

pub const FORMAT: &str = "content-desk-backup";
pub const VERSION: u64 = 1;
/// The JSON files a backup carries, by name in the data folder.
pub const JSON_FILES: [&str; 4] = ["settings.json", "outbox.json", "queue-slots.json", "ui-preferences.json"];
/// The studio queue's database.
pub const STUDIO_DB: &str = "studio.db";
/// The web view's preferences (theme, views, zones), `{ "prefs": { name: value }, "restoredAt"? }`.
pub const UI_PREFERENCES: &str = "ui-preferences.json";
/// A restore chosen in the app, applied at the next start, before anything opens the files.
pub const PENDING: &str = "restore-pending.json";

/// The restore the app staged (`PENDING`), applied now (replacing what is there: the user confirmed it);
/// what to tell the user, `None` when there was none. A restore that fails leaves the pending file aside.
pub fn apply_pending(dir: &Path) -> Option<String> {
    let path = dir.join(PENDING);
    let bytes = std::fs::read(&path).ok()?;
    let done = serde_json::from_slice::<Value>(&bytes).map_err(|e| e.to_string()).and_then(|v| {
        let made = v.get("createdAt").and_then(Value::as_str).unwrap_or("an unknown time").to_string();
        restore(dir, &v, true).map(|wrote| (made, wrote))
    });
    match done {
        Ok((made, wrote)) => {
            let _ = std::fs::remove_file(&path);
            Some(format!("Restored the backup made at {made} ({}). Each ContentHero profile needs its key again (Settings).", wrote.join(", ")))
        }
        Err(e) => {
            let aside = dir.join(format!("{PENDING}.failed-{}", crate::jsonfile::utc_stamp()));
            let _ = std::fs::rename(&path, &aside);
            Some(format!("The backup chosen for restore could not be restored ({e}); nothing was replaced. It is kept as {}.", aside.display()))
        }
    }
}
/// What every API key starts with.
const KEY_SHAPE: &str = api_client::key::KEY_PREFIX;

fn secret_named(name: &str) -> bool {
    let n = name.to_ascii_lowercase().replace(['_', '-'], "");
    n.ends_with("apikey") || n.ends_with("token") || n.ends_with("secret") || n.ends_with("password")
}

/// Drops the fields named like a secret, at any depth.
fn without_secret_fields(v: &mut Value) {
    match v {
        Value::Object(m) => {
            m.retain(|k, _| !secret_named(k));
            m.values_mut().for_each(without_secret_fields);
        }
        Value::Array(items) => items.iter_mut().for_each(without_secret_fields),
        _ => {}
    }
}

/// Refuses bytes holding a key, naming `part` only.
fn leak_check(part: &str, bytes: &[u8], secrets: &[&str]) -> Result<(), String> {
    let holds = |needle: &[u8]| !needle.is_empty() && bytes.windows(needle.len()).any(|w| w == needle);
    if holds(KEY_SHAPE.as_bytes()) || secrets.iter().any(|s| s.len() >= 8 && holds(s.as_bytes())) {
        return Err(format!("{part} holds what looks like an API key; no backup was written (remove it from {part} and try again)"));
    }
    Ok(())
}

/// The backup of `dir` as one JSON value; `secrets`: keys the caller knows (from the keyring), none of which
/// may appear in it.
pub fn create(dir: &Path, secrets: &[&str]) -> Result<Value, String> {
    let mut files = Map::new();
    for name in JSON_FILES {
        let path = dir.join(name);
        let bytes = match std::fs::read(&path) {
            Ok(b) => b,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => continue,
            Err(e) => return Err(format!("cannot read {}: {e}", path.display())),
        };
        let mut v: Value = serde_json::from_slice(&bytes).map_err(|e| format!("{} is not JSON ({e}); no backup was written", path.display()))?;
        if name == "settings.json" {
            without_secret_fields(&mut v);
        }
        leak_check(name, &serde_json::to_vec(&v).unwrap_or_default(), secrets)?;
        files.insert(name.to_string(), v);
    }
    let db = dir.join(STUDIO_DB);
    let mut studio = Value::Null;
    if db.exists() {
        let copy = dir.join(format!(".studio-backup-{}.db", std::process::id()));
        let _ = std::fs::remove_file(&copy);
        let copied = rusqlite::Connection::open_with_flags(&db, rusqlite::OpenFlags::SQLITE_OPEN_READ_ONLY)
            .and_then(|c| c.execute("VACUUM INTO ?1", [copy.to_string_lossy().as_ref()]).map(|_| ()))
            .map_err(|e| format!("cannot copy the studio queue {}: {e}", db.display()));
        let bytes = copied.and_then(|()| std::fs::read(&copy).map_err(|e| format!("cannot read the studio queue's copy: {e}")));
        let _ = std::fs::remove_file(&copy);
        let bytes = bytes?;
        leak_check(STUDIO_DB, &bytes, secrets)?;
        studio = json!({ "file": STUDIO_DB, "base64": base64::engine::general_purpose::STANDARD.encode(&bytes) });
    }
    Ok(json!({
        "format": FORMAT,
        "version": VERSION,
        "createdAt": crate::jsonfile::utc_stamp(),
        "files": files,
        "studioQueue": studio,
    }))
}

/// A backup's JSON files by name, and its studio queue's bytes.
pub type Contents = (Map<String, Value>, Option<Vec<u8>>);

/// What a backup holds, checked without writing anything: its JSON files and its studio queue's bytes.
/// Refused when it is not a backup, of another version, or holds a file Content Desk does not keep.
pub fn check(backup: &Value) -> Result<Contents, String> {
    if backup.get("format").and_then(Value::as_str) != Some(FORMAT) {
        return Err(format!("not a Content Desk backup (no \"format\": \"{FORMAT}\"); nothing was restored"));
    }
    let version = backup.get("version").and_then(Value::as_u64).unwrap_or(0);
    if version != VERSION {
        return Err(format!("a backup of version {version}; this Content Desk reads version {VERSION}; nothing was restored"));
    }
    let empty = Map::new();
    let files = backup.get("files").and_then(Value::as_object).unwrap_or(&empty);
    if let Some(unknown) = files.keys().find(|k| !JSON_FILES.contains(&k.as_str())) {
        return Err(format!("the backup holds {unknown}, which is not a file Content Desk keeps; nothing was restored"));
    }
    let studio = match backup.get("studioQueue") {
        Some(Value::Object(o)) => {
            let text = o.get("base64").and_then(Value::as_str).unwrap_or("");
            Some(base64::engine::general_purpose::STANDARD.decode(text).map_err(|e| format!("the backup's studio queue is not base64 ({e}); nothing was restored"))?)
        }
        _ => None,
    };
    Ok((files.clone(), studio))
}

/// Writes a backup into `dir`; the names of what it wrote. Refused (nothing written) when the backup is not
/// one, or when `dir` already holds one of its files and `force` is false. The UI preferences are written
/// with `restoredAt` (the time of this restore), so the app's web view takes them over at its next start.
pub fn restore(dir: &Path, backup: &Value, force: bool) -> Result<Vec<String>, String> {
    let (files, studio) = check(backup)?;
    let mut names: Vec<&str> = files.keys().map(String::as_str).collect();
    if studio.is_some() {
        names.push(STUDIO_DB);
    }
    if !force {
        if let Some(there) = names.iter().find(|n| dir.join(n).exists()) {
            return Err(format!("{} already holds {there}; restore into an empty data folder, or pass --force to replace what is there", dir.display()));
        }
    }
    std::fs::create_dir_all(dir).map_err(|e| format!("cannot create {}: {e}", dir.display()))?;
    let mut wrote = Vec::new();
    for (name, v) in &files {
        let mut v = v.clone();
        if name == UI_PREFERENCES {
            if let Some(o) = v.as_object_mut() {
                o.insert("restoredAt".into(), Value::String(crate::jsonfile::utc_stamp()));
            }
        }
        let bytes = serde_json::to_vec_pretty(&v).map_err(|e| e.to_string())?;
        crate::jsonfile::write_bytes(&dir.join(name), &bytes)?;
        wrote.push(name.clone());
    }
    if let Some(bytes) = studio {
        for side in ["studio.db-wal", "studio.db-shm"] {
            let _ = std::fs::remove_file(dir.join(side));
        }
        crate::jsonfile::write_bytes(&dir.join(STUDIO_DB), &bytes)?;
        wrote.push(STUDIO_DB.to_string());
    }
    Ok(wrote)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn folder(tag: &str) -> std::path::PathBuf {
        let d = std::env::temp_dir().join(format!("cdesk-backup-{tag}-{}-{}", std::process::id(), crate::jsonfile::utc_stamp()));
        let _ = std::fs::remove_dir_all(&d);
        std::fs::create_dir_all(&d).unwrap();
        d
    }

    #[test]
    fn restore_into_an_empty_folder_gives_the_same_files_and_never_a_key() {
        let from = folder("from");
        let settings = json!({ "profiles": [{ "id": "p1", "name": "Work", "baseUrl": "https://api.example" }], "theme": "dark", "apiKey": "sk-planted-1234567" });
        std::fs::write(from.join("settings.json"), settings.to_string()).unwrap();
        std::fs::write(from.join("outbox.json"), r#"{"version":3,"profiles":{"p1":{"cards":[]}}}"#).unwrap();
        std::fs::write(from.join("queue-slots.json"), r#"{"acct-1":{"mon":["09:00"]}}"#).unwrap();
        {
            let c = rusqlite::Connection::open(from.join(STUDIO_DB)).unwrap();
            c.execute_batch("CREATE TABLE jobs (id TEXT); INSERT INTO jobs VALUES ('job-1');").unwrap();
        }
        let backup = create(&from, &[]).unwrap();
        assert!(!backup.to_string().contains("sk-planted"), "a field named like a secret is dropped");

        let to = folder("to");
        let wrote = restore(&to, &backup, false).unwrap();
        assert_eq!(wrote, ["outbox.json", "queue-slots.json", "settings.json", STUDIO_DB]);
        let read = |d: &Path, n: &str| serde_json::from_slice::<Value>(&std::fs::read(d.join(n)).unwrap()).unwrap();
        let mut expected = settings.clone();
        expected.as_object_mut().unwrap().remove("apiKey");
        assert_eq!(read(&to, "settings.json"), expected);
        assert_eq!(read(&to, "outbox.json"), read(&from, "outbox.json"));
        assert_eq!(read(&to, "queue-slots.json"), read(&from, "queue-slots.json"));
        let c = rusqlite::Connection::open(to.join(STUDIO_DB)).unwrap();
        assert_eq!(c.query_row("SELECT id FROM jobs", [], |r| r.get::<_, String>(0)).unwrap(), "job-1");

        // Not into a folder that has the files, unless forced.
        assert!(restore(&to, &backup, false).unwrap_err().contains("already holds"));
        assert!(restore(&to, &backup, true).is_ok());
        for d in [from, to] {
            let _ = std::fs::remove_dir_all(d);
        }
    }

    #[test]
    fn a_key_anywhere_refuses_the_backup_without_saying_it() {
        let d = folder("leak");
        std::fs::write(d.join("outbox.json"), json!({ "note": format!("{KEY_SHAPE}abcd1234efgh") }).to_string()).unwrap();
        let e = create(&d, &[]).unwrap_err();
        assert!(e.contains("outbox.json") && !e.contains("abcd1234"), "{e}");
        std::fs::write(d.join("outbox.json"), r#"{"note":"my-own-secret-value"}"#).unwrap();
        assert!(create(&d, &["my-own-secret-value"]).is_err(), "a key the keyring holds is found too");
        assert!(create(&d, &[]).is_ok());
        let _ = std::fs::remove_dir_all(d);
    }

    #[test]
    fn a_staged_restore_replaces_the_files_at_start_and_marks_the_ui_preferences() {
        let from = folder("stage-from");
        std::fs::write(from.join("settings.json"), r#"{"profiles":[{"id":"p1","name":"Old"}],"updates":{"autoCheck":false}}"#).unwrap();
        std::fs::write(from.join(UI_PREFERENCES), r#"{"version":1,"prefs":{"contentdesk.theme":"dark"}}"#).unwrap();
        let backup = create(&from, &[]).unwrap();
        let to = folder("stage-to");
        std::fs::write(to.join("settings.json"), r#"{"profiles":[{"id":"fresh","name":"Sandbox"}]}"#).unwrap();
        assert_eq!(apply_pending(&to), None, "nothing staged, nothing done");
        std::fs::write(to.join(PENDING), backup.to_string()).unwrap();
        let said = apply_pending(&to).unwrap();
        assert!(said.starts_with("Restored the backup made at "), "{said}");
        assert!(!to.join(PENDING).exists());
        let read = |n: &str| serde_json::from_slice::<Value>(&std::fs::read(to.join(n)).unwrap()).unwrap();
        assert_eq!(read("settings.json")["profiles"][0]["id"], "p1", "the folder's settings replaced");
        let prefs = read(UI_PREFERENCES);
        assert_eq!(prefs["prefs"]["contentdesk.theme"], "dark");
        assert!(prefs["restoredAt"].is_string(), "marked for the web view to take once");

        std::fs::write(to.join(PENDING), r#"{"format":"something else"}"#).unwrap();
        let said = apply_pending(&to).unwrap();
        assert!(said.contains("could not be restored") && !to.join(PENDING).exists(), "{said}");
        assert_eq!(read("settings.json")["profiles"][0]["id"], "p1", "nothing replaced");
        for d in [from, to] {
            let _ = std::fs::remove_dir_all(d);
        }
    }

    #[test]
    fn what_is_not_a_backup_is_refused() {
        let d = folder("bad");
        assert!(restore(&d, &json!({ "files": {} }), false).unwrap_err().contains("not a Content Desk backup"));
        assert!(restore(&d, &json!({ "format": FORMAT, "version": 1, "files": { "../etc/passwd": {} } }), false).is_err());
        let _ = std::fs::remove_dir_all(d);
    }
}
