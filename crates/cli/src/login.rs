//! `cdesk login --with-key` and `cdesk logout`. The key is checked with a balance read before anything is
//! stored; a refused key stores nothing. Where it goes: the OS keyring (the entry of the Content Desk
//! profile named by `--profile`, the one the desktop app reads; without `--profile`, cdesk's own entry
//! `cdesk` under the same service), or the official CLI's credential file (`--file`, or when no keyring
//! answers, saying so), written 0600 in a 0700 folder. `logout` removes what login stored.
//! (The browser flow, `cdesk login` without a key, is not built yet.)
use crate::keys::{self, Given};
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
    let tmp = dir.join(".credentials.tmp");
    let body = serde_json::to_string_pretty(&json!({
        "apiKey": key,
        "label": std::env::var("HOSTNAME").unwrap_or_else(|_| "cdesk".into()),
        "createdAt": now_iso(),
    }))
    .map_err(|e| OpError::Internal(e.to_string()))?;
    #[cfg(unix)]
    {
        use std::io::Write;
        use std::os::unix::fs::{OpenOptionsExt, PermissionsExt};
        std::fs::set_permissions(dir, std::fs::Permissions::from_mode(0o700)).map_err(io)?;
        let mut f = std::fs::OpenOptions::new().write(true).create(true).truncate(true).mode(0o600).open(&tmp).map_err(io)?;
        f.write_all(body.as_bytes()).map_err(io)?;
        f.sync_all().map_err(io)?;
        std::fs::set_permissions(&tmp, std::fs::Permissions::from_mode(0o600)).map_err(io)?;
    }
    #[cfg(not(unix))]
    std::fs::write(&tmp, body).map_err(io)?;
    std::fs::rename(&tmp, &path).map_err(io)
}

fn now_iso() -> String {
    let secs = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map(|d| d.as_secs()).unwrap_or(0);
    time_iso(secs)
}

/// Seconds since 1970 as `YYYY-MM-DDTHH:MM:SSZ` (civil from days, Howard Hinnant's algorithm).
fn time_iso(secs: u64) -> String {
    let days = (secs / 86_400) as i64;
    let rem = secs % 86_400;
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1_460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = doy - (153 * mp + 2) / 5 + 1;
    let m = if mp < 10 { mp + 3 } else { mp - 9 };
    let y = yoe + era * 400 + i64::from(m <= 2);
    format!("{y:04}-{m:02}-{d:02}T{:02}:{:02}:{:02}Z", rem / 3600, rem % 3600 / 60, rem % 60)
}

pub async fn login(given: &Given, key_arg: Option<&String>, to_file: bool) -> Result<Value, OpError> {
    let key = key_from(key_arg)?;
    // The base URL the key is for: the named profile's, else the ladder's.
    let profile = match given.profile.as_deref() {
        Some(name) => Some(keys::find_profile(name).map_err(OpError::Auth)?),
        None => None,
    };
    if let Some(p) = &profile {
        if p.kind == ProfileKind::Sandbox {
            return Err(OpError::usage("profile", format!("`{}` is the app's local sandbox profile: its key is made by the app", p.name)));
        }
    }
    let base_url = match (&given.base_url, &profile) {
        (Some(b), _) => b.clone(),
        (None, Some(p)) => p.base_url.clone(),
        (None, None) => keys::resolve(&Given { api_key: Some(key.clone()), ..Default::default() }).map_err(OpError::Auth)?.base_url,
    };
    let client = api_client::Client::new(&base_url, api_client::ApiKey::new(key.clone()))?;
    let balance = client.account().balance().await?;
    let mut out = json!({ "authenticated": true, "baseUrl": base_url, "tier": balance.tier, "balance": balance.balance });
    let config = keys::config_dir().ok_or_else(|| OpError::Internal("no home folder for the credential file".into()))?;
    if !to_file {
        let account = profile.as_ref().map_or(CLI_ENTRY.to_string(), |p| p.id.clone());
        match KeyringStore::new(keys::keyring_service()).set(&account, &key) {
            Ok(()) => {
                out["storedIn"] = json!("keyring");
                if let Some(p) = &profile {
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
    write_credentials(&config, &key)?;
    out["storedIn"] = json!("file");
    out["file"] = json!(config.join("credentials").display().to_string());
    Ok(out)
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
