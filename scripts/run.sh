#!/usr/bin/env bash
# Runs Content Desk: the desktop window, on the embedded local sandbox by default (no account needed).
# Installs what it needs when missing (Debian's webkit2gtk and friends, the UI's npm packages, crates)
# and builds the UI and the app. With no display it runs under Xvfb and says so; with no D-Bus session
# it makes one (so GTK's helpers end with the app). Extra arguments go to the app. On macOS and Windows
# (Git Bash) the system's own web view is used: no Debian packages, no Xvfb, no D-Bus session (not run on
# this Linux machine).
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/lib.sh
ensure_rust
os="$(uname -s)"
[ "$os" = Linux ] && ensure_desktop_deps
ensure_ui
echo "building the UI…" >&2
(cd ui && npm run --silent build >/dev/null)
echo "building the app (the first build takes a few minutes)…" >&2
cargo build --quiet -p contentdesk-desktop --bin contentdesk
app="$CARGO_TARGET_DIR/debug/contentdesk"
case "$os" in MINGW*|MSYS*|CYGWIN*) app="$app.exe" ;; esac
cmd=("$app" "$@")
[ "$os" = Linux ] || exec "${cmd[@]}"
if [ -z "${DISPLAY:-}" ] && [ -z "${WAYLAND_DISPLAY:-}" ]; then
  echo "no display found: running the window under Xvfb (screen :99-ish, invisible here)." >&2
  cmd=(xvfb-run -a -s "-screen 0 1366x900x24" "${cmd[@]}")
fi
if [ -z "${DBUS_SESSION_BUS_ADDRESS:-}" ]; then
  cmd=(dbus-run-session -- "${cmd[@]}")
fi
exec "${cmd[@]}"
