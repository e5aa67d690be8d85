// The app's four top-level views and which one a location hash names (plain: boot.ts reads it before
// Svelte is loaded; router.svelte.ts keeps the current one as state).
export type View = "planner" | "studio" | "brand-kit" | "settings";
export const VIEWS: { id: View; label: string }[] = [
  { id: "planner", label: "Planner" },
  { id: "studio", label: "Studio" },
  { id: "brand-kit", label: "Brand kit" },
  { id: "settings", label: "Settings" },
];

/** The view `hash` ("#/studio") names; the planner for anything else. */
export function viewOf(hash: string): View {
  const h = hash.replace(/^#\/?/, "");
  return VIEWS.find((v) => v.id === h)?.id ?? "planner";
}
