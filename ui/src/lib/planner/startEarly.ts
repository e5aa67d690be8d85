// What the planner's first paint waits on, asked by boot.ts before the app's script is in: the spaces
// and the first page of the space shown last, with exactly the arguments BoardState.loadSpaces asks
// them with at start (backend.ts hands these answers to those calls; Board.test.ts checks they meet).
import { askEarly } from "../shared/backend";
import { viewOf } from "../shared/views";
import { recalledSpace } from "./lastSpace";
import { boardArgs } from "./plannerApi";

/** Asks them when `hash` opens the planner; answers whether it did. */
export function askPlannerEarly(hash: string): boolean {
  if (viewOf(hash) !== "planner") return false;
  const space = recalledSpace();
  if (space) {
    // No filters yet at start; each stage's first page.
    askEarly("board_load", { ...boardArgs(space), firstPage: true });
    // The planner benchmark's mark (ui/bench/planner.mjs): when the board was asked for.
    performance.mark("planner:board-asked-early");
  }
  askEarly("spaces_list", {});
  return true;
}
