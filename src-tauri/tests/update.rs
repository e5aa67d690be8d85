//! The app's download of an update, through tauri-plugin-updater as the app builds it (the key given, the
//! signed version required), from a raw HTTP server on loopback, with a minisign key pair made here: the
//! package signed by the key is downloaded and verified; one signed by another key, one whose signature
//! lacks the version, and a download cut short are each refused with a short note. Nothing is installed in
//! any case (installing is the package journey's: tests/package/run.sh).
use base64::Engine;
use contentdesk_desktop::update::plugin_error;
use contentdesk_core::update::UpdateError;
use std::io::{Read, Write};
use tauri::test::{mock_builder, mock_context, noop_assets};
use tauri_plugin_updater::UpdaterExt;

struct Key {
    public: String,
    kp: minisign::KeyPair,
}

impl Key {
    fn new() -> Key {
        let kp = minisign::KeyPair::generate_unencrypted_keypair().unwrap();
        Key { public: b64(&kp.pk.to_box().unwrap().to_string()), kp }
    }
    fn sign(&self, data: &[u8], version: Option<&str>) -> String {
        let trusted = match version {
            Some(v) => format!("timestamp:0\tfile:pkg\tversion:{v}"),
            None => "timestamp:0\tfile:pkg".to_string(),
        };
        b64(&minisign::sign(Some(&self.kp.pk), &self.kp.sk, std::io::Cursor::new(data), Some(&trusted), None).unwrap().to_string())
    }
}

fn b64(s: &str) -> String {
    base64::engine::general_purpose::STANDARD.encode(s)
}

/// A loopback server: `/latest.json` answers `manifest`; `/pkg` answers the package, or with `cut_short`
/// announces all of it and closes after the first 100 bytes.
fn serve(manifest: impl Fn(&str) -> String + Send + 'static, package: Vec<u8>, cut_short: bool) -> String {
    let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let base = format!("http://{}", listener.local_addr().unwrap());
    let me = base.clone();
    std::thread::spawn(move || {
        for stream in listener.incoming() {
            let Ok(mut s) = stream else { continue };
            let mut buf = [0u8; 4096];
            let n = s.read(&mut buf).unwrap_or(0);
            let request = String::from_utf8_lossy(&buf[..n]).to_string();
            if request.starts_with("GET /latest.json") {
                let body = manifest(&me);
                let _ = write!(s, "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{body}", body.len());
            } else {
                let _ = write!(s, "HTTP/1.1 200 OK\r\nContent-Type: application/octet-stream\r\nContent-Length: {}\r\nConnection: close\r\n\r\n", package.len());
                let _ = s.write_all(if cut_short { &package[..100] } else { &package });
            }
        }
    });
    base
}

fn manifest_with(signature: String) -> impl Fn(&str) -> String + Send + 'static {
    move |base: &str| {
        serde_json::json!({
            "version": "9.0.0", "notes": "Faster board.",
            "platforms": { contentdesk_core::update::platform_key(): { "signature": signature, "url": format!("{base}/pkg") } }
        })
        .to_string()
    }
}

/// Checks and downloads as the app does, with `trusted` as the built-in key.
async fn download(trusted: &str, base: &str) -> Result<Vec<u8>, UpdateError> {
    let mut context = mock_context(noop_assets());
    context.config_mut().plugins.0.insert("updater".into(), serde_json::json!({ "pubkey": trusted, "requireSignedVersion": true }));
    let app = mock_builder().plugin(tauri_plugin_updater::Builder::new().pubkey(trusted).build()).build(context).unwrap();
    let updater = app.updater_builder().endpoints(vec![format!("{base}/latest.json").parse().unwrap()]).unwrap().build().unwrap();
    let update = updater.check().await.map_err(|e| plugin_error("9.0.0", e))?.expect("9.0.0 is newer");
    assert_eq!(update.body.as_deref(), Some("Faster board."));
    update.download(|_, _| {}, || {}).await.map_err(|e| plugin_error("9.0.0", e))
}

fn package() -> Vec<u8> {
    (0..64 * 1024).map(|i| (i % 251) as u8).collect()
}

#[tokio::test]
async fn a_package_signed_by_the_key_is_downloaded_and_verified() {
    let key = Key::new();
    let pkg = package();
    let base = serve(manifest_with(key.sign(&pkg, Some("9.0.0"))), pkg.clone(), false);
    assert_eq!(download(&key.public, &base).await.unwrap(), pkg);
}

#[tokio::test]
async fn a_package_signed_by_another_key_is_refused() {
    let (key, stranger) = (Key::new(), Key::new());
    let pkg = package();
    let base = serve(manifest_with(stranger.sign(&pkg, Some("9.0.0"))), pkg, false);
    let e = download(&key.public, &base).await.unwrap_err();
    assert!(matches!(e, UpdateError::BadSignature { .. }), "{e:?}");
    assert_eq!(e.note(), "The downloaded update to 9.0.0 does not match its signature, so it was refused. Nothing was installed.");
}

#[tokio::test]
async fn an_old_package_offered_as_a_new_version_is_refused() {
    // A genuine signature of 1.0.0's package, offered as 9.0.0: the signed version must be the manifest's.
    let key = Key::new();
    let pkg = package();
    for sig in [key.sign(&pkg, Some("1.0.0")), key.sign(&pkg, None)] {
        let base = serve(manifest_with(sig), pkg.clone(), false);
        let e = download(&key.public, &base).await.unwrap_err();
        assert!(matches!(e, UpdateError::BadSignature { .. }), "{e:?}");
    }
}

#[tokio::test]
async fn a_download_cut_short_is_a_note() {
    let key = Key::new();
    let pkg = package();
    let base = serve(manifest_with(key.sign(&pkg, Some("9.0.0"))), pkg, true);
    let e = download(&key.public, &base).await.unwrap_err();
    assert_eq!(e, UpdateError::CutShort { version: "9.0.0".into() }, "{}", e.detail());
    assert_eq!(e.note(), "The download of 9.0.0 was cut short; nothing was installed. Try again later.");
}
