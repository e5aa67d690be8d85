// The planner board's state, part four: cards and undo. A card archived (its neighbour takes focus),
// restored, created in a stage or saved in the editor, and the one-step undo of the latest move,
// reschedule or archive. A change the core kept offline stays, marked as waiting.
import type { CardSummary, Stage } from "../bindings";
import { toIpcError } from "../shared/backend";
import { isQueued, noteQueued } from "../drafts/drafts.svelte";
import { applyMove, cardLabel, findCard, insertCard, inverseMove, matchesFilters, positionOf, removeCard, replaceCard } from "./boardLogic";
import { plannerApi } from "./plannerApi";
import { BoardMoves } from "./boardMoves.svelte";

export class BoardCards extends BoardMoves {
  // ---- archive and undo ----

  async archiveCard(card: CardSummary) {
    this.changes++;
    const from = positionOf(this.columns, card.id);
    if (!from) return;
    const col = this.columns[from.stageId];
    const neighbour = from.beforeCardId ?? col[col.findIndex((c) => c.id === card.id) - 1]?.id;
    this.columns = removeCard(this.columns, card.id);
    this.countCards(-1);
    this.actionError = null;
    this.undo = { kind: "archive", card, from };
    this.say(`Card “${cardLabel(card.title)}” archived.`);
    if (neighbour) this.view.focusCard(neighbour);
    try {
      await plannerApi.cardArchive(card.id, true, { updatedAt: card.updatedAt, title: card.title });
    } catch (e) {
      // Kept offline by the core: the card stays off the board, archived when the service answers.
      if (isQueued(e)) {
        noteQueued();
        this.say(`Card “${cardLabel(card.title)}” is archived here and will be on the service when it answers.`);
        return;
      }
      this.columns = insertCard(this.columns, card, from);
      this.countCards(1);
      this.actionError = toIpcError(e);
      this.say(`Card “${cardLabel(card.title)}” could not be archived.`);
      this.undo = null;
    }
  }

  async restoreCard(card: CardSummary) {
    this.changes++;
    this.actionError = null;
    try {
      await plannerApi.cardArchive(card.id, false, { updatedAt: card.updatedAt, title: card.title }).catch((e) => {
        if (!isQueued(e)) throw e;
        noteQueued();
      });
      this.columns = removeCard(this.columns, card.id);
      this.countCards(1);
      const stage = this.stages.find((s) => s.id === card.stageId);
      this.say(`Card “${cardLabel(card.title)}” restored${stage ? ` to ${stage.name}` : ""}.`);
    } catch (e) {
      this.actionError = toIpcError(e);
    }
  }

  async runUndo() {
    const u = this.undo;
    if (!u) return;
    this.undo = null;
    if (u.kind === "schedule") {
      if (u.platform && u.from) this.reschedulePost(u.cardId, u.platform, u.from, { isUndo: true });
      else this.reschedule(u.cardId, u.from, { isUndo: true });
      return;
    }
    if (u.kind === "move") {
      if (findCard(this.columns, u.cardId)) this.move(inverseMove(u.cardId, u.from), { isUndo: true, focus: "open" });
      return;
    }
    this.columns = insertCard(this.columns, { ...u.card, isArchived: false, archivedAt: null }, u.from);
    this.countCards(1);
    this.say(`Card “${cardLabel(u.card.title)}” restored.`);
    this.view.focusCard(u.card.id);
    try {
      await plannerApi.cardArchive(u.card.id, false, { title: u.card.title });
    } catch (e) {
      if (isQueued(e)) {
        noteQueued();
        return;
      }
      this.columns = removeCard(this.columns, u.card.id);
      this.countCards(-1);
      this.actionError = toIpcError(e);
    }
  }

  // ---- cards ----

  /** Quick-add (issue 26 point 2): one card, each platform given a post of its own (a string: that one). */
  async createCard(stage: Stage, title: string, platforms: string[] | string): Promise<boolean> {
    this.changes++;
    const space = this.spaceId;
    if (!space) return false;
    const list = (typeof platforms === "string" ? [platforms] : platforms).filter((p) => p !== "general");
    const cardPlatform = list[0] ?? (typeof platforms === "string" ? platforms : "general");
    const posts = list.length === 0 ? {} : { posts: list.map((platform) => ({ platform })) };
    const card = await this.busyAction(() => plannerApi.cardCreate({ spaceId: space, stage: stage.id, title, platform: cardPlatform, ...posts }));
    if (!card) return false;
    this.countCards(1, space);
    if (matchesFilters(card, this.filters()) && this.columns[stage.id]) {
      this.columns = { ...this.columns, [stage.id]: [...this.columns[stage.id], { ...card, stageId: stage.id }] };
      this.say(`Card “${cardLabel(card.title)}” added to ${stage.name}.`);
    } else {
      this.say(`Card “${cardLabel(card.title)}” added to ${stage.name}; the filters hide it.`);
    }
    return true;
  }

  /** Cards made from another (duplicate, repeat): each shown at the end of its stage when the filters
   *  match, and the space's count moved on. */
  cardsAdded(cards: CardSummary[]) {
    if (cards.length === 0) return;
    if (this.spaceId) this.countCards(cards.length, this.spaceId);
    let columns = this.columns;
    for (const card of cards) {
      if (!card.stageId || !columns[card.stageId] || !matchesFilters(card, this.filters())) continue;
      columns = { ...columns, [card.stageId]: [...columns[card.stageId], card] };
    }
    this.columns = columns;
  }

  /** A card saved in the editor: shown where it now is, or taken off when the filters no longer match. */
  cardChanged(card: CardSummary) {
    const at = findCard(this.columns, card.id);
    if (!at) return;
    const columns = this.columns;
    if (!matchesFilters(card, { archived: this.archivedView })) this.columns = removeCard(columns, card.id);
    else if (card.stageId && card.stageId !== at.stageId && columns[card.stageId]) this.columns = applyMove(columns, { cardId: card.id, stageId: card.stageId }, card) ?? columns;
    else this.columns = replaceCard(columns, card);
  }
}
