#!/usr/bin/env python3
"""Figures for `cdesk` and `cdesk mcp` (issues 13 and 14), release builds, against a release sandbox on
loopback. Prints figures, asserts nothing.

  (a) process start to balance printed: `cdesk account balance` against the floor of any Node CLI doing the
      same request (`node -e` with one fetch), in alternation, same sandbox; medians and the ratio;
  (b) status reads while waiting for a render of RENDER_S seconds (default 300): counted at the sandbox
      (requests to GET /studio/generate/{id}), beside the official CLI's fixed 3 s (RENDER_S / 3 reads);
  (c) `card list --all` over 5,000 cards: wall time and peak memory (/usr/bin/time -v);
  (d) MCP: server start to `initialize` answered; `tools/list` latency; read tool calls (get_balance, and
      the heavier list_cards of 100 cards and get_brand_kit) each against the same request made directly
      over one keep-alive HTTP connection (the raw call: bytes read, not parsed), medians and the ratio,
      the reply's bytes on the wire, and the server's CPU per call (all its threads, from schedstat);
      and `node -e` start as the peer for the server start (the official Node server is not
      on the registry). Beside cdesk, in the same loop, `floor`: the least any stdio server can add
      (crates/cli/examples/mcp_floor.rs, a blocking relay with no JSON parsing): what it adds is the second
      process and pipe, what cdesk adds above it is cdesk's own. Columns: the raw GET's bytes read
      (strict), the same GET's body decoded by the client (json.loads: what a client call hands its
      caller; the tool call's time includes the client decoding its answer), the ratio to each, and the
      µs a tool call adds to the strict raw GET (median of the pairs' differences): the figure that holds
      against any service, whose own latency divides it. With --ab OTHER_CDESK, the read tool calls of
      that binary (an older build) alternate too, each beside its own raw GET: an A/B on a noisy machine.
Usage: python3 scripts/bench_cli.py BIN_DIR [--runs N] [--render-s S] [--skip-polls] [--only-mcp] [--ab CDESK]"""
import argparse
import http.client
import json
import os
import re
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.parse


def sandbox(bin_dir, work, *extra):
    proc = subprocess.Popen([f"{bin_dir}/contentdesk-sandbox", "serve", "--db", os.path.join(work, "sb.db"), "--addr",
                             "127.0.0.1:0", "--seed", "demo", "--ready-json", "--rate-limit", "0", *extra],
                            stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    ready = json.loads(proc.stdout.readline())
    return proc, ready["url"], ready["key"]


def median_ms(xs):
    return statistics.median(xs) * 1000


def timed(cmd, env):
    t = time.perf_counter()
    out = subprocess.run(cmd, env=env, capture_output=True, text=True)
    dt = time.perf_counter() - t
    if out.returncode != 0:
        raise SystemExit(f"{cmd[0]} failed: {out.stderr}")
    return dt


def bench_start(bin_dir, url, key, runs, env):
    node = ["node", "-e", f"fetch({json.dumps(url + '/account/balance')}, {{headers: {{authorization: 'Bearer ' + process.env.K}}}})"
            ".then(r => r.json()).then(j => console.log(JSON.stringify(j)))"]
    ours, theirs = [], []
    e = dict(env, CONTENTHERO_API_KEY=key, CONTENTHERO_BASE_URL=url, K=key)
    for i in range(runs + 1):
        a = timed([f"{bin_dir}/cdesk", "account", "balance"], e)
        b = timed(node, e)
        if i:  # the first pair warms the caches
            ours.append(a)
            theirs.append(b)
    ratios = [a / b for a, b in zip(ours, theirs)]
    print(f"(a) start to balance printed, {runs} runs each, alternating")
    print(f"    cdesk account balance      median {median_ms(ours):7.1f} ms  (min {min(ours)*1000:.1f}, max {max(ours)*1000:.1f})")
    print(f"    node -e fetch (the floor)  median {median_ms(theirs):7.1f} ms  (min {min(theirs)*1000:.1f}, max {max(theirs)*1000:.1f})")
    print(f"    ratio cdesk/node           median {statistics.median(ratios):.3f}  (goal ≤ 0.25)")


def bench_polls(bin_dir, work, render_s, env):
    proc, url, key = sandbox(bin_dir, work, "--render-ms", str(render_s * 1000), "--smart-wait-ms", "100")
    try:
        e = dict(env, CONTENTHERO_API_KEY=key, CONTENTHERO_BASE_URL=url, RUST_LOG="")
        t = time.perf_counter()
        out = subprocess.run([f"{bin_dir}/cdesk", "generate", "image", "bench", "--timeout", str(render_s + 120), "--verbose"],
                             env=e, capture_output=True, text=True)
        dt = time.perf_counter() - t
        reads = sum(1 for line in out.stderr.splitlines() if re.match(r"^(processing|queued|pending|completed)", line))
        print(f"(b) a {render_s} s render waited for by cdesk: {reads} status reads in {dt:.0f} s "
              f"(exit {out.returncode}); the official CLI's fixed 3 s makes {render_s // 3} (goal ≤ 25)")
    finally:
        proc.terminate()


def bench_list_all(bin_dir, work, env):
    proc, url, key = sandbox(bin_dir, work, "--extra-cards", "5000")
    try:
        e = dict(env, CONTENTHERO_API_KEY=key, CONTENTHERO_BASE_URL=url)
        out = subprocess.run(["/usr/bin/time", "-v", f"{bin_dir}/cdesk", "card", "list", "--all"], env=e,
                             capture_output=True, text=True)
        cards = len(json.loads(out.stdout)["cards"])
        wall = re.search(r"Elapsed \(wall clock\) time.*: (\S+)", out.stderr).group(1)
        rss = int(re.search(r"Maximum resident set size \(kbytes\): (\d+)", out.stderr).group(1))
        print(f"(c) card list --all: {cards} cards, wall {wall}, peak memory {rss / 1024:.1f} MiB")
    finally:
        proc.terminate()


class Rpc:
    def __init__(self, cmd, env):
        self.p = subprocess.Popen(cmd, env=env, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True, bufsize=1)
        self.n = 0

    def call(self, method, params=None):
        return self.call_sized(method, params)[0]

    def call_sized(self, method, params=None):
        """The answer and its size on the wire (bytes of the line)."""
        self.n += 1
        self.p.stdin.write(json.dumps({"jsonrpc": "2.0", "id": self.n, "method": method, "params": params or {}}) + "\n")
        self.p.stdin.flush()
        while True:
            line = self.p.stdout.readline()
            t = time.perf_counter()
            msg = json.loads(line)
            self.parse_s = time.perf_counter() - t
            if msg.get("id") == self.n:
                return msg, len(line.encode())

    def cpu_ns(self):
        """CPU time the server's threads have used so far (ns)."""
        total = 0
        for t in os.listdir(f"/proc/{self.p.pid}/task"):
            try:
                with open(f"/proc/{self.p.pid}/task/{t}/schedstat") as f:
                    total += int(f.read().split()[0])
            except OSError:
                pass
        return total

    def notify(self, method):
        self.p.stdin.write(json.dumps({"jsonrpc": "2.0", "method": method}) + "\n")
        self.p.stdin.flush()

    def close(self):
        self.p.stdin.close()
        self.p.wait(timeout=10)


def bench_mcp(bin_dir, url, key, runs, env, ab=None):
    e = dict(env, CONTENTHERO_API_KEY=key, CONTENTHERO_BASE_URL=url)
    init = {"protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {"name": "bench", "version": "1"}}
    starts, lists = [], []
    for i in range(runs + 1):
        t = time.perf_counter()
        rpc = Rpc([f"{bin_dir}/cdesk", "mcp"], e)
        rpc.call("initialize", init)
        started = time.perf_counter() - t
        rpc.notify("notifications/initialized")
        t = time.perf_counter()
        tools = rpc.call("tools/list")["result"]["tools"]
        listed = time.perf_counter() - t
        rpc.close()
        if i:
            starts.append(started)
            lists.append(listed)
    node = []
    for i in range(runs + 1):
        t = time.perf_counter()
        subprocess.run(["node", "-e", "0"], check=True)
        if i:
            node.append(time.perf_counter() - t)
    servers = [("cdesk", f"{bin_dir}/cdesk"), ("floor", f"{bin_dir}/examples/mcp_floor")] + ([("ab", ab)] if ab else [])
    rpcs = []
    for label, path in servers:
        rpc = Rpc([path, "mcp"], e)
        rpc.call("initialize", init)
        rpc.notify("notifications/initialized")
        rpcs.append((label, rpc))
    u = urllib.parse.urlsplit(url)
    conn = http.client.HTTPConnection(u.hostname, u.port)

    def get(path):
        conn.request("GET", u.path + path, headers={"Authorization": f"Bearer {key}"})
        return conn.getresponse().read()

    kit = json.loads(get("/brand-kits"))["brandKits"][0]["id"]
    # Each read tool beside the same GET made raw, in alternation: the small one (the balance, where the
    # fixed cost of a stdio round trip shows most) and heavier ones (a page of 100 cards, a whole brand kit).
    cases = [("get_balance", {}, "/account/balance"),
             ("list_cards", {"limit": 100}, "/cards?limit=100"),
             ("get_brand_kit", {"brandKitId": kit}, f"/brand-kits/{kit}")]
    calls, warm = 200, 20
    rows = []
    for name, args, path in cases:
        m = {label: {"tool": [], "raw": [], "decoded": [], "parse": [], "cpu": 0, "wire": 0} for label, _ in rpcs}
        size = 0
        for i in range(calls + warm):
            for label, rpc in rpcs:
                c = rpc.cpu_ns()
                t = time.perf_counter()
                r, wire = rpc.call_sized("tools/call", {"name": name, "arguments": args})
                a = time.perf_counter() - t
                c = rpc.cpu_ns() - c
                assert not r["result"].get("isError"), r
                t = time.perf_counter()
                body = get(path)
                b = time.perf_counter() - t
                json.loads(body)
                d = time.perf_counter() - t
                size = len(body)
                if i >= warm:
                    m[label]["tool"].append(a)
                    m[label]["raw"].append(b)
                    m[label]["decoded"].append(d)
                    m[label]["cpu"] += c
                    m[label]["parse"].append(rpc.parse_s)
                    m[label]["wire"] = wire
        rows.append((name, size, m))
    for _, rpc in rpcs:
        rpc.close()
    print(f"(d) MCP over stdio, {len(tools)} tools; load average {open('/proc/loadavg').read().split()[0]}")
    print(f"    server start to initialize answered  median {median_ms(starts):6.1f} ms  (node -e start, the floor of a Node server: {median_ms(node):.1f} ms)")
    print(f"    tools/list                           median {median_ms(lists):6.2f} ms")
    print(f"    {'read tool (reply bytes)':<28} {'server':<6} {'tool ms':>7} {'raw GET':>7} {'ratio':>5} {'+ json':>7} {'ratio':>5} {'adds µs':>7} {'CPU µs/call':>11} {'wire B':>6} {'parse µs':>8}")
    print("    (goal: ratio ≤ 1.2; raw GET: bytes read; + json: and decoded by the client; adds µs: tool − raw GET, median of pairs;")
    print("     CPU: the server's, all threads; parse: the client's json.loads of the tool's answer, inside tool ms)")
    for name, size, m in rows:
        for label, _ in rpcs:
            tool, raw, dec = m[label]["tool"], m[label]["raw"], m[label]["decoded"]
            ratio = statistics.median([a / b for a, b in zip(tool, raw)])
            ratio_dec = statistics.median([a / b for a, b in zip(tool, dec)])
            adds = statistics.median([a - b for a, b in zip(tool, raw)]) * 1e6
            print(f"    {f'{name} ({size})':<28} {label:<6} {median_ms(tool):7.3f} {median_ms(raw):7.3f} {ratio:5.2f} {median_ms(dec):7.3f} {ratio_dec:5.2f} "
                  f"{adds:7.0f} {m[label]['cpu'] / calls / 1000:11.0f} {m[label]['wire']:6} {statistics.median(m[label]['parse']) * 1e6:8.0f}")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("bin_dir")
    ap.add_argument("--runs", type=int, default=20)
    ap.add_argument("--render-s", type=int, default=300)
    ap.add_argument("--skip-polls", action="store_true")
    ap.add_argument("--only-mcp", action="store_true", help="section (d) alone")
    ap.add_argument("--ab", metavar="CDESK", help="another cdesk binary whose read tool calls alternate with this one's")
    args = ap.parse_args()
    work = tempfile.mkdtemp(prefix="cdesk-bench-")
    env = {"PATH": os.environ["PATH"], "HOME": work, "CONTENTHERO_CONFIG_DIR": os.path.join(work, "ch"),
           "CONTENTDESK_DATA_DIR": os.path.join(work, "app")}
    proc, url, key = sandbox(args.bin_dir, os.path.join(work))
    try:
        if not args.only_mcp:
            bench_start(args.bin_dir, url, key, args.runs, env)
        bench_mcp(args.bin_dir, url, key, args.runs, env, args.ab)
    finally:
        proc.terminate()
    for name in ("sb.db",):
        try:
            os.remove(os.path.join(work, name))
        except OSError:
            pass
    if args.only_mcp:
        return
    bench_list_all(args.bin_dir, tempfile.mkdtemp(dir=work), env)
    if not args.skip_polls:
        bench_polls(args.bin_dir, tempfile.mkdtemp(dir=work), args.render_s, env)


if __name__ == "__main__":
    sys.exit(main())
