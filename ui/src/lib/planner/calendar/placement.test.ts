import { describe, expect, it } from "vitest";
import type { CardPosts, CardSummary } from "../../bindings";
import {
  bucketByDay, cardsNear, dayOf, dropInstant, firstInstant, gridStop, indexDayLists, indexDays, itemsOf, keyTarget, minuteOfDay, monthGrid, overflow, slotOf, unplacedCards, unscheduled, weekOf,
  zonedInstant, type CalendarItem,
} from "./placement";

const BERLIN = "Europe/Berlin";
const NY = "America/New_York";
const ms = (iso: string) => Date.parse(iso);
const iso = (n: number | null) => (n === null ? null : new Date(n).toISOString());

const card = (over: Partial<CardSummary> = {}): CardSummary => ({
  id: "c1", title: "Launch", platform: "youtube", spaceId: "s", stageId: "st", boardOrder: 1, contentType: null, coverUrl: null,
  isFavorite: false, archivedAt: null, isArchived: false, scheduledAt: null, publishedAt: null, publishUrl: null, createdAt: null,
  updatedAt: null, platforms: [], tags: [], ...over,
});

describe("the day and slot an instant falls on", () => {
  it.each([
    // Midnight edges, before and after Berlin's spring-forward (UTC+1 → UTC+2 on 2026-03-29 at 01:00 UTC).
    ["2026-03-28T22:59:59Z", BERLIN, "2026-03-28", 23 * 60 + 59],
    ["2026-03-28T23:00:00Z", BERLIN, "2026-03-29", 0],
    ["2026-03-29T00:59:59Z", BERLIN, "2026-03-29", 1 * 60 + 59],
    ["2026-03-29T01:00:00Z", BERLIN, "2026-03-29", 3 * 60],
    ["2026-03-29T21:59:59Z", BERLIN, "2026-03-29", 23 * 60 + 59],
    ["2026-03-29T22:00:00Z", BERLIN, "2026-03-30", 0],
    // Fall-back (UTC+2 → UTC+1 on 2026-10-25 at 01:00 UTC): 02:30 happens twice.
    ["2026-10-25T00:30:00Z", BERLIN, "2026-10-25", 2 * 60 + 30],
    ["2026-10-25T01:30:00Z", BERLIN, "2026-10-25", 2 * 60 + 30],
    ["2026-10-25T22:59:00Z", BERLIN, "2026-10-25", 23 * 60 + 59],
    ["2026-10-25T23:00:00Z", BERLIN, "2026-10-26", 0],
    // New York's spring-forward (2026-03-08 07:00 UTC) and fall-back (2026-11-01 06:00 UTC).
    ["2026-03-08T06:59:00Z", NY, "2026-03-08", 1 * 60 + 59],
    ["2026-03-08T07:00:00Z", NY, "2026-03-08", 3 * 60],
    ["2026-11-01T05:30:00Z", NY, "2026-11-01", 1 * 60 + 30],
    ["2026-11-01T06:30:00Z", NY, "2026-11-01", 1 * 60 + 30],
    ["2026-11-02T04:59:00Z", NY, "2026-11-01", 23 * 60 + 59],
    ["2026-11-02T05:00:00Z", NY, "2026-11-02", 0],
    ["2026-05-01T00:00:00Z", "UTC", "2026-05-01", 0],
    // Half-hour zone.
    ["2026-05-01T18:29:00Z", "Asia/Kolkata", "2026-05-01", 23 * 60 + 59],
    ["2026-05-01T18:30:00Z", "Asia/Kolkata", "2026-05-02", 0],
  ])("%s in %s is %s at minute %i", (at, zone, day, minute) => {
    expect(dayOf(ms(at), zone)).toBe(day);
    expect(minuteOfDay(ms(at), zone)).toBe(minute);
  });

  it("a post at 23:30 in New York is the next day in Berlin, and the same day in Los Angeles", () => {
    const at = zonedInstant("2026-05-10", 23 * 60 + 30, NY);
    expect(iso(at)).toBe("2026-05-11T03:30:00.000Z");
    expect(dayOf(at, NY)).toBe("2026-05-10");
    expect(dayOf(at, BERLIN)).toBe("2026-05-11");
    expect(dayOf(at, "America/Los_Angeles")).toBe("2026-05-10");
  });

  it("the week view's slot is the hour the wall clock shows", () => {
    expect(slotOf(ms("2026-03-29T01:20:00Z"), BERLIN)).toBe(3 * 60);
    expect(slotOf(ms("2026-03-29T00:20:00Z"), BERLIN)).toBe(1 * 60);
    expect(slotOf(ms("2026-03-29T00:20:00Z"), BERLIN, 30)).toBe(60);
  });
});

describe("wall-clock time to an instant", () => {
  it.each([
    ["2026-03-28", 9 * 60, BERLIN, "2026-03-28T08:00:00.000Z"],
    ["2026-03-29", 9 * 60, BERLIN, "2026-03-29T07:00:00.000Z"],
    // 02:30 does not exist on the spring-forward night: it moves forward by the jump to 03:30 CEST.
    ["2026-03-29", 2 * 60 + 30, BERLIN, "2026-03-29T01:30:00.000Z"],
    // 02:30 happens twice on the fall-back night: the first (CEST).
    ["2026-10-25", 2 * 60 + 30, BERLIN, "2026-10-25T00:30:00.000Z"],
    ["2026-10-25", 0, BERLIN, "2026-10-24T22:00:00.000Z"],
    ["2026-10-26", 0, BERLIN, "2026-10-25T23:00:00.000Z"],
    ["2026-03-08", 2 * 60 + 15, NY, "2026-03-08T07:15:00.000Z"],
    ["2026-11-01", 1 * 60 + 30, NY, "2026-11-01T05:30:00.000Z"],
    ["2026-12-31", 23 * 60 + 59, "Pacific/Kiritimati", "2026-12-31T09:59:00.000Z"],
  ])("%s at minute %i in %s is %s", (day, minute, zone, expected) => {
    expect(iso(zonedInstant(day, minute, zone))).toBe(expected);
  });
});

describe("the instant a drop asks for", () => {
  it("month view keeps the time of day across Berlin's spring-forward (a 23-hour day)", () => {
    const at = ms("2026-03-28T08:00:00Z"); // 09:00 CET
    const next = dropInstant(at, { day: "2026-03-29" }, BERLIN);
    expect(iso(next)).toBe("2026-03-29T07:00:00.000Z"); // 09:00 CEST
    expect(next! - at).toBe(23 * 3_600_000);
  });

  it("month view keeps the time of day across Berlin's fall-back (a 25-hour day), and back", () => {
    const at = ms("2026-10-24T16:45:30.250Z"); // 18:45:30.250 CEST
    const next = dropInstant(at, { day: "2026-10-25" }, BERLIN)!;
    expect(iso(next)).toBe("2026-10-25T17:45:30.250Z"); // 18:45:30.250 CET
    expect(iso(dropInstant(next, { day: "2026-10-24" }, BERLIN))).toBe("2026-10-24T16:45:30.250Z");
  });

  it("month view across New York's spring-forward and over a month end", () => {
    expect(iso(dropInstant(ms("2026-03-07T14:00:00Z"), { day: "2026-03-08" }, NY))).toBe("2026-03-08T13:00:00.000Z");
    expect(iso(dropInstant(ms("2026-03-31T14:00:00Z"), { day: "2026-04-01" }, NY))).toBe("2026-04-01T14:00:00.000Z");
  });

  it("a time skipped on the new day moves forward by the jump", () => {
    // 02:30 CET on the 28th, dropped on the 29th: 02:30 does not exist, it becomes 03:30 CEST.
    expect(iso(dropInstant(ms("2026-03-28T01:30:00Z"), { day: "2026-03-29" }, BERLIN))).toBe("2026-03-29T01:30:00.000Z");
  });

  it("the day is the zone's: 23:30 in New York moved one day on is 23:30 the next day there", () => {
    const at = zonedInstant("2026-05-10", 23 * 60 + 30, NY);
    expect(iso(dropInstant(at, { day: "2026-05-11" }, NY))).toBe("2026-05-12T03:30:00.000Z");
    // The same post seen in Berlin sits on the 11th (05:30); moved to the 12th there it is 05:30 Berlin.
    expect(iso(dropInstant(at, { day: "2026-05-12" }, BERLIN))).toBe("2026-05-12T03:30:00.000Z");
  });

  it("week view: the slot's start plus the minutes past the item's own slot", () => {
    const at = ms("2026-03-28T08:20:00Z"); // 09:20 CET
    expect(iso(dropInstant(at, { day: "2026-03-29", minute: 14 * 60 }, BERLIN))).toBe("2026-03-29T12:20:00.000Z");
    expect(iso(dropInstant(at, { day: "2026-03-29", minute: 0 }, BERLIN))).toBe("2026-03-28T23:20:00.000Z");
  });

  it("a drop where it already is changes nothing", () => {
    expect(dropInstant(ms("2026-03-28T08:00:00Z"), { day: "2026-03-28" }, BERLIN)).toBeNull();
    expect(dropInstant(ms("2026-03-28T08:20:00Z"), { day: "2026-03-28", minute: 9 * 60 }, BERLIN)).toBeNull();
  });

  it("an unscheduled card lands at 09:00 on a day, or at the slot", () => {
    expect(iso(firstInstant({ day: "2026-10-25" }, BERLIN))).toBe("2026-10-25T08:00:00.000Z");
    expect(iso(firstInstant({ day: "2026-10-25", minute: 0 }, BERLIN))).toBe("2026-10-24T22:00:00.000Z");
  });
});

describe("grids", () => {
  it("March 2026 (starting on a Sunday) has six Monday weeks, from 23 February to 5 April", () => {
    const weeks = monthGrid(2026, 3);
    expect(weeks).toHaveLength(6);
    expect(weeks[0][0]).toBe("2026-02-23");
    expect(weeks[0][6]).toBe("2026-03-01");
    expect(weeks[5][6]).toBe("2026-04-05");
    expect(weeks.flat().filter((d) => d.startsWith("2026-03"))).toHaveLength(31);
  });

  it("February 2027 starting on a Monday fits four weeks; Sunday-first weeks work too", () => {
    expect(monthGrid(2027, 2)).toHaveLength(4);
    expect(monthGrid(2026, 3, 0)[0][0]).toBe("2026-03-01");
    expect(monthGrid(2026, 3, 0)).toHaveLength(5);
  });

  it("the week holding a day, over a year end", () => {
    expect(weekOf("2027-01-01")).toEqual(["2026-12-28", "2026-12-29", "2026-12-30", "2026-12-31", "2027-01-01", "2027-01-02", "2027-01-03"]);
  });
});

describe("what the calendar shows", () => {
  const item = (key: string, at: string, title = key): CalendarItem => ({ key, cardId: key, title, platform: null, at: ms(at), own: false });

  it("buckets by the zone's day, in time order", () => {
    const items = [item("b", "2026-05-11T03:30:00Z"), item("a", "2026-05-10T12:00:00Z"), item("c", "2026-05-11T10:00:00Z")];
    const ny = bucketByDay(items, NY);
    expect(ny.get("2026-05-10")?.map((i) => i.key)).toEqual(["a", "b"]);
    expect(ny.get("2026-05-11")?.map((i) => i.key)).toEqual(["c"]);
    const berlin = bucketByDay(items, BERLIN);
    expect(berlin.get("2026-05-10")?.map((i) => i.key)).toEqual(["a"]);
    expect(berlin.get("2026-05-11")?.map((i) => i.key)).toEqual(["b", "c"]);
  });

  it.each([
    [3, 4, 3, 0],
    [4, 4, 4, 0],
    [5, 4, 3, 2],
    [12, 4, 3, 9],
    [2, 0, 0, 2],
  ])("%i items in %i rows: %i shown and +%i", (n, cap, shown, more) => {
    const r = overflow(Array.from({ length: n }, (_v, i) => i), cap);
    expect(r.shown).toHaveLength(shown);
    expect(r.more).toBe(more);
    expect(r.shown.length + r.more).toBe(n);
  });

  it("each post at its own time, the card's where it has none; a card without posts at its time", () => {
    const c = card({ scheduledAt: "2026-05-10T12:00:00Z", platforms: ["instagram"] });
    expect(itemsOf(c)).toEqual([{ key: "c1", cardId: "c1", title: "Launch", platform: "youtube", at: ms("2026-05-10T12:00:00Z"), own: false }]);
    const posts = [{ platform: "youtube", scheduledAt: null }, { platform: "x", scheduledAt: "2026-05-12T08:00:00Z" }];
    expect(itemsOf(c, posts).map((i) => [i.key, iso(i.at), i.own])).toEqual([
      ["c1:youtube", "2026-05-10T12:00:00.000Z", false],
      ["c1:x", "2026-05-12T08:00:00.000Z", true],
    ]);
    expect(itemsOf(card())).toEqual([]);
    expect(itemsOf(card(), [{ platform: "x", scheduledAt: null }])).toEqual([]);
    expect(unscheduled([card(), card({ id: "c2", scheduledAt: "2026-05-10T12:00:00Z" })]).map((c) => c.id)).toEqual(["c1"]);
  });
});

describe("keyboard moves", () => {
  it.each([
    [{ day: "2026-03-31" }, "ArrowRight", "month", { day: "2026-04-01" }],
    [{ day: "2026-03-01" }, "ArrowLeft", "month", { day: "2026-02-28" }],
    [{ day: "2026-03-29" }, "ArrowDown", "month", { day: "2026-04-05" }],
    [{ day: "2026-03-29" }, "ArrowUp", "month", { day: "2026-03-22" }],
    [{ day: "2026-03-29", minute: 60 }, "ArrowDown", "week", { day: "2026-03-29", minute: 120 }],
    [{ day: "2026-03-29", minute: 60 }, "ArrowUp", "week", { day: "2026-03-29", minute: 0 }],
    [{ day: "2026-03-29", minute: 0 }, "ArrowUp", "week", null],
    [{ day: "2026-03-29", minute: 23 * 60 }, "ArrowDown", "week", null],
    [{ day: "2026-03-29", minute: 60 }, "ArrowRight", "week", { day: "2026-03-30", minute: 60 }],
    [{ day: "2026-03-29" }, "Home", "month", null],
  ] as const)("%o %s in %s view → %o", (t, key, view, expected) => {
    expect(keyTarget(t, key, view)).toEqual(expected);
  });

  it("the grid's one Tab stop: the cell moved to while shown, else today, else the page's first day", () => {
    const week = weekOf("2026-03-25");
    expect(gridStop(null, "week", week, "2026-03-25")).toEqual({ day: "2026-03-25", minute: 540 });
    expect(gridStop(null, "week", week, "2026-04-10")).toEqual({ day: week[0], minute: 540 });
    expect(gridStop({ day: "2026-03-27", minute: 600 }, "week", week, "2026-03-25")).toEqual({ day: "2026-03-27", minute: 600 });
    expect(gridStop({ day: "2026-03-27" }, "week", week, "2026-03-25")).toEqual({ day: "2026-03-27", minute: 540 });
    expect(gridStop({ day: "2026-05-01", minute: 600 }, "week", week, "2026-03-25")).toEqual({ day: "2026-03-25", minute: 540 });
    const month = monthGrid(2026, 3).flat();
    expect(gridStop({ day: "2026-03-27", minute: 600 }, "month", month, "2026-03-25")).toEqual({ day: "2026-03-27" });
    // A greyed day of the next month still on the page keeps the stop (the page does not jump).
    expect(gridStop({ day: month.at(-1)! }, "month", month, "2026-03-25")).toEqual({ day: month.at(-1) });
  });
});

describe("the day index kept between changes", () => {
  const keys = (m: Map<string, CalendarItem[]>) => Object.fromEntries([...m].sort(([a], [b]) => a.localeCompare(b)).map(([d, l]) => [d, l.map((i) => i.key)]));
  const fresh = (cards: CardSummary[], zone: string) => bucketByDay(cards.flatMap((c) => itemsOf(c)), zone);

  it("equals a fresh bucketing after moves, clears, additions and removals, and reuses untouched days", () => {
    let cards = Array.from({ length: 60 }, (_v, i) => card({ id: `c${i}`, title: `T${String(i).padStart(2, "0")}`,
      scheduledAt: i % 7 === 0 ? null : new Date(Date.UTC(2026, 9, 20 + (i % 10), (i * 5) % 24, (i * 11) % 60)).toISOString() }));
    let index = indexDays(null, cards, BERLIN);
    expect(keys(index.byDay)).toEqual(keys(fresh(cards, BERLIN)));
    let seed = 7;
    const rnd = (n: number) => { seed = (seed * 1103515245 + 12345) % 2 ** 31; return seed % n; };
    for (let step = 0; step < 200; step++) {
      const i = rnd(cards.length);
      const kind = rnd(4);
      const before = index.byDay;
      if (kind === 0) cards = cards.filter((_c, j) => j !== i);
      else if (kind === 1) cards = [...cards, card({ id: `n${step}`, title: `N${step}`, scheduledAt: new Date(Date.UTC(2026, 9, 24, rnd(24), rnd(60))).toISOString() })];
      else if (kind === 2) cards = cards.map((c, j) => (j === i ? { ...c, scheduledAt: null } : c));
      else cards = cards.map((c, j) => (j === i ? { ...c, scheduledAt: new Date(Date.UTC(2026, 9, 20 + rnd(10), rnd(24), rnd(60))).toISOString() } : c));
      index = indexDays(index, cards, BERLIN);
      expect(keys(index.byDay)).toEqual(keys(fresh(cards, BERLIN)));
      // Days the change did not touch keep their lists (the month's cells need not change).
      const changedDays = [...index.byDay].filter(([d, l]) => before.get(d) !== l).length;
      expect(changedDays).toBeLessThanOrEqual(2);
    }
    // Another zone is a fresh index.
    expect(keys(indexDays(index, cards, NY).byDay)).toEqual(keys(fresh(cards, NY)));
  });

  it("over the board's columns: equals a fresh bucketing, the side list too, and reads only the columns that changed", () => {
    const at = (d: number, h: number) => new Date(Date.UTC(2026, 9, 20 + d, h, 0)).toISOString();
    let columns = Array.from({ length: 4 }, (_c, s) => Array.from({ length: 15 }, (_v, i) =>
      card({ id: `c${s}-${i}`, stageId: `s${s}`, title: `T${s}${i}`, scheduledAt: i % 5 === 0 ? null : at(i % 9, (i * 7) % 24) })));
    let index = indexDayLists(null, columns, BERLIN);
    let version = index.unplacedVersion;
    let lastSide = unscheduled(columns.flat()).map((c) => [c.id, c.title]);
    let seed = 11;
    const rnd = (n: number) => { seed = (seed * 1103515245 + 12345) % 2 ** 31; return seed % n; };
    for (let step = 0; step < 150; step++) {
      const s = rnd(columns.length);
      const col = columns[s];
      if (col.length === 0) continue;
      const i = rnd(col.length);
      const kind = rnd(4);
      let next = columns.slice();
      if (kind === 0) {
        // A board move: the card leaves one column for another (two new arrays).
        const t = (s + 1) % columns.length;
        next[s] = col.filter((_c, j) => j !== i);
        next[t] = [...columns[t], { ...col[i], stageId: `s${t}` }];
      } else if (kind === 1) next[s] = col.map((c, j) => (j === i ? { ...c, scheduledAt: null } : c));
      else if (kind === 2) next[s] = col.map((c, j) => (j === i ? { ...c, title: `${c.title}!` } : c));
      else next[s] = col.map((c, j) => (j === i ? { ...c, scheduledAt: at(rnd(9), rnd(24)) } : c));
      // The columns the change left as they were must not be read again: reading one throws.
      const untouched = next.filter((l) => columns.includes(l));
      for (const l of untouched) Object.defineProperty(l, Symbol.iterator, { configurable: true, value: () => { throw new Error("an unchanged column was read"); } });
      const spy = untouched.map((l) => { const f = l.filter; Object.defineProperty(l, "filter", { configurable: true, value: () => { throw new Error("an unchanged column was read"); } }); return f; });
      index = indexDayLists(index, next, BERLIN);
      untouched.forEach((l, k) => { delete (l as unknown as Record<symbol, unknown>)[Symbol.iterator]; Object.defineProperty(l, "filter", { configurable: true, value: spy[k] }); });
      columns = next;
      const flat = columns.flat();
      expect(keys(index.byDay)).toEqual(keys(fresh(flat, BERLIN)));
      const side = unscheduled(flat).map((c) => [c.id, c.title]);
      expect(unplacedCards(index, columns).map((c) => [c.id, c.title])).toEqual(side);
      // The view builds the side list again only when the version moved: an unmoved one means the same list.
      if (index.unplacedVersion === version) expect(side).toEqual(lastSide);
      version = index.unplacedVersion;
      lastSide = side;
    }
    // A card of the side list given a time leaves it, and back.
    for (const time of [at(3, 9), null]) {
      const s = columns.findIndex((l) => l.some((c) => c.id === "c0-0"));
      columns = columns.map((l, k) => (k === s ? l.map((c) => (c.id === "c0-0" ? { ...c, scheduledAt: time } : c)) : l));
      index = indexDayLists(index, columns, BERLIN);
      expect(index.unplacedVersion).not.toBe(version);
      version = index.unplacedVersion;
      expect(unplacedCards(index, columns).some((c) => c.id === "c0-0")).toBe(time === null);
    }
  });
});

describe("posts at their own times (calendar_posts)", () => {
  const read = (cardId: string, scheduledAt: string | null, posts: [string, string | null][]): CardPosts => ({
    cardId, updatedAt: "u1", scheduledAt, findings: [], posts: posts.map(([platform, at], i) => ({
      id: `p${i}`, platform, scheduledAt: at, connectedAccountId: null, format: null, status: null, publishedAt: null, platformSettings: null,
    })),
  });

  it("a post keeps its own time when the card moves after the read; the others follow the card", () => {
    // Read with the card at 10 May 12:00: x has its own time, youtube the card's.
    const posts = read("c1", "2026-05-10T12:00:00Z", [["youtube", "2026-05-10T12:00:00Z"], ["x", "2026-05-12T08:00:00Z"]]).posts;
    // The card moved here to 11 May (its summary changed, its posts not read again yet).
    const moved = card({ scheduledAt: "2026-05-11T12:00:00Z" });
    expect(itemsOf(moved, posts, "2026-05-10T12:00:00Z").map((i) => [i.key, iso(i.at), i.own, i.platform])).toEqual([
      ["c1:youtube", "2026-05-11T12:00:00.000Z", false, "youtube"],
      ["c1:x", "2026-05-12T08:00:00.000Z", true, "x"],
    ]);
    // A card whose time was cleared: a post with its own time still shows, the others leave.
    expect(itemsOf(card(), posts, "2026-05-10T12:00:00Z").map((i) => i.key)).toEqual(["c1:x"]);
  });

  it("asks only for the cards whose time lies in the window, with their updatedAt", () => {
    const cards = [
      card({ id: "a", scheduledAt: "2026-05-01T00:00:00Z", updatedAt: "ua" }),
      card({ id: "b", scheduledAt: "2026-06-30T23:59:59Z" }),
      card({ id: "c", scheduledAt: "2026-07-01T00:00:00Z", updatedAt: "uc" }),
      card({ id: "d", scheduledAt: null, updatedAt: "ud" }),
    ];
    expect(cardsNear(cards, ms("2026-05-01T00:00:00Z"), ms("2026-06-30T23:59:59Z"))).toEqual([{ id: "a", updatedAt: "ua" }, { id: "b" }]);
  });

  it("the index places the posts read and equals a fresh bucketing as posts arrive and cards move", () => {
    let cards = [
      card({ id: "a", title: "A", scheduledAt: "2026-10-20T09:00:00Z" }),
      card({ id: "b", title: "B", scheduledAt: "2026-10-21T09:00:00Z" }),
    ];
    const keys = (m: Map<string, CalendarItem[]>) => Object.fromEntries([...m].sort(([x], [y]) => x.localeCompare(y)).map(([d, l]) => [d, l.map((i) => i.key)]));
    let index = indexDays(null, cards, BERLIN);
    expect(keys(index.byDay)).toEqual({ "2026-10-20": ["a"], "2026-10-21": ["b"] });
    const posts = new Map([["a", read("a", "2026-10-20T09:00:00Z", [["instagram", "2026-10-23T15:00:00Z"], ["tiktok", "2026-10-20T09:00:00Z"]])]]);
    index = indexDays(index, cards, BERLIN, posts);
    expect(keys(index.byDay)).toEqual({ "2026-10-20": ["a:tiktok"], "2026-10-21": ["b"], "2026-10-23": ["a:instagram"] });
    // The card moves a day: its own-time post stays.
    cards = [{ ...cards[0], scheduledAt: "2026-10-22T09:00:00Z" }, cards[1]];
    index = indexDays(index, cards, BERLIN, posts);
    expect(keys(index.byDay)).toEqual({ "2026-10-21": ["b"], "2026-10-22": ["a:tiktok"], "2026-10-23": ["a:instagram"] });
    expect(keys(index.byDay)).toEqual(keys(indexDays(null, cards, BERLIN, posts).byDay));
  });
});
