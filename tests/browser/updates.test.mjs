// Settings → Updates in Debian's Chromium against web-shell (issue 24, point 4), with a real update server
// on loopback serving latest.json (CONTENTDESK_UPDATE_URL, given to this journey's own web-shell): the
// setting "Check for updates when Content Desk starts" is stored by the core; "Check for updates" says up
// to date for an older version, refuses a newer one signed by a key that is not Content Desk's with a short
// note, and with the server down says so; the page stays usable (no page errors). A browser cannot install,
// so no install button shows there. Screenshot: updates-settings.png.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import fs from "node:fs";
import http from "node:http";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { launch } from "./browser.mjs";
import { callCore } from "./webshell.mjs";
import { Processes, startWebShell } from "./processes.mjs";

const ARTIFACTS = process.env.E2E_ARTIFACTS ?? fileURLToPath(new URL("../artifacts/browser", import.meta.url));
const work = fs.mkdtempSync(path.join(os.tmpdir(), "contentdesk-updates-"));
const procs = new Processes();
// A signature by a key that is not Content Desk's (cargo tauri signer generate; its secret half thrown away).
const FOREIGN_SIGNATURE = "dW50cnVzdGVkIGNvbW1lbnQ6IHNpZ25hdHVyZSBmcm9tIHRhdXJpIHNlY3JldCBrZXkKUlVTSzlCZHFEa0l4MWp4WEtZYUk2SlJDUHVZSFVDRTc5dWVmQm9Ic1pxWXlJUzgrV3NmWUw1VEhRMTdEaXlHaVRMK2JLTlNIc2ZEdjRFRU94bFNDNURqNjNmSE1BZDFQb0FJPQp0cnVzdGVkIGNvbW1lbnQ6IHRpbWVzdGFtcDoxNzk1NzkyOTY3CWZpbGU6ZgpMVjhFbVFKTTU1aGoxZVNHZFVIWEkyVVhGWkJ3amljZ1U1aG5TWmQrZW44N2U5U1hZV1Q0RzNoSzhGdEZXSzU3VWVRd0R5Y0piTWZZUEZncU5PSUREUT09Cg==";
let browser, page, shell, server, serverUrl;
let pageErrors = [];
let offered = "0.0.1";

const manifest = () => JSON.stringify({
  version: offered, notes: "The board opens faster.", pub_date: "2026-11-27T12:00:00Z",
  platforms: Object.fromEntries(["linux-x86_64", "linux-aarch64", "darwin-aarch64", "darwin-x86_64", "windows-x86_64"]
    .map((p) => [p, { signature: FOREIGN_SIGNATURE, url: "http://127.0.0.1:9/pkg" }])),
});

before(async () => {
  fs.mkdirSync(ARTIFACTS, { recursive: true });
  server = http.createServer((req, res) => { res.setHeader("content-type", "application/json"); res.end(manifest()); });
  await new Promise((r) => server.listen(0, "127.0.0.1", r));
  serverUrl = `http://127.0.0.1:${server.address().port}/latest.json`;
  process.env.CONTENTDESK_UPDATE_URL = serverUrl;
  shell = await startWebShell(procs, { data: path.join(work, "app"), log: path.join(ARTIFACTS, "updates-web-shell.log") });
  browser = await launch({ width: 1280, height: 900, tag: "updates" });
  ({ page, pageErrors } = browser);
  await page.goto(shell.url);
  await page.getByRole("link", { name: "Settings" }).click();
  await page.getByTestId("updates").waitFor();
});

after(async () => {
  fs.writeFileSync(path.join(ARTIFACTS, "updates-page-errors.txt"), pageErrors.join("\n") + (pageErrors.length ? "\n" : ""));
  await browser?.close();
  await procs.stopAll();
  server?.close();
  fs.rmSync(work, { recursive: true, force: true });
});

test("the check at start is a setting the core stores", async () => {
  const box = page.getByTestId("update-auto");
  await assert.doesNotReject(box.waitFor());
  assert.equal(await box.isChecked(), true);
  await box.uncheck();
  await page.waitForFunction(() => !document.querySelector("[data-testid=update-auto]").disabled);
  const prefs = await callCore(shell.origin, shell.token, "update_prefs", {});
  assert.equal(prefs.autoCheck, false);
  await box.check();
});

test("Check for updates: up to date, another key refused, server down; each a plain line", async () => {
  const status = page.getByTestId("update-status");
  await page.getByTestId("update-check").click();
  await page.waitForFunction(() => document.querySelector("[data-testid=update-status]")?.dataset.state === "upToDate");
  assert.match(await status.innerText(), /^Content Desk \d+\.\d+\.\d+ is up to date\.$/);

  offered = "99.0.0";
  await page.getByTestId("update-check").click();
  await page.getByTestId("update-note").waitFor();
  assert.equal(await page.getByTestId("update-note").innerText(),
    "The update to 99.0.0 is not signed with Content Desk's key, so it was refused. Nothing was changed.");
  assert.equal(await page.getByTestId("update-install").count(), 0, "nothing to install");
  await page.getByTestId("updates").screenshot({ path: path.join(ARTIFACTS, "updates-settings.png") });

  await new Promise((r) => server.close(r));
  server.closeAllConnections?.();
  await page.getByTestId("update-check").click();
  await page.waitForFunction(() => /Could not reach/.test(document.querySelector("[data-testid=update-note]")?.textContent ?? ""));
  assert.equal(await page.getByTestId("update-note").innerText(),
    "Could not reach the update server (no network, or the server is down). Nothing was changed.");
  assert.match(await page.getByTestId("updates").innerText(), /Last checked: (?!never)/);
  await page.screenshot({ path: path.join(ARTIFACTS, "updates-settings-page.png"), fullPage: true });
  assert.deepEqual(pageErrors, []);
});
