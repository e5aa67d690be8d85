// Hash routing: four top-level views, keyboard-reachable links, the back button works.
export type View = "planner" | "studio" | "brand-kit" | "settings";
export const VIEWS: { id: View; label: string }[] = [
  { id: "planner", label: "Planner" },
  { id: "studio", label: "Studio" },
  { id: "brand-kit", label: "Brand kit" },
  { id: "settings", label: "Settings" },
];

function fromHash(): View {
  const h = window.location.hash.replace(/^#\/?/, "");
  return (VIEWS.find((v) => v.id === h)?.id ?? "planner") as View;
}

export const route = $state({ view: fromHash() });

if (typeof window !== "undefined") {
  window.addEventListener("hashchange", () => (route.view = fromHash()));
}
