// Previews and preflight journeys (issue 28 points 2 and 3) in Debian's Chromium against web-shell and its
// embedded sandbox (scripts/ui-e2e.sh), in a space of their own: the editor's live counter and a blocking
// finding beside the caption; each post previewed as its platform shows it (a 3-image Instagram carousel,
// an X post with a link counted 23, a TikTok video with its cover), shot in light and dark; and the marker a
// blocked card carries on its board tile and its calendar chip, from the core's preflight of the card; and the
// confirm before such a card is scheduled on the calendar (by keyboard and by mouse; Cancel, then confirm).
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import fs from "node:fs";
import path from "node:path";
import { shellEnv, openSpaceBoard, shootBothThemes, startPlannerJourney } from "./webshell.mjs";
import { makePreviewCards, X_CAPTION, X_LINK } from "./previewCard.mjs";

const { ARTIFACTS, ORIGIN, ipc } = shellEnv();
const SPACE = "Previews journey";

let browser, page, pageErrors = [];
let space, stages, cards, long;
const LONG_CAPTION = "word ".repeat(60).trim() + " extra"; // 305 characters: X refuses it (280)

before(async () => {
  ({ browser, page, pageErrors, space, stages } = await startPlannerJourney({ tag: "previews", space: SPACE }));
  cards = await makePreviewCards(ipc, space.id, stages[0].id);
  // A card X will refuse, scheduled within the calendar's current month (two hours from now).
  const c = await ipc("card_create", { spaceId: space.id, stage: stages[0].id, title: "Too long for X", platform: "x" });
  const at = new Date(Math.ceil(Date.now() / 3_600_000) * 3_600_000 + 3_600_000).toISOString();
  await ipc("card_update", { cardId: c.id, update: { scheduledAt: at, posts: [{ platform: "x", connectedAccountId: cards.accounts.x.id, platformSpecificData: { caption: LONG_CAPTION } }] } });
  long = { id: c.id, at };
});

after(async () => {
  if (page) fs.writeFileSync(path.join(ARTIFACTS, "previews-dom.html"), await page.content());
  fs.writeFileSync(path.join(ARTIFACTS, "previews-page-errors.txt"), pageErrors.join("\n") + (pageErrors.length ? "\n" : ""));
  await browser?.close();
});

/** `locator` shot in light and dark: previews-<name>-<theme>.png. */
const shoot = (name, locator = page) => shootBothThemes(page, (theme) => path.join(ARTIFACTS, `previews-${name}-${theme}.png`), locator);

const openBoard = () => openSpaceBoard(page, ORIGIN, SPACE);

async function openCard(cardId) {
  await page.locator(`section.column [data-card-id="${cardId}"] button.open`).click();
  await page.getByTestId("card-editor").waitFor();
  await page.getByLabel("Title", { exact: true }).waitFor();
}

const postOf = (platform) => page.getByTestId("post").filter({ has: page.locator(`[data-testid="post-preview"][data-platform="${platform}"]`) });

test("the editor: a live counter as X counts, and a blocking finding beside the caption", async () => {
  await openBoard();
  await openCard(long.id);
  const post = postOf("x");
  const counter = post.getByTestId("caption-counter");
  assert.equal((await counter.innerText()).trim(), `${LONG_CAPTION.length} / 280`);
  assert.match(await counter.getAttribute("class"), /\bover\b/);
  const finding = post.getByTestId("post-finding");
  assert.equal((await finding.innerText()).trim(), `caption: ${LONG_CAPTION.length} / 280 characters; X refuses it.`);
  // Beside its field: right after the caption and its counter, in the same post.
  const order = await post.evaluate((el) => [...el.querySelectorAll("textarea, [data-testid=caption-counter], [data-testid=post-finding]")].map((n) => n.dataset.testid ?? n.tagName));
  assert.deepEqual(order, ["TEXTAREA", "caption-counter", "post-finding"]);
  await shoot("editor-finding", post);
  // Typed: the link counts 23 however long it is, and the finding goes.
  await post.getByLabel("Caption").fill(X_CAPTION);
  assert.equal((await counter.innerText()).trim(), `${X_CAPTION.length - X_LINK.length + 23} / 280`);
  assert.equal(await post.getByTestId("post-finding").count(), 0);
  await page.keyboard.press("Escape");
  await page.getByRole("button", { name: "Discard changes" }).click();
  await page.getByTestId("card-editor").waitFor({ state: "detached" });
});

test("previews: a 3-image Instagram carousel and an X post with a link, as each platform shows them", async () => {
  await openBoard();
  await openCard(cards.spring);
  const ig = page.locator('[data-testid="post-preview"][data-platform="instagram"]');
  await ig.waitFor();
  assert.equal(await ig.getAttribute("data-layout"), "carousel");
  assert.equal(await ig.getByTestId("preview-name").innerText(), cards.accounts.instagram.accountName);
  assert.equal(await ig.getByTestId("preview-handle").innerText(), "@demostudio");
  assert.equal(await ig.getByTestId("preview-slide").count(), 3);
  assert.equal(await ig.getByTestId("preview-position").innerText(), "1 / 3");
  // The frame takes the first image's shape (1:1, within Instagram's 4:5 to 1.91:1).
  await ig.getByTestId("preview-crop").waitFor();
  assert.match(await ig.getByTestId("preview-crop").innerText(), /^Shown at 1:1: Instagram takes 4:5 to 1\.91:1\.$/);
  const box = await ig.getByTestId("preview-carousel").boundingBox();
  assert.ok(Math.abs(box.width / box.height - 1) < 0.02, `a square frame: ${box.width}x${box.height}`);
  assert.match(await ig.getByTestId("preview-cut-note").innerText(), /^Whole text shown: where Instagram cuts it/);
  await shoot("instagram-1", ig);
  await ig.getByRole("button", { name: "Next Instagram item" }).click();
  assert.equal(await ig.getByTestId("preview-position").innerText(), "2 / 3");
  await shoot("instagram-2", ig);
  const loaded = await ig.evaluate((el) => [...el.querySelectorAll("img")].map((i) => i.complete && i.naturalWidth > 0));
  assert.deepEqual(loaded, [true, true, true], "every slide's picture loads");

  const x = page.locator('[data-testid="post-preview"][data-platform="x"]');
  assert.equal(await x.getAttribute("data-layout"), "grid");
  assert.equal(await x.getByTestId("preview-handle").innerText(), "@demostudio");
  assert.equal(await x.getByTestId("preview-text").innerText(), X_CAPTION, "no sourced cut: the whole text");
  assert.equal(await x.locator(".cell img").count(), 3);
  assert.equal(await postOf("x").getByTestId("caption-counter").innerText(), `${X_CAPTION.length - X_LINK.length + 23} / 280`);
  await shoot("x", x);
  // The editor does not scroll sideways: the previews fit, and the asset row scrolls within itself.
  const sideways = await page.getByTestId("card-editor").evaluate((panel) => {
    const body = panel.querySelector(".body");
    return body.scrollWidth - body.clientWidth;
  });
  assert.equal(sideways, 0, "the editor's body is no wider than its panel");
  await shoot("editor-spring", page.getByTestId("card-editor"));
  await page.keyboard.press("Escape");
  await page.getByTestId("card-editor").waitFor({ state: "detached" });
});

test("previews: a TikTok video shows its cover in the frame, the caption over it", async () => {
  await openBoard();
  await openCard(cards.tour);
  const tt = page.locator('[data-testid="post-preview"][data-platform="tiktok"]');
  await tt.waitFor();
  assert.equal(await tt.getAttribute("data-layout"), "video");
  const read = await ipc("card_get", { cardId: cards.tour });
  const cover = tt.getByTestId("preview-cover");
  assert.equal(await cover.getAttribute("src"), read.coverUrl);
  await page.waitForFunction((el) => el.complete && el.naturalWidth > 0, await cover.elementHandle());
  assert.match(await tt.getByTestId("preview-text").innerText(), /^A walk through the studio/);
  const frame = await tt.getByTestId("preview-video").boundingBox();
  assert.ok(frame.height > frame.width, `a portrait frame: ${frame.width}x${frame.height}`);
  await shoot("tiktok", tt);
  await page.keyboard.press("Escape");
  await page.getByTestId("card-editor").waitFor({ state: "detached" });
});

test("markers: the blocked card's tile and calendar chip say what blocks; a card within the rules has none", async () => {
  await openBoard();
  const tile = page.locator(`section.column [data-card-id="${long.id}"]`);
  const mark = tile.getByTestId("card-finding");
  await mark.waitFor();
  assert.equal(await mark.getAttribute("data-level"), "blocks");
  assert.equal(await mark.getAttribute("role"), "img");
  assert.equal(await mark.getAttribute("aria-label"), `A platform will refuse this card: X caption: ${LONG_CAPTION.length} / 280 characters; X refuses it.`);
  // The findings are the core's (the same as `card check`).
  const check = await ipc("calendar_posts", { cards: [{ id: long.id }] });
  assert.deepEqual(check[0].findings.map((f) => [f.platform, f.rule, f.actual, f.severity]), [["x", "max_length", LONG_CAPTION.length, "blocks"]]);
  // Spring drop has been read too (on screen) and has none.
  await page.waitForFunction((id) => document.querySelector(`[data-card-id="${id}"]`) !== null, cards.spring);
  assert.equal(await page.locator(`section.column [data-card-id="${cards.spring}"]`).getByTestId("card-finding").count(), 0);
  await shoot("tile", tile);

  await page.getByTestId("view-calendar").click();
  await page.getByTestId("calendar").waitFor();
  await page.getByRole("button", { name: "Month", exact: true }).click();
  const chip = page.locator(`[data-testid="calendar-item"][data-card="${long.id}"]`);
  await chip.getByTestId("calendar-finding").waitFor();
  assert.equal(await chip.getByTestId("calendar-finding").getAttribute("data-level"), "blocks");
  assert.match(await chip.getAttribute("aria-label"), /\. A platform will refuse this card: X caption: \d+ \/ 280 characters; X refuses it\. Enter opens/);
  await shoot("chip", chip);
});

test("scheduling a card a platform will refuse asks first: Cancel leaves it unscheduled, Schedule anyway schedules it", async () => {
  const c = await ipc("card_create", { spaceId: space.id, stage: stages[0].id, title: "Unscheduled and too long", platform: "x" });
  await ipc("card_update", { cardId: c.id, update: { posts: [{ platform: "x", connectedAccountId: cards.accounts.x.id, platformSpecificData: { caption: LONG_CAPTION } }] } });
  await openBoard();
  await page.getByTestId("view-calendar").click();
  await page.getByRole("button", { name: "Month", exact: true }).click();
  const waiting = page.locator(`[data-testid="calendar-unscheduled"] [data-card="${c.id}"]`);
  await waiting.waitFor();
  const today = new Date().toISOString().slice(0, 10); // the calendar's zone is UTC
  const dayCell = page.locator(`[data-testid="calendar-day"][data-day="${today}"]`);
  const dialog = page.getByRole("alertdialog", { name: "Schedule a post the platform will refuse?" });

  // By keyboard: Space picks it up, Enter drops it; the dialog names the finding, Cancel is focused, Escape
  // and Cancel leave the card where it was (on the service too).
  await waiting.focus();
  await page.keyboard.press("Space");
  await page.keyboard.press("Enter");
  await dialog.waitFor();
  const message = await dialog.locator("#confirm-message").innerText();
  assert.match(message, /^“Unscheduled and too long” would be scheduled for .*, but a platform will refuse it as it is: X caption: 305 \/ 280 characters; X refuses it\. Fix it first, or schedule it anyway\.$/);
  assert.equal(await page.evaluate(() => document.activeElement?.textContent), "Cancel");
  // Tab stays inside the dialog (the shared focus trap).
  await page.keyboard.press("Tab");
  await page.keyboard.press("Tab");
  assert.equal(await page.evaluate(() => document.activeElement?.textContent), "Cancel");
  await shoot("schedule-confirm");
  await page.keyboard.press("Escape");
  await dialog.waitFor({ state: "detached" });
  await page.getByRole("button", { name: "Cancel" }).count().then((n) => assert.equal(n, 0));
  assert.match(await page.getByTestId("board-status").innerText(), /“Unscheduled and too long” stays unscheduled\./);
  await waiting.waitFor();
  assert.equal((await ipc("card_get", { cardId: c.id })).scheduledAt, null);

  // By mouse: dragged onto today, asked again; Cancel leaves it unscheduled.
  await waiting.dragTo(dayCell);
  await dialog.waitFor();
  await dialog.getByRole("button", { name: "Cancel" }).click();
  await dialog.waitFor({ state: "detached" });
  await waiting.waitFor();
  assert.equal(await dayCell.locator(`[data-card="${c.id}"]`).count(), 0);
  assert.equal((await ipc("card_get", { cardId: c.id })).scheduledAt, null);

  // Confirmed: on today at 09:00, on the service too.
  await waiting.dragTo(dayCell);
  await dialog.getByRole("button", { name: "Schedule anyway" }).click();
  await dialog.waitFor({ state: "detached" });
  await dayCell.locator(`[data-card="${c.id}"]`).waitFor();
  let read;
  for (let i = 0; i < 50 && !(read = await ipc("card_get", { cardId: c.id })).scheduledAt; i++) await page.waitForTimeout(100);
  assert.equal(read.scheduledAt.replace(".000", ""), `${today}T09:00:00Z`);
});

test("no page errors", () => {
  assert.deepEqual(pageErrors, []);
});
