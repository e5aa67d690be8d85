// No screen writes a date or a time its own way (issue 26): the app's source is read, and every call that
// formats one for people is to shared/datetime.ts. A screen that calls toLocaleDateString, toLocaleTimeString,
// a date's toLocaleString or its own Intl.DateTimeFormat fails this test, naming the file and line.
import { expect, it } from "vitest";
import fs from "node:fs";
import path from "node:path";

const SRC = path.resolve(__dirname, "../..");
/** Files allowed their own Intl.DateTimeFormat: the formatter itself, and the wall-clock arithmetic that
 *  reads a zone's numeric parts (formatToParts, never shown). */
const OWN = new Set(["lib/shared/datetime.ts", "lib/planner/editor/localTime.ts", "lib/planner/calendar/placement.ts"]);

function sources(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) return e.name === "bindings" ? [] : sources(p);
    return /\.(ts|svelte)$/.test(e.name) && !/\.test\.ts$/.test(e.name) ? [p] : [];
  });
}

it("every date and time shown goes through shared/datetime.ts", () => {
  const found: string[] = [];
  const files = sources(SRC);
  expect(files.length).toBeGreaterThan(50);
  for (const file of files) {
    const rel = path.relative(SRC, file).split(path.sep).join("/");
    fs.readFileSync(file, "utf8").split("\n").forEach((line, i) => {
      const own = /toLocale(Date|Time)String\(/.test(line)
        // A date's toLocaleString (a number's, e.g. a balance, is not a date).
        || /(new Date\([^)]*\)|\b(d|date|at|when|time|iso|t)\b)\.toLocaleString\(/i.test(line)
        || (/\bIntl\.DateTimeFormat\(/.test(line) && !OWN.has(rel) && !/resolvedOptions\(\)/.test(line));
      if (own) found.push(`${rel}:${i + 1}: ${line.trim()}`);
    });
  }
  expect(found).toEqual([]);
});
