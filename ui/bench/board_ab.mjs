// The board's cold load, this tree against an earlier one, loads interleaved (scripts/bench_board_ab.sh).
// Each side is its own sandbox (seeded with 5,000 extra cards), web-shell and Chromium; their loads take
// turns (A B, then B A, ...), so a slow minute of the machine falls on both sides alike. Runs apart from
// each other differed by up to 25% on this 2-core machine with nothing else running, more than the change
// being measured; interleaving is what makes a 10% goal readable. Figures per side: navigation → board
// rendered (the planner benchmark's figure), of which board_load's IPC, and the reply → tiles. Prints
// figures; asserts nothing.
import { launch } from "../../tests/browser/browser.mjs";
import { callCore } from "../../tests/browser/webshell.mjs";

const sides = JSON.parse(process.env.BOARD_AB_SIDES ?? "[]"); // [{ name, url, sandbox, key }]
if (sides.length < 2) throw new Error("run scripts/bench_board_ab.sh");
const LOADS = Number(process.env.BENCH_AB_LOADS ?? 60);
const WARMUP = 2;
const sorted = (xs) => [...xs].sort((a, b) => a - b);
const median = (xs) => { const s = sorted(xs); const m = s.length >> 1; return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2; };
const p95 = (xs) => { const s = sorted(xs); return s[Math.min(s.length - 1, Math.ceil(0.95 * s.length) - 1)]; };

for (const s of sides) {
  s.origin = new URL(s.url).origin;
  const token = new URL(s.url).searchParams.get("token");
  const ipc = (command, args) => callCore(s.origin, token, command, args);
  const profile = await ipc("profile_add", { name: "Board A/B", baseUrl: s.sandbox });
  await ipc("key_set", { profileId: profile.id, key: s.key });
  // Older trees named the argument `id`.
  await ipc("profile_select", { profileId: profile.id }).catch(() => ipc("profile_select", { id: profile.id }));
  s.browser = await launch({ width: 1360, height: 860, tag: `board-ab-${s.name}` });
  s.rows = [];
  await s.browser.page.goto(s.url); // takes the token out of the URL
}

async function markAfter(page, name, after) {
  const h = await page.waitForFunction(([n, t]) => {
    const e = performance.getEntriesByName(n).at(-1);
    return e && e.startTime > t ? e.startTime : null;
  }, [name, after], { timeout: 30_000, polling: 5 });
  return h.jsonValue();
}
const markTime = (page, ...names) => page.evaluate((ns) => {
  for (const n of ns) { const e = performance.getEntriesByName(n).at(-1); if (e) return e.startTime; }
  return null;
}, names);

try {
  for (let i = 0; i < WARMUP + LOADS; i++) {
    for (const s of i % 2 ? [...sides].reverse() : sides) {
      const page = s.browser.page;
      await page.goto(`${s.origin}/`);
      const rendered = await markAfter(page, "planner:board-rendered", 0);
      const loaded = await markTime(page, "planner:board-loaded");
      const asked = await markTime(page, "planner:board-asked-early", "planner:board-requested");
      // The rest of the board loads behind; the next load starts once it is in, on both sides alike.
      await markAfter(page, "planner:board-complete", 0);
      await page.waitForTimeout(200);
      if (i >= WARMUP) s.rows.push({ rendered, ipc: loaded - asked, tiles: rendered - loaded });
    }
  }
  console.log(`board cold load, ${LOADS} loads a side, interleaved (median / p95, ms)`);
  const [base] = sides;
  for (const s of sides) {
    const fig = (k) => `${median(s.rows.map((r) => r[k])).toFixed(1).padStart(6)} / ${p95(s.rows.map((r) => r[k])).toFixed(1).padStart(6)}`;
    const ratio = median(s.rows.map((r) => r.rendered)) / median(base.rows.map((r) => r.rendered));
    console.log(`  ${s.name.padEnd(22)} rendered ${fig("rendered")}   board_load IPC ${fig("ipc")}   reply → tiles ${fig("tiles")}   ${s === base ? "" : `x${ratio.toFixed(3)} of ${base.name} (goal ≤ 1.10)`}`);
  }
} finally {
  for (const s of sides) await s.browser.close();
}
