// The planner benchmark (issue 4, item 8): a board of 5,000 cards in Debian's headless Chromium through
// playwright-core, against web-shell whose selected profile is a sandbox seeded with --extra-cards 5000.
// Started by scripts/bench_planner.sh (WEB_SHELL_URL with ?token=, SANDBOX_URL, SANDBOX_KEY,
// BENCH_ARTIFACTS). Prints figures beside their goals; it asserts nothing (a benchmark, not a test).
//
// Timings come from the board's own performance marks (Board.svelte; planner:board-asked-early from
// src/boot.ts, which asks for the board before the app's script runs): planner:board-requested/-loaded/
// -rendered, planner:drop (a move applied), planner:moved (the moved tile rendered: Svelte's update, then
// the next frame), planner:ack (card_move answered); plus bench:drop-event, marked by this script in the
// capture phase of the native `drop` event, before the board sees it.
import fs from "node:fs";
import path from "node:path";
import { launch } from "../../tests/browser/browser.mjs";
import { callCore } from "../../tests/browser/webshell.mjs";

const { WEB_SHELL_URL, SANDBOX_URL, SANDBOX_KEY } = process.env;
if (!WEB_SHELL_URL || !SANDBOX_URL || !SANDBOX_KEY) throw new Error("run scripts/bench_planner.sh");
const ARTIFACTS = process.env.BENCH_ARTIFACTS ?? "/tmp/contentdesk-bench";
const LOADS = Number(process.env.BENCH_PLANNER_LOADS ?? 5);
const DROPS = Number(process.env.BENCH_PLANNER_DROPS ?? 20);
const WARMUP = 2;
const TOKEN = new URL(WEB_SHELL_URL).searchParams.get("token");
const ORIGIN = new URL(WEB_SHELL_URL).origin;
const EMPTY_SPACE = "Bench empty space";

const ipc = (command, args) => callCore(ORIGIN, TOKEN, command, args);

const sorted = (xs) => [...xs].sort((a, b) => a - b);
const median = (xs) => { const s = sorted(xs); const m = s.length >> 1; return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2; };
const p95 = (xs) => { const s = sorted(xs); return s[Math.min(s.length - 1, Math.ceil(0.95 * s.length) - 1)]; };
const ms = (x) => (x === undefined || Number.isNaN(x) ? "–" : x.toFixed(1));

// ---- the account: the seeded sandbox as a remote profile, selected
const profile = await ipc("profile_add", { name: "Planner bench", baseUrl: SANDBOX_URL });
await ipc("key_set", { profileId: profile.id, key: SANDBOX_KEY });
await ipc("profile_select", { profileId: profile.id });
const spaces = await ipc("spaces_list", {});
const big = spaces.find((s) => s.name !== EMPTY_SPACE);
const served = await ipc("board_load", { spaceId: big.id });
const stageCounts = served.stages.map((s) => [s.name, served.cards.filter((c) => c.stageId === s.id).length]);
// Made once per sandbox (an A/B run starts a fresh web-shell against the same sandbox).
if (!spaces.some((s) => s.name === EMPTY_SPACE)) await ipc("space_create", { name: EMPTY_SPACE });

fs.mkdirSync(ARTIFACTS, { recursive: true });
const browser = await launch({ width: 1360, height: 860, tag: "bench" });
const { page, pageErrors } = browser;
try {
  await page.addInitScript(() => {
    window.__longtasks = [];
    new PerformanceObserver((list) => {
      for (const e of list.getEntries()) window.__longtasks.push({ start: e.startTime, duration: e.duration });
    }).observe({ type: "longtask", buffered: true });
    window.addEventListener("drop", () => { performance.clearMarks("bench:drop-event"); performance.mark("bench:drop-event"); }, true);
  });
  const markTime = (name) => page.evaluate((n) => performance.getEntriesByName(n).at(-1)?.startTime ?? null, name);
  /** Waits until mark `name` is later than `after` (page time), answers its time. */
  async function markAfter(name, after, timeout = 30_000) {
    const h = await page.waitForFunction(([n, t]) => {
      const e = performance.getEntriesByName(n).at(-1);
      return e && e.startTime > t ? e.startTime : null;
    }, [name, after], { timeout, polling: 5 });
    return h.jsonValue();
  }
  const tab = (name) => page.getByRole("tab", { name });
  const column = (stage) => page.locator(`[data-testid="column-${stage.id}"]`);
  const tiles = (stage) => column(stage).locator("[data-card-id]");

  // The first visit takes the token out of the URL.
  await page.goto(WEB_SHELL_URL);
  await markAfter("planner:board-rendered", 0);

  /** The whole board is in (the first pages came first; the rest loads behind them). */
  const whole = () => page.waitForFunction(() => !/loading/i.test(document.querySelector(".planner .total")?.textContent ?? "loading"), null, { timeout: 60_000 });

  // ---- (1) loads: navigation to the 5,000-card board rendered
  const load = { rendered: [], ipc: [], afterIpc: [], complete: [], dcl: [], requested: [], response: [], unload: [], interactive: [] };
  const loadLongTasks = [];
  for (let i = 0; i < WARMUP + LOADS; i++) {
    await page.goto(`${ORIGIN}/`);
    const rendered = await markAfter("planner:board-rendered", 0);
    await tiles(served.stages[0]).first().waitFor();
    // boot.ts asks for the board before the app's script runs (its own mark); else the board's mark.
    const requested = (await markTime("planner:board-asked-early")) ?? (await markTime("planner:board-requested"));
    const loaded = await markTime("planner:board-loaded");
    await whole();
    const complete = await markAfter("planner:board-complete", 0);
    if (i < WARMUP) continue;
    load.complete.push(complete);
    load.requested.push(requested);
    const nav = await page.evaluate(() => { const n = performance.getEntriesByType("navigation")[0]; return { dcl: n?.domContentLoadedEventEnd ?? 0, response: n?.responseEnd ?? 0, unload: n?.unloadEventEnd ?? 0, interactive: n?.domInteractive ?? 0 }; });
    load.dcl.push(nav.dcl);
    load.response.push(nav.response);
    load.unload.push(nav.unload);
    load.interactive.push(nav.interactive);
    await page.waitForTimeout(200);
    loadLongTasks.push(...(await page.evaluate(() => window.__longtasks.map((t) => t.duration))));
    load.rendered.push(rendered);
    load.ipc.push(loaded - requested);
    load.afterIpc.push(rendered - loaded);
  }
  const shown = await page.evaluate(() => {
    const counts = [...document.querySelectorAll(".board section.column")].map((c) => Number(c.querySelector("h2 .count")?.firstChild?.textContent ?? 0));
    return { total: counts.reduce((a, b) => a + b, 0), columns: counts, tilesInDom: document.querySelectorAll(".board [data-card-id]").length };
  });
  await page.screenshot({ path: path.join(ARTIFACTS, "planner-5000.png") });

  // ---- (2) space selection: from a click on the space's tab to its board rendered
  const select = { rendered: [], ipc: [] };
  for (let i = 0; i < WARMUP + LOADS; i++) {
    await tab(EMPTY_SPACE).click();
    await page.waitForFunction(() => document.querySelectorAll(".board [data-card-id]").length === 0);
    await page.waitForTimeout(100);
    const clicked = await tab(big.name).evaluate((el) => { const t = performance.now(); el.click(); return t; });
    const rendered = await markAfter("planner:board-rendered", clicked);
    const requested = await markTime("planner:board-requested");
    const loaded = await markTime("planner:board-loaded");
    if (i < WARMUP) continue;
    await whole();
    select.rendered.push(rendered - clicked);
    select.ipc.push(loaded - requested);
  }
  await tiles(served.stages[0]).first().waitFor();
  await whole();

  // ---- (2b) in the running app: from a click on "Planner" (coming from Settings) to the board rendered
  const view = { rendered: [] };
  for (let i = 0; i < WARMUP + LOADS; i++) {
    await page.getByRole("link", { name: "Settings" }).click();
    await page.waitForFunction(() => !document.querySelector(".board"));
    await page.waitForTimeout(100);
    const clicked = await page.getByRole("link", { name: "Planner" }).evaluate((el) => { const t = performance.now(); el.click(); return t; });
    const rendered = await markAfter("planner:board-rendered", clicked);
    await whole();
    if (i < WARMUP) continue;
    view.rendered.push(rendered - clicked);
  }
  await tiles(served.stages[0]).first().waitFor();

  // ---- (3) scrolling the longest column from top to bottom, one step per frame
  const longest = served.stages.reduce((a, s) => (stageCounts.find(([n]) => n === s.name)[1] > stageCounts.find(([n]) => n === a.name)[1] ? s : a));
  const longestCount = stageCounts.find(([n]) => n === longest.name)[1];
  const scroll = await column(longest).evaluate(async (col) => {
    const sc = col.querySelector(".scroller");
    const frame = () => new Promise((r) => requestAnimationFrame(r));
    sc.scrollTop = 0;
    await frame(); await frame();
    window.__longtasks.length = 0;
    const t0 = performance.now();
    let last = t0, worstFrame = 0, frames = 0, missing = 0;
    while (sc.scrollTop + sc.clientHeight < sc.scrollHeight - 1) {
      sc.scrollTop += 400;
      await frame();
      const now = performance.now();
      worstFrame = Math.max(worstFrame, now - last);
      last = now;
      frames++;
      // The rows in view must be rendered (windowing keeps up).
      const r = sc.getBoundingClientRect();
      const el = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
      if (!el?.closest("li[aria-posinset]")) missing++;
    }
    await new Promise((r) => setTimeout(r, 300));
    const lastTitle = [...sc.querySelectorAll("[data-card-id] .open")].at(-1)?.textContent;
    return { longTasks: window.__longtasks.map((t) => t.duration), seconds: (performance.now() - t0) / 1000, frames, worstFrame, missing, px: sc.scrollHeight, lastTitle };
  });

  // ---- (4) drops: drag and drop between the tiles of two columns, and the keyboard path
  const [a, b] = [served.stages[1], served.stages[2]];
  const drag = { moved: [], ack: [], appliedToMoved: [] };
  for (let i = 0; i < WARMUP + DROPS; i++) {
    const [from, to] = i % 2 ? [b, a] : [a, b];
    await column(from).locator(".scroller").evaluate((el) => { el.scrollTop = 0; });
    await column(to).locator(".scroller").evaluate((el) => { el.scrollTop = 0; });
    const source = tiles(from).nth(1);
    const target = tiles(to).first();
    const id = await source.getAttribute("data-card-id");
    const box = await target.boundingBox();
    const before = await page.evaluate(() => performance.now());
    await source.dragTo(target, { targetPosition: { x: box.width / 2, y: 4 } });
    const dropEvent = await markAfter("bench:drop-event", before);
    const applied = await markAfter("planner:drop", before);
    const moved = await markAfter("planner:moved", before);
    const ack = await markAfter("planner:ack", before);
    await column(to).locator(`[data-card-id="${id}"]`).waitFor();
    if (i < WARMUP) continue;
    drag.moved.push(moved - dropEvent);
    drag.ack.push(ack - dropEvent);
    drag.appliedToMoved.push(moved - applied);
  }
  const keys = { moved: [], ack: [], focused: 0 };
  for (let i = 0; i < WARMUP + DROPS; i++) {
    const [from, to] = i % 2 ? [b, a] : [a, b];
    await column(from).locator(".scroller").evaluate((el) => { el.scrollTop = 0; });
    const source = tiles(from).nth(1);
    const id = await source.getAttribute("data-card-id");
    await source.locator(".handle").focus();
    await page.keyboard.press("Enter");
    const item = page.getByRole("menu").getByRole("menuitem", { name: `To ${to.name}` });
    await item.waitFor();
    const before = await page.evaluate(() => performance.now());
    await item.click();
    const applied = await markAfter("planner:drop", before);
    const moved = await markAfter("planner:moved", before);
    const ack = await markAfter("planner:ack", before);
    await page.waitForFunction(([name]) => document.querySelector('[data-testid="board-status"]')?.textContent?.includes(`moved to ${name},`), [to.name]);
    // Focus goes back to the moved card (revealed at the end of its new column).
    await page.waitForTimeout(50);
    if (await page.evaluate((cid) => document.activeElement?.closest("[data-card-id]")?.getAttribute("data-card-id") === cid, id)) keys.focused++;
    if (i < WARMUP) continue;
    keys.moved.push(moved - applied);
    keys.ack.push(ack - applied);
  }

  // ---- report
  const rows = [];
  const row = (name, xs, goal, limit) => rows.push([name, ms(median(xs)), ms(p95(xs)), goal, limit === undefined ? "" : p95(xs) < limit ? "met" : median(xs) < limit ? "median only" : "NOT met"]);
  row(`navigation → 5,000-card board rendered (${LOADS} loads)`, load.rendered, "< 150 ms", 150);
  row("  of which the page's HTML and script (DOMContentLoaded)", load.dcl, "");
  row("    of which the previous page unloaded (navigation's unloadEventEnd)", load.unload, "");
  row("    of which the HTML's response in (responseEnd)", load.response, "");
  row("    of which the HTML parsed (domInteractive)", load.interactive, "");
  row("  of which DOMContentLoaded → board_load asked (< 0: asked by boot.ts before)", load.requested.map((r, i) => r - load.dcl[i]), "");
  row("  of which board_load (IPC: every stage's first page, at once)", load.ipc, "");
  row("  of which board_load reply → tiles rendered", load.afterIpc, "");
  row("navigation → the whole board in (the rest, loaded behind)", load.complete, "");
  row(`space selection → board rendered (${LOADS} clicks)`, select.rendered, "< 150 ms", 150);
  row("  of which board_load (IPC)", select.ipc, "");
  row(`Settings → Planner in the running app → board rendered (${LOADS})`, view.rendered, "< 150 ms", 150);
  row(`drag: drop event → tile moved, next frame (${DROPS} drops)`, drag.moved, "< 16 ms", 16);
  row("drag: drop event → card_move reply", drag.ack, "< 20 ms", 20);
  row(`keyboard: "To <stage>" applied → tile moved, next frame (${DROPS})`, keys.moved, "< 16 ms", 16);
  row("keyboard: applied → card_move reply", keys.ack, "< 20 ms", 20);
  const width = Math.max(...rows.map((r) => r[0].length));
  console.log(`\n(d) planner: ${shown.total} cards loaded on the board (service total ${served.total}; per column ${shown.columns.join(", ")}; ${shown.tilesInDom} tiles in the DOM), Chromium headless, 1360x860`);
  console.log(`${"figure".padEnd(width)}  ${"median".padStart(8)}  ${"p95".padStart(8)}  goal`);
  for (const [name, m, p, goal, verdict] of rows) console.log(`${name.padEnd(width)}  ${m.padStart(8)}  ${p.padStart(8)}  ${goal}${verdict ? `  ${verdict}` : ""}`);
  const lt = scroll.longTasks;
  console.log(`scroll ${longest.name} (${longestCount} cards, ${scroll.px} px) top to bottom, ${scroll.frames} frames in ${scroll.seconds.toFixed(1)} s: ` +
    `${lt.length} long tasks > 50 ms${lt.length ? ` (longest ${ms(Math.max(...lt))} ms)` : ""} (goal: none) ${lt.length ? "NOT met" : "met"}; ` +
    `worst frame ${ms(scroll.worstFrame)} ms; ${scroll.missing} frames with no row mid-view; last tile "${scroll.lastTitle}"`);
  console.log(`long tasks during the ${LOADS} timed loads: ${loadLongTasks.length}${loadLongTasks.length ? ` (longest ${ms(Math.max(...loadLongTasks))} ms)` : ""}`);
  console.log(`keyboard moves: focus back on the moved card after ${keys.focused} of ${WARMUP + DROPS}`);
  console.log(`screenshot: ${path.join(ARTIFACTS, "planner-5000.png")}`);
  if (pageErrors.length) console.log(`page errors: ${pageErrors.join(" | ")}`);
} finally {
  await browser.close();
}
