// Planner journeys in Debian's Chromium (playwright-core) against web-shell and its embedded sandbox
// (started by scripts/ui-e2e.sh: WEB_SHELL_URL with ?token=, E2E_ARTIFACTS). Each journey makes its
// own space through the core's commands, so the journeys do not depend on one another or on the demo.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { launch } from "./browser.mjs";
import { callCore } from "./webshell.mjs";

const { WEB_SHELL_URL } = process.env;
const ARTIFACTS = process.env.E2E_ARTIFACTS ?? fileURLToPath(new URL("../artifacts/browser", import.meta.url));
if (!WEB_SHELL_URL) throw new Error("WEB_SHELL_URL is not set: run scripts/ui-e2e.sh");
const TOKEN = new URL(WEB_SHELL_URL).searchParams.get("token");
const ORIGIN = new URL(WEB_SHELL_URL).origin;

let browser, context, page;
const replies = [];
let pageErrors = [];

/** A core command over web-shell, as the UI calls it (for setting up and for reading back). */
const ipc = (command, args) => callCore(ORIGIN, TOKEN, command, args);

/** A new space with cards in its first two stages; the page shows its board. */
async function boardWith(name, first, second = []) {
  const space = await ipc("space_create", { name });
  const { stages } = await ipc("board_load", { spaceId: space.id });
  const cards = {};
  for (const [stage, titles] of [[stages[0], first], [stages[1], second]]) {
    for (const title of titles) {
      cards[title] = await ipc("card_create", { spaceId: space.id, stage: stage.id, title, platform: "instagram" });
    }
  }
  await page.goto(`${ORIGIN}/`);
  await page.getByRole("tab", { name }).click();
  await page.getByRole("region", { name: `${stages[0].name} stage` }).getByText(first[0] ?? "").first().waitFor();
  return { space, stages, cards };
}

async function titlesIn(spaceId, stageId) {
  const board = await ipc("board_load", { spaceId });
  return board.cards.filter((c) => c.stageId === stageId).map((c) => c.title);
}

before(async () => {
  fs.mkdirSync(ARTIFACTS, { recursive: true });
  browser = await launch({ width: 1360, height: 860, tag: "planner" });
  ({ context, page, pageErrors } = browser);
  page.on("response", async (res) => {
    if (!res.url().includes("/ipc/")) return;
    try { replies.push({ url: new URL(res.url()).pathname, status: res.status(), body: await res.text() }); } catch { /* closed */ }
  });
  // The first visit takes the token out of the URL and keeps it for the tab.
  await page.goto(WEB_SHELL_URL);
  await page.getByRole("tab", { name: /Content plan/ }).waitFor();
});

after(async () => {
  if (page) fs.writeFileSync(path.join(ARTIFACTS, "planner-dom.html"), await page.content());
  fs.writeFileSync(path.join(ARTIFACTS, "planner-ipc-replies.jsonl"), replies.map((r) => JSON.stringify(r)).join("\n") + "\n");
  fs.writeFileSync(path.join(ARTIFACTS, "planner-page-errors.txt"), pageErrors.join("\n") + (pageErrors.length ? "\n" : ""));
  await browser?.close();
});

test("drag a card to another column: it moves at once, the service keeps it, a reload shows it there", async () => {
  const { space, stages, cards } = await boardWith("Drag journey", ["Alpha", "Beta"], ["Gamma"]);
  await page.screenshot({ path: path.join(ARTIFACTS, "planner-board.png") });
  const source = page.getByTestId(`card-${cards.Alpha.id}`);
  const target = page.getByTestId(`card-${cards.Gamma.id}`);
  // Drop on the upper half of Gamma: Alpha goes before it.
  const box = await target.boundingBox();
  await source.dragTo(target, { targetPosition: { x: box.width / 2, y: 4 } });
  await page.getByRole("region", { name: `${stages[1].name} stage` }).getByTestId(`card-${cards.Alpha.id}`).waitFor();
  // The request follows the optimistic move: wait for the service to agree.
  for (let i = 0; i < 50 && (await titlesIn(space.id, stages[1].id))[0] !== "Alpha"; i++) await page.waitForTimeout(100);
  assert.deepEqual(await titlesIn(space.id, stages[1].id), ["Alpha", "Gamma"]);
  assert.deepEqual(await titlesIn(space.id, stages[0].id), ["Beta"]);
  await page.reload();
  await page.getByRole("tab", { name: "Drag journey" }).click();
  const column = page.getByRole("region", { name: `${stages[1].name} stage` });
  await column.getByTestId(`card-${cards.Alpha.id}`).waitFor();
  assert.equal(await page.getByRole("region", { name: `${stages[0].name} stage` }).getByTestId(`card-${cards.Alpha.id}`).count(), 0);
  await page.screenshot({ path: path.join(ARTIFACTS, "planner-after-drag.png") });
});

test("the same move by keyboard: handle, Move to…, announced, focus back on the card, kept after reload", async () => {
  const { space, stages, cards } = await boardWith("Keyboard journey", ["One", "Two", "Three"], ["Four"]);
  await page.getByRole("button", { name: "Move Three" }).focus();
  await page.keyboard.press("Enter");
  const menu = page.getByRole("menu");
  await menu.waitFor();
  await menu.getByRole("menuitem", { name: `To ${stages[1].name}` }).click();
  const status = page.getByTestId("board-status");
  await page.waitForFunction(() => /moved to/i.test(document.querySelector('[data-testid="board-status"]')?.textContent ?? ""));
  assert.match(await status.innerText(), new RegExp(`Three.*moved to ${stages[1].name}`, "i"));
  const focused = await page.evaluate(() => document.activeElement?.closest("[data-card-id]")?.getAttribute("data-card-id"));
  assert.equal(focused, cards.Three.id, "focus returns to the moved card");
  // Alt+ArrowUp on the focused card: to the top of its new column.
  await page.keyboard.press("Alt+ArrowUp");
  for (let i = 0; i < 50 && (await titlesIn(space.id, stages[1].id))[0] !== "Three"; i++) await page.waitForTimeout(100);
  assert.deepEqual(await titlesIn(space.id, stages[1].id), ["Three", "Four"]);
  await page.reload();
  await page.getByRole("tab", { name: "Keyboard journey" }).click();
  await page.getByRole("region", { name: `${stages[1].name} stage` }).getByTestId(`card-${cards.Three.id}`).waitFor();
});

test("reorder the carousel in the editor, save, reload: the order is kept", async () => {
  const { cards } = await boardWith("Carousel journey", ["Carousel card"]);
  const id = cards["Carousel card"].id;
  await ipc("card_update", {
    cardId: id,
    update: { assets: [{ assetUrl: "https://example.com/first.png" }, { assetUrl: "https://example.com/second.png" }] },
  });
  await page.getByTestId(`card-${id}`).getByRole("button", { name: "Carousel card", exact: true }).click();
  const editor = page.getByTestId("card-editor");
  await editor.waitFor();
  const assets = editor.getByTestId("asset");
  await assets.first().waitFor();
  assert.equal(await assets.count(), 2);
  await assets.first().focus();
  await page.keyboard.press("Alt+ArrowRight");
  await page.screenshot({ path: path.join(ARTIFACTS, "planner-editor.png") });
  await editor.getByRole("button", { name: "Save", exact: true }).click();
  for (let i = 0; i < 50; i++) {
    const card = await ipc("card_get", { cardId: id });
    if (card.assets[0]?.assetUrl === "https://example.com/second.png") break;
    await page.waitForTimeout(100);
  }
  const card = await ipc("card_get", { cardId: id });
  assert.deepEqual(card.assets.map((a) => a.assetUrl), ["https://example.com/second.png", "https://example.com/first.png"]);
  await page.reload();
  await page.getByRole("tab", { name: "Carousel journey" }).click();
  await page.getByTestId(`card-${id}`).getByRole("button", { name: "Carousel card", exact: true }).click();
  await page.getByTestId("card-editor").getByTestId("asset").first().waitFor();
  assert.match(await page.getByTestId("card-editor").getByTestId("asset").first().getAttribute("aria-label"), /second\.png/);
});

test("a notes conflict shows theirs beside yours and loses nothing", async () => {
  const { cards } = await boardWith("Notes journey", ["Notes card"]);
  const id = cards["Notes card"].id;
  await page.getByTestId(`card-${id}`).getByRole("button", { name: "Notes card", exact: true }).click();
  const editor = page.getByTestId("card-editor");
  await editor.getByLabel(/^Notes/).waitFor();
  // Someone else saves notes meanwhile.
  const before = await ipc("card_get", { cardId: id });
  await ipc("card_update", { cardId: id, update: { notes: "Their text", expectedRevision: before.revision } });
  await editor.getByLabel(/^Notes/).fill("My careful text");
  await editor.getByRole("button", { name: "Save", exact: true }).click();
  const conflict = editor.getByTestId("notes-conflict");
  await conflict.waitFor();
  assert.equal(await conflict.getByLabel("Theirs").inputValue(), "Their text");
  assert.equal(await conflict.getByLabel("Yours").inputValue(), "My careful text");
  await page.screenshot({ path: path.join(ARTIFACTS, "planner-notes-conflict.png") });
  await conflict.getByRole("button", { name: "Keep mine", exact: true }).click();
  for (let i = 0; i < 50 && (await ipc("card_get", { cardId: id })).notes !== "My careful text"; i++) await page.waitForTimeout(100);
  assert.equal((await ipc("card_get", { cardId: id })).notes, "My careful text");
});

/** Opens a card's editor from the board. */
async function openEditor(id, title) {
  await page.getByTestId(`card-${id}`).getByRole("button", { name: title, exact: true }).click();
  const editor = page.getByTestId("card-editor");
  await editor.getByLabel("Title").waitFor();
  return editor;
}

/** Polls `card_get` until `ok(card)` (the save is in flight), then answers the card. */
async function cardWhen(id, ok) {
  for (let i = 0; i < 50; i++) {
    const card = await ipc("card_get", { cardId: id });
    if (ok(card)) return card;
    await page.waitForTimeout(100);
  }
  return ipc("card_get", { cardId: id });
}

test("attach an inspiration post: the card read shows contentId with creator, score and views", async () => {
  const { cards } = await boardWith("Inspiration journey", ["Inspired card"]);
  const id = cards["Inspired card"].id;
  const { outliers } = await ipc("content_list", { limit: 20, offset: 0 });
  const post = outliers[0];
  const editor = await openEditor(id, "Inspired card");
  await editor.getByRole("button", { name: "Add inspiration post…" }).click();
  const picker = page.getByRole("dialog", { name: "Add an inspiration post" });
  const first = picker.getByTestId("inspiration-post").first();
  await first.waitFor();
  const shown = await first.textContent();
  assert.ok(shown.includes(post.sourceCreator ?? `@${post.accountHandle}`), shown);
  assert.match(shown, /× outlier/);
  assert.match(shown, /views/);
  // The demo's thumbnails are on picsum.photos: offline, the picker falls back to a placeholder.
  assert.ok(post.thumbnailUrl, "the list carries the thumbnail");
  assert.equal(await first.locator("img, .thumb-placeholder").count(), 1, "a thumbnail or its placeholder is shown");
  await page.screenshot({ path: path.join(ARTIFACTS, "planner-inspiration-picker.png") });
  await first.getByRole("button", { name: /^Attach/ }).click();
  await picker.waitFor({ state: "detached" });
  assert.match(await editor.getByTestId("asset").last().getAttribute("aria-label"), /\(inspiration\)$/);
  await editor.getByRole("button", { name: "Save", exact: true }).click();
  const card = await cardWhen(id, (c) => c.assets.some((a) => a.contentId === post.id));
  const a = card.assets.find((x) => x.contentId === post.id);
  assert.ok(a, "the card read shows the post by contentId");
  assert.equal(a.inspiration.creator, post.sourceCreator);
  assert.equal(a.inspiration.outlierScore, post.outlierScore);
  assert.equal(a.inspiration.viewCount, post.viewCount);
  await editor.getByText("Saved.").waitFor();
  await editor.getByTestId("asset").last().scrollIntoViewIfNeeded();
  await page.screenshot({ path: path.join(ARTIFACTS, "planner-inspiration-attached.png") });
});

test("create a project linked to the card: linkedCardId shown", async () => {
  const { cards } = await boardWith("Project journey", ["Project card"]);
  const id = cards["Project card"].id;
  const editor = await openEditor(id, "Project card");
  await editor.getByRole("button", { name: "Add project…" }).click();
  const picker = page.getByRole("dialog", { name: "Add a project" });
  await picker.getByLabel("Create a project linked to this card").fill("Journey cut");
  await picker.getByRole("button", { name: "Create and link" }).click();
  const created = picker.getByTestId("project-created");
  await created.waitFor();
  assert.match(await created.textContent(), /“Journey cut” was created and is linked to this card\./);
  const row = picker.getByTestId("project").filter({ hasText: "Journey cut" });
  assert.match(await row.textContent(), /linked to this card/);
  await page.screenshot({ path: path.join(ARTIFACTS, "planner-project-linked.png") });
  const reply = replies.find((r) => r.url === "/ipc/project_create");
  assert.equal(JSON.parse(reply.body).linkedCardId, id, "the answer carries linkedCardId");
  const project = (await ipc("projects_list")).find((p) => p.title === "Journey cut");
  assert.equal(project.linkedCardId, id);
  const card = await ipc("card_get", { cardId: id });
  assert.ok(card.assets.some((a) => a.projectId === project.id), "the project is on the card");
  await picker.getByRole("button", { name: "Done" }).click();
  await editor.getByTestId("asset").first().waitFor();
  assert.match(await editor.getByTestId("asset").first().getAttribute("aria-label"), /\(project\)$/);
});

test("the planner journeys raised no page errors", () => {
  // The notes journey's 409 is the conflict it asks for; Chromium logs every non-2xx fetch.
  // The sandbox's inspiration thumbnails are on picsum.photos, which an offline machine cannot resolve.
  const expected = (e) => /status of 409 \(Conflict\)/.test(e) || /net::ERR_NAME_NOT_RESOLVED/.test(e);
  assert.deepEqual(pageErrors.filter((e) => !expected(e)), []);
});
