#!/usr/bin/env python3
"""The installed app updating itself (issue 24, point 4), end to end, as root like CI.

Run by tests/package/run.sh inside Xvfb and a private D-Bus session with an unlocked keyring, after
`apt-get install ./<current>.deb`. The installed /usr/bin/contentdesk (built trusting the throwaway key
the run made) is driven over WebDriver (tauri-driver + Debian's WebKitWebDriver, as the desktop
journeys), each launch with its own HOME and CONTENTDESK_UPDATE_URL pointing at a loopback server this
script runs, which serves `latest.json` and the next version's .deb:

  1. server down: the app paints the sandbox board with the practice-space note; Settings -> "Check for
     updates" says the server cannot be reached; the About line is the installed version;
  2. a manifest signed by another key: refused with its note, no "install" offered, the package never
     fetched, the installed version and binary unchanged;
  3. the manifest signed by the test key: the check at start shows the banner, Settings -> "Check for
     updates" names the next version, "Download, install and relaunch" downloads it, dpkg installs it,
     the app exits and a new process of the new /usr/bin/contentdesk starts (its log says its version) and
     paints its board; a fresh launch's About line shows the new version and the check says up to date.

Prints "ok   NAME" / "FAIL NAME" lines (run.sh counts them). No timings are asserted: the waits are
deadlines for something that must happen, not measurements.
"""
import argparse
import hashlib
import http.server
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import threading
import time
import urllib.parse


sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from webdriver import Driver, free_port  # noqa: E402

APP = "/usr/bin/contentdesk"
PRACTICE = "Practice space: nothing here is posted and credits are not real"

ap = argparse.ArgumentParser()
ap.add_argument("--art", required=True)
ap.add_argument("--current", required=True)
ap.add_argument("--next", required=True, dest="next_version")
ap.add_argument("--next-deb", required=True)
ap.add_argument("--sig", required=True, help="the next .deb's signature by the test key (.sig file)")
ap.add_argument("--other-sig", required=True, help="the next .deb's signature by another key")
args = ap.parse_args()

passed = failed = 0


def check(name, ok, detail=""):
    global passed, failed
    if ok:
        passed += 1
        print(f"ok   {name}", flush=True)
    else:
        failed += 1
        print(f"FAIL {name}", flush=True)
        for line in str(detail).splitlines()[-20:]:
            print(f"     {line}", flush=True)


# --- the loopback update server -------------------------------------------------------------------
deb_bytes = open(args.next_deb, "rb").read()
deb_name = os.path.basename(args.next_deb)
served = {"manifest": None}
requests_seen = []


class Handler(http.server.BaseHTTPRequestHandler):
    def do_GET(self):
        requests_seen.append(self.path)
        if self.path == "/latest.json" and served["manifest"] is not None:
            body = json.dumps(served["manifest"]).encode()
            kind = "application/json"
        elif urllib.parse.unquote(self.path) == "/" + deb_name:
            body, kind = deb_bytes, "application/vnd.debian.binary-package"
        else:
            self.send_error(404)
            return
        self.send_response(200)
        self.send_header("Content-Type", kind)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, *a):
        pass


server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
threading.Thread(target=server.serve_forever, daemon=True).start()
base = f"http://127.0.0.1:{server.server_address[1]}"


def manifest(sig_file):
    return {
        "version": args.next_version,
        "notes": f"Content Desk {args.next_version}: the test's next version.",
        "pub_date": "2026-11-27T00:00:00Z",
        "platforms": {
            "linux-x86_64-deb": {
                "signature": open(sig_file).read().strip(),
                "url": f"{base}/{urllib.parse.quote(deb_name)}",
            }
        },
    }


# --- the installed app ----------------------------------------------------------------------------
def launch_env(url):
    home = tempfile.mkdtemp(prefix="contentdesk-update-home-")
    env = {k: v for k, v in os.environ.items() if k not in ("XDG_DATA_HOME", "XDG_CONFIG_HOME", "CONTENTDESK_DATA_DIR")}
    env.update(HOME=home, CONTENTDESK_UPDATE_URL=url)
    return env, home


def log_of(home):
    try:
        return open(os.path.join(home, ".local/share/ai.contentdesk.app/logs/contentdesk.log"), errors="replace").read()
    except OSError:
        return ""


def installed_version():
    return subprocess.run(["dpkg-query", "-W", "-f=${Version}", "content-desk"], capture_output=True, text=True).stdout.strip()


def app_sha():
    return hashlib.sha256(open(APP, "rb").read()).hexdigest()


def app_pids(home):
    """The running processes of /usr/bin/contentdesk whose HOME is this launch's (exe may read "(deleted)")."""
    pids = {}
    for d in os.listdir("/proc"):
        if not d.isdigit():
            continue
        try:
            exe = os.readlink(f"/proc/{d}/exe")
            env = open(f"/proc/{d}/environ", "rb").read().split(b"\0")
        except OSError:
            continue
        if exe.startswith(APP) and f"HOME={home}".encode() in env:
            pids[int(d)] = exe
    return pids


def end_apps(home):
    """Ends, by PID, what is left of this launch's app (a relaunch is not under the driver), and waits until
    it is gone: the next launch would otherwise find it holding the single-instance name and hand over."""
    for p in app_pids(home):
        try:
            os.kill(p, 15)
        except ProcessLookupError:
            pass
    deadline = time.time() + 30
    while app_pids(home) and time.time() < deadline:
        time.sleep(0.2)


def board_and_note(s):
    s.wait("section.column[data-stage-id] [data-card-id]", secs=180)  # the first launch seeds the sandbox
    return s.text(s.wait("[data-testid=practice-note]", "Practice space"))


def open_settings(s):
    s.click(s.wait("a[href='#/settings']"))
    return s.text(s.wait("p.about", "Content Desk"))


def check_for_updates(s, state):
    s.click(s.wait("[data-testid=update-check]", "Check for updates"))
    return s.wait("[data-testid=update-status]", state, attr="data-state")


def step(name, fn):
    """Runs one scenario; an exception is a failed check with what was seen."""
    try:
        fn()
    except Exception as e:  # noqa: BLE001 -- any failure of the scenario is its check failing
        check(name, False, f"{type(e).__name__}: {e}")


homes = []


# 1. The update server down.
def server_down():
    env, home = launch_env(f"http://127.0.0.1:{free_port()}/latest.json")
    homes.append(home)
    drv = Driver(env, APP, args.art)
    try:
        s = drv.session()
        note = board_and_note(s)
        s.screenshot(os.path.join(args.art, "installed-board-practice-note.png"))
        check("the installed app paints the sandbox board with the practice-space note", PRACTICE in " ".join(note.split()), note)
        about = open_settings(s)
        status = check_for_updates(s, "failed")
        msg = s.text(s.find_all("[data-testid=update-note]")[0])
        check("update server down: Check for updates says it cannot be reached", "Could not reach the update server" in msg and "Nothing was changed" in msg, msg)
        check(f"update server down: the app runs normally, About says {args.current}",
              f"Content Desk {args.current} " in about and len(app_pids(home)) == 1 and installed_version() == args.current, about)
        s.execute("document.querySelector('[data-testid=update-status]').scrollIntoView({block: 'center'})")
        s.screenshot(os.path.join(args.art, "update-server-down.png"))
        s.close()
    finally:
        drv.stop()
        end_apps(home)


# 2. A manifest signed by another key.
def other_key():
    served["manifest"] = manifest(args.other_sig)
    requests_seen.clear()
    before = (installed_version(), app_sha())
    env, home = launch_env(f"{base}/latest.json")
    homes.append(home)
    drv = Driver(env, APP, args.art)
    try:
        s = drv.session()
        board_and_note(s)
        about = open_settings(s)
        check_for_updates(s, "failed")
        msg = s.text(s.find_all("[data-testid=update-note]")[0])
        s.execute("document.querySelector('[data-testid=update-status]').scrollIntoView({block: 'center'})")
        s.screenshot(os.path.join(args.art, "update-other-key.png"))
        offered = s.find_all("[data-testid=update-install]")
        check("a manifest signed by another key is refused with a clear note",
              f"The update to {args.next_version} is not signed with Content Desk's key, so it was refused. Nothing was changed." in msg and not offered, msg)
        fetched = [p for p in requests_seen if p != "/latest.json"]
        after = (installed_version(), app_sha())
        check(f"…and nothing changed: the package never fetched, {args.current} still installed, the binary the same, About {args.current}",
              not fetched and before == after and after[0] == args.current and f"Content Desk {args.current} " in about,
              f"fetched={fetched} before={before} after={after} about={about!r}")
        s.close()
    finally:
        drv.stop()
        end_apps(home)


# 3. The next version, signed by the test key: found, installed, relaunched.
def update():
    served["manifest"] = manifest(args.sig)
    requests_seen.clear()
    env, home = launch_env(f"{base}/latest.json")
    homes.append(home)
    drv = Driver(env, APP, args.art)
    try:
        s = drv.session()
        board_and_note(s)
        # Its text as the page holds it (WebKit's visible text leaves out the span that ellipsis may clip).
        banner = s.prop(s.wait("[data-testid=update-banner]", f"Content Desk {args.next_version} is available", prop="textContent"), "textContent")
        check("the check at start finds the next version on the loopback server (banner)", args.next_version in banner, banner)
        open_settings(s)
        check_for_updates(s, "available")
        shown = s.text(s.find_all("[data-testid=update-status]")[0])
        check("Settings -> Check for updates names the next version and its notes",
              args.next_version in shown and "the test's next version" in shown, shown)
        old = app_pids(home)
        s.click(s.wait("[data-testid=update-install]", "Download, install and relaunch"))
        # The old process exits after dpkg installed the next version; a new one of the new binary starts.
        deadline = time.time() + 180
        relaunched = {}
        while time.time() < deadline:
            now = app_pids(home)
            relaunched = {p: exe for p, exe in now.items() if p not in old}
            if relaunched and not (set(now) & set(old)) and re.search(
                    rf'core started version="?{re.escape(args.next_version)}"?', log_of(home)):
                break
            time.sleep(0.3)
        log = log_of(home)
        if not relaunched:  # what the window said, if it is still there
            try:
                log += "\nthe window says: " + s.text(s.find_all("[data-testid=update-status]")[0])
            except Exception as e:  # noqa: BLE001
                log += f"\n(the window cannot be read: {e})"
        new_starts = re.findall(r'core started version="?([0-9][^" ]*)"? pid=(\d+)', log)
        check(f"Download, install and relaunch: dpkg installed {args.next_version}", installed_version() == args.next_version,
              f"installed: {installed_version()}; requests: {requests_seen}")
        ok = (bool(relaunched) and all(exe == APP for exe in relaunched.values()) and not (set(app_pids(home)) & set(old))
              and any(v == args.next_version and int(p) in relaunched for v, p in new_starts))
        check(f"…the old process exited and a new process of the new {APP} runs, its log saying {args.next_version}", ok,
              f"old={old} relaunched={relaunched} starts={new_starts}\n" + "\n".join(log.splitlines()[-15:]))
        # The relaunched window paints its board (a second "first data render painted" in the same log).
        deadline = time.time() + 90
        while time.time() < deadline and log_of(home).count("first data render painted") < 2:
            time.sleep(0.3)
        check("…and the relaunched app paints its board", log_of(home).count("first data render painted") >= 2,
              "\n".join(log_of(home).splitlines()[-10:]))
        shot = os.path.join(args.art, "update-relaunched.png")
        subprocess.run(["import", "-window", "root", shot], capture_output=True)
        s.close()  # the session's app is gone; the driver forgets it
        end_apps(home)  # the relaunched app is not under the driver: ended by its PID
        # A fresh launch of what is installed now, under a fresh driver: the WebKitWebDriver whose app
        # replaced itself may drop the next session unanswered (CI, stop 32: "Remote end closed
        # connection without response"), so that driver is ended with the app it lost.
        drv.stop()
        drv = Driver(env, APP, args.art)
        s = drv.session()
        board_and_note(s)
        about = open_settings(s)
        status = check_for_updates(s, "upToDate")
        s.execute("document.querySelector('p.about').scrollIntoView({block: 'center'})")
        s.screenshot(os.path.join(args.art, "update-about-new-version.png"))
        check(f"after the update, the About line shows {args.next_version} and the check says up to date",
              f"Content Desk {args.next_version} " in about and status is not None, about)
        s.close()
    finally:
        drv.stop()
        end_apps(home)


step("update server down", server_down)
step("a manifest signed by another key", other_key)
step("the update installs and relaunches", update)
server.shutdown()
for i, h in enumerate(homes):
    if log_of(h):  # each launch's log, for the leak check and a reader
        open(os.path.join(args.art, f"update-{i + 1}.log"), "w").write(log_of(h))
    shutil.rmtree(h, ignore_errors=True)
print(f"{passed} passed, {failed} failed")
sys.exit(1 if failed else 0)
