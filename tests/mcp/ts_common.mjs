// What the TypeScript SDK's tests share: a real sandbox on loopback (its `--ready-json` line read back), the
// environment `cdesk mcp` runs in (a HOME, config and data folders of the test's own, the sandbox's key and
// URL), so no key or config of this machine is found by accident, over stdio and as `cdesk mcp --http`.
import { spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import readline from "node:readline";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";

export const BIN = process.env.CDESK_BIN_DIR ?? path.join(os.homedir(), ".cache/contentdesk-target/debug");

/** A fresh folder for one test file, removed by the caller's `after`. */
export const workFolder = (name) => fs.mkdtempSync(path.join(os.tmpdir(), `cdesk-mcp-${name}-`));

/** Every process started here, for [`stopAll`]. */
const started = [];

/** Starts `bin args…` (in `env`, else this process's) and answers `{ child, ready }`: the process and its
 * first stdout line, parsed (its `--ready-json` line). */
async function spawnReady(bin, args, env) {
  const child = spawn(bin, args, { stdio: ["ignore", "pipe", "ignore"], ...(env ? { env } : {}) });
  started.push(child);
  const line = await new Promise((resolve, reject) => {
    readline.createInterface({ input: child.stdout }).once("line", resolve);
    child.once("exit", (code) => reject(new Error(`${path.basename(bin)} exited (${code})`)));
  });
  return { child, ready: JSON.parse(line) };
}

/** Stops every sandbox and server the helpers here started (a test file's `after`). */
export function stopAll() {
  for (const child of started.splice(0)) child.kill();
}

/**
 * The sandbox seeded with the demo account, its database `name`.db in `work`, `more` extra `serve` flags:
 * `{ sandbox, ready }` (`ready.key`, `ready.url`, and `ready.origin`: the URL without its `/api/v1`).
 */
export async function startSandbox(work, { smartWaitMs = 2000, name = "sandbox", more = [] } = {}) {
  const { child, ready } = await spawnReady(`${BIN}/contentdesk-sandbox`, [
    "serve", "--db", path.join(work, `${name}.db`), "--addr", "127.0.0.1:0", "--seed", "demo", "--ready-json",
    "--rate-limit", "0", "--render-ms", "200", "--smart-wait-ms", String(smartWaitMs), ...more,
  ]);
  ready.origin = ready.url.replace(/\/api\/v1$/, "");
  return { sandbox: child, ready };
}

/**
 * `cdesk mcp --http` on a free loopback port with `more` flags, `apiUrl` its API and so its authorization
 * server, in a HOME of its own under `work` and with no key (each request acts with its token's grant):
 * its `--ready-json` line (`listening`, `resource`, `issuer`).
 */
export async function startHttpServer(work, apiUrl, more = []) {
  const home = fs.mkdtempSync(path.join(work, "home-"));
  const { ready } = await spawnReady(`${BIN}/cdesk`, ["mcp", "--http", "127.0.0.1:0", ...more], {
    PATH: process.env.PATH,
    HOME: home,
    CONTENTHERO_CONFIG_DIR: path.join(home, "ch"),
    CONTENTDESK_DATA_DIR: path.join(home, "app"),
    CONTENTHERO_BASE_URL: apiUrl,
  });
  return ready;
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
