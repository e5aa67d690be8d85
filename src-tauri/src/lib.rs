//! The desktop shell: one `#[tauri::command]` per core command (docs/ipc.md), logs in the data folder, one
//! instance at a time (the single-instance plugin focuses the first window over D-Bus; without D-Bus the
//! core's lock on the data folder refuses the second start and this one exits saying so). Profiles live
//! in the core's `settings.json` (atomic writes, set aside when damaged); tauri-plugin-store is kept for
//! UI preferences only (none yet) and never holds a profile.
//!
//! Every command takes at most one argument named `args` and returns `Result<T, IpcError>`, so the web
//! view receives either the value or the `{code, message, ...}` object.
// Commands fail with the core's one `IpcError` (see crates/core/src/lib.rs for why it is not boxed).
#![allow(clippy::result_large_err)]
use contentdesk_core::commands::{self as c, JobStatus, StudioEvent, StudioJob};
use contentdesk_core::{AppState, CoreConfig, IpcError};
use std::path::PathBuf;
use std::sync::{Arc, OnceLock};
use std::time::Instant;
use tauri::{Manager, Runtime, State};

mod memory;
pub mod update;

type R<T> = Result<T, IpcError>;

/// One `#[tauri::command]` per core command, from the core's command table (`with_commands!`): the
/// same name, `args` and result as `ipc::dispatch`; each waits for the core, then calls it.
macro_rules! desktop_commands {
    ($( $group:literal { $( $(#[doc = $doc:literal])* $name:ident ( $($args:ty)? ) -> $ret:ty ; )* } )*) => {
        $($( desktop_command!($(#[doc = $doc])* $name ( $($args)? ) -> $ret); )*)*

        /// Every command the web view may call: the core's, and the five of the desktop shell.
        pub fn invoke_handler<Rt: Runtime>() -> impl Fn(tauri::ipc::Invoke<Rt>) -> bool + Send + Sync + 'static {
            tauri::generate_handler![$($($name,)*)* ui_ready, open_external, update::update_install, app_restart, save_download]
        }
    };
}

macro_rules! desktop_command {
    ($(#[doc = $doc:literal])* $name:ident () -> $ret:ty) => {
        $(#[doc = $doc])*
        #[tauri::command]
        async fn $name(state: State<'_, Core>) -> R<$ret> {
            c::$name(&state.ready().await?).await
        }
    };
    ($(#[doc = $doc:literal])* $name:ident ($args:ty) -> $ret:ty) => {
        $(#[doc = $doc])*
        #[tauri::command]
        async fn $name(state: State<'_, Core>, args: $args) -> R<$ret> {
            c::$name(&state.ready().await?, args).await
        }
    };
}

contentdesk_core::with_commands!(desktop_commands);

/// The core, started in the background so that WebKit starts loading the UI meanwhile (the keyring
/// probe and the sandbox's start overlap the web view's own start). Commands wait for it.
#[derive(Clone)]
pub struct Core {
    rx: tokio::sync::watch::Receiver<Option<Result<AppState, String>>>,
}

impl Core {
    /// A core that is already running (tests).
    #[cfg(feature = "testing")]
    pub fn ready_with(state: AppState) -> Core {
        let (_tx, rx) = tokio::sync::watch::channel(Some(Ok(state)));
        Core { rx }
    }

    /// Starts the core on Tauri's runtime; returns at once.
    pub fn start<Rt: Runtime>(app: &tauri::AppHandle<Rt>) -> Core {
        let (tx, rx) = tokio::sync::watch::channel(None);
        let app = app.clone();
        tauri::async_runtime::spawn(async move {
            let result = start_core(&app).await;
            match &result {
                Ok(state) => {
                    tracing::info!(version = env!("CARGO_PKG_VERSION"), pid = std::process::id(), data_dir = %state.data_dir().display(), keys = ?state.key_storage(), "core started");
                    // Offline edits kept in the outbox are sent when the service answers again.
                    contentdesk_core::drafts::spawn_sync_loop(state.clone(), std::time::Duration::from_secs(10));
                    forward_studio_events(&app, state);
                }
                Err(e) if e.contains(contentdesk_core::state::ALREADY_RUNNING) => {
                    // No D-Bus (or the plugin did not answer): the first instance holds the data folder.
                    eprintln!("{e}");
                    tracing::error!(error = %e, "another instance holds the data folder; exiting");
                    app.exit(1);
                }
                Err(e) => tracing::error!(error = %e, "core failed to start"),
            }
            let _ = tx.send(Some(result));
        });
        Core { rx }
    }

    /// The running core, once it has started.
    pub async fn ready(&self) -> Result<AppState, IpcError> {
        let mut rx = self.rx.clone();
        let result = rx
            .wait_for(|v| v.is_some())
            .await
            .map_err(|_| IpcError::internal("Content Desk's core stopped; restart the app."))?
            .clone();
        match result {
            Some(Ok(state)) => Ok(state),
            Some(Err(e)) => Err(IpcError::internal(format!("Content Desk could not start: {e}"))),
            None => Err(IpcError::internal("Content Desk's core is not running.")),
        }
    }
}

/// A render that took at least this long gets a desktop notification when it finishes.
const LONG_RENDER_MS: i64 = 20_000;

/// Sends the studio's events to the web view (`studio://event`) and, when a long render finishes, a
/// desktop notification (the user has likely moved on to something else).
fn forward_studio_events<Rt: Runtime>(app: &tauri::AppHandle<Rt>, state: &AppState) {
    use tauri::Emitter;
    let mut rx = state.studio().subscribe();
    let app = app.clone();
    tauri::async_runtime::spawn(async move {
        use tokio::sync::broadcast::error::RecvError;
        let mut notified = std::collections::HashSet::new();
        loop {
            let ev = match rx.recv().await {
                Ok(ev) => ev,
                Err(RecvError::Lagged(_)) => continue,
                Err(RecvError::Closed) => return,
            };
            if let StudioEvent::Job { job } = &ev {
                let long = job.completed_at.is_some_and(|t| t - job.created_at >= LONG_RENDER_MS);
                if long && matches!(job.status, JobStatus::Completed | JobStatus::Failed) && notified.insert(job.output_id.clone()) {
                    let (title, body) = finished_note(job);
                    tauri::async_runtime::spawn_blocking(move || notify(&title, &body));
                }
            }
            if let Err(e) = app.emit(contentdesk_core::studio::EVENT_NAME, &ev) {
                tracing::warn!(error = %e, "studio event not delivered to the window");
            }
        }
    });
}

fn finished_note(job: &StudioJob) -> (String, String) {
    let what = job.form.prompt.as_deref().or(job.form.text.as_deref()).unwrap_or(&job.model_id);
    let what: String = what.chars().take(80).collect();
    match job.status {
        JobStatus::Completed => ("Render finished".into(), format!("{what} — open the Studio to see it.")),
        _ => ("Render failed".into(), format!("{what} — {}", job.error.as_deref().unwrap_or("see the Studio's queue."))),
    }
}

/// A desktop notification through the freedesktop Notifications service; logged and skipped when
/// none runs (a bare session, CI).
#[cfg(target_os = "linux")]
fn notify(title: &str, body: &str) {
    use dbus::arg::{RefArg, Variant};
    let sent = dbus::blocking::Connection::new_session().and_then(|conn| {
        let proxy = conn.with_proxy("org.freedesktop.Notifications", "/org/freedesktop/Notifications", std::time::Duration::from_secs(2));
        let hints: std::collections::HashMap<&str, Variant<Box<dyn RefArg>>> = std::collections::HashMap::new();
        let (_id,): (u32,) = proxy.method_call(
            "org.freedesktop.Notifications",
            "Notify",
            ("Content Desk", 0u32, "", title, body, Vec::<&str>::new(), hints, 8000i32),
        )?;
        Ok(())
    });
    match sent {
        Ok(()) => tracing::info!(title, "desktop notification shown"),
        Err(e) => tracing::info!(error = %e, "no desktop notification (no notification service)"),
    }
}

/// macOS: Notification Center through `osascript` (in every macOS), the title and body passed as the
/// script's arguments, never spliced into its text. Not built on this Linux machine.
#[cfg(target_os = "macos")]
fn notify(title: &str, body: &str) {
    let shown = std::process::Command::new("osascript")
        .args(["-e", "on run argv", "-e", "display notification (item 2 of argv) with title (item 1 of argv)", "-e", "end run", "--"])
        .args([title, body])
        .stdin(std::process::Stdio::null())
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .status();
    match shown {
        Ok(s) if s.success() => tracing::info!(title, "desktop notification shown"),
        other => tracing::info!(?other, "no desktop notification (osascript failed)"),
    }
}

/// Windows: a toast through the WinRT ToastNotificationManager from Windows PowerShell (in every Windows
/// 10 and 11), for the app's AppUserModelID (the bundle identifier, which the NSIS and MSI installers
/// put on the Start-menu shortcut). The title and body go in environment variables, never into the
/// script's text; no console window opens. Not built on this Linux machine.
#[cfg(target_os = "windows")]
fn notify(title: &str, body: &str) {
    use std::os::windows::process::CommandExt;
    const CREATE_NO_WINDOW: u32 = 0x0800_0000;
    const SCRIPT: &str = "$ErrorActionPreference = 'Stop'; \
        [Windows.UI.Notifications.ToastNotificationManager, Windows.UI.Notifications, ContentType = WindowsRuntime] > $null; \
        $x = [Windows.UI.Notifications.ToastNotificationManager]::GetTemplateContent([Windows.UI.Notifications.ToastTemplateType]::ToastText02); \
        $t = $x.GetElementsByTagName('text'); \
        $t.Item(0).AppendChild($x.CreateTextNode($env:CONTENTDESK_NOTIFY_TITLE)) > $null; \
        $t.Item(1).AppendChild($x.CreateTextNode($env:CONTENTDESK_NOTIFY_BODY)) > $null; \
        [Windows.UI.Notifications.ToastNotificationManager]::CreateToastNotifier($env:CONTENTDESK_NOTIFY_APP).Show([Windows.UI.Notifications.ToastNotification]::new($x))";
    let shown = std::process::Command::new("powershell.exe")
        .args(["-NoProfile", "-NonInteractive", "-ExecutionPolicy", "Bypass", "-Command", SCRIPT])
        .env("CONTENTDESK_NOTIFY_TITLE", title)
        .env("CONTENTDESK_NOTIFY_BODY", body)
        .env("CONTENTDESK_NOTIFY_APP", "ai.contentdesk.app")
        .creation_flags(CREATE_NO_WINDOW)
        .stdin(std::process::Stdio::null())
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .status();
    match shown {
        Ok(s) if s.success() => tracing::info!(title, "desktop notification shown"),
        other => tracing::info!(?other, "no desktop notification (the toast could not be shown)"),
    }
}

#[cfg(not(any(target_os = "linux", target_os = "macos", target_os = "windows")))]
fn notify(title: &str, _body: &str) {
    tracing::info!(title, "render finished (no desktop notifications on this system)");
}

/// When the process started, for the launch benchmark's `painted` line.
pub static STARTED: OnceLock<Instant> = OnceLock::new();

#[derive(serde::Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
struct OpenExternalArgs {
    url: String,
}

/// The web addresses the desktop window may hand to the system's browser: `https:`, `http:` and
/// `mailto:` only (a link in rendered Markdown; nothing else, never a file or a custom scheme).
pub fn external_url(raw: &str) -> Result<String, IpcError> {
    let bad = || IpcError::validation("url", "Only web (https://…) and mail (mailto:…) links open outside the app.");
    let trimmed = raw.trim();
    let scheme = trimmed.split_once(':').map(|(s, _)| s.to_ascii_lowercase()).ok_or_else(bad)?;
    let host_ok = trimmed.split_once("://").is_some_and(|(_, rest)| rest.split(['/', '?', '#']).next().is_some_and(|h| !h.is_empty()));
    match scheme.as_str() {
        "https" | "http" if host_ok && !trimmed.chars().any(char::is_whitespace) => Ok(trimmed.to_string()),
        "mailto" if trimmed.len() > 7 && !trimmed.chars().any(char::is_whitespace) => {
            // Some mail programs attach a local file named in the link (`attach=`, `attachment=`): only
            // the ordinary header fields pass.
            let query = trimmed.split_once('?').map_or("", |(_, q)| q);
            let plain = query.split('&').filter(|p| !p.is_empty()).all(|p| {
                let name = p.split_once('=').map_or(p, |(n, _)| n).to_ascii_lowercase();
                matches!(name.as_str(), "subject" | "body" | "cc" | "bcc" | "to" | "in-reply-to")
            });
            if plain {
                Ok(trimmed.to_string())
            } else {
                Err(IpcError::validation("url", "This mail link asks to attach a file; only to, cc, bcc, subject and body open outside the app."))
            }
        }
        _ => Err(bad()),
    }
}

#[derive(serde::Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
struct SaveDownloadArgs {
    file_name: String,
    text: String,
}

/// Saves a file the core made (a calendar export, a backup) in the user's downloads folder (the home folder
/// when there is none) and answers its path. WebKitGTK's own download of a Blob lands in the process's
/// working folder (for an app started from a menu: the home folder, or `/`), and the page cannot tell
/// where, so the desktop saves it here and the UI names the place.
#[tauri::command]
fn save_download<Rt: Runtime>(app: tauri::AppHandle<Rt>, args: SaveDownloadArgs) -> R<String> {
    let dir = app.path().download_dir().or_else(|_| app.path().home_dir()).map_err(|e| IpcError::internal(format!("no downloads folder: {e}")))?;
    let path = save_into(&dir, &args.file_name, args.text.as_bytes())
        .map_err(|e| IpcError::internal(format!("could not save {} in {}: {e}", args.file_name, dir.display())))?;
    tracing::info!(path = %path.display(), bytes = args.text.len(), "file saved");
    Ok(path.display().to_string())
}

/// Writes `bytes` as a new file in `dir` named after the last part of `name` (never a path: `../x` is `x`),
/// adding " (2)", " (3)"... before the extension while the name is taken: nothing is overwritten.
pub fn save_into(dir: &std::path::Path, name: &str, bytes: &[u8]) -> std::io::Result<PathBuf> {
    use std::io::Write;
    let base = name.rsplit(['/', '\\']).next().unwrap_or("").trim();
    let base = if base.is_empty() || base == "." || base == ".." { "content-desk-file" } else { base };
    let base: String = base.chars().map(|c| if c.is_control() { '_' } else { c }).collect();
    let (stem, ext) = match base.rfind('.') {
        Some(i) if i > 0 => (&base[..i], &base[i..]),
        _ => (base.as_str(), ""),
    };
    std::fs::create_dir_all(dir)?;
    for n in 1..10_000 {
        let path = if n == 1 { dir.join(&base) } else { dir.join(format!("{stem} ({n}){ext}")) };
        match std::fs::OpenOptions::new().write(true).create_new(true).open(&path) {
            Ok(mut f) => {
                f.write_all(bytes)?;
                return Ok(path);
            }
            Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => continue,
            Err(e) => return Err(e),
        }
    }
    Err(std::io::Error::other("too many files of that name"))
}

/// Quits and starts Content Desk again (Settings › Backup, "Restart now" after a restore: the staged files
/// are written as the core starts, before anything reads them). Never returns.
#[tauri::command]
fn app_restart<Rt: Runtime>(app: tauri::AppHandle<Rt>) {
    tracing::info!("restart asked for by the UI");
    app.restart()
}

/// Opens a link in the system's browser (the web view opens no windows of its own).
#[tauri::command]
fn open_external(args: OpenExternalArgs) -> R<()> {
    let url = external_url(&args.url)?;
    #[cfg(target_os = "linux")]
    let opener = "xdg-open";
    #[cfg(target_os = "macos")]
    let opener = "open";
    #[cfg(target_os = "windows")]
    let opener = "explorer";
    std::process::Command::new(opener)
        .arg(&url)
        .stdin(std::process::Stdio::null())
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .spawn()
        .map(|_| ())
        .map_err(|e| IpcError::internal(format!("Could not open the browser ({e}); copy the link instead: {url}")))
}

/// The UI calls this once its first data render is on screen: logged, and with the `bench` feature
/// printed as `painted <ms>` (the launch benchmark reads it).
#[tauri::command]
fn ui_ready() {
    static ONCE: OnceLock<()> = OnceLock::new();
    if ONCE.set(()).is_ok() {
        let ms = STARTED.get().map(|t| t.elapsed().as_secs_f64() * 1000.0).unwrap_or(0.0);
        #[cfg(feature = "bench")]
        println!("painted {ms:.0}");
        tracing::info!(ms, "first data render painted");
        // The start's burst of allocations is over: its freed memory goes back to the system.
        std::thread::spawn(memory::release_free);
    }
}


/// The data folder: `CONTENTDESK_DATA_DIR` (tests, benchmarks) or the platform's app data folder.
pub fn data_dir<Rt: Runtime>(app: &tauri::AppHandle<Rt>) -> Result<PathBuf, String> {
    if let Some(d) = std::env::var_os("CONTENTDESK_DATA_DIR") {
        return Ok(PathBuf::from(d));
    }
    app.path().app_data_dir().map_err(|e| format!("no app data folder: {e}"))
}

/// Logs to stderr and `logs/contentdesk.log` in the data folder. Nothing logged holds a key: the core
/// logs profile ids and outcomes, and the client's key type redacts itself.
fn init_logging(dir: &std::path::Path) {
    use tracing_subscriber::{fmt, prelude::*, EnvFilter};
    let logs = dir.join("logs");
    let _ = std::fs::create_dir_all(&logs);
    let filter = EnvFilter::try_from_default_env().unwrap_or_else(|_| EnvFilter::new("info"));
    let file = std::fs::OpenOptions::new().create(true).append(true).open(logs.join("contentdesk.log"));
    let registry = tracing_subscriber::registry().with(filter).with(fmt::layer().with_writer(std::io::stderr));
    let _ = match file {
        Ok(f) => registry.with(fmt::layer().with_ansi(false).with_writer(Arc::new(f))).try_init(),
        Err(_) => registry.try_init(),
    };
}

/// Builds the core for this window: profiles in the core's `settings.json` (the file tauri-plugin-store
/// wrote before, same format, read as it is), keys in the OS keyring (memory when none answers), the
/// embedded sandbox.
pub async fn start_core<Rt: Runtime>(app: &tauri::AppHandle<Rt>) -> Result<AppState, String> {
    let dir = data_dir(app)?;
    std::fs::create_dir_all(&dir).map_err(|e| format!("cannot create {}: {e}", dir.display()))?;
    init_logging(&dir);
    AppState::start(CoreConfig::from_env(&dir)).await.map_err(|e| e.message)
}

/// The desktop app.
pub fn run() {
    let _ = STARTED.set(Instant::now());
    memory::limit_arenas();
    memory::no_software_compositing();
    let result = tauri::Builder::default()
        .plugin(tauri_plugin_single_instance::init(|app, _argv, _cwd| {
            if let Some(w) = app.get_webview_window("main") {
                let _ = w.unminimize();
                let _ = w.show();
                let _ = w.set_focus();
            }
        }))
        .plugin(tauri_plugin_store::Builder::new().build())
        .plugin(update::plugin())
        .setup(|app| {
            app.manage(Core::start(app.handle()));
            Ok(())
        })
        .invoke_handler(invoke_handler())
        .run(tauri::generate_context!());
    if let Err(e) = result {
        eprintln!("Content Desk could not start: {e}");
        std::process::exit(1);
    }
}
