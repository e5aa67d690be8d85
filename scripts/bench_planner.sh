#!/usr/bin/env bash
# The planner benchmark (figures, not a test): a sandbox seeded with the demo plus 5,000 cards in its
# demo space, web-shell with that sandbox as the selected remote profile, and ui/bench/planner.mjs
# driving the board in Debian's headless Chromium (playwright-core): time to the board rendered,
# drop to tile moved, drop to card_move's reply, long tasks while scrolling a 1,000+-card column; then
# ui/bench/calendar.mjs: the calendar's month view with those 5,000 cards scheduled (first render, drop
# to moved).
# Release builds (BENCH_PLANNER_PROFILE=debug for the debug ones). Screenshot of the board:
# ${BENCH_ARTIFACTS:-/tmp/contentdesk-bench}/planner-5000.png.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/lib.sh
ensure_rust
ensure_ui
apt_install chromium
export BENCH_ARTIFACTS="${BENCH_ARTIFACTS:-/tmp/contentdesk-bench}"
mkdir -p "$BENCH_ARTIFACTS"

profile="${BENCH_PLANNER_PROFILE:-release}"
(cd ui && npm run --silent build >/dev/null)
if [ "$profile" = release ]; then
  cargo build --quiet --release -p contentdesk-web-shell -p contentdesk-sandbox
else
  cargo build --quiet -p contentdesk-web-shell -p contentdesk-sandbox
fi
bin="$CARGO_TARGET_DIR/$profile"

bench_workdir

start_sandbox "$bin" bench --addr 127.0.0.1:0 --extra-cards 5000 --rate-limit 0
key="$sandbox_key"
start_web_shell "$bin"

echo "planner benchmark: $profile builds, sandbox and web-shell on loopback, $(nproc) cores shared with Chromium"
# BENCH_PLANNER_PART=board or calendar runs that part alone.
part="${BENCH_PLANNER_PART:-all}"
if [ "$part" != calendar ]; then
  (cd ui && WEB_SHELL_URL="$url" SANDBOX_URL="$sandbox_url" SANDBOX_KEY="$key" node bench/planner.mjs)
fi
# The calendar's month view with the same 5,000 cards, each given a time this month (ui/bench/calendar.mjs).
if [ "$part" != board ]; then
  (cd ui && WEB_SHELL_URL="$url" SANDBOX_URL="$sandbox_url" SANDBOX_KEY="$key" node bench/calendar.mjs)
fi
