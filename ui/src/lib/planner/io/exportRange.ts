// The calendar's export (issue 28 point 6): the shown range and the three formats.
import type { ExportFormat } from "../../bindings";

export const EXPORT_FORMATS: { format: ExportFormat; label: string }[] = [
  { format: "ics", label: "Calendar file (ICS)" },
  { format: "csv", label: "Spreadsheet (CSV)" },
  { format: "json", label: "JSON" },
];

/** The `calendar_export` args for the shown range `[from, to)` (instants in ms) of a space. */
export function exportArgs(spaceId: string, from: number, to: number, format: ExportFormat) {
  if (!(to > from)) throw new Error("the shown range is empty");
  return { spaceId, format, from: new Date(from).toISOString(), to: new Date(to).toISOString() };
}

/** What the calendar says once the file is saved. */
export function savedText(count: number, fileName: string): string {
  return count === 0 ? `No scheduled posts in these weeks; saved an empty ${fileName}.` : `Saved ${count} ${count === 1 ? "post" : "posts"} to ${fileName}.`;
}
