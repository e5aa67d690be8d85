//! Settings → Updates → Install: tauri-plugin-updater fetches the package the manifest names, verifies it
//! against the built-in key (`contentdesk_core::update::PUBLIC_KEY`, the signed version required), and
//! installs it; the app then relaunches. Everything else (is there a newer version, once a day, who may
//! replace the install, the notes) is `contentdesk_core::update`, tested without a window.
//!
//! A .deb or .rpm run by someone other than root is the system's to replace: the verified package is saved
//! in the Downloads folder and the user is given the `sudo apt install …` line, once; it is never retried.
//! Root installs it with dpkg/rpm directly (not through pkexec or a sudo prompt, which can hang with no
//! terminal). An AppImage (or macOS, Windows) is replaced by the plugin.
use contentdesk_core::update::{self as u, Installed, Route, UpdateError, UpdatePrefs, UpdateStatus};
use contentdesk_core::IpcError;
use std::sync::atomic::{AtomicBool, Ordering};
use tauri::{Emitter, Manager, Runtime};
use tauri_plugin_updater::UpdaterExt;

/// The event the download's progress goes out on: `{downloaded, total}` (bytes; total null when unknown).
pub const PROGRESS_EVENT: &str = "update://progress";

/// One install at a time (a second click while one runs is refused, not queued).
static INSTALLING: AtomicBool = AtomicBool::new(false);

#[derive(Clone, serde::Serialize)]
struct Progress {
    downloaded: u64,
    total: Option<u64>,
}

/// The plugin, with the key this build trusts.
pub fn plugin<Rt: Runtime>() -> tauri::plugin::TauriPlugin<Rt, tauri_plugin_updater::Config> {
    tauri_plugin_updater::Builder::new().pubkey(u::PUBLIC_KEY).build()
}

fn installed() -> Installed {
    use tauri::utils::{config::BundleType, platform::bundle_type};
    match bundle_type() {
        Some(BundleType::Deb) => Installed::Deb,
        Some(BundleType::Rpm) => Installed::Rpm,
        Some(BundleType::AppImage) => Installed::AppImage,
        _ => Installed::Other,
    }
}

#[cfg(unix)]
fn is_root() -> bool {
    // SAFETY: geteuid has no preconditions and cannot fail.
    unsafe { libc_geteuid() == 0 }
}
#[cfg(unix)]
extern "C" {
    #[link_name = "geteuid"]
    fn libc_geteuid() -> u32;
}
#[cfg(not(unix))]
fn is_root() -> bool {
    false
}

/// What the plugin's failure means for the user.
pub fn plugin_error(version: &str, e: tauri_plugin_updater::Error) -> UpdateError {
    use tauri_plugin_updater::Error as E;
    let version = version.to_string();
    match e {
        E::Minisign(_) | E::Base64(_) | E::SignatureUtf8(_) | E::SignedVersionMismatch { .. } | E::MissingSignedVersion => {
            UpdateError::BadSignature { version, why: e.to_string() }
        }
        E::Reqwest(ref r) if r.is_timeout() => UpdateError::Timeout,
        E::Reqwest(ref r) if r.is_body() || r.is_decode() => UpdateError::CutShort { version },
        E::Reqwest(r) => UpdateError::Unreachable(r.to_string()),
        E::Network(why) => UpdateError::Unreachable(why),
        E::Serialization(e) => UpdateError::BadManifest(e.to_string()),
        E::ReleaseNotFound | E::TargetNotFound(_) | E::TargetsNotFound(_) => UpdateError::NoPackage { version, platform: u::platform_key() },
        other => UpdateError::InstallFailed { version, why: other.to_string() },
    }
}

fn failed(e: UpdateError) -> UpdateStatus {
    tracing::warn!(detail = %e.detail(), "update not installed");
    UpdateStatus::from_check(env!("CARGO_PKG_VERSION"), &Err(e), &UpdatePrefs::default())
}

/// Downloads, verifies and installs the newer version, then relaunches (never returns then). Any failure is
/// a status with a note and the running app untouched; a package only root may install is a status with
/// the line to run.
#[tauri::command]
pub async fn update_install<Rt: Runtime>(app: tauri::AppHandle<Rt>, state: tauri::State<'_, crate::Core>) -> Result<UpdateStatus, IpcError> {
    let core = state.ready().await?;
    if INSTALLING.swap(true, Ordering::SeqCst) {
        return Err(IpcError::validation("update", "An update is being installed already."));
    }
    let result = install(&app, &core).await;
    INSTALLING.store(false, Ordering::SeqCst);
    result
}

async fn install<Rt: Runtime>(app: &tauri::AppHandle<Rt>, core: &contentdesk_core::AppState) -> Result<UpdateStatus, IpcError> {
    let current = env!("CARGO_PKG_VERSION");
    let endpoint = match u::endpoint().parse() {
        Ok(url) => url,
        Err(e) => return Ok(failed(UpdateError::Unreachable(format!("the update URL: {e}")))),
    };
    let updater = app.updater_builder().endpoints(vec![endpoint]).and_then(|b| b.timeout(u::CHECK_TIMEOUT * 8).build());
    let updater = match updater {
        Ok(up) => up,
        Err(e) => return Ok(failed(plugin_error("the update", e))),
    };
    let update = match updater.check().await {
        Ok(Some(update)) => update,
        Ok(None) => return Ok(UpdateStatus::from_check(current, &Ok(None), &UpdatePrefs::default())),
        Err(e) => return Ok(failed(plugin_error("the update", e))),
    };
    let version = update.version.clone();
    let mut prefs = UpdatePrefs::load(core.settings());
    if let Some(m) = prefs.manual.as_ref().filter(|m| m.version == version) {
        // Downloaded and verified before; the user was given the line to run. Not again.
        let available = u::Available { version: version.clone(), notes: update.body.clone(), date: None, url: update.download_url.to_string() };
        let mut status = UpdateStatus::from_check(current, &Ok(Some(available)), &prefs);
        status.manual = Some(m.command.clone());
        return Ok(status);
    }

    let mut downloaded = 0u64;
    let emitter = app.clone();
    let bytes = update
        .download(
            |chunk, total| {
                downloaded += chunk as u64;
                let _ = emitter.emit(PROGRESS_EVENT, Progress { downloaded, total });
            },
            || {},
        )
        .await;
    let bytes = match bytes {
        Ok(b) => b,
        Err(e) => return Ok(failed(plugin_error(&version, e))),
    };
    tracing::info!(%version, bytes = bytes.len(), "update downloaded and verified");

    let kind = installed();
    let file_name = update.download_url.path_segments().and_then(|mut s| s.next_back()).filter(|n| !n.is_empty()).unwrap_or("update.bin").to_string();
    let file_name = percent_decode(&file_name);
    let folder = app.path().download_dir().or_else(|_| app.path().app_cache_dir()).map_err(|e| IpcError::internal(format!("no folder for the download: {e}")))?;
    let file = folder.join(&file_name);
    match u::route(kind, is_root(), &file) {
        Route::Manual(command) => {
            if let Err(e) = std::fs::create_dir_all(&folder).and_then(|_| std::fs::write(&file, &bytes)) {
                return Ok(failed(UpdateError::InstallFailed { version, why: format!("cannot save {}: {e}", file.display()) }));
            }
            prefs.manual = Some(u::ManualInstall { version: version.clone(), command: command.clone() });
            if let Err(e) = prefs.store(core.settings()) {
                tracing::warn!(error = %e, "manual install not remembered");
            }
            tracing::info!(%version, file = %file.display(), "update saved; the user installs it");
            let available = u::Available { version, notes: update.body.clone(), date: None, url: update.download_url.to_string() };
            Ok(UpdateStatus::from_check(current, &Ok(Some(available)), &prefs))
        }
        Route::InPlace => {
            let installed = match kind {
                Installed::Deb | Installed::Rpm => install_package(kind, &bytes, &file_name),
                _ => update.install(&bytes).map_err(|e| e.to_string()),
            };
            if let Err(why) = installed {
                return Ok(failed(UpdateError::InstallFailed { version, why }));
            }
            tracing::info!(%version, "update installed; relaunching");
            app.restart()
        }
    }
}

/// Root: `dpkg -i` / `rpm -U` of the verified package, from a private temporary folder.
fn install_package(kind: Installed, bytes: &[u8], file_name: &str) -> Result<(), String> {
    let dir = std::env::temp_dir().join(format!("contentdesk-update-{}", std::process::id()));
    std::fs::create_dir_all(&dir).map_err(|e| e.to_string())?;
    let path = dir.join(file_name);
    std::fs::write(&path, bytes).map_err(|e| e.to_string())?;
    let (tool, arg) = if kind == Installed::Deb { ("dpkg", "-i") } else { ("rpm", "-U") };
    let out = std::process::Command::new(tool).arg(arg).arg(&path).stdin(std::process::Stdio::null()).output();
    let _ = std::fs::remove_dir_all(&dir);
    match out {
        Ok(o) if o.status.success() => Ok(()),
        Ok(o) => Err(format!("{tool} {arg}: {}", String::from_utf8_lossy(&o.stderr).lines().last().unwrap_or("failed"))),
        Err(e) => Err(format!("{tool}: {e}")),
    }
}

/// `Content%20Desk_0.2.0_amd64.deb` → `Content Desk_0.2.0_amd64.deb` (a file name, so no `/`).
fn percent_decode(s: &str) -> String {
    let bytes = s.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i] == b'%' && i + 2 < bytes.len() {
            if let Some(b) = std::str::from_utf8(&bytes[i + 1..i + 3]).ok().and_then(|h| u8::from_str_radix(h, 16).ok()) {
                out.push(b);
                i += 3;
                continue;
            }
        }
        out.push(bytes[i]);
        i += 1;
    }
    String::from_utf8_lossy(&out).replace('/', "_")
}
