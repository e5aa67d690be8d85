// The planner's calendar in Debian's Chromium (playwright-core) against web-shell and its embedded
// sandbox (scripts/ui-e2e.sh): a scheduled post dragged to the next day — across Berlin's 2026
// spring-forward, so the kept time of day is checked end to end — then by keyboard, then undone; each
// read back from the service and after a reload. Its own space, so it depends on no other journey.
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
const ipc = (command, args) => callCore(ORIGIN, TOKEN, command, args);

let browser, page, pageErrors = [];

before(async () => {
  fs.mkdirSync(ARTIFACTS, { recursive: true });
  browser = await launch({ width: 1360, height: 900, tag: "calendar" });
  ({ page, pageErrors } = browser);
  await page.goto(WEB_SHELL_URL);
  await page.getByRole("tab", { name: /Content plan/ }).waitFor();
  // The calendar's zone is this computer's UI state: Berlin, whatever the machine's zone.
  await page.evaluate(() => localStorage.setItem("contentdesk.calendar.zone", "Europe/Berlin"));
});

after(async () => {
  if (page) fs.writeFileSync(path.join(ARTIFACTS, "calendar-dom.html"), await page.content());
  fs.writeFileSync(path.join(ARTIFACTS, "calendar-page-errors.txt"), pageErrors.join("\n") + (pageErrors.length ? "\n" : ""));
  await browser?.close();
});

/** The calendar's month view paged to `title` ("March 2026"). */
async function showMonth(title, target) {
  const heading = page.getByTestId("calendar-title");
  await heading.waitFor();
  for (let i = 0; i < 48 && (await heading.innerText()) !== title; i++) {
    const now = Date.parse(`1 ${await heading.innerText()}`);
    await page.getByRole("button", { name: now > target ? "Previous month" : "Next month" }).click();
  }
  assert.equal(await heading.innerText(), title);
}

async function scheduledAt(cardId, expected) {
  for (let i = 0; i < 50; i++) {
    const card = await ipc("card_get", { cardId });
    if (card.scheduledAt && Date.parse(card.scheduledAt) === Date.parse(expected)) return card;
    await page.waitForTimeout(100);
  }
  return ipc("card_get", { cardId });
}

const dayCell = (day) => page.locator(`[data-testid="calendar-day"][data-day="${day}"]`);

test("drag a scheduled post to the next day, by mouse then by keyboard, undo; the service and a reload agree", async () => {
  const space = await ipc("space_create", { name: "Calendar journey" });
  const { stages } = await ipc("board_load", { spaceId: space.id });
  const post = await ipc("card_create", { spaceId: space.id, stage: stages[0].id, title: "Spring launch", platform: "instagram" });
  const other = await ipc("card_create", { spaceId: space.id, stage: stages[0].id, title: "Teaser reel", platform: "youtube" });
  await ipc("card_create", { spaceId: space.id, stage: stages[1].id, title: "Someday idea", platform: "tiktok" });
  // 09:00 in Berlin on the Saturday before the clocks go forward (CET, UTC+1).
  await ipc("card_update", { cardId: post.id, update: { scheduledAt: "2026-03-28T08:00:00Z" } });
  await ipc("card_update", { cardId: other.id, update: { scheduledAt: "2026-03-28T17:30:00Z" } });

  await page.goto(`${ORIGIN}/`);
  await page.getByRole("tab", { name: "Calendar journey" }).click();
  await page.getByRole("button", { name: "Calendar", exact: true }).click();
  await showMonth("March 2026", Date.UTC(2026, 2, 15));
  const item = page.locator(`[data-testid="calendar-item"][data-card="${post.id}"]`);
  await dayCell("2026-03-28").locator(`[data-card="${post.id}"]`).waitFor();
  assert.match(await item.innerText(), /09:00\s+Spring launch/);
  assert.match(await page.getByTestId("calendar-unscheduled").innerText(), /Someday idea/);
  await dayCell("2026-03-28").scrollIntoViewIfNeeded();
  await page.screenshot({ path: path.join(ARTIFACTS, "calendar-month.png") });

  // Mouse: onto Sunday the 29th. Still 09:00 on Berlin's wall clock, now CEST: 07:00 UTC.
  await item.dragTo(dayCell("2026-03-29"));
  await dayCell("2026-03-29").locator(`[data-card="${post.id}"]`).waitFor();
  assert.match(await page.getByTestId("board-status").innerText(), /Spring launch.*rescheduled to Mar 29, 2026, 09:00 \(Europe\/Berlin\)/);
  assert.equal((await scheduledAt(post.id, "2026-03-29T07:00:00Z")).scheduledAt.replace(".000", ""), "2026-03-29T07:00:00Z");

  await page.reload();
  await showMonth("March 2026", Date.UTC(2026, 2, 15));
  await dayCell("2026-03-29").locator(`[data-card="${post.id}"]`).waitFor();
  assert.equal(await dayCell("2026-03-28").locator(`[data-card="${post.id}"]`).count(), 0);

  // Keyboard: Space picks up, ArrowRight moves a day (announced), Enter drops.
  await item.focus();
  await page.keyboard.press("Space");
  await page.waitForFunction(() => /Picked up/.test(document.querySelector('[data-testid="board-status"]')?.textContent ?? ""));
  await page.keyboard.press("ArrowRight");
  assert.match(await page.getByTestId("board-status").innerText(), /^Mar 30, 2026$/);
  await page.keyboard.press("Enter");
  await dayCell("2026-03-30").locator(`[data-card="${post.id}"]`).waitFor();
  assert.equal((await scheduledAt(post.id, "2026-03-30T07:00:00Z")).scheduledAt.replace(".000", ""), "2026-03-30T07:00:00Z");
  const focused = await page.evaluate(() => document.activeElement?.getAttribute("data-card"));
  assert.equal(focused, post.id, "focus stays on the moved post");

  // Escape cancels a pick-up: nothing moves.
  await page.keyboard.press("Space");
  await page.keyboard.press("ArrowLeft");
  await page.keyboard.press("Escape");
  assert.match(await page.getByTestId("board-status").innerText(), /Move cancelled/);
  await dayCell("2026-03-30").locator(`[data-card="${post.id}"]`).waitFor();

  // Undo (the board's): back on the 29th, on the service too.
  await page.getByRole("button", { name: "Undo" }).click();
  await dayCell("2026-03-29").locator(`[data-card="${post.id}"]`).waitFor();
  assert.equal((await scheduledAt(post.id, "2026-03-29T07:00:00Z")).scheduledAt.replace(".000", ""), "2026-03-29T07:00:00Z");

  // An unscheduled card dragged onto a day gets 09:00 there.
  const idea = page.locator(`[data-testid="calendar-unscheduled"] [data-card]`).filter({ hasText: "Someday idea" });
  const ideaId = await idea.getAttribute("data-card");
  await idea.dragTo(dayCell("2026-03-31"));
  await dayCell("2026-03-31").locator(`[data-card="${ideaId}"]`).waitFor();
  assert.equal((await scheduledAt(ideaId, "2026-03-31T07:00:00Z")).scheduledAt.replace(".000", ""), "2026-03-31T07:00:00Z");

  await page.getByRole("button", { name: "Week", exact: true }).click();
  await page.getByTestId("calendar-week").waitFor();
  // The week of the last move (30 March – 5 April); one back shows the spring-forward weekend.
  await page.getByRole("button", { name: "Previous week" }).click();
  await page.locator(`[data-testid="calendar-slot"][data-day="2026-03-29"][data-minute="540"] [data-card="${post.id}"]`).waitFor();
  await page.screenshot({ path: path.join(ARTIFACTS, "calendar-week.png") });
  // Week view by keyboard: ArrowDown is the next hour slot; the minutes past the hour are kept.
  const inWeek = page.locator(`[data-testid="calendar-week"] [data-card="${post.id}"]`);
  await inWeek.focus();
  await page.keyboard.press("Space");
  await page.keyboard.press("ArrowDown");
  assert.match(await page.getByTestId("board-status").innerText(), /^Mar 29, 2026, 10:00$/);
  await page.keyboard.press("Enter");
  await page.locator(`[data-testid="calendar-slot"][data-day="2026-03-29"][data-minute="600"] [data-card="${post.id}"]`).waitFor();
  assert.equal((await scheduledAt(post.id, "2026-03-29T08:00:00Z")).scheduledAt.replace(".000", ""), "2026-03-29T08:00:00Z");
  await page.getByRole("button", { name: "Month", exact: true }).click();
  await page.getByRole("button", { name: "Board", exact: true }).click();
  assert.deepEqual(pageErrors, []);
});

test("a post with its own time shows on its own day and moves alone; the card's time moves the other post only", async () => {
  const space = await ipc("space_create", { name: "Calendar posts" });
  const { stages } = await ipc("board_load", { spaceId: space.id });
  const card = await ipc("card_create", { spaceId: space.id, stage: stages[0].id, title: "Two posts", platform: "instagram" });
  // The card at 10:00 in Berlin (CEST) on Tuesday 14 April; its Instagram post at its own 15:00 on Thursday 16th.
  await ipc("card_update", { cardId: card.id, update: {
    scheduledAt: "2026-04-14T08:00:00Z",
    posts: [{ platform: "instagram", scheduledAt: "2026-04-16T13:00:00Z" }, { platform: "tiktok" }],
  } });
  await page.goto(`${ORIGIN}/`);
  await page.getByRole("tab", { name: "Calendar posts" }).click();
  await page.getByRole("button", { name: "Calendar", exact: true }).click();
  await showMonth("April 2026", Date.UTC(2026, 3, 15));
  const ig = `[data-item="${card.id}:instagram"]`, tt = `[data-item="${card.id}:tiktok"]`;
  await dayCell("2026-04-16").locator(ig).waitFor();
  await dayCell("2026-04-14").locator(tt).waitFor();
  assert.match(await dayCell("2026-04-16").locator(ig).innerText(), /15:00\s+Two posts/);

  // The Instagram post to Friday 17th: only it moves (card_update with the whole posts list).
  await page.locator(ig).dragTo(dayCell("2026-04-17"));
  await dayCell("2026-04-17").locator(ig).waitFor();
  assert.match(await page.getByTestId("board-status").innerText(), /Instagram post of .Two posts. rescheduled to Apr 17, 2026, 15:00/);
  const postTimes = async (want) => {
    let read;
    for (let i = 0; i < 50; i++) {
      read = await ipc("card_get", { cardId: card.id });
      const t = Object.fromEntries(read.posts.map((p) => [p.platform, new Date(p.scheduledAt).toISOString()]));
      if (JSON.stringify(t) === JSON.stringify(want.posts) && Date.parse(read.scheduledAt) === Date.parse(want.card)) return t;
      await page.waitForTimeout(100);
    }
    return { card: read.scheduledAt, ...Object.fromEntries(read.posts.map((p) => [p.platform, p.scheduledAt])) };
  };
  assert.deepEqual(await postTimes({ card: "2026-04-14T08:00:00Z", posts: { instagram: "2026-04-17T13:00:00.000Z", tiktok: "2026-04-14T08:00:00.000Z" } }),
    { instagram: "2026-04-17T13:00:00.000Z", tiktok: "2026-04-14T08:00:00.000Z" });
  await dayCell("2026-04-14").locator(tt).waitFor();

  // The TikTok post has the card's time: dragging it moves the card, and the Instagram post keeps its own.
  await page.locator(tt).dragTo(dayCell("2026-04-15"));
  await dayCell("2026-04-15").locator(tt).waitFor();
  assert.deepEqual(await postTimes({ card: "2026-04-15T08:00:00Z", posts: { instagram: "2026-04-17T13:00:00.000Z", tiktok: "2026-04-15T08:00:00.000Z" } }),
    { instagram: "2026-04-17T13:00:00.000Z", tiktok: "2026-04-15T08:00:00.000Z" });

  await page.reload();
  await showMonth("April 2026", Date.UTC(2026, 3, 15));
  await dayCell("2026-04-17").locator(ig).waitFor();
  await dayCell("2026-04-15").locator(tt).waitFor();
  await page.screenshot({ path: path.join(ARTIFACTS, "calendar-posts.png") });
  await page.getByRole("button", { name: "Board", exact: true }).click();
  assert.deepEqual(pageErrors, []);
});

test("a post seven weeks from its card's time shows at its own time in its month, read by the window", async () => {
  const space = await ipc("space_create", { name: "Calendar far posts" });
  const { stages } = await ipc("board_load", { spaceId: space.id });
  const card = await ipc("card_create", { spaceId: space.id, stage: stages[0].id, title: "Far post", platform: "instagram" });
  // The card on Wednesday 1 April 2026 10:00 Berlin; its Instagram post on its own Wednesday 20 May 15:00: far
  // outside the 14 days around May's weeks that the cards near the window cover (calendar_window finds it).
  await ipc("card_update", { cardId: card.id, update: {
    scheduledAt: "2026-04-01T08:00:00Z",
    posts: [{ platform: "instagram", scheduledAt: "2026-05-20T13:00:00Z" }, { platform: "tiktok" }],
  } });
  await page.goto(`${ORIGIN}/`);
  await page.getByRole("tab", { name: "Calendar far posts" }).click();
  await page.getByRole("button", { name: "Calendar", exact: true }).click();
  await showMonth("May 2026", Date.UTC(2026, 4, 15));
  const ig = `[data-item="${card.id}:instagram"]`, tt = `[data-item="${card.id}:tiktok"]`;
  await dayCell("2026-05-20").locator(ig).waitFor();
  assert.match(await dayCell("2026-05-20").locator(ig).innerText(), /15:00\s+Far post/);
  await showMonth("April 2026", Date.UTC(2026, 3, 15));
  await dayCell("2026-04-01").locator(tt).waitFor();
  assert.equal(await dayCell("2026-04-01").locator(ig).count(), 0, "the Instagram post is not at the card's time");
  await page.getByRole("button", { name: "Board", exact: true }).click();
  assert.deepEqual(pageErrors, []);
});

/** Tab from the zone picker until focus is in the grid: how many presses it took, and the cell reached. */
async function tabIntoGrid() {
  await page.getByTestId("calendar-zone").focus();
  for (let presses = 1; presses <= 10; presses++) {
    await page.keyboard.press("Tab");
    const at = await page.evaluate(() => {
      const el = document.activeElement;
      return el?.getAttribute("role") === "gridcell" ? { day: el.dataset.day, minute: el.dataset.minute ?? null } : null;
    });
    if (at) return { presses, ...at };
  }
  return null;
}
const focusedCell = () => page.evaluate(() => {
  const el = document.activeElement;
  return el?.getAttribute("role") === "gridcell" ? { day: el.dataset.day, minute: el.dataset.minute ?? null } : null;
});

test("keyboard: an empty day or hour is one Tab stop away, the arrow keys move between them, Enter makes a card there", async () => {
  const space = await ipc("space_create", { name: "Calendar keys" });
  await page.goto(`${ORIGIN}/`);
  await page.getByRole("tab", { name: "Calendar keys" }).click();
  await page.getByRole("button", { name: "Calendar", exact: true }).click();
  await page.getByRole("button", { name: "Month", exact: true }).click();
  await showMonth("March 2026", Date.UTC(2026, 2, 15));

  // One Tab from the toolbar reaches the grid (today is not on this page: its first day), not one per cell.
  const reached = await tabIntoGrid();
  assert.deepEqual(reached, { presses: 1, day: "2026-02-23", minute: null }, "the month grid is the next Tab stop, on the page's first day");
  const stops = await page.evaluate(() => [...document.querySelectorAll("[role=gridcell]")].filter((c) => c.tabIndex === 0).length);
  assert.equal(stops, 1, "one cell of the grid is in the Tab order");
  for (let i = 0; i < 5; i++) await page.keyboard.press("ArrowDown");
  await page.keyboard.press("ArrowRight");
  assert.deepEqual(await focusedCell(), { day: "2026-03-31", minute: null });
  assert.equal(await page.getByTestId("calendar-title").innerText(), "March 2026", "moving within the page does not page the view");
  await page.keyboard.press("Enter");
  await page.getByTestId("card-editor").waitFor();
  const made = async () => (await ipc("board_load", { spaceId: space.id })).cards.filter((c) => c.title === "New post");
  for (let i = 0; i < 50 && (await made()).every((c) => !c.scheduledAt); i++) await page.waitForTimeout(100);
  const cards = await made();
  assert.equal(cards.length, 1, "one card made");
  // 09:00 in Berlin on 31 March (CEST, UTC+2).
  assert.equal(cards[0].scheduledAt.replace(".000", ""), "2026-03-31T07:00:00Z");
  await page.keyboard.press("Escape");
  await page.getByTestId("card-editor").waitFor({ state: "detached" });
  await dayCell("2026-03-31").locator(`[data-card="${cards[0].id}"]`).waitFor();

  // By week: the stop is at 09:00 on the moved-to day's week; ArrowDown is the next hour.
  await page.getByRole("button", { name: "Week", exact: true }).click();
  await page.getByTestId("calendar-week").waitFor();
  const inWeek = await tabIntoGrid();
  assert.ok(inWeek && inWeek.presses === 1 && inWeek.minute === "540", `the week grid is the next Tab stop, at 09:00 (${JSON.stringify(inWeek)})`);
  await page.keyboard.press("ArrowDown");
  await page.keyboard.press("ArrowLeft");
  const slot = await focusedCell();
  assert.equal(slot?.minute, "600");
  await page.keyboard.press("Enter");
  await page.getByTestId("card-editor").waitFor();
  for (let i = 0; i < 50 && (await made()).filter((c) => c.scheduledAt).length < 2; i++) await page.waitForTimeout(100);
  const second = (await made()).find((c) => c.id !== cards[0].id);
  const berlinHour = new Intl.DateTimeFormat("en-GB", { timeZone: "Europe/Berlin", hour: "2-digit", minute: "2-digit", day: "2-digit", month: "2-digit", year: "numeric" }).format(Date.parse(second.scheduledAt));
  assert.match(berlinHour, /10:00$/, `the card is at 10:00 on the slot's day (${berlinHour})`);
  assert.ok(berlinHour.startsWith(slot.day.split("-").reverse().join("/")), `on ${slot.day} (${berlinHour})`);
  await page.keyboard.press("Escape");
  await page.getByTestId("card-editor").waitFor({ state: "detached" });
  await page.getByRole("button", { name: "Month", exact: true }).click();
  await page.getByRole("button", { name: "Board", exact: true }).click();
  assert.deepEqual(pageErrors, []);
});
