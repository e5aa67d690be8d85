//! The authorization server's only outbound requests: a resource server's RFC 9728 metadata, read when a
//! resource server registers for token exchange (`clients.rs`). A caller names the URL, so the fetch is
//! fenced as a server-side request forgery would need: `https` only (plain `http` only on a loopback host,
//! and then only when [`crate::Config::oauth_fetch_loopback`] allows it, as a sandbox bound to loopback
//! does); every address the name resolves to must be public (no private, loopback, link-local, shared,
//! multicast, documentation or unspecified address, IPv4-mapped ones included), and the connection goes
//! to the address that was checked (no second lookup that could answer otherwise); no redirects; a
//! 5-second deadline; at most [`MAX_DOCUMENT_BYTES`] read; JSON only.
use std::net::{IpAddr, SocketAddr};
use std::time::Duration;

/// The largest metadata document read (RFC 9728 documents are a few hundred bytes).
pub const MAX_DOCUMENT_BYTES: usize = 5 * 1024;
/// The whole fetch, connection included.
pub const FETCH_TIMEOUT: Duration = Duration::from_secs(5);

/// Whether `ip` is an address of the public internet.
pub fn is_public(ip: IpAddr) -> bool {
    match ip.to_canonical() {
        IpAddr::V4(v4) => {
            let o = v4.octets();
            !(v4.is_private()
                || v4.is_loopback()
                || v4.is_link_local()
                || v4.is_unspecified()
                || v4.is_broadcast()
                || v4.is_multicast()
                || v4.is_documentation()
                || o[0] == 0
                || (o[0] == 100 && (64..128).contains(&o[1]))
                || (o[0] == 192 && o[1] == 0 && o[2] == 0)
                || (o[0] == 198 && (18..20).contains(&o[1]))
                || o[0] >= 240)
        }
        IpAddr::V6(v6) => {
            let s = v6.segments();
            !(v6.is_loopback()
                || v6.is_unspecified()
                || v6.is_multicast()
                || (s[0] & 0xfe00) == 0xfc00
                || (s[0] & 0xffc0) == 0xfe80
                || (s[0] == 0x2001 && s[1] == 0x0db8)
                || (s[0] == 0x0064 && s[1] == 0xff9b))
        }
    }
}

/// GETs `url` and parses it as a JSON object, or says why not (in words for the registering client).
/// `ca`: one more certificate authority (PEM) to trust beside the public roots ([`crate::Config::oauth_fetch_ca`]).
pub async fn json(url: &str, allow_loopback: bool, ca: Option<&[u8]>) -> Result<serde_json::Value, String> {
    let parsed = url::Url::parse(url).map_err(|e| format!("`{url}` is not a URL: {e}"))?;
    match parsed.scheme() {
        "https" => {}
        "http" if allow_loopback => {}
        "http" => return Err(format!("`{url}`: the sandbox fetches only https URLs")),
        other => return Err(format!("`{url}`: scheme `{other}` cannot be fetched; use https")),
    }
    let host = parsed.host_str().ok_or_else(|| format!("`{url}` has no host"))?.to_string();
    let port = parsed.port_or_known_default().ok_or_else(|| format!("`{url}` has no port"))?;
    let bare = host.trim_matches(['[', ']']);
    let loopback_name = bare.eq_ignore_ascii_case("localhost");
    let addrs: Vec<SocketAddr> = if let Ok(ip) = bare.parse::<IpAddr>() {
        vec![SocketAddr::new(ip, port)]
    } else if loopback_name {
        vec![SocketAddr::new(IpAddr::from([127, 0, 0, 1]), port)]
    } else {
        tokio::time::timeout(FETCH_TIMEOUT, tokio::net::lookup_host((bare, port)))
            .await
            .map_err(|_| format!("`{host}` did not resolve in time"))?
            .map_err(|e| format!("`{host}` does not resolve: {e}"))?
            .collect()
    };
    let Some(first) = addrs.first().copied() else { return Err(format!("`{host}` resolves to no address")) };
    for a in &addrs {
        let ip = a.ip().to_canonical();
        let allowed = is_public(ip) || (allow_loopback && ip.is_loopback());
        if !allowed {
            return Err(format!("`{host}` resolves to {ip}, a private or reserved address the sandbox does not fetch from"));
        }
    }
    if parsed.scheme() == "http" && !first.ip().to_canonical().is_loopback() {
        return Err(format!("`{url}`: plain http is fetched only from a loopback host; use https"));
    }
    let mut builder = reqwest::Client::builder();
    if let Some(pem) = ca {
        let cert = reqwest::Certificate::from_pem(pem).map_err(|e| format!("the extra certificate authority is not PEM: {e}"))?;
        builder = builder.add_root_certificate(cert);
    }
    let client = builder
        .redirect(reqwest::redirect::Policy::none())
        .timeout(FETCH_TIMEOUT)
        .connect_timeout(FETCH_TIMEOUT)
        .resolve(bare, first)
        .build()
        .map_err(|e| format!("cannot start the HTTP client: {e}"))?;
    let mut answer = client
        .get(parsed.clone())
        .header(reqwest::header::ACCEPT, "application/json")
        .send()
        .await
        .map_err(|e| format!("`{url}` did not answer: {}", e.without_url()))?;
    if !answer.status().is_success() {
        return Err(format!("`{url}` answered {} (redirects are not followed)", answer.status()));
    }
    if answer.content_length().is_some_and(|n| n as usize > MAX_DOCUMENT_BYTES) {
        return Err(format!("`{url}` is larger than {MAX_DOCUMENT_BYTES} bytes"));
    }
    let mut body = Vec::new();
    while let Some(chunk) = answer.chunk().await.map_err(|e| format!("`{url}`: {}", e.without_url()))? {
        body.extend_from_slice(&chunk);
        if body.len() > MAX_DOCUMENT_BYTES {
            return Err(format!("`{url}` is larger than {MAX_DOCUMENT_BYTES} bytes"));
        }
    }
    let v: serde_json::Value = serde_json::from_slice(&body).map_err(|e| format!("`{url}` is not JSON: {e}"))?;
    if !v.is_object() {
        return Err(format!("`{url}` is not a JSON object"));
    }
    Ok(v)
}

/// Where RFC 9728 section 3.1 puts the metadata of `resource`: the well-known path between the host and
/// the resource's path (`https://h/mcp` → `https://h/.well-known/oauth-protected-resource/mcp`).
pub fn metadata_url(resource: &str) -> Option<String> {
    let u = url::Url::parse(resource).ok()?;
    if u.query().is_some() || u.fragment().is_some() {
        return None;
    }
    let path = u.path().trim_end_matches('/');
    let mut origin = u.origin().ascii_serialization();
    if origin == "null" {
        return None;
    }
    origin.push_str("/.well-known/oauth-protected-resource");
    origin.push_str(path);
    Some(origin)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_public_addresses_are_public() {
        for private in ["10.0.0.1", "172.16.5.4", "192.168.1.1", "127.0.0.1", "169.254.169.254", "0.0.0.0", "100.64.0.1", "::1", "fc00::1", "fe80::1", "::ffff:10.0.0.1", "::ffff:127.0.0.1", "224.0.0.1", "255.255.255.255"] {
            assert!(!is_public(private.parse().unwrap()), "{private}");
        }
        for public in ["93.184.216.34", "2606:2800:220:1::1", "8.8.8.8"] {
            assert!(is_public(public.parse().unwrap()), "{public}");
        }
    }

    #[test]
    fn the_metadata_sits_between_host_and_path() {
        assert_eq!(metadata_url("http://127.0.0.1:9/mcp").as_deref(), Some("http://127.0.0.1:9/.well-known/oauth-protected-resource/mcp"));
        assert_eq!(metadata_url("https://a.example/").as_deref(), Some("https://a.example/.well-known/oauth-protected-resource"));
        assert_eq!(metadata_url("https://a.example/x?y=1"), None);
    }

    #[tokio::test]
    async fn private_and_plain_http_addresses_are_not_fetched() {
        for (url, loopback) in [
            ("http://10.0.0.1/x", true),
            ("https://169.254.169.254/latest/meta-data", true),
            ("https://127.0.0.1:1/x", false),
            ("http://127.0.0.1:1/x", false),
            ("https://[::ffff:192.168.0.1]/x", true),
            ("file:///etc/passwd", true),
        ] {
            let e = json(url, loopback, None).await.unwrap_err();
            assert!(e.contains("private") || e.contains("https") || e.contains("fetches only") || e.contains("scheme"), "{url}: {e}");
        }
    }
}
