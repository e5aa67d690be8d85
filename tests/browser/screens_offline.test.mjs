// The screens that need a service that stops answering, at 1280x800 and 960x600, light and dark, as
// screens.test.mjs sees the rest: the header's pill with changes waiting, the pending-changes list (in the
// pill's popover) and the conflicts panel, each shot (E2E_ARTIFACTS/screens/), held to "nothing scrolls
// sideways, the header is one row", and checked by axe-core with the WCAG 2.2 A/AA tags. Like
// offline_planner.test.mjs it starts its own sandbox (a fixed port and database, so it can stop and start
// it) and web-shell. A conflict is made for real: a stage renamed elsewhere while this app's rename of it
// waited; then, the service down again, a card archived here waits.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { launch } from "./browser.mjs";
import { callCore } from "./webshell.mjs";
import { Processes, freePort, startRemoteSandbox, startWebShell } from "./processes.mjs";
import { SIZES, THEMES, axe, misfit, shoot } from "./screens.mjs";

const ARTIFACTS = process.env.E2E_ARTIFACTS ?? fileURLToPath(new URL("../artifacts/browser", import.meta.url));
const SHOTS = path.join(ARTIFACTS, "screens");
const work = fs.mkdtempSync(path.join(os.tmpdir(), "contentdesk-screens-offline-"));
const DB = path.join(work, "remote.db");
const procs = new Processes();
let browser, page, port, sandbox, shell, remoteUrl;
let key = "";
let pageErrors = [];
const found = [];

async function startSandbox() {
  const remote = await startRemoteSandbox(procs, { db: DB, port, log: path.join(ARTIFACTS, "screens-offline-sandbox.log") });
  sandbox = remote.child;
  return remote;
}
const ipc = (command, args) => callCore(shell.origin, shell.token, command, args);

before(async () => {
  fs.mkdirSync(SHOTS, { recursive: true });
  port = await freePort();
  ({ key, url: remoteUrl } = await startSandbox());
  shell = await startWebShell(procs, { data: path.join(work, "app"), log: path.join(ARTIFACTS, "screens-offline-web-shell.log") });
  const profile = await ipc("profile_add", { name: "Screens offline", baseUrl: remoteUrl });
  await ipc("profile_select", { profileId: profile.id });
  await ipc("key_set", { profileId: profile.id, key });
  browser = await launch({ width: 1280, height: 800, tag: "screens-offline" });
  ({ page, pageErrors } = browser);
});

after(async () => {
  fs.writeFileSync(path.join(ARTIFACTS, "screens-offline-axe.json"), JSON.stringify(found, null, 2) + "\n");
  fs.writeFileSync(path.join(ARTIFACTS, "screens-offline-page-errors.txt"), pageErrors.join("\n") + (pageErrors.length ? "\n" : ""));
  await browser?.close();
  await procs.stopAll();
  fs.rmSync(work, { recursive: true, force: true });
});

async function renameStage(from, to) {
  await page.getByRole("button", { name: `Actions for stage ${from}` }).click();
  await page.getByRole("menuitem", { name: "Rename" }).click();
  await page.getByLabel("Stage name").fill(to);
  await page.getByLabel("Stage name").press("Enter");
}

test("set-up: one change in conflict, one waiting while the service does not answer", async () => {
  const space = (await ipc("spaces_list", {}))[0];
  const board = await ipc("board_load", { spaceId: space.id });
  const stage = board.stages[2];
  const card = board.cards.find((c) => c.stageId === board.stages[1].id);
  await page.goto(shell.url);
  await page.getByRole("region", { name: `${stage.name} stage` }).waitFor();

  // Elsewhere, meanwhile, straight to the service: the stage is renamed (the board here shows the old name).
  const r = await fetch(`${remoteUrl}/stages/${stage.id}`, {
    method: "PATCH", headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
    body: JSON.stringify({ space_id: space.id, name: "Theirs" }),
  });
  assert.ok(r.ok, `rename elsewhere: ${r.status}`);
  await procs.stop(sandbox);
  await renameStage(stage.name, "Mine offline");
  await page.getByTestId("drafts-waiting").getByText("1 change waiting").waitFor();
  await startSandbox();
  const send = page.getByTestId("drafts-send");
  if (await send.isVisible()) await send.click().catch(() => undefined);
  await page.getByTestId("drafts-conflicts-toggle").waitFor({ timeout: 20_000 });

  // Down again: an archive waits.
  await procs.stop(sandbox);
  await page.getByRole("button", { name: `Move ${card.title}`, exact: true }).click();
  await page.getByRole("menuitem", { name: "Archive card…" }).click();
  await page.getByRole("alertdialog").getByRole("button", { name: "Archive card" }).click();
  await page.getByTestId("drafts-waiting").getByText("1 change waiting").waitFor();
});

for (const theme of THEMES) {
  for (const size of SIZES) {
    test(`changes waiting, the pending-changes list and the conflicts at ${size.width}x${size.height}, ${theme}`, async () => {
      await page.setViewportSize(size);
      await page.emulateMedia({ colorScheme: theme });
      const tag = `${size.width}x${size.height}-${theme}`;
      const mine = [];
      const misfits = [];
      const look = async (name, shot) => {
        await shoot(page, SHOTS, shot, size, theme);
        const m = await misfit(page);
        if (m) misfits.push(`${name}: ${m}`);
        const v = await axe(page, `${name} ${tag}`);
        mine.push(...v);
        found.push(...v);
      };
      await page.getByTestId("drafts-waiting").waitFor();
      await look("board, changes waiting", "board-waiting");

      // The pending-changes list: the pill's popover, its list shown.
      await page.getByTestId("drafts-waiting").click();
      const toggle = page.getByTestId("drafts-list-toggle");
      if ((await toggle.getAttribute("aria-expanded")) !== "true") await toggle.click();
      await page.getByTestId("drafts-list").getByTestId("drafts-change").first().waitFor();
      await look("pending-changes list", "pending-changes");
      await toggle.focus();
      await page.keyboard.press("Escape");
      await page.getByTestId("drafts-list").waitFor({ state: "detached" });

      // The conflicts panel, with the shared Take theirs / Keep mine choice.
      await page.getByTestId("drafts-conflicts-toggle").click();
      await page.getByTestId("drafts-conflicts").getByRole("button", { name: "Take theirs" }).waitFor();
      await look("conflicts", "conflicts");
      await page.getByTestId("drafts-conflicts-toggle").click();
      await page.getByTestId("drafts-conflicts").waitFor({ state: "detached" });

      assert.deepEqual(misfits, [], `${tag}: nothing scrolls sideways and the header is one row`);
      assert.deepEqual(mine.map((x) => `${x.screen}: ${x.id} (${x.nodes.length}) ${x.nodes.map((n) => n.target).join(" | ")}`), [], "axe-core: no WCAG 2.2 A/AA violation");
    });
  }
}

test("the offline screens raised no page errors beyond the service not answering", () => {
  // Kept answers are 502 (nothing answered upstream); the demo cards' covers are on hosts a machine
  // offline cannot resolve.
  const expected = (e) => /status of 502\b|net::ERR_NAME_NOT_RESOLVED|net::ERR_CONNECTION_REFUSED/.test(e);
  assert.deepEqual(pageErrors.filter((e) => !expected(e)), []);
});
