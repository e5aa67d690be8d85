// Settings › Backup (issue 28 point 6) in Debian's Chromium: a web-shell on a fresh data folder gets a
// profile, an update setting, posting-queue slots and UI preferences (the Dark theme chosen in Settings, a
// calendar zone); its backup is saved from Settings; a second web-shell on an empty folder restores it
// from Settings after a confirm (the theme comes back at once), and once started again holds the same
// profiles, settings and queue slots, and its page the same UI preferences. Two web-shells of its own
// (processes.mjs), so it depends on no other journey. Screenshots io-backup-*-{light,dark}.png.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { launch } from "./browser.mjs";
import { Processes, startWebShell } from "./processes.mjs";
import { callCore } from "./webshell.mjs";

const ARTIFACTS = process.env.E2E_ARTIFACTS ?? new URL("../artifacts/browser", import.meta.url).pathname;
const work = fs.mkdtempSync(path.join(os.tmpdir(), "contentdesk-io-backup-"));
const procs = new Processes();
let browser, page, pageErrors = [];
const refusedUrls = [];

before(async () => {
  fs.mkdirSync(ARTIFACTS, { recursive: true });
  browser = await launch({ width: 1280, height: 900, tag: "io-backup" });
  ({ page, pageErrors } = browser);
  page.on("response", (r) => { if (r.status() >= 400) refusedUrls.push(new URL(r.url()).pathname); });
});

after(async () => {
  if (page) fs.writeFileSync(path.join(ARTIFACTS, "io-backup-dom.html"), await page.content().catch(() => ""));
  fs.writeFileSync(path.join(ARTIFACTS, "io-backup-page-errors.txt"), pageErrors.join("\n") + (pageErrors.length ? "\n" : ""));
  await browser?.close();
  await procs.stopAll();
  fs.rmSync(work, { recursive: true, force: true });
});

const shell = (data, tag) => startWebShell(procs, { data: path.join(work, data), log: path.join(ARTIFACTS, `io-backup-${tag}.log`) });
const ipcOf = (s) => (command, args) => callCore(s.origin, s.token, command, args);

const shoot = async (name) => {
  for (const theme of ["light", "dark"]) {
    await page.emulateMedia({ colorScheme: theme });
    await page.waitForTimeout(150);
    await page.screenshot({ path: path.join(ARTIFACTS, `io-backup-${name}-${theme}.png`), fullPage: true });
  }
  await page.emulateMedia({ colorScheme: "light" });
};

/** What the settings are, as the core reads them. */
async function settingsOf(ipc) {
  const { profiles } = await ipc("profiles_list");
  return {
    // The local sandbox's address is where this run's web-shell serves it, not a setting.
    profiles: profiles.map((p) => ({ id: p.id, name: p.name, kind: p.kind, baseUrl: p.kind === "sandbox" ? "(this run's sandbox)" : p.baseUrl }))
      .sort((a, b) => a.name.localeCompare(b.name)),
    autoCheck: (await ipc("update_prefs")).autoCheck,
    queue: await ipc("queue_slots_get"),
  };
}

test("backup from Settings, then restore in an empty data folder: the same settings and UI preferences", async () => {
  const a = await shell("a", "a");
  const ipcA = ipcOf(a);
  await page.goto(a.url);
  await page.getByRole("tab", { name: /Content plan/ }).waitFor();
  await ipcA("profile_add", { name: "Agency", baseUrl: "https://api.agency.example/api/v1" });
  await ipcA("update_prefs_set", { autoCheck: false });
  const [account] = await ipcA("connected_accounts_list");
  assert.ok(account, "the demo has a connected account");
  await ipcA("queue_slots_set", { slots: [{ accountId: account.id, weekday: 2, time: "08:15" }, { accountId: account.id, weekday: 4, time: "17:30" }], clashMinutes: 45 });
  const settings = await settingsOf(ipcA);

  // UI preferences: the theme chosen in Settings, the calendar's zone.
  await page.evaluate(() => localStorage.setItem("contentdesk.calendar.zone", "Europe/Paris"));
  await page.goto(`${a.origin}/#/settings`);
  await page.getByRole("heading", { level: 1, name: "Settings" }).waitFor();
  await page.getByTestId("theme-choice").getByRole("radio", { name: "Dark", exact: true }).check();

  const [download] = await Promise.all([page.waitForEvent("download"), page.getByTestId("backup-create").click()]);
  assert.match(download.suggestedFilename(), /^content-desk-backup-[0-9TZ-]+\.json$/);
  const file = path.join(work, "backup.json");
  await download.saveAs(file);
  await page.getByTestId("backup-status").waitFor();
  await page.getByTestId("backup").scrollIntoViewIfNeeded();
  await shoot("saved");
  const backup = JSON.parse(fs.readFileSync(file, "utf8"));
  assert.equal(backup.format, "content-desk-backup");
  assert.equal(backup.files["ui-preferences.json"].prefs["contentdesk.theme"], "dark");
  fs.copyFileSync(file, path.join(ARTIFACTS, "io-backup.json"));
  await procs.stop(a.child);

  // An empty data folder: restore from Settings, after the confirm.
  let b = await shell("b", "b");
  await page.goto(b.url);
  await page.getByRole("tab", { name: /Content plan/ }).waitFor();
  assert.notEqual(await page.evaluate(() => document.documentElement.getAttribute("data-theme")), "dark", "a new origin starts on the system's light theme");
  await page.goto(`${b.origin}/#/settings`);
  await page.getByRole("heading", { level: 1, name: "Settings" }).waitFor();
  await page.getByTestId("backup-file").setInputFiles(file);
  const confirm = page.getByRole("alertdialog", { name: "Restore “backup.json”?" });
  await confirm.waitFor();
  assert.match(await confirm.innerText(), /replaces this computer's Content Desk data/);
  await shoot("confirm");
  await confirm.getByRole("button", { name: "Replace and restore" }).click();
  await page.getByTestId("backup-staged").waitFor();
  assert.equal(await page.evaluate(() => document.documentElement.getAttribute("data-theme")), "dark", "the UI preferences come back at once");
  assert.ok(fs.existsSync(path.join(work, "b", "restore-pending.json")), "the rest waits for the next start");
  // In a browser the app cannot restart itself: no "Restart now" (the desktop's, ui Backup.test.ts), the note
  // says what to do instead.
  assert.equal(await page.getByRole("button", { name: "Restart now" }).count(), 0);
  assert.match(await page.getByTestId("backup-staged").innerText(), /^The backup of \w{3} \d{1,2}, \d{4}, \d\d:\d\d is ready: /);
  assert.match(await page.getByTestId("backup-restart-note").innerText(), /cannot restart itself: stop web-shell .*start it again with the same data folder, then reload this page/);
  await page.getByTestId("backup").scrollIntoViewIfNeeded();
  await shoot("staged");
  await procs.stop(b.child);

  // Started again (a new origin: an empty localStorage): the files restored, the preferences taken.
  b = await shell("b", "b2");
  const ipcB = ipcOf(b);
  assert.deepEqual(await settingsOf(ipcB), settings, "the same profiles, update setting and queue slots");
  assert.ok((await ipcB("app_info")).notices.some((n) => n.startsWith("Restored the backup made at ")), "a notice says so");
  assert.equal(fs.existsSync(path.join(work, "b", "restore-pending.json")), false);
  await page.goto(b.url);
  await page.waitForFunction(() => localStorage.getItem("contentdesk.prefsRestoredAt") !== null, null, { timeout: 15_000 });
  await page.getByRole("tab", { name: /Content plan/ }).waitFor();
  assert.equal(await page.evaluate(() => document.documentElement.getAttribute("data-theme")), "dark");
  assert.equal(await page.evaluate(() => localStorage.getItem("contentdesk.calendar.zone")), "Europe/Paris");
  // The restored last space names a space of the first folder's local sandbox, which this folder's fresh
  // sandbox does not have: its board is refused once (404) and the planner opens the first space.
  assert.deepEqual([...new Set(refusedUrls)], refusedUrls.length ? ["/ipc/board_load"] : []);
  assert.deepEqual(pageErrors.filter((e) => !e.includes("status of 404")), []);
});

test("restore refuses a file that is not a backup, and stages nothing", async () => {
  const c = await shell("c", "c");
  await page.goto(c.url);
  await page.goto(`${c.origin}/#/settings`);
  await page.getByRole("heading", { level: 1, name: "Settings" }).waitFor();
  await page.getByTestId("backup-file").setInputFiles({ name: "notes.json", mimeType: "application/json", buffer: Buffer.from('{"hello":1}') });
  await page.getByRole("alertdialog").getByRole("button", { name: "Replace and restore" }).click();
  await page.getByTestId("backup-error").filter({ hasText: "not a Content Desk backup" }).waitFor();
  assert.equal(fs.existsSync(path.join(work, "c", "restore-pending.json")), false);
});
