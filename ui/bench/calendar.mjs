// The calendar benchmark (issue 16): the month view with 5,000 scheduled posts in Debian's headless
// Chromium (playwright-core), against web-shell whose selected profile is the sandbox seeded with
// --extra-cards 5000 (scripts/bench_planner.sh starts both and runs this after planner.mjs). Prints
// figures beside their goals; asserts nothing (a benchmark, not a test).
//
// Set-up: every card of the big space gets a time in the current month (UTC), through card_update as
// the calendar writes it. Timings are the page's own marks: calendar:rendered (Calendar.svelte: Svelte's
// update, then the next frame), calendar:drop / calendar:moved (BoardState.reschedule: the new time
// applied / rendered), and bench:drop-event (this script, the native drop's capture phase).
import fs from "node:fs";
import path from "node:path";
import { launch } from "../../tests/browser/browser.mjs";
import { callCore } from "../../tests/browser/webshell.mjs";

const { WEB_SHELL_URL, SANDBOX_URL, SANDBOX_KEY } = process.env;
if (!WEB_SHELL_URL || !SANDBOX_URL || !SANDBOX_KEY) throw new Error("run scripts/bench_planner.sh");
const ARTIFACTS = process.env.BENCH_ARTIFACTS ?? "/tmp/contentdesk-bench";
const RENDERS = Number(process.env.BENCH_CALENDAR_RENDERS ?? 5);
const DROPS = Number(process.env.BENCH_CALENDAR_DROPS ?? 20);
const WARMUP = 2;
const TOKEN = new URL(WEB_SHELL_URL).searchParams.get("token");
const ORIGIN = new URL(WEB_SHELL_URL).origin;
const ipc = (command, args) => callCore(ORIGIN, TOKEN, command, args);

const sorted = (xs) => [...xs].sort((a, b) => a - b);
const median = (xs) => { const s = sorted(xs); const m = s.length >> 1; return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2; };
const p95 = (xs) => { const s = sorted(xs); return s[Math.min(s.length - 1, Math.ceil(0.95 * s.length) - 1)]; };
const ms = (x) => (x === undefined || Number.isNaN(x) ? "–" : x.toFixed(1));

// ---- the account: the seeded sandbox as the selected remote profile (planner.mjs may have added it)
const { profiles } = await ipc("profiles_list", {});
let profile = profiles.find((p) => p.baseUrl === SANDBOX_URL || p.name === "Planner bench");
if (!profile) {
  profile = await ipc("profile_add", { name: "Planner bench", baseUrl: SANDBOX_URL });
  await ipc("key_set", { profileId: profile.id, key: SANDBOX_KEY });
}
await ipc("profile_select", { profileId: profile.id });
const big = (await ipc("spaces_list", {})).find((s) => !/^Bench empty/.test(s.name));
const served = await ipc("board_load", { spaceId: big.id });

// ---- 5,000 posts this month (UTC), spread over its days and hours
const now = new Date();
const year = now.getUTCFullYear(), month = now.getUTCMonth();
const daysIn = new Date(Date.UTC(year, month + 1, 0)).getUTCDate();
const t0 = Date.now();
let next = 0;
const cards = served.cards;
async function worker() {
  while (next < cards.length) {
    const i = next++;
    const at = new Date(Date.UTC(year, month, 1 + (i % daysIn), 6 + ((i * 7) % 16), (i * 13) % 60)).toISOString();
    if (cards[i].scheduledAt !== at) await ipc("card_update", { cardId: cards[i].id, update: { scheduledAt: at } });
  }
}
await Promise.all(Array.from({ length: 12 }, worker));
const setupSeconds = (Date.now() - t0) / 1000;

fs.mkdirSync(ARTIFACTS, { recursive: true });
const browser = await launch({ width: 1360, height: 900, tag: "bench-calendar" });
const { page, pageErrors } = browser;
try {
  await page.addInitScript(() => {
    localStorage.setItem("contentdesk.calendar.zone", "UTC");
    localStorage.setItem("contentdesk.calendar.view", "month");
    window.__longtasks = [];
    new PerformanceObserver((list) => { for (const e of list.getEntries()) window.__longtasks.push(e.duration); }).observe({ type: "longtask", buffered: true });
    window.addEventListener("drop", () => {
      performance.clearMarks("bench:drop-event"); performance.mark("bench:drop-event");
      // The drop's own script (the handlers, the state change, Svelte's update: microtasks) ends before
      // this task; the frame after it is when the browser may paint.
      setTimeout(() => { performance.clearMarks("bench:drop-script"); performance.mark("bench:drop-script"); });
    }, true);
  });
  const markTime = (name) => page.evaluate((n) => performance.getEntriesByName(n).at(-1)?.startTime ?? null, name);
  async function markAfter(name, after, timeout = 30_000) {
    const h = await page.waitForFunction(([n, t]) => {
      const e = performance.getEntriesByName(n).at(-1);
      return e && e.startTime > t ? e.startTime : null;
    }, [name, after], { timeout, polling: 5 });
    return h.jsonValue();
  }
  const whole = () => page.waitForFunction(() => !/loading/i.test(document.querySelector(".planner .total")?.textContent ?? "loading"), null, { timeout: 60_000 });
  const posts = () => page.evaluate(() => {
    const shown = document.querySelectorAll('[data-testid="calendar-month"] [data-testid="calendar-item"]').length;
    const more = [...document.querySelectorAll('[data-testid="calendar-month"] [data-testid="calendar-more"]')].reduce((n, b) => n + Number(b.textContent.slice(1)), 0);
    return { shown, more };
  });

  await page.goto(WEB_SHELL_URL);
  await page.getByRole("tab", { name: big.name }).click();
  await whole();

  // ---- (1) first render: a click on "Calendar" (the board's 5,000 cards in memory) → month rendered
  const render = { rendered: [] };
  for (let i = 0; i < WARMUP + RENDERS; i++) {
    await page.getByTestId("view-board").click();
    await page.waitForFunction(() => !document.querySelector('[data-testid="calendar"]'));
    await page.waitForTimeout(100);
    const clicked = await page.getByTestId("view-calendar").evaluate((el) => { const t = performance.now(); el.click(); return t; });
    const rendered = await markAfter("calendar:rendered", clicked);
    await page.getByTestId("calendar-month").waitFor();
    if (i < WARMUP) continue;
    render.rendered.push(rendered - clicked);
  }
  const counted = await posts();

  // ---- (1b) navigation with the calendar remembered → month rendered with every post in
  const load = { all: [] };
  for (let i = 0; i < WARMUP + RENDERS; i++) {
    await page.goto(`${ORIGIN}/`);
    await whole();
    await markAfter("planner:board-complete", 0);
    // The last calendar render is the one with every post (its mark and the board's share a frame).
    await page.waitForTimeout(300);
    const rendered = await markTime("calendar:rendered");
    if (i < WARMUP) continue;
    load.all.push(rendered);
  }
  await page.screenshot({ path: path.join(ARTIFACTS, "calendar-5000.png") });

  // ---- (2) drops: the first post of day 10 dragged onto day 11, and back; then the keyboard path
  const day = (d) => `${year}-${String(month + 1).padStart(2, "0")}-${String(d).padStart(2, "0")}`;
  const cell = (d) => page.locator(`[data-testid="calendar-day"][data-day="${day(d)}"]`);
  const drag = { moved: [], appliedToMoved: [], script: [] };
  for (let i = 0; i < WARMUP + DROPS; i++) {
    const [from, to] = i % 2 ? [11, 10] : [10, 11];
    const source = cell(from).getByTestId("calendar-item").first();
    const id = await source.getAttribute("data-card");
    const before = await page.evaluate(() => performance.now());
    await source.dragTo(cell(to));
    const dropEvent = await markAfter("bench:drop-event", before);
    const applied = await markAfter("calendar:drop", before);
    const moved = await markAfter("calendar:moved", before);
    const script = await markAfter("bench:drop-script", before);
    if (i < WARMUP) continue;
    drag.script.push(script - dropEvent);
    drag.moved.push(moved - dropEvent);
    drag.appliedToMoved.push(moved - applied);
  }
  const keys = { moved: [] };
  for (let i = 0; i < WARMUP + DROPS; i++) {
    const [from, dir] = i % 2 ? [13, "ArrowLeft"] : [12, "ArrowRight"];
    const source = cell(from).getByTestId("calendar-item").first();
    await source.focus();
    await page.keyboard.press("Space");
    await page.keyboard.press(dir);
    const before = await page.evaluate(() => performance.now());
    await page.keyboard.press("Enter");
    const applied = await markAfter("calendar:drop", before);
    const moved = await markAfter("calendar:moved", before);
    if (i < WARMUP) continue;
    keys.moved.push(moved - applied);
  }
  const longTasks = await page.evaluate(() => window.__longtasks);

  const rows = [];
  const row = (name, xs, goal, limit) => rows.push([name, ms(median(xs)), ms(p95(xs)), goal, limit === undefined ? "" : p95(xs) < limit ? "met" : median(xs) < limit ? "median only" : "NOT met"]);
  row(`click "Calendar" → month rendered, 5,000 posts (${RENDERS})`, render.rendered, "< 150 ms", 150);
  row(`navigation → month rendered with every post in (${RENDERS})`, load.all, "");
  row(`drag: drop event → post moved, next frame (${DROPS} drops)`, drag.moved, "< 16 ms", 16);
  row("  of which the drop's script (handlers, state, Svelte update)", drag.script, "");
  row("  of which the new time applied → rendered", drag.appliedToMoved, "");
  row(`keyboard: Enter → post moved, next frame (${DROPS})`, keys.moved, "< 16 ms", 16);
  const width = Math.max(...rows.map((r) => r[0].length));
  console.log(`\n(d2) calendar: ${cards.length} cards scheduled in ${year}-${String(month + 1).padStart(2, "0")} (set-up ${setupSeconds.toFixed(1)} s); ` +
    `month view shows ${counted.shown} posts and "+N" for ${counted.more} (${counted.shown + counted.more} in all), Chromium headless, 1360x900`);
  console.log(`${"figure".padEnd(width)}  ${"median".padStart(8)}  ${"p95".padStart(8)}  goal`);
  for (const [name, m, p, goal, verdict] of rows) console.log(`${name.padEnd(width)}  ${m.padStart(8)}  ${p.padStart(8)}  ${goal}${verdict ? `  ${verdict}` : ""}`);
  console.log(`long tasks > 50 ms over the run: ${longTasks.length}${longTasks.length ? ` (longest ${ms(Math.max(...longTasks))} ms)` : ""}`);
  console.log(`screenshot: ${path.join(ARTIFACTS, "calendar-5000.png")}`);
  if (pageErrors.length) console.log(`page errors: ${pageErrors.join(" | ")}`);
} finally {
  await browser.close();
}
