import { beforeEach, expect, it } from "vitest";
import { cityOf, recentZones, rememberZone, zoneGroups } from "./zones";

beforeEach(() => localStorage.clear());

it("names a zone by its city, with the state or country between region and city", () => {
  expect(cityOf("Europe/Berlin")).toBe("Berlin");
  expect(cityOf("America/Argentina/Buenos_Aires")).toBe("Buenos Aires (Argentina)");
  expect(cityOf("America/Indiana/Knox")).toBe("Knox (Indiana)");
  expect(cityOf("UTC")).toBe("UTC");
});

it("suggests this computer's zone, UTC and the recent ones, then every zone by region and city", () => {
  const all = ["Europe/Berlin", "America/New_York", "America/Argentina/Buenos_Aires", "Asia/Tokyo", "Europe/Amsterdam", "UTC"];
  const groups = zoneGroups(all, "Europe/Berlin", ["Asia/Tokyo", "Europe/Berlin"], "Asia/Tokyo");
  expect(groups.map((g) => g.label)).toEqual(["Suggested", "America", "Asia", "Europe", "Other"]);
  expect(groups[0].zones).toEqual([
    { value: "Europe/Berlin", label: "This computer: Berlin" },
    { value: "UTC", label: "UTC" },
    { value: "Asia/Tokyo", label: "Tokyo, Asia" },
  ]);
  expect(groups[1].zones.map((z) => z.label)).toEqual(["Buenos Aires (Argentina)", "New York"]);
  expect(groups[3].zones.map((z) => z.value)).toEqual(["Europe/Amsterdam", "Europe/Berlin"]);
  // Every zone of the list is an option, once in its region.
  expect(groups.slice(1).flatMap((g) => g.zones.map((z) => z.value)).sort()).toEqual([...all].sort());
});

it("keeps a zone the list lacks among the suggestions, so the select can show it", () => {
  const groups = zoneGroups(["Europe/Berlin"], "Europe/Berlin", [], "Etc/GMT+5");
  expect(groups[0].zones.map((z) => z.value)).toContain("Etc/GMT+5");
});

it("remembers the five zones picked last, newest first, without repeats", () => {
  for (const z of ["A/a", "B/b", "C/c", "A/a", "D/d", "E/e", "F/f"]) rememberZone(z);
  expect(recentZones()).toEqual(["F/f", "E/e", "D/d", "A/a", "C/c"]);
  localStorage.setItem("contentdesk.calendar.recentZones", "not json");
  expect(recentZones()).toEqual([]);
});
