// `cdesk mcp` checked by a second, independent client: the official TypeScript MCP SDK
// (@modelcontextprotocol/sdk from npm) spawns the server over stdio against a real sandbox, lists the tools
// and calls get_balance, a free quote and a read with a bad argument. (The MCP Inspector's CLI needs
// Node 22; this machine has Node 20, and the Inspector is itself built on this SDK's client.)
// Run: `bash tests/mcp/run.sh`.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import fs from "node:fs";
import path from "node:path";
import { execFileSync } from "node:child_process";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { BIN, cdeskMcp, startSandbox, workFolder } from "./ts_common.mjs";

const work = workFolder("ts");
let sandbox, ready, client;

before(async () => {
  ({ sandbox, ready } = await startSandbox(work));
  const transport = cdeskMcp(work, ready);
  client = new Client({ name: "contentdesk-ts-test", version: "1.0.0" });
  await client.connect(transport);
});

after(async () => {
  await client?.close();
  sandbox?.kill();
  fs.rmSync(work, { recursive: true, force: true });
});

test("the server names itself and lists the catalogue's tools with annotations", async () => {
  assert.equal(client.getServerVersion().name, "cdesk");
  const { tools } = await client.listTools();
  const names = tools.map((t) => t.name);
  assert.equal(new Set(names).size, names.length, "unique names");
  for (const name of ["get_balance", "list_cards", "update_card", "generate_image", "get_generation_status"]) {
    assert.ok(names.includes(name), name);
  }
  for (const t of tools) {
    assert.equal(t.inputSchema.type, "object", t.name);
    assert.equal(typeof t.annotations?.readOnlyHint, "boolean", t.name);
    // Hints at the specification's defaults are left out: openWorldHint true, idempotentHint false.
    assert.equal(t.annotations?.openWorldHint ?? true, true, t.name);
    assert.ok(t.annotations?.idempotentHint === undefined || t.annotations.idempotentHint === true, t.name);
    // idempotentHint, like destructiveHint, only where the specification reads it (not read-only).
    if (t.annotations.readOnlyHint) assert.equal(t.annotations.idempotentHint, undefined, t.name);
  }
});

test("get_balance answers with the sandbox's balance; a quote leaves it as it was", async () => {
  const first = await client.callTool({ name: "get_balance", arguments: {} });
  assert.notEqual(first.isError, true);
  // The whole reply as structuredContent; the text is the short form a model reads ("balance: 500").
  const balance = first.structuredContent.balance;
  assert.match(first.content[0].text, new RegExp(`^balance: ${balance}$`, "m"));
  assert.equal(typeof balance, "number");
  const quote = await client.callTool({ name: "generate_image", arguments: { prompt: "a mug", getCost: true } });
  assert.notEqual(quote.isError, true, JSON.stringify(quote));
  assert.ok(quote.structuredContent.creditsEstimate > 0);
  const again = await client.callTool({ name: "get_balance", arguments: {} });
  assert.equal(again.structuredContent.balance, balance);
});

test("a bad argument is an error result naming it; the server answers the next call", async () => {
  const bad = await client.callTool({ name: "list_cards", arguments: { limit: "ten" } });
  assert.equal(bad.isError, true);
  assert.match(bad.content[0].text, /limit/);
  const ok = await client.callTool({ name: "list_cards", arguments: { limit: 2 } });
  assert.notEqual(ok.isError, true);
  assert.ok(ok.structuredContent.cards.length <= 2);
  assert.match(ok.content[0].text, /^2 cards of \d+; more: call again with offset 2/);
});

test("--toolsets studio --read-only, with the base URL as the host alone: only the studio's read tools", async () => {
  const env = {
    PATH: process.env.PATH,
    HOME: work,
    CONTENTHERO_CONFIG_DIR: path.join(work, "ch"),
    CONTENTDESK_DATA_DIR: path.join(work, "app"),
    CONTENTHERO_API_KEY: ready.key,
    // The host alone, as the official client reads CONTENTHERO_BASE_URL: cdesk adds /api/v1.
    CONTENTHERO_BASE_URL: ready.url.replace(/\/api\/v1$/, ""),
  };
  const args = ["mcp", "--toolsets", "studio", "--read-only"];
  const table = JSON.parse(execFileSync(`${BIN}/cdesk`, [...args, "--list-tools"], { env }).toString());
  const narrow = new Client({ name: "contentdesk-ts-test-narrow", version: "1.0.0" });
  await narrow.connect(new StdioClientTransport({ command: `${BIN}/cdesk`, args, env, stderr: "ignore" }));
  try {
    const { tools } = await narrow.listTools();
    const names = tools.map((t) => t.name).sort();
    assert.deepEqual(names, table.map((t) => t.tool).sort(), "tools/list is --list-tools' table");
    assert.ok(names.includes("get_generation_status") && names.includes("list_models"), names.join(","));
    for (const t of tools) assert.equal(t.annotations?.readOnlyHint, true, t.name);
    for (const row of table) assert.equal(row.toolset, "studio", row.tool);
    assert.ok(!names.includes("generate_image") && !names.includes("list_cards"));
    await assert.rejects(narrow.callTool({ name: "generate_image", arguments: { prompt: "a mug", getCost: true } }), /unknown tool/);
    const models = await narrow.callTool({ name: "list_models", arguments: {} });
    assert.notEqual(models.isError, true, JSON.stringify(models));
    // No brand-kit toolset: no section resources, no prompt.
    assert.equal(narrow.getServerCapabilities().resources, undefined);
  } finally {
    await narrow.close();
  }
});
