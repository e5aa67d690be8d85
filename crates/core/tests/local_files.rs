//! The files on this computer under faults (issue 12, points 1 and 2), on real files: each local file
//! (`settings.json`, `outbox.json`, `studio.db`, `sandbox.db`) truncated and corrupted in turn, then the
//! core started again (it starts, the file is set aside as `<name>.damaged-<UTC time>` and named in
//! `app_info.notices`, nothing else is lost); a full disk (a small tmpfs) during a save (the previous file
//! intact, the error says the disk is full); one core per data folder (a second start refuses, and
//! works once the first is gone); 200 alternating writes of two cores on two folders; the embedded
//! sandbox's key reused across starts.
mod common;
use common::temp_dir;
use contentdesk_core::commands::{self as c, *};
use contentdesk_core::{AppState, CoreConfig, MemoryStore, SecretStore, Secrets};
use serde_json::json;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Duration;

fn config(dir: &Path, store: &Arc<MemoryStore>, embedded: bool) -> CoreConfig {
    CoreConfig {
        data_dir: dir.to_path_buf(),
        settings: None,
        secrets: Secrets::Store(store.clone()),
        embedded_sandbox: embedded,
        embedded_sandbox_config: sandbox::Config::for_tests(),
    }
}

async fn start(dir: &Path, store: &Arc<MemoryStore>) -> AppState {
    AppState::start(config(dir, store, true)).await.expect("core starts")
}

/// "Closes the app": stops its pollers and drops it; waits until the folder's lock is free.
async fn stop(app: AppState) {
    app.studio().shutdown();
    drop(app);
    tokio::time::sleep(Duration::from_millis(100)).await;
}

fn damaged_copies(dir: &Path, name: &str) -> Vec<PathBuf> {
    let prefix = format!("{name}.damaged-");
    let mut v: Vec<PathBuf> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.file_name().unwrap().to_string_lossy().starts_with(&prefix))
        .filter(|p| !p.to_string_lossy().ends_with("-wal") && !p.to_string_lossy().ends_with("-shm"))
        .collect();
    v.sort();
    v
}

/// What a data folder holds, to compare before and after: the profiles (names), the render queue
/// (output ids of the sandbox profile, or of every profile when it was lost), the outbox bytes, and
/// whether the sandbox key answers.
struct Snapshot {
    profiles: Vec<String>,
    jobs: Vec<String>,
    outbox: Vec<u8>,
    sandbox_ok: bool,
}

async fn snapshot(app: &AppState, dir: &Path) -> Snapshot {
    let view = c::profiles_list(app).await.unwrap();
    let mut profiles: Vec<String> = view.profiles.iter().map(|p| p.name.clone()).collect();
    profiles.sort();
    let mut jobs: Vec<String> = c::studio_jobs(app).await.unwrap().into_iter().map(|j| j.output_id).collect();
    jobs.sort();
    Snapshot {
        profiles,
        jobs,
        outbox: std::fs::read(dir.join("outbox.json")).unwrap_or_default(),
        sandbox_ok: c::balance(app).await.is_ok(),
    }
}

/// A data folder as a user's looks: the sandbox profile with a finished render, a remote profile, and
/// kept changes in the outbox.
async fn populated() -> (PathBuf, Arc<MemoryStore>, String) {
    let dir = temp_dir("local-files");
    let store = Arc::new(MemoryStore::new());
    let app = start(&dir, &store).await;
    let sandbox_id = c::profiles_list(&app).await.unwrap().selected_id.unwrap();
    c::profile_add(&app, ProfileAddArgs { name: "Work".into(), base_url: Some("https://work.example/api/v1".into()) }).await.unwrap();
    let form: StudioForm = serde_json::from_value(json!({ "media": "image", "modelId": "nano-banana-2", "prompt": "kept" })).unwrap();
    let id = uuid::Uuid::new_v4().to_string();
    c::studio_generate(&app, StudioGenerateArgs { form, output_id: id.clone() }).await.unwrap();
    for _ in 0..100 {
        if c::studio_jobs(&app).await.unwrap()[0].status == JobStatus::Completed {
            break;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    // A kept change of the sandbox profile (the outbox's documented shape).
    let outbox = json!({ "version": 2, "profiles": { sandbox_id.clone(): { "cards": [], "brandKits": {
        "kit-1": { "sections": [], "archived": [{ "key": "old", "id": "sec-1", "sectionName": "Old", "tab": "overview", "archivedAt": 1.0 }] } } } } });
    std::fs::write(dir.join("outbox.json"), serde_json::to_vec_pretty(&outbox).unwrap()).unwrap();
    stop(app).await;
    (dir, store, sandbox_id)
}

#[derive(Clone, Copy, Debug)]
enum Fault {
    /// Cut to half its length (a crash mid-write of a non-atomic writer).
    Truncate,
    /// Garbage written over its middle (a bad sector, another program).
    Corrupt,
}

fn inflict(path: &Path, fault: Fault) -> Vec<u8> {
    let mut bytes = std::fs::read(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    match fault {
        Fault::Truncate => bytes.truncate(bytes.len() / 2),
        Fault::Corrupt => {
            let (from, to) = if bytes.len() > 4096 { (0, 4096) } else { (bytes.len() / 3, bytes.len() / 3 + 16) };
            for (i, b) in bytes[from..to].iter_mut().enumerate() {
                *b = (i as u8).wrapping_mul(37) ^ 0xA5;
            }
        }
    }
    std::fs::write(path, &bytes).unwrap();
    // SQLite's write-ahead log would otherwise repair what was cut.
    for side in ["-wal", "-shm"] {
        let mut p = path.as_os_str().to_owned();
        p.push(side);
        let _ = std::fs::remove_file(PathBuf::from(p));
    }
    bytes
}

#[tokio::test]
async fn each_local_file_truncated_or_corrupted_is_set_aside_and_the_app_starts_with_everything_else() {
    for file in ["settings.json", "outbox.json", "studio.db", "sandbox.db"] {
        for fault in [Fault::Truncate, Fault::Corrupt] {
            let (dir, store, _) = populated().await;
            // What the other files hold, read by a core before the fault.
            let app = start(&dir, &store).await;
            let before = snapshot(&app, &dir).await;
            assert_eq!(before.jobs.len(), 1);
            stop(app).await;
            // Checkpoint the WAL so the damage is in the file itself.
            let damaged_bytes = inflict(&dir.join(file), fault);

            let app = AppState::start(config(&dir, &store, true))
                .await
                .unwrap_or_else(|e| panic!("{file} {fault:?}: the core did not start: {e:?}"));
            let copies = damaged_copies(&dir, file);
            assert_eq!(copies.len(), 1, "{file} {fault:?}: set aside once");
            assert_eq!(std::fs::read(&copies[0]).unwrap(), damaged_bytes, "{file} {fault:?}: the damaged bytes are kept as they were");
            let info = c::app_info(&app).await.unwrap();
            let aside_name = copies[0].file_name().unwrap().to_string_lossy().into_owned();
            assert!(info.notices.iter().any(|n| n.contains(&aside_name)), "{file} {fault:?}: the user is told where: {:?}", info.notices);

            let after = snapshot(&app, &dir).await;
            match file {
                "settings.json" => {
                    // The profiles are in the copy set aside, never written over; the rest is there.
                    assert_eq!(after.profiles, vec!["Sandbox".to_string()]);
                    assert_eq!(after.outbox, before.outbox, "outbox kept");
                    assert!(after.sandbox_ok);
                    assert!(
                        info.notices.iter().any(|n| n.contains("1 render(s)") && n.contains("1 change(s)")),
                        "the old profile's render and kept change are shown, not polled: {:?}",
                        info.notices
                    );
                }
                "outbox.json" => {
                    assert_eq!(after.profiles, before.profiles);
                    assert_eq!(after.jobs, before.jobs);
                    assert!(after.sandbox_ok);
                    assert!(after.outbox.is_empty(), "starts with no kept changes");
                }
                "studio.db" => {
                    assert_eq!(after.profiles, before.profiles);
                    assert_eq!(after.outbox, before.outbox);
                    assert!(after.sandbox_ok);
                    assert!(after.jobs.is_empty(), "a fresh queue");
                }
                "sandbox.db" => {
                    assert_eq!(after.profiles, before.profiles);
                    assert_eq!(after.jobs, before.jobs);
                    assert_eq!(after.outbox, before.outbox);
                    assert!(after.sandbox_ok, "a fresh local sandbox with a fresh key");
                }
                _ => unreachable!(),
            }
            if file == "settings.json" && matches!(fault, Fault::Corrupt) {
                // The remote profile is in the copy set aside, where the notice says.
                assert!(String::from_utf8_lossy(&damaged_bytes).contains("work.example"));
            }
            stop(app).await;
            let _ = std::fs::remove_dir_all(&dir);
        }
    }
}

/// A small tmpfs mounted on a fresh folder; `None` (with the reason printed) when mounting is refused.
struct Tmpfs(PathBuf);

impl Tmpfs {
    fn mount(size: &str) -> Option<Tmpfs> {
        let dir = temp_dir("tmpfs");
        let out = std::process::Command::new("mount").args(["-t", "tmpfs", "-o", &format!("size={size}"), "tmpfs"]).arg(&dir).output();
        match out {
            Ok(o) if o.status.success() => Some(Tmpfs(dir)),
            Ok(o) => {
                println!("SKIPPED: mount -t tmpfs refused: {}", String::from_utf8_lossy(&o.stderr).trim());
                None
            }
            Err(e) => {
                println!("SKIPPED: mount not available: {e}");
                None
            }
        }
    }
}

impl Drop for Tmpfs {
    fn drop(&mut self) {
        let _ = std::process::Command::new("umount").arg(&self.0).status();
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

/// Fills the file system of `dir` until it refuses another byte.
fn fill(dir: &Path) {
    use std::io::Write;
    let mut f = std::fs::File::create(dir.join("filler")).unwrap();
    let chunk = vec![0u8; 4096];
    while f.write_all(&chunk).and_then(|_| f.sync_all()).is_ok() {}
    let one = [0u8; 1];
    while f.write_all(&one).and_then(|_| f.sync_all()).is_ok() {}
}

#[tokio::test]
async fn a_full_disk_during_a_save_keeps_the_previous_file_and_says_the_disk_is_full() {
    let Some(fs) = Tmpfs::mount("512k") else { return };
    let store = Arc::new(MemoryStore::new());
    let app = AppState::start(config(&fs.0, &store, false)).await.expect("core starts on the tmpfs");
    c::profile_add(&app, ProfileAddArgs { name: "Work".into(), base_url: Some("https://work.example/api/v1".into()) }).await.unwrap();
    let saved = std::fs::read(fs.0.join("settings.json")).unwrap();
    fill(&fs.0);
    // Make the next save need more room than is left.
    let e = c::profile_add(&app, ProfileAddArgs { name: "Second".into(), base_url: Some("https://second.example/api/v1".into()) })
        .await
        .expect_err("the save fails on a full disk");
    assert!(e.message.contains("disk is full"), "{e:?}");
    assert_eq!(std::fs::read(fs.0.join("settings.json")).unwrap(), saved, "the previous file is intact");
    let leftovers: Vec<String> = std::fs::read_dir(&fs.0)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|n| n.ends_with(".tmp"))
        .collect();
    assert!(leftovers.is_empty(), "no temp file left behind: {leftovers:?}");
    stop(app).await;
    // Room again: a restart reads the previous profiles, whole.
    std::fs::remove_file(fs.0.join("filler")).unwrap();
    let app = AppState::start(config(&fs.0, &store, false)).await.unwrap();
    let names: Vec<String> = c::profiles_list(&app).await.unwrap().profiles.into_iter().map(|p| p.name).collect();
    assert_eq!(names, vec!["Work".to_string()]);
    assert!(c::app_info(&app).await.unwrap().notices.is_empty());
    stop(app).await;
}

#[tokio::test]
async fn a_second_core_on_the_same_data_folder_refuses_until_the_first_is_gone() {
    let dir = temp_dir("one-instance");
    let store = Arc::new(MemoryStore::new());
    let first = start(&dir, &store).await;
    let e = AppState::start(config(&dir, &store, true)).await.err().expect("the second start refuses");
    assert!(e.message.contains("Content Desk is already running with this data folder"), "{e:?}");
    // The first is untouched: its sandbox key still works (the second minted nothing).
    assert!(c::balance(&first).await.is_ok());
    stop(first).await;
    let again = start(&dir, &store).await;
    assert!(c::balance(&again).await.is_ok());
    stop(again).await;
}

#[tokio::test]
async fn two_cores_taking_turns_on_one_folder_lose_no_update_over_200_alternating_writes() {
    // Two "instances" of the app on one data folder: while one runs the other is refused; they take turns
    // (20 hand-overs of 10 writes each), and every one of the 200 writes is there at the end.
    let store = Arc::new(MemoryStore::new());
    let dir = temp_dir("turns");
    for round in 0..20 {
        let who = if round % 2 == 0 { "a" } else { "b" };
        let app = AppState::start(config(&dir, &store, false)).await.unwrap();
        assert!(AppState::start(config(&dir, &store, false)).await.is_err(), "round {round}: a second core is refused while one runs");
        for i in 0..10 {
            c::profile_add(&app, ProfileAddArgs { name: format!("{who}-{round}-{i}"), base_url: Some("https://x.example/api/v1".into()) })
                .await
                .unwrap();
        }
        stop(app).await;
    }
    let app = AppState::start(config(&dir, &store, false)).await.unwrap();
    let names: Vec<String> = c::profiles_list(&app).await.unwrap().profiles.into_iter().map(|p| p.name).collect();
    assert_eq!(names.len(), 200, "no lost update: {names:?}");
    for round in 0..20 {
        let who = if round % 2 == 0 { "a" } else { "b" };
        assert!(names.contains(&format!("{who}-{round}-9")), "round {round}'s last write is there");
    }
    stop(app).await;
}

#[tokio::test]
async fn the_embedded_sandbox_key_is_reused_across_starts_not_minted_again() {
    let dir = temp_dir("sandbox-key");
    let store = Arc::new(MemoryStore::new());
    let app = start(&dir, &store).await;
    let id = c::profiles_list(&app).await.unwrap().selected_id.unwrap();
    let key = store.get(&id).unwrap().expect("a key was minted");
    stop(app).await;
    let app = start(&dir, &store).await;
    assert_eq!(store.get(&id).unwrap().as_deref(), Some(key.as_str()), "the live stored key is reused");
    assert!(c::balance(&app).await.is_ok());
    stop(app).await;
    // A key the sandbox no longer knows is replaced.
    store.set(&id, "ch_live_notakey").unwrap();
    let app = start(&dir, &store).await;
    assert_ne!(store.get(&id).unwrap().as_deref(), Some("ch_live_notakey"));
    assert!(c::balance(&app).await.is_ok());
    stop(app).await;
}
