// The command palette (Ctrl+K, issue 26 point 3) in Debian's Chromium against web-shell and its
// embedded sandbox (scripts/ui-e2e.sh): from the board, by keyboard alone, it reaches another screen,
// the calendar, a card by its title, a new card, and the dark theme; Escape gives focus back.
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
  await ipc("card_create", { spaceId: space.id, stageId: stages[1].id, title: "Lighthouse reel for Friday", platform: "instagram" });
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
