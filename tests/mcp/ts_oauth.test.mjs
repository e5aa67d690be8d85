// `cdesk mcp --http` and the sandbox's authorization server checked by the official TypeScript MCP SDK's
// own OAuth client (`OAuthClientProvider` + `StreamableHTTPClientTransport`, discovery from the 401,
// `finishAuth`), as the Python SDK's is in tests/mcp/test_http.py:
// - dynamic client registration (RFC 7591): the SDK registers, the person consents, the SDK calls a tool;
// - a Client ID Metadata Document: the SDK names itself by an https URL (it accepts only https) and does
//   not register; the document is served over real TLS on 127.0.0.1 with a certificate of a throwaway CA
//   made here with `openssl`, and the sandbox trusts that CA (`serve --oauth-fetch-ca`), while a sandbox
//   without it refuses the same document (so the certificate is checked, not skipped);
// - issue 27's three security findings, each refused: token exchange minting a token for a foreign audience
//   (or with no client authentication, or beyond the per-address limit), a foreign `Origin` on /mcp with a
//   good token (403), registration with 1,000 redirect URIs or one 1 MB URI (400, nothing to sign in with).
// Everything real: the sandbox, `cdesk mcp --http`, HTTP(S) on loopback. Run: `bash tests/mcp/run.sh`.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import crypto from "node:crypto";
import { once } from "node:events";
import fs from "node:fs";
import http from "node:http";
import https from "node:https";
import path from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { UnauthorizedError, registerClient, discoverAuthorizationServerMetadata } from "@modelcontextprotocol/sdk/client/auth.js";
import { consent, grant } from "./oauth_flow.mjs";
import { startHttpServer, startSandbox as startDemoSandbox, stopAll, workFolder } from "./ts_common.mjs";

const work = workFolder("ts-oauth");
const CALLBACK = "http://127.0.0.1:53682/callback"; // never listened on: the redirect is read, not followed
const TE = "urn:ietf:params:oauth:grant-type:token-exchange";
const AT = "urn:ietf:params:oauth:token-type:access_token";
const servers = [];

/** A demo sandbox on a fresh database `name`.db; `more`: extra `serve` flags (ts_common.mjs). */
const startSandbox = async (name, more = []) => (await startDemoSandbox(work, { name, more })).ready;

/** `cdesk mcp --http`, the sandbox its API and authorization server; no key (ts_common.mjs). */
const startServer = (sb, more = []) => startHttpServer(work, sb.url, more);

/** Listens on a free loopback port; answers the server's origin. */
async function listen(server) {
  servers.push(server);
  await new Promise((resolve) => server.listen(0, "127.0.0.1", resolve));
  return server.address().port;
}

/** A throwaway certificate authority and a certificate it signed for 127.0.0.1 (files in `dir`). */
function testCertificates(dir) {
  const run = (...args) => execFileSync("openssl", args, { cwd: dir, stdio: ["ignore", "ignore", "pipe"] });
  const ec = ["-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes"];
  run("req", "-x509", ...ec, "-keyout", "ca.key", "-out", "ca.pem", "-days", "1", "-subj", "/CN=cdesk test CA",
    "-addext", "basicConstraints=critical,CA:TRUE", "-addext", "keyUsage=critical,keyCertSign,cRLSign");
  run("req", ...ec, "-keyout", "leaf.key", "-out", "leaf.csr", "-subj", "/CN=127.0.0.1");
  fs.writeFileSync(path.join(dir, "leaf.ext"),
    "subjectAltName=IP:127.0.0.1\nbasicConstraints=critical,CA:FALSE\nkeyUsage=critical,digitalSignature\nextendedKeyUsage=serverAuth\n");
  run("x509", "-req", "-in", "leaf.csr", "-CA", "ca.pem", "-CAkey", "ca.key", "-CAcreateserial", "-out", "leaf.pem", "-days", "1", "-extfile", "leaf.ext");
  const read = (f) => fs.readFileSync(path.join(dir, f));
  return { caFile: path.join(dir, "ca.pem"), ca: read("ca.pem"), key: read("leaf.key"), cert: read("leaf.pem") };
}

/**
 * The app's side of the SDK's OAuth client, in memory. The person's part (the consent page, signed in with
 * the account key) runs when the SDK redirects; the code is kept for `finishAuth`.
 */
class Provider {
  constructor({ key, name, clientMetadataUrl }) {
    this.key = key;
    this.name = name;
    this.clientMetadataUrl = clientMetadataUrl;
    this.saved = {};
    this.code = null;
  }
  get redirectUrl() { return CALLBACK; }
  get clientMetadata() {
    return { client_name: this.name, redirect_uris: [CALLBACK], grant_types: ["authorization_code", "refresh_token"], response_types: ["code"], token_endpoint_auth_method: "none" };
  }
  clientInformation() { return this.saved.client; }
  saveClientInformation(c) { this.saved.client = c; }
  tokens() { return this.saved.tokens; }
  saveTokens(t) { this.saved.tokens = t; }
  saveCodeVerifier(v) { this.saved.verifier = v; }
  codeVerifier() { return this.saved.verifier; }
  async redirectToAuthorization(url) { this.code = await consent(url.href, this.key); }
}

/** The SDK's whole sign-in: a 401, discovery, (registration,) consent, `finishAuth`, then a connected client. */
async function signIn(provider, server) {
  const url = new URL(server.resource);
  const first = new StreamableHTTPClientTransport(url, { authProvider: provider });
  await assert.rejects(new Client({ name: "ts-oauth", version: "1.0.0" }).connect(first), UnauthorizedError);
  assert.ok(provider.code, "the SDK sent the person to the consent page");
  await first.finishAuth(provider.code);
  const client = new Client({ name: "ts-oauth", version: "1.0.0" });
  await client.connect(new StreamableHTTPClientTransport(url, { authProvider: provider }));
  return client;
}

async function grantsOf(sb) {
  const r = await fetch(`${sb.url}/oauth/grants`, { headers: { Authorization: `Bearer ${sb.key}` } });
  assert.equal(r.status, 200);
  return r.json();
}

let sandbox, server;

before(async () => {
  sandbox = await startSandbox("main", ["--oauth-rate-limit", "0"]);
  server = await startServer(sandbox);
});

after(() => {
  stopAll();
  for (const s of servers) s.close();
  fs.rmSync(work, { recursive: true, force: true });
});

test("the SDK's OAuth client registers, the person consents, and it calls a tool with the token", async () => {
  const provider = new Provider({ key: sandbox.key, name: "TS SDK registered agent" });
  const client = await signIn(provider, server);
  try {
    assert.match(provider.saved.client.client_id, /^(?!https?:)/, "a registered id, not a URL");
    assert.match(provider.saved.tokens.access_token, /^cho_at_/);
    const balance = await client.callTool({ name: "get_balance", arguments: {} });
    assert.notEqual(balance.isError, true, JSON.stringify(balance));
    assert.ok(balance.structuredContent.balance > 0);
  } finally {
    await client.close();
  }
  assert.ok((await grantsOf(sandbox)).some((g) => g.clientName === "TS SDK registered agent"), "the person sees the grant by the app's name");
});

test("the SDK's OAuth client signs in by a Client ID Metadata Document served over https on loopback", async () => {
  const certs = testCertificates(fs.mkdtempSync(path.join(work, "tls-")));
  const fetched = [];
  const tlsRefusals = [];
  let docUrl;
  const docServer = https.createServer({ key: certs.key, cert: certs.cert }, (req, res) => {
    fetched.push(req.url);
    if (req.url !== "/client.json") return res.writeHead(404).end();
    res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify({
      client_id: docUrl, client_name: "TS CIMD agent", redirect_uris: [CALLBACK],
      grant_types: ["authorization_code", "refresh_token"], response_types: ["code"], token_endpoint_auth_method: "none",
    }));
  });
  docServer.on("tlsClientError", (e) => tlsRefusals.push(String(e)));
  const port = await listen(docServer);
  docUrl = `https://127.0.0.1:${port}/client.json`;
  // The document is really served over TLS under the test CA (node checks the chain here with it).
  const viaTls = await new Promise((resolve, reject) => https.get(docUrl, { ca: certs.ca }, (r) => resolve(r.statusCode)).on("error", reject));
  assert.equal(viaTls, 200);
  fetched.length = 0;

  const trusting = await startSandbox("cimd", ["--oauth-rate-limit", "0", "--oauth-fetch-ca", certs.caFile]);
  const meta = await discoverAuthorizationServerMetadata(new URL(trusting.origin));
  assert.equal(meta.client_id_metadata_document_supported, true);
  const mcp = await startServer(trusting);
  const provider = new Provider({ key: trusting.key, name: "unused: the document names the app", clientMetadataUrl: docUrl });
  const client = await signIn(provider, mcp);
  try {
    assert.equal(provider.saved.client.client_id, docUrl, "the document's URL is the client id: no registration");
    const balance = await client.callTool({ name: "get_balance", arguments: {} });
    assert.notEqual(balance.isError, true, JSON.stringify(balance));
  } finally {
    await client.close();
  }
  assert.ok(fetched.length > 0 && fetched.every((p) => p === "/client.json"), `the sandbox read the document: ${fetched}`);
  assert.deepEqual((await grantsOf(trusting)).map((g) => g.clientName), ["TS CIMD agent"], "named as the document says");

  // A sandbox that does not trust the test CA refuses the same document: the certificate is checked.
  const other = await startSandbox("cimd-untrusting", ["--oauth-rate-limit", "0"]);
  const otherMcp = await startServer(other);
  const refused = new Provider({ key: other.key, name: "x", clientMetadataUrl: docUrl });
  const transport = new StreamableHTTPClientTransport(new URL(otherMcp.resource), { authProvider: refused });
  fetched.length = 0;
  const refusedTls = once(docServer, "tlsClientError");
  await assert.rejects(new Client({ name: "ts-oauth", version: "1.0.0" }).connect(transport), /metadata document could not be read/);
  await refusedTls;
  assert.equal(refused.code, null, "no code without a readable document");
  assert.deepEqual(fetched, [], "nothing was read over an untrusted connection");
  assert.ok(tlsRefusals.some((e) => /unknown ca|bad certificate/i.test(e)), `the sandbox refused the certificate: ${tlsRefusals}`);
  assert.equal(tlsRefusals.length, 1, `the trusting sandbox's handshakes all passed: ${tlsRefusals}`);
});

/** A resource server of the test's own, registered as a token-exchange client (the proof in its metadata). */
async function ownResourceServer(sb) {
  const proof = crypto.randomBytes(24).toString("base64url");
  let resource;
  const port = await listen(http.createServer((req, res) => {
    if (req.url !== "/.well-known/oauth-protected-resource/mcp") return res.writeHead(404).end();
    res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify({
      resource, authorization_servers: [sb.origin],
      contentdesk_registration_proof: crypto.createHash("sha256").update(proof).digest("base64url"),
    }));
  }));
  resource = `http://127.0.0.1:${port}/mcp`;
  const r = await fetch(`${sb.origin}/oauth/register`, {
    method: "POST", headers: { "content-type": "application/json" },
    body: JSON.stringify({ client_name: "ts rs", grant_types: [TE], token_endpoint_auth_method: "client_secret_basic", resource, resource_proof: proof }),
  });
  const reg = await r.json();
  assert.equal(r.status, 201, JSON.stringify(reg));
  return { resource, id: reg.client_id, secret: reg.client_secret };
}

async function exchange(sb, subject, target, who = null) {
  const headers = {};
  if (who) headers.Authorization = `Basic ${Buffer.from(`${who.id}:${who.secret}`).toString("base64")}`;
  const r = await fetch(`${sb.origin}/oauth/token`, {
    method: "POST", headers,
    body: new URLSearchParams({ grant_type: TE, subject_token: subject, subject_token_type: AT, resource: target }),
  });
  return { status: r.status, body: await r.json() };
}

test("finding 1: token exchange mints only for the API, only for an authenticated client, within the limit", async () => {
  // An MCP-audience token, as an agent holds it after signing in to `cdesk mcp --http`.
  const mcpToken = (await grant({ origin: sandbox.origin, key: sandbox.key, resource: server.resource })).access_token;
  for (const target of ["https://rs.evil.example/", sandbox.url]) {
    const { status, body } = await exchange(sandbox, mcpToken, target);
    assert.deepEqual([status, body.error], [401, "invalid_client"], `no client authentication, ${target}: ${JSON.stringify(body)}`);
    assert.equal(body.access_token, undefined);
  }
  const rs = await ownResourceServer(sandbox);
  const own = (await grant({ origin: sandbox.origin, key: sandbox.key, resource: rs.resource })).access_token;
  for (const target of ["https://rs.evil.example/", server.resource, `${sandbox.origin}/other`]) {
    const { status, body } = await exchange(sandbox, own, target, rs);
    assert.deepEqual([status, body.error], [400, "invalid_target"], `${target}: ${JSON.stringify(body)}`);
  }
  // Another resource server's token (the MCP server's) is not this client's to exchange.
  const { status: s2, body: e2 } = await exchange(sandbox, mcpToken, sandbox.url, rs);
  assert.deepEqual([s2, e2.error], [400, "invalid_grant"], JSON.stringify(e2));
  // The API itself, with the client's own token: the one exchange there is, and the token works.
  const { status, body } = await exchange(sandbox, own, sandbox.url, rs);
  assert.equal(status, 200, JSON.stringify(body));
  assert.equal((await fetch(`${sandbox.url}/account/balance`, { headers: { Authorization: `Bearer ${body.access_token}` } })).status, 200);

  // Counted in the per-address limit of the OAuth endpoints.
  const limited = await startSandbox("limited", ["--oauth-rate-limit", "8"]);
  const lrs = await ownResourceServer(limited);
  const ltoken = (await grant({ origin: limited.origin, key: limited.key, resource: lrs.resource })).access_token;
  const statuses = [];
  for (let i = 0; i < 10; i++) statuses.push((await exchange(limited, ltoken, limited.url, lrs)).status);
  assert.ok(statuses.includes(200) && statuses.at(-1) === 429, `exchanges then the limit: ${statuses}`);
});

test("finding 2: /mcp answers a foreign Origin with 403 before the token is looked at", async () => {
  const token = (await grant({ origin: sandbox.origin, key: sandbox.key, resource: server.resource })).access_token;
  const init = { jsonrpc: "2.0", id: 1, method: "initialize", params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "t", version: "1" } } };
  const post = (headers) => fetch(server.resource, {
    method: "POST", body: JSON.stringify(init),
    headers: { Authorization: `Bearer ${token}`, "content-type": "application/json", Accept: "application/json, text/event-stream", ...headers },
  });
  for (const foreign of ["http://evil.example", "null", server.listening.replace("127.0.0.1", "localhost")]) {
    const r = await post({ Origin: foreign });
    assert.equal(r.status, 403, foreign);
    assert.match((await r.json()).error.message, /--allow-origin/);
  }
  assert.equal((await post({ Origin: server.listening })).status, 200, "its own origin");
  assert.equal((await post({})).status, 200, "no Origin (not a browser)");
  // And through the SDK's transport: the same refusal surfaces as a failed connect.
  const seen = [];
  const transport = new StreamableHTTPClientTransport(new URL(server.resource), {
    requestInit: { headers: { Authorization: `Bearer ${token}`, Origin: "http://evil.example" } },
    fetch: async (u, i) => { const r = await fetch(u, i); seen.push(r.status); return r; },
  });
  await assert.rejects(new Client({ name: "ts-oauth", version: "1.0.0" }).connect(transport));
  assert.deepEqual(seen, [403]);
});

test("finding 3: registration through the SDK is bounded: 1,000 redirect URIs or one 1 MB URI are refused", async () => {
  const metadata = await discoverAuthorizationServerMetadata(new URL(sandbox.origin));
  const statuses = [];
  const fetchFn = async (u, i) => { const r = await fetch(u, i); statuses.push(r.status); return r; };
  const base = { client_name: "greedy", grant_types: ["authorization_code"], response_types: ["code"], token_endpoint_auth_method: "none" };
  const many = Array.from({ length: 1000 }, (_, i) => `http://127.0.0.1:3000/cb${i}`);
  const huge = `https://app.example/${"a".repeat(1 << 20)}`;
  for (const [uris, says] of [[many, /at most 10/], [[CALLBACK, `https://app.example/${"a".repeat(3000)}`], /at most 2048/], [[huge], /larger than 32768 bytes/]]) {
    await assert.rejects(registerClient(new URL(sandbox.origin), { metadata, clientMetadata: { ...base, redirect_uris: uris }, fetchFn }), says);
    assert.equal(statuses.at(-1), 400);
  }
  // The bounds themselves register, and nobody can sign in with a refused registration.
  const fine = await registerClient(new URL(sandbox.origin), { metadata, clientMetadata: { ...base, redirect_uris: many.slice(0, 10) }, fetchFn });
  assert.ok(fine.client_id);
  assert.deepEqual(fine.redirect_uris, many.slice(0, 10));
});
