#!/usr/bin/env bash
# Benchmarks (figures, not tests):
#  (a) the sandbox against Prism mocking docs/openapi.yaml: requests/s and p50/p99 latency of
#      GET /cards/{id} and PATCH /cards/{id} at 16 connections on loopback, same load generator, same run;
#  (b) client overhead: 10,000 GET /account/balance through api-client vs raw reqwest;
#  (c) desktop launch time and idle memory (scripts/bench_desktop.py);
#  (d) the planner with 5,000 cards in headless Chromium (scripts/bench_planner.sh), then the calendar's
#      month view with those 5,000 scheduled (ui/bench/calendar.mjs).
#  (e) the studio: render polls beside the CLI's fixed interval, keystroke → price (scripts/bench_studio.sh).
#  (f) the brand kit: 40 sections of 5 KB, page ready, editor open, save (scripts/bench_brandkit.sh).
#  (g) cdesk and cdesk mcp (scripts/bench_cli.py): start to balance beside `node -e` fetch, status reads
#      for a 300 s render (BENCH_RENDER_S), `card list --all` over 5,000 cards, MCP start/list/call overhead.
#  (h) cdesk mcp --http (scripts/bench_mcp_http.py): the token check's cost per tool call against stdio,
#      p50/p99 of a read tool with 200 users' sessions at once, sessions per second of two instances (in the cli section).
#  (i) the platform preflight over a 5,000-card space in the core (api-types example preflight_bench; goal < 200 ms).
#  (j) the package (scripts/bench_package.py): the .deb's size and installed size beside the empty window's,
#      both with the `desktop` profile and the same bundler, the installed program's spawn to painted, and an
#      update's download to relaunched from a loopback server (BENCH_UPDATES runs, default 3).
#      Not in the default run (it installs packages as root and builds both with fat LTO, ~20 min on 2 cores).
#  (k) the calendar export of 5,000 posts as ICS: the writer, and the whole export over a sandbox (ops example export_bench; goal < 1 s).
#  (l) card import of 500 rows against a local sandbox, with progress, then the same file again (ops example import_bench; goal < 10 s).
#  (m) the board's cold load of this tree against an earlier commit, loads interleaved (scripts/bench_board_ab.sh;
#      goal: within 10% of BOARD_AB_BEFORE, default 26ddeda). Not in the default run (it builds the earlier tree).
# BENCH_ONLY=api, desktop, planner, studio, brandkit, cli, preflight, export, import, package or board-ab runs that section alone.
# Prism (npm @stoplight/prism-cli 5.14, the last release that runs on Node 20) is installed into .bench/.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/lib.sh
ensure_rust
SECONDS_PER_RUN="${BENCH_SECONDS:-10}"
CONNS=16
work="$(mktemp -d)"
pids=()
cleanup() { for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; done; rm -rf "$work"; }
trap cleanup EXIT

bin="$CARGO_TARGET_DIR/release"
only="${BENCH_ONLY:-}"
want() { [ -z "$only" ] || [ "$only" = "$1" ]; }
if [ "$only" = package ]; then
# BENCH_PACKAGE_PROFILE=dev: the same figures from the dev build (a quick check of this section; not what
# ships, so not comparable with the goals).
pprofile="${BENCH_PACKAGE_PROFILE:-desktop}"
case "$pprofile" in dev) pdir=debug; ptauri=(--debug) ;; *) pdir="$pprofile"; ptauri=(-- --profile "$pprofile") ;; esac
echo "(j) the package: Content Desk's .deb beside the empty window's ($pprofile profile, the same Tauri bundler)"
ensure_test_deps
# Content Desk as shipped (scripts/package.sh empties $CARGO_TARGET_DIR/<profile>/bundle first), then the
# peer: its own tauri.conf.json (bundle section: deb, the app's icons), built by the same pinned tauri-cli.
ensure_tauri_cli "$(sed -n 's/^TAURI_CLI_VERSION=//p' scripts/package.sh)"
ensure_tauri_driver
# (c) needs an app that trusts a key the benchmark signs with: a throwaway pair (nothing secret is kept),
# and an updater that takes the manifest and package over http from the loopback server (a release build's
# updater refuses anything but https: "The configured updater endpoint must use a secure protocol"; our own
# check and a debug build take http). The build differs from the shipped one by those two only; neither is
# on the timed path's work (download, signature check, dpkg, relaunch), and the package's signature is
# still checked.
cargo tauri signer generate --ci -p "" -w "$work/bench.key" >/dev/null 2>&1
echo '{"plugins": {"updater": {"dangerousInsecureTransportProtocol": true}}}' > "$work/bench.conf.json"
app_deb="$(CONTENTDESK_UPDATER_PUBKEY="$work/bench.key.pub" PACKAGE_EXTRA_CONFIG="$work/bench.conf.json" \
  bash scripts/package.sh --profile "$pprofile" | grep '\.deb$')"
cp "$app_deb" "$work/"; app_deb="$work/$(basename "$app_deb")"
(cd tests/bench/empty-window && cargo tauri build --ci --bundles deb "${ptauri[@]}" >&2)
empty_deb="$(find "$CARGO_TARGET_DIR/$pdir/bundle/deb" -maxdepth 1 -name 'Empty*window*.deb' | head -1)"
with_keyring xvfb-run -a -s "-screen 0 1366x900x24" \
  python3 scripts/bench_package.py --app-deb "$app_deb" --empty-deb "$empty_deb" --key "$work/bench.key" \
    --runs "${BENCH_LAUNCHES:-5}" --updates "${BENCH_UPDATES:-3}"
exit 0
fi
if want api; then
echo "building (release)…"
cargo build --quiet --release -p contentdesk-sandbox --bin contentdesk-sandbox --example loadgen
cargo build --quiet --release -p contentdesk-api-client --example client_overhead
bin="$CARGO_TARGET_DIR/release"

free_port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])'; }
wait_http() { for _ in $(seq 1 200); do curl -s -o /dev/null "$1" && return 0; sleep 0.1; done; echo "no answer from $1" >&2; return 1; }

# --- the sandbox
sport=$(free_port)
start_sandbox "$bin" bench --addr "127.0.0.1:$sport" --rate-limit 0
sandbox_pid="${pids[-1]}"
key="$sandbox_key"
base="http://127.0.0.1:$sport/api/v1"
wait_http "$base/account/balance"
card=$(curl -s -H "Authorization: Bearer $key" "$base/cards?limit=1" | python3 -c 'import json,sys; print(json.load(sys.stdin)["cards"][0]["id"])')

# --- Prism mocking the same contract
if [ ! -x .bench/node_modules/.bin/prism ]; then
  mkdir -p .bench && (cd .bench && [ -f package.json ] || echo '{"name":"contentdesk-bench","private":true}' > package.json
  npm install --no-audit --no-fund --silent @stoplight/prism-cli@5.14.2)
fi
pport=$(free_port)
.bench/node_modules/.bin/prism mock docs/openapi.yaml --host 127.0.0.1 --port "$pport" --errors false > "$work/prism.out" 2>&1 &
pids+=($!)
prism_pid=$!
pbase="http://127.0.0.1:$pport"
for _ in $(seq 1 300); do curl -s -o /dev/null "$pbase/account/balance" -H "Authorization: Bearer $key" && break; sleep 0.1; done

cpu_ticks() { awk '{print $14 + $15}' "/proc/$1/stat"; }
run() { # server-pid url method body: loadgen's JSON line plus the server's CPU time (user + system, ticks)
  local t0 t1 out
  t0=$(cpu_ticks "$1")
  out=$("$bin/examples/loadgen" --url "$2" --key "$key" --method "$3" ${4:+--body "$4"} --connections $CONNS --seconds "$SECONDS_PER_RUN")
  t1=$(cpu_ticks "$1")
  python3 -c 'import json, os, sys; r = json.loads(sys.argv[1]); r["cpu_s"] = int(sys.argv[2]) / os.sysconf("SC_CLK_TCK"); print(json.dumps(r))' "$out" $((t1 - t0))
}
patch_body='{"title":"Benchmark title"}'
echo
echo "(a) ${CONNS} connections, ${SECONDS_PER_RUN} s per run after a 2 s warm-up, loopback, $(nproc) cores shared by server and load (load average before: $(cut -d' ' -f1-3 /proc/loadavg))"
echo "    server CPU/req: the server process's user+system time over the run (warm-up included) per request counted, the"
echo "    figure least moved by other work on the machine; load CPU/req: the load generator's own (one thread, raw HTTP/1.1)"
printf '%-26s %10s %10s %10s %8s %14s %14s\n' "run" "req/s" "p50 ms" "p99 ms" "errors" "CPU/req us" "load CPU/req"
declare -A R
for target in sandbox prism; do
  if [ $target = sandbox ]; then b="$base"; p="$sandbox_pid"; else b="$pbase"; p="$prism_pid"; fi
  for op in GET PATCH; do
    if [ $op = GET ]; then out=$(run "$p" "$b/cards/$card" GET); else out=$(run "$p" "$b/cards/$card" PATCH "$patch_body"); fi
    R[$target-$op]="$out"
    python3 - "$target $op /cards/{id}" "$out" "$SECONDS_PER_RUN" <<'PY'
import json, sys
r = json.loads(sys.argv[2])
n = r["rps"] * (float(sys.argv[3]) + 2)  # requests over the run and its 2 s warm-up, at the measured rate
load = r.get("load_cpu_us")
print(f"{sys.argv[1]:<26} {r['rps']:>10.0f} {r['p50_ms']:>10.3f} {r['p99_ms']:>10.3f} {r['errors']:>8} {r['cpu_s'] * 1e6 / n if n else 0:>14.1f} {load if load is not None else '-':>14}")
PY
  done
done
python3 - "${R[sandbox-GET]}" "${R[prism-GET]}" "${R[sandbox-PATCH]}" "${R[prism-PATCH]}" <<'PY'
import json, sys
sg, pg, sp, pp = (json.loads(a) for a in sys.argv[1:])
for name, s, p in (("GET", sg, pg), ("PATCH", sp, pp)):
    ratio = s["rps"] / p["rps"] if p["rps"] else float("inf")
    print(f"ratio sandbox/prism {name:<5}: {ratio:6.1f}x req/s (goal >= 10x, issue 25); sandbox p99 {s['p99_ms']:.3f} ms (goal < 5 ms)")
    # Requests per CPU second, server against server: what the req/s ratio would be if each had the cores to
    # itself; it moves much less than req/s and p99 when other work shares the machine.
    per_cpu = lambda r: r["rps"] / r["cpu_s"] if r.get("cpu_s") else 0
    if per_cpu(p):
        print(f"ratio sandbox/prism {name:<5}: {per_cpu(s) / per_cpu(p):6.1f}x requests per server CPU second")
PY

echo
echo "(b) client overhead"
"$bin/examples/client_overhead" --requests 10000

fi

if want desktop; then
echo
echo "(c) desktop: launch to painted and idle memory, beside an empty Tauri window and headless Chromium"
ensure_test_deps
ensure_ui
(cd ui && npm run --silent build >/dev/null)
# The peer is its own crate (tests/bench/empty-window); the app prints `painted <ms>` with its `bench`
# feature. Two cargo runs: in one run with both packages `--features contentdesk-desktop/bench` was not
# applied (cargo 1.95 built the app without it, and the benchmark waited for a `painted` that never came).
# The peer's run selects the desktop package too, so Tauri's features are unified as in the app's build.
# Both windows with the shipping profile (`desktop` in Cargo.toml: LTO, one codegen unit, size; ~10 min).
cargo build --quiet --profile desktop -p contentdesk-desktop --features bench --bin contentdesk
cargo build --quiet --profile desktop -p contentdesk-desktop -p contentdesk-bench-empty-window --bin empty-window
cargo build --quiet --release -p contentdesk-web-shell
desk="$CARGO_TARGET_DIR/desktop"
CONTENTDESK_KEYRING_SERVICE="contentdesk-bench-$$" with_keyring xvfb-run -a -s "-screen 0 1366x900x24" \
  python3 scripts/bench_desktop.py --app "$desk/contentdesk" --empty "$desk/empty-window" \
  --web-shell "$bin/contentdesk-web-shell" --ui-dist ui/dist --runs "${BENCH_LAUNCHES:-5}"
fi

if [ "$only" = board-ab ]; then
echo
echo "(m) the board's cold load against ${BOARD_AB_BEFORE:-26ddeda}, interleaved"
scripts/bench_board_ab.sh
fi

if want planner; then
echo
echo "(d) planner: a 5,000-card board in headless Chromium"
scripts/bench_planner.sh
fi

if want studio; then
echo
echo "(e) studio: render polls and keystroke → price"
scripts/bench_studio.sh
fi

if want brandkit; then
echo
echo "(f) brand kit: 40 sections of 5 KB Markdown in headless Chromium"
scripts/bench_brandkit.sh
fi

if want cli; then
echo
echo "(g) cdesk and cdesk mcp: start to balance beside node, status reads for a long render, --all over 5,000 cards, MCP start and call overhead"
cargo build --quiet --release -p contentdesk-cli -p contentdesk-sandbox
cargo build --quiet --release -p contentdesk-cli --example mcp_floor
python3 scripts/bench_cli.py "$CARGO_TARGET_DIR/release" --render-s "${BENCH_RENDER_S:-300}"
echo
echo "(h) cdesk mcp --http: token check overhead per call against stdio, a read tool under 200 sessions, sessions/s of two instances"
pip_install mcp 'mcp>=2,<3'
pip_install pytest pytest
python3 scripts/bench_mcp_http.py "$CARGO_TARGET_DIR/release"
fi

if want preflight; then
echo
echo "(i) preflight: the platform rules over a 5,000-card space (3 posts and 4 assets a card), in the core"
cargo build --quiet --release -p contentdesk-api-types --example preflight_bench
"$CARGO_TARGET_DIR/release/examples/preflight_bench" --cards 5000
fi

if want export; then
echo
echo "(k) calendar export: 5,000 posts (1,000 cards x 5) as ICS, the writer and the whole export over a sandbox"
cargo build --quiet --release -p contentdesk-ops --example export_bench
"$CARGO_TARGET_DIR/release/examples/export_bench" --cards 1000
fi

if want import; then
echo
echo "(l) card import: 500 rows (CSV, 2-3 platforms each) into a new space over a sandbox, with progress; then again (nothing new)"
cargo build --quiet --release -p contentdesk-ops --example import_bench
"$CARGO_TARGET_DIR/release/examples/import_bench" --rows 500
fi
