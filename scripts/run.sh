#!/usr/bin/env bash
# Runs Content Desk. Until the desktop window lands, this is the local sandbox API with the demo data:
# it prints its URL and a fresh key with every scope. Installs what it needs when missing.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/lib.sh
ensure_rust
DATA_DIR="${CONTENTDESK_DATA_DIR:-$HOME/.local/share/contentdesk}"
mkdir -p "$DATA_DIR"
cargo build --quiet -p contentdesk-sandbox
exec "$CARGO_TARGET_DIR/debug/contentdesk-sandbox" serve --db "$DATA_DIR/sandbox.db" --seed demo \
  --addr "${CONTENTDESK_SANDBOX_ADDR:-127.0.0.1:8787}" "$@"
