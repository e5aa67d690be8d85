#!/usr/bin/env bash
# Desktop end to end: the real window (Tauri 2 + webkit2gtk) under Xvfb, driven over WebDriver by
# tauri-driver and Debian's WebKitWebDriver, inside a private D-Bus session with an unlocked
# gnome-keyring (a real Secret Service). The journeys are the crate tests/desktop (contentdesk-desktop-e2e),
# run by cargo-nextest; its JUnit report, screenshots and DOM dumps land in $E2E_ARTIFACTS, then the
# leak check runs over them, the app's settings file and its log.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/lib.sh
ensure_rust
ensure_nextest
ensure_test_deps
ensure_ui
ensure_tauri_driver

export E2E_ARTIFACTS="${E2E_ARTIFACTS:-$PWD/tests/artifacts/desktop}"
rm -rf "$E2E_ARTIFACTS"; mkdir -p "$E2E_ARTIFACTS"
[ -f ui/dist/index.html ] || (cd ui && npm run --silent build >/dev/null)
cargo build --quiet -p contentdesk-desktop --bin contentdesk -p contentdesk-sandbox
export CONTENTDESK_APP_BIN="$CARGO_TARGET_DIR/debug/contentdesk"
export CONTENTDESK_SANDBOX_BIN="$CARGO_TARGET_DIR/debug/contentdesk-sandbox"
export CONTENTDESK_KEYRING_SERVICE="contentdesk-e2e-$$"
export CONTENTDESK_DESKTOP_E2E=1
export E2E_SECRETS_FILE="$(mktemp)"

status=0
# GTK asks the (absent) desktop portals and accessibility bus for things the app does not need: dozens
# of warnings per launch that say nothing about the app. They are dropped from the log; the rest stays.
noise='xdg-desktop-portal|xdg-document-portal|org\.freedesktop\.impl\.portal|org\.a11y\.atspi|Gtk-WARNING \*\*: .*cannot open display|pw\.conf|No skeleton to export|Ignoring invalid max threads|^$'
rm -f "$NEXTEST_JUNIT"
with_keyring xvfb-run -a -s "-screen 0 1366x900x24" \
  cargo nextest run --cargo-quiet -p contentdesk-desktop-e2e --profile ci --no-capture < /dev/null \
  2> >(grep -v -E "$noise" >&2) || status=1
[ -f "$NEXTEST_JUNIT" ] && cp "$NEXTEST_JUNIT" "$E2E_ARTIFACTS/junit.xml"
echo "== leak check (desktop run)"
secrets=()
[ -s "$E2E_SECRETS_FILE" ] && secrets=(--secret-file "$E2E_SECRETS_FILE")
python3 tests/leak_check.py "${secrets[@]}" "$E2E_ARTIFACTS" || status=1
rm -f "$E2E_SECRETS_FILE"
exit $status
