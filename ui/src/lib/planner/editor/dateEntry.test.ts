import { expect, it } from "vitest";
import { addDays, formatDay, parseDay, parseTime, stepTime } from "./dateEntry";

const TODAY = "2026-11-28";

it("writes a day in the app's one date style, in the locale's order: day, month by name, year", () => {
  expect(formatDay("2026-11-28", "en-US")).toBe("Nov 28, 2026");
  expect(formatDay("2027-01-04", "en-GB")).toBe("4 Jan 2027");
  expect(formatDay("2027-01-04", "de-DE")).toBe("4. Jan. 2027");
  expect(formatDay("2026-02-30")).toBe("");
  expect(formatDay("")).toBe("");
});

it("reads a day as people write it, day before month when both are numbers", () => {
  for (const text of ["28 Nov 2026", "Sat 28 Nov 2026", "Saturday, 28 November 2026", "Nov 28, 2026", "2026-11-28", "28/11/2026", "28.11.2026", " 28th nov 2026 "]) {
    expect(parseDay(text, TODAY), text).toBe("2026-11-28");
  }
  // What it writes, it reads.
  // (English month names only: "9. März 2027" is not read yet.)
  for (const locale of ["en-US", "en-GB", undefined]) expect(parseDay(formatDay("2027-03-09", locale), TODAY), locale).toBe("2027-03-09");
  expect(parseDay("4 Sept 2027", TODAY)).toBe("2027-09-04");
  expect(parseDay("4/1/2027", TODAY)).toBe("2027-01-04");
});

it("a day without a year is the next such day", () => {
  expect(parseDay("30 Nov", TODAY)).toBe("2026-11-30");
  expect(parseDay("28 Nov", TODAY)).toBe("2026-11-28");
  expect(parseDay("3 Jan", TODAY)).toBe("2027-01-03");
  expect(parseDay("29 Feb", TODAY)).toBe(null); // 2027 has none
});

it("refuses what is not a day", () => {
  for (const text of ["", "tomorrowish", "31 Feb 2027", "2026-13-01", "32/01/2027", "Nov Dec 2026", "12 13 Nov", "Ju 4 2027", "28 Nov 2026 2027"]) {
    expect(parseDay(text, TODAY), text).toBe(null);
  }
});

it("reads a time on the 24-hour clock or with am/pm", () => {
  const cases: Record<string, string> = { "9": "09:00", "9:30": "09:30", "09:30": "09:30", "0930": "09:30", "9.30": "09:30", "21:05": "21:05",
    "9pm": "21:00", "9:30 am": "09:30", "12am": "00:00", "12 pm": "12:00", "0": "00:00" };
  for (const [text, want] of Object.entries(cases)) expect(parseTime(text), text).toBe(want);
  for (const text of ["", "24:00", "9:60", "13pm", "nine", "9:3"]) expect(parseTime(text), text).toBe(null);
});

it("arrow keys step a day, and a quarter of an hour onto the quarter, round the clock", () => {
  expect(addDays("2026-11-30", 1)).toBe("2026-12-01");
  expect(addDays("2027-01-01", -1)).toBe("2026-12-31");
  expect(stepTime("09:00", 15)).toBe("09:15");
  expect(stepTime("09:07", 15)).toBe("09:15");
  expect(stepTime("09:07", -15)).toBe("09:00");
  expect(stepTime("23:45", 15)).toBe("00:00");
  expect(stepTime("00:00", -15)).toBe("23:45");
});
