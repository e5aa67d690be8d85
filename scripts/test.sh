#!/usr/bin/env bash
# Runs every test: the Rust workspace (unit tests, the client against the real sandbox over HTTP, the
# sandbox's handler and scope tests, the OpenAPI sync test), then schemathesis fuzzing the running
# sandbox against docs/openapi.yaml. Installs what it needs when missing. Ends with "N passed, N failed".
set -uo pipefail
cd "$(dirname "$0")/.."
source scripts/lib.sh
ensure_rust
log="$(mktemp)"
status=0

echo "== cargo test (workspace)"
cargo test --workspace --all-targets --no-fail-fast 2>&1 | tee "$log"
[ "${PIPESTATUS[0]}" -eq 0 ] || status=1

echo "== schemathesis against the running sandbox"
if ! bash scripts/fuzz.sh; then status=1; fuzz=1; else fuzz=0; fi

passed=$(awk '/^test result:/ { for (i = 1; i < NF; i++) if ($(i+1) ~ /^passed/) s += $i } END { print s + 0 }' "$log")
failed=$(awk '/^test result:/ { for (i = 1; i < NF; i++) if ($(i+1) ~ /^failed/) s += $i } END { print s + 0 }' "$log")
rm -f "$log"
passed=$(( ${passed:-0} + (1 - fuzz) ))
failed=$(( ${failed:-0} + fuzz ))
echo "tests: ${passed} passed, ${failed} failed"
[ "$failed" -eq 0 ] && [ "$status" -eq 0 ]
