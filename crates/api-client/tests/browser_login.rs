//! The one browser sign-in (`browser_login`, used by `cdesk login` and the app's "Connect ContentHero"),
//! against the sandbox's real consent page over HTTP. The test plays the browser: it reads the page,
//! posts its form and follows the redirect to the loopback listener, then checks what reached `check`.
use contentdesk_api_client::browser_login::{origin_of, BrowserLogin, BrowserLoginError};
use contentdesk_api_client::{ApiKey, Client};
use contentdesk_sandbox::testing::{consent_form, TestSandbox};
use std::time::Duration;

fn browser() -> reqwest::Client {
    reqwest::Client::builder().redirect(reqwest::redirect::Policy::none()).timeout(Duration::from_secs(10)).build().unwrap()
}

/// Opens the consent page and answers it (`connect` with two scopes, or `cancel`); returns the callback
/// URL the page sends the browser to.
async fn answer(origin: &str, url: &str, action: &str) -> String {
    let b = browser();
    let page = b.get(url).send().await.unwrap().text().await.unwrap();
    assert!(page.contains("test-laptop"), "the page names the computer: {page}");
    let form = consent_form(&page, action, &["planner:write"]);
    let r = b.post(format!("{origin}/cli/auth")).form(&form).send().await.unwrap();
    assert_eq!(r.status(), 302);
    r.headers()["location"].to_str().unwrap().to_string()
}

#[tokio::test(flavor = "multi_thread")]
async fn the_key_from_the_consent_page_reaches_check_and_the_browser_is_told() {
    let sb = TestSandbox::start().await;
    let origin = sb.running.origin();
    let login = BrowserLogin::start(&sb.base_url(), "test-laptop").await.unwrap();
    let url = login.url().to_string();
    assert!(url.starts_with(&format!("{origin}/cli/auth?port=")), "{url}");
    assert!(url.contains("&label=test-laptop"), "{url}");
    let base = sb.base_url();
    let waiting = tokio::spawn(async move {
        login
            .finish(Duration::from_secs(60), |key| async move {
                // The key works at the service it came from.
                let b = Client::new(&base, ApiKey::new(key.as_str())).unwrap().account().balance().await.map_err(|e| e.to_string())?;
                Ok::<_, String>((key.to_string(), b.balance))
            })
            .await
    });
    let callback = answer(&origin, &url, "connect").await;
    let listener = callback[..callback.find("/callback").unwrap()].to_string();
    let b = browser();
    // What is not its answer is refused, and it goes on waiting.
    assert_eq!(b.get(format!("{listener}/favicon.ico")).send().await.unwrap().status(), 404);
    assert_eq!(b.get(callback.replacen("state=", "state=x", 1)).send().await.unwrap().status(), 400);
    let no_key = &callback[..callback.find("&key=").unwrap()];
    assert_eq!(b.get(no_key).send().await.unwrap().status(), 400);
    let r = b.get(&callback).send().await.unwrap();
    assert_eq!(r.headers()["location"].to_str().unwrap(), format!("{origin}/cli/auth/done?status=connected"));
    let (key, balance) = waiting.await.unwrap().unwrap();
    assert!(key.starts_with("ch_live_"), "a key, as the page minted it");
    assert_eq!(balance, sb.balance());
}

#[tokio::test(flavor = "multi_thread")]
async fn a_refused_check_sends_the_browser_to_failed_and_is_the_callers_error() {
    let sb = TestSandbox::start().await;
    let origin = sb.running.origin();
    let login = BrowserLogin::start(&sb.base_url(), "test-laptop").await.unwrap();
    let url = login.url().to_string();
    let waiting = tokio::spawn(login.finish(Duration::from_secs(60), |_key| async { Err::<(), _>("no keyring") }));
    let callback = answer(&origin, &url, "connect").await;
    let r = browser().get(&callback).send().await.unwrap();
    assert_eq!(r.headers()["location"].to_str().unwrap(), format!("{origin}/cli/auth/done?status=failed"));
    assert!(matches!(waiting.await.unwrap(), Err(BrowserLoginError::Check("no keyring"))));
}

#[tokio::test(flavor = "multi_thread")]
async fn cancel_on_the_page_is_refused_without_calling_check() {
    let sb = TestSandbox::start().await;
    let origin = sb.running.origin();
    let login = BrowserLogin::start(&sb.base_url(), "test-laptop").await.unwrap();
    let url = login.url().to_string();
    // Were `check` called, the result would be its error, not `Refused`.
    let waiting = tokio::spawn(login.finish(Duration::from_secs(60), |_key| async { Err::<(), _>("check was called") }));
    let callback = answer(&origin, &url, "cancel").await;
    assert!(callback.contains("error=cancelled"), "{callback}");
    let r = browser().get(&callback).send().await.unwrap();
    assert_eq!(r.headers()["location"].to_str().unwrap(), format!("{origin}/cli/auth/done?status=cancelled"));
    assert!(matches!(waiting.await.unwrap(), Err(BrowserLoginError::Refused(ref e)) if e == "cancelled"));
}

#[tokio::test]
async fn nothing_answering_ends_as_timed_out() {
    let login = BrowserLogin::start("http://127.0.0.1:9/api/v1", "test-laptop").await.unwrap();
    let r = login.finish(Duration::ZERO, |_key| async { Ok::<(), ()>(()) }).await;
    assert!(matches!(r, Err(BrowserLoginError::TimedOut(0))));
}

#[test]
fn the_origin_is_the_api_address_without_its_prefix() {
    assert_eq!(origin_of("https://app.contenthero.ai/api/v1"), "https://app.contenthero.ai");
    assert_eq!(origin_of("https://app.contenthero.ai/api/v1/"), "https://app.contenthero.ai");
    assert_eq!(origin_of("http://127.0.0.1:4000"), "http://127.0.0.1:4000");
}
