// Every screen at 1280x800 and 960x600, light and dark (prefers-color-scheme), against web-shell and its
// embedded sandbox (scripts/ui-e2e.sh): a screenshot of each (E2E_ARTIFACTS/screens/), the layout goals of
// the planner (one toolbar row, the page itself does not scroll, the first stage's New card and three cards
// per column in view), on every screen nothing scrolls sideways and the header is one row, and axe-core
// with the WCAG 2.2 A/AA tags reporting no violation on any screen or dialog. The pending-changes list and
// the conflicts are screens_offline.test.mjs's (they need a service that stops answering).
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import fs from "node:fs";
import path from "node:path";
import { launch } from "./browser.mjs";
import { shellEnv } from "./webshell.mjs";
import { SIZES, THEMES, axe, focusRing, misfit, shoot, unseenRing } from "./screens.mjs";
import { makePreviewCards } from "./previewCard.mjs";

const { WEB_SHELL_URL, ARTIFACTS, ORIGIN, ipc } = shellEnv();
const SHOTS = path.join(ARTIFACTS, "screens");

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
      await ipc("card_create", { spaceId: space.id, stage: stage.id, title: `${stage.name} card ${n}`, platform: ["instagram", "tiktok", "youtube"][(i + n) % 3] });
    }
  }
  // A card X will refuse, unscheduled: scheduling it on the calendar asks first (issue 28), a dialog checked too.
  const tooLong = await ipc("card_create", { spaceId: space.id, stage: stages[stages.length - 1].id, title: "Too long for X", platform: "x" });
  await ipc("card_update", { cardId: tooLong.id, update: { posts: [{ platform: "x", platformSpecificData: { caption: "word ".repeat(60) + "extra" } }] } });
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

/** The system's colour scheme, and the app following it: theme.ts hears matchMedia's change event after
 *  emulateMedia returns, so a screen read at once could still be in the theme before. */
async function systemTheme(theme) {
  await page.emulateMedia({ colorScheme: theme });
  await page.waitForFunction((want) => document.documentElement.dataset.theme === want, theme, { timeout: 5000 });
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
    // Each column: its stage's id, the count its header shows, and the titles of the tiles wholly in view.
    const columns = [...document.querySelectorAll("section.column")].map((col) => {
      const scroller = col.querySelector(".scroller")?.getBoundingClientRect();
      const inView = [...col.querySelectorAll("[data-card-id]")].filter((t) => {
        const r = t.getBoundingClientRect();
        return scroller && r.top >= scroller.top - 1 && r.bottom <= scroller.bottom + 1 && r.bottom <= innerHeight;
      });
      return {
        stageId: col.dataset.stageId,
        count: Number(col.querySelector("header .count")?.firstChild?.textContent ?? NaN),
        titles: inView.map((t) => t.querySelector("button.open")?.textContent.trim()),
      };
    });
    return {
      sideways: doc.scrollWidth > doc.clientWidth,
      pageScrolls: doc.scrollHeight > doc.clientHeight + 1,
      headerHeight: rect(header)?.height ?? 0,
      toolbarHeight: rect(toolbar)?.height ?? 0,
      newCardBottom: rect(newCard)?.bottom ?? Infinity,
      columns,
      visibleTiles: columns.map((c) => c.titles.length),
      busy: document.querySelector("#space-board")?.getAttribute("aria-busy") === "true",
      // The chosen space's tab: its name and the count it shows.
      tab: (() => {
        const t = document.querySelector(".planner [role=tablist][aria-label=Spaces] [role=tab][aria-selected=true]");
        return t && { name: t.firstChild?.textContent?.trim(), count: Number(t.querySelector(".count")?.firstChild?.textContent ?? NaN) };
      })(),
      // The space tabs' strip: a fade on each edge where tabs go on past it (SpacePicker's `edges`).
      strip: (() => {
        const el = document.querySelector(".planner [role=tablist][aria-label=Spaces]");
        if (!el) return null;
        const more = { start: el.scrollLeft > 1, end: el.scrollLeft + el.clientWidth < el.scrollWidth - 1 };
        return { overflows: el.scrollWidth > el.clientWidth + 1, more, faded: { start: el.classList.contains("fade-start"), end: el.classList.contains("fade-end") } };
      })(),
    };
  });
}

/** The journey space's board as the service holds it now: each stage's id, name and card titles. */
async function expectedBoard() {
  const { stages, cards } = await ipc("board_load", { spaceId: space.id });
  return stages.map((st) => ({ stageId: st.id, name: st.name, titles: cards.filter((c) => c.stageId === st.id && !c.archivedAt).map((c) => c.title) }));
}

/** How the board on screen differs from `want` (null: it shows it): every stage a column, in the service's
 *  order, its header counting the stage's cards, and at least `perColumn` of them (or all, when fewer) in
 *  view, each a card of that stage. An empty board, one still filtered by an earlier search, or another
 *  space's cards under this space's tab all differ. */
function boardDiffers(l, want, perColumn) {
  const problems = [];
  if (l.busy) problems.push("the board is loading");
  const total = want.reduce((n, w) => n + w.titles.length, 0);
  if (l.tab?.name !== space.name || l.tab?.count !== total) problems.push(`the chosen tab reads ${JSON.stringify(l.tab)}, not “${space.name}” with ${total}`);
  if (JSON.stringify(l.columns.map((c) => c.stageId)) !== JSON.stringify(want.map((w) => w.stageId))) problems.push(`columns ${l.columns.map((c) => c.stageId)} are not the stages ${want.map((w) => w.stageId)}`);
  for (const w of want) {
    const c = l.columns.find((x) => x.stageId === w.stageId);
    if (!c) continue;
    if (c.count !== w.titles.length) problems.push(`${w.name}: the header counts ${c.count}, the stage holds ${w.titles.length}`);
    const need = Math.min(perColumn, w.titles.length);
    if (c.titles.length < need) problems.push(`${w.name}: ${c.titles.length} cards in view, ${need} expected`);
    const strangers = c.titles.filter((t) => !w.titles.includes(t));
    if (strangers.length) problems.push(`${w.name}: ${strangers.map((t) => `“${t}”`).join(", ")} not of this stage`);
  }
  return problems.length ? problems.join("; ") : null;
}

/** Cards in view per column at each size: three at 1280x800 (issue 26's goal), two at 960x600. */
const perColumn = (size) => (size.width >= 1280 ? 3 : 2);

/** Waits (up to 10 s) until the board shows the journey space as the service holds it; answers the layout. */
async function waitForBoard(size) {
  const want = await expectedBoard();
  let l = await layout(size);
  for (const until = Date.now() + 10_000; boardDiffers(l, want, perColumn(size)) && Date.now() < until;) {
    await page.waitForTimeout(100);
    l = await layout(size);
  }
  return { l, differs: boardDiffers(l, want, perColumn(size)) };
}

/** The board's layout goals at this size (the checks every screen passes are `misfit`'s). */
async function boardGoals(size, tag) {
  // Each stage's first page arrives on its own, and a search cleared by the screen before is answered
  // after it: the columns are read once they show the journey space's cards (a clean-clone run read them
  // with one tile in the first column and none in the rest; a 960 shot showed an earlier search's one card).
  let { l, differs } = await waitForBoard(size);
  assert.equal(differs, null, `${tag}: the board shows the journey space's cards`);
  assert.equal(l.pageScrolls, false, `${tag}: the page does not scroll, only the columns`);
  assert.ok(l.toolbarHeight <= 48, `${tag}: the toolbar is one row (${l.toolbarHeight}px)`);
  assert.ok(l.newCardBottom <= size.height, `${tag}: the first stage's New card is in view (bottom ${l.newCardBottom})`);
  // The strip's fades follow its scroll (measured after layout, by a ResizeObserver and on scroll).
  for (const until = Date.now() + 2_000; l.strip && JSON.stringify(l.strip.more) !== JSON.stringify(l.strip.faded) && Date.now() < until;) {
    await page.waitForTimeout(50);
    l = await layout(size);
  }
  assert.ok(l.strip, `${tag}: the space tabs are on screen`);
  assert.deepEqual(l.strip.faded, l.strip.more, `${tag}: the tab strip fades where tabs go on past its edge`);
  if (size.width < 1280) assert.ok(l.strip.overflows, `${tag}: the journey's spaces overflow the strip at this width (else the fades go unchecked)`);
}

/** Every screen and dialog, in the order the journey visits them. Each entry: `name` (axe's report),
 *  `shot` (the screenshot's name), `open(ctx)` (brings it up from where the entry before left the page;
 *  ctx is { page, size, tag }), and `close(ctx)` when it must be put away before the next. Each is shot,
 *  checked by `misfit` and by axe at every size and theme. Other journeys' screens are appended here. */
const SCREENS = [
  {
    name: "board", shot: "board",
    async open({ page, size, tag }) {
      // The local sandbox: with the practice-space note.
      await page.goto(`${ORIGIN}/#/planner`);
      await page.getByTestId("practice-note").waitFor();
      await page.getByTestId("view-board").click();
      await page.getByRole("tab", { name: /Screens journey/ }).click();
      await page.locator("section.column [data-card-id]").first().waitFor();
      await page.waitForTimeout(100);
      await boardGoals(size, tag);
    },
  },
  {
    name: "shortcut sheet", shot: "shortcuts",
    async open({ page }) {
      await page.locator("body").press("?");
      await page.getByRole("dialog", { name: "Keyboard shortcuts" }).waitFor();
    },
    async close({ page }) {
      await page.keyboard.press("Escape");
      await page.getByRole("dialog", { name: "Keyboard shortcuts" }).waitFor({ state: "detached" });
    },
  },
  {
    // The command palette (Ctrl+K), narrowed to a few actions.
    name: "command palette", shot: "palette",
    async open({ page }) {
      await page.keyboard.press("Control+k");
      await page.getByRole("dialog", { name: "Command palette" }).waitFor();
      await page.keyboard.type("show");
    },
    async close({ page }) {
      await page.keyboard.press("Escape");
      await page.getByRole("dialog", { name: "Command palette" }).waitFor({ state: "detached" });
    },
  },
  {
    name: "card editor", shot: "editor",
    async open({ page }) {
      await page.locator("section.column [data-card-id] button.open").first().click();
      await page.getByTestId("card-editor").waitFor();
      await page.getByLabel("Title", { exact: true }).waitFor();
    },
  },
  {
    // The editor's Repeat dialog (issue 28 point 5); closing it, then the editor.
    name: "repeat dialog", shot: "repeat",
    async open({ page }) {
      await page.getByRole("button", { name: "Repeat…" }).click();
      await page.getByTestId("repeat-dialog").waitFor();
    },
    async close({ page }) {
      await page.keyboard.press("Escape");
      await page.getByTestId("repeat-dialog").waitFor({ state: "detached" });
      await page.keyboard.press("Escape");
      await page.getByTestId("card-editor").waitFor({ state: "detached" });
    },
  },
  {
    name: "calendar month", shot: "calendar-month",
    async open({ page }) {
      await page.getByTestId("view-calendar").click();
      await page.getByTestId("calendar").waitFor();
      await page.getByRole("button", { name: "Month", exact: true }).click();
      await page.getByTestId("calendar-month").waitFor();
    },
  },
  {
    // An unscheduled card X will refuse, taken to a day by keyboard: the confirm before it is scheduled.
    name: "calendar schedule confirm", shot: "calendar-confirm",
    async open({ page }) {
      await page.locator('[data-testid="calendar-unscheduled"] [data-card]').filter({ hasText: "Too long for X" }).focus();
      await page.keyboard.press("Space");
      await page.keyboard.press("Enter");
      await page.getByRole("alertdialog", { name: "Schedule a post the platform will refuse?" }).waitFor();
    },
    async close({ page }) {
      await page.keyboard.press("Escape");
      await page.getByRole("alertdialog").waitFor({ state: "detached" });
    },
  },
  {
    name: "calendar week", shot: "calendar-week",
    async open({ page }) {
      await page.getByRole("button", { name: "Week", exact: true }).click();
      await page.getByTestId("calendar-week").waitFor();
    },
    async close({ page }) {
      await page.getByTestId("view-board").click();
    },
  },
  {
    name: "studio", shot: "studio",
    async open({ page }) {
      await page.getByRole("link", { name: "Studio" }).click();
      await page.getByRole("heading", { level: 1, name: "Studio" }).waitFor();
      await page.waitForTimeout(300);
    },
  },
  {
    name: "studio gallery viewer", shot: "studio-viewer",
    async open({ page }) {
      await page.getByRole("button", { name: /lighthouse at dawn, screens journey.* full size$/ }).first().click();
      await page.getByTestId("media-viewer").waitFor();
      await page.getByTestId("media-viewer").getByRole("img").waitFor();
    },
    async close({ page }) {
      await page.keyboard.press("Escape");
      await page.getByTestId("media-viewer").waitFor({ state: "detached" });
    },
  },
  {
    name: "brand kit reading", shot: "brand-kit",
    async open({ page }) {
      await page.getByRole("link", { name: "Brand kit" }).click();
      await page.getByRole("heading", { level: 1, name: "Brand kit" }).waitFor();
      await page.getByTestId("section-about").waitFor();
      await page.getByTestId("section-about").getByTestId("markdown").waitFor();
    },
  },
  {
    // Editing: the editor beside its live preview.
    name: "brand kit editing", shot: "brand-kit-editing",
    async open({ page }) {
      await page.getByTestId("section-audience").getByRole("button", { name: "Edit" }).click();
      await page.getByTestId("section-audience").locator(".cm-content").waitFor();
      await page.getByTestId("section-audience").scrollIntoViewIfNeeded();
    },
    async close({ page }) {
      await page.getByTestId("section-audience").getByRole("button", { name: "Cancel" }).click();
    },
  },
  {
    // History, reading the earlier version.
    name: "brand kit history", shot: "brand-kit-history",
    async open({ page }) {
      await page.getByTestId("section-about").getByRole("button", { name: /^History of/ }).click();
      await page.getByRole("dialog", { name: /^History of/ }).getByTestId("history-version").waitFor();
    },
  },
  {
    // Compare: the earlier version beside the current text, the changes highlighted.
    name: "brand kit compare", shot: "brand-kit-compare",
    async open({ page }) {
      const history = page.getByRole("dialog", { name: /^History of/ });
      await history.getByRole("button", { name: "Compare with current" }).click();
      await history.getByTestId("history-diff").locator(".cm-mergeView").waitFor();
    },
    async close({ page }) {
      await page.keyboard.press("Escape");
      await page.getByRole("dialog", { name: /^History of/ }).waitFor({ state: "detached" });
    },
  },
  {
    name: "settings", shot: "settings",
    async open({ page }) {
      await page.getByRole("link", { name: "Settings" }).click();
      await page.getByRole("heading", { level: 1, name: "Settings" }).waitFor();
      // The posting queue's slots editor, loaded (issue 28 point 4).
      await page.getByRole("button", { name: "Save queue" }).waitFor();
    },
  },
  {
    // "Connect ContentHero" (opened from Settings; the practice note is on the board's screens above).
    name: "connect dialog", shot: "connect",
    async open({ page }) {
      await page.getByTestId("settings-connect").click();
      const connect = page.getByRole("dialog", { name: "Connect ContentHero" });
      await connect.waitFor();
      await connect.getByText("Another server").click();
    },
    async close({ page }) {
      await page.keyboard.press("Escape");
      await page.getByRole("dialog", { name: "Connect ContentHero" }).waitFor({ state: "detached" });
    },
  },
  // Import, export and backup (issue 28 point 6): the restore's confirm, the import dialog, the export menu.
  {
    name: "backup restore confirm", shot: "backup-confirm",
    async open({ page }) {
      await page.getByTestId("backup-file").setInputFiles({ name: "backup.json", mimeType: "application/json", buffer: Buffer.from("{}") });
      await page.getByRole("alertdialog", { name: "Restore “backup.json”?" }).waitFor();
    },
    async close({ page }) {
      const restore = page.getByRole("alertdialog", { name: "Restore “backup.json”?" });
      await restore.getByRole("button", { name: "Cancel" }).click();
      await restore.waitFor({ state: "detached" });
    },
  },
  {
    name: "import dialog", shot: "import",
    async open({ page, tag }) {
      await page.goto(`${ORIGIN}/#/planner`);
      await page.getByTestId("view-board").click();
      await page.getByRole("tab", { name: /Screens journey/ }).click();
      await page.getByTestId("space-actions").click();
      await page.getByTestId("space-import").click();
      await page.getByTestId("import-dialog").waitFor();
      // Opened by mouse: the file field it focuses still shows the app's focus ring (seen in the shot too).
      const ring = await focusRing(page);
      assert.equal(ring?.element, "input[type=file][data-testid=import-file]", "the import dialog focuses its file field");
      assert.equal(unseenRing(ring), null, `${tag}: the focused file field shows its ring (${JSON.stringify(ring)})`);
    },
    async close({ page }) {
      await page.keyboard.press("Escape");
      await page.getByTestId("import-dialog").waitFor({ state: "detached" });
    },
  },
  {
    name: "calendar export menu", shot: "calendar-export",
    async open({ page }) {
      await page.getByTestId("view-calendar").click();
      await page.getByTestId("calendar-export").click();
      await page.getByRole("menu", { name: "Export these weeks as" }).waitFor();
    },
    async close({ page }) {
      await page.keyboard.press("Escape");
      await page.getByTestId("view-board").click();
    },
  },
  {
    // The card editor with its per-platform previews (issue 28 point 3): an Instagram carousel and an X post.
    name: "card editor with previews", shot: "editor-previews",
    async open({ page }) {
      previewCards ??= await makePreviewCards(ipc, space.id, (await ipc("board_load", { spaceId: space.id })).stages[0].id);
      await page.goto(`${ORIGIN}/#/planner`);
      await page.getByTestId("view-board").click();
      await page.getByRole("tab", { name: /Screens journey/ }).click();
      await page.locator("#board-search").fill("Spring drop");
      await page.locator(`section.column [data-card-id="${previewCards.spring}"] button.open`).click();
      await page.locator('[data-testid="post-preview"][data-platform="x"]').waitFor();
      await page.locator('[data-testid="post-preview"][data-platform="instagram"] [data-testid="preview-crop"]').waitFor();
    },
    async close({ page, size, tag }) {
      await page.keyboard.press("Escape");
      await page.getByTestId("card-editor").waitFor({ state: "detached" });
      // The search put away: the board shows the whole space again before the next screen.
      await page.locator("#board-search").fill("");
      const { differs } = await waitForBoard(size);
      assert.equal(differs, null, `${tag}: the whole board again once the search is cleared`);
    },
  },
];

for (const theme of THEMES) {
  for (const size of SIZES) {
    test(`every screen at ${size.width}x${size.height}, ${theme}: the layout goals, a screenshot, and no axe violation`, async () => {
      await page.setViewportSize(size);
      await systemTheme(theme);
      const tag = `${size.width}x${size.height}-${theme}`;
      const ctx = { page, size, tag };
      const mine = [];
      const misfits = [];
      for (const screen of SCREENS) {
        await screen.open(ctx);
        await shoot(page, SHOTS, screen.shot, size, theme);
        const m = await misfit(page);
        if (m) misfits.push(`${screen.name}: ${m}`);
        const v = await axe(page, `${screen.name} ${tag}`);
        mine.push(...v);
        found.push(...v);
        await screen.close?.(ctx);
      }
      assert.deepEqual(misfits, [], `${tag}: nothing scrolls sideways and the header is one row, on every screen`);
      assert.deepEqual(mine.map((x) => `${x.screen}: ${x.id} (${x.nodes.length}) ${x.nodes.map((n) => n.target).join(" | ")}`), [], "axe-core: no WCAG 2.2 A/AA violation");
    });
  }
}

test("the theme: Settings > Appearance overrides the system, and follows it again on System", async () => {
  await page.setViewportSize({ width: 1280, height: 800 });
  await systemTheme("light");
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

// Issue 26: the card editor's actions (Archive, Duplicate, Repeat…, Add to queue, Close, Save) each stay on
// one line, in one row, at 960, 1280 and 1360 wide (at 1360 "Add to queue" wrapped onto two lines): every
// button is as tall as Save, and all share its row. Shot light and dark.
test("the card editor's actions stay on one line at 960, 1280 and 1360 wide, light and dark", async () => {
  for (const theme of THEMES) {
    for (const size of [{ width: 960, height: 600 }, { width: 1280, height: 800 }, { width: 1360, height: 800 }]) {
      await page.setViewportSize(size);
      await page.emulateMedia({ colorScheme: theme });
      await page.goto(`${ORIGIN}/#/planner`);
      await page.getByTestId("view-board").click();
      await page.getByRole("tab", { name: /Screens journey/ }).click();
      await page.locator("section.column [data-card-id] button.open").first().click();
      const editor = page.getByTestId("card-editor");
      await editor.waitFor();
      await page.getByLabel("Title", { exact: true }).waitFor();
      // An edit, so the status line says "Unsaved changes" beside the buttons (the state in which "Add to queue"
      // wrapped: the status took its room).
      await page.getByLabel("Title", { exact: true }).press("End");
      await page.keyboard.type("!");
      await editor.locator("footer .status").filter({ hasText: "Unsaved changes" }).waitFor();
      await shoot(page, SHOTS, "editor-actions", size, theme);
      const rows = await editor.locator("footer button").evaluateAll((buttons) => buttons.map((b) => {
        const r = b.getBoundingClientRect();
        return { name: b.textContent.trim(), top: Math.round(r.top), height: Math.round(r.height) };
      }));
      const save = rows.find((r) => r.name === "Save");
      assert.ok(save && rows.some((r) => r.name === "Add to queue"), `${size.width}: the editor shows Add to queue and Save (${JSON.stringify(rows)})`);
      const off = rows.filter((r) => r.height !== save.height || Math.abs(r.top - save.top) > 1);
      assert.deepEqual(off, [], `${size.width}x${size.height} ${theme}: every action on one line, in Save's row (Save: ${JSON.stringify(save)})`);
      await page.keyboard.press("Escape");
      const discard = page.getByRole("button", { name: "Discard changes" });
      if (await discard.isVisible().catch(() => false)) await discard.click();
      await editor.waitFor({ state: "detached" });
    }
  }
  await page.setViewportSize({ width: 1280, height: 800 });
  await page.emulateMedia({ colorScheme: "light" });
});
