// The colour theme: "system" follows the OS (`prefers-color-scheme`, followed live), "light" and "dark"
// are the user's choice in Settings. Either way the result is `data-theme` on <html>, the one thing
// app.css reads (so the dark palette is written once). Kept with the other UI preferences of this computer (localStorage) and
// applied as `data-theme` on <html> by boot.ts before the app's first paint (no flash of the other theme).
export type ThemePref = "system" | "light" | "dark";
export const THEME_KEY = "contentdesk.theme";

export function recallTheme(): ThemePref {
  try {
    const v = localStorage.getItem(THEME_KEY);
    return v === "light" || v === "dark" ? v : "system";
  } catch {
    return "system";
  }
}

let systemQuery: MediaQueryList | null = null;
let followed: ThemePref = "system";

function systemTheme(): "light" | "dark" {
  if (!systemQuery && typeof window.matchMedia === "function") {
    systemQuery = window.matchMedia("(prefers-color-scheme: dark)");
    systemQuery.addEventListener?.("change", () => {
      if (followed === "system") applyTheme("system");
    });
  }
  return systemQuery?.matches ? "dark" : "light";
}

export function applyTheme(pref: ThemePref) {
  followed = pref;
  document.documentElement.setAttribute("data-theme", pref === "system" ? systemTheme() : pref);
}

const chosen = new Set<(pref: ThemePref) => void>();

/** Calls `fn` whenever a theme is chosen (in Settings or the command palette), so every control
 *  that shows the choice stays true; returns the unsubscribe. */
export function onThemeChosen(fn: (pref: ThemePref) => void): () => void {
  chosen.add(fn);
  return () => { chosen.delete(fn); };
}

export function chooseTheme(pref: ThemePref) {
  applyTheme(pref);
  for (const fn of chosen) fn(pref);
  try {
    if (pref === "system") localStorage.removeItem(THEME_KEY);
    else localStorage.setItem(THEME_KEY, pref);
  } catch { /* private mode: this run only */ }
}
