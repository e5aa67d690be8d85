//! The browser sign-in of fact sheet 4.3, written once for `cdesk login` and the desktop app's "Connect
//! ContentHero": listen on `127.0.0.1:<free port>`, have the user's browser open
//! `{origin}/cli/auth?port=&state=&label=`, and wait for the service's consent page to send that browser to
//! `GET /callback?state=…&key=…` (or `…&error=…`). A wrong state is answered 400 and waiting goes on;
//! another path 404; a callback without a key 400. The key received is handed to the caller's `check`
//! (which verifies and stores it) and never kept here; the browser is then sent to
//! `{origin}/cli/auth/done?status=connected|failed|cancelled`.
//!
//! How the page is opened is the caller's: `cdesk` runs the system's opener ([`open_in_browser`]), the
//! app's core a hook its face sets (web-shell can print the URL for a test's own browser instead).
use std::future::Future;
use std::time::Duration;
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpListener;
use zeroize::Zeroizing;

/// How long `cdesk login` waits by default (fact sheet 4.3: 3 minutes).
pub const DEFAULT_WAIT: Duration = Duration::from_secs(180);

/// Why a browser sign-in ended without a key stored.
#[derive(Debug, thiserror::Error)]
pub enum BrowserLoginError<E> {
    /// Nothing answered in time.
    #[error("no answer from the browser within {0} s")]
    TimedOut(u64),
    /// The page answered `error=…` (the user chose Cancel): nothing was stored.
    #[error("login {0} in the browser")]
    Refused(String),
    /// The caller's check of the key failed (a refused key, no keyring): its own error.
    #[error("the key was not stored")]
    Check(E),
}

/// A sign-in under way: the listener is open, the page to open is [`BrowserLogin::url`].
pub struct BrowserLogin {
    listener: TcpListener,
    state: String,
    origin: String,
    url: String,
}

impl std::fmt::Debug for BrowserLogin {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("BrowserLogin").field("url", &self.url).finish()
    }
}

impl BrowserLogin {
    /// Opens the loopback listener for a key to the service at `base_url` (its API address, `/api/v1`
    /// or not); `label` names this computer on the consent page.
    pub async fn start(base_url: &str, label: &str) -> Result<BrowserLogin, String> {
        let origin = origin_of(base_url);
        let mut url = url::Url::parse(&format!("{origin}/cli/auth")).map_err(|e| format!("not a URL: {base_url} ({e})"))?;
        let listener = TcpListener::bind("127.0.0.1:0").await.map_err(|e| format!("cannot listen for the browser: {e}"))?;
        let port = listener.local_addr().map_err(|e| e.to_string())?.port();
        let state = uuid::Uuid::new_v4().simple().to_string();
        url.query_pairs_mut().append_pair("port", &port.to_string()).append_pair("state", &state).append_pair("label", label);
        Ok(BrowserLogin { listener, state, origin, url: url.to_string() })
    }

    /// The consent page to open in the user's browser (it holds the port and state, never a key).
    pub fn url(&self) -> &str {
        &self.url
    }

    /// Waits up to `wait` for the browser's callback; a key is passed to `check`, whose answer ends the
    /// sign-in (`Ok` sends the browser to `status=connected`, `Err` to `status=failed`).
    pub async fn finish<T, E, F, Fut>(self, wait: Duration, check: F) -> Result<T, BrowserLoginError<E>>
    where
        F: FnOnce(Zeroizing<String>) -> Fut,
        Fut: Future<Output = Result<T, E>>,
    {
        let deadline = tokio::time::Instant::now() + wait;
        let done = |status: &str| {
            format!("HTTP/1.1 302 Found\r\nLocation: {}/cli/auth/done?status={status}\r\nContent-Length: 0\r\nConnection: close\r\n\r\n", self.origin)
        };
        let reply = |status: &str, text: &str| {
            format!("HTTP/1.1 {status}\r\nContent-Type: text/plain; charset=utf-8\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{text}", text.len())
        };
        loop {
            let accepted = tokio::time::timeout_at(deadline, self.listener.accept()).await;
            let Ok(Ok((mut sock, _))) = accepted else {
                return Err(BrowserLoginError::TimedOut(wait.as_secs()));
            };
            let head = Zeroizing::new(read_head(&mut sock).await);
            let target = head.lines().next().and_then(|l| l.split_whitespace().nth(1)).unwrap_or("");
            let (path, query) = target.split_once('?').unwrap_or((target, ""));
            if path != "/callback" {
                let _ = sock.write_all(reply("404 Not Found", "not found").as_bytes()).await;
                continue;
            }
            let mut state = None;
            let mut error = None;
            let mut key = None;
            for (k, v) in url::form_urlencoded::parse(query.as_bytes()) {
                match &*k {
                    "state" => state = Some(v.into_owned()),
                    "error" => error = Some(v.into_owned()),
                    "key" => key = Some(Zeroizing::new(v.trim().to_string())),
                    _ => {}
                }
            }
            if state.as_deref() != Some(self.state.as_str()) {
                let _ = sock.write_all(reply("400 Bad Request", "this answer is not for this login (state does not match)").as_bytes()).await;
                continue;
            }
            if let Some(error) = error {
                let _ = sock.write_all(done("cancelled").as_bytes()).await;
                return Err(BrowserLoginError::Refused(error.chars().filter(|c| !c.is_control()).take(60).collect()));
            }
            let Some(key) = key.filter(|k| !k.is_empty()) else {
                let _ = sock.write_all(reply("400 Bad Request", "no key in the answer").as_bytes()).await;
                continue;
            };
            return match check(key).await {
                Ok(out) => {
                    let _ = sock.write_all(done("connected").as_bytes()).await;
                    Ok(out)
                }
                Err(e) => {
                    let _ = sock.write_all(done("failed").as_bytes()).await;
                    Err(BrowserLoginError::Check(e))
                }
            };
        }
    }
}

/// The request line and headers (at most 8 KiB; 5 s for a slow client).
async fn read_head(sock: &mut tokio::net::TcpStream) -> String {
    let mut buf = Zeroizing::new(vec![0u8; 8192]);
    let mut n = 0;
    while n < buf.len() {
        match tokio::time::timeout(Duration::from_secs(5), sock.read(&mut buf[n..])).await {
            Ok(Ok(0)) | Err(_) | Ok(Err(_)) => break,
            Ok(Ok(m)) => {
                n += m;
                if buf[..n].windows(4).any(|w| w == b"\r\n\r\n") {
                    break;
                }
            }
        }
    }
    String::from_utf8_lossy(&buf[..n]).into_owned()
}

/// The site of an API address: `https://app.contenthero.ai/api/v1` → `https://app.contenthero.ai`.
pub fn origin_of(base_url: &str) -> String {
    base_url.trim_end_matches('/').trim_end_matches(api_types::API_PREFIX).trim_end_matches('/').to_string()
}

/// This computer's name for the consent page (and the key's name there): `$HOSTNAME`, `/etc/hostname`,
/// else "this computer"; at most 60 characters, no control characters.
pub fn hostname() -> String {
    std::env::var("HOSTNAME")
        .ok()
        .or_else(|| std::fs::read_to_string("/etc/hostname").ok())
        .map(|h| h.trim().chars().filter(|c| !c.is_control()).take(60).collect::<String>())
        .filter(|h| !h.is_empty())
        .unwrap_or_else(|| "this computer".into())
}

/// Opens `url` in the system's browser (`xdg-open`, `open`, `explorer`); does not wait for it.
pub fn open_in_browser(url: &str) -> std::io::Result<()> {
    #[cfg(target_os = "macos")]
    let opener = "open";
    #[cfg(target_os = "windows")]
    let opener = "explorer";
    #[cfg(not(any(target_os = "macos", target_os = "windows")))]
    let opener = "xdg-open";
    std::process::Command::new(opener)
        .arg(url)
        .stdin(std::process::Stdio::null())
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .spawn()
        .map(|_| ())
}
