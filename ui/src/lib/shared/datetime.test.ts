// The app's one date and time format (issue 26): fixed options, the locale decides the order, the month's
// name and the separators; the clock is the 24-hour one everywhere.
import { describe, expect, it } from "vitest";
import { formatDate, formatDateTime, formatDay, formatDayRange, formatMinute, formatMonth, formatTime, formatWeekday, formatWhen } from "./datetime";

const AT = "2026-11-29T08:05:00Z";

describe("one style per locale", () => {
  it("writes a date, a time and both, in the locale's order, on the 24-hour clock", () => {
    const utc = { timeZone: "UTC" };
    expect(formatDate(AT, { ...utc, locale: "en-US" })).toBe("Nov 29, 2026");
    expect(formatTime(AT, { ...utc, locale: "en-US" })).toBe("08:05");
    expect(formatDateTime(AT, { ...utc, locale: "en-US" })).toBe("Nov 29, 2026, 08:05");
    expect(formatDateTime(AT, { ...utc, locale: "en-GB" })).toBe("29 Nov 2026, 08:05");
    expect(formatDateTime(AT, { ...utc, locale: "de-DE" })).toBe("29. Nov. 2026, 08:05");
    // The afternoon and midnight on the 24-hour clock in a locale whose own is the 12-hour one.
    expect(formatTime("2026-11-29T14:30:00Z", { ...utc, locale: "en-US" })).toBe("14:30");
    expect(formatTime("2026-11-29T00:00:00Z", { ...utc, locale: "en-US" })).toBe("00:00");
  });

  it("takes an ISO time, milliseconds or a Date, in the given zone; nothing for nothing", () => {
    const ny = { timeZone: "America/New_York", locale: "en-US" };
    expect(formatDateTime(AT, ny)).toBe("Nov 29, 2026, 03:05");
    expect(formatDateTime(Date.parse(AT), ny)).toBe("Nov 29, 2026, 03:05");
    expect(formatDateTime(new Date(AT), ny)).toBe("Nov 29, 2026, 03:05");
    // The day changes with the zone.
    expect(formatDate("2026-11-29T02:00:00Z", ny)).toBe("Nov 28, 2026");
    for (const none of [null, undefined, "", "not a time"]) {
      expect(formatDate(none)).toBe("");
      expect(formatTime(none)).toBe("");
      expect(formatDateTime(none)).toBe("");
    }
  });

  it("writes calendar days, slots, ranges, months and week heads in the same style", () => {
    expect(formatDay("2026-11-29", "en-US")).toBe("Nov 29, 2026");
    expect(formatDay("2026-11-29", "en-GB")).toBe("29 Nov 2026");
    expect(formatDay("29/11/2026")).toBe("");
    // A day key is its own date: no zone moves it.
    expect(formatDay("2026-11-29", "en-US")).toBe(formatDate("2026-11-29T12:00:00Z", { timeZone: "UTC", locale: "en-US" }));
    expect(formatMinute(9 * 60, "en-US")).toBe("09:00");
    expect(formatMinute(23 * 60 + 45, "en-US")).toBe("23:45");
    expect(formatMinute(9 * 60, "en-US")).toBe(formatTime("2026-11-29T09:00:00Z", { timeZone: "UTC", locale: "en-US" }));
    expect(formatDayRange("2026-11-23", "2026-11-29", "en-US")).toBe("Nov 23\u2009–\u200929, 2026"); // thin spaces
    expect(formatDayRange("2026-11-23", "2026-11-29", "en-GB")).toBe("23\u2009–\u200929 Nov 2026");
    expect(formatDayRange("2026-12-28", "2027-01-03", "en-US")).toBe("Dec 28, 2026\u2009–\u2009Jan 3, 2027");
    expect(formatMonth(2026, 11, "en-US")).toBe("November 2026");
    expect(formatWeekday("2026-11-23", "en-US")).toBe("Mon 23");
    expect(formatWeekday("2026-11-23", "en-GB")).toBe("Mon 23");
  });

  it("says when something happened: the time alone today, else the date and time", () => {
    const opts = { timeZone: "UTC", locale: "en-US" };
    const now = Date.parse("2026-11-29T18:00:00Z");
    expect(formatWhen(AT, now, opts)).toBe("today, 08:05");
    expect(formatWhen("2026-11-28T23:59:00Z", now, opts)).toBe("Nov 28, 2026, 23:59");
    expect(formatWhen(null, now, opts)).toBe("");
  });
});
