// The planner board's state, part three: moves. A card moved to another place (drag, the keyboard, the
// move menu) or to a new time (the calendar's drop, one post's own time). Each applies locally at once,
// then asks the core; a refusal puts it back and says why; a change kept offline stays, marked waiting.
// Each offers its undo (run by boardCards' `runUndo`).
import type { CardPosts, CardSummary, PostInput } from "../bindings";
import { postInputFromPost } from "./editor/cardRules";
import { toIpcError } from "../shared/backend";
import { isQueued, noteQueued } from "../drafts/drafts.svelte";
import {
  announceMove, applyMove, cardLabel, findCard, formatScheduled, inverseMove, keyboardRequest, positionOf, replaceCard,
  type KeyMove, type MoveRequest,
} from "./boardLogic";
import { plannerApi, platformLabel } from "./plannerApi";
import { mark, markRendered, type Undo } from "./boardCore.svelte";
import { BoardLoad } from "./boardLoad.svelte";

export class BoardMoves extends BoardLoad {
  /** The latest move of each card: an older answer must not undo or overwrite a newer move's effect. */
  private latestMove = new Map<string, number>();
  private moveSeq = 0;

  /** Moves a card locally at once, then in the core; a refusal moves it back and says why. */
  move(req: MoveRequest, opts: { focus?: "open" | "handle"; isUndo?: boolean } = {}) {
    this.changes++;
    const from = positionOf(this.columns, req.cardId);
    const next = from && applyMove(this.columns, req);
    if (!from || !next) return;
    mark("planner:drop");
    this.columns = next;
    markRendered("planner:moved");
    this.actionError = null;
    const title = findCard(next, req.cardId)?.card.title ?? "";
    this.say(announceMove(next, this.stages, req.cardId));
    const mine: Undo | null = opts.isUndo ? null : { kind: "move", cardId: req.cardId, title, from };
    this.undo = mine;
    const seq = ++this.moveSeq;
    this.latestMove.set(req.cardId, seq);
    if (opts.focus) this.view.focusCard(req.cardId, opts.focus);
    const moved = findCard(this.columns, req.cardId)?.card;
    plannerApi.cardMove(req.cardId, req.stageId, req.beforeCardId, { updatedAt: moved?.updatedAt, title }).then(
      (card) => {
        mark("planner:ack");
        if (this.latestMove.get(card.id) !== seq) return;
        this.latestMove.delete(card.id);
        const at = findCard(this.columns, card.id);
        if (at && at.stageId === card.stageId) this.columns = replaceCard(this.columns, card);
      },
      (e) => {
        // Kept offline by the core: the card stays where the user put it, marked as waiting.
        if (isQueued(e)) {
          this.latestMove.delete(req.cardId);
          noteQueued();
          this.say(`Card “${cardLabel(title)}” is kept here and will move on the service when it answers.`);
          return;
        }
        this.actionError = toIpcError(e);
        if (this.undo === mine) this.undo = null;
        // A later move of the same card decides where it is; only the latest one rolls back.
        if (this.latestMove.get(req.cardId) !== seq) return;
        this.latestMove.delete(req.cardId);
        const back = applyMove(this.columns, inverseMove(req.cardId, from));
        if (back) this.columns = back;
        const stage = this.stages.find((s) => s.id === from.stageId);
        this.say(`Card “${cardLabel(title)}” could not be moved; it is back in ${stage?.name ?? "its stage"}.`);
      },
    );
  }

  /**
   * A card's new time (the calendar's drop): shown at once, then `card_update { scheduledAt }`, the
   * editor's command, so a change made offline is kept by the core's outbox like any card edit. A
   * refusal puts the old time back and says why. `label` says the new time in words.
   */
  reschedule(cardId: string, at: string | null, opts: { label?: string; isUndo?: boolean } = {}) {
    this.changes++;
    const found = findCard(this.columns, cardId);
    if (!found) return;
    const before = found.card;
    const title = before.title;
    mark("calendar:drop");
    this.columns = replaceCard(this.columns, { ...before, scheduledAt: at });
    markRendered("calendar:moved");
    this.actionError = null;
    const when = opts.label ?? (at ? formatScheduled(at) : "no time");
    this.say(opts.isUndo ? `Card “${cardLabel(title)}” is back at ${when}.` : `Card “${cardLabel(title)}” rescheduled to ${when}.`);
    const mine: Undo | null = opts.isUndo ? null : { kind: "schedule", cardId, title, from: before.scheduledAt };
    this.undo = mine;
    const seq = ++this.moveSeq;
    this.latestMove.set(cardId, seq);
    // Rule 3: `scheduledAt` alone moves every post, also one with its own time; posts read with their
    // own times are sent along (the whole list), so they keep them and the others follow the card.
    const read = this.calendarPosts.get(cardId);
    const posts = read ? this.postInputs(read) : [];
    plannerApi.cardUpdate(cardId, posts.some((p) => p.scheduledAt) ? { scheduledAt: at, posts } : { scheduledAt: at }).then(
      (read) => {
        if (this.latestMove.get(cardId) !== seq) return;
        this.latestMove.delete(cardId);
        const now = findCard(this.columns, cardId)?.card;
        if (now) this.columns = replaceCard(this.columns, { ...now, scheduledAt: read.scheduledAt, updatedAt: read.updatedAt });
      },
      (e) => {
        if (isQueued(e)) {
          this.latestMove.delete(cardId);
          noteQueued();
          this.say(`Card “${cardLabel(title)}” is rescheduled here and will change on the service when it answers.`);
          return;
        }
        this.actionError = toIpcError(e);
        if (this.undo === mine) this.undo = null;
        if (this.latestMove.get(cardId) !== seq) return;
        this.latestMove.delete(cardId);
        const now = findCard(this.columns, cardId)?.card;
        if (now) this.columns = replaceCard(this.columns, { ...now, scheduledAt: before.scheduledAt });
        this.say(`Card “${cardLabel(title)}” could not be rescheduled; it is back at ${before.scheduledAt ? formatScheduled(before.scheduledAt) : "no time"}.`);
      },
    );
  }

  /** The whole `posts` list of a card as read, with `change` applied to one platform's post; each
   *  post's own time kept (rule 1: the list is declarative; rule 3: a post's `scheduledAt` overrides). */
  postInputs(read: CardPosts, platform?: string, at?: string): PostInput[] {
    return read.posts
      .map((p) => postInputFromPost(p.platform === platform ? { ...p, scheduledAt: at ?? p.scheduledAt } : p, read.scheduledAt))
      .filter((p): p is PostInput => p !== null);
  }

  /** One post of a card to its own time `at`: `card_update { posts }` with the whole list (the
   *  other posts and the card's time unchanged); optimistic, undoable, kept offline like any edit. */
  reschedulePost(cardId: string, platform: string, at: string, opts: { label?: string; isUndo?: boolean } = {}) {
    this.changes++;
    const read = this.calendarPosts.get(cardId);
    const post = read?.posts.find((p) => p.platform === platform);
    const title = findCard(this.columns, cardId)?.card.title;
    if (!read || !post) return;
    const set = (entry: CardPosts) => { this.calendarPosts = new Map(this.calendarPosts).set(cardId, entry); };
    mark("calendar:drop");
    set({ ...read, posts: read.posts.map((p) => (p === post ? { ...p, scheduledAt: at } : p)) });
    markRendered("calendar:moved");
    this.actionError = null;
    const what = `The ${platformLabel(platform)} post of “${cardLabel(title)}”`;
    const when = opts.label ?? formatScheduled(at);
    this.say(opts.isUndo ? `${what} is back at ${when}.` : `${what} rescheduled to ${when}; the card's other posts stay.`);
    const mine: Undo | null = opts.isUndo ? null : { kind: "schedule", cardId, title: title ?? "", from: post.scheduledAt, platform };
    this.undo = mine;
    plannerApi.cardUpdate(cardId, { posts: this.postInputs(read, platform, at) }).then(
      (card) => {
        if (this.calendarPosts.get(cardId)?.posts.find((p) => p.platform === platform)?.scheduledAt !== at) return;
        // A post's time is no part of any platform rule: the findings the core read stay the card's.
        set({ cardId, updatedAt: card.updatedAt, scheduledAt: card.scheduledAt, posts: card.posts, findings: read.findings });
        const now = findCard(this.columns, cardId)?.card;
        if (now) this.columns = replaceCard(this.columns, { ...now, updatedAt: card.updatedAt });
      },
      (e) => {
        if (isQueued(e)) {
          noteQueued();
          this.say(`${what} is rescheduled here and will change on the service when it answers.`);
          return;
        }
        this.actionError = toIpcError(e);
        if (this.undo === mine) this.undo = null;
        set(read);
        this.say(`${what} could not be rescheduled; it is back at ${post.scheduledAt ? formatScheduled(post.scheduledAt) : "the card's time"}.`);
      },
    );
  }

  keyMove(card: CardSummary, m: KeyMove, from: "open" | "handle" = "handle") {
    const req = keyboardRequest(this.columns, this.stageOrder, card.id, m);
    if (req) this.move(req, { focus: from });
  }

  canKeyMove(cardId: string, m: KeyMove): boolean {
    return keyboardRequest(this.columns, this.stageOrder, cardId, m) !== null;
  }
}
