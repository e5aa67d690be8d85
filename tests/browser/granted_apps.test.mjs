// Settings → Granted apps in Debian's Chromium (playwright-core), against a real sandbox as the service and
// its authorization server (issue 15's open end): an app granted access through the sandbox's OAuth
// (registration, the consent form signed in with the account's key, one scope unticked, PKCE, token:
// tests/mcp/oauth_flow.mjs, as `cdesk mcp --http`'s clients do) is listed under the profile with its scopes
// in words, Revoke asks first (Escape cancels and the app keeps working), confirming removes it, it stays
// gone after a reload, and its token is refused by the API at once. This journey starts its own sandbox and
// web-shell. Binaries: SANDBOX_BIN and WEB_SHELL_BIN (scripts/ui-e2e.sh), else $CARGO_TARGET_DIR/debug.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { launch } from "./browser.mjs";
import { callCore } from "./webshell.mjs";
import { Processes, freePort, startRemoteSandbox, startWebShell } from "./processes.mjs";
import { grant } from "../mcp/oauth_flow.mjs";

const ARTIFACTS = process.env.E2E_ARTIFACTS ?? fileURLToPath(new URL("../artifacts/browser", import.meta.url));
const work = fs.mkdtempSync(path.join(os.tmpdir(), "contentdesk-granted-apps-"));
const procs = new Processes();
const PROFILE = "Granted apps remote";
let browser, page, shell, remote;
let pageErrors = [];

const ipc = (command, args) => callCore(shell.origin, shell.token, command, args);

/** The status of a balance read with `token` straight at the sandbox's API (not through this app). */
async function balanceWith(token) {
  const r = await fetch(`${remote.url}/account/balance`, { headers: { authorization: `Bearer ${token}` } });
  return r.status;
}

before(async () => {
  fs.mkdirSync(ARTIFACTS, { recursive: true });
  remote = await startRemoteSandbox(procs, {
    db: path.join(work, "remote.db"),
    port: await freePort(),
    log: path.join(ARTIFACTS, "granted-apps-sandbox.log"),
  });
  shell = await startWebShell(procs, { data: path.join(work, "app"), log: path.join(ARTIFACTS, "granted-apps-web-shell.log") });
  const profile = await ipc("profile_add", { name: PROFILE, baseUrl: remote.url });
  await ipc("profile_select", { profileId: profile.id });
  await ipc("key_set", { profileId: profile.id, key: remote.key });
  browser = await launch({ width: 1280, height: 900, tag: "granted-apps" });
  ({ page, pageErrors } = browser);
  await page.goto(shell.url);
  await page.getByRole("link", { name: "Settings" }).waitFor();
});

after(async () => {
  if (page) fs.writeFileSync(path.join(ARTIFACTS, "granted-apps-dom.html"), await page.content().catch(() => ""));
  fs.writeFileSync(path.join(ARTIFACTS, "granted-apps-page-errors.txt"), pageErrors.join("\n") + (pageErrors.length ? "\n" : ""));
  await browser?.close();
  await procs.stopAll();
  fs.rmSync(work, { recursive: true, force: true });
});

async function openGrantedApps() {
  await page.getByRole("link", { name: "Settings" }).click();
  await page.getByRole("heading", { level: 1, name: "Settings" }).waitFor();
  const card = page.getByTestId(`profile-${PROFILE}`);
  await card.getByRole("button", { name: "Granted apps" }).click();
  await card.getByRole("heading", { name: `Apps with access to ${PROFILE}` }).waitFor();
  return card;
}

test("an app granted through the sandbox's OAuth is listed with its scopes in words, revoked after a confirmation, and its token refused", async () => {
  const origin = new URL(remote.url).origin;
  const app = await grant({
    origin, key: remote.key, resource: remote.url, clientName: "Team agent",
    scopes: ["planner:write", "brandkit:read", "generate:*"], untick: ["generate:*"],
  });
  assert.equal(app.scope, "brandkit:read planner:write");
  assert.equal(await balanceWith(app.access_token), 200, "the app works before");

  const card = await openGrantedApps();
  const row = card.getByTestId("granted-app").filter({ hasText: "Team agent" });
  await row.waitFor();
  const scopes = row.getByTestId("granted-scope");
  assert.deepEqual(await scopes.evaluateAll((els) => els.map((e) => e.firstChild.textContent.trim())), [
    "Read your brand kits, their knowledge and your inspiration",
    "Create and change spaces, stages, cards and tags",
  ]);
  assert.deepEqual(await scopes.evaluateAll((els) => els.map((e) => e.title)), ["brandkit:read", "planner:write"]);
  assert.doesNotMatch(await row.innerText(), /Spend credits|generate:\*/, "the unticked scope was not granted");
  assert.match(await row.innerText(), /last used/);
  await page.screenshot({ path: path.join(ARTIFACTS, "granted-apps-listed.png") });

  // Revoke asks first; Escape cancels, and the app keeps working.
  const revoke = row.getByRole("button", { name: "Revoke Team agent" });
  await revoke.click();
  const dialog = page.getByRole("alertdialog");
  await dialog.waitFor();
  assert.match(await dialog.innerText(), /Revoke “Team agent”\?/);
  await page.screenshot({ path: path.join(ARTIFACTS, "granted-apps-confirm.png") });
  await page.keyboard.press("Escape");
  await dialog.waitFor({ state: "detached" });
  assert.equal(await balanceWith(app.access_token), 200, "cancelled: nothing revoked");

  // By keyboard this time: focus Revoke, Enter, then the dialog's Revoke access.
  await revoke.focus();
  await page.keyboard.press("Enter");
  await dialog.getByRole("button", { name: "Revoke access" }).click();
  await card.getByText("Revoked “Team agent”: its access stopped.").waitFor();
  await row.waitFor({ state: "detached" });
  assert.equal(await balanceWith(app.access_token), 401, "the app's token is refused at once");
  const left = await fetch(`${remote.url}/oauth/grants`, { headers: { authorization: `Bearer ${remote.key}` } });
  assert.deepEqual(await left.json(), [], "the service lists no grant");
  // Its refresh token cannot bring it back.
  const refreshed = await fetch(`${origin}/oauth/token`, {
    method: "POST", body: new URLSearchParams({ grant_type: "refresh_token", refresh_token: app.refresh_token }),
  });
  assert.equal(refreshed.status, 400);

  // After a reload, still gone.
  await page.reload();
  const again = await openGrantedApps();
  await again.getByText(/No app has access/).waitFor();
  await page.screenshot({ path: path.join(ARTIFACTS, "granted-apps-revoked.png") });
  assert.deepEqual(pageErrors, []);
});
