// Brand-kit journeys in Debian's Chromium (playwright-core): edit a section and save, toggle its width,
// add a section, archive it and restore it (Undo, and from the archived list), revert from history, lose a race to another editor and keep mine (both texts end up in
// the history), and a body full of XSS payloads that renders inert. This journey starts its own web-shell
// (embedded sandbox, fresh data folder), so other journeys' profile switches cannot reach it. Binary: see
// processes.mjs.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import fs from "node:fs";
import http from "node:http";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { launch } from "./browser.mjs";
import { callCore } from "./webshell.mjs";
import { Processes, UI_DIST, WEB_SHELL_BIN, WEB_SHELL_READY } from "./processes.mjs";

const ARTIFACTS = process.env.E2E_ARTIFACTS ?? fileURLToPath(new URL("../artifacts/browser", import.meta.url));

const work = fs.mkdtempSync(path.join(os.tmpdir(), "contentdesk-brandkit-"));
const procs = new Processes();
let browser, page, shell, kitId;
let pageErrors = [];
const dialogs = [];
const replies = [];

const ipc = (command, args) => callCore(shell.origin, shell.token, command, args);
const card = (key) => page.getByTestId(`section-${key}`);
const section = async (key) => (await ipc("brand_kit_page", { brandKitId: kitId })).sections.find((s) => s.key === key);
const bodyOf = async (key) => (await ipc("brand_kit_sections", { brandKitId: kitId, keys: [key] })).sections[0];

/** Replaces the whole text of the CodeMirror editor inside `scope` as a user would (select all, type). */
async function typeInEditor(scope, text) {
  const content = scope.locator(".cm-content").last();
  await content.waitFor();
  await content.click();
  await page.keyboard.press("Control+A");
  await page.keyboard.insertText(text);
}

async function openBrandKit() {
  await page.getByRole("link", { name: "Brand kit" }).click();
  await page.getByRole("heading", { level: 1, name: "Brand kit" }).waitFor();
  await card("about").waitFor();
}

before(async () => {
  fs.mkdirSync(ARTIFACTS, { recursive: true });
  const { matches: [url] } = await procs.start(
    WEB_SHELL_BIN,
    ["--data-dir", path.join(work, "app"), "--ui-dist", UI_DIST, "--memory-secrets"],
    WEB_SHELL_READY,
    path.join(ARTIFACTS, "brandkit-web-shell.log"),
  );
  shell = { url, origin: new URL(url).origin, token: new URL(url).searchParams.get("token") };
  const kits = await ipc("brand_kits_list", {});
  kitId = (kits.find((k) => k.isDefault) ?? kits[0]).id;
  browser = await launch({ width: 1360, height: 900, tag: "brandkit" });
  ({ page, pageErrors } = browser);
  page.on("dialog", (d) => { dialogs.push(d.message()); void d.dismiss(); });
  page.on("response", async (res) => {
    if (!res.url().includes("/ipc/")) return;
    try { replies.push({ url: new URL(res.url()).pathname, status: res.status(), body: await res.text() }); } catch { /* closed */ }
  });
  await page.goto(shell.url);
  await page.getByTestId("balance").waitFor();
  await openBrandKit();
});

after(async () => {
  if (page) fs.writeFileSync(path.join(ARTIFACTS, "brandkit-dom.html"), await page.content().catch(() => ""));
  fs.writeFileSync(path.join(ARTIFACTS, "brandkit-ipc-replies.jsonl"), replies.map((r) => JSON.stringify(r)).join("\n") + "\n");
  fs.writeFileSync(path.join(ARTIFACTS, "brandkit-page-errors.txt"), pageErrors.join("\n") + (pageErrors.length ? "\n" : ""));
  await browser?.close();
  await procs.stopAll();
  fs.rmSync(work, { recursive: true, force: true });
});

test("the page shows full and half cards, two half cards sharing a row", async () => {
  const widths = await page.locator('[data-testid="section-grid"] > article').evaluateAll((els) =>
    els.map((e) => [e.getAttribute("data-key"), e.getAttribute("data-width")]));
  assert.ok(widths.some(([, w]) => w === "full") && widths.some(([, w]) => w === "half"), JSON.stringify(widths));
  const halves = widths.filter(([, w]) => w === "half").map(([k]) => k);
  const [a, b] = await Promise.all(halves.slice(0, 2).map((k) => card(k).boundingBox()));
  assert.equal(Math.round(a.y), Math.round(b.y), "two half cards share a row");
  assert.ok(b.x > a.x + a.width - 1, "side by side");
  const full = await card(widths.find(([, w]) => w === "full")[0]).boundingBox();
  assert.ok(full.width > a.width * 1.8, "a full card spans the row");
  // The text shows by default: the summary, then one read of every body shown.
  const reads = replies.filter((r) => r.url === "/ipc/brand_kit_sections");
  assert.equal(reads.length, 1, "one read of the bodies");
  await card("about").getByTestId("markdown").waitFor();
  assert.equal(await card("about").getByRole("button", { name: /^Text of/ }).getAttribute("aria-expanded"), "true");
  // No key on screen: roles and tabs by their names.
  const text = await page.locator("main").innerText();
  assert.doesNotMatch(text, /\b(content_strategy|voice_and_tone|writing_style|speaking_style|design_guidelines)\b/, "no key on screen");
  await page.screenshot({ path: path.join(ARTIFACTS, "brandkit-page.png"), fullPage: true });
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
  assert.equal(overflow, 0, "nothing wider than the window");
  // A narrow window: one column, half cards stacked.
  await page.setViewportSize({ width: 700, height: 900 });
  const [c, d] = await Promise.all(halves.slice(0, 2).map((k) => card(k).boundingBox()));
  assert.equal(Math.round(c.x), Math.round(d.x), "stacked in one column");
  assert.ok(d.y > c.y + c.height - 1);
  await page.setViewportSize({ width: 1360, height: 900 });
});

test("edit a section in place and save: only that section is written, on the version read", async () => {
  const before = await section("about");
  await card("about").getByRole("button", { name: "Edit" }).click();
  const text = "## Who we are\nA ceramics studio in Leeds, edited in the browser journey.\n\n## What we make\n- Mugs\n- Bowls";
  await typeInEditor(card("about"), text);
  assert.equal(await page.getByTestId("save-all").innerText(), "Save changes (1)");
  // The live preview follows the text as it is typed.
  await card("about").getByRole("region", { name: "Preview" }).getByRole("heading", { name: "What we make" }).waitFor();
  await card("about").getByRole("button", { name: "Save", exact: true }).click();
  await card("about").getByText(`Version ${before.version + 1}`).waitFor();
  const after = await bodyOf("about");
  assert.equal(after.body, text);
  assert.equal(after.version, before.version + 1);
  const sent = replies.filter((r) => r.url === "/ipc/brand_kit_save");
  assert.equal(sent.length, 1);
  assert.deepEqual(JSON.parse(sent[0].body).map((s) => s.key), ["about"]);
  // The editor closes and the card offers Edit again.
  await card("about").getByRole("button", { name: "Edit" }).waitFor();
});

test("a card's width is a choice of Full or Half: saved at once, and the grid follows", async () => {
  const group = card("about").getByRole("radiogroup", { name: /^Width of/ });
  const was = await card("about").getAttribute("data-width");
  const label = (w) => (w === "full" ? "Full" : "Half");
  assert.equal(await group.getByRole("radio", { name: label(was) }).isChecked(), true, "the current width is the checked one");
  const now = was === "full" ? "half" : "full";
  await group.getByRole("radio", { name: label(now) }).check();
  await page.waitForFunction((w) => document.querySelector('[data-testid="section-about"]')?.getAttribute("data-width") === w, now);
  assert.equal((await section("about")).width, now);
  // By keyboard: the arrow keys move between the two choices.
  await group.getByRole("radio", { name: label(now) }).focus();
  await page.keyboard.press(now === "full" ? "ArrowRight" : "ArrowLeft");
  await page.waitForFunction((w) => document.querySelector('[data-testid="section-about"]')?.getAttribute("data-width") === w, was);
  assert.equal((await section("about")).width, was);
});

test("a half card being edited takes the whole row: editor and live preview side by side, Save in view", async () => {
  for (const size of [{ width: 1280, height: 800 }, { width: 960, height: 600 }]) {
    await page.setViewportSize(size);
    const key = "audience";
    assert.equal(await card(key).getAttribute("data-width"), "half");
    await card(key).getByRole("button", { name: "Edit" }).click();
    const editor = card(key).getByTestId("section-editor");
    await editor.locator(".cm-content").waitFor();
    const grid = await page.getByTestId("section-grid").boundingBox();
    const box = await card(key).boundingBox();
    assert.ok(box.width > grid.width - 2, `${size.width}: the card spans the row (${box.width} of ${grid.width})`);
    const preview = card(key).getByRole("region", { name: "Preview" });
    const [e, p] = [await editor.boundingBox(), await preview.boundingBox()];
    assert.ok(p.x > e.x + e.width - 1 && Math.abs(p.y - e.y) < 4, `${size.width}: the preview beside the editor`);
    await typeInEditor(card(key), "## Who buys\nPeople who **love** a good mug.\n\n".repeat(12));
    await preview.getByText("love").first().waitFor();
    // However long the text, Save stays in view while the editor is.
    await editor.locator(".cm-content").click();
    const save = card(key).getByRole("button", { name: "Save", exact: true });
    const sb = await save.boundingBox();
    assert.ok(sb.y + sb.height <= size.height, `${size.width}: Save in view (bottom ${sb.y + sb.height})`);
    for (const theme of ["light", "dark"]) {
      await page.emulateMedia({ colorScheme: theme });
      await page.screenshot({ path: path.join(ARTIFACTS, `brandkit-editing-${size.width}x${size.height}-${theme}.png`) });
    }
    await page.emulateMedia({ colorScheme: "light" });
    await card(key).getByRole("button", { name: "Cancel" }).click();
    await page.getByRole("alertdialog").getByRole("button", { name: "Discard changes" }).click();
    await card(key).getByRole("button", { name: "Edit" }).waitFor();
  }
  await page.setViewportSize({ width: 1360, height: 900 });
});

test("add a section: name and tab required; it lands in its tab", async () => {
  await page.getByRole("button", { name: "Add section" }).click();
  const form = page.getByTestId("add-section-form");
  await form.getByRole("button", { name: "Add section" }).click();
  await form.getByText("Give the section's name.").waitFor();
  await form.getByLabel("Name").fill("Hooks that work");
  await form.getByLabel("Tab").selectOption("voice");
  await form.getByLabel("Half").check();
  await form.getByRole("button", { name: "Add section" }).click();
  await form.waitFor({ state: "detached" });
  const added = (await ipc("brand_kit_page", { brandKitId: kitId })).sections.find((s) => s.sectionName === "Hooks that work");
  assert.ok(added, "the service has it");
  assert.equal(added.tab, "voice");
  assert.equal(added.width, "half");
  assert.equal(await page.getByRole("tab", { name: /Voice/ }).getAttribute("aria-selected"), "true");
  await card(added.key).waitFor();
  await page.getByRole("tab", { name: /Overview/ }).click();
  await card("about").waitFor();
});

test("archive a section, Undo restores it; archived again, it is restored from the archived list", async () => {
  const added = (await ipc("brand_kit_page", { brandKitId: kitId })).sections.find((s) => s.sectionName === "Hooks that work");
  assert.ok(added, "the section added above");
  await page.getByRole("tab", { name: /Voice/ }).click();
  const archive = async () => {
    await card(added.key).getByRole("button", { name: "Archive “Hooks that work”" }).click();
    await page.getByRole("alertdialog").getByRole("button", { name: "Archive section" }).click();
    await card(added.key).waitFor({ state: "detached" });
    const kit = await ipc("brand_kit_page", { brandKitId: kitId });
    assert.ok(!kit.sections.some((s) => s.key === added.key), "archived on the service");
    assert.deepEqual(kit.archived.map((a) => a.key), [added.key]);
  };
  const restored = async () => {
    await card(added.key).waitFor();
    const kit = await ipc("brand_kit_page", { brandKitId: kitId });
    const back = kit.sections.find((s) => s.key === added.key);
    assert.equal(back?.version, added.version, "back with its version");
    assert.deepEqual(kit.archived, []);
  };
  // Archived (brand_kit_section_archive), then Undo (brand_kit_section_restore).
  await archive();
  await page.getByRole("button", { name: "Undo" }).click();
  await restored();
  // Archived again, restored from "Archived sections".
  await archive();
  const list = page.getByTestId("archived-sections");
  await list.getByText(/Archived sections/).click();
  await list.getByRole("button", { name: "Restore “Hooks that work”" }).click();
  await restored();
  await page.getByRole("tab", { name: /Overview/ }).click();
  await card("about").waitFor();
});

test("revert from history: the old text comes back as a new version, and the revert can be reverted", async () => {
  const start = await bodyOf("about");
  await card("about").getByRole("button", { name: /^History of/ }).click();
  const dialog = page.getByRole("dialog", { name: /^History of/ });
  await dialog.waitFor();
  const previous = start.version - 1;
  await dialog.getByRole("option", { name: new RegExp(`^Version ${previous}\\b`) }).click();
  await dialog.getByRole("button", { name: "Compare with current" }).click();
  await dialog.getByTestId("history-diff").locator(".cm-mergeView").waitFor();
  // The version this app saved (the edit above) says so; the service's own starter text does not.
  const label = (v) => dialog.getByRole("option", { name: new RegExp(`^Version ${v}\\b`) }).innerText();
  assert.match(await label(start.version), /edited in Content Desk/);
  assert.doesNotMatch(await label(1), /Content Desk/);
  // The comparison is highlighted: removed text marked on the left, added on the right, and counted.
  const marks = await dialog.getByTestId("history-diff").evaluate((root) => {
    const bg = (sel) => [...root.querySelectorAll(sel)].map((e) => getComputedStyle(e).backgroundColor);
    return { removed: bg(".cm-merge-a .cm-changedText"), added: bg(".cm-merge-b .cm-changedText"), transparent: "rgba(0, 0, 0, 0)" };
  });
  assert.ok(marks.removed.length + marks.added.length > 0, "changed text is marked");
  assert.ok([...marks.removed, ...marks.added].every((c) => c !== marks.transparent), JSON.stringify(marks));
  assert.match(await dialog.getByTestId("diff-summary").innerText(), /\d+ changes?: /);
  for (const theme of ["light", "dark"]) {
    await page.emulateMedia({ colorScheme: theme });
    await page.screenshot({ path: path.join(ARTIFACTS, `brandkit-compare-${theme}.png`) });
  }
  await page.emulateMedia({ colorScheme: "light" });
  await dialog.getByRole("button", { name: `Bring back version ${previous}` }).click();
  await dialog.getByTestId("history-status").getByText(`Version ${previous} is back, as version ${start.version + 1}`).waitFor();
  const h = await ipc("brand_kit_history", { brandKitId: kitId, key: "about" });
  assert.equal(h.section.version, start.version + 1);
  assert.equal(h.section.body, h.earlier.find((r) => r.version === previous).body);
  // Revert the revert.
  await dialog.getByRole("button", { name: `Bring back version ${start.version}` }).click();
  await dialog.getByTestId("history-status").getByText(`as version ${start.version + 2}`).waitFor();
  assert.equal((await bodyOf("about")).body, start.body);
  await page.keyboard.press("Escape");
  await dialog.waitFor({ state: "detached" });
  await card("about").getByText(`Version ${start.version + 2}`).waitFor();
});

test("a conflict: another editor saves first; nothing is lost, the draft survives a reload, keep mine wins", async () => {
  const key = "offer";
  const read = await section(key);
  await card(key).getByRole("button", { name: "Edit" }).click();
  const mine = "## Offer\nMine: hand-thrown mugs, made to order, shipped in kraft boxes.";
  await typeInEditor(card(key), mine);
  // Another editor writes the same section over the version the page holds.
  const theirs = "## Offer\nTheirs: seconds sale every Friday.";
  await ipc("brand_kit_save", { brandKitId: kitId, sections: [{ key, body: theirs, expectedVersion: read.version }] });
  await card(key).getByRole("button", { name: "Save", exact: true }).click();
  const conflict = card(key).getByTestId("section-conflict");
  await conflict.waitFor();
  await conflict.getByTestId("conflict-diff").locator(".cm-mergeView").waitFor();
  assert.match(await conflict.innerText(), /Changed elsewhere/);
  assert.match(await conflict.innerText(), /Theirs: version/);
  assert.match(await conflict.innerText(), /Mine: hand-thrown mugs/);
  assert.match(await conflict.innerText(), /Theirs: seconds sale/);
  assert.equal((await bodyOf(key)).body, theirs, "nothing was written");
  await card(key).scrollIntoViewIfNeeded();
  await page.screenshot({ path: path.join(ARTIFACTS, "brandkit-conflict.png") });

  // The core keeps my text: a reload (as after a restart) shows the same resolution.
  await page.reload();
  await page.getByRole("heading", { level: 1, name: "Brand kit" }).waitFor();
  const again = card(key).getByTestId("section-conflict");
  await again.getByTestId("conflict-diff").locator(".cm-mergeView").waitFor();
  assert.match(await again.innerText(), /Mine: hand-thrown mugs/);

  await again.getByRole("button", { name: "Keep mine" }).click();
  await again.waitFor({ state: "detached" });
  const h = await ipc("brand_kit_history", { brandKitId: kitId, key });
  assert.equal(h.section.body, mine);
  assert.ok(h.earlier.some((r) => r.body === theirs), "their text is in the history");
  assert.deepEqual(await ipc("brand_kit_drafts", { brandKitId: kitId }), []);
});

test("XSS payloads in a body render inert in the real browser", async () => {
  const s = await section("audience");
  const payload = '<script>window.__xss=1</script>\n\n<img src=x onerror="window.__xss=1">\n\n[a](javascript:alert(1))\n\n<svg onload="window.__xss=1"></svg>\n\n[ok](https://example.com)';
  await ipc("brand_kit_save", { brandKitId: kitId, sections: [{ key: "audience", body: payload, expectedVersion: s.version }] });
  await page.reload();
  await page.getByRole("heading", { level: 1, name: "Brand kit" }).waitFor();
  const md = card("audience").getByTestId("markdown");
  await md.getByRole("link", { name: "ok" }).waitFor();
  await page.waitForTimeout(300);
  const found = await md.evaluate((root) => ({
    scripts: root.querySelectorAll("script").length,
    handlers: [...root.querySelectorAll("*")].flatMap((e) => [...e.attributes].map((a) => a.name)).filter((n) => /^on/i.test(n)),
    hrefs: [...root.querySelectorAll("[href]")].map((e) => e.getAttribute("href")),
    xss: window.__xss,
  }));
  assert.deepEqual(found, { scripts: 0, handlers: [], hrefs: ["https://example.com"], xss: undefined });
  assert.equal(await md.getByRole("link", { name: "ok" }).getAttribute("rel"), "noopener noreferrer");
  assert.deepEqual(dialogs, [], "no alert ran");
});

test("a remote image in a body: no request leaves until the user allows its host for this kit", async () => {
  // A stand-in for a tracker: a local server that counts what reaches it (the only host a test may call).
  const hits = [];
  const tracker = http.createServer((req, res) => {
    hits.push(req.url);
    res.writeHead(200, { "content-type": "image/png" });
    res.end(Buffer.from("iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=", "base64"));
  });
  await new Promise((r) => tracker.listen(0, "127.0.0.1", r));
  const host = `127.0.0.1:${tracker.address().port}`;
  const seen = [];
  const log = (req) => { if (req.url().includes(host)) seen.push(req.url()); };
  page.on("request", log);
  try {
    const s = await section("audience");
    const body = `## Audience\n\n![pixel](http://${host}/pixel.png?kit=opened)`;
    await ipc("brand_kit_save", { brandKitId: kitId, sections: [{ key: "audience", body, expectedVersion: s.version }] });
    await page.reload();
    await page.getByRole("heading", { level: 1, name: "Brand kit" }).waitFor();
    const allow = card("audience").getByRole("button", { name: `Load images from ${host}` });
    await allow.waitFor();
    await page.waitForTimeout(500);
    assert.deepEqual(seen, [], "Chromium sent no request to the image's host");
    assert.deepEqual(hits, [], "the host saw nothing");
    await card("audience").scrollIntoViewIfNeeded();
    await page.screenshot({ path: path.join(ARTIFACTS, "brandkit-images-blocked.png") });
    await allow.click();
    await page.waitForFunction(() => [...document.querySelectorAll('[data-testid="section-audience"] img')].some((i) => i.complete && i.naturalWidth > 0));
    assert.deepEqual(hits, ["/pixel.png?kit=opened"]);
    // Allowed for this kit from now on: a reload loads it without asking.
    await page.reload();
    await page.getByRole("heading", { level: 1, name: "Brand kit" }).waitFor();
    await page.waitForFunction(() => [...document.querySelectorAll('[data-testid="section-audience"] img')].some((i) => i.complete && i.naturalWidth > 0));
    assert.equal(await card("audience").getByTestId("images-blocked").count(), 0);
  } finally {
    page.off("request", log);
    // The text shows by default: a body still pointing at the stopped server would be fetched (and
    // refused) on the next reload, so the section gets plain text back first.
    const s = await section("audience");
    await ipc("brand_kit_save", { brandKitId: kitId, sections: [{ key: "audience", body: "## Audience\n\nPeople who love a good mug.", expectedVersion: s.version }] });
    await new Promise((r) => tracker.close(r));
  }
});

test("a section moved to another tab and reordered by drag and by keyboard, kept after a reload", async () => {
  const order = async (tab) => (await ipc("brand_kit_page", { brandKitId: kitId })).sections.filter((s) => s.tab === tab).map((s) => s.key);
  const shown = () => page.locator('[data-testid="section-grid"] > article').evaluateAll((els) => els.map((e) => e.getAttribute("data-key")));
  await page.getByRole("tab", { name: /Overview/ }).click();
  const before = await order("overview");
  assert.ok(before.length >= 4, JSON.stringify(before));
  const last = before[before.length - 1];
  // Drag the last card's handle onto the top half of the first card.
  const target = await card(before[0]).boundingBox();
  await page.getByTestId(`move-${last}`).dragTo(card(before[0]), { targetPosition: { x: target.width / 2, y: 8 } });
  await page.waitForFunction((k) => document.querySelector('[data-testid="section-grid"] > article')?.getAttribute("data-key") === k, last);
  assert.deepEqual(await order("overview"), [last, ...before.slice(0, -1)], "the service has the new order");
  // By keyboard: pick up the second card, one down, drop.
  const second = before[0];
  await page.getByTestId(`move-${second}`).focus();
  await page.keyboard.press("Space");
  await page.getByTestId("move-status").filter({ hasText: "Picked up" }).waitFor({ state: "attached" });
  await page.keyboard.press("ArrowDown");
  await page.keyboard.press("Enter");
  await page.getByTestId("move-status").filter({ hasText: "Moved" }).waitFor({ state: "attached" });
  const reordered = [last, before[1], before[0], ...before.slice(2, -1)];
  assert.deepEqual(await order("overview"), reordered);
  // To another tab through the card's tab choice.
  await page.getByTestId("tab-of-offer").selectOption("visual");
  await page.getByRole("tab", { name: /Visual/ }).and(page.locator('[aria-selected="true"]')).waitFor();
  assert.deepEqual((await order("visual")).slice(-1), ["offer"]);
  await page.screenshot({ path: path.join(ARTIFACTS, "brandkit-moved.png"), fullPage: true });
  // Reload: kept.
  await page.reload();
  await page.getByTestId("balance").waitFor();
  await openBrandKit();
  assert.deepEqual(await shown(), reordered.filter((k) => k !== "offer"));
  await page.getByRole("tab", { name: /Visual/ }).click();
  assert.deepEqual((await shown()).slice(-1), ["offer"]);
});

test("the brand-kit journeys raised no page errors beyond the expected 409", () => {
  const expected = (e) => /status of 409 \(Conflict\)/.test(e);
  assert.deepEqual(pageErrors.filter((e) => !expected(e)), []);
});
