#!/usr/bin/env bash
# Fuzzes the sandbox against the written contract with schemathesis (v4): builds and starts
# `contentdesk-sandbox serve` on a free loopback port with a fresh demo database, binds the seeded records'
# real ids into the generated requests (tests/fuzz/config.py), runs schemathesis against
# docs/openapi.yaml with the printed full-scope key, stops the server, prints one summary line and exits
# non-zero on any failure.
#
# Checks (every operation, every phase):
#   not_a_server_error           no 5xx, whatever the input
#   status_code_conformance      every status is one the YAML documents for that operation
#   content_type_conformance     every answer is application/json as documented
#   response_schema_conformance  every body matches its documented schema (errors included)
#   response_headers_conformance documented headers (Retry-After on 429) are present and well formed
#   ignored_auth                 an operation without (or with a wrong) bearer key answers 401
# Not run, and why:
#   positive_data_acceptance / negative_data_rejection: the YAML types fields, it does not restate every
#     semantic rule of the handlers (ids must exist, a stage must belong to the space named, a model takes
#     only its own aspect ratios…), so valid-by-schema inputs are rightly refused with 400/404, and a few
#     schema-invalid inputs (e.g. `null` for an optional request field, which serde reads as absent) are
#     rightly accepted. Both checks would report the contract's level of detail, not defects.
#   unsupported_method / allow_header_conformance: the sandbox answers 405 with a JSON body but no
#     `Allow` header (an axum fallback outside the contract).
#   use_after_free / ensure_resource_availability: need OpenAPI links with creation semantics; the
#     contract declares none, and the stateful phase runs on schemathesis's inferred links anyway.
# Excluded operations: none.
#
# Bounds (2 cores): FUZZ_MAX_EXAMPLES per operation (default 40), FUZZ_MAX_TIME seconds for the whole
# schemathesis run (default 150) and a hard `timeout` of FUZZ_MAX_TIME + 60 s around it. FUZZ_SEED fixes
# the seed (default: random, printed). Reports go to FUZZ_REPORT_DIR (default: a temp folder, kept on
# failure).
set -euo pipefail
cd "$(dirname "$0")/../.."
source scripts/lib.sh
ensure_rust

MAX_EXAMPLES="${FUZZ_MAX_EXAMPLES:-40}"
MAX_TIME="${FUZZ_MAX_TIME:-150}"
SEED="${FUZZ_SEED:-$RANDOM$RANDOM}"
CHECKS="not_a_server_error,status_code_conformance,content_type_conformance,response_schema_conformance,response_headers_conformance,ignored_auth"

# --- schemathesis 4.x
st_major() { python3 -c 'import schemathesis as s; print(s.__version__.split(".")[0])' 2>/dev/null || echo none; }
if [ "$(st_major)" != "4" ]; then
  echo "installing schemathesis 4.x (found: $(st_major))" >&2
  python3 -m pip install --quiet --disable-pip-version-check 'schemathesis>=4,<5'
fi
[ "$(st_major)" = "4" ] || { echo "fuzz: schemathesis 4.x is not importable" >&2; exit 1; }
ST=(python3 "$(pwd)/tests/fuzz/st.py")  # the CLI, with a workaround of one schemathesis bug (st.py says which)

# --- build and start the sandbox
echo "== building contentdesk-sandbox" >&2
cargo build -q -p contentdesk-sandbox
BIN="$CARGO_TARGET_DIR/debug/contentdesk-sandbox"
[ -x "$BIN" ] || { echo "fuzz: $BIN was not built" >&2; exit 1; }

WORK="$(mktemp -d -t contentdesk-fuzz.XXXXXX)"
REPORT_DIR="$(realpath -m "${FUZZ_REPORT_DIR:-$WORK/report}")"
PORT="$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')"
SERVER_PID=""
cleanup() {
  local rc=$?
  if [ -n "$SERVER_PID" ] && kill -0 "$SERVER_PID" 2>/dev/null; then
    kill -INT "$SERVER_PID" 2>/dev/null || true
    for _ in 1 2 3 4 5 6 7 8 9 10; do kill -0 "$SERVER_PID" 2>/dev/null || break; sleep 0.2; done
    kill -KILL "$SERVER_PID" 2>/dev/null || true
  fi
  if [ "$rc" -eq 0 ] && [ -z "${FUZZ_REPORT_DIR:-}" ]; then rm -rf "$WORK"; else echo "fuzz: files kept in $WORK" >&2; fi
}
trap cleanup EXIT

"$BIN" serve --db "$WORK/fuzz.db" --addr "127.0.0.1:$PORT" --seed demo --ready-json \
  --render-ms 20 --smart-wait-ms 200 --rate-limit 0 >"$WORK/server.out" 2>"$WORK/server.err" &
SERVER_PID=$!

BASE="http://127.0.0.1:$PORT/api/v1"
KEY=""
for _ in $(seq 1 150); do
  kill -0 "$SERVER_PID" 2>/dev/null || { echo "fuzz: the sandbox exited:" >&2; cat "$WORK/server.err" >&2; exit 1; }
  KEY="$(python3 -c 'import json,sys
for l in open(sys.argv[1]):
    if l.startswith("{"): print(json.loads(l).get("key") or ""); break' "$WORK/server.out")"
  if [ -n "$KEY" ] && curl -fsS -o /dev/null -H "Authorization: Bearer $KEY" "$BASE/account/balance" 2>/dev/null; then
    break
  fi
  KEY=""
  sleep 0.2
done
[ -n "$KEY" ] || { echo "fuzz: the sandbox did not become ready in 30 s" >&2; cat "$WORK/server.err" >&2; exit 1; }
echo "== sandbox ready at $BASE" >&2

# --- real ids for the generated requests
python3 tests/fuzz/config.py "$BASE" "$KEY" "$WORK/schemathesis.toml" >&2

# --- fuzz
echo "== schemathesis: checks $CHECKS; max $MAX_EXAMPLES examples per operation; ${MAX_TIME}s; seed $SEED" >&2
mkdir -p "$REPORT_DIR"
set +e
# Run from the temp folder: schemathesis and hypothesis leave caches (.schemathesis, .hypothesis) in the
# working directory.
ROOT="$(pwd)"
(cd "$WORK" && exec timeout --signal=INT --kill-after=20 "$((MAX_TIME + 60))" \
  "${ST[@]}" --config-file "$WORK/schemathesis.toml" run "$ROOT/docs/openapi.yaml" \
  --url "$BASE" \
  -H "Authorization: Bearer $KEY" \
  --checks "$CHECKS" \
  --phases examples,coverage,fuzzing,stateful \
  --max-examples "$MAX_EXAMPLES" \
  --max-time "$MAX_TIME" \
  --workers 2 \
  --seed "$SEED" \
  --request-timeout 20 \
  --generation-database none \
  --suppress-health-check all \
  --no-color \
  --report json,junit --report-dir "$REPORT_DIR") \
  >"$WORK/schemathesis.log" 2>&1
ST_RC=$?
set -e

# The full log on failure; its summary section otherwise.
if [ "$ST_RC" -ne 0 ]; then
  cat "$WORK/schemathesis.log"
else
  sed -n '/= SUMMARY =/,$p' "$WORK/schemathesis.log"
fi
if grep -qiE "panicked|internal error" "$WORK/server.err"; then
  echo "fuzz: the sandbox logged internal errors:" >&2
  grep -iE "panicked|internal error" "$WORK/server.err" | head -20 >&2
  [ "$ST_RC" -ne 0 ] || ST_RC=1
fi

REPORT="$(ls -t "$REPORT_DIR"/json-*.json 2>/dev/null | head -1 || true)"
if [ -n "$REPORT" ]; then
  python3 tests/fuzz/config.py --summary-from "$REPORT"
else
  echo "fuzz: no report (schemathesis exit $ST_RC)"
fi
if [ "$ST_RC" -eq 0 ]; then echo "fuzz: PASS"; else echo "fuzz: FAIL (schemathesis exit $ST_RC)"; fi
exit "$ST_RC"
