// First run of an installed app (issue 24.7) in Debian's Chromium (playwright-core): a fresh data folder
// opens on the local sandbox with the practice-space note; "Connect ContentHero" signs in through the
// browser (the loopback flow `cdesk login` uses, `api_client::browser_login`, with the sandbox's consent
// page) or takes a pasted key; each ends on the new profile's board, the new profile selected, and the
// practice space one click away. A refused key keeps what was typed and makes no profile.
//
// The "ContentHero" here is a second sandbox (its own port and database) with a space only it has, so
// its board is told from the local sandbox's. web-shell runs with `--open-urls print`: the core's URL
// opener prints `{"openUrl":…}` instead of starting a system browser, and this test opens that page in
// its own Chromium tab, as the user's browser would. Binaries: SANDBOX_BIN and WEB_SHELL_BIN
// (scripts/ui-e2e.sh), else $CARGO_TARGET_DIR/debug.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { launch } from "./browser.mjs";
import { callCore } from "./webshell.mjs";
import { Processes, freePort, openedUrls, startRemoteSandbox, startWebShell } from "./processes.mjs";

const ARTIFACTS = process.env.E2E_ARTIFACTS ?? fileURLToPath(new URL("../artifacts/browser", import.meta.url));
const work = fs.mkdtempSync(path.join(os.tmpdir(), "contentdesk-first-run-"));
const procs = new Processes();
const REMOTE_SPACE = "Only on ContentHero";
let browser, page, shell, remote, opened;
let pageErrors = [];

const ipc = (command, args) => callCore(shell.origin, shell.token, command, args);

before(async () => {
  fs.mkdirSync(ARTIFACTS, { recursive: true });
  remote = await startRemoteSandbox(procs, {
    db: path.join(work, "remote.db"),
    port: await freePort(),
    log: path.join(ARTIFACTS, "first-run-sandbox.log"),
  });
  const made = await fetch(`${remote.url}/spaces`, {
    method: "POST",
    headers: { authorization: `Bearer ${remote.key}`, "content-type": "application/json" },
    body: JSON.stringify({ name: REMOTE_SPACE }),
  });
  assert.ok(made.ok, await made.text());
  shell = await startWebShell(procs, {
    data: path.join(work, "app"), log: path.join(ARTIFACTS, "first-run-web-shell.log"), args: ["--open-urls", "print"],
  });
  opened = openedUrls(shell.child);
  browser = await launch({ width: 1280, height: 860, tag: "first-run" });
  ({ page, pageErrors } = browser);
  await page.goto(shell.url);
});

after(async () => {
  if (page) fs.writeFileSync(path.join(ARTIFACTS, "first-run-dom.html"), await page.content().catch(() => ""));
  fs.writeFileSync(path.join(ARTIFACTS, "first-run-page-errors.txt"), pageErrors.join("\n") + (pageErrors.length ? "\n" : ""));
  await browser?.close();
  await procs.stopAll();
  fs.rmSync(work, { recursive: true, force: true });
});

/** Opens "Connect ContentHero" from the practice note and points it at the test's service. */
async function openConnect() {
  await page.getByTestId("practice-note").getByRole("button", { name: "Connect ContentHero" }).click();
  const dialog = page.getByRole("dialog", { name: "Connect ContentHero" });
  await dialog.waitFor();
  await dialog.getByText("Another server").click();
  await dialog.getByLabel("Server address").fill(remote.url);
  return dialog;
}

/** The app shows the connected profile's board: selected in the core and the switcher, its own space. */
async function onTheNewBoard(name) {
  await page.getByRole("dialog", { name: "Connect ContentHero" }).waitFor({ state: "detached" });
  await page.getByTestId("profile-kind").getByText("Remote").waitFor();
  await page.getByRole("tab", { name: new RegExp(REMOTE_SPACE) }).waitFor();
  assert.equal(new URL(page.url()).hash, "#/planner");
  const view = await ipc("profiles_list");
  const selected = view.profiles.find((p) => p.id === view.selectedId);
  assert.equal(selected.name, name);
  assert.equal(selected.kind, "remote");
  assert.equal(selected.baseUrl, remote.url);
  assert.equal(selected.hasKey, true);
  const label = await page.getByTestId("profile-switcher").evaluate((s) => s.selectedOptions[0].textContent);
  assert.equal(label, name);
  assert.equal(await page.getByTestId("practice-note").count(), 0, "no practice note on a real profile");
  // The key went to the core's store, never to the page.
  assert.doesNotMatch(await page.content(), /ch_live_/);
}

/** Back to the practice space in one click. */
async function backToSandbox() {
  await page.getByRole("button", { name: "Practice space" }).click();
  await page.getByTestId("profile-kind").getByText("Sandbox (local)").waitFor();
}

test("a fresh install opens on the local sandbox with the practice-space note", async () => {
  await page.getByTestId("profile-kind").getByText("Sandbox (local)").waitFor();
  const note = page.getByTestId("practice-note");
  await note.waitFor();
  assert.equal(await note.innerText().then((t) => t.replace(/\s+/g, " ").replace("×", "").trim()),
    "Practice space: nothing here is posted and credits are not real. Connect ContentHero");
  await page.getByRole("region", { name: /stage/ }).first().waitFor();
  await page.screenshot({ path: path.join(ARTIFACTS, "first-run-note-light.png") });
  await page.emulateMedia({ colorScheme: "dark" });
  await page.screenshot({ path: path.join(ARTIFACTS, "first-run-note-dark.png") });
  await page.emulateMedia({ colorScheme: "light" });
});

test("Connect ContentHero through the browser: the consent page's key becomes the selected profile; its board shows", async () => {
  const dialog = await openConnect();
  await page.screenshot({ path: path.join(ARTIFACTS, "first-run-connect-light.png") });
  await page.emulateMedia({ colorScheme: "dark" });
  await page.screenshot({ path: path.join(ARTIFACTS, "first-run-connect-dark.png") });
  await page.emulateMedia({ colorScheme: "light" });
  await dialog.getByRole("button", { name: "Sign in with your browser" }).click();
  await dialog.getByTestId("connect-waiting").getByText("Waiting for your browser").waitFor();
  // The core asked for the service's consent page to be opened; the user's browser is a tab of this one.
  const url = await opened.next();
  assert.ok(url.startsWith(`${new URL(remote.url).origin}/cli/auth?port=`), url);
  const consent = await browser.context.newPage();
  await consent.goto(url);
  await consent.getByRole("heading", { name: /^Connect cdesk on / }).waitFor();
  await consent.getByRole("button", { name: "Connect" }).click();
  await consent.getByRole("heading", { name: "Connected" }).waitFor();
  assert.match(consent.url(), /\/cli\/auth\/done\?status=connected$/);
  await consent.close();
  await onTheNewBoard("ContentHero");
  await page.screenshot({ path: path.join(ARTIFACTS, "first-run-connected-light.png") });
  await backToSandbox();
  await page.getByTestId("practice-note").waitFor();
});

test("a refused pasted key keeps the text and makes no profile; a good one ends on the new profile's board", async () => {
  const before = (await ipc("profiles_list")).profiles.length;
  const dialog = await openConnect();
  const field = dialog.getByLabel("API key", { exact: true });
  await field.fill("ch_live_not_a_real_key_0000");
  await field.press("Enter");
  const problem = dialog.getByTestId("connect-key-error");
  await problem.waitFor();
  assert.match(await problem.innerText(), /The service refused this key/);
  assert.equal(await field.inputValue(), "ch_live_not_a_real_key_0000");
  assert.equal((await ipc("profiles_list")).profiles.length, before, "a refused key makes no profile");
  await page.getByTestId("profile-kind").getByText("Sandbox (local)").waitFor();
  await page.screenshot({ path: path.join(ARTIFACTS, "first-run-refused-light.png") });

  await field.fill(remote.key);
  await dialog.getByRole("button", { name: "Connect", exact: true }).click();
  await onTheNewBoard("ContentHero 2");
  await backToSandbox();
});

test("the note, once dismissed, stays dismissed after a reload; Connect stays in Settings", async () => {
  await page.getByRole("button", { name: "Dismiss the practice-space note" }).click();
  await page.getByTestId("practice-note").waitFor({ state: "detached" });
  await page.reload();
  await page.getByTestId("profile-kind").getByText("Sandbox (local)").waitFor();
  await page.getByRole("region", { name: /stage/ }).first().waitFor();
  assert.equal(await page.getByTestId("practice-note").count(), 0);
  await page.getByRole("link", { name: "Settings" }).click();
  await page.getByTestId("settings-connect").click();
  await page.getByRole("dialog", { name: "Connect ContentHero" }).waitFor();
  await page.keyboard.press("Escape");
  await page.getByRole("dialog", { name: "Connect ContentHero" }).waitFor({ state: "detached" });
  assert.deepEqual(pageErrors.filter((e) => !/401|Failed to load resource/.test(e)), []);
});
