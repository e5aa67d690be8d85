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


def launch(binary, data_dir, timeout=60):
    """Spawns binary, returns (process, ms to the painted line)."""
    env = dict(os.environ, CONTENTDESK_DATA_DIR=data_dir, RUST_LOG="warn")
    t0 = time.perf_counter()
    proc = subprocess.Popen([binary], stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, env=env,
                            start_new_session=True, text=True)
    deadline = t0 + timeout
    while time.perf_counter() < deadline:
        line = proc.stdout.readline()
        if not line:
            break
        if line.startswith("painted"):
            return proc, (time.perf_counter() - t0) * 1000
    stop(proc)
    raise SystemExit(f"{binary} did not print 'painted' within {timeout} s (exit {proc.poll()})")


def measure_window(name, binary, runs):
    data = tempfile.mkdtemp(prefix=f"bench-{name}-")
    try:
        proc, first = launch(binary, data)
        stop(proc)
        times, mems, per_last = [], [], {}
        for _ in range(runs):
            proc, ms = launch(binary, data)
            times.append(ms)
            time.sleep(3)
            total, per_last = tree_pss(proc.pid)
            mems.append(total)
            stop(proc)
        return {"first": first, "times": times, "mem": statistics.median(mems), "per": per_last}
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
    chrome = measure_chromium(a.web_shell, a.ui_dist)

    mib = lambda kib: kib / 1024
    print("\n== desktop: launch to painted (warm, %d runs each) and idle PSS" % a.runs)
    for name, r in (("empty Tauri window", empty), ("Content Desk", app)):
        print(f"{name:22s} launch median {statistics.median(r['times']):7.0f} ms  min {min(r['times']):7.0f} ms  "
              f"(first launch {r['first']:.0f} ms)   idle PSS {mib(r['mem']):6.1f} MiB")
        print("    " + ", ".join(f"{k} {mib(v):.1f}" for k, v in sorted(r["per"].items(), key=lambda kv: -kv[1])))
    print(f"{'headless Chromium':22s} idle PSS {mib(chrome['mem']):6.1f} MiB (web-shell with core + sandbox: "
          f"{mib(chrome['shell']):.1f} MiB more)")
    print("    " + ", ".join(f"{k} {mib(v):.1f}" for k, v in sorted(chrome["per"].items(), key=lambda kv: -kv[1])))
    dl = statistics.median(app["times"]) - statistics.median(empty["times"])
    dm = mib(app["mem"] - empty["mem"])
    ratio = app["mem"] / chrome["mem"] if chrome["mem"] else float("nan")
    print(f"Content Desk - empty window: launch {dl:+.0f} ms (goal <= +300), memory {dm:+.1f} MiB (goal <= +40)")
    print(f"Content Desk / Chromium memory: {ratio:.2f}x (goal <= 0.80; with web-shell counted on Chromium's side: "
          f"{app['mem'] / (chrome['mem'] + chrome['shell']):.2f}x)")


if __name__ == "__main__":
    sys.exit(main())
