// The command palette's catalogue (Ctrl/Cmd+K): every screen and action a view offers, in one list
// the user types into. A view adds its own actions while it is on screen (`provideActions` in its
// `onMount`, whose cleanup takes them away again), so the palette never offers what is not there and
// each action is the view's own function, not a second copy of it.

export type PaletteAction = {
  /** Stable within its source (used as the option's key). */
  id: string;
  label: string;
  /** Where the action belongs ("Go to", "Planner", "Cards", "Account"…), shown beside the label. */
  group: string;
  /** The action's own shortcut, shown beside it (as the shortcut sheet writes keys). */
  keys?: string[];
  /** Further words that find it (a card's stage, a screen's other names). */
  keywords?: string;
  run: () => void | Promise<void>;
};

const sources = new Map<symbol, () => PaletteAction[]>();

/** Offers `get()`'s actions while the caller is on screen; returns the function that withdraws them. */
export function provideActions(get: () => PaletteAction[]): () => void {
  const key = Symbol();
  sources.set(key, get);
  return () => { sources.delete(key); };
}

/** Every action on offer now, in the order the sources were added (the frame's first). */
export function allActions(): PaletteAction[] {
  return [...sources.values()].flatMap((get) => get());
}

export const palette = $state({ open: false });

/** The actions `query` finds: each of its words appears in the label, the group or the keywords
 *  (case and accents aside). Labels that start with the query come first, then labels that hold it,
 *  then labels that hold each of its words, then the rest; otherwise the catalogue's order is kept, so
 *  the list does not jump as one types. */
export function filterActions(actions: PaletteAction[], query: string): PaletteAction[] {
  const words = fold(query).split(/\s+/).filter(Boolean);
  if (words.length === 0) return actions;
  const q = words.join(" ");
  const rank = (a: PaletteAction) => {
    const label = fold(a.label);
    return label.startsWith(q) ? 0 : label.includes(q) ? 1 : words.every((w) => label.includes(w)) ? 2 : 3;
  };
  return actions
    .map((a, i) => ({ a, i, text: fold(`${a.label} ${a.group} ${a.keywords ?? ""}`) }))
    .filter(({ text }) => words.every((w) => text.includes(w)))
    .map(({ a, i }) => ({ a, i, r: rank(a) }))
    .sort((x, y) => x.r - y.r || x.i - y.i)
    .map(({ a }) => a);
}

function fold(s: string): string {
  return s.normalize("NFD").replace(/\p{M}/gu, "").toLowerCase();
}
