// The command palette (Ctrl+K, issue 26 point 3) in Debian's Chromium against web-shell and its
// embedded sandbox (scripts/ui-e2e.sh): from the board, by keyboard alone, it reaches another screen,
// the calendar, a card by its title, a new card, and the dark theme; Escape gives focus back. And the one
// focus trap (issue 26): Tab kept inside the palette, the shortcut sheet, the card editor, a picker over it,
// the import dialog and the stage-delete dialog.
// Its own space, so it depends on no other journey.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import fs from "node:fs";
import path from "node:path";
import { launch } from "./browser.mjs";
import { shellEnv } from "./webshell.mjs";

const { WEB_SHELL_URL, ARTIFACTS, ipc } = shellEnv();

let browser, page, pageErrors = [];
let space;

before(async () => {
  fs.mkdirSync(ARTIFACTS, { recursive: true });
  space = await ipc("space_create", { name: "Palette journey" });
  const { stages } = await ipc("board_load", { spaceId: space.id });
  await ipc("card_create", { spaceId: space.id, stage: stages[1].id, title: "Lighthouse reel for Friday", platform: "instagram" });
  browser = await launch({ width: 1280, height: 800, tag: "palette" });
  ({ page, pageErrors } = browser);
  await page.goto(WEB_SHELL_URL);
  await page.getByRole("tab", { name: /Palette journey/ }).click();
  await page.locator("[data-card-id]").first().waitFor();
});

after(async () => {
  fs.writeFileSync(path.join(ARTIFACTS, "palette-page-errors.txt"), pageErrors.join("\n") + (pageErrors.length ? "\n" : ""));
  await browser?.close();
});

const dialog = () => page.getByRole("dialog", { name: "Command palette" });

/** Ctrl+K, the words typed, then Enter on the first action found (checked to be `expected`). */
async function run(words, expected) {
  await page.keyboard.press("Control+k");
  await dialog().waitFor();
  await page.keyboard.type(words);
  if (!(await dialog().getByRole("option").count())) {
    await page.screenshot({ path: path.join(ARTIFACTS, "palette-nothing.png") });
    assert.fail(`nothing found for “${words}”; the box holds “${await dialog().getByRole("combobox").inputValue()}”`);
  }
  const first = dialog().getByRole("option").first();
  assert.equal((await first.locator(".label").innerText()).trim(), expected);
  await page.keyboard.press("Enter");
  await dialog().waitFor({ state: "detached" });
}

test("Ctrl+K reaches screens and actions by keyboard, and Escape gives focus back", async () => {
  // Escape closes it and focus is where it was.
  const search = page.locator("#board-search");
  await search.focus();
  await page.keyboard.press("Control+k");
  await dialog().waitFor();
  assert.equal(await page.evaluate(() => document.activeElement?.getAttribute("role")), "combobox");
  await page.keyboard.press("Escape");
  await dialog().waitFor({ state: "detached" });
  assert.equal(await page.evaluate(() => document.activeElement?.id), "board-search");
  await page.locator("main").click({ position: { x: 5, y: 5 } });

  // A card by its title: the editor opens on it.
  await run("lighthouse", "Open “Lighthouse reel for Friday”");
  await page.getByRole("heading", { name: "Edit “Lighthouse reel for Friday”" }).waitFor();
  await page.keyboard.press("Escape");
  await page.getByTestId("card-editor").waitFor({ state: "detached" });

  // New card (N's action): the first stage's title field has focus.
  await run("new card", "New card");
  const title = page.locator("section.column").first().locator("input, textarea").first();
  await title.waitFor();
  assert.equal(await title.evaluate((el) => el === document.activeElement), true);
  await page.keyboard.press("Escape");

  // The calendar, then another screen, then the theme.
  await run("calendar", "Show the calendar");
  assert.equal(await page.getByTestId("view-calendar").getAttribute("aria-pressed"), "true");
  await run("board", "Show the board");
  await run("studio", "Studio");
  await page.getByRole("heading", { level: 1, name: "Studio" }).waitFor();
  assert.equal(new URL(page.url()).hash, "#/studio");
  await run("theme dark", "Theme: dark");
  assert.equal(await page.evaluate(() => document.documentElement.dataset.theme), "dark");
  await run("follow the system", "Theme: follow the system");
  await run("planner", "Planner");
  await page.getByRole("tab", { name: /Palette journey/ }).waitFor();
  assert.deepEqual(pageErrors, []);
});

// Issue 26: one focus trap (ui/src/lib/shared/focusTrap.ts) for every dialog. In each: Tab and Shift+Tab go
// round its own controls (from the last to the first and back), Escape closes it, focus goes back to the opener.
const focused = () => page.evaluate(() => {
  const el = document.activeElement;
  return el ? (el.getAttribute("aria-label") || el.textContent || el.id || el.tagName).trim() : null;
});
const focusIn = (selector) => page.evaluate((s) => !!document.activeElement?.closest(s), selector);

/** Tab from the dialog's last control lands on its first, Shift+Tab from the first on the last; and a dozen
 *  Tabs never leave it. */
async function tabStaysIn(selector) {
  const ends = await page.evaluate((s) => {
    const root = document.querySelector(s);
    const all = [...root.querySelectorAll("button:not(:disabled), input:not(:disabled):not([type=hidden]), select:not(:disabled), textarea:not(:disabled), a[href], summary, [tabindex]:not([tabindex='-1'])")]
      .filter((el) => el.getAttribute("tabindex") !== "-1" && el.checkVisibility());
    all.forEach((el, i) => el.setAttribute("data-tab-index", String(i)));
    return all.length;
  }, selector);
  assert.ok(ends > 0, `${selector} has controls`);
  await page.locator(`${selector} [data-tab-index="${ends - 1}"]`).focus();
  await page.keyboard.press("Tab");
  assert.equal(await page.evaluate(() => document.activeElement?.getAttribute("data-tab-index")), "0", `${selector}: Tab on the last goes to the first`);
  await page.keyboard.press("Shift+Tab");
  assert.equal(await page.evaluate(() => document.activeElement?.getAttribute("data-tab-index")), String(ends - 1), `${selector}: Shift+Tab on the first goes to the last`);
  for (let i = 0; i < 12; i++) {
    await page.keyboard.press(i % 4 === 3 ? "Shift+Tab" : "Tab");
    assert.ok(await focusIn(selector), `${selector}: Tab ${i + 1} stayed inside (focus on ${await focused()})`);
  }
}

test("every dialog keeps Tab inside, closes on Escape and gives focus back: palette, shortcut sheet, card editor, picker", async () => {
  await page.getByRole("tab", { name: /Palette journey/ }).click();
  const card = page.locator("[data-card-id]").filter({ hasText: "Lighthouse reel for Friday" }).locator("button.open");
  await card.waitFor();

  // The command palette: its options are reached with the arrows, so Tab stays in the box.
  await page.locator("#board-search").focus();
  await page.keyboard.press("Control+k");
  await dialog().waitFor();
  for (let i = 0; i < 3; i++) {
    await page.keyboard.press(i === 1 ? "Shift+Tab" : "Tab");
    assert.equal(await page.evaluate(() => document.activeElement?.getAttribute("role")), "combobox");
  }
  await page.keyboard.press("Escape");
  await dialog().waitFor({ state: "detached" });
  assert.equal(await page.evaluate(() => document.activeElement?.id), "board-search");

  // The shortcut sheet, opened with ? from the card.
  await card.focus();
  await page.keyboard.press("?");
  const sheet = page.getByRole("dialog", { name: "Keyboard shortcuts" });
  await sheet.waitFor();
  await tabStaysIn('[data-testid="shortcut-sheet"]');
  await page.keyboard.press("Escape");
  await sheet.waitFor({ state: "detached" });
  assert.equal(await card.evaluate((el) => el === document.activeElement), true, "focus back on the card");

  // The card editor, opened from the card, and the picker over it: Escape closes the picker only.
  await card.focus();
  await page.keyboard.press("Enter");
  const editor = page.getByTestId("card-editor");
  await editor.waitFor();
  await page.getByLabel("Title", { exact: true }).waitFor();
  await tabStaysIn('[data-testid="card-editor"]');
  const add = editor.getByRole("button", { name: "Add inspiration post…" });
  await add.focus();
  await page.keyboard.press("Enter");
  const picker = page.getByTestId("inspiration-picker");
  await picker.waitFor();
  assert.ok(await focusIn('[data-testid="inspiration-picker"]'), "focus moved into the picker");
  // Its posts load after it opens (the Search button is disabled meanwhile): the controls are counted once
  // they are all there (a clean-clone run counted them before: a post's Attach button came after the "last").
  await picker.getByTestId("inspiration-post").first().waitFor();
  await picker.getByRole("button", { name: "Search" }).and(page.locator(":enabled")).waitFor();
  await tabStaysIn('[data-testid="inspiration-picker"]');
  await page.keyboard.press("Escape");
  await picker.waitFor({ state: "detached" });
  assert.equal(await editor.count(), 1, "the editor stays open");
  assert.equal(await add.evaluate((el) => el === document.activeElement), true, "focus back on Add inspiration post…");
  await page.keyboard.press("Escape");
  await editor.waitFor({ state: "detached" });
  assert.equal(await card.evaluate((el) => el === document.activeElement), true, "focus back on the card");
  // The demo's inspiration thumbnails are on hosts this closed network cannot reach (as in planner.test.mjs).
  assert.deepEqual(pageErrors.filter((e) => !/net::ERR_NAME_NOT_RESOLVED/.test(e)), []);
});

test("the import and stage-delete dialogs keep Tab inside, close on Escape and give focus back to their menu button", async () => {
  await page.getByRole("tab", { name: /Palette journey/ }).click();

  // Import cards…, from the space's menu: a native modal <dialog> on the same trap.
  const spaceActions = page.getByTestId("space-actions");
  await spaceActions.click();
  await page.getByTestId("space-import").click();
  const importDialog = page.getByTestId("import-dialog");
  await importDialog.waitFor();
  assert.ok(await focusIn('[data-testid="import-dialog"]'), `focus moved into the import dialog (on ${await focused()})`);
  await tabStaysIn('[data-testid="import-dialog"]');
  await page.keyboard.press("Escape");
  await importDialog.waitFor({ state: "detached" });
  assert.equal(await spaceActions.evaluate((el) => el === document.activeElement), true, `focus back on Space actions (on ${await focused()})`);

  // Delete stage…, from a stage's menu: the safe choice first.
  const stageActions = page.getByRole("button", { name: /^Actions for stage / }).first();
  await stageActions.click();
  await page.getByRole("menuitem", { name: "Delete stage…" }).click();
  const stageDialog = page.getByRole("alertdialog", { name: /^Delete stage/ });
  await stageDialog.waitFor();
  assert.equal(await page.evaluate(() => document.activeElement?.textContent?.trim()), "Cancel", "the safe choice is focused");
  await stageDialog.evaluate((el) => el.setAttribute("data-testid", "stage-delete-dialog"));
  await tabStaysIn('[data-testid="stage-delete-dialog"]');
  await page.keyboard.press("Escape");
  await stageDialog.waitFor({ state: "detached" });
  assert.equal(await stageActions.evaluate((el) => el === document.activeElement), true, `focus back on the stage's menu button (on ${await focused()})`);
  assert.equal(await page.locator("[data-card-id]").filter({ hasText: "Lighthouse reel for Friday" }).count(), 1, "nothing deleted");
  assert.deepEqual(pageErrors.filter((e) => !/net::ERR_NAME_NOT_RESOLVED/.test(e)), []);
});
