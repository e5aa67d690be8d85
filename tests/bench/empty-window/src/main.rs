//! The benchmark's peer: an empty Tauri 2 window with the same Tauri, features and profile as Content
//! Desk's release build (scripts/bench.sh builds both in one cargo run). Its page (`page/`) calls
//! `painted` once its first frame is on screen; this prints `painted <ms>` like the app's `ui_ready`.
use std::sync::OnceLock;
use std::time::Instant;

static STARTED: OnceLock<Instant> = OnceLock::new();

#[tauri::command]
fn painted() {
    let ms = STARTED.get().map(|t| t.elapsed().as_secs_f64() * 1000.0).unwrap_or(0.0);
    println!("painted {ms:.0}");
}

fn main() {
    let _ = STARTED.set(Instant::now());
    tauri::Builder::default()
        .invoke_handler(tauri::generate_handler![painted])
        .run(tauri::generate_context!())
        .expect("the empty window runs");
}
