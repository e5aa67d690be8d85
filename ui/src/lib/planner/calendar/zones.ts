// The calendar's time-zone picker, made readable: a few suggestions first (this computer's zone, UTC,
// the zones picked lately), then every zone grouped by region and named by its city ("Buenos Aires
// (Argentina)" under America), so a native <select> can be scanned and typed into by the city's name.
export type ZoneOption = { value: string; label: string };
export type ZoneGroup = { label: string; zones: ZoneOption[] };

const RECENT_KEY = "contentdesk.calendar.recentZones";
const RECENT_MAX = 5;

/** "America/Argentina/Buenos_Aires" → "Buenos Aires (Argentina)"; "UTC" stays "UTC". */
export function cityOf(zone: string): string {
  const parts = zone.split("/").map((p) => p.replace(/_/g, " "));
  if (parts.length === 1) return parts[0];
  const city = parts[parts.length - 1];
  return parts.length > 2 ? `${city} (${parts.slice(1, -1).join(", ")})` : city;
}

/** The picker's groups: `current` is always among the options, even when the list lacks it. */
export function zoneGroups(all: string[], local: string, recent: string[], current: string): ZoneGroup[] {
  const suggested: ZoneOption[] = [{ value: local, label: `This computer: ${cityOf(local)}` }];
  const seen = new Set([local]);
  for (const z of ["UTC", ...recent, current]) {
    if (seen.has(z)) continue;
    seen.add(z);
    suggested.push({ value: z, label: z === "UTC" ? "UTC" : `${cityOf(z)}, ${z.split("/")[0]}` });
  }
  const regions = new Map<string, ZoneOption[]>();
  for (const z of all) {
    const slash = z.indexOf("/");
    const region = slash > 0 ? z.slice(0, slash) : "Other";
    if (!regions.has(region)) regions.set(region, []);
    regions.get(region)!.push({ value: z, label: cityOf(z) });
  }
  const byName = (a: ZoneOption, b: ZoneOption) => a.label.localeCompare(b.label);
  const groups = [...regions.entries()]
    .sort(([a], [b]) => (a === "Other" ? 1 : b === "Other" ? -1 : a.localeCompare(b)))
    .map(([label, zones]) => ({ label, zones: zones.sort(byName) }));
  return [{ label: "Suggested", zones: suggested }, ...groups];
}

/** The zones picked lately, newest first (this computer's UI state). */
export function recentZones(): string[] {
  try {
    const v = JSON.parse(localStorage.getItem(RECENT_KEY) ?? "[]");
    return Array.isArray(v) ? v.filter((z): z is string => typeof z === "string").slice(0, RECENT_MAX) : [];
  } catch {
    return [];
  }
}

/** Remembers `zone` as picked just now; returns the new list. */
export function rememberZone(zone: string): string[] {
  const next = [zone, ...recentZones().filter((z) => z !== zone)].slice(0, RECENT_MAX);
  try { localStorage.setItem(RECENT_KEY, JSON.stringify(next)); } catch { /* private mode: this run only */ }
  return next;
}
