#!/usr/bin/env python3
"""Figures for `cdesk mcp --http` (issue 15), release builds, against a release sandbox on loopback as the
authorization server. Prints figures, asserts nothing. The MCP messages are sent as raw JSON-RPC over
keep-alive HTTP connections (no SDK in the measured path); tokens come from the consent flow done by HTTP
(tests/mcp/test_http.py's helpers).

  (a) token check overhead per tool call: get_balance over HTTP (introspection + cached exchange + the
      call) against the same tool over stdio (`cdesk mcp`, one key), and the introspection request alone;
  (b) p50/p99 of a read tool (list_cards) with 200 sessions at once, each its own user and token;
  (c) sessions per second two instances sustain: a session is initialize + initialized + one list_cards,
      each with its own token, the sessions alternating between the two instances.
Usage: python3 scripts/bench_mcp_http.py BIN_DIR [--calls N] [--seconds S]"""
import argparse
import http.client
import json
import os
import statistics
import subprocess
import sys
import threading
import time
import urllib.parse

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "tests", "mcp"))
os.environ.setdefault("CDESK_BIN_DIR", sys.argv[1] if len(sys.argv) > 1 else "")
import test_http as t  # noqa: E402 - after the path and BIN_DIR are set

INIT = {"protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {"name": "bench", "version": "1"}}


class Http:
    """One keep-alive connection speaking MCP's Streamable HTTP (JSON responses) with a bearer token."""

    def __init__(self, url, token):
        u = urllib.parse.urlsplit(url)
        self.path, self.token = u.path, token
        self.conn = http.client.HTTPConnection(u.hostname, u.port, timeout=60)
        self.n = 0

    def send(self, method, params=None, notify=False):
        body = {"jsonrpc": "2.0", "method": method}
        if params is not None:
            body["params"] = params
        if not notify:
            self.n += 1
            body["id"] = self.n
        self.conn.request("POST", self.path, json.dumps(body), {
            "Authorization": f"Bearer {self.token}", "Content-Type": "application/json",
            "Accept": "application/json, text/event-stream", "MCP-Protocol-Version": INIT["protocolVersion"]})
        r = self.conn.getresponse()
        data = r.read()
        if r.status >= 400:
            raise RuntimeError(f"{method}: {r.status} {data[:200]!r}")
        if notify:
            return None
        if r.getheader("content-type", "").startswith("text/event-stream"):
            data = [line[5:] for line in data.decode().splitlines() if line.startswith("data:")][-1]
        reply = json.loads(data)
        if "error" in reply or reply["result"].get("isError"):
            raise RuntimeError(f"{method}: {reply}")
        return reply["result"]

    def start(self):
        self.send("initialize", INIT)
        self.send("notifications/initialized", notify=True)

    def tool(self, name, args=None):
        return self.send("tools/call", {"name": name, "arguments": args or {}})


class Stdio:
    def __init__(self, bin_dir, env):
        self.p = subprocess.Popen([f"{bin_dir}/cdesk", "mcp"], env=env, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                  stderr=subprocess.DEVNULL, text=True, bufsize=1)
        self.n = 0

    def send(self, method, params=None, notify=False):
        msg = {"jsonrpc": "2.0", "method": method, "params": params or {}}
        if not notify:
            self.n += 1
            msg["id"] = self.n
        self.p.stdin.write(json.dumps(msg) + "\n")
        self.p.stdin.flush()
        if notify:
            return None
        while True:
            reply = json.loads(self.p.stdout.readline())
            if reply.get("id") == self.n:
                return reply["result"]

    def close(self):
        self.p.stdin.close()
        self.p.wait(timeout=10)


def ms(xs, q=None):
    xs = sorted(xs)
    if q is None:
        return statistics.median(xs) * 1000
    return xs[min(len(xs) - 1, int(len(xs) * q))] * 1000


def grants(sb, resource, keys):
    client_id = t.register(sb)
    out = [None] * len(keys)

    def work(lo):
        for i in range(lo, len(keys), 8):
            out[i] = t.tokens_for(sb, resource, keys[i], client_id=client_id)["access_token"]
    threads = [threading.Thread(target=work, args=(lo,)) for lo in range(8)]
    for th in threads:
        th.start()
    for th in threads:
        th.join()
    return out


def overhead(bin_dir, sb, srv, calls, env):
    token = t.tokens_for(sb, srv.resource)["access_token"]
    h = Http(srv.mcp, token)
    h.start()
    s = Stdio(bin_dir, dict(env, CONTENTHERO_API_KEY=sb.key, CONTENTHERO_BASE_URL=sb.api))
    s.send("initialize", INIT)
    s.send("notifications/initialized", notify=True)
    u = urllib.parse.urlsplit(sb.origin)
    asc = http.client.HTTPConnection(u.hostname, u.port)
    over_http, over_stdio, introspect = [], [], []
    for i in range(calls + 20):
        a = time.perf_counter()
        h.tool("get_balance")
        b = time.perf_counter()
        s.send("tools/call", {"name": "get_balance", "arguments": {}})
        c = time.perf_counter()
        asc.request("POST", "/oauth/introspect", urllib.parse.urlencode({"token": token}),
                    {"Content-Type": "application/x-www-form-urlencoded"})
        asc.getresponse().read()
        d = time.perf_counter()
        if i >= 20:
            over_http.append(b - a)
            over_stdio.append(c - b)
            introspect.append(d - c)
    s.close()
    print(f"(a) token check overhead, get_balance, {calls} calls each, medians")
    print(f"    over HTTP (token introspected + exchange cached + call)  {ms(over_http):6.2f} ms")
    print(f"    over stdio (one key, no check)                          {ms(over_stdio):6.2f} ms")
    print(f"    difference per call                                     {ms(over_http) - ms(over_stdio):6.2f} ms")
    print(f"    the introspection request alone                         {ms(introspect):6.2f} ms")


def load(sb, srv, users, per_user):
    tokens = grants(sb, srv.resource, sb.keys(users))
    lat, errors = [], []
    lock = threading.Lock()
    barrier = threading.Barrier(users)

    def user(i):
        try:
            h = Http(srv.mcp, tokens[i])
            h.start()
            barrier.wait()
            mine = []
            for _ in range(per_user):
                a = time.perf_counter()
                h.tool("list_cards")
                mine.append(time.perf_counter() - a)
            with lock:
                lat.extend(mine)
        except Exception as e:  # noqa: BLE001 - counted and shown
            with lock:
                errors.append(repr(e))
            barrier.abort()
    t0 = time.perf_counter()
    threads = [threading.Thread(target=user, args=(i,)) for i in range(users)]
    for th in threads:
        th.start()
    for th in threads:
        th.join()
    wall = time.perf_counter() - t0
    print(f"(b) {users} sessions at once, each its own user, {per_user} list_cards each ({len(lat)} calls in {wall:.1f} s, {len(errors)} errors)")
    if lat:
        print(f"    list_cards latency  p50 {ms(lat, 0.5):6.1f} ms   p99 {ms(lat, 0.99):6.1f} ms   max {ms(lat, 1.0):6.1f} ms")
        print(f"    ({len(lat) / wall:.0f} calls/s; the load comes from Python threads on the same cores as both servers)")
    if errors:
        print(f"    first error: {errors[0]}")


def throughput(sb, first, second, seconds, workers):
    tokens = grants(sb, first.resource, sb.keys(workers))
    done, errors = [0, 0], []
    stop = time.perf_counter() + seconds
    lock = threading.Lock()

    def worker(i):
        n = 0
        while time.perf_counter() < stop:
            which = n % 2
            try:
                h = Http((first, second)[which].mcp, tokens[i])
                h.start()
                h.tool("list_cards")
                h.conn.close()
                with lock:
                    done[which] += 1
            except Exception as e:  # noqa: BLE001
                with lock:
                    errors.append(repr(e))
            n += 1
    t0 = time.perf_counter()
    threads = [threading.Thread(target=worker, args=(i,)) for i in range(workers)]
    for th in threads:
        th.start()
    for th in threads:
        th.join()
    wall = time.perf_counter() - t0
    total = sum(done)
    print(f"(c) two instances, {workers} clients opening sessions (initialize + initialized + list_cards, a new connection each) for {wall:.1f} s")
    print(f"    {total / wall:7.1f} sessions/s  ({done[0]} + {done[1]} per instance, {len(errors)} errors)")
    if errors:
        print(f"    first error: {errors[0]}")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("bin_dir")
    ap.add_argument("--calls", type=int, default=300)
    ap.add_argument("--seconds", type=float, default=5)
    ap.add_argument("--users", type=int, default=200)
    args = ap.parse_args()
    t.BIN = args.bin_dir
    sb = t.Sandbox()
    # One address, two instances: they share the registration proof (CDESK_MCP_REGISTRATION_PROOF).
    proof = "bench-shared-registration-proof-" + "x" * 16
    srv = t.McpHttp(sb, proof=proof)
    second = t.McpHttp(sb, public_url=srv.url, proof=proof)
    env = {"PATH": os.environ["PATH"], "HOME": sb.dir, "CONTENTHERO_CONFIG_DIR": os.path.join(sb.dir, "ch"),
           "CONTENTDESK_DATA_DIR": os.path.join(sb.dir, "app")}
    try:
        overhead(args.bin_dir, sb, srv, args.calls, env)
        load(sb, srv, args.users, 10)
        throughput(sb, srv, second, args.seconds, 16)
    finally:
        second.stop()
        srv.stop()
        sb.stop()


if __name__ == "__main__":
    sys.exit(main())
