#!/usr/bin/env python3
"""Desktop benchmark: launch time and idle memory, Content Desk beside its peers, in one run.

Run by scripts/bench.sh inside Xvfb and dbus-run-session (with an unlocked gnome-keyring), after the
release builds. Prints figures; it asserts nothing.

  (a) launch: wall time from spawning the release binary to its `painted <ms>` line on stdout. Content
      Desk prints it when the app frame has painted with data (the balance and the demo space); the empty
      window when its page has painted. Median and min of N launches each, warm (the data folder is made
      by one launch before the timed ones, so the sandbox's first seeding is not counted; it is printed
      apart as "first launch").
  (b) idle memory: 3 s after `painted`, PSS summed over the process and all its descendants (the app,
      WebKitWebProcess, WebKitNetworkProcess), from /proc/<pid>/smaps_rollup. The browser peer is the same
      UI served by web-shell in Debian's headless Chromium: PSS of Chromium's processes summed (web-shell
      printed apart: it holds the core and the sandbox, which Content Desk holds in its own process).

usage: bench_desktop.py --app BIN --empty BIN --web-shell BIN --ui-dist DIR [--runs N]
"""
import argparse
import json
import os
import re
import select
import shutil
import signal
import statistics
import subprocess
import sys
import tempfile
import time


def descendants(pid):
    """pid and every descendant, from /proc (children lists of every task)."""
    out, todo = [], [pid]
    while todo:
        p = todo.pop()
        out.append(p)
        try:
            for task in os.listdir(f"/proc/{p}/task"):
                with open(f"/proc/{p}/task/{task}/children") as fh:
                    todo += [int(c) for c in fh.read().split()]
        except OSError:
            pass
    return out


def pss_kib(pid):
    try:
        with open(f"/proc/{pid}/smaps_rollup") as fh:
            for line in fh:
                if line.startswith("Pss:"):
                    return int(line.split()[1])
    except OSError:
        pass
    return 0


def comm(pid):
    try:
        with open(f"/proc/{pid}/comm") as fh:
            return fh.read().strip()
    except OSError:
        return "?"


def pss_by_mapping(pid):
    """PSS (KiB) of one process by kind of mapping, from /proc/<pid>/smaps: each shared library, the
    executable, the C heap ([heap]), anonymous mappings (JavaScriptCore's heap, the GL buffers of the
    software renderer and thread stacks live there; `anon >= 7 MiB` are the large reservations), other files."""
    out, cur = {}, None
    exe = os.path.realpath(f"/proc/{pid}/exe") if os.path.exists(f"/proc/{pid}/exe") else ""
    try:
        with open(f"/proc/{pid}/smaps") as fh:
            for line in fh:
                if re.match(r"^[0-9a-f]+-[0-9a-f]+ ", line):
                    parts = line.split()
                    name = parts[5] if len(parts) > 5 else ""
                    lo, hi = (int(x, 16) for x in parts[0].split("-"))
                    if name == exe:
                        cur = "executable"
                    elif name.endswith(".so") or ".so." in name:
                        cur = os.path.basename(name)
                    elif name == "":
                        cur = "anon >= 7 MiB" if hi - lo >= 7 << 20 else "anon"
                    else:
                        cur = name if not name.startswith("/") else "file " + os.path.basename(name)
                elif line.startswith("Pss:") and cur:
                    out[cur] = out.get(cur, 0) + int(line.split()[1])
    except OSError:
        pass
    return out


def tree_pss(pid):
    pids = descendants(pid)
    per = {}
    for p in pids:
        per[comm(p)] = per.get(comm(p), 0) + pss_kib(p)
    return sum(per.values()), per


def stop(proc):
    if proc.poll() is None:
        try:
            os.killpg(proc.pid, signal.SIGTERM)
        except OSError:
            proc.terminate()
        try:
            proc.wait(5)
        except subprocess.TimeoutExpired:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait()


def launch(binary, data_dir, timeout=60, extra_env=None):
    """Spawns binary, returns (process, ms to the painted line)."""
    env = dict(os.environ, CONTENTDESK_DATA_DIR=data_dir, RUST_LOG="warn", **(extra_env or {}))
    t0 = time.perf_counter()
    proc = subprocess.Popen([binary], stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, env=env,
                            start_new_session=True, text=True)
    deadline = t0 + timeout
    while time.perf_counter() < deadline:
        # Never blocks past the deadline: a build without the `bench` feature prints nothing at all.
        ready, _, _ = select.select([proc.stdout], [], [], max(0.0, deadline - time.perf_counter()))
        if not ready:
            break
        line = proc.stdout.readline()
        if not line:
            break
        if line.startswith("painted"):
            return proc, (time.perf_counter() - t0) * 1000
    stop(proc)
    raise SystemExit(f"{binary} did not print 'painted' within {timeout} s (exit {proc.poll()}); "
                     "was it built with the `bench` feature (cargo build --release -p contentdesk-desktop --features bench)?")


def measure_window(name, binary, runs, extra_env=None):
    data = tempfile.mkdtemp(prefix=f"bench-{name}-")
    try:
        proc, first = launch(binary, data, extra_env=extra_env)
        stop(proc)
        times, mems, per_last, maps_last = [], [], {}, {}
        for _ in range(runs):
            proc, ms = launch(binary, data, extra_env=extra_env)
            times.append(ms)
            time.sleep(3)
            total, per_last = tree_pss(proc.pid)
            maps_last = {("app process" if p == proc.pid else comm(p)): pss_by_mapping(p) for p in descendants(proc.pid)}
            mems.append(total)
            stop(proc)
        return {"first": first, "times": times, "mem": statistics.median(mems), "per": per_last, "maps": maps_last}
    finally:
        shutil.rmtree(data, ignore_errors=True)


def measure_chromium(web_shell, ui_dist):
    data = tempfile.mkdtemp(prefix="bench-web-")
    profile = tempfile.mkdtemp(prefix="bench-chromium-")
    shell = subprocess.Popen([web_shell, "--data-dir", data, "--ui-dist", ui_dist, "--memory-secrets", "--ready-json"],
                             stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True, start_new_session=True)
    browser = None
    try:
        url = None
        for _ in range(600):
            line = shell.stdout.readline()
            if '"ready":true' in line:
                url = json.loads(line)["url"]
                break
        if not url:
            raise SystemExit("web-shell did not print its URL")
        browser = subprocess.Popen(
            ["/usr/bin/chromium", "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
             "--disable-background-networking", "--disable-component-update", "--disable-sync",
             f"--user-data-dir={profile}", "--window-size=1280,800", "--remote-debugging-port=0", url],
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True)
        time.sleep(8)  # load, first data render, then idle
        total, per = tree_pss(browser.pid)
        shell_kib, _ = tree_pss(shell.pid)
        return {"mem": total, "per": per, "shell": shell_kib}
    finally:
        if browser:
            stop(browser)
        stop(shell)
        shutil.rmtree(data, ignore_errors=True)
        shutil.rmtree(profile, ignore_errors=True)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--app", required=True)
    ap.add_argument("--empty", required=True)
    ap.add_argument("--web-shell", required=True)
    ap.add_argument("--ui-dist", required=True)
    ap.add_argument("--runs", type=int, default=5)
    a = ap.parse_args()

    empty = measure_window("empty", a.empty, a.runs)
    app = measure_window("app", a.app, a.runs)
    # Without a GPU render node the app turns WebKit's compositing off (src-tauri/src/memory.rs), which
    # shrinks any page: the empty window in that same mode is the peer mode for mode.
    no_gpu = not any(n.startswith("renderD") for n in (os.listdir("/dev/dri") if os.path.isdir("/dev/dri") else []))
    same_mode = measure_window("empty-nocomp", a.empty, a.runs, {"WEBKIT_DISABLE_COMPOSITING_MODE": "1"}) if no_gpu else None
    chrome = measure_chromium(a.web_shell, a.ui_dist)

    mib = lambda kib: kib / 1024
    print("\n== desktop: launch to painted (warm, %d runs each) and idle PSS" % a.runs)
    for name, r in (("empty Tauri window", empty), ("Content Desk", app)):
        print(f"{name:22s} launch median {statistics.median(r['times']):7.0f} ms  min {min(r['times']):7.0f} ms  "
              f"(first launch {r['first']:.0f} ms)   idle PSS {mib(r['mem']):6.1f} MiB")
        print("    " + ", ".join(f"{k} {mib(v):.1f}" for k, v in sorted(r["per"].items(), key=lambda kv: -kv[1])))
    # Where the difference lies: per process, the mappings that differ most between the two windows.
    print("    where Content Desk's window holds more than the empty one (last run, MiB, by process and mapping):")
    for proc_name in sorted(set(app["maps"]) | set(empty["maps"])):
        a, e = app["maps"].get(proc_name, {}), empty["maps"].get(proc_name, {})
        diff = {k: a.get(k, 0) - e.get(k, 0) for k in set(a) | set(e)}
        top = sorted(diff.items(), key=lambda kv: -abs(kv[1]))[:8]
        print(f"      {proc_name:16s} {mib(sum(diff.values())):+6.1f}: " + ", ".join(f"{k} {mib(v):+.1f}" for k, v in top))
    print(f"{'headless Chromium':22s} idle PSS {mib(chrome['mem']):6.1f} MiB (web-shell with core + sandbox: "
          f"{mib(chrome['shell']):.1f} MiB more)")
    print("    " + ", ".join(f"{k} {mib(v):.1f}" for k, v in sorted(chrome["per"].items(), key=lambda kv: -kv[1])))
    dl = statistics.median(app["times"]) - statistics.median(empty["times"])
    dm = mib(app["mem"] - empty["mem"])
    ratio = app["mem"] / chrome["mem"] if chrome["mem"] else float("nan")
    print(f"Content Desk - empty window: launch {dl:+.0f} ms (goal <= +300), memory {dm:+.1f} MiB (goal <= +40)")
    if same_mode:
        print(f"no GPU here, so Content Desk paints without compositing; the empty window in that mode: idle PSS "
              f"{mib(same_mode['mem']):.1f} MiB, Content Desk over it {mib(app['mem'] - same_mode['mem']):+.1f} MiB (mode for mode)")
    print(f"Content Desk / Chromium memory: {ratio:.2f}x (goal <= 0.80; with web-shell counted on Chromium's side: "
          f"{app['mem'] / (chrome['mem'] + chrome['shell']):.2f}x)")


if __name__ == "__main__":
    sys.exit(main())
