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

/// `cdesk login` without a key: the browser flow of fact sheet 4.3. Listens on `127.0.0.1:<free port>`,
/// opens `{origin}/cli/auth?port=&state=&label=` (prints it on stderr; `CONTENTHERO_NO_BROWSER` keeps the
/// browser closed), and waits (3 minutes; `CDESK_LOGIN_TIMEOUT_S`) for `GET /callback?state=…&key=…` or
/// `…&error=…`. A wrong state is answered 400 and waiting goes on; other paths 404. The key is checked
/// and stored as with `--with-key`, and the browser is sent to `{origin}/cli/auth/done?status=…`.
pub async fn browser_login(given: &Given, to_file: bool) -> Result<Value, OpError> {
    use tokio::io::{AsyncReadExt, AsyncWriteExt};
    let profile = named_profile(given)?;
    let base_url = base_url_for(given, profile.as_ref());
    let origin = base_url.trim_end_matches('/').trim_end_matches(api_types::API_PREFIX).to_string();
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.map_err(|e| OpError::Internal(format!("cannot listen for the browser: {e}")))?;
    let port = listener.local_addr().map_err(|e| OpError::Internal(e.to_string()))?.port();
    let state = uuid::Uuid::new_v4().simple().to_string();
    let label = hostname();
    let mut url = url::Url::parse(&format!("{origin}/cli/auth")).map_err(|e| OpError::usage("baseUrl", format!("not a URL: {e}")))?;
    url.query_pairs_mut().append_pair("port", &port.to_string()).append_pair("state", &state).append_pair("label", &label);
    eprintln!("To connect cdesk, open this page and choose Connect:\n  {url}");
    if std::env::var_os("CONTENTHERO_NO_BROWSER").is_none() {
        let _ = std::process::Command::new(if cfg!(target_os = "macos") { "open" } else { "xdg-open" })
            .arg(url.as_str())
            .stdin(std::process::Stdio::null())
            .stdout(std::process::Stdio::null())
            .stderr(std::process::Stdio::null())
            .spawn();
    }
    let wait = std::env::var("CDESK_LOGIN_TIMEOUT_S").ok().and_then(|v| v.parse().ok()).unwrap_or(180u64);
    let deadline = tokio::time::Instant::now() + std::time::Duration::from_secs(wait);
    let done = |status: &str| format!("HTTP/1.1 302 Found\r\nLocation: {origin}/cli/auth/done?status={status}\r\nContent-Length: 0\r\nConnection: close\r\n\r\n");
    loop {
        let accepted = tokio::time::timeout_at(deadline, listener.accept()).await;
        let Ok(Ok((mut sock, _))) = accepted else {
            return Err(OpError::Auth(format!("no answer from the browser within {wait} s: run `cdesk login` again, or `cdesk login --with-key`")));
        };
        let mut buf = vec![0u8; 8192];
        let mut n = 0;
        while n < buf.len() {
            match tokio::time::timeout(std::time::Duration::from_secs(5), sock.read(&mut buf[n..])).await {
                Ok(Ok(0)) | Err(_) | Ok(Err(_)) => break,
                Ok(Ok(m)) => {
                    n += m;
                    if buf[..n].windows(4).any(|w| w == b"\r\n\r\n") {
                        break;
                    }
                }
            }
        }
        let head = String::from_utf8_lossy(&buf[..n]).to_string();
        let target = head.lines().next().and_then(|l| l.split_whitespace().nth(1)).unwrap_or("").to_string();
        let (path, query) = target.split_once('?').unwrap_or((target.as_str(), ""));
        let reply = |status: &str, text: &str| format!("HTTP/1.1 {status}\r\nContent-Type: text/plain; charset=utf-8\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{text}", text.len());
        if path != "/callback" {
            let _ = sock.write_all(reply("404 Not Found", "not found").as_bytes()).await;
            continue;
        }
        let params: Vec<(String, String)> = url::form_urlencoded::parse(query.as_bytes()).into_owned().collect();
        let get = |k: &str| params.iter().find(|(n, _)| n == k).map(|(_, v)| v.clone());
        if get("state").as_deref() != Some(state.as_str()) {
            let _ = sock.write_all(reply("400 Bad Request", "this answer is not for this login (state does not match)").as_bytes()).await;
            continue;
        }
        if let Some(error) = get("error") {
            let _ = sock.write_all(done("cancelled").as_bytes()).await;
            return Err(OpError::Auth(format!("login {error} in the browser: nothing was stored")));
        }
        let Some(key) = get("key").filter(|k| !k.trim().is_empty()) else {
            let _ = sock.write_all(reply("400 Bad Request", "no key in the answer").as_bytes()).await;
            continue;
        };
        return match check_and_store(&key, &base_url, profile.as_ref(), to_file).await {
            Ok(out) => {
                let _ = sock.write_all(done("connected").as_bytes()).await;
                Ok(out)
            }
            Err(e) => {
                let _ = sock.write_all(done("failed").as_bytes()).await;
                Err(e)
            }
        };
    }
}

fn hostname() -> String {
    std::env::var("HOSTNAME")
        .ok()
        .or_else(|| std::fs::read_to_string("/etc/hostname").ok())
        .map(|h| h.trim().chars().filter(|c| !c.is_control()).take(60).collect::<String>())
        .filter(|h| !h.is_empty())
        .unwrap_or_else(|| "this computer".into())
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
