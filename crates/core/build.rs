//! The updater's public key (`src-tauri/updater.pub`, the file `tauri.conf.json`'s `plugins.updater.pubkey`
//! names for the bundler), copied into OUT_DIR so that `update::PUBLIC_KEY` is built in. A test build may
//! point `CONTENTDESK_UPDATER_PUBKEY` at a throwaway key's `.pub` (tests/package/run.sh does); the shipped
//! app is built without it (the release workflow checks that the signing key matches the committed file).
fn main() {
    let manifest = std::env::var("CARGO_MANIFEST_DIR").expect("cargo sets CARGO_MANIFEST_DIR");
    let committed = std::path::Path::new(&manifest).join("../../src-tauri/updater.pub");
    println!("cargo:rerun-if-env-changed=CONTENTDESK_UPDATER_PUBKEY");
    let source = match std::env::var_os("CONTENTDESK_UPDATER_PUBKEY") {
        Some(p) if !p.is_empty() => std::path::PathBuf::from(p),
        _ => committed,
    };
    println!("cargo:rerun-if-changed={}", source.display());
    let key = std::fs::read_to_string(&source).unwrap_or_else(|e| panic!("the updater public key {}: {e}", source.display()));
    let out = std::path::Path::new(&std::env::var("OUT_DIR").expect("cargo sets OUT_DIR")).join("updater.pub");
    std::fs::write(out, key.trim()).expect("write OUT_DIR/updater.pub");
}
