// Dragging a brand-kit section onto another section (before or after it, by the half the pointer is in)
// or onto a tab (its end). The same Pragmatic drag and drop as the planner's board (planner/dnd.ts);
// that module's helpers carry cards and stages, so this one carries section keys and tabs. What a drop
// means (which tab, which index) is decided here; the page calls kit.move with it.
import type { Attachment } from "svelte/attachments";
import { combine } from "@atlaskit/pragmatic-drag-and-drop/combine";
import { draggable, dropTargetForElements, monitorForElements } from "@atlaskit/pragmatic-drag-and-drop/element/adapter";
import { attachClosestEdge, extractClosestEdge } from "@atlaskit/pragmatic-drag-and-drop-hitbox/closest-edge";

type Data = Record<string | symbol, unknown>;
const isSection = (d: Data) => d.type === "bk-section" && typeof d.key === "string";

/** Where a dragged section lands: a section's edge, or a tab's end. */
export type SectionDrop = { tab: string; beside: string; edge: "top" | "bottom" } | { tab: string; beside: null; edge: null };

export function toSectionDrop(targets: readonly { data: Data }[]): SectionDrop | null {
  const d = targets[0]?.data;
  if (!d) return null;
  if (isSection(d) && typeof d.tab === "string") {
    const edge = extractClosestEdge(d);
    return { tab: d.tab, beside: d.key as string, edge: edge === "bottom" ? "bottom" : "top" };
  }
  if (d.type === "bk-tab" && typeof d.tab === "string") return { tab: d.tab, beside: null, edge: null };
  return null;
}

/** The index in `tab` (counted without the moved section) a drop stands for. */
export function dropIndex(sections: readonly { key: string; tab: string }[], key: string, drop: SectionDrop): number {
  const others = sections.filter((s) => s.tab === drop.tab && s.key !== key);
  if (drop.beside === null) return others.length;
  const i = others.findIndex((s) => s.key === drop.beside);
  if (i < 0) return others.length;
  return drop.edge === "bottom" ? i + 1 : i;
}

/** A section card: dragged by its handle (`[data-drag-handle]`), and a drop target with a closest edge. */
export function sectionDnd(key: string, tab: string): Attachment<HTMLElement> {
  return (element) => {
    const handle = element.querySelector<HTMLElement>("[data-drag-handle]") ?? undefined;
    return combine(
      draggable({
        element,
        dragHandle: handle,
        getInitialData: () => ({ type: "bk-section", key, tab }),
        onDragStart: () => element.setAttribute("data-dragging", ""),
        onDrop: () => element.removeAttribute("data-dragging"),
      }),
      dropTargetForElements({
        element,
        canDrop: ({ source }) => isSection(source.data) && source.data.key !== key,
        getData: ({ input }) => attachClosestEdge({ type: "bk-section", key, tab }, { input, element, allowedEdges: ["top", "bottom"] }),
      }),
    );
  };
}

/** A tab button: dropping a section on it moves the section to that tab's end. */
export function tabDrop(tab: string): Attachment<HTMLElement> {
  return (element) => dropTargetForElements({ element, canDrop: ({ source }) => isSection(source.data), getData: () => ({ type: "bk-tab", tab }) });
}

/** Watches section drags and reports where they drop. */
export function monitorSections(ondrop: (key: string, drop: SectionDrop | null) => void): () => void {
  return monitorForElements({
    canMonitor: ({ source }) => isSection(source.data),
    onDrop: ({ source, location }) => ondrop(source.data.key as string, toSectionDrop(location.current.dropTargets)),
  });
}
