// The colour theme: "system" follows the OS (`prefers-color-scheme`, app.css), "light" and "dark" are
// the user's choice in Settings. Kept with the other UI preferences of this computer (localStorage) and
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

export function applyTheme(pref: ThemePref) {
  const root = document.documentElement;
  if (pref === "system") root.removeAttribute("data-theme");
  else root.setAttribute("data-theme", pref);
}

export function chooseTheme(pref: ThemePref) {
  applyTheme(pref);
  try {
    if (pref === "system") localStorage.removeItem(THEME_KEY);
    else localStorage.setItem(THEME_KEY, pref);
  } catch { /* private mode: this run only */ }
}
