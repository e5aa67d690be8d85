import { describe, expect, it } from "vitest";
import { clashingCards, slotFree, slotInstants, toLocalSlot, toUtcSlot } from "./queueSlots";

describe("the posting queue's slots", () => {
  it("round-trips a local slot through UTC and back", () => {
    const ref = new Date("2026-11-25T12:00:00Z");
    for (const s of [{ accountId: "a", weekday: 1, time: "00:30" }, { accountId: "a", weekday: 7, time: "23:45" }, { accountId: "a", weekday: 3, time: "09:00" }]) {
      expect(toLocalSlot(toUtcSlot(s, ref), ref)).toEqual(s);
    }
  });

  it("lists a week of slots in time order within the window", () => {
    const slots = [1, 2, 3, 4, 5, 6, 7].flatMap((weekday) => ["09:00", "17:30"].map((time) => ({ accountId: "a", weekday, time })));
    // Monday 2026-11-23 00:00 UTC to the next Monday.
    const from = Date.UTC(2026, 10, 23), to = Date.UTC(2026, 10, 30);
    const got = slotInstants(slots, from, to);
    expect(got).toHaveLength(14);
    expect(new Date(got[0].at).toISOString()).toBe("2026-11-23T09:00:00.000Z");
    expect(new Date(got[13].at).toISOString()).toBe("2026-11-29T17:30:00.000Z");
  });

  it("flags posts of one account on two cards within the window, and frees a slot only when nothing is near", () => {
    const at = (t: string) => Date.parse(t);
    const posts = [
      { cardId: "c1", accountId: "a", at: at("2026-12-01T09:00:00Z") },
      { cardId: "c2", accountId: "a", at: at("2026-12-01T09:29:00Z") },
      { cardId: "c3", accountId: "a", at: at("2026-12-01T10:00:00Z") },
      { cardId: "c4", accountId: "b", at: at("2026-12-01T09:00:00Z") },
      { cardId: "c4", accountId: "b", at: at("2026-12-01T09:05:00Z") },
    ];
    expect([...clashingCards(posts, 30)].sort()).toEqual(["c1", "c2"]);
    expect(clashingCards(posts, 0).size).toBe(0);
    expect(slotFree({ at: at("2026-12-01T10:20:00Z"), accountId: "a" }, posts, 30)).toBe(false);
    expect(slotFree({ at: at("2026-12-01T10:30:00Z"), accountId: "a" }, posts, 30)).toBe(true);
    expect(slotFree({ at: at("2026-12-01T09:00:00Z"), accountId: "z" }, posts, 30)).toBe(true);
  });
});
