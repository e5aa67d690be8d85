// The card editor's date and time, written and read in the app's one format (issue 26 point 2): the day in
// the app's one date style (shared/datetime.ts: "Nov 28, 2026" in en-US, "28 Nov 2026" in en-GB), and the
// time on the 24-hour clock ("09:30"), not the browser's own (a datetime-local input shows "11/28/2026, 09:30 AM" in one
// browser and "28.11.2026 09:30" in another). Typed freely: what people write for a day or a time is read,
// and the arrow keys step it (a day, a quarter of an hour). Pure: the editor keeps wall-clock values
// "YYYY-MM-DD" and "HH:mm" in its own time zone (localTime.ts turns them into UTC).

import { formatDay as formatDayKey } from "../../shared/datetime";

export type Day = { y: number; m: number; d: number };

const pad = (n: number) => String(n).padStart(2, "0");

/** "2026-11-28" → the app's one date style in the user's locale ("Nov 28, 2026", "28 Nov 2026"; shared/datetime.ts);
 *  "" for anything else. */
export function formatDay(key: string, locale?: string): string {
  return dayOfKey(key) ? formatDayKey(key, locale) : "";
}

/** "09:05" stays "09:05"; anything else "". */
export function formatTime(hm: string): string {
  const t = parseTime(hm);
  return t ?? "";
}

export const keyOf = (day: Day) => `${String(day.y).padStart(4, "0")}-${pad(day.m)}-${pad(day.d)}`;

function dayOfKey(key: string): Day | null {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(key);
  return m ? valid(Number(m[1]), Number(m[2]), Number(m[3])) : null;
}

function valid(y: number, m: number, d: number): Day | null {
  if (!(y >= 1000 && y <= 9999 && m >= 1 && m <= 12 && d >= 1)) return null;
  const at = new Date(Date.UTC(y, m - 1, d));
  return at.getUTCMonth() === m - 1 && at.getUTCDate() === d ? { y, m, d } : null;
}

const MONTH_NAMES = ["january", "february", "march", "april", "may", "june", "july", "august", "september", "october", "november", "december"];
/** A month's name or its start of three letters or more ("Nov", "Sept", "November") → 1-12; else 0. */
const monthOf = (word: string): number => {
  const w = word.toLowerCase().replace(/\.$/, "");
  return w.length < 3 ? 0 : MONTH_NAMES.findIndex((m) => m.startsWith(w)) + 1;
};

/**
 * A day as people write it → "YYYY-MM-DD", or null. Read: "28 Nov 2026", "Sat 28 Nov 2026", "28 November
 * 2026", "Nov 28, 2026", "2026-11-28", "28/11/2026" and "28.11.2026" (day first, as the app writes it).
 * Without a year ("28 Nov"), the next such day from `today` (a day already past this year is next year's).
 */
export function parseDay(text: string, today: string): string | null {
  const t = text.trim().replace(/,/g, " ").replace(/\s+/g, " ");
  if (!t) return null;
  let m = /^(\d{4})-(\d{1,2})-(\d{1,2})$/.exec(t);
  if (m) return maybe(valid(Number(m[1]), Number(m[2]), Number(m[3])));
  m = /^(\d{1,2})[/.](\d{1,2})[/.](\d{4})$/.exec(t);
  if (m) return maybe(valid(Number(m[3]), Number(m[2]), Number(m[1])));
  // Words: an optional weekday, then day and month in either order, then an optional year.
  const words = t.split(" ").filter((w) => !/^(mon|tue|wed|thu|fri|sat|sun)[a-z]*\.?$/i.test(w) || monthOf(w) > 0);
  let day = 0, month = 0, year = 0;
  for (const w of words) {
    const n = /^(\d{1,4})(st|nd|rd|th|\.)?$/i.exec(w);
    if (n) {
      const v = Number(n[1]);
      if (n[1].length === 4) { if (year) return null; year = v; } else if (!day) day = v; else return null;
    } else {
      const mo = monthOf(w);
      if (!mo || month) return null;
      month = mo;
    }
  }
  if (!day || !month) return null;
  if (year) return maybe(valid(year, month, day));
  const now = dayOfKey(today);
  if (!now) return null;
  const thisYear = valid(now.y, month, day);
  if (thisYear && keyOf(thisYear) >= today) return keyOf(thisYear);
  return maybe(valid(now.y + 1, month, day));
}

const maybe = (d: Day | null) => (d ? keyOf(d) : null);

/** A time as people write it → "HH:mm" (24-hour), or null: "9", "9:30", "09:30", "0930", "9.30", "9pm", "9:30 am". */
export function parseTime(text: string): string | null {
  const t = text.trim().toLowerCase().replace(/\s+/g, "");
  const m = /^(\d{1,2})(?:[:.h]?(\d{2}))?(am|pm|a|p)?$/.exec(t);
  if (!m) return null;
  let h = Number(m[1]);
  const mi = m[2] === undefined ? 0 : Number(m[2]);
  const half = m[3]?.[0];
  if (half) {
    if (h < 1 || h > 12) return null;
    h = (h % 12) + (half === "p" ? 12 : 0);
  }
  if (h > 23 || mi > 59) return null;
  return `${pad(h)}:${pad(mi)}`;
}

/** `key` moved by `days` days. */
export function addDays(key: string, days: number): string {
  const d = dayOfKey(key);
  if (!d) return key;
  const at = new Date(Date.UTC(d.y, d.m - 1, d.d + days));
  return keyOf({ y: at.getUTCFullYear(), m: at.getUTCMonth() + 1, d: at.getUTCDate() });
}

/** `hm` moved by `minutes` to the nearest step of that size, round the clock (23:45 + 15 → 00:00). */
export function stepTime(hm: string, minutes: number): string {
  const t = parseTime(hm) ?? "09:00";
  const now = Number(t.slice(0, 2)) * 60 + Number(t.slice(3));
  const size = Math.abs(minutes);
  const snapped = minutes > 0 ? Math.floor(now / size) * size + size : Math.ceil(now / size) * size - size;
  const v = ((snapped % 1440) + 1440) % 1440;
  return `${pad(Math.floor(v / 60))}:${pad(v % 60)}`;
}
