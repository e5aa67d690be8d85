// Browser journey: the whole app in Debian's Chromium (playwright-core) against web-shell and a second
// sandbox playing the remote service. Started by scripts/ui-e2e.sh, which passes:
//   WEB_SHELL_URL (with ?token=), REMOTE_URL, REMOTE_KEY_NO_BRANDKIT (a key lacking brandkit:read),
//   E2E_ARTIFACTS (screenshots, every /ipc reply, the final DOM, for the leak check).
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { launch } from "./browser.mjs";

const { WEB_SHELL_URL, REMOTE_URL, REMOTE_KEY_NO_BRANDKIT } = process.env;
const ARTIFACTS = process.env.E2E_ARTIFACTS ?? fileURLToPath(new URL("../artifacts/browser", import.meta.url));
for (const [k, v] of Object.entries({ WEB_SHELL_URL, REMOTE_URL, REMOTE_KEY_NO_BRANDKIT })) {
  if (!v) throw new Error(`${k} is not set: run scripts/ui-e2e.sh`);
}

let browser, context, page;
const replies = [];
let pageErrors = [];

before(async () => {
  fs.mkdirSync(ARTIFACTS, { recursive: true });
  browser = await launch({ width: 1280, height: 800, tag: "journey" });
  ({ context, page, pageErrors } = browser);
  page.on("response", async (res) => {
    if (!res.url().includes("/ipc/")) return;
    try { replies.push({ url: new URL(res.url()).pathname, status: res.status(), body: await res.text() }); } catch { /* page closed */ }
  });
});

after(async () => {
  if (page) fs.writeFileSync(path.join(ARTIFACTS, "dom.html"), await page.content());
  fs.writeFileSync(path.join(ARTIFACTS, "ipc-replies.jsonl"), replies.map((r) => JSON.stringify(r)).join("\n") + "\n");
  fs.writeFileSync(path.join(ARTIFACTS, "page-errors.txt"), pageErrors.join("\n") + (pageErrors.length ? "\n" : ""));
  await browser?.close();
});

test("first launch shows the local sandbox's demo space and balance", async () => {
  await page.goto(WEB_SHELL_URL);
  await page.getByRole("tab", { name: /Content plan/ }).waitFor();
  await page.getByTestId("balance").waitFor();
  assert.match(await page.getByTestId("balance").innerText(), /credits/);
  await page.getByRole("region", { name: /Ideas stage|stage/ }).first().waitFor();
  assert.ok(!page.url().includes("token="), "the token is taken out of the visible URL");
  assert.match(await page.getByTestId("profile-switcher").inputValue(), /.+/);
  assert.equal(await page.getByTestId("profile-kind").innerText(), "Sandbox (local)");
  assert.equal(await page.getByRole("link", { name: "Planner" }).getAttribute("aria-current"), "page");
  await page.screenshot({ path: path.join(ARTIFACTS, "first-launch.png") });
});

test("a remote profile whose key lacks a scope: the screen names the scope", async () => {
  // Keyboard navigation: the Settings link by Enter, and aria-current follows.
  await page.getByRole("link", { name: "Settings" }).focus();
  await page.keyboard.press("Enter");
  await page.getByRole("heading", { level: 1, name: "Settings" }).waitFor();
  assert.equal(await page.getByRole("link", { name: "Settings" }).getAttribute("aria-current"), "page");
  await page.screenshot({ path: path.join(ARTIFACTS, "settings.png"), fullPage: true });
  await page.getByLabel("Name").fill("Remote studio");
  await page.getByLabel("Base URL").fill(REMOTE_URL);
  await page.getByLabel(/^API key/).fill(REMOTE_KEY_NO_BRANDKIT);
  await page.getByLabel(/^API key/).press("Enter");
  await page.getByText(/Added “Remote studio”; the key works/).waitFor();
  assert.equal(await page.locator("#new-key").inputValue(), "", "the key field is cleared");
  const card = page.getByTestId("profile-Remote studio");
  assert.match(await card.getByTestId("key-status").innerText(), /Key (stored in the OS keyring|kept in memory)/);

  await page.getByTestId("profile-switcher").selectOption({ label: "Remote studio" });
  await page.getByTestId("profile-kind").getByText("Remote").waitFor();
  await page.getByRole("link", { name: "Brand kit" }).click();
  const err = page.getByTestId("brand-kit-error");
  await err.waitFor();
  const text = await err.innerText();
  assert.match(text, /Missing scope: brandkit:read/);
  assert.match(text, /lacks the scope brandkit:read/);
  await page.screenshot({ path: path.join(ARTIFACTS, "missing-scope.png") });

  // The planner still works on that profile (reads need no scope).
  await page.getByRole("link", { name: "Planner" }).click();
  await page.getByRole("tab", { name: /Content plan/ }).waitFor();
  await page.getByTestId("balance").waitFor();
});

test("a wrong key is refused, nothing is stored, and the message says what to do", async () => {
  await page.getByRole("link", { name: "Settings" }).click();
  const card = page.getByTestId("profile-Remote studio");
  await card.getByLabel(/Replace the API key/).fill("ch_live_wrongwrongwrongwrongwrong0000");
  await card.getByRole("button", { name: "Check and save key" }).click();
  const err = card.getByTestId("profile-error");
  await err.waitFor();
  assert.match(await err.innerText(), /The key was refused/);
  assert.equal(await card.getByLabel(/Replace the API key/).inputValue(), "");
});

test("sign out asks first, then deletes the key", async () => {
  const card = page.getByTestId("profile-Remote studio");
  await card.getByRole("button", { name: "Sign out" }).click();
  const dialog = page.getByRole("alertdialog");
  await dialog.waitFor();
  await dialog.getByRole("button", { name: "Cancel" }).click();
  assert.match(await card.getByTestId("key-status").innerText(), /Key/);
  await card.getByRole("button", { name: "Sign out" }).click();
  await page.getByRole("alertdialog").getByRole("button", { name: "Sign out" }).click();
  await card.getByText("No key").waitFor();
  await page.screenshot({ path: path.join(ARTIFACTS, "signed-out.png") });
});

test("remove asks first, naming the profile; the sandbox profile cannot be removed", async () => {
  const card = page.getByTestId("profile-Remote studio");
  await card.getByRole("button", { name: "Remove" }).click();
  const dialog = page.getByRole("alertdialog");
  assert.match(await dialog.innerText(), /Remove “Remote studio”\?/);
  await dialog.getByRole("button", { name: "Remove profile" }).click();
  await card.waitFor({ state: "detached" });
  assert.equal(await page.getByTestId("profile-Sandbox").getByRole("button", { name: "Remove" }).count(), 0);
  assert.equal(await page.getByTestId("profile-kind").innerText(), "Sandbox (local)");
});

test("no page errors (CSP violations, uncaught exceptions)", () => {
  // Chromium logs every non-2xx answer; the IpcError replies above (401, 403) are expected ones.
  assert.deepEqual(pageErrors.filter((e) => !/^Failed to load resource: the server responded with a status of 4\d\d/.test(e)), []);
});
