#!/usr/bin/env bash
# Builds the installers of this system with the Tauri bundler (on Linux: the .deb and the .rpm) and prints
# their paths, one per line, as its last lines.
#
#   bash scripts/package.sh                  # what ships: the workspace's `desktop` profile (fat LTO, ~10 min a binary on 2 cores)
#   bash scripts/package.sh --profile dev    # the tests' quick package: the dev profile, the build scripts/desktop-e2e.sh already made
#   PACKAGE_PROFILE=dev bash scripts/package.sh
#   bash scripts/package.sh --stage-only     # only fill target/package (cdesk, completions, man pages, metainfo): the release workflow, before tauri-action
#   PACKAGE_UI_BUILT=1                       # ui/dist is current: not built again (the tests' next-version copy)
#   --target TRIPLE                          # another Rust target (the release workflow: universal-apple-darwin, cdesk made with lipo)
#   PACKAGE_EXTRA_CONFIG=FILE                # one more Tauri config merged last (the package benchmark's: http to its loopback update server)
#
# One package holds the app (/usr/bin/contentdesk, its .desktop entry, icons at every hicolor size, AppStream
# metainfo) and `cdesk` (/usr/bin/cdesk, bash/zsh/fish completions, man pages), all of the workspace's one
# version. `cdesk` rides as the bundler's `externalBin` (a sidecar: /usr/bin on Linux, next to the app on
# macOS and Windows), and the files made from the built `cdesk` are staged in target/package/ inside the
# clone; src-tauri/tauri.package.conf.json, merged with --config, points the bundler at them (they are not in
# tauri.conf.json because tauri-build checks an externalBin at every `cargo build`). AppImage is configured
# but not built here: its tools (linuxdeploy, appimagetool) download from GitHub, outside the registries.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/lib.sh

# The Tauri CLI, pinned: the bundler's behaviour (file names, control fields) is part of what is tested.
TAURI_CLI_VERSION=2.12.4

profile="${PACKAGE_PROFILE:-desktop}"
stage_only=0
target=""
while [ $# -gt 0 ]; do
  case "$1" in
    --profile) profile="$2"; shift 2 ;;
    --profile=*) profile="${1#--profile=}"; shift ;;
    --stage-only) stage_only=1; shift ;;
    --target) target="$2"; shift 2 ;;
    -h|--help) sed -n '2,18p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) echo "package.sh: unknown option $1 (see --help)" >&2; exit 2 ;;
  esac
done
case "$profile" in
  dev|debug) profile=dev; out_dir=debug; cargo_profile=(); tauri_profile=() ;;
  *) out_dir="$profile"; cargo_profile=(--profile "$profile"); tauri_profile=(-- --profile "$profile") ;;
esac

ensure_rust
# Only what the build needs (the release workflow's runner has them already and is not root).
if [ "$(uname -s)" = Linux ]; then apt_install "${DESKTOP_BUILD_PKGS[@]}"; fi
ensure_ui
if [ "${PACKAGE_UI_BUILT:-0}" = 1 ] && [ -f ui/dist/index.html ]; then
  echo "== the UI: ui/dist as it is (PACKAGE_UI_BUILT=1)" >&2
else
  echo "== building the UI" >&2
  (cd ui && npm run --silent build >/dev/null)
fi

# The one version (Cargo.toml's [workspace.package]; the app and cdesk take it with version.workspace).
version="$(sed -n '/^\[workspace.package\]/,/^\[/s/^version *= *"\(.*\)"/\1/p' Cargo.toml)"
triple="${target:-$(rustc -vV | sed -n 's/^host: //p')}"
exe=""; case "$triple" in *windows*) exe=".exe" ;; esac

# What the package installs beside the app, made from this very cdesk.
stage=target/package
rm -rf "$stage"; mkdir -p "$stage/bin" "$stage/completions" "$stage/man1"
cdesk="$stage/bin/cdesk-$triple$exe"
echo "== cdesk $version ($profile profile, $triple)" >&2
case "$target" in
  "")
    cargo build --quiet -p contentdesk-cli --bin cdesk "${cargo_profile[@]}"
    cp "$CARGO_TARGET_DIR/$out_dir/cdesk$exe" "$cdesk" ;;
  universal-apple-darwin) # one binary for both Mac architectures, as the app's universal bundle
    for t in aarch64-apple-darwin x86_64-apple-darwin; do
      cargo build --quiet -p contentdesk-cli --bin cdesk --target "$t" "${cargo_profile[@]}"
    done
    lipo -create -output "$cdesk" "$CARGO_TARGET_DIR"/{aarch64,x86_64}-apple-darwin/"$out_dir"/cdesk ;;
  *)
    cargo build --quiet -p contentdesk-cli --bin cdesk --target "$target" "${cargo_profile[@]}"
    cp "$CARGO_TARGET_DIR/$target/$out_dir/cdesk$exe" "$cdesk" ;;
esac
"$cdesk" completions bash > "$stage/completions/cdesk.bash"
"$cdesk" completions zsh > "$stage/completions/_cdesk"
"$cdesk" completions fish > "$stage/completions/cdesk.fish"
"$cdesk" __man "$stage/man1" >/dev/null
gzip -9n "$stage"/man1/*.1
sed -e "s/@VERSION@/$version/" -e "s/@DATE@/$(date -u +%F)/" \
  src-tauri/packaging/ai.contentdesk.app.metainfo.xml.in > "$stage/ai.contentdesk.app.metainfo.xml"
if [ "$stage_only" -eq 1 ]; then
  echo "staged in $stage" >&2
  exit 0
fi

ensure_tauri_cli "$TAURI_CLI_VERSION"

case "$(uname -s)" in
  Linux) bundles=deb,rpm ;;
  Darwin) bundles=app,dmg ;;
  *) bundles=nsis,msi ;;
esac
bundle_dir="$CARGO_TARGET_DIR/${target:+$target/}$out_dir/bundle"
rm -rf "$bundle_dir"
echo "== the app and its packages ($bundles, $profile profile)" >&2
# From src-tauri: the CLI takes the first tauri.conf.json it finds below the working folder, and
# tests/bench/empty-window has one too.
if [ "$profile" = dev ]; then
  # The very build the desktop journeys run (scripts/desktop-e2e.sh: same command, same features), then the
  # bundler alone: `tauri build` would set TAURI_CONFIG and so rebuild the app crate, twice per test run.
  cargo build --quiet -p contentdesk-desktop --bin contentdesk
  (cd src-tauri && cargo tauri bundle --ci --debug --bundles "$bundles" ${target:+--target "$target"} \
    --config tauri.package.conf.json ${PACKAGE_EXTRA_CONFIG:+--config "$PACKAGE_EXTRA_CONFIG"} >&2)
else
  (cd src-tauri && cargo tauri build --ci --bundles "$bundles" ${target:+--target "$target"} \
    --config tauri.package.conf.json ${PACKAGE_EXTRA_CONFIG:+--config "$PACKAGE_EXTRA_CONFIG"} "${tauri_profile[@]}" >&2)
fi

find "$bundle_dir" -maxdepth 2 -type f \( -name '*.deb' -o -name '*.rpm' -o -name '*.dmg' -o -name '*.exe' -o -name '*.msi' \) | sort
