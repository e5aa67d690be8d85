#!/usr/bin/env bash
# `cdesk` in a real terminal (tmux): a render's progress line is drawn on stderr and updates while it
# renders (status, seconds so far, the next check from the adaptive cadence), the table output is readable,
# and the same command piped prints JSON on stdout and nothing on stderr. Captured panes are kept in
# $CLI_ARTIFACTS (default tests/artifacts/cli) to look at. Prints one line "N passed, N failed".
set -uo pipefail
cd "$(dirname "$0")/../.."
source scripts/lib.sh
ensure_rust
command -v tmux >/dev/null || apt_install tmux
command -v tmux >/dev/null || { echo "tmux is missing" >&2; exit 1; }
cargo build --quiet -p contentdesk-cli -p contentdesk-sandbox || exit 1
bin="$CARGO_TARGET_DIR/debug"
artifacts="${CLI_ARTIFACTS:-$PWD/tests/artifacts/cli}"
mkdir -p "$artifacts"
work="$(mktemp -d)"
pids=()
session="cdesk-test-$$"
cleanup() { tmux kill-session -t "$session" 2>/dev/null; for p in "${pids[@]}"; do kill "$p" 2>/dev/null; done; rm -rf "$work"; }
trap cleanup EXIT
passed=0; failed=0
check() { # name condition-exit-code
  if [ "$2" -eq 0 ]; then passed=$((passed + 1)); echo "ok   $1"; else failed=$((failed + 1)); echo "FAIL $1"; fi
}

# Renders take 8 s so the line has time to change; the generate call answers at once.
start_sandbox "$bin" cli --addr 127.0.0.1:0 --render-ms 8000 --smart-wait-ms 100 --rate-limit 0 || exit 1
envs="HOME=$work CONTENTHERO_CONFIG_DIR=$work/ch CONTENTDESK_DATA_DIR=$work/app CONTENTHERO_API_KEY=$sandbox_key CONTENTHERO_BASE_URL=$sandbox_url"

# 1. At a terminal: the progress line appears and updates, then the result as key-values.
tmux new-session -d -s "$session" -x 120 -y 30 "env $envs $bin/cdesk generate image 'a mug in the rain' --timeout 60; echo EXIT=\$?; sleep 30"
frames=()
for i in $(seq 1 40); do
  sleep 0.5
  frame="$(tmux capture-pane -p -t "$session")"
  frames+=("$frame")
  printf '%s\n' "$frame" > "$artifacts/terminal-render-$i.txt"
  grep -q "EXIT=" <<<"$frame" && break
done
progress=$(printf '%s\n' "${frames[@]}" | grep -E "(processing|queued|pending|submitted)" | sort -u)
printf '%s\n' "$progress" > "$artifacts/terminal-progress-lines.txt"
distinct=$(printf '%s\n' "$progress" | grep -c . )
last="${frames[-1]}"
printf '%s\n' "$last" > "$artifacts/terminal-render-final.txt"
check "a progress line is drawn while it renders" "$([ -n "$progress" ] && echo 0 || echo 1)"
check "the progress line updates (at least 3 different lines)" "$([ "$distinct" -ge 3 ] && echo 0 || echo 1)"
check "the line says when the next check is" "$(grep -q "next check in" <<<"$progress" && echo 0 || echo 1)"
check "the result is shown as key-values and the exit code is 0" "$(grep -q "EXIT=0" <<<"$last" && grep -Eq "^status +completed" <<<"$last" && echo 0 || echo 1)"
check "the progress line is cleared at the end" "$(! grep -Eq "next check in" <<<"$last" && echo 0 || echo 1)"
tmux kill-session -t "$session" 2>/dev/null

# 2. Piped: JSON on stdout, nothing on stderr.
env $envs "$bin/cdesk" generate image 'a mug in the sun' --timeout 60 > "$work/out.json" 2> "$work/err.txt"
rc=$?
check "piped: exit 0" "$rc"
check "piped: stdout is JSON with the outputId" "$(python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); sys.exit(0 if d.get("outputId") and d.get("status")=="completed" else 1)' "$work/out.json"; echo $?)"
check "piped: stderr is empty" "$([ ! -s "$work/err.txt" ] && echo 0 || echo 1)"

# 3. A table at a terminal.
tmux new-session -d -s "$session" -x 160 -y 40 "env $envs $bin/cdesk card list --limit 5; echo EXIT=\$?; sleep 30"
for i in $(seq 1 20); do sleep 0.3; tmux capture-pane -p -t "$session" | grep -q "EXIT=" && break; done
tmux capture-pane -p -t "$session" > "$artifacts/terminal-card-list.txt"
# One line a card, under a header, with stage names rather than ids (issue 26 point 8; ids with --wide).
check "card list at a terminal is a table with a header" "$(grep -Eq "^TITLE +STAGE" "$artifacts/terminal-card-list.txt" && echo 0 || echo 1)"
check "its rows name the stage, not its id" "$(grep -Eq " Ideas " "$artifacts/terminal-card-list.txt" && echo 0 || echo 1)"
# Platforms by the names the UI shows (api-types' one table): "TikTok", never "tiktok".
check "its rows name the platforms as the UI does" "$(grep -Eq "(TikTok|YouTube|Instagram|LinkedIn)" "$artifacts/terminal-card-list.txt" && ! grep -Eq "  (tiktok|youtube|instagram|linkedin)\b" "$artifacts/terminal-card-list.txt" && echo 0 || echo 1)"

echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
