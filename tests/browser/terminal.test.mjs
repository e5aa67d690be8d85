// A card made in the terminal shows on the window's board (issue 13: "A card created by `cdesk --profile
// Sandbox` shows in the window's board"). This journey starts its own web-shell on its own data folder
// (its embedded sandbox, keys in memory) and runs the real `cdesk` binary on that folder, as a user would
// with the app open: cdesk finds the app's sandbox by the URL file the core publishes (no key there), and
// with keys only in the app's memory mints a key for the command and revokes it. Binaries: WEB_SHELL_BIN
// and CDESK_BIN (scripts/ui-e2e.sh), else $CARGO_TARGET_DIR/debug.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { launch } from "./browser.mjs";
import { callCore } from "./webshell.mjs";
import { CDESK_BIN, Processes, UI_DIST, WEB_SHELL_BIN, WEB_SHELL_READY } from "./processes.mjs";

const ARTIFACTS = process.env.E2E_ARTIFACTS ?? fileURLToPath(new URL("../artifacts/browser", import.meta.url));
const work = fs.mkdtempSync(path.join(os.tmpdir(), "contentdesk-terminal-"));
const DATA = path.join(work, "app");
const procs = new Processes();
let browser, page, shell;
let pageErrors = [];

/** `cdesk ARGS` on the web-shell's data folder, with an empty HOME (no key of this machine) and no key
 *  or base URL in the environment; its JSON answer (piped). */
function cdesk(...args) {
  const out = execFileSync(CDESK_BIN, args, {
    env: {
      PATH: process.env.PATH,
      HOME: path.join(work, "home"),
      CONTENTHERO_CONFIG_DIR: path.join(work, "contenthero"),
      CONTENTDESK_DATA_DIR: DATA,
      CONTENTDESK_KEYRING_SERVICE: `contentdesk-terminal-journey-${process.pid}`,
    },
    encoding: "utf8",
    stdio: ["ignore", "pipe", "pipe"],
  });
  return JSON.parse(out);
}

const ipc = (command, args) => callCore(shell.origin, shell.token, command, args);

before(async () => {
  fs.mkdirSync(ARTIFACTS, { recursive: true });
  fs.mkdirSync(path.join(work, "home"), { recursive: true });
  const { child, matches } = await procs.start(
    WEB_SHELL_BIN,
    ["--data-dir", DATA, "--ui-dist", UI_DIST, "--memory-secrets"],
    WEB_SHELL_READY,
    path.join(ARTIFACTS, "terminal-web-shell.log"),
  );
  shell = { child, url: matches[0], origin: new URL(matches[0]).origin, token: new URL(matches[0]).searchParams.get("token") };
  browser = await launch({ width: 1360, height: 860, tag: "terminal" });
  ({ page, pageErrors } = browser);
  await page.goto(shell.url);
  await page.getByRole("tab", { name: /Content plan/ }).waitFor();
});

after(async () => {
  if (page) fs.writeFileSync(path.join(ARTIFACTS, "terminal-dom.html"), await page.content().catch(() => ""));
  fs.writeFileSync(path.join(ARTIFACTS, "terminal-page-errors.txt"), pageErrors.join("\n") + (pageErrors.length ? "\n" : ""));
  await browser?.close();
  await procs.stopAll();
  fs.rmSync(work, { recursive: true, force: true });
});

test("a card created by cdesk --profile Sandbox while the window is open shows on its board", async () => {
  // The window's sandbox is the one cdesk reaches: the same URL.
  const status = cdesk("--profile", "Sandbox", "auth", "status");
  const view = await ipc("profiles_list", {});
  const sandboxProfile = view.profiles.find((p) => p.kind === "sandbox");
  assert.equal(status.baseUrl, sandboxProfile.baseUrl);
  assert.equal(status.localSandbox, "the app's");

  const space = cdesk("--profile", "Sandbox", "space", "create", "From the terminal");
  const card = cdesk("--profile", "Sandbox", "card", "create", "Typed in a terminal", "--platform", "instagram", "--space", space.id);
  assert.equal(card.title, "Typed in a terminal");

  // The window: its space tab, then the card in the board's first stage.
  await page.reload();
  await page.getByRole("tab", { name: "From the terminal" }).click();
  const shown = page.getByTestId(`card-${card.id}`);
  await shown.waitFor();
  assert.match(await shown.innerText(), /Typed in a terminal/);
  await page.screenshot({ path: path.join(ARTIFACTS, "terminal-card-on-board.png") });

  // And a second one with --sandbox, while the board is shown: a reload shows it too.
  const second = cdesk("--sandbox", "card", "create", "Second from the terminal", "--platform", "tiktok", "--space", space.id);
  await page.reload();
  await page.getByRole("tab", { name: "From the terminal" }).click();
  await page.getByTestId(`card-${second.id}`).waitFor();
  assert.deepEqual(pageErrors, []);
});
