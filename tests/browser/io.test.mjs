// Import and export in the UI (issue 28 point 6) in Debian's Chromium against web-shell and its embedded
// sandbox (scripts/ui-e2e.sh), each read back from the service through the core: a CSV with one bad row
// imported from the space menu (the preview and the report name its line and field, the other rows are
// made, the bad row once fixed is run again alone, and the same file again through the command palette
// makes nothing); the calendar's Export as ICS opened with Python's `icalendar` (one VEVENT per post, its
// UID, DTSTART in UTC, title and platform in SUMMARY, the caption in DESCRIPTION) and as CSV. Its own
// space, so it depends on no other journey. Screenshots io-*-{light,dark}.png.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { shellEnv, openSpaceBoard, shootBothThemes, startPlannerJourney } from "./webshell.mjs";

const { ARTIFACTS, ORIGIN, ipc } = shellEnv();
const SPACE = "IO journey";

let browser, page, pageErrors = [];
let space, stages;

/** Python's icalendar, installed for this run when missing (as the MCP layer does). */
function ensureIcalendar() {
  try {
    execFileSync("python3", ["-c", "import icalendar"], { stdio: "ignore" });
  } catch {
    execFileSync("python3", ["-m", "pip", "install", "--quiet", "icalendar"], { stdio: "inherit" });
  }
}

before(async () => {
  ensureIcalendar();
  ({ browser, page, pageErrors, space, stages } = await startPlannerJourney({ tag: "io", space: SPACE }));
});

after(async () => {
  if (page) fs.writeFileSync(path.join(ARTIFACTS, "io-dom.html"), await page.content());
  fs.writeFileSync(path.join(ARTIFACTS, "io-page-errors.txt"), pageErrors.join("\n") + (pageErrors.length ? "\n" : ""));
  await browser?.close();
});

const shoot = (name) => shootBothThemes(page, (theme) => path.join(ARTIFACTS, `io-${name}-${theme}.png`));

const openBoard = () => openSpaceBoard(page, ORIGIN, SPACE);

const cards = async () => (await ipc("board_load", { spaceId: space.id })).cards;

const csv = (fourth) => [
  "title,stage,platforms,scheduledAt,caption,notes",
  `Import one,${stages[0].name},x;instagram,2027-02-01T09:00:00Z,Hello one,first note`,
  `Import two,${stages[0].name},tiktok,2027-02-02T09:00:00Z,Hello two,`,
  `Import three,${stages[0].name},${fourth},2027-02-03T09:00:00Z,Hello three,`,
  `Import four,${stages[0].name},linkedin,,Four,`,
].join("\n") + "\n";
const file = (text) => ({ name: "plan.csv", mimeType: "text/csv", buffer: Buffer.from(text) });

test("import: one bad row reported by line and field, the rest made, the row run again alone once fixed, the file again makes nothing", async () => {
  await openBoard();
  await page.getByTestId("space-actions").click();
  await page.getByTestId("space-import").click();
  const dialog = page.getByRole("dialog", { name: `Import cards into “${SPACE}”` });
  await dialog.waitFor();
  await dialog.getByTestId("import-file").setInputFiles(file(csv("myspace")));

  // The dry run: three to create, line 4 refused on its platforms; nothing made yet.
  const previewBox = dialog.getByTestId("import-preview");
  await previewBox.waitFor();
  assert.equal(await dialog.getByTestId("import-would-create").count(), 3);
  const refused = dialog.getByTestId("import-refused");
  assert.equal(await refused.count(), 1);
  assert.match(await refused.innerText(), /^Line 4, platforms: “myspace” is not a platform/);
  assert.equal((await cards()).length, 0, "a dry run makes nothing");
  await shoot("import-preview");

  await dialog.getByTestId("import-start").click();
  const report = dialog.getByTestId("import-report");
  await report.waitFor();
  assert.equal(await dialog.getByTestId("import-summary").innerText(), "3 created, 1 refused.");
  const status = (line) => dialog.locator(`[data-testid=import-row][data-line="${line}"]`).getAttribute("data-status");
  assert.deepEqual(await Promise.all([2, 3, 4, 5].map(status)), ["created", "created", "refused", "created"]);
  assert.match(await dialog.locator('[data-testid=import-row][data-line="4"]').innerText(), /platforms: “myspace” is not a platform/);
  await shoot("import-report");

  // Read back: three cards, each with its posts and its row's key as its notes' last line.
  let made = await cards();
  assert.deepEqual(made.map((c) => c.title).sort(), ["Import four", "Import one", "Import two"]);
  const one = await ipc("card_get", { cardId: made.find((c) => c.title === "Import one").id });
  assert.deepEqual(one.posts.map((p) => p.platform).sort(), ["instagram", "x"]);
  assert.equal(Date.parse(one.scheduledAt), Date.parse("2027-02-01T09:00:00Z"));
  assert.match(one.notes, /^first note\n\ncdesk-import-key: row-[0-9a-f]{16}$/);

  // The file fixed, line 4 run again alone: made, and nothing else made twice.
  await dialog.getByTestId("import-fixed-file").setInputFiles(file(csv("x")));
  await dialog.getByRole("button", { name: "Run line 4 again" }).click();
  await dialog.locator('[data-testid=import-row][data-line="4"][data-status=created]').waitFor();
  assert.equal(await dialog.getByTestId("import-summary").innerText(), "4 created.");
  made = await cards();
  assert.deepEqual(made.map((c) => c.title).sort(), ["Import four", "Import one", "Import three", "Import two"]);
  await dialog.getByRole("button", { name: "Close" }).click();
  await dialog.waitFor({ state: "detached" });
  // The board shows what was made (the dialog reloads it on close).
  await page.locator("section.column [data-card-id]").filter({ hasText: "Import three" }).waitFor();

  // The same (fixed) file again, from the command palette: everything already imported, nothing to create.
  await page.keyboard.press("Control+k");
  const palette = page.getByRole("dialog", { name: "Command palette" });
  await palette.waitFor();
  await page.keyboard.type("Import cards");
  await page.keyboard.press("Enter");
  await dialog.waitFor();
  await dialog.getByTestId("import-file").setInputFiles(file(csv("x")));
  await dialog.getByTestId("import-preview").waitFor();
  assert.equal(await dialog.getByTestId("import-existing").count(), 4);
  assert.equal(await dialog.getByTestId("import-would-create").count(), 0);
  assert.equal(await dialog.getByTestId("import-start").isDisabled(), true, "nothing to create");
  await page.keyboard.press("Escape");
  await dialog.waitFor({ state: "detached" });
  assert.equal((await cards()).length, 4, "a second run adds nothing");
});

test("import: a file that is neither CSV nor JSON is refused before anything is made", async () => {
  await openBoard();
  const before = (await cards()).length;
  await page.getByTestId("space-actions").click();
  await page.getByTestId("space-import").click();
  const dialog = page.getByRole("dialog", { name: `Import cards into “${SPACE}”` });
  await dialog.getByTestId("import-file").setInputFiles({ name: "logo.png", mimeType: "image/png", buffer: Buffer.from([0x89, 0x50, 0x4e, 0x47, 0, 0, 0, 0]) });
  await dialog.getByTestId("import-error").waitFor();
  assert.equal(await dialog.getByTestId("import-preview").count(), 0);
  await page.keyboard.press("Escape");
  assert.equal((await cards()).length, before);
});

/** Runs Python's icalendar over an ICS file: its events as JSON. */
function readIcs(file) {
  const script = `
import json, sys, icalendar
cal = icalendar.Calendar.from_ical(open(sys.argv[1], 'rb').read())
out = []
for ev in cal.walk('VEVENT'):
    start = ev.decoded('DTSTART')
    out.append({'uid': str(ev.get('UID')), 'start': start.isoformat(), 'utc': start.utcoffset() is not None and start.utcoffset().total_seconds() == 0,
                'summary': str(ev.get('SUMMARY')), 'description': str(ev.get('DESCRIPTION', ''))})
print(json.dumps(out))`;
  return JSON.parse(execFileSync("python3", ["-c", script, file], { encoding: "utf8" }));
}

test("export: the calendar's shown weeks as ICS, read by Python's icalendar, and as CSV", async () => {
  const now = new Date();
  const at = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 15, 9, 0, 0)).toISOString().replace(".000Z", "Z");
  const card = await ipc("card_create", { spaceId: space.id, stage: stages[0].id, title: "Export me", platform: "x" });
  await ipc("card_update", { cardId: card.id, update: { scheduledAt: at, posts: [{ platform: "x", platformSpecificData: { caption: "Caption for X" } }, { platform: "linkedin", platformSpecificData: { caption: "Caption, for LinkedIn; with commas" } }] } });
  await openBoard();
  await page.getByTestId("view-calendar").click();
  await page.getByRole("button", { name: "Month", exact: true }).click();
  await page.getByTestId("calendar-month").waitFor();

  await page.getByTestId("calendar-export").click();
  await page.getByRole("menu", { name: "Export these weeks as" }).waitFor();
  await shoot("export-menu");
  const [download] = await Promise.all([page.waitForEvent("download"), page.getByTestId("export-ics").click()]);
  assert.match(download.suggestedFilename(), /^content-desk-io-journey-\d{4}-\d{2}-\d{2}-\d{4}-\d{2}-\d{2}\.ics$/);
  const ics = path.join(ARTIFACTS, "io-export.ics");
  await download.saveAs(ics);
  await page.getByTestId("calendar-export-status").filter({ hasText: /^Saved 2 posts to / }).waitFor();
  await shoot("export-saved");

  const events = readIcs(ics);
  assert.equal(events.length, 2, "one event per post of the shown weeks (the imported cards are in February 2027)");
  // SUMMARY: the card's title and the platform, "Export me (x)".
  const byPlatform = Object.fromEntries(events.map((e) => [e.summary.match(/\((\w+)\)$/)?.[1], e]));
  for (const [platform, caption] of [["x", "Caption for X"], ["linkedin", "Caption, for LinkedIn; with commas"]]) {
    const e = byPlatform[platform];
    assert.ok(e, `an event for ${platform}`);
    assert.ok(e.summary.includes("Export me"), e.summary);
    assert.equal(e.description, caption);
    assert.equal(e.utc, true, "DTSTART in UTC");
    assert.equal(new Date(e.start).toISOString().replace(".000Z", "Z"), at);
  }
  assert.notEqual(events[0].uid, events[1].uid);
  // The same export again: the same UIDs (stable per post).
  const [again] = await Promise.all([page.waitForEvent("download"), (async () => { await page.getByTestId("calendar-export").click(); await page.getByTestId("export-ics").click(); })()]);
  const ics2 = path.join(ARTIFACTS, "io-export-2.ics");
  await again.saveAs(ics2);
  assert.deepEqual(readIcs(ics2).map((e) => e.uid).sort(), events.map((e) => e.uid).sort());

  const [asCsv] = await Promise.all([page.waitForEvent("download"), (async () => { await page.getByTestId("calendar-export").click(); await page.getByTestId("export-csv").click(); })()]);
  assert.match(asCsv.suggestedFilename(), /\.csv$/);
  const csvPath = path.join(ARTIFACTS, "io-export.csv");
  await asCsv.saveAs(csvPath);
  const lines = fs.readFileSync(csvPath, "utf8").trim().split(/\r?\n/);
  assert.equal(lines.length, 3, "a header and two rows");
  assert.ok(lines.slice(1).every((l) => l.includes("Export me")));
  // The one refusal this file asks for (the PNG import's 400) is the only console error.
  assert.deepEqual(pageErrors.filter((e) => !e.includes("status of 400")), []);
  assert.ok(pageErrors.length <= 1, pageErrors.join("\n"));
});
