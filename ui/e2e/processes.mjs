// The servers a journey starts itself (a sandbox with its own render times, a web-shell on its own data
// folder): where the binaries are, how to start one and wait until it says it is ready, how to stop it.
// Binaries: SANDBOX_BIN and WEB_SHELL_BIN (scripts/ui-e2e.sh), else $CARGO_TARGET_DIR/debug.
import { spawn } from "node:child_process";
import fs from "node:fs";
import path from "node:path";

const BIN = path.join(process.env.CARGO_TARGET_DIR ?? path.resolve("../target"), "debug");
export const SANDBOX_BIN = process.env.SANDBOX_BIN ?? path.join(BIN, "contentdesk-sandbox");
export const WEB_SHELL_BIN = process.env.WEB_SHELL_BIN ?? path.join(BIN, "contentdesk-web-shell");
export const UI_DIST = path.resolve("dist");

/** The sandbox binary's two ready lines: its URL and the key it minted. */
export const SANDBOX_READY = [/^Content Desk sandbox serving (\S+)/m, /^API key \(every scope, shown once\): (\S+)/m];
export const WEB_SHELL_READY = [/^web-shell ready: (\S+)/m];

/** The processes one journey started, so that its `after` can stop whichever are still running. */
export class Processes {
  children = new Set();

  /**
   * Starts `bin` and waits (30 s at most) until its stdout has a match for each pattern; answers the
   * child and the first group of each match. Its stderr is appended to `logPath`.
   */
  start(bin, args, patterns, logPath) {
    return new Promise((resolve, reject) => {
      const child = spawn(bin, args, { stdio: ["ignore", "pipe", "pipe"] });
      this.children.add(child);
      child.stderr.pipe(fs.createWriteStream(logPath, { flags: "a" }));
      let out = "";
      const timer = setTimeout(() => reject(new Error(`${path.basename(bin)} did not start: ${out}`)), 30_000);
      child.stdout.on("data", (d) => {
        out += d.toString();
        const m = patterns.map((p) => out.match(p)?.[1]);
        if (m.every(Boolean)) {
          clearTimeout(timer);
          resolve({ child, matches: m });
        }
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
