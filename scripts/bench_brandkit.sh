#!/usr/bin/env bash
# The brand-kit benchmark (figures, not a test), issue 6 item 9: a kit of 40 sections of 5 KB Markdown
# each against web-shell and its embedded sandbox, in Debian's headless Chromium (ui/bench/brandkit.mjs):
# page ready, editor open, save round trip. Release builds. Screenshot:
# ${BENCH_ARTIFACTS:-/tmp/contentdesk-bench}/brandkit-40.png.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/lib.sh
ensure_rust
ensure_ui
apt_install chromium
export BENCH_ARTIFACTS="${BENCH_ARTIFACTS:-/tmp/contentdesk-bench}"
mkdir -p "$BENCH_ARTIFACTS"
(cd ui && npm run --silent build >/dev/null)
cargo build --quiet --release -p contentdesk-web-shell
bin="$CARGO_TARGET_DIR/release"

work="$(mktemp -d)"
pids=()
# Only the server this script started, by PID (never a process group or a name).
cleanup() { for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; done; for p in "${pids[@]}"; do wait "$p" 2>/dev/null || true; done; rm -rf "$work"; }
trap cleanup EXIT

"$bin/contentdesk-web-shell" --data-dir "$work/app" --ui-dist ui/dist --memory-secrets > "$work/shell.out" 2> "$work/shell.err" &
pids+=($!)
for _ in $(seq 1 200); do grep -q "web-shell ready" "$work/shell.out" && break; sleep 0.1; done
url=$(sed -n 's/^web-shell ready: //p' "$work/shell.out")
[ -n "$url" ] || { echo "bench_brandkit: web-shell did not start" >&2; cat "$work/shell.err" >&2; exit 1; }
(cd ui && WEB_SHELL_URL="$url" node bench/brandkit.mjs)
