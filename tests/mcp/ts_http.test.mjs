// `cdesk mcp --http` (the hosted agent-tool server, an OAuth protected resource) checked by the official
// TypeScript MCP SDK's Streamable HTTP client (@modelcontextprotocol/sdk, StreamableHTTPClientTransport):
// a bearer token granted through the sandbox's OAuth (registration, the consent form with an account key,
// PKCE, token: tests/mcp/oauth_flow.mjs) lists the tools and calls get_balance; once the grant is revoked
// the next call is answered 401 with a WWW-Authenticate naming the resource metadata. The Python SDK's own
// OAuth client runs the whole flow in tests/mcp/test_http.py. Everything real: the sandbox process, the
// cdesk process, HTTP on loopback. Run: `bash tests/mcp/run.sh`.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import fs from "node:fs";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { grant } from "./oauth_flow.mjs";
import { startHttpServer, startSandbox, stopAll, workFolder } from "./ts_common.mjs";

const work = workFolder("ts-http");

let sandbox, server;

/** `cdesk mcp --http` against `apiUrl` (ts_common.mjs), stopped with the rest after the tests. */
const startServer = (apiUrl, more = []) => startHttpServer(work, apiUrl, more);

before(async () => {
  ({ ready: sandbox } = await startSandbox(work));
  // No key anywhere in the server's environment: each request acts with its own token's grant.
  server = await startServer(sandbox.url);
});

after(() => {
  stopAll();
  fs.rmSync(work, { recursive: true, force: true });
});

/** A client over Streamable HTTP with a fixed bearer token; `seen` records every answer's status and challenge. */
async function connect(token, seen = [], to = server, headers = {}) {
  const transport = new StreamableHTTPClientTransport(new URL(to.resource), {
    requestInit: { headers: { Authorization: `Bearer ${token}`, ...headers } },
    fetch: async (url, init) => {
      const r = await fetch(url, init);
      seen.push({ status: r.status, challenge: r.headers.get("www-authenticate") });
      return r;
    },
  });
  const client = new Client({ name: "contentdesk-ts-http-test", version: "1.0.0" });
  await client.connect(transport);
  return client;
}

/** A tool result's whole reply (its structuredContent; the text is the short form a model reads). */
function jsonOf(result) {
  assert.ok(result.structuredContent, JSON.stringify(result));
  return result.structuredContent;
}

test("a token granted through the sandbox's OAuth lists the tools and calls get_balance", async () => {
  const granted = await grant({ origin: sandbox.origin, key: sandbox.key, resource: server.resource, untick: ["generate:*"] });
  assert.match(granted.access_token, /^cho_at_/);
  assert.ok(!granted.scope.split(" ").includes("generate:*"), granted.scope);
  const client = await connect(granted.access_token);
  try {
    const { tools } = await client.listTools();
    const names = tools.map((t) => t.name);
    for (const name of ["get_balance", "list_cards", "generate_image"]) assert.ok(names.includes(name), name);
    const balance = await client.callTool({ name: "get_balance", arguments: {} });
    assert.notEqual(balance.isError, true, JSON.stringify(balance));
    assert.equal(typeof jsonOf(balance).balance, "number");
    assert.ok(jsonOf(balance).balance > 0);
    // The grant's scopes hold over HTTP: generate:* was unticked, so a render is a tool error naming it.
    const render = await client.callTool({ name: "generate_image", arguments: { prompt: "a mug" } });
    assert.equal(render.isError, true);
    assert.match(render.content.map((c) => c.text).join(" "), /generate:\*/);
  } finally {
    await client.close();
  }
});

test("after the grant is revoked the next call is a 401 with WWW-Authenticate", async () => {
  const granted = await grant({ origin: sandbox.origin, key: sandbox.key, resource: server.resource });
  const seen = [];
  const client = await connect(granted.access_token, seen);
  try {
    const first = await client.callTool({ name: "get_balance", arguments: {} });
    assert.notEqual(first.isError, true, JSON.stringify(first));
    // The person revokes the app (a refresh token's revocation ends the whole grant, RFC 7009).
    const revoked = await fetch(`${sandbox.origin}/oauth/revoke`, { method: "POST", body: new URLSearchParams({ token: granted.refresh_token }) });
    assert.equal(revoked.status, 200);
    await assert.rejects(client.callTool({ name: "get_balance", arguments: {} }), (e) => {
      assert.equal(e.code, 401, String(e));
      return true;
    });
    const last = seen.at(-1);
    assert.equal(last.status, 401);
    assert.match(last.challenge, /^Bearer /);
    assert.match(last.challenge, /error="invalid_token"/);
    assert.match(last.challenge, new RegExp(`resource_metadata="${server.listening}/\\.well-known/oauth-protected-resource/mcp"`));
  } finally {
    await client.close();
  }
});

test("a server given the sandbox as localhost (bound as 127.0.0.1) serves tokens granted there", async () => {
  // One origin, two spellings: the issuer stays the bound address, the API takes tokens for either.
  const local = sandbox.url.replace("127.0.0.1", "localhost");
  const viaLocalhost = await startServer(local);
  assert.equal(viaLocalhost.issuer, sandbox.origin, "the issuer as the sandbox names itself");
  const granted = await grant({ origin: sandbox.origin.replace("127.0.0.1", "localhost"), key: sandbox.key, resource: viaLocalhost.resource });
  const client = await connect(granted.access_token, [], viaLocalhost);
  try {
    const balance = await client.callTool({ name: "get_balance", arguments: {} });
    assert.notEqual(balance.isError, true, JSON.stringify(balance));
    assert.ok(jsonOf(balance).balance > 0);
  } finally {
    await client.close();
  }
});

test("--read-only --toolsets planner over HTTP: only the planner's read tools, a write refused", async () => {
  const readOnly = await startServer(sandbox.url, ["--read-only", "--toolsets", "planner"]);
  const granted = await grant({ origin: sandbox.origin, key: sandbox.key, resource: readOnly.resource });
  const client = await connect(granted.access_token, [], readOnly);
  try {
    const { tools } = await client.listTools();
    const names = tools.map((t) => t.name);
    assert.ok(names.includes("list_cards") && names.includes("get_card"), names.join(","));
    for (const t of tools) assert.equal(t.annotations?.readOnlyHint, true, t.name);
    for (const gone of ["create_card", "update_card", "get_balance", "list_brand_kits"]) assert.ok(!names.includes(gone), gone);
    await assert.rejects(client.callTool({ name: "create_card", arguments: { title: "Nope", platform: "tiktok" } }), /unknown tool/);
    assert.notEqual((await client.callTool({ name: "list_cards", arguments: { limit: 1 } })).isError, true);
  } finally {
    await client.close();
  }
});

test("a request from a foreign Origin is refused with 403 even with a good token", async () => {
  const granted = await grant({ origin: sandbox.origin, key: sandbox.key, resource: server.resource });
  const seen = [];
  await assert.rejects(connect(granted.access_token, seen, server, { Origin: "http://evil.example" }));
  assert.equal(seen.at(-1).status, 403);
  // Its own origin is served.
  const client = await connect(granted.access_token, [], server, { Origin: server.listening });
  try {
    assert.notEqual((await client.callTool({ name: "get_balance", arguments: {} })).isError, true);
  } finally {
    await client.close();
  }
});
