// What the TypeScript SDK's stdio tests share: a real sandbox on loopback (its `--ready-json` line read
// back) and the environment `cdesk mcp` runs in (a HOME, config and data folders of the test's own, the
// sandbox's key and URL), so no key or config of this machine is found by accident.
import { spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import readline from "node:readline";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";

export const BIN = process.env.CDESK_BIN_DIR ?? path.join(os.homedir(), ".cache/contentdesk-target/debug");

/** A fresh folder for one test file, removed by the caller's `after`. */
export const workFolder = (name) => fs.mkdtempSync(path.join(os.tmpdir(), `cdesk-mcp-${name}-`));

/** The sandbox seeded with the demo account, in `work`: `{ sandbox, ready }` (`ready.key`, `ready.url`). */
export async function startSandbox(work, { smartWaitMs = 2000 } = {}) {
  const sandbox = spawn(`${BIN}/contentdesk-sandbox`, [
    "serve", "--db", path.join(work, "sandbox.db"), "--addr", "127.0.0.1:0", "--seed", "demo", "--ready-json",
    "--rate-limit", "0", "--render-ms", "200", "--smart-wait-ms", String(smartWaitMs),
  ], { stdio: ["ignore", "pipe", "ignore"] });
  const line = await new Promise((resolve, reject) => {
    readline.createInterface({ input: sandbox.stdout }).once("line", resolve);
    sandbox.once("exit", (code) => reject(new Error(`the sandbox exited (${code})`)));
  });
  return { sandbox, ready: JSON.parse(line) };
}

/** `cdesk mcp ARGS` over stdio against the sandbox `ready` names, in `work`'s folders. */
export function cdeskMcp(work, ready, args = []) {
  return new StdioClientTransport({
    command: `${BIN}/cdesk`,
    args: ["mcp", ...args],
    env: {
      PATH: process.env.PATH,
      HOME: work,
      CONTENTHERO_CONFIG_DIR: path.join(work, "ch"),
      CONTENTDESK_DATA_DIR: path.join(work, "app"),
      CONTENTHERO_API_KEY: ready.key,
      CONTENTHERO_BASE_URL: ready.url,
    },
    stderr: "ignore",
  });
}
