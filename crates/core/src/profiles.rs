//! Profiles: a name, a base URL and (in the secret store, never here) a key.
use serde::{Deserialize, Serialize};
use ts_rs::TS;

use crate::error::{IpcError, IpcResult};

/// The service's own address, the default of a new remote profile.
pub const REMOTE_DEFAULT_BASE_URL: &str = "https://app.contenthero.ai/api/v1";

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub enum ProfileKind {
    /// The embedded local sandbox: its URL changes at every start (a free loopback port).
    Sandbox,
    Remote,
}

/// What the settings file holds for a profile.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ProfileRecord {
    pub id: String,
    pub name: String,
    /// Empty for the sandbox profile (resolved at run time).
    #[serde(default)]
    pub base_url: String,
    pub kind: ProfileKind,
}

/// A profile as the UI sees it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct Profile {
    pub id: String,
    pub name: String,
    pub base_url: String,
    pub kind: ProfileKind,
    pub has_key: bool,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct ProfilesView {
    pub profiles: Vec<Profile>,
    pub selected_id: Option<String>,
}

/// A trimmed name of 1 to 60 characters.
pub fn check_name(name: &str) -> IpcResult<String> {
    let name = name.trim();
    if name.is_empty() {
        return Err(IpcError::validation("name", "Give the profile a name."));
    }
    if name.chars().count() > 60 {
        return Err(IpcError::validation("name", "A profile name has at most 60 characters."));
    }
    Ok(name.to_string())
}

/// Whether a URL's host is this machine (`localhost`, `127.0.0.0/8`, `::1`): the only hosts a key may be
/// sent to over plain `http://`.
pub fn is_loopback_host(url: &url::Url) -> bool {
    match url.host() {
        Some(url::Host::Domain(d)) => d.eq_ignore_ascii_case("localhost"),
        Some(url::Host::Ipv4(ip)) => ip.is_loopback(),
        Some(url::Host::Ipv6(ip)) => ip.is_loopback(),
        None => false,
    }
}

/// An absolute http(s) URL without credentials, query or fragment; the trailing slash removed. Plain
/// `http://` only for this machine: a key sent anywhere else over it travels in clear text.
pub fn check_base_url(raw: &str) -> IpcResult<String> {
    let raw = raw.trim();
    let bad = |why: &str| IpcError::validation("baseUrl", format!("The base URL {why}. Example: {REMOTE_DEFAULT_BASE_URL}"));
    let url = url::Url::parse(raw).map_err(|_| bad("is not a valid URL"))?;
    if url.scheme() != "https" && url.scheme() != "http" {
        return Err(bad("must start with https:// (or http:// for a local server)"));
    }
    if !url.username().is_empty() || url.password().is_some() {
        return Err(bad("must not hold a user name or password (the key goes in its own field)"));
    }
    if url.query().is_some() || url.fragment().is_some() {
        return Err(bad("must not have a query or fragment"));
    }
    if url.host_str().is_none() {
        return Err(bad("needs a host"));
    }
    if url.scheme() == "http" && !is_loopback_host(&url) {
        return Err(bad("must start with https:// unless the server is on this computer (the key would travel in clear text)"));
    }
    // A host alone (`http://127.0.0.1:8787`, as the official client reads `CONTENTHERO_BASE_URL`) gets the
    // `/api/v1` every client adds (`api_client::api_base`), so the profile shows the base really used.
    Ok(api_client::api_base(url.as_str()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn base_urls() {
        assert_eq!(check_base_url(" https://app.contenthero.ai/api/v1/ ").unwrap(), "https://app.contenthero.ai/api/v1");
        assert_eq!(check_base_url("http://127.0.0.1:8787/api/v1").unwrap(), "http://127.0.0.1:8787/api/v1");
        assert_eq!(check_base_url("http://localhost:8787/api/v1").unwrap(), "http://localhost:8787/api/v1");
        assert_eq!(check_base_url("http://[::1]:8787/api/v1").unwrap(), "http://[::1]:8787/api/v1");
        // The host alone, as the official client reads CONTENTHERO_BASE_URL: `/api/v1` added, once.
        assert_eq!(check_base_url("http://127.0.0.1:8787").unwrap(), "http://127.0.0.1:8787/api/v1");
        assert_eq!(check_base_url(" https://app.contenthero.ai/ ").unwrap(), "https://app.contenthero.ai/api/v1");
        assert_eq!(check_base_url("https://proxy.example/ch").unwrap(), "https://proxy.example/ch");
        for bad in ["", "app.contenthero.ai", "ftp://x/api", "https://u:p@x/api", "https://x/api?k=1"] {
            let e = check_base_url(bad).unwrap_err();
            assert_eq!(e.field.as_deref(), Some("baseUrl"), "{bad}");
        }
    }

    #[test]
    fn plain_http_is_refused_for_any_host_but_this_computer() {
        for bad in ["http://example.com/api/v1", "http://192.168.1.10:8787/api/v1", "http://10.0.0.1/api", "http://localhost.example.com/api", "http://127.0.0.1.nip.io/api"] {
            let e = check_base_url(bad).unwrap_err();
            assert_eq!(e.field.as_deref(), Some("baseUrl"), "{bad}");
            assert!(e.message.contains("https://"), "{bad}: {}", e.message);
        }
        assert!(check_base_url("http://127.8.9.10/api").is_ok());
    }

    #[test]
    fn names() {
        assert_eq!(check_name("  Work  ").unwrap(), "Work");
        assert_eq!(check_name(" ").unwrap_err().field.as_deref(), Some("name"));
        assert!(check_name(&"x".repeat(61)).is_err());
    }
}
