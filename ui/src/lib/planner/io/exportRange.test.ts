import { describe, expect, it } from "vitest";
import { EXPORT_FORMATS, exportArgs, savedText } from "./exportRange";

describe("the calendar's export", () => {
  it("asks for the shown range in UTC, the space and the format", () => {
    const from = Date.UTC(2026, 10, 30), to = Date.UTC(2027, 0, 4);
    expect(exportArgs("sp1", from, to, "ics")).toEqual({ spaceId: "sp1", format: "ics", from: "2026-11-30T00:00:00.000Z", to: "2027-01-04T00:00:00.000Z" });
    expect(() => exportArgs("sp1", to, from, "csv")).toThrow();
  });
  it("offers the three formats and says what it saved", () => {
    expect(EXPORT_FORMATS.map((f) => f.format)).toEqual(["ics", "csv", "json"]);
    expect(savedText(1, "a.ics")).toBe("Saved 1 post to a.ics.");
    expect(savedText(3, "a.csv")).toBe("Saved 3 posts to a.csv.");
    expect(savedText(0, "a.json")).toContain("No scheduled posts");
  });
});
