import { expect, it } from "vitest";
import { attachClosestEdge } from "@atlaskit/pragmatic-drag-and-drop-hitbox/closest-edge";
import { toDropTarget } from "./dnd";

// A tile 100 px tall at the top of the page: the pointer's half picks the edge.
const element = { getBoundingClientRect: () => ({ top: 0, bottom: 100, left: 0, right: 200, width: 200, height: 100, x: 0, y: 0 }) } as unknown as Element;
const at = (clientY: number) => ({ clientX: 50, clientY, pageX: 50, pageY: clientY, altKey: false, button: 0, buttons: 1, ctrlKey: false, metaKey: false, shiftKey: false });
const tileData = (clientY: number) => attachClosestEdge({ type: "card", cardId: "c1", stageId: "a" }, { input: at(clientY), element, allowedEdges: ["top", "bottom"] });

it.each([
  ["the top half of a tile", [{ data: tileData(10) }], { kind: "card", stageId: "a", cardId: "c1", edge: "top" }],
  ["the bottom half of a tile", [{ data: tileData(90) }], { kind: "card", stageId: "a", cardId: "c1", edge: "bottom" }],
  ["a tile inside its column: the tile wins", [{ data: tileData(90) }, { data: { type: "column", stageId: "a" } }], { kind: "card", stageId: "a", cardId: "c1", edge: "bottom" }],
  ["a column", [{ data: { type: "column", stageId: "b" } }], { kind: "column", stageId: "b" }],
  ["nothing", [], null],
  ["something else", [{ data: { type: "file" } }], null],
])("%s", (_n, targets, expected) => {
  expect(toDropTarget(targets as { data: Record<string, unknown> }[])).toEqual(expected);
});
