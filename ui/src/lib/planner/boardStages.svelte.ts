// The planner board's state, part five: stages. Rename and recolour, move left or right, delete (its
// cards to another stage) and add; a change the core kept offline shows at once.
import { tick } from "svelte";
import type { Stage } from "../bindings";
import { toIpcError } from "../shared/backend";
import { isQueued, noteQueued } from "../drafts/drafts.svelte";
import { mergeColumn, moveStage, sortStages } from "./boardLogic";
import { plannerApi } from "./plannerApi";
import { QUEUED } from "./boardCore.svelte";
import { BoardCards } from "./boardCards.svelte";

export class BoardStages extends BoardCards {
  protected replaceStage(stage: Stage) {
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
}
