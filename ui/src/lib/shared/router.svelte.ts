// Hash routing: four top-level views, keyboard-reachable links, the back button works.
import { viewOf } from "./views";
export { VIEWS, type View } from "./views";

export const route = $state({ view: viewOf(typeof window === "undefined" ? "" : window.location.hash) });

if (typeof window !== "undefined") {
  window.addEventListener("hashchange", () => (route.view = viewOf(window.location.hash)));
}
