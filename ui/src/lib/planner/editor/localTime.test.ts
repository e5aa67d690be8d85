import { describe, expect, it } from "vitest";
import { isoToLocalInput, localInputToIso } from "./localTime";

describe("localInputToIso", () => {
  it.each([
    ["2026-11-22T09:00", "Europe/Berlin", "2026-11-22T08:00:00.000Z"],
    ["2026-07-01T09:00", "Europe/Berlin", "2026-07-01T07:00:00.000Z"],
    ["2026-07-01T09:00", "America/New_York", "2026-07-01T13:00:00.000Z"],
    ["2026-01-15T23:30", "America/Los_Angeles", "2026-01-16T07:30:00.000Z"],
    ["2026-01-01T00:00", "UTC", "2026-01-01T00:00:00.000Z"],
    ["2026-03-10T05:45", "Asia/Kolkata", "2026-03-10T00:15:00.000Z"],
    ["2026-06-01T12:00", "Australia/Sydney", "2026-06-01T02:00:00.000Z"],
    ["2026-03-29T01:59", "Europe/Berlin", "2026-03-29T00:59:00.000Z"],
    ["2026-03-29T02:30", "Europe/Berlin", "2026-03-29T01:30:00.000Z"], // skipped hour → 03:30 CEST
    ["2026-03-29T03:00", "Europe/Berlin", "2026-03-29T01:00:00.000Z"],
    ["2026-10-25T03:00", "Europe/Berlin", "2026-10-25T02:00:00.000Z"],
    ["2026-11-22T09:00:30", "UTC", "2026-11-22T09:00:30.000Z"],
  ])("%s in %s → %s", (local, tz, iso) => {
    expect(localInputToIso(local, tz)).toBe(iso);
  });

  it.each([[""], ["   "], ["2026-11-22"], ["2026-02-31T10:00"], ["2026-13-01T10:00"], ["2026-11-22T25:00"], ["yesterday"]])(
    "%j is not a time",
    (local) => {
      expect(localInputToIso(local, "Europe/Berlin")).toBeNull();
    },
  );
});

describe("isoToLocalInput", () => {
  it.each([
    ["2026-11-22T08:00:00.000Z", "Europe/Berlin", "2026-11-22T09:00"],
    ["2026-07-01T07:00:00Z", "Europe/Berlin", "2026-07-01T09:00"],
    ["2026-07-01T13:00:00.000Z", "America/New_York", "2026-07-01T09:00"],
    ["2026-01-16T07:30:00.000Z", "America/Los_Angeles", "2026-01-15T23:30"],
    ["2026-03-10T00:15:00+00:00", "Asia/Kolkata", "2026-03-10T05:45"],
    ["2026-12-31T23:59:59.999Z", "UTC", "2026-12-31T23:59"],
    ["2026-12-31T23:30:00.000Z", "Pacific/Auckland", "2027-01-01T12:30"],
  ])("%s in %s → %s", (iso, tz, local) => {
    expect(isoToLocalInput(iso, tz)).toBe(local);
  });

  it.each([[null], [undefined], [""], ["not a date"]])("%j reads as empty", (iso) => {
    expect(isoToLocalInput(iso, "UTC")).toBe("");
  });

  it.each(["Europe/Berlin", "America/New_York", "Asia/Tokyo", "UTC"])("round-trips in %s", (tz) => {
    const iso = "2026-05-04T10:20:00.000Z";
    expect(localInputToIso(isoToLocalInput(iso, tz), tz)).toBe(iso);
  });
});
