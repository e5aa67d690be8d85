// The card's times are ISO UTC on the wire and local wall-clock time in the editor (datetime-local
// inputs, "YYYY-MM-DDTHH:mm"). Both directions take the IANA time zone explicitly so they are pure and
// testable; the editor passes the user's own zone.

export function localTimeZone(): string {
  return Intl.DateTimeFormat().resolvedOptions().timeZone || "UTC";
}

const formatters = new Map<string, Intl.DateTimeFormat>();

function wallClock(ms: number, timeZone: string): { y: number; mo: number; d: number; h: number; mi: number; s: number } {
  let f = formatters.get(timeZone);
  if (!f) {
    f = new Intl.DateTimeFormat("en-US", {
      timeZone, hourCycle: "h23", year: "numeric", month: "2-digit", day: "2-digit",
      hour: "2-digit", minute: "2-digit", second: "2-digit",
    });
    formatters.set(timeZone, f);
  }
  const parts: Record<string, number> = {};
  for (const p of f.formatToParts(new Date(ms))) {
    if (p.type !== "literal") parts[p.type] = Number(p.value);
  }
  return { y: parts.year, mo: parts.month, d: parts.day, h: parts.hour % 24, mi: parts.minute, s: parts.second };
}

/** Milliseconds the zone is ahead of UTC at the instant `ms`. */
function offsetAt(ms: number, timeZone: string): number {
  const w = wallClock(ms, timeZone);
  const asUtc = Date.UTC(w.y, w.mo - 1, w.d, w.h, w.mi, w.s);
  return asUtc - Math.floor(ms / 1000) * 1000;
}

const pad = (n: number, width = 2) => String(n).padStart(width, "0");

/** ISO UTC → the value of a datetime-local input in `timeZone`; "" for null or an unreadable value. */
export function isoToLocalInput(iso: string | null | undefined, timeZone: string = localTimeZone()): string {
  if (!iso) return "";
  const ms = Date.parse(iso);
  if (Number.isNaN(ms)) return "";
  const w = wallClock(ms, timeZone);
  return `${pad(w.y, 4)}-${pad(w.mo)}-${pad(w.d)}T${pad(w.h)}:${pad(w.mi)}`;
}

const LOCAL = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(?::(\d{2}))?$/;

/**
 * A datetime-local value read as wall-clock time in `timeZone` → ISO UTC (`…Z`, milliseconds included).
 * `null` for "" or a value that is not a date. A time skipped by a DST change (02:30 on the spring-forward
 * night) moves forward by the jump (03:30), as browsers do; a repeated time (fall-back night) reads as the
 * second occurrence.
 */
export function localInputToIso(value: string, timeZone: string = localTimeZone()): string | null {
  const m = LOCAL.exec(value.trim());
  if (!m) return null;
  const [y, mo, d, h, mi, s] = [m[1], m[2], m[3], m[4], m[5], m[6] ?? "0"].map(Number);
  if (mo < 1 || mo > 12 || d < 1 || d > 31 || h > 23 || mi > 59 || s > 59) return null;
  const guess = Date.UTC(y, mo - 1, d, h, mi, s);
  const check = new Date(guess);
  if (check.getUTCDate() !== d || check.getUTCMonth() !== mo - 1) return null; // 31 February
  const first = offsetAt(guess, timeZone);
  let ms = guess - first;
  const second = offsetAt(ms, timeZone);
  if (second !== first) {
    // Near a DST change: the offset at the result differs from the first guess.
    const retry = guess - second;
    ms = offsetAt(retry, timeZone) === second ? retry : guess - Math.min(first, second);
  }
  return new Date(ms).toISOString();
}
