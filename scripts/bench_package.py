#!/usr/bin/env python3
"""Package benchmark (issue 24; figures, not a test): Content Desk's .deb beside the empty window's, both
built with the workspace's `desktop` profile and packaged by the same Tauri bundler in the same run
(scripts/bench.sh, BENCH_ONLY=package).

  (a) the .deb's size on disk, and its Installed-Size (dpkg's figure: the unpacked files);
  (b) launch of the *installed* program to its first painted frame with data: wall time from spawning
      /usr/bin/contentdesk until its log says "first data render painted" (the board and balance are on
      screen; the log is polled every 5 ms), beside /usr/bin/empty-window until it prints `painted`.
      Warm: one launch first (the sandbox's seeding is not counted), then N timed launches each.

Run as root inside Xvfb and dbus-run-session with an unlocked gnome-keyring. It installs both packages with
apt-get and purges them at the end. Asserts nothing.

usage: bench_package.py --app-deb FILE --empty-deb FILE [--runs N]
"""
import argparse
import os
import select
import shutil
import statistics
import subprocess
import tempfile
import time


def field(deb, name):
    return subprocess.run(["dpkg-deb", "-f", deb, name], capture_output=True, text=True, check=True).stdout.strip()


def mib(n):
    return f"{n / 1048576:.1f} MiB"


def launch_app(home):
    """Seconds from spawn to the installed app's "first data render painted" in its log."""
    log = os.path.join(home, ".local/share/ai.contentdesk.app/logs/contentdesk.log")
    before = os.path.getsize(log) if os.path.exists(log) else 0
    env = dict(os.environ, HOME=home)
    for k in ("XDG_DATA_HOME", "XDG_CONFIG_HOME", "CONTENTDESK_DATA_DIR"):
        env.pop(k, None)
    t0 = time.perf_counter()
    p = subprocess.Popen(["/usr/bin/contentdesk"], env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        while time.perf_counter() - t0 < 60:
            if os.path.exists(log):
                with open(log, "rb") as f:
                    f.seek(before)
                    if b"first data render painted" in f.read():
                        return time.perf_counter() - t0
            if p.poll() is not None:
                raise RuntimeError("contentdesk exited before painting")
            time.sleep(0.005)
        raise RuntimeError("contentdesk did not paint in 60 s")
    finally:
        p.terminate()
        p.wait()


def launch_empty():
    """Seconds from spawn to the installed empty window's `painted` line."""
    t0 = time.perf_counter()
    p = subprocess.Popen(["/usr/bin/empty-window"], stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
    try:
        while time.perf_counter() - t0 < 60:
            r, _, _ = select.select([p.stdout], [], [], 1)
            if r:
                line = p.stdout.readline()
                if line.startswith(b"painted"):
                    return time.perf_counter() - t0
                if not line:
                    raise RuntimeError("empty-window exited before painting")
        raise RuntimeError("empty-window did not paint in 60 s")
    finally:
        p.terminate()
        p.wait()


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--app-deb", required=True)
    ap.add_argument("--empty-deb", required=True)
    ap.add_argument("--runs", type=int, default=5)
    a = ap.parse_args()

    print("(a) the .deb (desktop profile, same bundler)")
    rows = []
    for name, deb in (("Content Desk", a.app_deb), ("empty window", a.empty_deb)):
        size = os.path.getsize(deb)
        installed = int(field(deb, "Installed-Size")) * 1024
        rows.append((name, size, installed))
        print(f"  {name:<14} .deb {mib(size):>10}   installed {mib(installed):>10}")
    (_, app_size, app_inst), (_, empty_size, empty_inst) = rows
    print(f"  ratio          .deb {app_size / empty_size:.2f}x (goal: at most 2x and under 20 MiB)   installed {app_inst / empty_inst:.2f}x")

    env = dict(os.environ, DEBIAN_FRONTEND="noninteractive")
    subprocess.run(["apt-get", "install", "-y", "-qq", os.path.abspath(a.app_deb), os.path.abspath(a.empty_deb)],
                   env=env, check=True, stdout=subprocess.DEVNULL)
    home = tempfile.mkdtemp(prefix="contentdesk-bench-home-")
    try:
        print(f"(b) installed program, spawn to painted (warm; median and min of {a.runs})")
        launch_app(home)  # the first launch seeds the sandbox
        launch_empty()
        app = [launch_app(home) for _ in range(a.runs)]
        empty = [launch_empty() for _ in range(a.runs)]
        for name, xs in (("Content Desk", app), ("empty window", empty)):
            print(f"  {name:<14} median {statistics.median(xs) * 1000:7.0f} ms   min {min(xs) * 1000:7.0f} ms")
        print(f"  difference     median {(statistics.median(app) - statistics.median(empty)) * 1000:7.0f} ms (goal: at most +300 ms)")
    finally:
        shutil.rmtree(home, ignore_errors=True)
        subprocess.run(["apt-get", "purge", "-y", "-qq", "content-desk", "empty-window"], env=env,
                       stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)


if __name__ == "__main__":
    main()
