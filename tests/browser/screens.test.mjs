// Every screen at 1280x800 and 960x600, light and dark (prefers-color-scheme), against web-shell and its
// embedded sandbox (WEB_SHELL_URL from scripts/ui-e2e.sh): a screenshot of each (E2E_ARTIFACTS/screens/),
// the layout goals of the planner (one toolbar row, the header on one line, nothing scrolls sideways,
// the page itself does not scroll, the first stage's New card and three cards per column in view), and
// axe-core with the WCAG 2.2 A/AA tags reporting no violation on any screen or dialog.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import fs from "node:fs";
import path from "node:path";
import { createRequire } from "node:module";
import { fileURLToPath } from "node:url";
import { launch } from "./browser.mjs";
import { callCore } from "./webshell.mjs";
import { makePreviewCards } from "./previewCard.mjs";

const { WEB_SHELL_URL } = process.env;
const ARTIFACTS = process.env.E2E_ARTIFACTS ?? fileURLToPath(new URL("../artifacts/browser", import.meta.url));
if (!WEB_SHELL_URL) throw new Error("WEB_SHELL_URL is not set: run scripts/ui-e2e.sh");
const TOKEN = new URL(WEB_SHELL_URL).searchParams.get("token");
const ORIGIN = new URL(WEB_SHELL_URL).origin;
const SHOTS = path.join(ARTIFACTS, "screens");
const AXE = createRequire(new URL("../../ui/package.json", import.meta.url)).resolve("axe-core/axe.min.js");
const TAGS = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22aa"];
const SIZES = [{ width: 1280, height: 800 }, { width: 960, height: 600 }];
const THEMES = ["light", "dark"];

const ipc = (command, args) => callCore(ORIGIN, TOKEN, command, args);
let browser, page, pageErrors = [];
/** Every violation found, by screen: reported together at the end of each run. */
const found = [];
let space;
/** The cards the editor-with-previews screen opens (made on its first visit). */
let previewCards;

before(async () => {
  fs.mkdirSync(SHOTS, { recursive: true });
  // A space of its own with cards in every stage (more than fit), so the layout goals have something to hold.
  // Enough spaces that their tabs do not fit: the toolbar must give way in the tab strip, not the filters.
  for (let n = 1; n <= 6; n++) await ipc("space_create", { name: `Screens crowd ${n}` });
  space = await ipc("space_create", { name: "Screens journey" });
  const { stages } = await ipc("board_load", { spaceId: space.id });
  for (const [i, stage] of stages.entries()) {
    for (let n = 1; n <= 6; n++) {
      await ipc("card_create", { spaceId: space.id, stageId: stage.id, title: `${stage.name} card ${n}`, platform: ["instagram", "tiktok", "youtube"][(i + n) % 3] });
    }
  }
  // A brand-kit section with an earlier version, so History has something to compare.
  const kits = await ipc("brand_kits_list", {});
  const kitId = (kits.find((k) => k.isDefault) ?? kits[0]).id;
  const about = (await ipc("brand_kit_sections", { brandKitId: kitId, keys: ["about"] })).sections[0];
  await ipc("brand_kit_save", { brandKitId: kitId, sections: [{ key: "about", body: `${about.body}\n\n## Where\nLeeds, since 2019.`, expectedVersion: about.version }] });
  // An image in the studio's gallery, for its full-size viewer.
  await ipc("studio_generate", { form: { media: "image", modelId: "nano-banana-2", prompt: "A lighthouse at dawn, screens journey" }, outputId: crypto.randomUUID() });
  browser = await launch({ width: 1280, height: 800, tag: "screens" });
  ({ page, pageErrors } = browser);
  await page.goto(WEB_SHELL_URL);
  await page.getByRole("tab", { name: /Screens journey/ }).click();
  await page.getByRole("region", { name: `${stages[0].name} stage` }).waitFor();
});

after(async () => {
  fs.writeFileSync(path.join(ARTIFACTS, "screens-axe.json"), JSON.stringify(found, null, 2) + "\n");
  fs.writeFileSync(path.join(ARTIFACTS, "screens-page-errors.txt"), pageErrors.join("\n") + (pageErrors.length ? "\n" : ""));
  await browser?.close();
});

/** axe-core over the page as it is now; each violation kept with the screen's name. */
async function axe(screen) {
  // Evaluated through the DevTools protocol: the app's CSP (script-src 'self') refuses an injected <script>.
  if (!(await page.evaluate(() => "axe" in window))) await page.evaluate(fs.readFileSync(AXE, "utf8"));
  const result = await page.evaluate(async (tags) => {
    // eslint-disable-next-line no-undef
    const r = await axe.run(document, { runOnly: { type: "tag", values: tags }, resultTypes: ["violations"] });
    return r.violations.map((v) => ({ id: v.id, impact: v.impact, help: v.help, nodes: v.nodes.slice(0, 5).map((n) => ({ target: n.target.join(" "), summary: n.failureSummary })) }));
  }, TAGS);
  for (const v of result) found.push({ screen, ...v });
  return result;
}

async function shoot(name, size, theme) {
  await page.screenshot({ path: path.join(SHOTS, `${name}-${size.width}x${size.height}-${theme}.png`) });
}

/** The planner's layout goals at this size. */
async function layout(size) {
  return page.evaluate(() => {
    const doc = document.documentElement;
    const header = document.querySelector(".frame > header");
    const toolbar = document.querySelector(".planner .toolbar");
    const first = document.querySelector("section.column");
    const newCard = first?.querySelector("button.add");
    const rect = (el) => el?.getBoundingClientRect();
    const visibleTiles = [...document.querySelectorAll("section.column")].map((col) => {
      const scroller = col.querySelector(".scroller")?.getBoundingClientRect();
      return [...col.querySelectorAll("[data-card-id]")].filter((t) => {
        const r = t.getBoundingClientRect();
        return scroller && r.top >= scroller.top - 1 && r.bottom <= scroller.bottom + 1 && r.bottom <= innerHeight;
      }).length;
    });
    return {
      sideways: doc.scrollWidth > doc.clientWidth,
      pageScrolls: doc.scrollHeight > doc.clientHeight + 1,
      headerHeight: rect(header)?.height ?? 0,
      toolbarHeight: rect(toolbar)?.height ?? 0,
      newCardBottom: rect(newCard)?.bottom ?? Infinity,
      visibleTiles,
    };
  });
}

for (const theme of THEMES) {
  for (const size of SIZES) {
    test(`every screen at ${size.width}x${size.height}, ${theme}: the layout goals, a screenshot, and no axe violation`, async () => {
      await page.setViewportSize(size);
      await page.emulateMedia({ colorScheme: theme });
      const tag = `${size.width}x${size.height}-${theme}`;
      const violations = () => found.filter((f) => f.screen.endsWith(tag));

      // Board (the local sandbox: with the practice-space note).
      await page.goto(`${ORIGIN}/#/planner`);
      await page.getByTestId("practice-note").waitFor();
      await page.getByTestId("view-board").click();
      await page.getByRole("tab", { name: /Screens journey/ }).click();
      await page.locator("section.column [data-card-id]").first().waitFor();
      await page.waitForTimeout(100);
      const l = await layout(size);
      assert.equal(l.sideways, false, `${tag}: nothing scrolls sideways`);
      assert.equal(l.pageScrolls, false, `${tag}: the page does not scroll, only the columns`);
      assert.ok(l.headerHeight <= 56, `${tag}: the header is one row (${l.headerHeight}px)`);
      assert.ok(l.toolbarHeight <= 48, `${tag}: the toolbar is one row (${l.toolbarHeight}px)`);
      assert.ok(l.newCardBottom <= size.height, `${tag}: the first stage's New card is in view (bottom ${l.newCardBottom})`);
      if (size.width >= 1280) assert.ok(l.visibleTiles.every((n) => n >= 3), `${tag}: three cards per column in view (${l.visibleTiles})`);
      await shoot("board", size, theme);
      await axe(`board ${tag}`);

      // The shortcut sheet.
      await page.locator("body").press("?");
      await page.getByRole("dialog", { name: "Keyboard shortcuts" }).waitFor();
      await shoot("shortcuts", size, theme);
      await axe(`shortcut sheet ${tag}`);
      await page.keyboard.press("Escape");
      await page.getByRole("dialog", { name: "Keyboard shortcuts" }).waitFor({ state: "detached" });

      // The command palette (Ctrl+K), narrowed to a few actions.
      await page.keyboard.press("Control+k");
      await page.getByRole("dialog", { name: "Command palette" }).waitFor();
      await page.keyboard.type("show");
      await shoot("palette", size, theme);
      await axe(`command palette ${tag}`);
      await page.keyboard.press("Escape");
      await page.getByRole("dialog", { name: "Command palette" }).waitFor({ state: "detached" });

      // The card editor.
      await page.locator("section.column [data-card-id] button.open").first().click();
      await page.getByTestId("card-editor").waitFor();
      await page.getByLabel("Title", { exact: true }).waitFor();
      await shoot("editor", size, theme);
      await axe(`card editor ${tag}`);
      // Its Repeat dialog (issue 28 point 5).
      await page.getByRole("button", { name: "Repeat…" }).click();
      await page.getByTestId("repeat-dialog").waitFor();
      await shoot("repeat", size, theme);
      await axe(`repeat dialog ${tag}`);
      await page.keyboard.press("Escape");
      await page.getByTestId("repeat-dialog").waitFor({ state: "detached" });
      await page.keyboard.press("Escape");
      await page.getByTestId("card-editor").waitFor({ state: "detached" });

      // Calendar, month and week.
      await page.getByTestId("view-calendar").click();
      await page.getByTestId("calendar").waitFor();
      await page.getByRole("button", { name: "Month", exact: true }).click();
      await page.getByTestId("calendar-month").waitFor();
      await shoot("calendar-month", size, theme);
      await axe(`calendar month ${tag}`);
      await page.getByRole("button", { name: "Week", exact: true }).click();
      await page.getByTestId("calendar-week").waitFor();
      await shoot("calendar-week", size, theme);
      await axe(`calendar week ${tag}`);
      await page.getByTestId("view-board").click();

      // Studio, brand kit, settings.
      await page.getByRole("link", { name: "Studio" }).click();
      await page.getByRole("heading", { level: 1, name: "Studio" }).waitFor();
      await page.waitForTimeout(300);
      await shoot("studio", size, theme);
      await axe(`studio ${tag}`);
      // The gallery's full-size viewer.
      await page.getByRole("button", { name: /lighthouse at dawn, screens journey.* full size$/ }).first().click();
      await page.getByTestId("media-viewer").waitFor();
      await page.getByTestId("media-viewer").getByRole("img").waitFor();
      await shoot("studio-viewer", size, theme);
      await axe(`studio gallery viewer ${tag}`);
      await page.keyboard.press("Escape");
      await page.getByTestId("media-viewer").waitFor({ state: "detached" });
      await page.getByRole("link", { name: "Brand kit" }).click();
      await page.getByRole("heading", { level: 1, name: "Brand kit" }).waitFor();
      await page.getByTestId("section-about").waitFor();
      await page.getByTestId("section-about").getByTestId("markdown").waitFor();
      await shoot("brand-kit", size, theme);
      await axe(`brand kit reading ${tag}`);
      // Editing: the editor beside its live preview.
      await page.getByTestId("section-audience").getByRole("button", { name: "Edit" }).click();
      await page.getByTestId("section-audience").locator(".cm-content").waitFor();
      await page.getByTestId("section-audience").scrollIntoViewIfNeeded();
      await shoot("brand-kit-editing", size, theme);
      await axe(`brand kit editing ${tag}`);
      await page.getByTestId("section-audience").getByRole("button", { name: "Cancel" }).click();
      // History, reading a version, then comparing it with the current text.
      await page.getByTestId("section-about").getByRole("button", { name: /^History of/ }).click();
      const history = page.getByRole("dialog", { name: /^History of/ });
      await history.getByTestId("history-version").waitFor();
      await shoot("brand-kit-history", size, theme);
      await axe(`brand kit history ${tag}`);
      await history.getByRole("button", { name: "Compare with current" }).click();
      await history.getByTestId("history-diff").locator(".cm-mergeView").waitFor();
      await shoot("brand-kit-compare", size, theme);
      await axe(`brand kit compare ${tag}`);
      await page.keyboard.press("Escape");
      await history.waitFor({ state: "detached" });
      await page.getByRole("link", { name: "Settings" }).click();
      await page.getByRole("heading", { level: 1, name: "Settings" }).waitFor();
      // The posting queue's slots editor, loaded (issue 28 point 4).
      await page.getByRole("button", { name: "Save queue" }).waitFor();
      await shoot("settings", size, theme);
      await axe(`settings ${tag}`);
      const sideways = await page.evaluate(() => document.documentElement.scrollWidth > document.documentElement.clientWidth);
      assert.equal(sideways, false, `${tag}: Settings does not scroll sideways`);

      // "Connect ContentHero" (opened from Settings; the practice note is on the board's screens above).
      await page.getByTestId("settings-connect").click();
      const connect = page.getByRole("dialog", { name: "Connect ContentHero" });
      await connect.waitFor();
      await connect.getByText("Another server").click();
      await shoot("connect", size, theme);
      await axe(`connect dialog ${tag}`);
      await page.keyboard.press("Escape");
      await connect.waitFor({ state: "detached" });

      // The card editor with its per-platform previews (issue 28 point 3): an Instagram carousel and an X post.
      previewCards ??= await makePreviewCards(ipc, space.id, (await ipc("board_load", { spaceId: space.id })).stages[0].id);
      await page.goto(`${ORIGIN}/#/planner`);
      await page.getByTestId("view-board").click();
      await page.getByRole("tab", { name: /Screens journey/ }).click();
      await page.locator("#board-search").fill("Spring drop");
      await page.locator(`section.column [data-card-id="${previewCards.spring}"] button.open`).click();
      await page.locator('[data-testid="post-preview"][data-platform="x"]').waitFor();
      await page.locator('[data-testid="post-preview"][data-platform="instagram"] [data-testid="preview-crop"]').waitFor();
      await shoot("editor-previews", size, theme);
      await axe(`card editor with previews ${tag}`);
      await page.keyboard.press("Escape");
      await page.getByTestId("card-editor").waitFor({ state: "detached" });
      await page.locator("#board-search").fill("");

      const v = violations();
      assert.deepEqual(v.map((x) => `${x.screen}: ${x.id} (${x.nodes.length}) ${x.nodes.map((n) => n.target).join(" | ")}`), [], "axe-core: no WCAG 2.2 A/AA violation");
    });
  }
}

test("the theme: Settings > Appearance overrides the system, and follows it again on System", async () => {
  await page.setViewportSize({ width: 1280, height: 800 });
  await page.emulateMedia({ colorScheme: "light" });
  await page.goto(`${ORIGIN}/#/settings`);
  const bg = () => page.evaluate(() => getComputedStyle(document.body).backgroundColor);
  const light = await bg();
  await page.getByTestId("theme-choice").getByRole("radio", { name: "Dark", exact: true }).check();
  const dark = await bg();
  assert.notEqual(dark, light, "Dark applies at once");
  await page.reload();
  await page.getByRole("heading", { level: 1, name: "Settings" }).waitFor();
  assert.equal(await bg(), dark, "the choice is kept across a reload (applied before the first paint)");
  await page.getByTestId("theme-choice").getByRole("radio", { name: /^System/ }).check();
  assert.equal(await bg(), light, "System follows the system's light setting");
  await page.emulateMedia({ colorScheme: "dark" });
  // theme.ts follows the system through matchMedia's change event, which comes after emulateMedia returns.
  await page.waitForFunction((want) => getComputedStyle(document.body).backgroundColor === want, dark, { timeout: 5000 }).catch(() => {});
  assert.equal(await bg(), dark, "and its dark one");
  await page.emulateMedia({ colorScheme: "light" });
});
