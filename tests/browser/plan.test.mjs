// Planning journeys (issue 28 points 4-5, issue 26 point 2) in Debian's Chromium against web-shell and
// its embedded sandbox (scripts/ui-e2e.sh), each read back from the service through the core: a
// duplicate from the editor; a repeat of 4 weekly copies; the posting queue filling three slots and a
// clash flagged on the calendar; a click on an empty calendar day making a card there; quick-add with
// two platforms making two posts; the editor's schedule typed and stepped by keyboard in the app's format.
// Its own space, so it depends on no other journey.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import fs from "node:fs";
import path from "node:path";
import { shellEnv, openSpaceBoard, shootBothThemes, startPlannerJourney } from "./webshell.mjs";

const { ARTIFACTS, ORIGIN, ipc } = shellEnv();

let browser, page, pageErrors = [];
let space, stages;

before(async () => {
  ({ browser, page, pageErrors, space, stages } = await startPlannerJourney({ tag: "plan", space: "Plan journey" }));
});

after(async () => {
  if (page) fs.writeFileSync(path.join(ARTIFACTS, "plan-dom.html"), await page.content());
  fs.writeFileSync(path.join(ARTIFACTS, "plan-page-errors.txt"), pageErrors.join("\n") + (pageErrors.length ? "\n" : ""));
  await browser?.close();
});

const shoot = (name) => shootBothThemes(page, (theme) => path.join(ARTIFACTS, `plan-${name}-${theme}.png`));

const openBoard = () => openSpaceBoard(page, ORIGIN, "Plan journey");

async function openCard(cardId) {
  await page.locator(`section.column [data-card-id="${cardId}"] button.open`).click();
  await page.getByTestId("card-editor").waitFor();
  await page.getByLabel("Title", { exact: true }).waitFor();
}

async function allCards() {
  const board = await ipc("board_load", { spaceId: space.id });
  return board.cards;
}

test("duplicate from the editor: a copy with its posts, unscheduled, “(copy)” in its title, on the board", async () => {
  const card = await ipc("card_create", { spaceId: space.id, stage: stages[0].id, title: "Launch teaser", platform: "instagram" });
  await ipc("card_update", { cardId: card.id, update: { scheduledAt: "2027-01-04T09:00:00Z", posts: [{ platform: "instagram", platformSpecificData: { caption: "Soon" } }, { platform: "x", platformSpecificData: { caption: "Soon!" } }] } });
  await openBoard();
  await openCard(card.id);
  await page.getByRole("button", { name: "Duplicate" }).click();
  await page.getByTestId("card-copied").filter({ hasText: "Launch teaser (copy)" }).waitFor();
  await page.keyboard.press("Escape");
  await page.getByTestId("card-editor").waitFor({ state: "detached" });
  await page.locator("section.column [data-card-id]").filter({ hasText: "Launch teaser (copy)" }).waitFor();
  const copies = (await allCards()).filter((c) => c.title === "Launch teaser (copy)");
  assert.equal(copies.length, 1);
  const copy = await ipc("card_get", { cardId: copies[0].id });
  assert.equal(copy.scheduledAt, null);
  assert.deepEqual(copy.posts.map((p) => [p.platform, p.platformSettings?.caption]).sort(), [["instagram", "Soon"], ["x", "Soon!"]]);
});

test("repeat: 4 weekly copies, each an ordinary card at its own time", async () => {
  const card = await ipc("card_create", { spaceId: space.id, stage: stages[0].id, title: "Weekly tip", platform: "linkedin" });
  await ipc("card_update", { cardId: card.id, update: { scheduledAt: "2027-02-01T08:00:00Z" } });
  await openBoard();
  await openCard(card.id);
  await page.getByRole("button", { name: "Repeat…" }).click();
  const dialog = page.getByTestId("repeat-dialog");
  await dialog.waitFor();
  await dialog.getByLabel("Every").fill("1");
  await dialog.getByLabel("Number of copies").fill("4");
  await shoot("repeat-dialog");
  await dialog.getByRole("button", { name: "Make copies" }).click();
  await page.getByTestId("card-copied").filter({ hasText: "4 copies made" }).waitFor();
  await shoot("repeat-done");
  await page.keyboard.press("Escape");
  const times = (await allCards()).filter((c) => c.title === "Weekly tip" && c.id !== card.id).map((c) => Date.parse(c.scheduledAt)).sort();
  const week = 7 * 86_400_000, first = Date.parse("2027-02-01T08:00:00Z");
  assert.deepEqual(times, [1, 2, 3, 4].map((k) => first + k * week));
});

test("the queue fills three slots, and a card 10 minutes from one is flagged as a clash on the calendar", async () => {
  const accounts = await ipc("connected_accounts_list");
  assert.ok(accounts.length > 0, "the sandbox connects an account");
  // Slots in the Settings editor: Monday to Friday at 09:00 local (the browser runs in UTC here).
  await page.goto(`${ORIGIN}/#/settings`);
  const queue = page.getByTestId("queue-slots");
  await queue.getByRole("button", { name: "Save queue" }).waitFor();
  const label = await queue.locator("section.account h3").first().innerText();
  const section = queue.getByRole("region", { name: label });
  await section.getByLabel(`Time for ${label}`).fill("09:00");
  await section.getByRole("button", { name: "Add Mon–Fri" }).click();
  await shoot("settings-queue");
  await queue.getByRole("button", { name: "Save queue" }).click();
  await queue.getByRole("status").filter({ hasText: "Posting queue saved" }).waitFor();
  const saved = await ipc("queue_slots_get");
  assert.ok(saved.slots.length >= 5, JSON.stringify(saved));
  const slotAccount = saved.slots[0].accountId;
  assert.ok(saved.slots.every((s) => s.accountId === slotAccount), "the first account's slots only");
  const platform = accounts.find((a) => a.id === slotAccount).platform;
  // Stored in UTC: 09:00 local is 09:00 UTC only when the browser runs in UTC.
  const localNine = new Date(await page.evaluate(() => { const d = new Date(); d.setHours(9, 0, 0, 0); return d.toISOString(); }));
  const nine = `${localNine.getUTCHours()}:${localNine.getUTCMinutes()}`;

  const ids = [];
  for (const n of [1, 2, 3]) {
    const c = await ipc("card_create", { spaceId: space.id, stage: stages[0].id, title: `Queued ${n}`, platform });
    await ipc("card_update", { cardId: c.id, update: { posts: [{ platform, connectedAccountId: slotAccount }] } });
    ids.push(c.id);
  }
  await openBoard();
  const placed = [];
  for (const id of ids) {
    await openCard(id);
    await page.getByRole("button", { name: "Add to queue" }).click();
    await page.getByTestId("card-copied").filter({ hasText: "Queued:" }).waitFor();
    await page.keyboard.press("Escape");
    await page.getByTestId("card-editor").waitFor({ state: "detached" });
    placed.push(Date.parse((await ipc("card_get", { cardId: id })).scheduledAt));
  }
  assert.equal(new Set(placed).size, 3, "three different slots");
  for (const t of placed) {
    const d = new Date(t);
    assert.equal(`${d.getUTCHours()}:${d.getUTCMinutes()}`, nine, d.toISOString());
  }
  assert.deepEqual([...placed].sort((a, b) => a - b), placed, "in slot order");

  // A card 10 minutes after the first: both flagged on the calendar.
  const near = await ipc("card_create", { spaceId: space.id, stage: stages[0].id, title: "Too close", platform });
  await ipc("card_update", { cardId: near.id, update: { scheduledAt: new Date(placed[0] + 600_000).toISOString(), posts: [{ platform, connectedAccountId: slotAccount }] } });
  await openBoard();
  await page.getByTestId("view-calendar").click();
  await page.getByRole("button", { name: "Week", exact: true }).click();
  const heading = page.getByTestId("calendar-title");
  await heading.waitFor();
  for (let i = 0; i < 10 && !(await page.locator(`[data-testid="calendar-item"][data-card="${ids[0]}"]`).count()); i++) {
    await page.getByRole("button", { name: "Next week" }).click();
  }
  for (const id of [ids[0], near.id]) {
    await page.locator(`[data-testid="calendar-item"][data-card="${id}"] [data-testid="calendar-clash"]`).first().waitFor({ state: "attached" });
  }
  assert.equal(await page.locator(`[data-testid="calendar-item"][data-card="${ids[1]}"] [data-testid="calendar-clash"]`).count(), 0);
  assert.ok((await page.getByTestId("calendar-free-slot").count()) > 0, "free slots are shown faintly");
  await page.locator(`[data-testid="calendar-item"][data-card="${ids[0]}"]`).first().scrollIntoViewIfNeeded();
  await shoot("calendar-week-queue");
});

test("a click on an empty calendar day makes a card there and opens it", async () => {
  await openBoard();
  await page.getByTestId("view-calendar").click();
  await page.getByRole("button", { name: "Month", exact: true }).click();
  await page.getByTestId("calendar-month").waitFor();
  // An empty day of the month shown: the 28th is in every month.
  const title = await page.getByTestId("calendar-title").innerText();
  const first = new Date(`1 ${title} UTC`);
  const day = `${first.getUTCFullYear()}-${String(first.getUTCMonth() + 1).padStart(2, "0")}-28`;
  const cell = page.locator(`[data-testid="calendar-day"][data-day="${day}"]`);
  assert.equal(await cell.locator('[data-testid="calendar-item"]').count(), 0, "the day is empty");
  await cell.click({ position: { x: 60, y: 70 } });
  await page.getByTestId("card-editor").waitFor();
  const made = (await allCards()).filter((c) => c.title === "New post");
  assert.equal(made.length, 1);
  assert.equal(made[0].scheduledAt && new Date(made[0].scheduledAt).toISOString(), `${day}T09:00:00.000Z`);
  await page.keyboard.press("Escape");
});

test("quick-add with two platforms makes one card with a post for each", async () => {
  await openBoard();
  await page.getByRole("button", { name: `New card in ${stages[0].name}` }).click();
  await page.getByLabel(`Title of the new card in ${stages[0].name}`).fill("Two platforms");
  const picks = page.getByTestId("new-platforms").first();
  await picks.getByLabel("TikTok").check();
  await picks.getByLabel("YouTube").check();
  await page.getByRole("button", { name: "Add card" }).click();
  await page.locator("section.column [data-card-id]").filter({ hasText: "Two platforms" }).waitFor();
  const card = (await allCards()).find((c) => c.title === "Two platforms");
  const detail = await ipc("card_get", { cardId: card.id });
  assert.deepEqual(detail.posts.map((p) => p.platform).sort(), ["tiktok", "youtube"]);
});

test("the editor's schedule: written in the app's format, typed and stepped by keyboard, saved as that time", async () => {
  const card = await ipc("card_create", { spaceId: space.id, stage: stages[1].id, title: "Dated by keyboard", platform: "linkedin" }); // a stage of its own: Ideas is long by now
  await ipc("card_update", { cardId: card.id, update: { scheduledAt: "2027-01-04T09:00:00Z" } });
  await openBoard();
  await openCard(card.id);
  const day = page.getByTestId("card-editor").getByLabel(/^Scheduled/);
  const time = page.getByTestId("card-editor").getByLabel("Time", { exact: true });
  // In the app's one date style (shared/datetime.ts; Chromium here speaks en-US), not the browser's
  // "01/04/2027, 09:00 AM", the time on the 24-hour clock.
  assert.match(await day.inputValue(), /^Jan [345], 2027$/);
  assert.match(await time.inputValue(), /^\d\d:\d\d$/);
  // Typed as people write it, then a day on with the arrow key; the time typed with am/pm.
  await day.fill("");
  await day.type("5 jan 2027");
  await page.keyboard.press("Enter");
  assert.equal(await day.inputValue(), "Jan 5, 2027");
  await page.keyboard.press("ArrowUp");
  assert.equal(await day.inputValue(), "Jan 6, 2027");
  await page.keyboard.press("Tab");
  assert.equal(await time.evaluate((el) => el === document.activeElement), true, "Tab goes from the day to the time");
  await page.keyboard.press("Control+a");
  await page.keyboard.type("2:30 pm");
  await page.keyboard.press("Enter");
  assert.equal(await time.inputValue(), "14:30");
  await shoot("editor-date", page.getByTestId("card-editor").locator(".field").filter({ has: day }));
  // A wrong day is named beside the field, and nothing changes.
  await day.fill("31 Feb 2027");
  await day.press("Enter");
  assert.match(await page.getByTestId("date-error").innerText(), /“31 Feb 2027” is not a day: write it like \w{3} \d{1,2}, \d{4}\./);
  await day.fill("6 Jan 2027");
  await day.press("Enter");
  assert.equal(await page.getByTestId("date-error").count(), 0);
  await page.keyboard.press("Control+s");
  const want = await page.evaluate(() => new Date(2027, 0, 6, 14, 30).toISOString());
  let read;
  for (let i = 0; i < 50 && (read = await ipc("card_get", { cardId: card.id })).scheduledAt?.replace(".000", "") !== want.replace(".000", ""); i++) await page.waitForTimeout(100);
  assert.equal(read.scheduledAt.replace(".000", ""), want.replace(".000", ""));
  await page.keyboard.press("Escape");
  await page.getByTestId("card-editor").waitFor({ state: "detached" });
});

test("no page errors", () => {
  assert.deepEqual(pageErrors, []);
});
