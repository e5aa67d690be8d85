import { describe, expect, it } from "vitest";
import type { CardSummary, Stage } from "../bindings";
import {
  announceMove, announcement, applyMove, buildColumns, dropRequest, findCard, formatScheduled, insertCard, inverseMove,
  keyboardRequest, matchesFilters, mergeColumn, moveStage, platformsOf, positionOf, removeCard, replaceCard,
  scrollToShow, sortStages, visibleRange, type Columns, type DropTarget, type KeyMove, type MoveRequest,
} from "./boardLogic";
import { boardArgs } from "./plannerApi";

const stage = (id: string, sortOrder: number, name = id.toUpperCase()): Stage =>
  ({ id, name, slug: id, color: null, sortOrder, isDefault: false });
const card = (id: string, stageId: string | null, boardOrder: number | null, extra: Partial<CardSummary> = {}): CardSummary => ({
  id, title: `T ${id}`, platform: "youtube", spaceId: "s1", stageId, boardOrder, contentType: null, coverUrl: null,
  isFavorite: false, archivedAt: null, isArchived: false, scheduledAt: null, publishedAt: null, publishUrl: null,
  createdAt: null, updatedAt: null, platforms: [], tags: [], ...extra,
});

// Column a: a1 a2 a3; column b: b1 b2; column c: empty.
const cols = (): Columns => buildColumns(
  [stage("a", 1), stage("b", 2), stage("c", 3)],
  [card("a2", "a", 20), card("b2", "b", 2), card("a1", "a", 10), card("a3", "a", 30), card("b1", "b", 1)],
);
const ids = (c: Columns) => Object.fromEntries(Object.entries(c).map(([k, v]) => [k, v.map((x) => x.id)]));

describe("building the board", () => {
  it("sorts stages by sortOrder, stable for equal values", () => {
    expect(sortStages([stage("x", 2), stage("y", 1), stage("z", 2)]).map((s) => s.id)).toEqual(["y", "x", "z"]);
  });
  it("groups cards by stage in boardOrder; every stage has a column; unknown stages are left out", () => {
    const c = buildColumns([stage("a", 1), stage("b", 2), stage("e", 3)],
      [card("2", "a", 2), card("1", "a", 1), card("x", "zz", 1), card("n", null, 1), card("b", "b", null), card("3", "a", 2)]);
    expect(ids(c)).toEqual({ a: ["1", "2", "3"], b: ["b"], e: [] });
  });
  it("finds cards and their positions", () => {
    const c = cols();
    expect(findCard(c, "a2")).toMatchObject({ stageId: "a", index: 1 });
    expect(findCard(c, "nope")).toBeNull();
    expect(positionOf(c, "a2")).toEqual({ stageId: "a", beforeCardId: "a3" });
    expect(positionOf(c, "a3")).toEqual({ stageId: "a" });
    expect(positionOf(c, "nope")).toBeNull();
  });
});

describe("drop → request", () => {
  const onCard = (stageId: string, cardId: string, edge: "top" | "bottom" | null): DropTarget => ({ kind: "card", stageId, cardId, edge });
  const table: [string, string, DropTarget, MoveRequest | null][] = [
    ["onto itself (top)", "a2", onCard("a", "a2", "top"), null],
    ["onto itself (bottom)", "a2", onCard("a", "a2", "bottom"), null],
    ["top edge of the card below it = same place", "a1", onCard("a", "a2", "top"), null],
    ["bottom edge of the card above it = same place", "a2", onCard("a", "a1", "bottom"), null],
    ["top edge of the first card", "a3", onCard("a", "a1", "top"), { cardId: "a3", stageId: "a", beforeCardId: "a1" }],
    ["bottom edge of the last card = end", "a1", onCard("a", "a3", "bottom"), { cardId: "a1", stageId: "a" }],
    ["bottom edge of a middle card", "a1", onCard("a", "a2", "bottom"), { cardId: "a1", stageId: "a", beforeCardId: "a3" }],
    ["no edge counts as top", "a3", onCard("a", "a2", null), { cardId: "a3", stageId: "a", beforeCardId: "a2" }],
    ["other stage, top of a card", "a1", onCard("b", "b2", "top"), { cardId: "a1", stageId: "b", beforeCardId: "b2" }],
    ["other stage, bottom of its last card", "a1", onCard("b", "b2", "bottom"), { cardId: "a1", stageId: "b" }],
    ["other stage's column (empty) = end", "a1", { kind: "column", stageId: "c" }, { cardId: "a1", stageId: "c" }],
    ["own column, already last = no-op", "a3", { kind: "column", stageId: "a" }, null],
    ["own column, not last = to the end", "a1", { kind: "column", stageId: "a" }, { cardId: "a1", stageId: "a" }],
    ["unknown card", "zz", { kind: "column", stageId: "a" }, null],
    ["unknown stage", "a1", { kind: "column", stageId: "zz" }, null],
    ["unknown target card", "a1", onCard("b", "zz", "top"), null],
  ];
  it.each(table)("%s", (_n, cardId, target, expected) => {
    expect(dropRequest(cols(), cardId, target)).toEqual(expected);
  });
});

describe("keyboard → request", () => {
  const order = ["a", "b", "c"];
  const table: [string, string, KeyMove, MoveRequest | null][] = [
    ["top from the middle", "a2", "top", { cardId: "a2", stageId: "a", beforeCardId: "a1" }],
    ["top when first", "a1", "top", null],
    ["bottom from the middle", "a2", "bottom", { cardId: "a2", stageId: "a" }],
    ["bottom when last", "a3", "bottom", null],
    ["up", "a3", "up", { cardId: "a3", stageId: "a", beforeCardId: "a2" }],
    ["up when first", "a1", "up", null],
    ["down from the first", "a1", "down", { cardId: "a1", stageId: "a", beforeCardId: "a3" }],
    ["down to last", "a2", "down", { cardId: "a2", stageId: "a" }],
    ["down when last", "a3", "down", null],
    ["right keeps the index", "a2", "right", { cardId: "a2", stageId: "b", beforeCardId: "b2" }],
    ["right past the neighbour's end = its end", "a3", "right", { cardId: "a3", stageId: "b" }],
    ["right into an empty stage", "b1", "right", { cardId: "b1", stageId: "c" }],
    ["left from the first stage", "a1", "left", null],
    ["left", "b1", "left", { cardId: "b1", stageId: "a", beforeCardId: "a1" }],
    ["right from the last stage", "b1", { stageId: "c" }, { cardId: "b1", stageId: "c" }],
    ["to a stage = its end", "a1", { stageId: "b" }, { cardId: "a1", stageId: "b" }],
    ["to its own stage", "a1", { stageId: "a" }, null],
    ["to an unknown stage", "a1", { stageId: "zz" }, null],
    ["unknown card", "zz", "up", null],
  ];
  it.each(table)("%s", (_n, cardId, move, expected) => {
    expect(keyboardRequest(cols(), order, cardId, move)).toEqual(expected);
  });
});

describe("applying a move, and rolling it back", () => {
  it.each([
    [{ cardId: "a3", stageId: "a", beforeCardId: "a1" }, { a: ["a3", "a1", "a2"], b: ["b1", "b2"], c: [] }],
    [{ cardId: "a1", stageId: "a" }, { a: ["a2", "a3", "a1"], b: ["b1", "b2"], c: [] }],
    [{ cardId: "a1", stageId: "b", beforeCardId: "b2" }, { a: ["a2", "a3"], b: ["b1", "a1", "b2"], c: [] }],
    [{ cardId: "b2", stageId: "c" }, { a: ["a1", "a2", "a3"], b: ["b1"], c: ["b2"] }],
    [{ cardId: "a1", stageId: "b", beforeCardId: "gone" }, { a: ["a2", "a3"], b: ["b1", "b2", "a1"], c: [] }],
  ] as [MoveRequest, Record<string, string[]>][])("%o", (req, expected) => {
    const before = cols();
    const from = positionOf(before, req.cardId)!;
    const after = applyMove(before, req)!;
    expect(ids(after)).toEqual(expected);
    expect(findCard(after, req.cardId)!.card.stageId).toBe(req.stageId);
    expect(ids(before)).toEqual(ids(cols())); // the input is untouched
    // Rolling back = the inverse move.
    expect(ids(applyMove(after, inverseMove(req.cardId, from))!)).toEqual(ids(before));
  });
  it("keeps the untouched columns' arrays (so their views do not re-render)", () => {
    const before = cols();
    const after = applyMove(before, { cardId: "a1", stageId: "a" })!;
    expect(after.b).toBe(before.b);
    expect(after.a).not.toBe(before.a);
  });
  it("uses the core's answer for the moved card", () => {
    const after = applyMove(cols(), { cardId: "a1", stageId: "b" }, card("a1", "b", 99, { title: "new" }))!;
    expect(after.b[2]).toMatchObject({ title: "new", boardOrder: 99 });
  });
  it("unknown card or stage: null", () => {
    expect(applyMove(cols(), { cardId: "zz", stageId: "a" })).toBeNull();
    expect(applyMove(cols(), { cardId: "a1", stageId: "zz" })).toBeNull();
  });
  it("replaces, removes, inserts and merges", () => {
    const c = cols();
    expect(replaceCard(c, card("a2", "a", 20, { title: "X" })).a[1].title).toBe("X");
    expect(replaceCard(c, card("zz", "a", 1))).toBe(c);
    expect(ids(removeCard(c, "a2")).a).toEqual(["a1", "a3"]);
    expect(removeCard(c, "zz")).toBe(c);
    const removed = removeCard(c, "a2");
    expect(ids(insertCard(removed, c.a[1], { stageId: "a", beforeCardId: "a3" })).a).toEqual(["a1", "a2", "a3"]);
    expect(ids(insertCard(removed, c.a[1], { stageId: "b" })).b).toEqual(["b1", "b2", "a2"]);
    expect(insertCard(removed, c.a[1], { stageId: "zz" })).toBe(removed);
    const merged = mergeColumn(c, "a", "b");
    expect(ids(merged)).toEqual({ b: ["b1", "b2", "a1", "a2", "a3"], c: [] });
    expect(merged.b.every((x) => x.stageId === "b")).toBe(true);
  });
});

describe("announcements", () => {
  it.each([
    ["X", "Review", 2, 12, "Card “X” moved to Review, 3 of 12"],
    ["", "Ideas", 0, 1, "Card “Untitled card” moved to Ideas, 1 of 1"],
    ["  ", "Ideas", 0, 1, "Card “Untitled card” moved to Ideas, 1 of 1"],
  ] as [string, string, number, number, string][])("%s in %s", (title, name, i, n, text) => {
    expect(announcement(title, name, i, n)).toBe(text);
  });
  it("announces a card where it sits", () => {
    const stages = [stage("a", 1, "Ideas"), stage("b", 2, "Review"), stage("c", 3)];
    const after = applyMove(cols(), { cardId: "a1", stageId: "b", beforeCardId: "b2" })!;
    expect(announceMove(after, stages, "a1")).toBe("Card “T a1” moved to Review, 2 of 3");
    expect(announceMove(after, stages, "zz")).toBe("");
  });
});

describe("stages", () => {
  const s = [stage("a", 1), stage("b", 2), stage("c", 3)];
  it.each([
    ["b", -1, ["b", "a", "c"], { beforeId: "a" }],
    ["b", 1, ["a", "c", "b"], { afterId: "c" }],
    ["a", 1, ["b", "a", "c"], { afterId: "b" }],
    ["c", -1, ["a", "c", "b"], { beforeId: "b" }],
  ] as [string, -1 | 1, string[], object][])("%s by %d", (id, dir, order, change) => {
    const r = moveStage(s, id, dir)!;
    expect(r.stages.map((x) => x.id)).toEqual(order);
    expect(r.change).toEqual(change);
  });
  it.each([["a", -1], ["c", 1], ["zz", 1]] as [string, -1 | 1][])("%s by %d: nowhere to go", (id, dir) => {
    expect(moveStage(s, id, dir)).toBeNull();
  });
});

describe("filters", () => {
  it.each([
    [{}, { spaceId: "s1" }],
    [{ search: "  ", platform: "", tag: "", archived: false }, { spaceId: "s1" }],
    [{ search: " hooks ", platform: "tiktok", tag: "t1", archived: true }, { spaceId: "s1", search: "hooks", platform: "tiktok", tag: "t1", archived: true }],
  ])("board_load args for %o", (f, args) => {
    expect(boardArgs("s1", f)).toEqual(args);
  });
  const c = card("x", "a", 1, { title: "Five Hooks", platform: "tiktok", platforms: ["instagram"], tags: ["t1"] });
  it.each([
    [{}, true],
    [{ search: "hooks" }, true],
    [{ search: "nope" }, false],
    [{ platform: "tiktok" }, true],
    [{ platform: "instagram" }, true],
    [{ platform: "youtube" }, false],
    [{ tag: "t1" }, true],
    [{ tag: "t2" }, false],
    [{ archived: true }, false],
  ])("matches %o: %s", (f, ok) => {
    expect(matchesFilters(c, f)).toBe(ok);
  });
  it("platform chips: main first, no repeats", () => {
    expect(platformsOf(card("x", "a", 1, { platform: "x", platforms: ["x", "threads"] }))).toEqual(["x", "threads"]);
    expect(platformsOf(card("x", "a", 1, { platform: null, platforms: [] }))).toEqual([]);
  });
});

describe("time and windowing", () => {
  it("formats scheduled times in the given zone", () => {
    expect(formatScheduled("2026-03-04T13:30:00Z", "Europe/Berlin", "en-GB")).toBe("4 Mar 2026, 14:30");
    expect(formatScheduled("2026-03-04T13:30:00Z", "America/New_York", "en-US")).toBe("Mar 4, 2026, 08:30");
    expect(formatScheduled(null)).toBe("");
    expect(formatScheduled("not a date")).toBe("");
  });
  it.each([
    [0, 500, 100, 1000, 5, { start: 0, end: 10 }],
    [1000, 500, 100, 1000, 5, { start: 5, end: 20 }],
    [99_000, 500, 100, 1000, 5, { start: 985, end: 1000 }],
    [0, 500, 100, 3, 5, { start: 0, end: 3 }],
    [0, 0, 100, 10, 2, { start: 0, end: 2 }],
    [0, 500, 100, 0, 5, { start: 0, end: 0 }],
  ])("scrollTop %d viewport %d row %d count %d overscan %d", (top, vp, row, n, over, expected) => {
    expect(visibleRange(top, vp, row, n, over)).toEqual(expected);
  });
  it.each([
    [0, 500, 100, 2, 0],
    [0, 500, 100, 7, 300],
    [800, 500, 100, 3, 300],
    [800, 500, 100, 9, 800],
  ])("scrollTop %d to show row %d", (top, vp, row, index, expected) => {
    expect(scrollToShow(top, vp, row, index)).toBe(expected);
  });
});
