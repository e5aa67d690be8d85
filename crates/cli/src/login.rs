//! `cdesk login --with-key` and `cdesk logout`. The key is checked with a balance read before anything is
//! stored; a refused key stores nothing. Where it goes: the OS keyring (the entry of the Content Desk
//! profile named by `--profile`, the one the desktop app reads; without `--profile`, cdesk's own entry
//! `cdesk` under the same service), or the official CLI's credential file (`--file`, or when no keyring
//! answers, saying so), written 0600 in a 0700 folder. `logout` removes what login stored. Without a key,
//! `cdesk login` runs the browser flow (`browser_login`) against the service's `/cli/auth` page.
use crate::keys::{self, Given};
use contentdesk_core::profiles::ProfileRecord;
use contentdesk_core::{KeyringStore, ProfileKind, SecretStore};
use contentdesk_ops::OpError;
use serde_json::{json, Value};
use std::io::{IsTerminal, Read};
use std::path::Path;

/// cdesk's own keyring entry (account name) when no profile is named.
pub const CLI_ENTRY: &str = "cdesk";

/// The key from the argument, else from piped stdin.
fn key_from(arg: Option<&String>) -> Result<String, OpError> {
    let key = match arg {
        Some(k) => k.trim().to_string(),
        None if !std::io::stdin().is_terminal() => {
            let mut buf = String::new();
            std::io::stdin().read_to_string(&mut buf).map_err(|e| OpError::Internal(format!("cannot read stdin: {e}")))?;
            buf.trim().to_string()
        }
        None => String::new(),
    };
    if key.is_empty() {
        return Err(OpError::usage("key", "give the key: `cdesk login --with-key KEY`, or pipe it: `echo $KEY | cdesk login --with-key`"));
    }
    Ok(key)
}

/// Writes the credential file as the official CLI does: pretty JSON, mode 0600, in a 0700 folder.
pub fn write_credentials(dir: &Path, key: &str) -> Result<(), OpError> {
    let io = |e: std::io::Error| OpError::Internal(format!("cannot write {}: {e}", dir.join("credentials").display()));
    std::fs::create_dir_all(dir).map_err(io)?;
    let path = dir.join("credentials");
    let body = serde_json::to_string_pretty(&json!({
        "apiKey": key,
        "label": std::env::var("HOSTNAME").unwrap_or_else(|_| "cdesk".into()),
        "createdAt": now_iso(),
    }))
    .map_err(|e| OpError::Internal(e.to_string()))?;
    let body = zeroize::Zeroizing::new(body);
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        std::fs::set_permissions(dir, std::fs::Permissions::from_mode(0o700)).map_err(io)?;
    }
    // The core's atomic write (temp file created 0600, fsync, rename, folder fsync).
    contentdesk_core::jsonfile::write_bytes_with_mode(&path, body.as_bytes(), Some(0o600))
        .map_err(|e| OpError::Internal(format!("cannot write {}: {e}", path.display())))
}

fn now_iso() -> String {
    let secs = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map(|d| d.as_secs()).unwrap_or(0);
    time_iso(secs)
}

/// Seconds since 1970 as `YYYY-MM-DDTHH:MM:SSZ`.
fn time_iso(secs: u64) -> String {
    let (y, m, d, hh, mm, ss) = contentdesk_core::jsonfile::utc_civil(secs);
    format!("{y:04}-{m:02}-{d:02}T{hh:02}:{mm:02}:{ss:02}Z")
}

/// The named profile (refused when it is the app's local sandbox, whose key the app makes).
fn named_profile(given: &Given) -> Result<Option<ProfileRecord>, OpError> {
    let Some(name) = given.profile.as_deref() else { return Ok(None) };
    let p = keys::find_profile(name).map_err(OpError::Auth)?;
    if p.kind == ProfileKind::Sandbox {
        return Err(OpError::usage("profile", format!("`{}` is the app's local sandbox profile: its key is made by the app", p.name)));
    }
    Ok(Some(p))
}

/// The base URL a new key is for, in the ladder's order: asked for (`--base-url`, `CONTENTHERO_BASE_URL`),
/// the named profile's, `config.json`'s, the default.
fn base_url_for(given: &Given, profile: Option<&ProfileRecord>) -> String {
    let given = keys::explicit_base_url(given)
        .or_else(|| profile.map(|p| p.base_url.clone()))
        .unwrap_or_else(|| keys::default_base_url(given));
    // A host alone is the API under it, as every client reads it.
    api_client::api_base(&given)
}

/// Checks the key with a balance read, then stores it; the reply says where.
async fn check_and_store(key: &str, base_url: &str, profile: Option<&ProfileRecord>, to_file: bool) -> Result<Value, OpError> {
    let client = api_client::Client::new(base_url, api_client::ApiKey::new(key))?;
    let balance = client.account().balance().await?;
    let mut out = json!({ "authenticated": true, "baseUrl": base_url, "tier": balance.tier, "balance": balance.balance });
    let config = keys::config_dir().ok_or_else(|| OpError::Internal("no home folder for the credential file".into()))?;
    if !to_file {
        let account = profile.map_or(CLI_ENTRY.to_string(), |p| p.id.clone());
        match KeyringStore::new(keys::keyring_service()).set(&account, key) {
            Ok(()) => {
                out["storedIn"] = json!("keyring");
                if let Some(p) = profile {
                    out["profile"] = json!(p.name);
                }
                return Ok(out);
            }
            Err(e) if profile.is_some() => return Err(OpError::Internal(format!("cannot store the key in the OS keyring: {e}"))),
            Err(e) => {
                eprintln!("No OS keyring answered ({e}); storing the key in {} (mode 0600) instead.", config.join("credentials").display());
            }
        }
    }
    write_credentials(&config, key)?;
    out["storedIn"] = json!("file");
    out["file"] = json!(config.join("credentials").display().to_string());
    Ok(out)
}

pub async fn login(given: &Given, key_arg: Option<&String>, to_file: bool) -> Result<Value, OpError> {
    let key = key_from(key_arg)?;
    let profile = named_profile(given)?;
    let base_url = base_url_for(given, profile.as_ref());
    check_and_store(&key, &base_url, profile.as_ref(), to_file).await
}

/// `cdesk login` without a key: the browser flow of fact sheet 4.3 (`api_client::browser_login`, the
/// one the desktop app's "Connect ContentHero" uses). Prints the page to open on stderr and opens it
/// (`CONTENTHERO_NO_BROWSER` keeps the browser closed); waits 3 minutes (`CDESK_LOGIN_TIMEOUT_S`). The key
/// is checked and stored as with `--with-key`.
pub async fn browser_login(given: &Given, to_file: bool) -> Result<Value, OpError> {
    use api_client::browser_login::{self as bl, BrowserLoginError};
    let profile = named_profile(given)?;
    let base_url = base_url_for(given, profile.as_ref());
    let login = bl::BrowserLogin::start(&base_url, &bl::hostname()).await.map_err(|e| OpError::usage("baseUrl", e))?;
    eprintln!("To connect cdesk, open this page and choose Connect:\n  {}", login.url());
    if std::env::var_os("CONTENTHERO_NO_BROWSER").is_none() {
        let _ = bl::open_in_browser(login.url());
    }
    let wait = std::env::var("CDESK_LOGIN_TIMEOUT_S").ok().and_then(|v| v.parse().ok()).map(std::time::Duration::from_secs).unwrap_or(bl::DEFAULT_WAIT);
    let profile = profile.as_ref();
    let base = base_url.as_str();
    login.finish(wait, |key| async move { check_and_store(&key, base, profile, to_file).await }).await.map_err(|e| match e {
        BrowserLoginError::TimedOut(s) => OpError::Auth(format!("no answer from the browser within {s} s: run `cdesk login` again, or `cdesk login --with-key`")),
        BrowserLoginError::Refused(error) => OpError::Auth(format!("login {error} in the browser: nothing was stored")),
        BrowserLoginError::Check(e) => e,
    })
}

/// Removes cdesk's keyring entry (or the named profile's) and the credential file; says what was removed.
pub fn logout(given: &Given) -> Result<Value, OpError> {
    let mut removed = Vec::new();
    let store = KeyringStore::new(keys::keyring_service());
    let account = match given.profile.as_deref() {
        Some(name) => keys::find_profile(name).map_err(OpError::Auth)?.id,
        None => CLI_ENTRY.to_string(),
    };
    if matches!(store.get(&account), Ok(Some(_))) && store.delete(&account).is_ok() {
        removed.push("keyring");
    }
    if let Some(dir) = keys::config_dir() {
        let path = dir.join("credentials");
        if path.exists() {
            std::fs::remove_file(&path).map_err(|e| OpError::Internal(format!("cannot remove {}: {e}", path.display())))?;
            removed.push("file");
        }
    }
    Ok(json!({ "removed": removed }))
}

#[cfg(test)]
mod tests {
    #[test]
    fn iso_times() {
        assert_eq!(super::time_iso(0), "1970-01-01T00:00:00Z");
        assert_eq!(super::time_iso(1_795_000_000), "2026-11-18T11:06:40Z");
        assert_eq!(super::time_iso(951_782_400), "2000-02-29T00:00:00Z");
    }
}
