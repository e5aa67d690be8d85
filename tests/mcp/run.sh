#!/usr/bin/env bash
# The agent tools checked by two real MCP clients, each spawning `cdesk mcp` over stdio against real
# sandboxes: the official Python SDK (`mcp` from PyPI, with pytest; tests/mcp/test_stdio.py) and the
# official TypeScript SDK's client (@modelcontextprotocol/sdk from npm, node:test;
# tests/mcp/ts_client.test.mjs); and the hosted form, `cdesk mcp --http`, with the Python SDK's OAuth client
# against the sandbox as authorization server (tests/mcp/test_http.py) and the TypeScript SDK's Streamable
# HTTP client with a token granted through it (tests/mcp/ts_http.test.mjs). Issue 27's points with the TypeScript
# SDK too: output schemas (strict Ajv), resource links, the fence (ts_points.test.mjs); its OAuth client by
# registration and by a Client ID Metadata Document over https, and the three security findings refused
# (ts_oauth.test.mjs). Every tests/mcp/ts_*.test.mjs runs. Builds cdesk and the sandbox, installs the client packages when missing,
# writes JUnit reports to $MCP_ARTIFACTS (default: tests/artifacts/mcp) and exits non-zero on any failure.
set -euo pipefail
cd "$(dirname "$0")/../.."
source scripts/lib.sh
ensure_rust
pip_install mcp 'mcp>=2,<3'
pip_install pytest pytest
pip_install jsonschema jsonschema
pip_install icalendar 'icalendar>=6,<8'
cargo build --quiet -p contentdesk-cli -p contentdesk-sandbox
if [ ! -d tests/mcp/node_modules ] || [ tests/mcp/package.json -nt tests/mcp/node_modules/.package-lock.json ]; then
  (cd tests/mcp && npm install --no-audit --no-fund --loglevel=error >/dev/null)
fi
artifacts="${MCP_ARTIFACTS:-$PWD/tests/artifacts/mcp}"
mkdir -p "$artifacts"
export CDESK_BIN_DIR="$CARGO_TARGET_DIR/debug"
rc=0
timeout 600 python3 -m pytest -q -p no:cacheprovider --junitxml="$artifacts/python-junit.xml" tests/mcp || rc=1
timeout 300 node --test --test-reporter=spec --test-reporter-destination=stdout \
  --test-reporter=junit --test-reporter-destination="$artifacts/ts-junit.xml" tests/mcp/ts_*.test.mjs || rc=1
exit $rc
