// Studio journey in Debian's Chromium (playwright-core): price, generate an image, use it as a video's
// start frame, watch the video go through the queue, attach it to a card. This journey starts its own
// sandbox with short render times (the embedded sandbox's are long, and its smart-wait outlasts them,
// so a render would never show as processing) and its own web-shell pointed at it as a remote profile.
// Binaries: see processes.mjs.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { launch } from "./browser.mjs";
import { callCore } from "./webshell.mjs";
import { Processes, SANDBOX_BIN, SANDBOX_READY, UI_DIST, WEB_SHELL_BIN, WEB_SHELL_READY } from "./processes.mjs";

const ARTIFACTS = process.env.E2E_ARTIFACTS ?? fileURLToPath(new URL("../artifacts/browser", import.meta.url));
/** Every render takes this long on the journey's sandbox (its only knob: one time for every kind). */
const RENDER_MS = 2500;
/** A generate call waits this long before it answers `processing`: renders go through the queue. */
const SMART_WAIT_MS = 500;

const work = fs.mkdtempSync(path.join(os.tmpdir(), "contentdesk-studio-"));
const procs = new Processes();
let browser, page, shell;
let pageErrors = [];
const replies = [];

const ipc = (command, args) => callCore(shell.origin, shell.token, command, args);

before(async () => {
  fs.mkdirSync(ARTIFACTS, { recursive: true });
  const { matches: [remoteUrl, key] } = await procs.start(
    SANDBOX_BIN,
    ["serve", "--db", path.join(work, "remote.db"), "--addr", "127.0.0.1:0", "--seed", "demo",
      "--render-ms", String(RENDER_MS), "--smart-wait-ms", String(SMART_WAIT_MS)],
    SANDBOX_READY,
    path.join(ARTIFACTS, "studio-sandbox.log"),
  );
  const { matches: [url] } = await procs.start(
    WEB_SHELL_BIN,
    ["--data-dir", path.join(work, "app"), "--ui-dist", UI_DIST, "--memory-secrets"],
    WEB_SHELL_READY,
    path.join(ARTIFACTS, "studio-web-shell.log"),
  );
  shell = { url, origin: new URL(url).origin, token: new URL(url).searchParams.get("token") };
  const profile = await ipc("profile_add", { name: "Studio remote", baseUrl: remoteUrl });
  await ipc("profile_select", { profileId: profile.id });
  await ipc("key_set", { profileId: profile.id, key });
  browser = await launch({ width: 1360, height: 900, tag: "studio" });
  ({ page, pageErrors } = browser);
  page.on("response", async (res) => {
    if (!res.url().includes("/ipc/")) return;
    try { replies.push({ url: new URL(res.url()).pathname, status: res.status(), body: await res.text() }); } catch { /* closed */ }
  });
});

after(async () => {
  if (page) fs.writeFileSync(path.join(ARTIFACTS, "studio-dom.html"), await page.content().catch(() => ""));
  fs.writeFileSync(path.join(ARTIFACTS, "studio-ipc-replies.jsonl"), replies.map((r) => JSON.stringify(r)).join("\n") + "\n");
  fs.writeFileSync(path.join(ARTIFACTS, "studio-page-errors.txt"), pageErrors.join("\n") + (pageErrors.length ? "\n" : ""));
  await browser?.close();
  await procs.stopAll();
  fs.rmSync(work, { recursive: true, force: true });
});

/** Reads `attr` of `locator` every 50 ms until `done(value)`; answers every distinct value seen, in order. */
async function watch(locator, attr, done, timeout = 30_000) {
  const seen = [];
  const end = Date.now() + timeout;
  for (;;) {
    const v = await locator.getAttribute(attr, { timeout: 1000 }).catch(() => null);
    if (v !== null && seen[seen.length - 1] !== v) seen.push(v);
    if (v !== null && done(v)) return seen;
    if (Date.now() > end) throw new Error(`${attr} never settled; seen: ${seen.join(" → ")}`);
    await page.waitForTimeout(50);
  }
}

test("image → start frame of a video → through the queue → attached to a card", async () => {
  // A card to attach to, in the demo space.
  const [space] = await ipc("spaces_list", {});
  const board = await ipc("board_load", { spaceId: space.id });
  const card = await ipc("card_create", { spaceId: space.id, stage: board.stages[0].id, title: "Studio journey card", platform: "instagram" });

  await page.goto(shell.url);
  await page.getByTestId("balance").waitFor();
  await page.getByRole("link", { name: "Studio" }).click();
  await page.getByRole("heading", { level: 1, name: "Studio" }).waitFor();

  // The form: Image, a prompt, the price.
  await page.getByRole("radio", { name: "Image" }).check();
  const model = page.getByLabel("Model", { exact: true });
  await page.waitForFunction(() => (document.querySelector("#studio-model")?.querySelectorAll("option").length ?? 0) > 1);
  assert.equal(await model.inputValue(), "nano-banana-2");
  const prompt = "A lighthouse on a cliff at dawn, watercolour";
  await page.getByLabel(/^Prompt/).fill(prompt);
  const price = page.getByTestId("studio-price");
  await page.waitForFunction(() => /credits · balance after/.test(document.querySelector('[data-testid="studio-price"]')?.textContent ?? ""));
  assert.match(await price.innerText(), /^4 credits · balance after [\d,]+$/);
  const shown = await page.evaluate(() => performance.getEntriesByName("studio:price-shown").length);
  assert.ok(shown > 0, "the benchmark mark is set when a price shows");
  await page.screenshot({ path: path.join(ARTIFACTS, "studio-form.png") });
  // The price, the balance after and Generate stay in view while writing, at both window sizes.
  for (const size of [{ width: 1280, height: 800 }, { width: 960, height: 600 }]) {
    await page.setViewportSize(size);
    await page.getByLabel(/^Prompt/).focus();
    for (const el of [price, page.getByRole("button", { name: "Generate", exact: true })]) {
      const b = await el.boundingBox();
      assert.ok(b && b.y >= 0 && b.y + b.height <= size.height, `${size.width}x${size.height}: in view (${JSON.stringify(b)})`);
    }
    for (const theme of ["light", "dark"]) {
      await page.emulateMedia({ colorScheme: theme });
      await page.screenshot({ path: path.join(ARTIFACTS, `studio-footer-${size.width}x${size.height}-${theme}.png`) });
    }
  }
  await page.emulateMedia({ colorScheme: "light" });
  await page.setViewportSize({ width: 1360, height: 900 });

  // Generate the image; it comes back processing, then completes in the gallery.
  await page.getByRole("button", { name: "Generate", exact: true }).click();
  const imageTile = page.locator('[data-testid="gallery-item"][data-kind="image"]').filter({ hasText: "lighthouse" }).first();
  await imageTile.waitFor({ timeout: 30_000 });
  const imageToken = await imageTile.getAttribute("data-token");
  assert.match(imageToken, /^[0-9a-f-]{36}-1$/);
  await page.waitForFunction((t) => {
    const img = document.querySelector(`[data-token="${t}"] img`);
    return img && img.complete && img.naturalWidth > 0;
  }, imageToken);
  // Named by its prompt and the time it was made; the token only behind Details.
  assert.match(await imageTile.locator(".when").innerText(), /^today, /);
  assert.equal(await imageTile.getByText(imageToken, { exact: false }).isVisible(), false, "the token is behind Details");
  await imageTile.getByText("Details").click();
  assert.equal(await imageTile.getByText(imageToken, { exact: false }).isVisible(), true);
  await imageTile.getByText("Details").click();
  // The full-size viewer: a dialog with the picture at its size, closed by Escape.
  await imageTile.getByRole("button", { name: /full size$/ }).click();
  const viewer = page.getByRole("dialog");
  await viewer.getByRole("img").waitFor();
  for (const theme of ["light", "dark"]) {
    await page.emulateMedia({ colorScheme: theme });
    await page.screenshot({ path: path.join(ARTIFACTS, `studio-viewer-${theme}.png`) });
  }
  await page.emulateMedia({ colorScheme: "light" });
  await page.keyboard.press("Escape");
  await viewer.waitFor({ state: "detached" });

  // Use it as the start frame: the form becomes a video with that frame and the same prompt.
  await imageTile.getByRole("button", { name: "Use as start frame" }).click();
  assert.equal(await page.getByRole("radio", { name: "Video" }).isChecked(), true);
  await page.waitForFunction(() => document.querySelector("#studio-model")?.value === "veo-3.1-fast");
  assert.equal(await page.getByLabel(/^Prompt/).inputValue(), prompt);
  assert.match(await page.getByRole("list", { name: "Start frame" }).innerText(), new RegExp(imageToken));
  await page.waitForFunction(() => /^25 credits/.test(document.querySelector('[data-testid="studio-price"]')?.textContent?.trim() ?? ""));

  // Generate the video and watch its queue row go from processing to completed.
  await page.getByRole("button", { name: "Generate", exact: true }).click();
  const videoRow = page.locator('[data-testid="job"]').filter({ hasText: /veo|Veo/ }).first();
  await videoRow.waitFor();
  const videoId = await videoRow.getAttribute("data-output-id");
  const row = page.locator(`[data-testid="job"][data-output-id="${videoId}"]`);
  await page.locator(`[data-testid="job"][data-output-id="${videoId}"][data-status="processing"]`).waitFor({ timeout: 10_000 });
  await page.evaluate(() => window.scrollTo(0, 0));
  await page.getByTestId("studio-queue").screenshot({ path: path.join(ARTIFACTS, "studio-queue.png") });
  const statuses = await watch(row, "data-status", (s) => s === "completed" || s === "failed");
  assert.ok(statuses.includes("processing"), `the video was seen processing: ${statuses.join(" → ")}`);
  assert.equal(statuses[statuses.length - 1], "completed", statuses.join(" → "));
  const videoToken = `${videoId}-1`;
  const videoTile = page.locator(`[data-testid="gallery-item"][data-token="${videoToken}"]`);
  await videoTile.waitFor();
  assert.equal(await videoTile.getAttribute("data-kind"), "video");
  assert.equal(await videoTile.locator("video[controls]").count(), 1);
  // The placeholder clip is playable: its metadata loads.
  await page.waitForFunction((t) => (document.querySelector(`[data-token="${t}"] video`)?.readyState ?? 0) >= 1, videoToken, { timeout: 10_000 });
  const played = await page.evaluate(async (t) => {
    const v = document.querySelector(`[data-token="${t}"] video`);
    v.muted = true;
    await v.play();
    await new Promise((r) => setTimeout(r, 600));
    v.pause();
    return { time: v.currentTime, error: v.error?.code ?? null };
  }, videoToken);
  assert.ok(played.time > 0 && played.error === null, `the video plays: ${JSON.stringify(played)}`);
  await page.evaluate(() => window.scrollTo(0, 0));
  await page.screenshot({ path: path.join(ARTIFACTS, "studio-gallery.png"), fullPage: true });

  // Attach the video to the card.
  await videoTile.getByRole("button", { name: "Attach to card…" }).click();
  const dialog = page.getByRole("dialog", { name: "Attach to a card" });
  await dialog.waitFor();
  await dialog.getByLabel("Space").selectOption(space.id);
  await dialog.getByLabel("Search cards").fill("Studio journey");
  await dialog.getByTestId(`pick-card-${card.id}`).waitFor();
  await page.screenshot({ path: path.join(ARTIFACTS, "studio-picker.png") });
  await dialog.getByTestId(`pick-card-${card.id}`).click();
  await dialog.waitFor({ state: "detached" });
  const notice = page.getByTestId("gallery-notice");
  await page.waitForFunction(() => /Attached to/.test(document.querySelector('[data-testid="gallery-notice"]')?.textContent ?? ""));
  assert.equal(await notice.innerText(), "Attached to “Studio journey card”.");
  await page.screenshot({ path: path.join(ARTIFACTS, "studio-attached.png"), fullPage: true });

  // Narrow windows stack the columns.
  await page.setViewportSize({ width: 760, height: 900 });
  await page.screenshot({ path: path.join(ARTIFACTS, "studio-narrow.png") });
  await page.setViewportSize({ width: 1360, height: 900 });

  const read = await ipc("card_get", { cardId: card.id });
  const ids = read.assets.map((a) => a.outputId);
  assert.ok(ids.some((o) => o === videoToken || o === videoId), `the card's assets hold the video: ${JSON.stringify(ids)}`);
  // A video is not offered as a cover.
  assert.equal(await page.getByTestId("cover-offer").count(), 0);

  // The image attached too is offered as the card's cover; taken, the board's tile shows it.
  await imageTile.getByRole("button", { name: "Attach to card…" }).click();
  const picker = page.getByRole("dialog", { name: "Attach to a card" });
  await picker.getByLabel("Space").selectOption(space.id);
  await picker.getByLabel("Search cards").fill("Studio journey");
  await picker.getByTestId(`pick-card-${card.id}`).click();
  await picker.waitFor({ state: "detached" });
  await page.getByRole("button", { name: "Make it the cover of “Studio journey card”" }).click();
  await page.getByTestId("gallery-notice").filter({ hasText: "now shows it as its cover" }).waitFor();
  const covered = await ipc("card_get", { cardId: card.id });
  const imageUrl = await imageTile.locator("img").getAttribute("src");
  assert.equal(covered.coverUrl, imageUrl, "the card's cover is the image");
  await page.getByRole("link", { name: "Planner" }).click();
  await page.getByTestId("view-board").click();
  await page.getByRole("tab", { name: new RegExp(space.name) }).first().click();
  const tile = page.locator(`[data-card-id="${card.id}"]`);
  await tile.waitFor();
  assert.equal(await tile.locator("img.cover").getAttribute("src"), imageUrl, "the board's tile shows the cover");
  await page.getByRole("link", { name: "Studio" }).click();
  await page.getByRole("heading", { level: 1, name: "Studio" }).waitFor();
});

test("upscale an image of the gallery: its picture on the chip, priced per factor, the result in the gallery", async () => {
  const source = page.locator('[data-testid="gallery-item"][data-kind="image"]').first();
  const token = await source.getAttribute("data-token");
  await page.getByRole("radio", { name: "Upscale" }).check();
  await page.waitForFunction(() => document.querySelector("#studio-model")?.value === "topaz-image-upscale");
  await page.getByLabel("Image to upscale").fill(token);
  await page.getByLabel("Image to upscale").press("Enter");
  // The chip shows the output's own picture (the gallery's), loaded.
  await page.waitForFunction(() => {
    const img = document.querySelector('[data-testid="ref-studio-ref-source"] [data-testid="chip-thumb"]');
    return img && img.complete && img.naturalWidth > 0;
  });
  await page.waitForFunction(() => /^8 credits/.test(document.querySelector('[data-testid="studio-price"]')?.textContent?.trim() ?? ""));
  await page.getByLabel("Factor").selectOption("4x");
  await page.waitForFunction(() => /^16 credits/.test(document.querySelector('[data-testid="studio-price"]')?.textContent?.trim() ?? ""));
  await page.screenshot({ path: path.join(ARTIFACTS, "studio-upscale.png") });
  const before = await page.locator('[data-testid="gallery-item"][data-kind="image"]').count();
  await page.getByRole("button", { name: "Generate", exact: true }).click();
  await page.waitForFunction((n) => document.querySelectorAll('[data-testid="gallery-item"][data-kind="image"]').length > n, before, { timeout: 30_000 });
  const jobs = await ipc("studio_jobs", {});
  const up = jobs.find((j) => j.modelId === "topaz-image-upscale");
  assert.equal(up?.status, "completed", JSON.stringify(up));
});

test("the studio journey raised no page errors", () => {
  assert.deepEqual(pageErrors.filter((e) => !/^Failed to load resource: the server responded with a status of 4\d\d/.test(e)), []);
});
