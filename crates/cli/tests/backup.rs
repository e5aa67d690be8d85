//! `cdesk backup create` then `cdesk backup restore` into an empty data folder, as separate processes: the
//! restored folder gives the same settings (read back through the core's own settings store), outbox, queue
//! slots and studio queue; the backup never holds a key (a key planted in a settings field named like one
//! is dropped; a key in any other file refuses the backup, naming the file and not the key); a second
//! restore into the now full folder is refused unless `--force`.
use contentdesk_core::settings::{JsonFileSettings, SettingsBackend};
use serde_json::{json, Value};
use std::path::{Path, PathBuf};
use std::process::Command;

fn folder(tag: &str) -> PathBuf {
    let nanos = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).unwrap().as_nanos();
    let d = std::env::temp_dir().join(format!("cdesk-backup-{tag}-{}-{nanos}", std::process::id()));
    std::fs::create_dir_all(&d).unwrap();
    d
}

fn cdesk(data: &Path, args: &[&str]) -> (i32, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_cdesk"))
        .args(args)
        .env_clear()
        .env("PATH", std::env::var("PATH").unwrap_or_default())
        .env("HOME", data.join("home"))
        .env("CONTENTDESK_DATA_DIR", data)
        .env("CONTENTHERO_API_KEY", "ch_live_testkeyinenvironment0001")
        .output()
        .unwrap();
    (out.status.code().unwrap_or(-1), String::from_utf8_lossy(&out.stdout).into_owned(), String::from_utf8_lossy(&out.stderr).into_owned())
}

#[test]
fn backup_then_restore_into_an_empty_folder_gives_the_same_settings_and_never_a_key() {
    let from = folder("from");
    let settings = JsonFileSettings::open(from.join("settings.json"));
    let profiles = json!([{ "id": "p1", "name": "Work", "baseUrl": "https://api.example/api/v1" }, { "id": "p2", "name": "Sandbox", "sandbox": true }]);
    settings.set("profiles", profiles.clone());
    settings.set("activeProfile", json!("p1"));
    settings.set("updates", json!({ "autoCheck": false }));
    settings.set("apiKey", json!("ch_live_plantedbymistake000000001"));
    settings.save().unwrap();
    std::fs::write(from.join("outbox.json"), json!({ "version": 3, "profiles": { "p1": { "cards": [{ "id": "c1", "title": "Draft" }] } } }).to_string()).unwrap();
    std::fs::write(from.join("queue-slots.json"), json!({ "acct-x": { "mon": ["09:00", "17:30"] } }).to_string()).unwrap();
    {
        let c = rusqlite::Connection::open(from.join("studio.db")).unwrap();
        c.execute_batch("CREATE TABLE jobs (id TEXT, prompt TEXT); INSERT INTO jobs VALUES ('job-1', 'a blue mug');").unwrap();
    }

    let file = from.join("backup.json");
    let (code, out, err) = cdesk(&from, &["backup", "create", "-o", file.to_str().unwrap()]);
    assert_eq!(code, 0, "{err}");
    let said: Value = serde_json::from_str(&out).unwrap();
    assert_eq!(said["files"], json!(["outbox.json", "queue-slots.json", "settings.json"]));
    let text = std::fs::read_to_string(&file).unwrap();
    assert!(!text.contains("ch_live_"), "no key in the backup");

    let to = folder("to").join("fresh");
    let (code, out, err) = cdesk(&to, &["backup", "restore", file.to_str().unwrap()]);
    assert_eq!(code, 0, "{err}");
    assert_eq!(serde_json::from_str::<Value>(&out).unwrap()["restored"], json!(["outbox.json", "queue-slots.json", "settings.json", "studio.db"]));
    let restored = JsonFileSettings::open(to.join("settings.json"));
    for k in ["profiles", "activeProfile", "updates"] {
        assert_eq!(restored.get(k), settings.get(k), "{k}");
    }
    assert_eq!(restored.get("apiKey"), None);
    let read = |d: &Path, n: &str| serde_json::from_slice::<Value>(&std::fs::read(d.join(n)).unwrap()).unwrap();
    assert_eq!(read(&to, "outbox.json"), read(&from, "outbox.json"));
    assert_eq!(read(&to, "queue-slots.json"), read(&from, "queue-slots.json"));
    let c = rusqlite::Connection::open(to.join("studio.db")).unwrap();
    assert_eq!(c.query_row("SELECT prompt FROM jobs", [], |r| r.get::<_, String>(0)).unwrap(), "a blue mug");

    // Into a folder that has them: refused, unless --force.
    let (code, _, err) = cdesk(&to, &["backup", "restore", file.to_str().unwrap()]);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("already holds"), "{err}");
    assert_eq!(cdesk(&to, &["backup", "restore", file.to_str().unwrap(), "--force"]).0, 0);

    // A key anywhere else refuses the backup; the message names the file, never the key.
    std::fs::write(from.join("outbox.json"), json!({ "note": "ch_live_pastedintoanote00000000001" }).to_string()).unwrap();
    let (code, out, err) = cdesk(&from, &["backup", "create"]);
    assert_eq!((code, out.as_str()), (1, ""), "{err}");
    assert!(err.contains("outbox.json") && !err.contains("pastedintoanote"), "{err}");
    for d in [from, to] {
        let _ = std::fs::remove_dir_all(d);
    }
}
