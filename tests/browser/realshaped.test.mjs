// The Studio on a real-shaped model registry, in Debian's Chromium: the sandbox behind a front that
// writes the registry as the real service does (see realshaped.mjs for why that is a stand-in). A model of
// a kind this build does not know is offered under its raw kind, a model that takes only some lengths
// offers exactly those, and a quote made from the nested capabilities is priced by the sandbox.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { launch } from "./browser.mjs";
import { callCore } from "./webshell.mjs";
import { Processes, SANDBOX_BIN, SANDBOX_READY, UI_DIST, WEB_SHELL_BIN, WEB_SHELL_READY } from "./processes.mjs";
import { startRealShaped } from "./realshaped.mjs";

const ARTIFACTS = process.env.E2E_ARTIFACTS ?? fileURLToPath(new URL("../artifacts/browser", import.meta.url));
const work = fs.mkdtempSync(path.join(os.tmpdir(), "contentdesk-realshaped-"));
const procs = new Processes();
let browser, page, shell, front;
let pageErrors = [];

const ipc = (command, args) => callCore(shell.origin, shell.token, command, args);

before(async () => {
  fs.mkdirSync(ARTIFACTS, { recursive: true });
  const { matches: [sandboxUrl, key] } = await procs.start(
    SANDBOX_BIN,
    ["serve", "--db", path.join(work, "remote.db"), "--addr", "127.0.0.1:0", "--seed", "demo"],
    SANDBOX_READY,
    path.join(ARTIFACTS, "realshaped-sandbox.log"),
  );
  front = await startRealShaped(sandboxUrl);
  const { matches: [url] } = await procs.start(
    WEB_SHELL_BIN,
    ["--data-dir", path.join(work, "app"), "--ui-dist", UI_DIST, "--memory-secrets"],
    WEB_SHELL_READY,
    path.join(ARTIFACTS, "realshaped-web-shell.log"),
  );
  shell = { url, origin: new URL(url).origin, token: new URL(url).searchParams.get("token") };
  const profile = await ipc("profile_add", { name: "Real-shaped", baseUrl: front.base });
  await ipc("profile_select", { profileId: profile.id });
  await ipc("key_set", { profileId: profile.id, key });
  browser = await launch({ width: 1360, height: 900, tag: "realshaped" });
  ({ page, pageErrors } = browser);
});

after(async () => {
  if (page) fs.writeFileSync(path.join(ARTIFACTS, "realshaped-dom.html"), await page.content().catch(() => ""));
  fs.writeFileSync(path.join(ARTIFACTS, "realshaped-page-errors.txt"), pageErrors.join("\n") + (pageErrors.length ? "\n" : ""));
  await browser?.close();
  await front?.stop();
  await procs.stopAll();
  fs.rmSync(work, { recursive: true, force: true });
});

test("an unknown model kind is offered by its raw kind; discrete lengths are a list; the quote is priced", async () => {
  await page.goto(shell.url);
  await page.getByTestId("balance").waitFor();
  await page.getByRole("link", { name: "Studio" }).click();
  await page.getByRole("heading", { level: 1, name: "Studio" }).waitFor();
  await page.getByRole("radio", { name: "Video" }).check();
  const model = page.getByLabel("Model", { exact: true });
  await page.waitForFunction(() => [...(document.querySelector("#studio-model")?.options ?? [])].some((o) => /Veo 4 Extend/.test(o.text)));
  const labels = await model.locator("option").allInnerTexts();
  assert.ok(labels.includes("Veo 4 Extend (video-extend)"), `the unknown kind is shown raw: ${labels.join(" | ")}`);

  // The registry's default video model, read from the nested spelling: lengths are a list.
  const chosen = await model.inputValue();
  assert.notEqual(chosen, "veo-4-extend");
  const length = page.getByLabel(/^Length/);
  assert.equal(await length.evaluate((el) => el.tagName), "SELECT", "discrete lengths are offered as a list");
  const options = await length.locator("option").allInnerTexts();
  assert.match(options[0], /^Default \(\d+ s\)$/, "the registry's default length is named");
  assert.ok(options.length >= 3 && options.slice(1).every((o) => /^\d+ s$/.test(o)), options.join(" | "));
  const aspects = await page.getByLabel("Aspect ratio").locator("option").allInnerTexts();
  assert.ok(aspects.length > 1, `aspect ratios from aspectRatio.supported: ${aspects}`);
  assert.match(aspects[0], /^Default \(\d+:\d+\)$/, "the registry's default aspect ratio is named");

  await page.getByLabel(/^Prompt/).fill("A slow pan over a harbour at night");
  await length.selectOption({ index: 2 });
  await page.waitForFunction(() => /credits · balance after/.test(document.querySelector('[data-testid="studio-price"]')?.textContent ?? ""));
  await page.screenshot({ path: path.join(ARTIFACTS, "realshaped-studio.png") });
  // The unknown kind can be chosen; its form shows what its capabilities name (a prompt, optional).
  await model.selectOption("veo-4-extend");
  assert.equal(await model.inputValue(), "veo-4-extend");
  await page.getByLabel(/^Prompt/).waitFor();
  assert.equal(await page.getByLabel(/^Length/).count(), 0, "no length: the extend model names none");
  await page.screenshot({ path: path.join(ARTIFACTS, "realshaped-unknown-kind.png") });
  assert.deepEqual(pageErrors, []);
});
