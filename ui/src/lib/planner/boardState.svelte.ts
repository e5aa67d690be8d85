// The planner board's state and what changes it: the profile's spaces, the chosen space's stages and
// cards, the filters, and every action (load, move, archive, undo, stages, spaces). Moves apply locally
// at once, then ask the core; a refusal puts the card back and says why. `Board.svelte` only shows this
// and keeps what belongs to the view (menus, dialogs, hints, focus).
import { tick } from "svelte";
import type { Board, CardPosts, CardSummary, IpcError, PostInput, Space, Stage, Tag } from "../bindings";
import { postInputFromPost } from "./editor/cardRules";
import { toIpcError } from "../shared/backend";
import { isQueued, noteQueued } from "../drafts/drafts.svelte";
import {
  announceMove, applyMove, buildColumns, cardLabel, findCard, formatScheduled, insertCard, inverseMove, keyboardRequest, matchesFilters,
  mergeColumn, moveStage, positionOf, removeCard, replaceCard, sortStages,
  type Columns, type KeyMove, type MoveRequest, type Position,
} from "./boardLogic";
import { plannerApi, platformLabel } from "./plannerApi";
import { recalledSpace, rememberSpace } from "./lastSpace";

/** What a board action answers when the core kept it offline (`queued`). */
const QUEUED = Symbol("queued");

export type Undo =
  | { kind: "move"; cardId: string; title: string; from: Position }
  | { kind: "archive"; card: CardSummary; from: Position }
  /** A card's time changed on the calendar: `from` is its time before (null: it had none); with
   *  `platform`, that post's own time. */
  | { kind: "schedule"; cardId: string; title: string; from: string | null; platform?: string };

/** What the state asks of the view: focus a card (after it is on screen), and say when a board shows. */
export interface BoardView {
  focusCard(cardId: string, which?: "open" | "handle"): void;
  /** A board is on screen (the first time: the app may report it ready; the editor may be fetched). */
  boardShown(first: boolean): void;
}

/** Performance marks for the planner benchmark (scripts/bench_planner.sh); only the latest of each name
 *  is kept. `markRendered`: once the change is on screen (Svelte's update, then the next frame). */
export function mark(name: string) {
  if (typeof performance === "undefined" || typeof performance.mark !== "function") return;
  performance.clearMarks(name);
  performance.mark(name);
}
function markRendered(name: string) {
  if (typeof requestAnimationFrame !== "function") return;
  tick().then(() => requestAnimationFrame(() => setTimeout(() => mark(name))));
}

export class BoardState {
  spaces = $state<Space[]>([]);
  archivedSpaces = $state<Space[]>([]);
  showArchivedSpaces = $state(false);
  spaceId = $state<string | null>(null);
  stages = $state.raw<Stage[]>([]);
  columns = $state.raw<Columns>({});
  total = $state(0);
  /** Each stage's card count on the service (a first-page board holds fewer tiles than that). */
  stageTotals = $state.raw<Record<string, number>>({});
  /** The rest of a big board is loading behind the first pages. */
  restLoading = $state(false);
  tags = $state<Tag[]>([]);

  search = $state("");
  platform = $state("");
  tag = $state("");
  archivedView = $state(false);

  /** A failure that leaves nothing to show (spaces or the board did not load). */
  loadError = $state<IpcError | null>(null);
  /** A failure of one action; the board stays. */
  actionError = $state<IpcError | null>(null);
  loading = $state(true);
  boardLoading = $state(false);
  busy = $state(false);
  liveText = $state("");
  undo = $state.raw<Undo | null>(null);

  readonly stageOrder = $derived(this.stages.map((s) => s.id));
  readonly cardCount = $derived(Object.values(this.columns).reduce((n, c) => n + c.length, 0));
  readonly hasFilters = $derived(!!(this.search.trim() || this.platform || this.tag));

  /** Moves, archives and new cards made here: a whole-board answer older than one is asked again. */
  private changes = 0;
  /** Answers for an older profile, space or filter must not overwrite newer ones. */
  private request = 0;
  private reported = false;
  /** The latest move of each card: an older answer must not undo or overwrite a newer move's effect. */
  private latestMove = new Map<string, number>();
  private moveSeq = 0;
  private searchTimer: ReturnType<typeof setTimeout> | undefined;

  constructor(private view: BoardView) {}

  filters() {
    return { search: this.search, platform: this.platform, tag: this.tag, archived: this.archivedView };
  }

  say(text: string) {
    this.liveText = text;
  }

  // ---- loading ----

  async loadSpaces() {
    const mine = ++this.request;
    this.loading = true;
    this.loadError = null;
    // The first Intl.DateTimeFormat costs ~20 ms: pay it while the request is out, not in the first render.
    formatScheduled("2000-01-01T00:00:00Z");
    // The space shown last is asked for at once, beside the spaces list (one round trip less at start).
    const guess = this.spaceId ?? recalledSpace();
    let early: Promise<Board | null> | null = null;
    if (guess) {
      mark("planner:board-requested");
      early = plannerApi.boardLoad(guess, this.filters(), true).catch(() => null);
    }
    try {
      const list = await plannerApi.spacesList(this.showArchivedSpaces);
      if (mine !== this.request) return;
      this.spaces = list.filter((s) => !s.archivedAt);
      this.archivedSpaces = list.filter((s) => !!s.archivedAt);
      const spaces = this.spaces;
      this.spaceId = spaces.find((s) => s.id === this.spaceId)?.id ?? spaces.find((s) => s.id === guess)?.id ?? spaces[0]?.id ?? null;
      await this.loadBoard(mine, this.spaceId === guess ? early : null);
    } catch (e) {
      if (mine !== this.request) return;
      this.loadError = toIpcError(e);
      this.spaces = [];
      this.stages = [];
      this.columns = {};
    } finally {
      if (mine === this.request) this.loading = false;
    }
    if (!this.reported && !this.loadError && mine === this.request) {
      this.reported = true;
      await tick();
      this.view.boardShown(true);
    }
  }

  /** `early`: the first-page board already asked for this space (null when that request failed). */
  async loadBoard(mine = ++this.request, early: Promise<Board | null> | null = null) {
    this.undo = null;
    const space = this.spaceId;
    if (!space) { this.stages = []; this.columns = {}; this.total = 0; this.stageTotals = {}; return; }
    rememberSpace(space);
    // Made offline: nothing of it is on the service yet (its board is read once it is made: `adoptIds`).
    if (space.startsWith("local-")) { this.stages = []; this.columns = {}; this.total = 0; this.stageTotals = {}; return; }
    this.boardLoading = true;
    if (!early) mark("planner:board-requested");
    let complete = true;
    try {
      // Each stage's first page first: the board is on screen before a big space's every page is in.
      const board = (early && (await early)) || (await plannerApi.boardLoad(space, this.filters(), true));
      if (mine !== this.request) return;
      mark("planner:board-loaded");
      this.showBoard(board);
      markRendered("planner:board-rendered");
      this.view.boardShown(false);
      complete = board.complete !== false;
    } finally {
      if (mine === this.request) this.boardLoading = false;
    }
    if (!complete) void this.loadRest(mine, space);
  }

  private showBoard(board: Board) {
    this.stages = sortStages(board.stages);
    this.columns = buildColumns(this.stages, board.cards);
    this.total = board.total;
    this.stageTotals = board.stageTotals ?? {};
  }

  /** The whole board behind the first pages; asked again when a change here may be missing from it. */
  private async loadRest(mine: number, space: string) {
    this.restLoading = true;
    try {
      for (let attempt = 0; attempt < 3; attempt++) {
        const before = this.changes;
        const board = await plannerApi.boardLoad(space, this.filters());
        if (mine !== this.request) return;
        if (before === this.changes) { this.showBoard(board); markRendered("planner:board-complete"); return; }
      }
    } catch (e) {
      if (mine === this.request) this.actionError = toIpcError(e);
    } finally {
      if (mine === this.request) this.restLoading = false;
    }
  }

  reloadBoard = async () => {
    const mine = ++this.request;
    this.loadError = null;
    try {
      await this.loadBoard(mine);
    } catch (e) {
      if (mine === this.request) this.loadError = toIpcError(e);
    }
  };

  async loadTags() {
    try { this.tags = await plannerApi.tagsList(); } catch { this.tags = []; }
  }

  /** The search box: the board is asked again once typing pauses. */
  searchChanged() {
    clearTimeout(this.searchTimer);
    this.searchTimer = setTimeout(this.reloadBoard, 250);
  }

  dispose() {
    clearTimeout(this.searchTimer);
  }

  // ---- moves ----

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

  /** The calendar's posts (`calendar_posts`) by card id: only the cards near the visible weeks. */
  calendarPosts = $state.raw<Map<string, CardPosts>>(new Map());

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
        set({ cardId, updatedAt: card.updatedAt, scheduledAt: card.scheduledAt, posts: card.posts });
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

  // ---- archive and undo ----

  async archiveCard(card: CardSummary) {
    this.changes++;
    const from = positionOf(this.columns, card.id);
    if (!from) return;
    const col = this.columns[from.stageId];
    const neighbour = from.beforeCardId ?? col[col.findIndex((c) => c.id === card.id) - 1]?.id;
    this.columns = removeCard(this.columns, card.id);
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
      this.actionError = toIpcError(e);
    }
  }

  /** One request of a card, stage or space action: the board is busy meanwhile, a refusal is shown.
   *  `keptOk`: a change the core kept offline (`queued`) answers `QUEUED` (the caller shows it). */
  private async busyAction<T>(run: () => Promise<T>, keptOk?: false): Promise<T | undefined>;
  private async busyAction<T>(run: () => Promise<T>, keptOk: true): Promise<T | typeof QUEUED | undefined>;
  private async busyAction<T>(run: () => Promise<T>, keptOk = false): Promise<T | typeof QUEUED | undefined> {
    this.busy = true;
    this.actionError = null;
    try {
      return await run();
    } catch (e) {
      if (keptOk && isQueued(e)) {
        noteQueued();
        return QUEUED;
      }
      this.actionError = toIpcError(e);
      return undefined;
    } finally {
      this.busy = false;
    }
  }

  // ---- cards ----

  async createCard(stage: Stage, title: string, cardPlatform: string): Promise<boolean> {
    this.changes++;
    const space = this.spaceId;
    if (!space) return false;
    const card = await this.busyAction(() => plannerApi.cardCreate(space, stage.id, title, cardPlatform));
    if (!card) return false;
    if (matchesFilters(card, this.filters()) && this.columns[stage.id]) {
      this.columns = { ...this.columns, [stage.id]: [...this.columns[stage.id], { ...card, stageId: stage.id }] };
      this.say(`Card “${cardLabel(card.title)}” added to ${stage.name}.`);
    } else {
      this.say(`Card “${cardLabel(card.title)}” added to ${stage.name}; the filters hide it.`);
    }
    return true;
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

  // ---- stages ----

  private replaceStage(stage: Stage) {
    this.stages = this.stages.map((s) => (s.id === stage.id ? stage : s));
  }

  async stageChange(stage: Stage, change: { name?: string; color?: string }): Promise<boolean> {
    const space = this.spaceId;
    if (!space) return false;
    // `respaced` (the service renumbered every stage) needs nothing here: the local order is the
    // board's, and any later stage list comes fresh from the core.
    const r = await this.busyAction(() => plannerApi.stageUpdate(space, stage.id, change), true);
    if (r === QUEUED) {
      // Kept offline: the board shows the change now; the service gets it when it answers.
      this.replaceStage({ ...stage, ...(change.name ? { name: change.name.trim() } : {}), ...(change.color ? { color: change.color } : {}) });
      this.say(`Stage ${stage.name} changed here; the service gets it when it answers.`);
      return true;
    }
    if (!r) return false;
    this.replaceStage(r.stage);
    return true;
  }

  /** Moves a stage one place left or right; `focus` runs once the new order is on screen. */
  async shiftStage(stage: Stage, dir: -1 | 1, focus: () => void) {
    const space = this.spaceId;
    if (!space) return;
    const r = moveStage(this.stages, stage.id, dir);
    if (!r) return;
    const before = this.stages;
    this.stages = r.stages;
    this.actionError = null;
    this.say(`Stage ${stage.name} moved to position ${r.stages.findIndex((s) => s.id === stage.id) + 1} of ${r.stages.length}.`);
    tick().then(focus);
    try {
      const u = await plannerApi.stageUpdate(space, stage.id, r.change);
      this.replaceStage(u.stage);
    } catch (e) {
      if (isQueued(e)) {
        noteQueued();
        return;
      }
      this.stages = before;
      this.actionError = toIpcError(e);
    }
  }

  async deleteStage(stage: Stage, targetStageId: string): Promise<void> {
    const space = this.spaceId;
    if (!space) return;
    const r = await this.busyAction(() => plannerApi.stageDelete(space, stage.id, targetStageId), true);
    if (!r) return;
    if (r === QUEUED) {
      // Kept offline: the board shows it deleted, its cards in the target stage.
      this.stages = this.stages.filter((s) => s.id !== stage.id);
      this.columns = mergeColumn(this.columns, stage.id, targetStageId);
      this.say(`Stage ${stage.name} deleted here; the service gets it when it answers.`);
      return;
    }
    this.stages = sortStages(r.stages);
    let columns = mergeColumn(this.columns, stage.id, targetStageId);
    for (const s of this.stages) if (!columns[s.id]) columns = { ...columns, [s.id]: [] };
    this.columns = columns;
    const target = this.stages.find((s) => s.id === targetStageId);
    this.say(`Stage ${stage.name} deleted; ${r.moved_cards} ${r.moved_cards === 1 ? "card" : "cards"} moved to ${target?.name ?? "another stage"}.`);
  }

  async addStage(name: string): Promise<boolean> {
    const space = this.spaceId;
    if (!name || !space) return false;
    const stage = await this.busyAction(() => plannerApi.stageCreate(space, name));
    if (!stage) return false;
    // Made offline: it has a local id until the service answers.
    if (stage.id.startsWith("local-")) noteQueued();
    this.stages = [...this.stages, stage];
    this.columns = { ...this.columns, [stage.id]: [] };
    this.say(`Stage ${stage.name} added.`);
    return true;
  }

  // ---- spaces ----

  pickSpace(id: string) {
    if (id === this.spaceId) return;
    this.spaceId = id;
    void this.reloadBoard();
  }

  async createSpace(name: string) {
    const space = await this.busyAction(() => plannerApi.spaceCreate(name));
    if (!space) return false;
    if (space.id.startsWith("local-")) noteQueued();
    this.spaces = [...this.spaces, space];
    this.say(`Space ${space.name} created.`);
    this.pickSpace(space.id);
    return true;
  }

  async renameSpace(space: Space, name: string) {
    const answer = await this.busyAction(() => plannerApi.spaceRename(space.id, name), true);
    if (!answer) return false;
    const renamed = answer === QUEUED ? { ...space, name: name.trim() } : answer;
    this.spaces = this.spaces.map((s) => (s.id === space.id ? { ...s, ...renamed } : s));
    this.say(`Space renamed to ${renamed.name}.`);
    return true;
  }

  async archiveSpace(space: Space): Promise<void> {
    const ok = await this.busyAction(() => plannerApi.spaceArchive(space.id, true), true);
    if (!ok) return;
    this.spaces = this.spaces.filter((s) => s.id !== space.id);
    this.archivedSpaces = [...this.archivedSpaces, { ...space, archivedAt: new Date().toISOString() }];
    this.say(`Space ${space.name} archived.`);
    if (this.spaceId === space.id) {
      this.spaceId = this.spaces[0]?.id ?? null;
      void this.reloadBoard();
    }
  }

  async restoreSpace(space: Space) {
    const ok = await this.busyAction(() => plannerApi.spaceArchive(space.id, false), true);
    if (!ok) return;
    this.archivedSpaces = this.archivedSpaces.filter((s) => s.id !== space.id);
    this.spaces = [...this.spaces, { ...space, archivedAt: null }];
    this.say(`Space ${space.name} restored.`);
    if (!this.spaceId) this.pickSpace(space.id);
  }

  /** Stages and spaces made offline that the service has made now (`DraftsStatus.made`: local id → real
   *  id): the space tabs, the space shown, the one remembered on this computer and the board's stages take
   *  the real id. Answers whether anything here changed. */
  adoptIds(made: Record<string, string> | undefined): boolean {
    if (!made) return false;
    const has = (id: string | null | undefined): id is string => !!id && Object.hasOwn(made, id);
    let changed = false;
    const swap = <T extends { id: string }>(list: T[]): T[] => {
      if (!list.some((x) => has(x.id))) return list;
      changed = true;
      const seen = new Set<string>();
      return list.map((x) => (has(x.id) ? { ...x, id: made[x.id] } : x)).filter((x) => !seen.has(x.id) && !!seen.add(x.id));
    };
    this.spaces = swap(this.spaces);
    this.archivedSpaces = swap(this.archivedSpaces);
    this.stages = swap(this.stages);
    if (Object.keys(this.columns).some(has)) {
      changed = true;
      this.columns = Object.fromEntries(Object.entries(this.columns).map(([k, v]) => [has(k) ? made[k] : k, v]));
    }
    if (has(this.spaceId)) {
      this.spaceId = made[this.spaceId];
      changed = true;
    }
    const remembered = recalledSpace();
    if (has(remembered)) rememberSpace(made[remembered]);
    return changed;
  }

  toggleArchivedSpaces(show: boolean) {
    this.showArchivedSpaces = show;
    if (show) {
      plannerApi.spacesList(true).then(
        (list) => { this.archivedSpaces = list.filter((s) => !!s.archivedAt); },
        (e) => { this.actionError = toIpcError(e); },
      );
    }
  }
}
