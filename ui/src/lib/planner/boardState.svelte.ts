// The planner board's state, the class the view uses (`new BoardState(view)`), and its last part:
// spaces (pick, create, rename, archive, restore, and the ids of those made offline). The state is
// built in layers, one concern each: boardCore (what the board holds, shared helpers), boardLoad
// (loading), boardMoves (moves and reschedules), boardCards (archive, create, undo), boardStages
// (stages), then this.
import type { Space } from "../bindings";
import { toIpcError } from "../shared/backend";
import { noteQueued } from "../drafts/drafts.svelte";
import { plannerApi } from "./plannerApi";
import { recalledSpace, rememberSpace } from "./lastSpace";
import { QUEUED } from "./boardCore.svelte";
import { BoardStages } from "./boardStages.svelte";

export { mark, type BoardView, type Undo } from "./boardCore.svelte";

export class BoardState extends BoardStages {
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
