// The app's one way of writing a date and a time (issue 26): every screen (header, board tiles, calendar,
// card editor, history, studio gallery, brand kit, settings) formats through here, so a time reads the same
// wherever it is shown. The options are fixed; the user's locale decides only the order, the month's name and
// the separators ("Nov 29, 2026, 09:00" in en-US, "29 Nov 2026, 09:00" in en-GB, "29. Nov. 2026, 09:00" in
// de). The clock is always the 24-hour one: the editor takes times typed that way and the calendar's slots
// are drawn that way. `cdesk --human` writes local times in the same style (crates/cli/src/output.rs).

/** A day: its number, the month's short name, the year ("Nov 29, 2026"). */
export const DATE_STYLE: Readonly<Intl.DateTimeFormatOptions> = { day: "numeric", month: "short", year: "numeric" };
/** A time of day on the 24-hour clock ("09:05"). */
export const TIME_STYLE: Readonly<Intl.DateTimeFormatOptions> = { hour: "2-digit", minute: "2-digit", hourCycle: "h23" };
/** Both ("Nov 29, 2026, 09:05"). */
export const DATE_TIME_STYLE: Readonly<Intl.DateTimeFormatOptions> = { ...DATE_STYLE, ...TIME_STYLE };

/** Where and for whom: the IANA time zone (the computer's when absent) and the locale (the user's when absent). */
export type Zoned = { timeZone?: string; locale?: string };
export type When = string | number | Date | null | undefined;

const cache = new Map<string, Intl.DateTimeFormat>();
function formatter(kind: "date" | "time" | "dateTime" | "month" | "weekday", opts: Zoned = {}): Intl.DateTimeFormat {
  const key = `${kind}|${opts.locale ?? ""}|${opts.timeZone ?? ""}`;
  let f = cache.get(key);
  if (!f) {
    const style = kind === "date" ? DATE_STYLE : kind === "time" ? TIME_STYLE : kind === "dateTime" ? DATE_TIME_STYLE
      : kind === "month" ? { month: "long", year: "numeric" } as const : { weekday: "short", day: "numeric" } as const;
    f = new Intl.DateTimeFormat(opts.locale, { ...style, timeZone: opts.timeZone });
    cache.set(key, f);
  }
  return f;
}

/** An ISO time, milliseconds or a Date → milliseconds; null when absent or not a time. */
function instant(at: When): number | null {
  if (at === null || at === undefined || at === "") return null;
  const ms = at instanceof Date ? at.getTime() : typeof at === "number" ? at : Date.parse(at);
  return Number.isFinite(ms) ? ms : null;
}

/** The day of an instant in the date style; "" when absent or not a time. */
export function formatDate(at: When, opts?: Zoned): string {
  const ms = instant(at);
  return ms === null ? "" : formatter("date", opts).format(ms);
}

/** The time of day of an instant in the time style; "" when absent or not a time. */
export function formatTime(at: When, opts?: Zoned): string {
  const ms = instant(at);
  return ms === null ? "" : formatter("time", opts).format(ms);
}

/** An instant's day and time in the date-and-time style; "" when absent or not a time. */
export function formatDateTime(at: When, opts?: Zoned): string {
  const ms = instant(at);
  return ms === null ? "" : formatter("dateTime", opts).format(ms);
}

const DAY_KEY = /^(\d{4})-(\d{2})-(\d{2})$/;
const dayMs = (key: string): number | null => {
  const m = DAY_KEY.exec(key);
  return m ? Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3])) : null;
};

/** A calendar day ("2026-11-29", no zone shift) in the date style; "" for anything else. */
export function formatDay(key: string, locale?: string): string {
  const ms = dayMs(key);
  return ms === null ? "" : formatter("date", { locale, timeZone: "UTC" }).format(ms);
}

/** Two calendar days as one range in the date style ("Nov 23 – 29, 2026"). */
export function formatDayRange(from: string, to: string, locale?: string): string {
  const a = dayMs(from), b = dayMs(to);
  if (a === null || b === null) return "";
  const f = formatter("date", { locale, timeZone: "UTC" });
  return typeof f.formatRange === "function" ? f.formatRange(a, b) : `${f.format(a)} – ${f.format(b)}`;
}

/** A minute of the day (0-1439) in the time style ("09:00"), as a calendar slot is labelled. */
export function formatMinute(minute: number, locale?: string): string {
  return formatter("time", { locale, timeZone: "UTC" }).format(Date.UTC(2000, 0, 1, 0, minute));
}

/** A month's heading ("November 2026"). */
export function formatMonth(year: number, month: number, locale?: string): string {
  return formatter("month", { locale, timeZone: "UTC" }).format(Date.UTC(year, month - 1, 1));
}

/** A calendar day as a week column's head: its weekday, then its number ("Mon 23"; the locale's weekday
 *  name, in that order in every locale: en-US's own would be "23 Mon"). */
export function formatWeekday(key: string, locale?: string): string {
  const ms = dayMs(key);
  if (ms === null) return "";
  const parts = formatter("weekday", { locale, timeZone: "UTC" }).formatToParts(ms);
  const part = (type: string) => parts.find((p) => p.type === type)?.value ?? "";
  return `${part("weekday")} ${part("day")}`;
}

/** When something happened, for a history or a gallery: "today, 09:05" on the same local day as `now`,
 *  else the date-and-time style. */
export function formatWhen(at: When, now: number = Date.now(), opts?: Zoned): string {
  const ms = instant(at);
  if (ms === null) return "";
  return formatDate(ms, opts) === formatDate(now, opts) ? `today, ${formatTime(ms, opts)}` : formatDateTime(ms, opts);
}
