#!/usr/bin/env bash
# The packages as a person gets them (issue 24): scripts/package.sh with the dev profile (the build the
# desktop journeys already made), then
#   - what the .deb and the .rpm hold and declare (dpkg-deb, rpm): the app, cdesk, the desktop entry, the
#     icons at every hicolor size, the completions, the man pages, the metainfo, the dependencies, the
#     workspace's version; every library the two programs link comes from a declared dependency;
#   - the desktop entry and the metainfo pass their validators;
#   - `apt-get install ./…deb` (root, as CI), then the installed `cdesk --version`, `man cdesk`, the bash
#     completion, and the installed app under Xvfb painting the sandbox board (its log's "first data
#     render painted"; a screenshot in tests/artifacts/package/ to look at);
#   - the update journey (tests/package/update_journey.py, WebDriver on the installed app): the board with
#     the practice-space note; with the update server down the app runs normally; a manifest signed by
#     another key is refused with its note and nothing changes; the next version (a scratch copy with the
#     patch number one up, packaged the same way, signed with a key pair made here) is found on a loopback
#     server, installed by the app (dpkg, as root) and relaunched, and the About line shows it;
#   - `apt-get remove` and `--purge` leave the user's data folder; the purge says where it is.
# Both packages trust the run's throwaway key (CONTENTDESK_UPDATER_PUBKEY at build time); the app finds
# the loopback server through CONTENTDESK_UPDATE_URL at run time. The shipped config is not touched.
# Prints one line per check and ends with "N passed, M failed" (scripts/test.sh counts it).
set -uo pipefail
cd "$(dirname "$0")/../.." || exit 1
source scripts/lib.sh
ART="${PACKAGE_ARTIFACTS:-$PWD/tests/artifacts/package}"
rm -rf "$ART"; mkdir -p "$ART"
apt_install rpm man-db desktop-file-utils imagemagick xdotool
apt_install appstream 2>/dev/null || echo "(appstream not installable: the metainfo is not validated)"

passed=0; failed=0
check() { # NAME CMD...: one check
  local name="$1"; shift
  if "$@" >"$ART/check.log" 2>&1; then echo "ok   $name"; passed=$((passed + 1))
  else echo "FAIL $name"; sed 's/^/     /' "$ART/check.log" | tail -20; failed=$((failed + 1)); fi
}
finish() { echo "$passed passed, $failed failed"; [ "$failed" -eq 0 ]; exit $?; }

version="$(sed -n '/^\[workspace.package\]/,/^\[/s/^version *= *"\(.*\)"/\1/p' Cargo.toml)"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
# The update journey's throwaway minisign key pairs (nothing secret is committed): the packages this run
# builds trust test.key.pub (CONTENTDESK_UPDATER_PUBKEY, read by crates/core/build.rs), the next version
# is signed with test.key, and other.key plays a forger. The shipped config and updater.pub are untouched.
ensure_tauri_cli "$(sed -n 's/^TAURI_CLI_VERSION=//p' scripts/package.sh)"
ensure_tauri_driver
mkdir -p "$work/keys"
for k in test other; do cargo tauri signer generate --ci -p "" -w "$work/keys/$k.key" >/dev/null 2>&1; done
export CONTENTDESK_UPDATER_PUBKEY="$work/keys/test.key.pub"

echo "== packaging (dev profile), version $version"
bash scripts/package.sh --profile dev > "$ART/package.out" 2> "$ART/package.err"
rc=$?
deb="$(grep '\.deb$' "$ART/package.out" | tail -1)"
rpm="$(grep '\.rpm$' "$ART/package.out" | tail -1)"
check "scripts/package.sh builds a .deb and an .rpm and prints their paths last" \
  bash -c '[ "$0" -eq 0 ] && [ -f "$1" ] && [ -f "$2" ] && [ "$(tail -2 "$3" | sort)" = "$(printf "%s\n%s" "$1" "$2" | sort)" ]' "$rc" "$deb" "$rpm" "$ART/package.out"
if [ ! -f "$deb" ] || [ ! -f "$rpm" ]; then tail -30 "$ART/package.err"; finish; fi
# Out of the bundle folder, which the next version's build empties.
mkdir -p "$work/current"; cp "$deb" "$rpm" "$work/current/"
deb="$work/current/$(basename "$deb")"; rpm="$work/current/$(basename "$rpm")"

# What both packages must hold (paths without the leading /).
hicolor=(16x16 22x22 24x24 32x32 48x48 64x64 96x96 128x128 256x256 512x512)
want=(usr/bin/contentdesk usr/bin/cdesk "usr/share/applications/Content Desk.desktop"
  usr/share/metainfo/ai.contentdesk.app.metainfo.xml
  usr/share/bash-completion/completions/cdesk usr/share/fish/vendor_completions.d/cdesk.fish
  usr/share/man/man1/cdesk.1.gz usr/share/man/man1/cdesk-card.1.gz usr/share/man/man1/cdesk-mcp.1.gz)
for s in "${hicolor[@]}"; do want+=("usr/share/icons/hicolor/$s/apps/contentdesk.png"); done
# dpkg-deb -c: mode, owner, size, date, time, then the path (which may hold spaces; "./" before it or not).
dpkg-deb -c "$deb" | sed -E 's|^([^ ]+ +){5}(\./)?||' > "$ART/deb.files"
rpm -qlp "$rpm" 2>/dev/null | sed 's|^/||' > "$ART/rpm.files"
holds() { # LIST PATH...: every PATH is in LIST
  local list="$1" miss=0; shift
  for p in "$@"; do grep -qxF "$p" "$list" || { echo "missing: $p"; miss=1; }; done
  return $miss
}
check ".deb holds the app, cdesk, desktop entry, icons, metainfo, completions, man pages" \
  holds "$ART/deb.files" "${want[@]}" usr/share/zsh/vendor-completions/_cdesk
check ".rpm holds the app, cdesk, desktop entry, icons, metainfo, completions, man pages" \
  holds "$ART/rpm.files" "${want[@]}" usr/share/zsh/site-functions/_cdesk

dpkg-deb -I "$deb" > "$ART/deb.control"
field() { dpkg-deb -f "$deb" "$1"; }
check ".deb version is the workspace's ($version)" test "$(field Version)" = "$version"
check ".deb depends on webkit2gtk 4.1, GTK 3, libdbus; recommends the Secret Service" bash -c '
  d="$(dpkg-deb -f "$0" Depends)"; r="$(dpkg-deb -f "$0" Recommends)"; echo "Depends: $d"; echo "Recommends: $r"
  for p in libwebkit2gtk-4.1-0 libgtk-3-0 libdbus-1-3; do [[ "$d" == *"$p"* ]] || exit 1; done
  [[ "$r" == *gnome-keyring* ]]' "$deb"
check ".deb removal script keeps the data and says where it is on purge" bash -c '
  dir="$(mktemp -d)"; dpkg-deb -e "$0" "$dir"; grep -q "ai.contentdesk.app" "$dir/postrm" && ! grep -E "rm +-|rmdir|secret-tool clear" "$dir/postrm"; s=$?; rm -rf "$dir"; exit $s' "$deb"
rpm -qp --requires "$rpm" > "$ART/rpm.requires" 2>/dev/null
check ".rpm version is the workspace's; requires webkit2gtk 4.1, GTK 3, dbus-libs" bash -c '
  [ "$(rpm -qp --qf "%{VERSION}" "$0" 2>/dev/null)" = "$1" ] || exit 1
  for p in libwebkit2gtk-4.1.so.0 libgtk-3.so.0 dbus-libs; do grep -q "^$p" "$2" || { echo "no $p"; exit 1; }; done' "$rpm" "$version" "$ART/rpm.requires"

# Every library the two programs load directly comes from a declared dependency or what it brings.
ex="$(mktemp -d)"; dpkg-deb -x "$deb" "$ex"
libs_declared() {
  local deps closure missing=0
  deps="$(dpkg-deb -f "$deb" Depends | tr ',' '\n' | sed 's/(.*)//; s/|.*//; s/ //g' | grep -v '^$')"
  closure="$(apt-cache depends --recurse --no-recommends --no-suggests --no-conflicts --no-breaks --no-replaces --no-enhances $deps 2>/dev/null \
    | grep -v '^ ' | sed 's/:.*//' | sort -u)"
  for bin in "$ex/usr/bin/contentdesk" "$ex/usr/bin/cdesk"; do
    for so in $(readelf -d "$bin" | sed -n 's/.*(NEEDED).*\[\(.*\)\]/\1/p'); do
      path="$(ldconfig -p | awk -v s="$so" '$1 == s && /x86-64|x86_64|AArch64/ { print $NF; exit }')"
      # Debian 12 merges /lib into /usr/lib: dpkg knows each file under the one path its package ships.
      pkg="$( { dpkg -S "$path" || dpkg -S "${path#/usr}" || dpkg -S "/usr$path"; } 2>/dev/null | head -1 | cut -d: -f1)"
      [ -n "$pkg" ] || { echo "$(basename "$bin"): $so ($path) belongs to no Debian package"; missing=1; continue; }
      case "$pkg" in libc6|libgcc-s1) continue ;; esac # essential: on every system
      if ! grep -qxF "$pkg" <<<"$closure"; then echo "$(basename "$bin"): $so ($pkg) is not brought by Depends"; missing=1; fi
    done
  done
  return $missing
}
check "every library contentdesk and cdesk link is brought by the .deb's Depends" libs_declared
check "the desktop entry is valid (desktop-file-validate)" desktop-file-validate "$ex/usr/share/applications/Content Desk.desktop"
if command -v appstreamcli >/dev/null; then
  check "the AppStream metainfo is valid (appstreamcli validate)" appstreamcli validate --no-net --pedantic "$ex/usr/share/metainfo/ai.contentdesk.app.metainfo.xml"
fi
rm -rf "$ex"

echo "== install, run, remove"
# Nothing of an earlier run in the way.
dpkg -s content-desk >/dev/null 2>&1 && apt-get purge -y -qq content-desk >/dev/null 2>&1
check "apt-get install ./…deb installs it with its dependencies" bash -c 'DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "$0" >/dev/null' "$deb"
check "the installed cdesk --version prints the workspace's version" test "$(/usr/bin/cdesk --version)" = "cdesk $version"
check "man cdesk and man cdesk-card work (man-db)" bash -c 'man -P cat cdesk 2>/dev/null | grep -q "cdesk" && man -P cat cdesk-card 2>/dev/null | grep -qi "card" && man -w cdesk | grep -q /usr/share/man/man1/cdesk.1.gz'
check "bash completes cdesk from the system folder" bash -c 'source /usr/share/bash-completion/completions/cdesk && complete -p cdesk'

# The installed app, as a person starts it: its own HOME (so the data folder is the real default,
# ~/.local/share/ai.contentdesk.app), a D-Bus session with an unlocked keyring, a virtual display.
home="$(mktemp -d)"
data="$home/.local/share/ai.contentdesk.app"
run_app() {
  env -u XDG_DATA_HOME -u XDG_CONFIG_HOME -u CONTENTDESK_DATA_DIR HOME="$home" dbus-run-session -- bash -c '
    echo -n contentdesk-test | gnome-keyring-daemon --unlock --components=secrets >/dev/null 2>&1
    /usr/bin/contentdesk > "$1/app.out" 2> "$1/app.err" &
    app=$!
    for _ in $(seq 1 600); do grep -q "first data render painted" "$2/logs/contentdesk.log" 2>/dev/null && break; kill -0 $app 2>/dev/null || break; sleep 0.2; done
    sleep 1 # the paint after the first data render
    import -window root "$1/installed-app.png"
    grep -q "first data render painted" "$2/logs/contentdesk.log"; s=$?
    kill $app 2>/dev/null; wait $app 2>/dev/null
    exit $s' _ "$ART" "$data"
}
export home data ART
# xvfb-run is a /bin/sh script, and dash drops exported bash functions: the function goes in as text.
check "the installed app starts under Xvfb and paints the sandbox board" \
  xvfb-run -a -s "-screen 0 1366x900x24" bash -c "$(declare -f run_app); run_app"
check "the screenshot is not blank" bash -c '[ "$(convert "$0" -format %k info:)" -gt 200 ]' "$ART/installed-app.png"
cp "$data/logs/contentdesk.log" "$ART/app.log" 2>/dev/null

echo "== the update journey (the installed app, a loopback update server, the next version)"
# The next version: the same sources with [workspace.package] version's patch number one up, in a scratch
# copy (the tree is never edited), built the same way (dev profile, same target folder: only the
# workspace's own crates compile again, their version being part of their hash) and trusting the same key.
next="$(awk -F. '{ printf "%d.%d.%d", $1, $2, $3 + 1 }' <<<"$version")"
mkdir -p "$work/next"
git ls-files -z --cached --others --exclude-standard | tar --null -T - --ignore-failed-read -cf - 2>/dev/null | tar -xf - -C "$work/next"
ln -s "$PWD/ui/node_modules" "$work/next/ui/node_modules"
cp -a ui/dist "$work/next/ui/dist"
sed -i '/^\[workspace.package\]/,/^\[/s/^version *= *".*"/version = "'"$next"'"/' "$work/next/Cargo.toml"
PACKAGE_UI_BUILT=1 bash "$work/next/scripts/package.sh" --profile dev > "$ART/next-package.out" 2> "$ART/next-package.err"
next_deb="$(grep '\.deb$' "$ART/next-package.out" | tail -1)"
check "the next version ($next) packages from a scratch copy" bash -c '[ -f "$0" ] && [ "$(dpkg-deb -f "$0" Version)" = "$1" ]' "$next_deb" "$next"
if [ -f "$next_deb" ]; then
  mkdir -p "$work/serve"; cp "$next_deb" "$work/serve/"; next_deb="$work/serve/$(basename "$next_deb")"
  # Signed as the release workflow's bundler signs: the version in the trusted comment (requireSignedVersion).
  for k in test other; do
    cargo tauri signer sign -f "$work/keys/$k.key" -p "" --app-version "$next" "$next_deb" >/dev/null 2>&1
    mv "$next_deb.sig" "$work/keys/next.$k.sig"
  done
  with_keyring xvfb-run -a -s "-screen 0 1366x900x24" \
    python3 tests/package/update_journey.py --art "$ART" --current "$version" --next "$next" \
      --next-deb "$next_deb" --sig "$work/keys/next.test.sig" --other-sig "$work/keys/next.other.sig" \
    > "$ART/update.out" 2> "$ART/update.err" < /dev/null
  grep -E '^(ok  |FAIL|     )' "$ART/update.out"
  passed=$((passed + $(grep -c '^ok  ' "$ART/update.out")))
  failed=$((failed + $(grep -c '^FAIL' "$ART/update.out")))
  grep -qE '^[0-9]+ passed, 0 failed$' "$ART/update.out" || { [ "$(grep -c '^FAIL' "$ART/update.out")" -gt 0 ] || { echo "FAIL the update journey ran to its end"; tail -20 "$ART/update.err" | sed 's/^/     /'; failed=$((failed + 1)); }; }
else
  tail -30 "$ART/next-package.err"
fi
unset CONTENTDESK_UPDATER_PUBKEY

check "apt-get remove leaves the data folder" bash -c 'DEBIAN_FRONTEND=noninteractive apt-get remove -y content-desk > "$1/remove.out" 2>&1 && [ ! -e /usr/bin/contentdesk ] && [ ! -e /usr/bin/cdesk ] && [ -f "$0/sandbox.db" ]' "$data" "$ART"
# dpkg purges a package without conffiles at its removal already: the note shows at one or the other.
check "the purge says where the data is, and leaves it" bash -c 'DEBIAN_FRONTEND=noninteractive apt-get purge -y content-desk > "$1/purge.out" 2>&1; cat "$1/remove.out" "$1/purge.out" | grep -q "~/.local/share/ai.contentdesk.app" && [ -f "$0/sandbox.db" ] && ! dpkg -s content-desk >/dev/null 2>&1' "$data" "$ART"
rm -rf "$home"
finish
