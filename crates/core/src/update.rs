//! Updates, the part that needs no window: where the manifest is (`latest.json`, the one the release
//! workflow publishes), whether it names a newer version for this system, whether its signature is by the
//! key this build trusts, when the app checks on its own (at most once a day, unless turned off), whether
//! the running user can replace the install, and the short notes the user reads when anything fails.
//!
//! `cdesk version --check` and the app's Settings → Updates both ask [`check`]; the app's downloading,
//! signature verification of the bytes and installing are tauri-plugin-updater's (src-tauri/src/update.rs).
//! Nothing here changes the install: a failure of any kind leaves the running app as it was.
use base64::Engine;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::path::Path;
use std::time::Duration;
use ts_rs::TS;

use crate::settings::SettingsBackend;

/// The minisign public key updates must be signed with (base64 of the `.pub` file, as Tauri writes it):
/// `src-tauri/updater.pub`, or at build time the file `CONTENTDESK_UPDATER_PUBKEY` names (tests).
pub const PUBLIC_KEY: &str = include_str!(concat!(env!("OUT_DIR"), "/updater.pub"));

/// Where the release workflow publishes the manifest (tauri-action's `latest.json` on the latest release).
pub const DEFAULT_ENDPOINT: &str = "https://github.com/contentdesk/contentdesk/releases/latest/download/latest.json";

/// Overrides [`DEFAULT_ENDPOINT`] (tests, a mirror): the URL of a `latest.json`.
pub const ENDPOINT_ENV: &str = "CONTENTDESK_UPDATE_URL";

/// How long a check waits for the manifest before it gives up with a note.
pub const CHECK_TIMEOUT: Duration = Duration::from_secs(15);

/// The automatic check runs at most this often.
pub const CHECK_INTERVAL_SECS: i64 = 24 * 60 * 60;

/// The settings key the update preferences are stored under (beside the profiles, in `settings.json`).
pub const SETTINGS_KEY: &str = "updates";

/// The manifest's URL: [`ENDPOINT_ENV`] when set, else the release's.
pub fn endpoint() -> String {
    std::env::var(ENDPOINT_ENV).ok().filter(|s| !s.trim().is_empty()).unwrap_or_else(|| DEFAULT_ENDPOINT.to_string())
}

/// `latest.json` as tauri-action writes it (the "static JSON" format of tauri-plugin-updater).
#[derive(Debug, Clone, Deserialize)]
pub struct Manifest {
    pub version: String,
    #[serde(default)]
    pub notes: Option<String>,
    #[serde(default)]
    pub pub_date: Option<String>,
    pub platforms: BTreeMap<String, Platform>,
}

#[derive(Debug, Clone, Deserialize)]
pub struct Platform {
    pub signature: String,
    pub url: String,
}

/// This system's key in the manifest's `platforms`: `linux-x86_64`, `darwin-aarch64`, `windows-x86_64`
/// (tauri-plugin-updater looks for `<this>-<bundle>` first, e.g. `linux-x86_64-deb`, then this).
pub fn platform_key() -> String {
    let os = match std::env::consts::OS {
        "macos" => "darwin",
        other => other,
    };
    format!("{os}-{}", std::env::consts::ARCH)
}

/// Why a check or an install did not go through. Each has a short note for the user ([`UpdateError::note`]);
/// none of them changed anything.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum UpdateError {
    /// No network, no such host, connection refused.
    Unreachable(String),
    /// The server took longer than [`CHECK_TIMEOUT`].
    Timeout,
    /// The server answered, but not 200.
    Status(u16),
    /// The answer is not a manifest (why).
    BadManifest(String),
    /// The manifest's version is not a version number.
    BadVersion(String),
    /// The newer version has no package for this system.
    NoPackage { version: String, platform: String },
    /// The signature is not by the key this build trusts.
    WrongKey { version: String },
    /// The download ended before all of it came.
    CutShort { version: String },
    /// The downloaded bytes do not match their signature.
    BadSignature { version: String, why: String },
    /// Installing failed (why).
    InstallFailed { version: String, why: String },
}

impl UpdateError {
    /// What the user reads: one or two plain sentences, ending with the fact that nothing changed.
    pub fn note(&self) -> String {
        match self {
            UpdateError::Unreachable(_) => "Could not reach the update server (no network, or the server is down). Nothing was changed.".into(),
            UpdateError::Timeout => "The update server did not answer in time. Nothing was changed.".into(),
            UpdateError::Status(s) => format!("The update server answered HTTP {s}. Nothing was changed."),
            UpdateError::BadManifest(_) => "The update server's answer is not an update manifest. Nothing was changed.".into(),
            UpdateError::BadVersion(v) => format!("The update server names a version that is not a version number (“{v}”). Nothing was changed."),
            UpdateError::NoPackage { version, platform } => format!("Content Desk {version} has no package for this system ({platform}) yet. Nothing was changed."),
            UpdateError::WrongKey { version } => format!(
                "The update to {version} is not signed with Content Desk's key, so it was refused. Nothing was changed."
            ),
            UpdateError::CutShort { version } => format!("The download of {version} was cut short; nothing was installed. Try again later."),
            UpdateError::BadSignature { version, .. } => format!(
                "The downloaded update to {version} does not match its signature, so it was refused. Nothing was installed."
            ),
            UpdateError::InstallFailed { version, why } => format!("Installing {version} failed ({why}). The running app is unchanged."),
        }
    }

    /// The detail for the log (never shown as the note).
    pub fn detail(&self) -> String {
        match self {
            UpdateError::Unreachable(why) | UpdateError::BadManifest(why) => why.clone(),
            UpdateError::BadSignature { why, .. } | UpdateError::InstallFailed { why, .. } => why.clone(),
            other => format!("{other:?}"),
        }
    }
}

/// A newer version the manifest offers this system, its signature by the trusted key.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Available {
    pub version: String,
    pub notes: Option<String>,
    pub date: Option<String>,
    pub url: String,
}

/// Compares two versions as semver (a leading `v` allowed): is `offered` newer than `current`?
pub fn is_newer(current: &str, offered: &str) -> Result<bool, UpdateError> {
    let parse = |v: &str| semver::Version::parse(v.trim().trim_start_matches('v')).map_err(|_| UpdateError::BadVersion(v.to_string()));
    Ok(parse(offered)? > parse(current)?)
}

/// The 8-byte key id of a minisign public key in Tauri's form (base64 of the `.pub` file's text).
pub fn public_key_id(pubkey_b64: &str) -> Option<[u8; 8]> {
    key_id_of_line(&decode_text(pubkey_b64)?, 1)
}

/// The 8-byte id of the key a Tauri signature (base64 of the `.sig` file's text) says it was made with.
/// Only a label: the signature itself is verified over the downloaded bytes by tauri-plugin-updater.
pub fn signature_key_id(signature_b64: &str) -> Option<[u8; 8]> {
    key_id_of_line(&decode_text(signature_b64)?, 1)
}

fn decode_text(b64: &str) -> Option<String> {
    let bytes = base64::engine::general_purpose::STANDARD.decode(b64.trim()).ok()?;
    String::from_utf8(bytes).ok()
}

/// Line `n` of a minisign file is base64 of: 2 bytes of algorithm, 8 bytes of key id, the rest.
fn key_id_of_line(text: &str, n: usize) -> Option<[u8; 8]> {
    let line = text.lines().nth(n)?;
    let raw = base64::engine::general_purpose::STANDARD.decode(line.trim()).ok()?;
    raw.get(2..10)?.try_into().ok()
}

/// What a manifest means for this build: up to date, or a newer version whose signature names the
/// trusted key. `current` is this build's version; `pubkey` the trusted key (Tauri's base64 form).
pub fn evaluate(manifest: &Manifest, current: &str, platform: &str, pubkey: &str) -> Result<Option<Available>, UpdateError> {
    if !is_newer(current, &manifest.version)? {
        return Ok(None);
    }
    let version = manifest.version.trim_start_matches('v').to_string();
    // As the plugin: this system's own entry, else any of its bundles (`linux-x86_64-deb`).
    let entry = manifest
        .platforms
        .get(platform)
        .or_else(|| manifest.platforms.iter().find(|(k, _)| k.starts_with(&format!("{platform}-"))).map(|(_, v)| v))
        .ok_or_else(|| UpdateError::NoPackage { version: version.clone(), platform: platform.to_string() })?;
    let trusted = public_key_id(pubkey);
    if trusted.is_none() || signature_key_id(&entry.signature) != trusted {
        return Err(UpdateError::WrongKey { version });
    }
    Ok(Some(Available { version, notes: manifest.notes.clone(), date: manifest.pub_date.clone(), url: entry.url.clone() }))
}

/// Reads the manifest at `url`, giving up after `timeout`.
pub async fn fetch_manifest(url: &str, timeout: Duration) -> Result<Manifest, UpdateError> {
    let client = reqwest::Client::builder()
        .timeout(timeout)
        .connect_timeout(timeout)
        .user_agent(concat!("ContentDesk/", env!("CARGO_PKG_VERSION"), " (updater)"))
        .build()
        .map_err(|e| UpdateError::Unreachable(e.to_string()))?;
    let wire = |e: reqwest::Error| if e.is_timeout() { UpdateError::Timeout } else { UpdateError::Unreachable(e.to_string()) };
    let response = client.get(url).send().await.map_err(wire)?;
    if !response.status().is_success() {
        return Err(UpdateError::Status(response.status().as_u16()));
    }
    let body = response.bytes().await.map_err(wire)?;
    serde_json::from_slice::<Manifest>(&body).map_err(|e| UpdateError::BadManifest(e.to_string()))
}

/// Is there a newer version for this system, signed by the trusted key? The one answer to that question,
/// for the app and for `cdesk version --check`.
pub async fn check(url: &str, current: &str, pubkey: &str, timeout: Duration) -> Result<Option<Available>, UpdateError> {
    let manifest = fetch_manifest(url, timeout).await?;
    evaluate(&manifest, current, &platform_key(), pubkey)
}

/// The update preferences, stored under [`SETTINGS_KEY`] with the other settings.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase", default)]
pub struct UpdatePrefs {
    /// Check at start, at most once a day.
    pub auto_check: bool,
    /// When the last check ran (Unix seconds), whatever came of it.
    #[ts(type = "number | null")]
    pub last_check: Option<i64>,
    /// A version the app could not install itself, and what the user runs instead: shown again, never
    /// downloaded again, until the installed version reaches it.
    pub manual: Option<ManualInstall>,
}

impl Default for UpdatePrefs {
    fn default() -> Self {
        UpdatePrefs { auto_check: true, last_check: None, manual: None }
    }
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct ManualInstall {
    pub version: String,
    /// The line to run in a terminal (`sudo apt install '/home/…/Content Desk_0.2.0_amd64.deb'`).
    pub command: String,
}

impl UpdatePrefs {
    pub fn load(settings: &dyn SettingsBackend) -> UpdatePrefs {
        settings.get(SETTINGS_KEY).and_then(|v| serde_json::from_value(v).ok()).unwrap_or_default()
    }

    pub fn store(&self, settings: &dyn SettingsBackend) -> Result<(), String> {
        settings.set(SETTINGS_KEY, serde_json::to_value(self).map_err(|e| e.to_string())?);
        settings.save()
    }

    /// Whether the check at start runs now: turned on, and none in the last day (a clock set back counts
    /// as a day gone, so a wrong clock never stops checks for good).
    pub fn due(&self, now: i64) -> bool {
        self.auto_check && self.last_check.is_none_or(|last| now - last >= CHECK_INTERVAL_SECS || now < last)
    }
}

/// How this install gets replaced.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Route {
    /// The app installs the update itself and relaunches.
    InPlace,
    /// The running user cannot: this line, run in a terminal, does it.
    Manual(String),
}

/// How the running app was installed (Tauri's bundler writes it into the binary).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Installed {
    Deb,
    Rpm,
    AppImage,
    /// macOS, Windows (their installers ask for rights themselves), or a build that is not a package.
    Other,
}

/// A package under /usr is the system's: only root replaces it, so anyone else is given the line to run
/// (the downloaded, verified package at `file`). An AppImage, a Mac app or a Windows installer the app
/// replaces itself.
pub fn route(installed: Installed, is_root: bool, file: &Path) -> Route {
    let quoted = shell_quote(&file.display().to_string());
    match installed {
        Installed::Deb if !is_root => Route::Manual(format!("sudo apt install {quoted}")),
        Installed::Rpm if !is_root => Route::Manual(format!("sudo dnf install {quoted}")),
        _ => Route::InPlace,
    }
}

/// One shell word: single quotes, a quote inside written as '\''. A path that is plain stays as it is.
pub fn shell_quote(s: &str) -> String {
    if !s.is_empty() && s.chars().all(|c| c.is_ascii_alphanumeric() || "/._-+".contains(c)) {
        s.to_string()
    } else {
        format!("'{}'", s.replace('\'', r"'\''"))
    }
}

/// What the UI and `cdesk version --check` show about updates.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct UpdateStatus {
    /// `upToDate`, `available`, `failed`, or `skipped` (the check at start was not due or is off).
    pub state: UpdateState,
    /// This build's version.
    pub current: String,
    /// The newer version, when there is one.
    pub version: Option<String>,
    /// Its release notes.
    pub notes: Option<String>,
    /// Its release date, as the manifest gives it.
    pub date: Option<String>,
    /// The short note of a failed check.
    pub note: Option<String>,
    /// When the newer version is one the app could not install itself: the line to run.
    pub manual: Option<String>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub enum UpdateState {
    UpToDate,
    Available,
    Failed,
    Skipped,
}

impl UpdateStatus {
    /// The status a check's result makes, given what is stored (a version waiting for a manual install).
    pub fn from_check(current: &str, result: &Result<Option<Available>, UpdateError>, prefs: &UpdatePrefs) -> UpdateStatus {
        let base = UpdateStatus { state: UpdateState::UpToDate, current: current.to_string(), version: None, notes: None, date: None, note: None, manual: None };
        match result {
            Ok(None) => base,
            Ok(Some(a)) => UpdateStatus {
                state: UpdateState::Available,
                version: Some(a.version.clone()),
                notes: a.notes.clone(),
                date: a.date.clone(),
                manual: prefs.manual.as_ref().filter(|m| m.version == a.version).map(|m| m.command.clone()),
                ..base
            },
            Err(e) => UpdateStatus { state: UpdateState::Failed, note: Some(e.note()), ..base },
        }
    }

    pub fn skipped(current: &str) -> UpdateStatus {
        UpdateStatus { state: UpdateState::Skipped, current: current.to_string(), version: None, notes: None, date: None, note: None, manual: None }
    }

    /// One line for a terminal.
    pub fn human(&self) -> String {
        match self.state {
            UpdateState::UpToDate => format!("Content Desk {} is up to date.", self.current),
            UpdateState::Available => {
                let mut s = format!("Content Desk {} is available (this is {}).", self.version.as_deref().unwrap_or("?"), self.current);
                if let Some(notes) = self.notes.as_deref().filter(|n| !n.trim().is_empty()) {
                    s.push_str(&format!("\n\n{}\n", notes.trim()));
                }
                if let Some(cmd) = &self.manual {
                    s.push_str(&format!("\nTo install it: {cmd}"));
                }
                s
            }
            UpdateState::Failed => self.note.clone().unwrap_or_default(),
            UpdateState::Skipped => format!("Content Desk {}: no check now (checked in the last day, or checks are off).", self.current),
        }
    }
}

/// Now, in Unix seconds.
pub fn now() -> i64 {
    std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map(|d| d.as_secs() as i64).unwrap_or(0)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::settings::MemorySettings;

    // A key made once with `cargo tauri signer generate` for these unit tests (its secret half thrown away):
    // only its id matters here. The loopback tests (tests/update.rs) sign with a key made at test time.
    const KEY_A: &str = "dW50cnVzdGVkIGNvbW1lbnQ6IG1pbmlzaWduIHB1YmxpYyBrZXk6IEQ2MzE0MjBFNkExN0Y0OEEKUldTSzlCZHFEa0l4MWtrTmxIV29QMnBkQnZHcmtEelVyTFdBbkkzcVhxdmFFNVpLVERWSUxReWoK";
    // A signature by KEY_A's secret half (of the word "hi").
    const SIG_A: &str = "dW50cnVzdGVkIGNvbW1lbnQ6IHNpZ25hdHVyZSBmcm9tIHRhdXJpIHNlY3JldCBrZXkKUlVTSzlCZHFEa0l4MWp4WEtZYUk2SlJDUHVZSFVDRTc5dWVmQm9Ic1pxWXlJUzgrV3NmWUw1VEhRMTdEaXlHaVRMK2JLTlNIc2ZEdjRFRU94bFNDNURqNjNmSE1BZDFQb0FJPQp0cnVzdGVkIGNvbW1lbnQ6IHRpbWVzdGFtcDoxNzk1NzkyOTY3CWZpbGU6ZgpMVjhFbVFKTTU1aGoxZVNHZFVIWEkyVVhGWkJ3amljZ1U1aG5TWmQrZW44N2U5U1hZV1Q0RzNoSzhGdEZXSzU3VWVRd0R5Y0piTWZZUEZncU5PSUREUT09Cg==";

    fn manifest(version: &str, sig: &str) -> Manifest {
        serde_json::from_value(serde_json::json!({
            "version": version, "notes": "Faster board", "pub_date": "2026-11-27T00:00:00Z",
            "platforms": { "linux-x86_64-deb": { "signature": sig, "url": "https://example.test/a.deb" },
                           "darwin-aarch64": { "signature": sig, "url": "https://example.test/a.tar.gz" } }
        }))
        .unwrap()
    }

    #[test]
    fn newer_is_semver_not_text() {
        assert!(is_newer("0.1.0", "0.2.0").unwrap());
        assert!(is_newer("0.9.0", "0.10.0").unwrap(), "0.10 is newer than 0.9 (text order says otherwise)");
        assert!(is_newer("0.1.0", "v0.1.1").unwrap());
        assert!(!is_newer("0.2.0", "0.2.0").unwrap());
        assert!(!is_newer("0.2.0", "0.1.9").unwrap(), "an older version is never offered");
        assert!(!is_newer("1.0.0", "1.0.0-rc.1").unwrap());
        assert_eq!(is_newer("0.1.0", "soon"), Err(UpdateError::BadVersion("soon".into())));
    }

    #[test]
    fn key_ids_are_read_from_key_and_signature() {
        assert_eq!(public_key_id(KEY_A), Some([0x8A, 0xF4, 0x17, 0x6A, 0x0E, 0x42, 0x31, 0xD6]));
        assert_eq!(signature_key_id(SIG_A), public_key_id(KEY_A));
        assert_eq!(public_key_id("not base64!"), None);
        assert!(public_key_id(PUBLIC_KEY).is_some(), "the built-in key is a minisign public key");
    }

    #[test]
    fn evaluate_finds_this_systems_package_signed_by_the_key() {
        let sig = SIG_A;
        let m = manifest("0.2.0", sig);
        let a = evaluate(&m, "0.1.0", "linux-x86_64", KEY_A).unwrap().unwrap();
        assert_eq!((a.version.as_str(), a.url.as_str(), a.notes.as_deref()), ("0.2.0", "https://example.test/a.deb", Some("Faster board")));
        assert_eq!(evaluate(&m, "0.2.0", "linux-x86_64", KEY_A), Ok(None));
        assert_eq!(
            evaluate(&m, "0.1.0", "windows-x86_64", KEY_A),
            Err(UpdateError::NoPackage { version: "0.2.0".into(), platform: "windows-x86_64".into() })
        );
        // Another key: refused before anything is downloaded.
        assert_eq!(evaluate(&m, "0.1.0", "linux-x86_64", PUBLIC_KEY), Err(UpdateError::WrongKey { version: "0.2.0".into() }));
        let garbled = manifest("0.2.0", "bm90IGEgc2lnbmF0dXJl");
        assert_eq!(evaluate(&garbled, "0.1.0", "linux-x86_64", KEY_A), Err(UpdateError::WrongKey { version: "0.2.0".into() }));
    }

    #[test]
    fn the_check_at_start_runs_at_most_once_a_day_and_can_be_turned_off() {
        let t = 1_800_000_000;
        let mut p = UpdatePrefs::default();
        assert!(p.due(t), "never checked: due");
        p.last_check = Some(t);
        assert!(!p.due(t + 60), "a minute later: not due");
        assert!(!p.due(t + CHECK_INTERVAL_SECS - 1));
        assert!(p.due(t + CHECK_INTERVAL_SECS), "a day later: due");
        assert!(p.due(t - 3600), "a clock set back does not stop checks for good");
        p.auto_check = false;
        assert!(!p.due(t + 10 * CHECK_INTERVAL_SECS), "turned off: never at start");
    }

    #[test]
    fn prefs_are_stored_with_the_settings() {
        let s = MemorySettings::default();
        assert_eq!(UpdatePrefs::load(&s), UpdatePrefs::default());
        let p = UpdatePrefs { auto_check: false, last_check: Some(5), manual: Some(ManualInstall { version: "0.2.0".into(), command: "x".into() }) };
        p.store(&s).unwrap();
        assert_eq!(UpdatePrefs::load(&s), p);
        s.set(SETTINGS_KEY, serde_json::json!("garbage"));
        assert_eq!(UpdatePrefs::load(&s), UpdatePrefs::default(), "unreadable prefs: the defaults (checks on)");
    }

    #[test]
    fn a_system_package_is_left_to_root() {
        let f = Path::new("/home/ana/.cache/Content Desk_0.2.0_amd64.deb");
        assert_eq!(route(Installed::Deb, false, f), Route::Manual("sudo apt install '/home/ana/.cache/Content Desk_0.2.0_amd64.deb'".into()));
        assert_eq!(route(Installed::Rpm, false, Path::new("/tmp/a.rpm")), Route::Manual("sudo dnf install /tmp/a.rpm".into()));
        assert_eq!(route(Installed::Deb, true, f), Route::InPlace);
        assert_eq!(route(Installed::AppImage, false, f), Route::InPlace);
        assert_eq!(shell_quote("it's"), r"'it'\''s'");
    }

    #[test]
    fn every_failure_note_says_nothing_changed() {
        let v = || "0.2.0".to_string();
        for e in [
            UpdateError::Unreachable("refused".into()),
            UpdateError::Timeout,
            UpdateError::Status(503),
            UpdateError::BadManifest("eof".into()),
            UpdateError::BadVersion("x".into()),
            UpdateError::NoPackage { version: v(), platform: "linux-x86_64".into() },
            UpdateError::WrongKey { version: v() },
            UpdateError::CutShort { version: v() },
            UpdateError::BadSignature { version: v(), why: "x".into() },
            UpdateError::InstallFailed { version: v(), why: "x".into() },
        ] {
            let note = e.note();
            assert!(note.contains("changed") || note.contains("nothing was installed") || note.contains("Nothing was installed"), "{note}");
            assert!(note.len() < 160, "short: {note}");
        }
    }
}
