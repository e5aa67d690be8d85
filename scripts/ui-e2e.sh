#!/usr/bin/env bash
# Browser end to end: builds the UI, starts web-shell (embedded sandbox, keys in memory) and a second
# sandbox as the "remote" service, mints a key lacking brandkit:read on it, and runs the journeys in
# Debian's Chromium through playwright-core. Then the leak check over everything the run captured.
# Arguments, when given, are the journey files to run (e.g. tests/browser/screens.test.mjs); else all.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/lib.sh
ensure_rust
apt_install chromium
ensure_ui

work="$(mktemp -d)"
export E2E_ARTIFACTS="${E2E_ARTIFACTS:-$PWD/tests/artifacts/browser}"
rm -rf "$E2E_ARTIFACTS"; mkdir -p "$E2E_ARTIFACTS"
pids=()
cleanup() { for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; done; rm -rf "$work"; }
trap cleanup EXIT

(cd ui && npm run --silent build >/dev/null)
cargo build --quiet -p contentdesk-web-shell -p contentdesk-sandbox -p contentdesk-cli
bin="$CARGO_TARGET_DIR/debug"

"$bin/contentdesk-sandbox" serve --db "$work/remote.db" --addr 127.0.0.1:0 --seed demo --ready-json > "$work/remote.out" 2>&1 &
pids+=($!)
remote_url=$(ready_field "$work/remote.out" url)
full_key=$(ready_field "$work/remote.out" key)
lacking=$("$bin/contentdesk-sandbox" keys create --db "$work/remote.db" --scopes all --except brandkit:read 2>/dev/null)

# Every journey shares one key of web-shell's local sandbox, in more requests a minute than a person makes:
# no rate limit there (the remote sandbox keeps the service's; the 429 path has its own tests).
export CONTENTDESK_SANDBOX_RATE_LIMIT=0
"$bin/contentdesk-web-shell" --data-dir "$work/app" --ui-dist ui/dist --memory-secrets --ready-json > "$work/shell.out" 2> "$E2E_ARTIFACTS/web-shell.log" &
pids+=($!)
url=$(ready_field "$work/shell.out" url)
[ -n "$url" ] && [ -n "$remote_url" ] && [ -n "$lacking" ] || { echo "ui-e2e: servers did not start" >&2; cat "$work"/*.out >&2; exit 1; }

status=0
WEB_SHELL_URL="$url" REMOTE_URL="$remote_url" REMOTE_KEY_NO_BRANDKIT="$lacking" \
  SANDBOX_BIN="$bin/contentdesk-sandbox" WEB_SHELL_BIN="$bin/contentdesk-web-shell" CDESK_BIN="$bin/cdesk" node --test \
  --test-reporter=spec --test-reporter-destination=stdout \
  --test-reporter=junit --test-reporter-destination="$E2E_ARTIFACTS/junit.xml" "${@:-tests/browser/}" || status=1
cp "$work/app/settings.json" "$E2E_ARTIFACTS/settings.json" 2>/dev/null || true
echo "== leak check (browser run)"
python3 tests/leak_check.py --secret "$lacking" --secret "$full_key" "$E2E_ARTIFACTS" || status=1
exit $status
