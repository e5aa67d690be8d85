// The planner board's state, the first of its parts: what the board holds (spaces, stages, cards,
// filters, errors, the undo offer) and the helpers every action shares. Each later part adds one
// concern on top: loading (boardLoad), moves and undo (boardMoves), stages (boardStages), spaces
// (boardState, the class the view uses). `Board.svelte` only shows this and keeps what belongs to the
// view (menus, dialogs, hints, focus).
import { tick } from "svelte";
import type { CardPosts, CardSummary, IpcError, Space, Stage, Tag } from "../bindings";
import { toIpcError } from "../shared/backend";
import { isQueued, noteQueued } from "../drafts/drafts.svelte";
import type { Columns, Position } from "./boardLogic";

/** What a board action answers when the core kept it offline (`queued`). */
export const QUEUED = Symbol("queued");

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
export function markRendered(name: string) {
  if (typeof requestAnimationFrame !== "function") return;
  tick().then(() => requestAnimationFrame(() => setTimeout(() => mark(name))));
}

export class BoardCore {
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
  /** The calendar's posts (`calendar_posts`) by card id: only the cards near the visible weeks. */
  calendarPosts = $state.raw<Map<string, CardPosts>>(new Map());

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
  protected changes = 0;
  /** Answers for an older profile, space or filter must not overwrite newer ones. */
  protected request = 0;

  constructor(protected view: BoardView) {}

  filters() {
    return { search: this.search, platform: this.platform, tag: this.tag, archived: this.archivedView };
  }

  say(text: string) {
    this.liveText = text;
  }

  /** The space tab's card count follows a card made, archived or restored here (it went stale before). */
  protected countCards(delta: number, spaceId = this.spaceId) {
    this.spaces = this.spaces.map((s) => (s.id === spaceId && s.postCount != null ? { ...s, postCount: Math.max(0, s.postCount + delta) } : s));
  }

  /** The space tab's count, from a whole board just read (no filter, not the archived view): cards made or
   *  archived elsewhere (the CLI, an agent, another computer) count in the tab as on the board. */
  protected countIs(spaceId: string, total: number) {
    if (!this.spaces.some((s) => s.id === spaceId && s.postCount != null && s.postCount !== total)) return;
    this.spaces = this.spaces.map((s) => (s.id === spaceId && s.postCount != null ? { ...s, postCount: total } : s));
  }

  /** One request of a card, stage or space action: the board is busy meanwhile, a refusal is shown.
   *  `keptOk`: a change the core kept offline (`queued`) answers `QUEUED` (the caller shows it). */
  protected async busyAction<T>(run: () => Promise<T>, keptOk?: false): Promise<T | undefined>;
  protected async busyAction<T>(run: () => Promise<T>, keptOk: true): Promise<T | typeof QUEUED | undefined>;
  protected async busyAction<T>(run: () => Promise<T>, keptOk = false): Promise<T | typeof QUEUED | undefined> {
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
}
