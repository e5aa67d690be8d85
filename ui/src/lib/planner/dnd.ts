// Drag and drop with Pragmatic drag and drop (native HTML5 events underneath, so a Playwright
// dragAndDrop or a dispatched dragstart/dragenter/dragover/drop works too). Tiles are draggable and
// drop targets with a closest edge; columns are drop targets and auto-scroll. What a drop means is
// boardLogic's dropRequest; this module only translates Pragmatic's data.
import type { Attachment } from "svelte/attachments";
import { combine } from "@atlaskit/pragmatic-drag-and-drop/combine";
import { draggable, dropTargetForElements, monitorForElements } from "@atlaskit/pragmatic-drag-and-drop/element/adapter";
import { attachClosestEdge, extractClosestEdge } from "@atlaskit/pragmatic-drag-and-drop-hitbox/closest-edge";
import { autoScrollForElements } from "@atlaskit/pragmatic-drag-and-drop-auto-scroll/element";
import type { DropTarget } from "./boardLogic";

type Data = Record<string | symbol, unknown>;
const isCard = (data: Data) => data.type === "card" && typeof data.cardId === "string";

/** The innermost drop target under the pointer as the board's DropTarget. */
export function toDropTarget(targets: readonly { data: Data }[]): DropTarget | null {
  const t = targets[0];
  if (!t) return null;
  const d = t.data;
  if (isCard(d) && typeof d.stageId === "string") {
    const edge = extractClosestEdge(d);
    return { kind: "card", stageId: d.stageId, cardId: d.cardId as string, edge: edge === "top" || edge === "bottom" ? edge : null };
  }
  if (d.type === "column" && typeof d.stageId === "string") return { kind: "column", stageId: d.stageId };
  return null;
}

/** A tile: draggable, and a drop target that knows which half (top/bottom) the pointer is in. */
export function tileDnd(cardId: string, stageId: string | null): Attachment<HTMLElement> {
  return (element) => combine(
    draggable({
      element,
      getInitialData: () => ({ type: "card", cardId, stageId }),
      // The source tile dims while it is dragged (an attribute: no re-render).
      onDragStart: () => element.setAttribute("data-dragging", ""),
      onDrop: () => element.removeAttribute("data-dragging"),
    }),
    dropTargetForElements({
      element,
      canDrop: ({ source }) => isCard(source.data),
      getData: ({ input }) => attachClosestEdge({ type: "card", cardId, stageId }, { input, element, allowedEdges: ["top", "bottom"] }),
      getIsSticky: () => true,
    }),
  );
}

/** A column: a drop target (its end), and its card list scrolls when a drag nears its edges. */
export function columnDnd(stageId: string, scroller: HTMLElement): Attachment<HTMLElement> {
  return (element) => combine(
    dropTargetForElements({ element, canDrop: ({ source }) => isCard(source.data), getData: () => ({ type: "column", stageId }) }),
    autoScrollForElements({ element: scroller, canScroll: ({ source }) => isCard(source.data) }),
  );
}

/** The board scrolls sideways when a drag nears its left or right edge. */
export const boardAutoScroll: Attachment<HTMLElement> = (element) =>
  autoScrollForElements({ element, canScroll: ({ source }) => isCard(source.data) });

/** Watches card drags: where they are over (for the indicator) and where they drop. */
export function monitorCards(handlers: {
  onover: (cardId: string, target: DropTarget | null) => void;
  ondrop: (cardId: string, target: DropTarget | null) => void;
}): () => void {
  const id = (data: Data) => data.cardId as string;
  return monitorForElements({
    canMonitor: ({ source }) => isCard(source.data),
    onDragStart: ({ source, location }) => handlers.onover(id(source.data), toDropTarget(location.current.dropTargets)),
    onDrag: ({ source, location }) => handlers.onover(id(source.data), toDropTarget(location.current.dropTargets)),
    onDropTargetChange: ({ source, location }) => handlers.onover(id(source.data), toDropTarget(location.current.dropTargets)),
    onDrop: ({ source, location }) => handlers.ondrop(id(source.data), toDropTarget(location.current.dropTargets)),
  });
}
