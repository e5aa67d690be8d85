// The brand-kit benchmark (issue 6, item 9): a kit of 40 sections of 5 KB Markdown each, against
// web-shell and its embedded sandbox, in Debian's headless Chromium (playwright-core). Started by
// scripts/bench_brandkit.sh (WEB_SHELL_URL with ?token=, BENCH_ARTIFACTS). Prints figures beside their
// goals; asserts nothing (a benchmark, not a test).
//
// Timings are taken in the page (performance.now, a MutationObserver checking on every change):
// - page ready: navigation start → every card of the shown tab drawn (the summary read, no bodies);
//   and, in the running app, the "Brand kit" link clicked → the same;
// - editor open: "Edit" clicked → CodeMirror holds the section's text (the body read included);
// - save round trip: "Save" clicked → the card shows the new version with the editor closed.
import path from "node:path";
import fs from "node:fs";
import { launch } from "../../tests/browser/browser.mjs";
import { callCore } from "../../tests/browser/webshell.mjs";

const { WEB_SHELL_URL } = process.env;
if (!WEB_SHELL_URL) throw new Error("run scripts/bench_brandkit.sh");
const ARTIFACTS = process.env.BENCH_ARTIFACTS ?? "/tmp/contentdesk-bench";
const RUNS = Number(process.env.BENCH_BRANDKIT_RUNS ?? 8);
const TOKEN = new URL(WEB_SHELL_URL).searchParams.get("token");
const ORIGIN = new URL(WEB_SHELL_URL).origin;
const ipc = (command, args) => callCore(ORIGIN, TOKEN, command, args);

const sorted = (xs) => [...xs].sort((a, b) => a - b);
const pct = (xs, p) => { const s = sorted(xs); return s[Math.min(s.length - 1, Math.max(0, Math.ceil(p * s.length) - 1))]; };
const line = (name, xs, goal) => {
  const p50 = pct(xs, 0.5);
  console.log(`  ${name.padEnd(44)} p50 ${p50.toFixed(1).padStart(7)} ms   p95 ${pct(xs, 0.95).toFixed(1).padStart(7)} ms` +
    (goal ? `   (goal < ${goal} ms: ${p50 < goal ? "met" : "NOT met"})` : ""));
};

/** About 5 KB of Markdown: headings, lists, paragraphs. */
function body(n) {
  const parts = [`# Section ${n}`, ""];
  let i = 0;
  while (parts.join("\n").length < 5000) {
    parts.push(`## Point ${n}.${i}`, "", `- A line about voice and audience, number ${i}, with **emphasis** and a [link](https://example.com/${n}/${i}).`,
      `- Another line that keeps the Markdown realistic for section ${n}.`, "", `A short paragraph ${i} explaining the rule in plain words.`, "");
    i++;
  }
  return parts.join("\n").slice(0, 5120);
}

// ---- the kit: the demo kit grown to 40 sections, each about 5 KB
const kits = await ipc("brand_kits_list");
const kit = kits[0];
let page = await ipc("brand_kit_page", { brandKitId: kit.id });
const existing = page.sections;
await ipc("brand_kit_save", {
  brandKitId: kit.id,
  sections: existing.map((s, i) => ({ key: s.key, body: body(i), expectedVersion: s.version })),
});
for (let n = existing.length; n < 40; n++) {
  await ipc("brand_kit_section_add", { brandKitId: kit.id, name: `Bench section ${n}`, tab: "overview", width: n % 3 ? "half" : "full", body: body(n) });
}
page = await ipc("brand_kit_page", { brandKitId: kit.id });
const shownTab = "overview";
const inTab = page.sections.filter((s) => s.tab === shownTab).length;
const totalChars = page.sections.reduce((a, s) => a + s.charCount, 0);
console.log(`brand kit: ${page.sections.length} sections, ${(totalChars / 1024).toFixed(0)} KB of Markdown; ${inTab} cards on the "${shownTab}" tab`);

fs.mkdirSync(ARTIFACTS, { recursive: true });
const browser = await launch({ width: 1360, height: 900, tag: "bench-brandkit" });
const { page: tab, pageErrors } = browser;
try {
  await tab.addInitScript(() => {
    // Resolves with performance.now() when `check()` first holds, checked on every DOM change.
    window.__when = (check, timeout = 15000) => new Promise((resolve, reject) => {
      if (check()) return resolve(performance.now());
      const mo = new MutationObserver(() => { if (check()) { mo.disconnect(); clearTimeout(t); resolve(performance.now()); } });
      const t = setTimeout(() => { mo.disconnect(); reject(new Error("timed out waiting in the page")); }, timeout);
      mo.observe(document, { subtree: true, childList: true, attributes: true, characterData: true });
    });
    window.__cards = () => document.querySelectorAll("[data-testid=section-grid] [data-key]").length;
  });
  const url = new URL(WEB_SHELL_URL);
  url.hash = "#/brand-kit";
  const cardsIn = (n) => tab.evaluate((n) => window.__when(() => window.__cards() >= n), n);

  // Page ready, cold: a fresh load of the page each time (after one warm-up).
  const cold = [];
  for (let i = 0; i <= RUNS; i++) {
    await tab.goto("about:blank");
    await tab.goto(url.toString());
    const t = await cardsIn(inTab);
    if (i > 0) cold.push(t);
  }
  // Page ready in the running app: Planner → Brand kit.
  const warm = [];
  for (let i = 0; i <= RUNS; i++) {
    await tab.click("a[href='#/planner']");
    await tab.waitForSelector("[data-testid=space-tab]");
    const t = await tab.evaluate(() => {
      const start = performance.now();
      document.querySelector("a[href='#/brand-kit']").click();
      return window.__when(() => window.__cards() > 0 && document.querySelectorAll("[data-testid=section-grid] [data-key]").length >= 1).then(() => start);
    });
    const done = await cardsIn(inTab);
    if (i > 0) warm.push(done - t);
  }
  await tab.waitForTimeout(1500); // the editor's chunk is fetched when the page is idle

  // Editor open and save round trip, on different sections each time.
  const keys = page.sections.filter((s) => s.tab === shownTab).map((s) => s.key);
  const opens = [];
  const saves = [];
  for (let i = 0; i <= RUNS; i++) {
    const key = keys[(i * 3) % keys.length];
    const card = `[data-key="${key}"]`;
    await tab.locator(card).scrollIntoViewIfNeeded();
    const open = await tab.evaluate((card) => {
      const el = document.querySelector(card);
      const edit = [...el.querySelectorAll("button")].find((b) => b.textContent.trim() === "Edit");
      const start = performance.now();
      edit.click();
      // CodeMirror draws only the lines in view: a few lines of the body mean the text is in.
      return window.__when(() => (el.querySelector(".cm-content")?.querySelectorAll(".cm-line").length ?? 0) > 5).then((t) => t - start);
    }, card);
    await tab.locator(`${card} .cm-content`).click();
    await tab.keyboard.press("Control+End");
    await tab.keyboard.type(` edit ${i}`);
    const version = await tab.evaluate((card) => document.querySelector(card).textContent.match(/Version (\d+)/)[1], card);
    const save = await tab.evaluate(([card, v]) => {
      const el = document.querySelector(card);
      const button = [...el.querySelectorAll("button")].find((b) => b.textContent.trim() === "Save");
      const start = performance.now();
      button.click();
      return window.__when(() => !el.querySelector(".cm-editor") && new RegExp(`Version ${Number(v) + 1}\\b`).test(el.textContent)).then((t) => t - start);
    }, [card, version]);
    if (i > 0) { opens.push(open); saves.push(save); }
  }
  await tab.screenshot({ path: path.join(ARTIFACTS, "brandkit-40.png") });

  console.log(`  (${RUNS} runs each after a warm-up; headless Chromium, web-shell release build, 2 cores shared)`);
  line("page ready: cold page load → cards drawn", cold, 200);
  line("page ready: Planner → Brand kit in the app", warm, 200);
  line("editor open: Edit → the text in CodeMirror", opens, 50);
  line("save round trip: Save → new version shown", saves, 30);
  if (pageErrors.length) console.log(`  page errors: ${pageErrors.join(" | ")}`);
} finally {
  await browser.close();
}
