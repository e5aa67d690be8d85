import fs from "node:fs";
import { launch } from "./browser.mjs";

// A core command through web-shell's HTTP, as the UI calls it (`POST /ipc/<command>` with the run's
// token), for the journeys' and the benchmark's set-up and read-backs. A refusal throws an Error whose
// `ipc` is the IpcError body.
export async function callCore(origin, token, command, args = {}) {
  const res = await fetch(`${origin}/ipc/${command}`, {
    method: "POST",
    headers: { "content-type": "application/json", "X-ContentDesk-Token": token },
    body: JSON.stringify(args),
  });
  const body = await res.json();
  if (!res.ok) throw Object.assign(new Error(`${command}: ${JSON.stringify(body)}`), { ipc: body });
  return body;
}

/** What a journey run by scripts/ui-e2e.sh reads from its environment: web-shell's URL (with the run's
 *  token), its origin, where captures go, and `ipc` to call the core (throws when run outside that
 *  script, saying how to run it). */
export function shellEnv() {
  const { WEB_SHELL_URL } = process.env;
  if (!WEB_SHELL_URL) throw new Error("WEB_SHELL_URL is not set: run scripts/ui-e2e.sh");
  const ARTIFACTS = process.env.E2E_ARTIFACTS ?? new URL("../artifacts/browser", import.meta.url).pathname;
  const TOKEN = new URL(WEB_SHELL_URL).searchParams.get("token");
  const ORIGIN = new URL(WEB_SHELL_URL).origin;
  return { WEB_SHELL_URL, ARTIFACTS, ORIGIN, ipc: (command, args) => callCore(ORIGIN, TOKEN, command, args) };
}

/** Screenshots of `locator` (the page by default) in light then dark, to `file(theme)`; the page is left light. */
export async function shootBothThemes(page, file, locator = page) {
  for (const theme of ["light", "dark"]) {
    await page.emulateMedia({ colorScheme: theme });
    await page.waitForTimeout(150);
    await locator.screenshot({ path: file(theme) });
  }
  await page.emulateMedia({ colorScheme: "light" });
}

/** The board of the space named `space`. The space list is read when the planner starts: a page that read
 * it before the space was made is loaded again. */
export async function openSpaceBoard(page, origin, space) {
  await page.goto(`${origin}/`);
  const tab = page.getByRole("tab", { name: space });
  if (!(await tab.waitFor({ timeout: 5000 }).then(() => true, () => false))) await page.reload();
  await tab.click();
  await page.getByTestId("view-board").click();
}

/** The set-up the planner journeys share (io, previews, plan): a Chromium (`launch`, `tag` names its profile),
 *  the app loaded on its planner, the calendar's zone UTC (set before the calendar is first opened), and a
 *  new space named `space` with its stages as the core made them. Returns `{ browser, page, pageErrors,
 *  space, stages }`. */
export async function startPlannerJourney({ tag, space, width = 1360, height = 900 }) {
  const { WEB_SHELL_URL, ARTIFACTS, ipc } = shellEnv();
  fs.mkdirSync(ARTIFACTS, { recursive: true });
  const browser = await launch({ width, height, tag });
  const { page, pageErrors } = browser;
  await page.goto(WEB_SHELL_URL);
  await page.getByRole("tab", { name: /Content plan/ }).waitFor();
  await page.evaluate(() => localStorage.setItem("contentdesk.calendar.zone", "UTC"));
  const made = await ipc("space_create", { name: space });
  const { stages } = await ipc("board_load", { spaceId: made.id });
  return { browser, page, pageErrors, space: made, stages };
}
