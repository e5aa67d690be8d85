// The calendar's drag and drop (Pragmatic drag and drop, native HTML5 events underneath, like the
// board's dnd.ts): items and unscheduled cards are draggable; day cells (month) and time slots (week)
// are drop targets. Its own data type, so the board's card monitor never sees a calendar drag.
import type { Attachment } from "svelte/attachments";
import { draggable, dropTargetForElements, monitorForElements } from "@atlaskit/pragmatic-drag-and-drop/element/adapter";
import type { Target } from "./placement";

type Data = Record<string | symbol, unknown>;
/** What is dragged: a card by id, with the instant it sits at (null: unscheduled); `platform` when it
 *  is a post with its own time (that post alone moves). */
export type Carried = { cardId: string; at: number | null; platform?: string };

const isCarried = (d: Data) => d.type === "calendar-item" && typeof d.cardId === "string";

export function itemDnd(carried: Carried): Attachment<HTMLElement> {
  return (element) => draggable({
    element,
    getInitialData: () => ({ type: "calendar-item", ...carried }),
    onDragStart: () => element.setAttribute("data-dragging", ""),
    onDrop: () => element.removeAttribute("data-dragging"),
  });
}

/** A day cell (no `minute`) or a week slot. */
export function cellDnd(target: Target): Attachment<HTMLElement> {
  return (element) => dropTargetForElements({
    element,
    canDrop: ({ source }) => isCarried(source.data),
    getData: () => ({ type: "calendar-cell", ...target }),
    onDragEnter: () => element.setAttribute("data-over", ""),
    onDragLeave: () => element.removeAttribute("data-over"),
    onDrop: () => element.removeAttribute("data-over"),
  });
}

export function toTarget(targets: readonly { data: Data }[]): Target | null {
  const d = targets[0]?.data;
  if (!d || d.type !== "calendar-cell" || typeof d.day !== "string") return null;
  return typeof d.minute === "number" ? { day: d.day, minute: d.minute } : { day: d.day };
}

export function monitorCalendar(ondrop: (carried: Carried, target: Target | null) => void): () => void {
  return monitorForElements({
    canMonitor: ({ source }) => isCarried(source.data),
    onDrop: ({ source, location }) => ondrop(
      {
        cardId: source.data.cardId as string, at: typeof source.data.at === "number" ? source.data.at : null,
        ...(typeof source.data.platform === "string" ? { platform: source.data.platform } : {}),
      },
      toTarget(location.current.dropTargets),
    ),
  });
}
