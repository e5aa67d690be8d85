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

bench_workdir
start_web_shell "$bin"
(cd ui && WEB_SHELL_URL="$url" node bench/brandkit.mjs)
