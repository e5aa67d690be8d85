// The servers a journey starts itself (a sandbox with its own render times, a web-shell on its own data
// folder): where the binaries are, how to start one and wait until it says it is ready, how to stop it.
// Binaries: SANDBOX_BIN and WEB_SHELL_BIN (scripts/ui-e2e.sh), else $CARGO_TARGET_DIR/debug.
import { spawn } from "node:child_process";
import fs from "node:fs";
import net from "node:net";
import path from "node:path";
import { fileURLToPath } from "node:url";

const ROOT = fileURLToPath(new URL("../..", import.meta.url));
const BIN = path.join(process.env.CARGO_TARGET_DIR ?? path.join(ROOT, "target"), "debug");
export const SANDBOX_BIN = process.env.SANDBOX_BIN ?? path.join(BIN, "contentdesk-sandbox");
export const WEB_SHELL_BIN = process.env.WEB_SHELL_BIN ?? path.join(BIN, "contentdesk-web-shell");
export const CDESK_BIN = process.env.CDESK_BIN ?? path.join(BIN, "cdesk");
export const UI_DIST = path.join(ROOT, "ui/dist");

/** What a journey reads from each server's JSON ready line (`--ready-json`): the sandbox's URL and the
 *  key it minted, web-shell's URL (with its token). */
export const SANDBOX_READY = ["url", "key"];
export const WEB_SHELL_READY = ["url"];

/** The processes one journey started, so that its `after` can stop whichever are still running. */
export class Processes {
  children = new Set();

  /**
   * Starts `bin` with `--ready-json` and waits (30 s at most) for its JSON ready line; answers the child
   * and the named `fields` of that line, in order. Its stderr is appended to `logPath`.
   */
  start(bin, args, fields, logPath) {
    return new Promise((resolve, reject) => {
      const child = spawn(bin, [...args, "--ready-json"], { stdio: ["ignore", "pipe", "pipe"] });
      this.children.add(child);
      child.stderr.pipe(fs.createWriteStream(logPath, { flags: "a" }));
      let out = "";
      const timer = setTimeout(() => reject(new Error(`${path.basename(bin)} did not start: ${out}`)), 30_000);
      child.stdout.on("data", (d) => {
        out += d.toString();
        const line = out.split("\n").slice(0, -1).find((l) => l.includes('"ready":true'));
        if (!line) return;
        const ready = JSON.parse(line);
        clearTimeout(timer);
        resolve({ child, matches: fields.map((f) => ready[f]), ready });
      });
      child.once("exit", (code) => {
        this.children.delete(child);
        clearTimeout(timer);
        reject(new Error(`${path.basename(bin)} exited (${code}) before it was ready: ${out}`));
      });
    });
  }

  /** Stops a process started here (SIGINT, then SIGKILL after 10 s) and waits until it is gone. */
  stop(child) {
    if (!child || child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
    return new Promise((resolve) => {
      child.once("exit", () => { this.children.delete(child); resolve(); });
      child.kill("SIGINT");
      setTimeout(() => child.kill("SIGKILL"), 10_000).unref();
    });
  }

  stopAll() {
    return Promise.all([...this.children].map((c) => this.stop(c)));
  }
}

/** A free loopback port, for a server that must come back on the same address after a restart. */
export function freePort() {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.once("error", reject);
    srv.listen(0, "127.0.0.1", () => {
      const { port } = srv.address();
      srv.close(() => resolve(port));
    });
  });
}

/** A sandbox playing the remote service on a fixed port and database file (so a journey can stop and
 *  restart it), seeded with the demo: answers its child, URL and the key it minted. */
export async function startRemoteSandbox(procs, { db, port, log }) {
  const { child, matches } = await procs.start(
    SANDBOX_BIN,
    ["serve", "--db", db, "--addr", `127.0.0.1:${port}`, "--seed", "demo"],
    SANDBOX_READY,
    log,
  );
  return { child, url: matches[0], key: matches[1] };
}

/** web-shell on its own data folder, keys in its memory: answers its child, URL, origin and token.
 *  `args`: more of its options (e.g. `--open-urls print`). */
export async function startWebShell(procs, { data, log, args = [] }) {
  const { child, matches } = await procs.start(
    WEB_SHELL_BIN,
    ["--data-dir", data, "--ui-dist", UI_DIST, "--memory-secrets", ...args],
    WEB_SHELL_READY,
    log,
  );
  const url = new URL(matches[0]);
  return { child, url: matches[0], origin: url.origin, token: url.searchParams.get("token") };
}

/** The pages a web-shell started with `--open-urls print` asked a browser to open (its `{"openUrl":…}`
 *  stdout lines, the app's URL-opener hook): `next()` answers the next one (30 s at most). */
export function openedUrls(child) {
  const seen = [];
  const waiting = [];
  let rest = "";
  child.stdout.on("data", (d) => {
    rest += d.toString();
    const lines = rest.split("\n");
    rest = lines.pop();
    for (const line of lines) {
      if (!line.includes('"openUrl"')) continue;
      const url = JSON.parse(line).openUrl;
      const w = waiting.shift();
      if (w) w(url); else seen.push(url);
    }
  });
  return {
    next: () => seen.length ? Promise.resolve(seen.shift()) : new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error("web-shell opened no page within 30 s")), 30_000);
      waiting.push((url) => { clearTimeout(timer); resolve(url); });
    }),
  };
}
