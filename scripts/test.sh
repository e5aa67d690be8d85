#!/usr/bin/env bash
# Runs every test, in layers, and ends with one line "tests: N passed, N failed", counted from each
# runner's machine report (cargo-nextest's JUnit, Vitest's JSON, node:test's JUnit); a layer with no
# report of its own (doctests, checks) counts as one test:
#   1. the Rust workspace under cargo-nextest (each test in its own process): unit tests, the client
#      against the real sandbox over HTTP, the sandbox's handler and scope tests, the OpenAPI sync test,
#      the app core and web-shell, the Tauri commands; then the doctests (`cargo test --doc`, as nextest
#      does not run them);
#   2. the app core against the real Secret Service (gnome-keyring in dbus-run-session);
#   3. the generated TypeScript bindings are current; clippy finds nothing in the workspace;
#   4. the UI: svelte-check and the Vitest unit tests (mockIPC);
#   5. the browser journeys: Playwright in Debian's Chromium against web-shell + sandboxes, leak check;
#   6. the desktop journeys: the real window under Xvfb over WebDriver, real keyring, leak check;
#   7. schemathesis fuzzing the running sandbox against docs/openapi.yaml;
#   8. `cdesk mcp` under two real MCP clients (the official Python SDK, the official TypeScript SDK);
#   9. `cdesk` in a real terminal (tmux): the progress line, tables, a quiet stderr when piped;
#  10. actionlint on the GitHub workflows (release and CI);
#  11. the packages: scripts/package.sh with the dev profile (the desktop journeys' build), what the .deb and
#      .rpm hold and declare, then the .deb installed with apt-get, run under Xvfb, updated by the app itself
#      to a next version from a loopback server (and refused when signed by another key), removed and purged.
# Installs what it needs when missing (Debian packages, npm and PyPI packages, crates, cargo-nextest,
# schemathesis, the MCP client SDKs).
set -uo pipefail
cd "$(dirname "$0")/.."
source scripts/lib.sh
# The app and cdesk check for updates at start (issue 24): in the tests, at a closed loopback port (a fast
# "could not check"), never the release server. A test of the check gives its own server.
export CONTENTDESK_UPDATE_URL="${CONTENTDESK_UPDATE_URL:-http://127.0.0.1:9/latest.json}"
ensure_rust
ensure_nextest
ensure_test_deps
ensure_ui
# The desktop crate embeds ui/dist at compile time: build the UI before any cargo build.
echo "== building the UI"
(cd ui && npm run --silent build >/dev/null) || { echo "the UI does not build" >&2; exit 1; }
passed=0
failed=0
layer() { # name command...: runs one layer, counting it as one test when it reports no count itself
  local name="$1"; shift
  echo "== $name"
  if "$@"; then return 0; else echo "!! layer failed: $name"; return 1; fi
}
one() { if [ "$1" -eq 0 ]; then passed=$((passed + 1)); else failed=$((failed + 1)); fi; }
add_counts() { # the passed and failed of a machine report (junit.xml or Vitest's JSON) into the totals; sets $f
  local p
  read -r p f < <(python3 - "$1" <<'PY'
import json, sys, xml.etree.ElementTree as ET
path = sys.argv[1]
try:
    if path.endswith(".json"):
        r = json.load(open(path))
        print(r.get("numPassedTests", 0), r.get("numFailedTests", 0))
    else:
        cases = list(ET.parse(path).getroot().iter("testcase"))
        bad = sum(1 for c in cases if c.find("failure") is not None or c.find("error") is not None)
        skipped = sum(1 for c in cases if c.find("skipped") is not None)
        print(len(cases) - bad - skipped, bad)
except Exception:
    print(0, 0)
PY
)
  f=${f:-0}
  passed=$((passed + ${p:-0})); failed=$((failed + f))
}
nextest_layer() { # CMD...: runs CMD (a `cargo nextest run --profile ci`, perhaps wrapped) and counts its JUnit
  # report; a failure the report does not show (a build error, no report) counts as one
  rm -f "$NEXTEST_JUNIT"
  "$@"
  local rc=$?
  add_counts "$NEXTEST_JUNIT"
  [ "$rc" -eq 0 ] || [ "$f" -gt 0 ] || failed=$((failed + 1))
}

# 1. Rust workspace
echo "== cargo nextest (workspace)"
nextest_layer cargo nextest run --workspace --all-targets --no-fail-fast --profile ci
# libtest has no stable machine output and nextest no doctests: the doctests are one layer.
layer "doctests" cargo test --doc --workspace --no-fail-fast
one $?

# 2. the real keyring
echo "== app core against the real Secret Service"
nextest_layer with_keyring env CONTENTDESK_KEYRING_TESTS=1 cargo nextest run -p contentdesk-core --test keyring --profile ci

# 3. bindings
layer "TypeScript bindings are current" cargo run --quiet -p contentdesk-core --bin export-bindings -- --check
one $?
# The Rust code stays clippy-clean: a new warning fails here, not in the next reader's editor.
layer "clippy (workspace, every target, warnings denied)" bash -c \
  'cargo clippy --version >/dev/null 2>&1 || rustup component add clippy; cargo clippy --quiet --workspace --all-targets -- -D warnings'
one $?

# 4. UI static check and unit tests
layer "svelte-check" bash -c "cd ui && npx --no-install svelte-check --tsconfig ./tsconfig.json --fail-on-warnings"
one $?
echo "== Vitest"
report="$(mktemp --suffix=.json)"
(cd ui && npx --no-install vitest run --reporter=default --reporter=json --outputFile.json="$report" 2>&1)
rc=$?
add_counts "$report"; rm -f "$report"
[ "$rc" -eq 0 ] || [ "$f" -gt 0 ] || failed=$((failed + 1))

# 5. browser journeys
echo "== browser journeys (Chromium + web-shell)"
export E2E_ARTIFACTS="$PWD/tests/artifacts/browser"
bash scripts/ui-e2e.sh
rc=$?
add_counts "$E2E_ARTIFACTS/junit.xml"
[ "$rc" -eq 0 ] || [ "$f" -gt 0 ] || failed=$((failed + 1))
unset E2E_ARTIFACTS

# 6. desktop journeys (their nextest JUnit report is copied into the artifacts, as the browser layer's)
echo "== desktop journeys (real window, Xvfb, WebDriver, keyring)"
export E2E_ARTIFACTS="$PWD/tests/artifacts/desktop"
bash scripts/desktop-e2e.sh
rc=$?
add_counts "$E2E_ARTIFACTS/junit.xml"
[ "$rc" -eq 0 ] || [ "$f" -gt 0 ] || failed=$((failed + 1))
unset E2E_ARTIFACTS

# 7. fuzz
layer "schemathesis against the running sandbox" bash tests/fuzz/run.sh
one $?

# 8. the agent tools under two real MCP clients (the Python SDK with pytest, the TypeScript SDK with node:test)
echo "== cdesk mcp under real MCP clients"
export MCP_ARTIFACTS="$PWD/tests/artifacts/mcp"
rm -f "$MCP_ARTIFACTS"/*.xml
bash tests/mcp/run.sh
rc=$?
f_all=0
for report in "$MCP_ARTIFACTS/python-junit.xml" "$MCP_ARTIFACTS/ts-junit.xml"; do
  if [ -f "$report" ]; then add_counts "$report"; f_all=$((f_all + f)); else failed=$((failed + 1)); fi
done
[ "$rc" -eq 0 ] || [ "$f_all" -gt 0 ] || failed=$((failed + 1))
unset MCP_ARTIFACTS

# 9. cdesk in a real terminal (tmux): the progress line, tables, quiet stderr when piped
echo "== cdesk in a terminal (tmux)"
out="$(mktemp)"
CLI_ARTIFACTS="$PWD/tests/artifacts/cli" bash tests/cli/terminal.sh | tee "$out"
rc=${PIPESTATUS[0]}
read -r p f < <(awk '/^[0-9]+ passed, [0-9]+ failed$/ { print $1, $3 }' "$out")
passed=$((passed + ${p:-0})); failed=$((failed + ${f:-0}))
[ "$rc" -eq 0 ] || [ "${f:-0}" -gt 0 ] || failed=$((failed + 1))
rm -f "$out"

# 10. the GitHub workflows
layer "actionlint (.github/workflows: release, CI)" bash -c 'source scripts/lib.sh && ensure_actionlint && actionlint .github/workflows/*.yml'
one $?

# 11. the packages as a person gets them (tests/package/run.sh; root, as CI)
echo "== packages (deb, rpm: build, contents, install, run, update, remove)"
out="$(mktemp)"
PACKAGE_ARTIFACTS="$PWD/tests/artifacts/package" bash tests/package/run.sh | tee "$out"
rc=${PIPESTATUS[0]}
read -r p f < <(awk '/^[0-9]+ passed, [0-9]+ failed$/ { print $1, $3 }' "$out")
passed=$((passed + ${p:-0})); failed=$((failed + ${f:-0}))
[ "$rc" -eq 0 ] || [ "${f:-0}" -gt 0 ] || failed=$((failed + 1))
rm -f "$out"

echo "tests: ${passed} passed, ${failed} failed"
[ "$failed" -eq 0 ]
