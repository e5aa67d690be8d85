// The planner board's state, part two: loading. The spaces and the chosen space's board (its first
// pages at once, the rest behind), the tags for the filter, and the search box's pause.
import { tick } from "svelte";
import type { Board, CardSummary } from "../bindings";
import { toIpcError } from "../shared/backend";
import { buildColumns, formatScheduled, sortStages } from "./boardLogic";
import { plannerApi } from "./plannerApi";
import { recalledSpace, rememberSpace } from "./lastSpace";
import { BoardCore, mark, markRendered } from "./boardCore.svelte";

export class BoardLoad extends BoardCore {
  private reported = false;
  private searchTimer: ReturnType<typeof setTimeout> | undefined;

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
    const filters = this.filters();
    const whole = !filters.search.trim() && !filters.platform && !filters.tag && !filters.archived;
    try {
      // Each stage's first page first: the board is on screen before a big space's every page is in.
      const board = (early && (await early)) || (await plannerApi.boardLoad(space, filters, true));
      if (mine !== this.request) return;
      mark("planner:board-loaded");
      this.showBoard(board);
      if (whole) this.countIs(space, board.total);
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

  /** The search box: the board is asked again once typing pauses; an emptied box at once (nothing more
   *  is coming, and a pause would leave the last search's cards on screen under an empty box). */
  searchChanged() {
    clearTimeout(this.searchTimer);
    if (!this.search.trim()) void this.reloadBoard();
    else this.searchTimer = setTimeout(this.reloadBoard, 250);
  }

  // The tiles' preflight markers (issue 28 point 2): the findings of the cards on screen, read by the core
  // with their posts (`calendar_posts`: the one rules engine runs on each card it reads, and a card is read
  // again only when its `updatedAt` changed). Only tiles on screen ask (a column draws the rows in view), a
  // pause after the last change, at most 500 a call; the board itself never waits for them.
  private findingsTimer: ReturnType<typeof setTimeout> | undefined;
  private findingsWanted = new Map<string, CardSummary>();
  private findingsAsked = new Set<string>();

  wantFindings(cards: CardSummary[]) {
    for (const c of cards) {
      if (c.platforms.length === 0 || c.id.startsWith("local-")) continue;
      const key = `${c.id}@${c.updatedAt ?? ""}`;
      if (this.calendarPosts.get(c.id)?.updatedAt === c.updatedAt || this.findingsAsked.has(key)) continue;
      this.findingsWanted.set(c.id, c);
    }
    if (this.findingsWanted.size === 0) return;
    clearTimeout(this.findingsTimer);
    this.findingsTimer = setTimeout(() => void this.readFindings(), 120);
  }

  private async readFindings() {
    const want = [...this.findingsWanted.values()].slice(0, 500);
    for (const c of want) {
      this.findingsWanted.delete(c.id);
      this.findingsAsked.add(`${c.id}@${c.updatedAt ?? ""}`);
    }
    try {
      const got = await plannerApi.calendarPosts(want.map((c) => (c.updatedAt ? { id: c.id, updatedAt: c.updatedAt } : { id: c.id })));
      const next = new Map(this.calendarPosts);
      for (const p of got) next.set(p.cardId, p);
      this.calendarPosts = next;
    } catch {
      // No answer: no markers now; a tile shown again asks again.
      for (const c of want) this.findingsAsked.delete(`${c.id}@${c.updatedAt ?? ""}`);
    }
    if (this.findingsWanted.size > 0) this.findingsTimer = setTimeout(() => void this.readFindings(), 120);
  }

  dispose() {
    clearTimeout(this.searchTimer);
    clearTimeout(this.findingsTimer);
  }
}
