// The board's rules as plain functions: grouping cards into columns, what a drop or a keyboard move
// asks the core for, applying a move locally (and undoing it), what is announced, windowing. No DOM,
// no Svelte: the tables in boardLogic.test.ts pin every rule.
import { formatDateTime } from "../shared/datetime";
import type { CardSummary, Stage } from "../bindings";

/** Each stage's cards in board order, by stage id. Arrays are never mutated: a change replaces them. */
export type Columns = Record<string, CardSummary[]>;
/** Where a card sits: its stage, and the card right after it (none = last). */
export type Position = { stageId: string; beforeCardId?: string };
/** `card_move`'s args. No `beforeCardId` = the end of the stage. */
export type MoveRequest = { cardId: string; stageId: string; beforeCardId?: string };
export type Edge = "top" | "bottom";
export type DropTarget =
  | { kind: "card"; stageId: string; cardId: string; edge: Edge | null }
  | { kind: "column"; stageId: string };
export type KeyMove = "top" | "bottom" | "up" | "down" | "left" | "right" | { stageId: string };

const byNumber = (a: number | null | undefined, b: number | null | undefined) => (a ?? 0) - (b ?? 0);

/** Stages in board order (sortOrder; equal values keep their order). */
export function sortStages(stages: Stage[]): Stage[] {
  return [...stages].sort((a, b) => byNumber(a.sortOrder, b.sortOrder));
}

/** Groups cards by stage, each column by boardOrder (stable). Every stage gets a column; cards of an
 *  unknown stage are left out. */
export function buildColumns(stages: Stage[], cards: CardSummary[]): Columns {
  const columns: Columns = {};
  for (const s of stages) columns[s.id] = [];
  for (const c of cards) {
    if (c.stageId != null && columns[c.stageId]) columns[c.stageId].push(c);
  }
  for (const id in columns) columns[id].sort((a, b) => byNumber(a.boardOrder, b.boardOrder));
  return columns;
}

export function findCard(columns: Columns, cardId: string): { stageId: string; index: number; card: CardSummary } | null {
  for (const stageId in columns) {
    const index = columns[stageId].findIndex((c) => c.id === cardId);
    if (index >= 0) return { stageId, index, card: columns[stageId][index] };
  }
  return null;
}

/** The card's position now (to move it back). */
export function positionOf(columns: Columns, cardId: string): Position | null {
  const at = findCard(columns, cardId);
  if (!at) return null;
  const next = columns[at.stageId][at.index + 1];
  return next ? { stageId: at.stageId, beforeCardId: next.id } : { stageId: at.stageId };
}

function samePlace(columns: Columns, req: MoveRequest): boolean {
  const now = positionOf(columns, req.cardId);
  return !!now && now.stageId === req.stageId && now.beforeCardId === req.beforeCardId;
}

const request = (cardId: string, stageId: string, beforeCardId?: string): MoveRequest =>
  beforeCardId ? { cardId, stageId, beforeCardId } : { cardId, stageId };

/** The move a drop asks for, or null when nothing would change (onto itself, the same place, an
 *  unknown card or stage). */
export function dropRequest(columns: Columns, cardId: string, target: DropTarget): MoveRequest | null {
  if (!findCard(columns, cardId) || !columns[target.stageId]) return null;
  let req: MoveRequest;
  if (target.kind === "column") {
    req = request(cardId, target.stageId);
  } else {
    if (target.cardId === cardId) return null;
    const others = columns[target.stageId].filter((c) => c.id !== cardId);
    const i = others.findIndex((c) => c.id === target.cardId);
    if (i < 0) return null;
    req = request(cardId, target.stageId, target.edge === "bottom" ? others[i + 1]?.id : others[i].id);
  }
  return samePlace(columns, req) ? null : req;
}

/** The move a keyboard command asks for, or null when there is nowhere to go. Left and right keep the
 *  card's index in the neighbouring stage (or its end); "to stage X" goes to that stage's end. */
export function keyboardRequest(columns: Columns, stageOrder: string[], cardId: string, move: KeyMove): MoveRequest | null {
  const at = findCard(columns, cardId);
  if (!at) return null;
  const col = columns[at.stageId];
  let req: MoveRequest | null = null;
  if (move === "top") {
    req = request(cardId, at.stageId, col.find((c) => c.id !== cardId)?.id);
  } else if (move === "bottom") {
    req = request(cardId, at.stageId);
  } else if (move === "up") {
    if (at.index > 0) req = request(cardId, at.stageId, col[at.index - 1].id);
  } else if (move === "down") {
    if (at.index < col.length - 1) req = request(cardId, at.stageId, col[at.index + 2]?.id);
  } else if (move === "left" || move === "right") {
    const s = stageOrder.indexOf(at.stageId) + (move === "left" ? -1 : 1);
    const stageId = stageOrder[s];
    if (s >= 0 && stageId !== undefined && columns[stageId]) req = request(cardId, stageId, columns[stageId][at.index]?.id);
  } else if (move.stageId !== at.stageId && columns[move.stageId]) {
    req = request(cardId, move.stageId);
  }
  return req && !samePlace(columns, req) ? req : null;
}

/** The columns after a move (only the touched columns are new arrays), or null when the card or the
 *  stage is unknown. A `beforeCardId` not in the stage puts the card at its end. `card` replaces the
 *  moved card's data (the core's answer), else its stageId is updated. */
export function applyMove(columns: Columns, req: MoveRequest, card?: CardSummary): Columns | null {
  const at = findCard(columns, req.cardId);
  if (!at || !columns[req.stageId]) return null;
  const moved: CardSummary = card ?? (at.card.stageId === req.stageId ? at.card : { ...at.card, stageId: req.stageId });
  const next: Columns = { ...columns, [at.stageId]: columns[at.stageId].filter((c) => c.id !== req.cardId) };
  const target = [...next[req.stageId]];
  const i = req.beforeCardId ? target.findIndex((c) => c.id === req.beforeCardId) : -1;
  target.splice(i < 0 ? target.length : i, 0, moved);
  next[req.stageId] = target;
  return next;
}

/** The move that puts a card back where `from` says (the undo of a move). */
export const inverseMove = (cardId: string, from: Position): MoveRequest => request(cardId, from.stageId, from.beforeCardId);

/** Replaces a card's data where it sits (an edit or the core's answer). */
export function replaceCard(columns: Columns, card: CardSummary): Columns {
  const at = findCard(columns, card.id);
  if (!at) return columns;
  const col = [...columns[at.stageId]];
  col[at.index] = card;
  return { ...columns, [at.stageId]: col };
}

export function removeCard(columns: Columns, cardId: string): Columns {
  const at = findCard(columns, cardId);
  if (!at) return columns;
  return { ...columns, [at.stageId]: columns[at.stageId].filter((c) => c.id !== cardId) };
}

/** Puts a card at a position (its end when the card after it is gone); an unknown stage changes nothing. */
export function insertCard(columns: Columns, card: CardSummary, at: Position): Columns {
  if (!columns[at.stageId]) return columns;
  const col = columns[at.stageId].filter((c) => c.id !== card.id);
  const i = at.beforeCardId ? col.findIndex((c) => c.id === at.beforeCardId) : -1;
  col.splice(i < 0 ? col.length : i, 0, card.stageId === at.stageId ? card : { ...card, stageId: at.stageId });
  return { ...removeCard(columns, card.id), [at.stageId]: col };
}

/** Moves all cards of one stage to the end of another (a stage deleted with its cards moved). */
export function mergeColumn(columns: Columns, fromStageId: string, toStageId: string): Columns {
  const next = { ...columns };
  const moving = (columns[fromStageId] ?? []).map((c) => ({ ...c, stageId: toStageId }));
  delete next[fromStageId];
  if (next[toStageId]) next[toStageId] = [...next[toStageId], ...moving];
  return next;
}

export const cardLabel = (title: string | null | undefined) => (title?.trim() ? title : "Untitled card");

/** What the live region says after a move: `Card “X” moved to Review, 3 of 12`. */
export function announcement(title: string, stageName: string, index: number, count: number): string {
  return `Card “${cardLabel(title)}” moved to ${stageName}, ${index + 1} of ${count}`;
}

/** The announcement for a card where it now sits, or "" when it is not on the board. */
export function announceMove(columns: Columns, stages: Stage[], cardId: string): string {
  const at = findCard(columns, cardId);
  const stage = at && stages.find((s) => s.id === at.stageId);
  return at && stage ? announcement(at.card.title, stage.name, at.index, columns[at.stageId].length) : "";
}

/** A stage moved one place left (-1) or right (+1): the new order and `stage_update`'s position
 *  (`beforeId` the stage it now precedes, `afterId` the one it now follows), or null at an end. */
export function moveStage(stages: Stage[], stageId: string, dir: -1 | 1):
  { stages: Stage[]; change: { beforeId?: string; afterId?: string } } | null {
  const i = stages.findIndex((s) => s.id === stageId);
  const j = i + dir;
  if (i < 0 || j < 0 || j >= stages.length) return null;
  const next = [...stages];
  [next[i], next[j]] = [next[j], next[i]];
  return { stages: next, change: dir < 0 ? { beforeId: stages[j].id } : { afterId: stages[j].id } };
}

/** Whether a card passes the board's filters (for a card created or edited while they are on). */
export function matchesFilters(card: CardSummary, f: { search?: string; platform?: string; tag?: string; archived?: boolean }): boolean {
  if (!!f.archived !== !!card.isArchived) return false;
  const q = f.search?.trim().toLocaleLowerCase();
  if (q && !(card.title ?? "").toLocaleLowerCase().includes(q)) return false;
  if (f.platform && card.platform !== f.platform && !(card.platforms ?? []).includes(f.platform)) return false;
  if (f.tag && !(card.tags ?? []).includes(f.tag)) return false;
  return true;
}

/** A card's platforms for its chips: the main one first, no repeats. */
export function platformsOf(card: CardSummary): string[] {
  const out = card.platform ? [card.platform] : [];
  for (const p of card.platforms ?? []) if (!out.includes(p)) out.push(p);
  return out;
}

/** An ISO UTC time in the local (or the given) time zone, in the app's one date-and-time style
 *  (shared/datetime.ts), e.g. "Mar 4, 2026, 14:30". "" when absent or invalid. */
export function formatScheduled(iso: string | null | undefined, timeZone?: string, locale?: string): string {
  return formatDateTime(iso, { timeZone, locale });
}

/** The slice of a fixed-height list to render: [start, end) with `overscan` rows either side. */
export function visibleRange(scrollTop: number, viewport: number, rowHeight: number, count: number, overscan = 5): { start: number; end: number } {
  if (count <= 0) return { start: 0, end: 0 };
  const first = Math.floor(Math.max(0, scrollTop) / rowHeight);
  const last = Math.ceil((Math.max(0, scrollTop) + Math.max(0, viewport)) / rowHeight);
  return { start: Math.max(0, Math.min(first - overscan, count)), end: Math.min(count, last + overscan) };
}

/** The scrollTop that brings row `index` into view (unchanged when it already is). */
export function scrollToShow(scrollTop: number, viewport: number, rowHeight: number, index: number): number {
  const top = index * rowHeight;
  if (top < scrollTop) return top;
  if (top + rowHeight > scrollTop + viewport) return Math.max(0, top + rowHeight - viewport);
  return scrollTop;
}
