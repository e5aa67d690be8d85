#!/usr/bin/env bash
# The studio benchmark (figures, not a test), issue 5 item 9:
#   1. polls per completed render for 10 s, 60 s and 300 s renders and the delay from completion to the
#      app knowing, for Content Desk's render queue (with and without the server's pollAfterSeconds)
#      beside the official CLI's fixed 3 s interval, all in one run (crates/core/examples/bench_polls.rs,
#      about 10 minutes; BENCH_POLLS_SCALE=0.1 for a quick look at a tenth of the lengths);
#   2. keystroke → price latency and quote requests per settled edit in Debian's headless Chromium
#      against web-shell (ui/bench/studio.mjs).
# Release builds. Screenshot: ${BENCH_ARTIFACTS:-/tmp/contentdesk-bench}/studio-price.png.
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
cargo build --quiet --release -p contentdesk-core --example bench_polls
bin="$CARGO_TARGET_DIR/release"

bench_workdir
start_web_shell "$bin"

echo "== studio price (web-shell release build, Chromium headless, $(nproc) cores)"
(cd ui && WEB_SHELL_URL="$url" node bench/studio.mjs)
echo
echo "== render polls (scale ${BENCH_POLLS_SCALE:-1})"
"$bin/examples/bench_polls" --scale "${BENCH_POLLS_SCALE:-1}"
