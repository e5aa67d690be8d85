// The planner's calls (docs/ipc.md "Planner (issue 4)") as the board makes them: `api`'s typed wrappers,
// with optional args left out when empty, plus the platforms and their labels.
import type { BoardLoadArgs, CalendarWindow, CardPosts, CardStamp, StageUpdateInput } from "../bindings";
import { api, call } from "../shared/backend";
import { PLATFORMS, PLATFORM_NAMES } from "../bindings/valueLists";

/** The filters `board_load` applies in the core (empty ones are left out of the args). */
export type BoardFilters = { archived?: boolean; search?: string; platform?: string; tag?: string };

/** The service's platforms, generated from api-types' `PLATFORMS`. */
export { PLATFORMS };

/** Each platform's name, from api-types' `PLATFORM_NAMES`: the one table `cdesk --human` reads too. */
export const PLATFORM_LABELS: Readonly<Record<string, string>> = PLATFORM_NAMES;

export const platformLabel = (p: string) => PLATFORM_LABELS[p] ?? p;

/** Each platform's colour on the calendar (a new platform in `PLATFORMS` fails the type check here):
 *  eight hues told apart from one another and seen on a light and a dark surface alike (no near-black:
 *  TikTok, X and General were all but one colour). */
export const PLATFORM_COLORS: Record<(typeof PLATFORMS)[number], string> = {
  youtube: "#e0362c", instagram: "#c13584", tiktok: "#11a8b4", facebook: "#1877f2", linkedin: "#5a6fd6",
  x: "#8a94a6", threads: "#9b59f0", general: "#2f9e5b",
};
export const platformColor = (p: string | null | undefined) => (p && (PLATFORM_COLORS as Record<string, string>)[p]) || "#64748b";

/** `board_load`'s args: the space and only the filters that narrow something. */
export function boardArgs(spaceId: string, f: BoardFilters = {}): BoardLoadArgs {
  const args: BoardLoadArgs = { spaceId };
  if (f.archived) args.archived = true;
  const search = f.search?.trim();
  if (search) args.search = search;
  if (f.platform) args.platform = f.platform;
  if (f.tag) args.tag = f.tag;
  return args;
}

export const plannerApi = {
  /** `firstPage`: each stage's first page at once (the board shows at once); then the whole board. */
  boardLoad: (spaceId: string, filters: BoardFilters = {}, firstPage = false) =>
    api.boardLoad(firstPage ? { ...boardArgs(spaceId, filters), firstPage: true } : boardArgs(spaceId, filters)),
  spacesList: (archived = false) => api.spacesList(archived),
  spaceCreate: api.spaceCreate,
  spaceRename: api.spaceRename,
  spaceArchive: api.spaceArchive,
  stageCreate: (spaceId: string, name: string, color?: string) => api.stageCreate(color ? { spaceId, name, color } : { spaceId, name }),
  stageUpdate: (spaceId: string, stageId: string, change: Omit<StageUpdateInput, "spaceId" | "stageId">) =>
    api.stageUpdate({ spaceId, stageId, ...change }),
  stageDelete: (spaceId: string, stageId: string, targetStageId?: string) =>
    api.stageDelete(targetStageId ? { spaceId, stageId, targetStageId } : { spaceId, stageId }),
  /** One card with everything it starts with (`card_create`, the catalogue's input): one request, so a card
   *  is never left half made (posts or a time missing) when the service stops answering between two. */
  cardCreate: api.cardCreate,
  cardMove: api.cardMove,
  /** The editor's card write (`card_update`): kept by the core's outbox when the service does not answer. */
  cardUpdate: api.cardUpdate,
  cardArchive: api.cardArchive,
  /** The posts of the calendar's cards (read once per `updatedAt` by the core). */
  calendarPosts: (cards: CardStamp[]) => call<CardPosts[]>("calendar_posts", { cards }),
  /** The posts of the visible weeks `[from, to)`, every one at its own time however far from its card's
   *  (`calendar_window`: the core lists the space's cards with the board's filters and reads those with
   *  posts, at most 500 new reads a call; call again with `continued` while `unread` is not 0: the core
   *  then uses the listing it made rather than listing the space again). */
  calendarWindow: (spaceId: string, from: string, to: string, filters: BoardFilters = {}, continued = false) =>
    call<CalendarWindow>("calendar_window", { ...boardArgs(spaceId, filters), from, to, ...(continued ? { continued: true } : {}) }),
  tagsList: api.tagsList,
};
