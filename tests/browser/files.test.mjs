// Uploaded files opened in Debian's Chromium (playwright-core): an SVG with a script, uploaded to a sandbox
// and opened at its `/files/…` URL, runs no script (issue 12 point 5). The sandbox serves every file with
// `X-Content-Type-Options: nosniff` and `Content-Security-Policy: sandbox`, and an SVG as an attachment;
// without those headers Chromium renders the SVG as a document on the sandbox's origin and its script
// fetches `/svg-script-ran` there, which this journey watches for. The same file in an `<img>` still shows.
// Starts its own sandbox (SANDBOX_BIN, scripts/ui-e2e.sh; else $CARGO_TARGET_DIR/debug).
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { launch } from "./browser.mjs";
import { Processes, SANDBOX_BIN, SANDBOX_READY } from "./processes.mjs";

const ARTIFACTS = process.env.E2E_ARTIFACTS ?? fileURLToPath(new URL("../artifacts/browser", import.meta.url));
const MARKER = "/svg-script-ran";
const SCRIPTED_SVG = `<svg xmlns="http://www.w3.org/2000/svg" width="40" height="40">
<script>fetch("${MARKER}?from=" + encodeURIComponent(location.href)); document.title = "script ran";</script>
<rect width="40" height="40" fill="#c33"/></svg>`;

const work = fs.mkdtempSync(path.join(os.tmpdir(), "contentdesk-files-"));
const procs = new Processes();
let base, key, browser;

/** The sandbox's API with the demo key; throws on a non-2xx answer. */
async function api(method, route, body) {
  const res = await fetch(`${base}${route}`, {
    method,
    headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const json = await res.json();
  if (!res.ok) throw new Error(`${method} ${route}: ${res.status} ${JSON.stringify(json)}`);
  return json;
}

/** Ticket, PUT, complete: the served URL. */
async function upload(fileName, contentType, bytes) {
  const ticket = await api("POST", "/media/uploads", { fileName, contentType, sizeBytes: bytes.length });
  const put = await fetch(ticket.uploadUrl, { method: "PUT", headers: ticket.uploadHeaders, body: bytes });
  assert.equal(put.status, 200, await put.text());
  return (await api("POST", `/media/uploads/${ticket.outputId}/complete`, {})).url;
}

before(async () => {
  fs.mkdirSync(ARTIFACTS, { recursive: true });
  const { matches } = await procs.start(
    SANDBOX_BIN,
    ["serve", "--db", path.join(work, "files.db"), "--addr", "127.0.0.1:0", "--seed", "demo"],
    SANDBOX_READY,
    path.join(ARTIFACTS, "files-sandbox.log"),
  );
  [base, key] = matches;
  browser = await launch({ tag: "files" });
});

after(async () => {
  await browser?.close();
  await procs.stopAll();
  fs.rmSync(work, { recursive: true, force: true });
});

test("an uploaded SVG with a script runs no script when opened, and still shows as an image", async () => {
  const url = await upload("logo.svg", "image/svg+xml", Buffer.from(SCRIPTED_SVG));
  const { context, page } = browser;
  const ran = [];
  context.on("request", (r) => { if (new URL(r.url()).pathname === MARKER) ran.push(r.url()); });

  // Opened on its own (a link followed, the URL pasted): a download, never a document on the sandbox's origin.
  const download = page.waitForEvent("download", { timeout: 5_000 }).catch(() => null);
  await page.goto(url, { waitUntil: "load", timeout: 10_000 }).catch(() => undefined);
  const downloaded = await download;
  await page.waitForTimeout(500);
  assert.notEqual(await page.title(), "script ran");
  assert.ok(downloaded, "opening the SVG downloads it (Content-Disposition: attachment)");

  // In a frame of another page: the same.
  await page.setContent(`<iframe src="${url}" width="60" height="60"></iframe>`);
  await page.waitForTimeout(1_000);

  // As an image it is shown (images never run script).
  await page.setContent(`<img id="logo" src="${url}">`);
  const width = await page.locator("#logo").evaluate(async (img) => {
    if (!img.complete) await new Promise((r) => { img.onload = r; img.onerror = r; });
    return img.naturalWidth;
  });
  assert.equal(width, 40, "the SVG shows in an <img>");

  assert.deepEqual(ran, [], `the SVG's script ran: ${ran.join(", ")}`);
});
