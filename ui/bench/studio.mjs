// The studio's price benchmark (issue 5, item 9): keystroke → price latency and quote requests per
// settled edit, in Debian's headless Chromium (playwright-core) against web-shell and its embedded
// sandbox. Started by scripts/bench_studio.sh (WEB_SHELL_URL with ?token=, BENCH_ARTIFACTS). Prints
// figures beside their goals; asserts nothing (a benchmark, not a test).
//
// An "edit" is a word typed at 60 ms a key into the prompt; it is settled when the typing stops. The
// latency runs from the last keystroke (bench:key, marked by this script in the capture phase of
// `keydown`) to the form's own studio:price-shown mark for that edit; requests are the POSTs to
// /ipc/studio_quote the page sent meanwhile.
import fs from "node:fs";
import path from "node:path";
import { launch } from "../../tests/browser/browser.mjs";

const { WEB_SHELL_URL } = process.env;
if (!WEB_SHELL_URL) throw new Error("run scripts/bench_studio.sh");
const ARTIFACTS = process.env.BENCH_ARTIFACTS ?? "/tmp/contentdesk-bench";
const EDITS = Number(process.env.BENCH_STUDIO_EDITS ?? 12);
const KEY_DELAY = 60;

const sorted = (xs) => [...xs].sort((a, b) => a - b);
const pct = (xs, p) => { const s = sorted(xs); return s[Math.min(s.length - 1, Math.max(0, Math.ceil(p * s.length) - 1))]; };

fs.mkdirSync(ARTIFACTS, { recursive: true });
const { page, pageErrors, close } = await launch({ width: 1360, height: 860, tag: "bench-studio" });
try {
  let quotes = 0;
  page.on("request", (r) => { if (r.url().includes("/ipc/studio_quote")) quotes += 1; });
  await page.addInitScript(() => {
    window.addEventListener("keydown", () => { performance.mark("bench:key"); }, true);
  });
  const url = new URL(WEB_SHELL_URL);
  url.hash = "#/studio";
  await page.goto(url.toString());
  const prompt = page.locator("#studio-prompt");
  await prompt.waitFor({ timeout: 30_000 });
  await page.getByTestId("studio-price").filter({ hasText: /credit/i }).waitFor({ timeout: 30_000 }).catch(() => undefined);
  await prompt.fill("");
  await page.waitForTimeout(600);

  const latencies = [];
  const perEdit = [];
  const words = ["harbour", "lantern", "meadow", "comet", "velvet", "granite", "orchid", "tidal", "ember", "falcon", "quartz", "willow", "saffron", "glacier", "cobalt", "thistle"];
  for (let i = 0; i < EDITS; i++) {
    const before = quotes;
    const word = `${i ? " " : ""}${words[i % words.length]}${i}`;
    await prompt.pressSequentially(word, { delay: KEY_DELAY });
    const lastKey = await page.evaluate(() => performance.getEntriesByName("bench:key").at(-1).startTime);
    const shown = await page.waitForFunction((t) => {
      const e = performance.getEntriesByName("studio:price-shown").at(-1);
      return e && e.startTime > t ? e.startTime : null;
    }, lastKey, { timeout: 10_000, polling: 5 }).then((h) => h.jsonValue()).catch(() => null);
    await page.waitForTimeout(500); // anything late would be counted against this edit
    if (shown !== null) latencies.push(shown - lastKey);
    perEdit.push(quotes - before);
  }
  // Retyping a form already priced: answered from the cache.
  const text = await prompt.inputValue();
  const before = quotes;
  await prompt.press("End");
  await prompt.pressSequentially("x", { delay: KEY_DELAY });
  await page.waitForTimeout(600);
  const afterNew = quotes;
  await prompt.press("Backspace");
  await page.waitForTimeout(600);
  const cachedAsked = quotes - afterNew;
  await page.screenshot({ path: path.join(ARTIFACTS, "studio-price.png") });

  const p50 = pct(latencies, 0.5);
  const p95 = pct(latencies, 0.95);
  const exact = perEdit.filter((n) => n === 1).length;
  console.log(`studio price: ${EDITS} settled edits typed at ${KEY_DELAY} ms a key (prompt now ${text.length} characters)`);
  console.log(`  keystroke → price shown   p50 ${p50?.toFixed(1)} ms   p95 ${p95?.toFixed(1)} ms   (goal p50 ≤ 350 ms: ${p50 <= 350 ? "met" : "NOT met"})`);
  console.log(`  quote requests per settled edit: ${perEdit.join(" ")}   (${exact}/${EDITS} exactly one; goal exactly one: ${exact === EDITS ? "met" : "NOT met"})`);
  console.log(`  a form priced before, typed again: ${cachedAsked} request(s) (answered from the cache); new text after it: ${afterNew - before}`);
  if (pageErrors.length) console.log(`  page errors: ${pageErrors.join(" | ")}`);
} finally {
  await close();
}
