// The calendar's placement rules as plain functions: which day and time slot an instant falls on in an
// IANA time zone, the month grid's weeks, the week's slots, per-day buckets with their "+N" overflow,
// the instant a drop asks for (wall-clock arithmetic in the zone, correct across DST changes), and the
// keyboard's moves. No DOM, no Svelte: placement.test.ts pins each rule.
import { formatDay, formatMinute } from "../../shared/datetime";
import type { CardPosts, CardStamp, CardSummary, Post } from "../../bindings";

/** A calendar day, "YYYY-MM-DD" (a date in the chosen zone, not an instant). */
export type DayKey = string;
/** One thing on the calendar: a post (or a card without posts) at its own time. */
export type CalendarItem = {
  /** Unique on the calendar: the card id, or `cardId:platform` for a post. */
  key: string;
  cardId: string;
  title: string;
  platform: string | null;
  /** Epoch milliseconds. */
  at: number;
  /** The post's own time (it overrides the card's), or the card's. */
  own: boolean;
};
export type View = "month" | "week";
/** Where a drop lands: a day (month view), or a day and a slot's start minute (week view). */
export type Target = { day: DayKey; minute?: number };

const MINUTE = 60_000;
const DAY = 86_400_000;
/** The week view's slot length. */
export const SLOT_MINUTES = 60;

// ---- wall clock in a zone ----

const formatters = new Map<string, Intl.DateTimeFormat>();
function formatter(zone: string): Intl.DateTimeFormat {
  let f = formatters.get(zone);
  if (!f) {
    f = new Intl.DateTimeFormat("en-US", {
      timeZone: zone, hourCycle: "h23", year: "numeric", month: "2-digit", day: "2-digit", hour: "2-digit", minute: "2-digit", second: "2-digit",
    });
    formatters.set(zone, f);
  }
  return f;
}

/** Whether the runtime knows `zone` as an IANA time zone. */
export function isZone(zone: string): boolean {
  try { formatter(zone); return true; } catch { return false; }
}

/** Offsets are asked once per zone and quarter hour of UTC (every zone changes offset on a quarter hour). */
const offsets = new Map<string, Map<number, number>>();
const QUARTER = 15 * MINUTE;

/** Per zone and UTC day: the offset when it is the same at both ends of the day (no change within it),
 *  else null (the day of a change is read per quarter hour). */
const dayOffsets = new Map<string, Map<number, number | null>>();

/** Milliseconds `zone` is ahead of UTC at the instant `ms`. */
export function offsetAt(ms: number, zone: string): number {
  let byDay = dayOffsets.get(zone);
  if (!byDay) dayOffsets.set(zone, (byDay = new Map()));
  const d = Math.floor(ms / DAY);
  let whole = byDay.get(d);
  if (whole === undefined) {
    const start = quarterOffset(d * DAY, zone);
    whole = start === quarterOffset(d * DAY + DAY - QUARTER, zone) ? start : null;
    byDay.set(d, whole);
  }
  return whole ?? quarterOffset(ms, zone);
}

function quarterOffset(ms: number, zone: string): number {
  let byQuarter = offsets.get(zone);
  if (!byQuarter) offsets.set(zone, (byQuarter = new Map()));
  const q = Math.floor(ms / QUARTER);
  let off = byQuarter.get(q);
  if (off === undefined) {
    const p: Record<string, number> = {};
    for (const part of formatter(zone).formatToParts(new Date(q * QUARTER))) if (part.type !== "literal") p[part.type] = Number(part.value);
    off = Date.UTC(p.year, p.month - 1, p.day, p.hour % 24, p.minute, p.second) - q * QUARTER;
    byQuarter.set(q, off);
  }
  return off;
}

/** The zone's wall clock at `ms`, as a UTC Date's fields (read with getUTC*). */
export function wallClock(ms: number, zone: string): Date {
  return new Date(ms + offsetAt(ms, zone));
}

const pad = (n: number, w = 2) => String(n).padStart(w, "0");
const keyOfUtc = (d: Date): DayKey => `${pad(d.getUTCFullYear(), 4)}-${pad(d.getUTCMonth() + 1)}-${pad(d.getUTCDate())}`;

/** The day `ms` falls on in `zone`. */
export const dayOf = (ms: number, zone: string): DayKey => keyOfUtc(wallClock(ms, zone));

/** Minutes since the zone's local midnight by the wall clock (23:30 → 1410). */
export function minuteOfDay(ms: number, zone: string): number {
  const w = wallClock(ms, zone);
  return w.getUTCHours() * 60 + w.getUTCMinutes();
}

/** The week view's slot start (minutes since midnight) that `ms` falls in. */
export const slotOf = (ms: number, zone: string, slot = SLOT_MINUTES): number => Math.floor(minuteOfDay(ms, zone) / slot) * slot;

/** A day key's date as UTC midnight milliseconds (calendar arithmetic only, never an instant). */
export function dayMs(day: DayKey): number {
  const [y, m, d] = day.split("-").map(Number);
  return Date.UTC(y, m - 1, d);
}

export const addDays = (day: DayKey, n: number): DayKey => keyOfUtc(new Date(dayMs(day) + n * DAY));

/**
 * The instant the zone's clock reads `day` at `minute` (minutes since midnight, seconds and ms kept
 * from `extraMs`). A time the zone skips (02:30 on a spring-forward night) moves forward by the jump
 * (03:30), as the editor's time field reads it; a time that happens twice (the fall-back night) is the
 * first of the two.
 */
export function zonedInstant(day: DayKey, minute: number, zone: string, extraMs = 0): number {
  const wall = dayMs(day) + minute * MINUTE + extraMs;
  // Try the offsets around the guess: an instant whose wall clock matches is the answer.
  const candidates = [offsetAt(wall - DAY / 2, zone), offsetAt(wall, zone), offsetAt(wall + DAY / 2, zone)];
  const matches = [...new Set(candidates)].map((off) => wall - off).filter((ms) => ms + offsetAt(ms, zone) === wall).sort((a, b) => a - b);
  if (matches.length > 0) return matches[0];
  // Skipped: read with the offset before the change, which lands after the gap.
  return wall - Math.min(...candidates);
}

// ---- what goes on the calendar ----

/**
 * A card's items: one per post at the post's own time (the card's where the post has none), or the
 * card itself at its time when it has no posts read. Posts and cards without any time are left out
 * (the unscheduled list shows them). The service gives each post its effective time and no flag, so
 * a post's time is its own when it differs from the card's time as it was when the posts were read
 * (`readCardAt`, default the card's now); a post without its own time follows the card's time now (a
 * card moved here after its posts were read takes them along).
 */
export function itemsOf(card: CardSummary, posts?: Pick<Post, "platform" | "scheduledAt">[] | null, readCardAt?: string | null): CalendarItem[] {
  const cardAt = card.scheduledAt ? Date.parse(card.scheduledAt) : NaN;
  if (posts && posts.length > 0) {
    const base = readCardAt === undefined ? cardAt : readCardAt ? Date.parse(readCardAt) : NaN;
    const out: CalendarItem[] = [];
    for (const p of posts) {
      const t = p.scheduledAt ? Date.parse(p.scheduledAt) : NaN;
      const own = !Number.isNaN(t) && t !== base;
      const at = own ? t : cardAt;
      if (Number.isNaN(at)) continue;
      out.push({ key: `${card.id}:${p.platform ?? ""}`, cardId: card.id, title: card.title, platform: p.platform ?? card.platform, at, own });
    }
    return out;
  }
  if (Number.isNaN(cardAt)) return [];
  return [{ key: card.id, cardId: card.id, title: card.title, platform: card.platform ?? card.platforms?.[0] ?? null, at: cardAt, own: false }];
}

/** The posts read for a card (`calendar_posts`), by card id. */
export type PostsByCard = ReadonlyMap<string, CardPosts>;

/** The cards whose posts the calendar asks for: those whose time lies within `[from, to]` (the visible
 *  weeks plus a margin), each with the `updatedAt` the core keeps their posts by. A post whose own time
 *  lies outside that window of its card's time shows at its own time only once its card was read. */
export function cardsNear(cards: CardSummary[], from: number, to: number): CardStamp[] {
  const out: CardStamp[] = [];
  for (const c of cards) {
    const at = c.scheduledAt ? Date.parse(c.scheduledAt) : NaN;
    if (at >= from && at <= to) out.push(c.updatedAt ? { id: c.id, updatedAt: c.updatedAt } : { id: c.id });
  }
  return out;
}

const itemsWith = (c: CardSummary, posts?: PostsByCard | null) => {
  const read = posts?.get(c.id);
  return read ? itemsOf(c, read.posts, read.scheduledAt) : itemsOf(c);
};

/** Cards with no time at all (for the side list). */
export const unscheduled = (cards: CardSummary[]): CardSummary[] => cards.filter((c) => !c.scheduledAt || Number.isNaN(Date.parse(c.scheduledAt)));

/** Items by the day they fall on in `zone`, each day's in time order (then title). Built once per
 *  change, so a month of thousands of posts is one pass, and each day cell reads its own list. */
export function bucketByDay(items: CalendarItem[], zone: string): Map<DayKey, CalendarItem[]> {
  const days = new Map<DayKey, CalendarItem[]>();
  for (const it of items) {
    const k = dayOf(it.at, zone);
    const list = days.get(k);
    if (list) list.push(it); else days.set(k, [it]);
  }
  for (const list of days.values()) list.sort(byTime);
  return days;
}

/** The calendar's items by day, kept between changes: a move changes one card, so only its days are
 *  rebuilt (a month of 5,000 posts is not bucketed again on every drop). */
export type DayIndex = {
  zone: string;
  /** The lists of cards (the board's columns) as last indexed, by identity: a list that is the same
   *  array holds the same cards, so only changed lists are looked through. */
  lists: Set<readonly CardSummary[]>;
  /** The cards as last indexed (compared by identity: a changed card is a new object). */
  cards: Map<string, CardSummary>;
  /** Each card's items and the days they fall on. */
  placed: Map<string, CalendarItem[]>;
  byDay: Map<DayKey, CalendarItem[]>;
  /** The posts each card was placed with (compared by identity, like the cards). */
  posts: PostsByCard | null;
  /** The cards with no item (no time at all): the side list. */
  unplaced: Set<string>;
  /** Changes whenever the side list may have changed (a card joined or left it, or one of its cards
   *  changed): the view builds that list again only then. */
  unplacedVersion: number;
};

const byTime = (a: CalendarItem, b: CalendarItem) => a.at - b.at || a.title.localeCompare(b.title);

/** `indexDayLists` for one list of cards. */
export function indexDays(prev: DayIndex | null, cards: readonly CardSummary[], zone: string, posts: PostsByCard | null = null): DayIndex {
  return indexDayLists(prev, [cards], zone, posts);
}

/** The index for the cards of `lists` (the board's columns) in `zone`, reusing `prev` where cards did
 *  not change (same object): only the lists that are new arrays are looked through, so a drop that
 *  replaced one card of one column costs that column, not every card. `prev`'s maps are taken over (not
 *  copied: 5,000 entries on every drop), so `prev` itself must not be used again — its `byDay` and its
 *  day lists stay as they were. The answer equals a fresh `bucketByDay` of every card's items
 *  (placement.test.ts checks that). */
export function indexDayLists(prev: DayIndex | null, lists: readonly (readonly CardSummary[])[], zone: string, posts: PostsByCard | null = null): DayIndex {
  const full = (): DayIndex => {
    const cardMap = new Map<string, CardSummary>();
    const placed = new Map<string, CalendarItem[]>();
    const unplaced = new Set<string>();
    for (const list of lists) for (const c of list) {
      const items = itemsWith(c, posts);
      cardMap.set(c.id, c);
      placed.set(c.id, items);
      if (items.length === 0) unplaced.add(c.id);
    }
    return { zone, lists: new Set(lists), cards: cardMap, placed, byDay: bucketByDay([...placed.values()].flat(), zone), posts, unplaced, unplacedVersion: (prev?.unplacedVersion ?? 0) + 1 };
  };
  if (!prev || prev.zone !== zone) return full();
  const now = new Set(lists);
  const fresh = lists.filter((l) => !prev.lists.has(l));
  const gone = [...prev.lists].filter((l) => !now.has(l));
  const changed = new Map<string, CardSummary>();
  const postsMoved = prev.posts !== posts;
  // The cards whose posts changed: a pass over the posts read (hundreds), not over every card.
  if (postsMoved) {
    const mark = (id: string) => { const c = prev.cards.get(id); if (c) changed.set(id, c); };
    for (const [id, read] of posts ?? []) if (prev.posts?.get(id) !== read) mark(id);
    for (const id of prev.posts?.keys() ?? []) if (!posts?.has(id)) mark(id);
  }
  const seen = new Set<string>();
  for (const list of fresh) for (const c of list) {
    seen.add(c.id);
    if (prev.cards.get(c.id) !== c) changed.set(c.id, c);
    if (changed.size > 200) return full();
  }
  // Cards of a list that is gone and in no new list: removed (a card in an unchanged list was there before).
  const removed: string[] = [];
  for (const list of gone) for (const c of list) if (!seen.has(c.id)) { removed.push(c.id); changed.delete(c.id); }
  if (changed.size === 0 && removed.length === 0) return { ...prev, lists: now, posts };
  const { cards: cardMap, placed, unplaced } = prev;
  let unplacedVersion = prev.unplacedVersion;
  const byDay = new Map(prev.byDay);
  const take = (id: string) => {
    for (const it of placed.get(id) ?? []) {
      const k = dayOf(it.at, zone);
      const list = byDay.get(k);
      if (!list) continue;
      const rest = list.filter((x) => x.cardId !== id);
      if (rest.length) byDay.set(k, rest); else byDay.delete(k);
    }
    placed.delete(id);
    if (unplaced.delete(id)) unplacedVersion++;
  };
  for (const id of removed) { take(id); cardMap.delete(id); }
  for (const card of changed.values()) {
    take(card.id);
    cardMap.set(card.id, card);
    const items = itemsWith(card, posts);
    placed.set(card.id, items);
    if (items.length === 0) { unplaced.add(card.id); unplacedVersion++; }
    for (const it of items) {
      const k = dayOf(it.at, zone);
      const list = [...(byDay.get(k) ?? [])];
      let lo = 0, hi = list.length;
      while (lo < hi) { const mid = (lo + hi) >> 1; if (byTime(list[mid], it) <= 0) lo = mid + 1; else hi = mid; }
      list.splice(lo, 0, it);
      byDay.set(k, list);
    }
  }
  return { zone, lists: now, cards: cardMap, placed, byDay, posts, unplaced, unplacedVersion };
}

/** The cards of `lists` with no item, in the lists' order (the calendar's side list). */
export function unplacedCards(index: DayIndex, lists: readonly (readonly CardSummary[])[]): CardSummary[] {
  if (index.unplaced.size === 0) return [];
  const out: CardSummary[] = [];
  for (const list of lists) for (const c of list) if (index.unplaced.has(c.id)) out.push(c);
  return out;
}

/** A day cell holding `capacity` rows: the items shown and how many the "+N" stands for. When they
 *  do not all fit, the last row is the "+N" button. */
export function overflow<T>(items: T[], capacity: number): { shown: T[]; more: number } {
  const cap = Math.max(0, Math.floor(capacity));
  if (items.length <= cap) return { shown: items, more: 0 };
  const shown = items.slice(0, Math.max(0, cap - 1));
  return { shown, more: items.length - shown.length };
}

// ---- grids ----

/** The month's weeks (each seven day keys, starting on `weekStart`: 1 Monday, 0 Sunday), covering
 *  every day of the month; leading and trailing days belong to the neighbouring months. */
export function monthGrid(year: number, month: number, weekStart = 1): DayKey[][] {
  const first = Date.UTC(year, month - 1, 1);
  const lead = (new Date(first).getUTCDay() - weekStart + 7) % 7;
  const daysIn = new Date(Date.UTC(year, month, 0)).getUTCDate();
  const weeks = Math.ceil((lead + daysIn) / 7);
  const start = keyOfUtc(new Date(first - lead * DAY));
  return Array.from({ length: weeks }, (_w, w) => Array.from({ length: 7 }, (_d, d) => addDays(start, w * 7 + d)));
}

/** The seven days of the week holding `day`. */
export function weekOf(day: DayKey, weekStart = 1): DayKey[] {
  const lead = (new Date(dayMs(day)).getUTCDay() - weekStart + 7) % 7;
  return Array.from({ length: 7 }, (_d, i) => addDays(day, i - lead));
}

/** The week view's slots of a day (minutes since midnight). */
export const daySlots = (slot = SLOT_MINUTES): number[] => Array.from({ length: (24 * 60) / slot }, (_s, i) => i * slot);

// ---- drops ----

/**
 * The new instant for an item dropped on `target`. Month view (no `minute`): the same wall-clock time
 * of day on the new day, in `zone` (09:00 stays 09:00 across a DST change). Week view: the slot's start
 * plus the item's minutes past its own slot start (09:20 dropped on the 14:00 slot is 14:20). Null when
 * nothing changes.
 */
export function dropInstant(at: number, target: Target, zone: string, slot = SLOT_MINUTES): number | null {
  const secondsAndMs = ((at % MINUTE) + MINUTE) % MINUTE;
  const minute = minuteOfDay(at, zone);
  const wanted = target.minute === undefined ? minute : target.minute + (minute % slot);
  const next = zonedInstant(target.day, wanted, zone, secondsAndMs);
  return next === at ? null : next;
}

/** Where an unscheduled card dropped on a day lands when no slot says: 09:00 that day. */
export const DEFAULT_MINUTE = 9 * 60;

/** The instant for a card with no time dropped on `target`. */
export const firstInstant = (target: Target, zone: string): number => zonedInstant(target.day, target.minute ?? DEFAULT_MINUTE, zone);

/** The keyboard's moves while an item is picked up: month view moves by days and weeks; week view
 *  by days (left/right) and slots (up/down, staying within the day). */
export function keyTarget(t: Target, key: string, view: View, slot = SLOT_MINUTES): Target | null {
  if (view === "month") {
    const step = { ArrowLeft: -1, ArrowRight: 1, ArrowUp: -7, ArrowDown: 7 }[key];
    return step === undefined ? null : { day: addDays(t.day, step) };
  }
  const minute = t.minute ?? 0;
  if (key === "ArrowLeft" || key === "ArrowRight") return { day: addDays(t.day, key === "ArrowLeft" ? -1 : 1), minute };
  if (key === "ArrowUp") return minute - slot >= 0 ? { day: t.day, minute: minute - slot } : null;
  if (key === "ArrowDown") return minute + slot < 24 * 60 ? { day: t.day, minute: minute + slot } : null;
  return null;
}

/** The calendar grid's one Tab stop (roving focus): the cell last moved to while it is on the page, else
 *  today when shown, else the page's first day; by week, at that cell's time (09:00 when it has none). */
export function gridStop(cursor: Target | null, view: View, shown: DayKey[], today: DayKey): Target {
  const day = cursor && shown.includes(cursor.day) ? cursor.day : shown.includes(today) ? today : shown[0];
  return view === "month" ? { day } : { day, minute: (cursor && cursor.day === day ? cursor.minute : undefined) ?? 9 * 60 };
}

// ---- words ----

/** A day key in the app's one date style ("Mar 29, 2026"; shared/datetime.ts), its own date (no zone shift). */
export const dayLabel = (day: DayKey, locale?: string): string => formatDay(day, locale);

/** An instant's time of day in `zone`, in the app's one time style ("09:05"). */
export const timeLabel = (ms: number, zone: string, locale?: string): string => formatMinute(minuteOfDay(ms, zone), locale);

/** A minute of the day as a slot's label, in the same style. */
export const slotLabel = (minute: number, locale?: string): string => formatMinute(minute, locale);

/** What the live region says about a target while an item is carried, or after a drop. */
export function targetLabel(t: Target, locale?: string): string {
  return t.minute === undefined ? dayLabel(t.day, locale) : `${dayLabel(t.day, locale)}, ${slotLabel(t.minute)}`;
}
