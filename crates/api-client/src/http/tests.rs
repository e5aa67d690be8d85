//! The sender's unit tests.
use super::*;

#[test]
fn base_url_loses_its_trailing_slash() {
    let c = Client::new("http://localhost:1/api/v1/", ApiKey::new("ch_live_x")).unwrap();
    assert_eq!(c.base_url(), "http://localhost:1/api/v1");
    assert!(Client::new("localhost/api/v1", ApiKey::new("k")).is_err());
}

#[test]
fn a_host_alone_is_the_api_under_it_and_a_full_base_is_kept() {
    for (given, base) in [
        ("http://127.0.0.1:8787", "http://127.0.0.1:8787/api/v1"),
        ("http://127.0.0.1:8787/", "http://127.0.0.1:8787/api/v1"),
        ("https://app.contenthero.ai", "https://app.contenthero.ai/api/v1"),
        (" http://[::1]:9 ", "http://[::1]:9/api/v1"),
        ("http://127.0.0.1:8787/api/v1", "http://127.0.0.1:8787/api/v1"),
        ("http://127.0.0.1:8787/api/v1/", "http://127.0.0.1:8787/api/v1"),
        ("https://proxy.example/contenthero/api/v1", "https://proxy.example/contenthero/api/v1"),
        ("https://proxy.example/prefix", "https://proxy.example/prefix"),
    ] {
        assert_eq!(api_base(given), base, "{given}");
        assert_eq!(Client::new(given, ApiKey::new("k")).unwrap().base_url(), base, "{given}");
    }
    let c = Client::new("http://127.0.0.1:8787", ApiKey::new("k")).unwrap();
    assert_eq!(c.inner.url("/cards").unwrap().as_str(), "http://127.0.0.1:8787/api/v1/cards");
}

#[test]
fn a_call_url_is_the_base_url_and_the_path_parsed_together() {
    for base in ["http://localhost:1/api/v1", "https://api.example.com/api/v1/", "http://127.0.0.1:8787", "https://Exämple.com/x/api/v1"] {
        let c = Client::new(base, ApiKey::new("k")).unwrap();
        for path in ["/cards", "/cards/abc-1", &format!("/cards/{}", seg("a b/ü?#%")), "/brand-kits/k/sections/s", "/cards?limit=1", "/a#b"] {
            let want = reqwest::Url::parse(&format!("{}{}", c.base_url(), path)).unwrap();
            assert_eq!(c.inner.url(path).unwrap(), want, "{base} + {path}");
        }
    }
}

#[test]
fn with_key_keeps_the_options_and_hides_the_new_credential() {
    let c = Client::new("http://localhost:1/api/v1", ApiKey::new("ch_live_first")).unwrap();
    let d = c.with_key(ApiKey::new("cho_at_delegatedsecret")).unwrap();
    assert_eq!(d.base_url(), c.base_url());
    assert_eq!(d.inner.auth.to_str().unwrap(), "Bearer cho_at_delegatedsecret");
    assert!(d.inner.auth.is_sensitive());
    assert!(!format!("{d:?}").contains("delegatedsecret"), "{d:?}");
    assert_eq!(c.inner.auth.to_str().unwrap(), "Bearer ch_live_first", "the first client keeps its own");
    assert!(c.with_key(ApiKey::new("bad\nvalue")).is_err());
}

#[test]
fn a_key_goes_over_plain_http_only_to_this_computer() {
    for ok in ["http://127.0.0.1:8787/api/v1", "http://localhost/api/v1", "http://[::1]:9/api/v1", "http://127.9.9.9/x", "https://example.com/api/v1"] {
        assert!(Client::new(ok, ApiKey::new("ch_live_secretvalue")).is_ok(), "{ok}");
    }
    for bad in ["http://example.com/api/v1", "http://192.168.1.10:8787/api/v1", "http://localhost.example.com/x", "http://127.0.0.1.nip.io/x", "http://127.0.0.1@example.com/x"] {
        let e = Client::new(bad, ApiKey::new("ch_live_secretvalue")).unwrap_err().to_string();
        assert!(e.contains("plain http") && !e.contains("secretvalue"), "{bad}: {e}");
    }
}

#[test]
fn client_debug_hides_the_key() {
    let c = Client::new(
        "http://localhost:1/api/v1",
        ApiKey::new("ch_live_supersecretvalue"),
    )
    .unwrap();
    assert!(!format!("{c:?}").contains("supersecret"));
}

#[test]
fn origin_and_segments() {
    assert_eq!(origin("http://127.0.0.1:9/api/v1"), "http://127.0.0.1:9");
    assert_eq!(seg("a b/c"), "a%20b%2Fc");
    assert_eq!(seg("0f3e-9"), "0f3e-9");
}
