#!/usr/bin/env bash
# The board's cold load of this tree against an earlier commit (BOARD_AB_BEFORE, default 26ddeda: issue 25's
# "before"), loads interleaved (ui/bench/board_ab.mjs says why). The earlier commit is checked out in a git
# worktree under the target folder and built there (release web-shell and sandbox, its own UI); this tree's
# release builds and UI as the planner benchmark builds them. BENCH_AB_LOADS loads a side (default 60).
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/lib.sh
ensure_rust
ensure_ui
apt_install chromium
before="${BOARD_AB_BEFORE:-26ddeda}"
tree="$CARGO_TARGET_DIR/board-ab/tree-$before"
if [ ! -d "$tree" ]; then
  mkdir -p "$(dirname "$tree")"
  git worktree add --detach "$tree" "$before" >/dev/null
fi
# Its UI's packages: this tree's, hard-linked, when the lock files agree; else installed.
if [ ! -d "$tree/ui/node_modules" ]; then
  if cmp -s ui/package-lock.json "$tree/ui/package-lock.json"; then cp -al ui/node_modules "$tree/ui/"
  else (cd "$tree/ui" && npm ci --silent --no-audit --no-fund); fi
fi
(cd "$tree/ui" && npm run --silent build >/dev/null)
(cd "$tree" && CARGO_TARGET_DIR="$CARGO_TARGET_DIR/board-ab/target" cargo build --quiet --release -p contentdesk-web-shell -p contentdesk-sandbox)
(cd ui && npm run --silent build >/dev/null)
cargo build --quiet --release -p contentdesk-web-shell -p contentdesk-sandbox

bench_workdir
# side KEY NAME BIN_DIR UI_DIST: a sandbox and a web-shell (their PIDs in $pids, so the exit trap stops them: not
# in a command substitution's subshell); appends the side's JSON to $sides.
sides=""
side() { # KEY NAME BIN_DIR UI_DIST (KEY names its files)
  start_sandbox "$3" "sandbox-$1" --addr 127.0.0.1:0 --extra-cards 5000 --rate-limit 0
  "$3/contentdesk-web-shell" --data-dir "$work/app-$1" --ui-dist "$4" --memory-secrets --ready-json > "$work/shell-$1.out" 2> "$work/shell-$1.err" &
  pids+=($!)
  local u; u=$(ready_field "$work/shell-$1.out" url)
  [ -n "$u" ] || { echo "web-shell ($2) did not start" >&2; cat "$work/shell-$1.err" >&2; return 1; }
  sides="${sides:+$sides,}$(printf '{"name":"%s","url":"%s","sandbox":"%s","key":"%s"}' "$2" "$u" "$sandbox_url" "$sandbox_key")"
}
side before "before ($before)" "$CARGO_TARGET_DIR/board-ab/target/release" "$tree/ui/dist"
side after "after ($(git rev-parse --short HEAD))" "$CARGO_TARGET_DIR/release" ui/dist
echo "board A/B: release builds, two sandboxes and web-shells on loopback, two Chromiums, $(nproc) cores"
(cd ui && BOARD_AB_SIDES="[$sides]" node bench/board_ab.mjs)
