// One way to start Debian's Chromium for the journeys and the benchmark (playwright-core): headless, a
// fresh profile, and the flags this machine's closed network needs (no background connections, no QUIC,
// no component updates). Page errors and console errors are collected for the "no page errors" checks.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { createRequire } from "node:module";

// playwright-core comes with the UI's dev dependencies (ui/node_modules): no second install for the journeys.
const { chromium } = createRequire(new URL("../../ui/package.json", import.meta.url))("playwright-core");

export const CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
  "--disable-background-networking", "--disable-component-update", "--disable-sync"];

/** Chromium with a throwaway profile: `{ context, page, pageErrors, close }`. */
export async function launch({ width = 1280, height = 800, tag = "e2e" } = {}) {
  const profile = fs.mkdtempSync(path.join(os.tmpdir(), `contentdesk-${tag}-chromium-`));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: "/usr/bin/chromium",
    headless: true,
    viewport: { width, height },
    args: CHROMIUM_ARGS,
  });
  const page = context.pages()[0] ?? (await context.newPage());
  const pageErrors = [];
  page.on("pageerror", (e) => pageErrors.push(String(e)));
  page.on("console", (m) => { if (m.type() === "error") pageErrors.push(m.text()); });
  const close = async () => {
    await context.close().catch(() => undefined);
    fs.rmSync(profile, { recursive: true, force: true });
  };
  return { context, page, pageErrors, close };
}
