// The web view's preferences in a backup (issue 28 point 6): what this computer's UI keeps in
// localStorage under `contentdesk.` (the theme, the planner's view, the calendar's zone and view, the
// last space, the dismissed notes, …), never the brand kit's unsaved or written texts (content, kept by
// profile and kit) nor web-shell's token. A restore hands them back: at once (`backup_restore` answers
// them) and, after the restart that finishes a restore, from `ui-preferences.json` (`restoredAt` says
// a restore wrote it; taken once).
import type { UiPreferences } from "../bindings";
import { applyTheme, recallTheme } from "../shared/theme";

const PREFIX = "contentdesk.";
const NOT_PREFS = ["contentdesk.brandKit.unsaved", "contentdesk.brandKit.written", "contentdesk.webShellToken"];
/** The `restoredAt` of the restore whose preferences were taken (so each is taken once). */
export const RESTORED_MARK = "contentdesk.prefsRestoredAt";

export const isPref = (key: string) => key.startsWith(PREFIX) && key !== RESTORED_MARK && !NOT_PREFS.some((p) => key.startsWith(p));

/** The preferences as they are now. */
export function collectPrefs(storage: Storage = localStorage): Record<string, string> {
  const out: Record<string, string> = {};
  for (let i = 0; i < storage.length; i++) {
    const key = storage.key(i);
    if (key && isPref(key)) out[key] = storage.getItem(key) ?? "";
  }
  return out;
}

/** Replaces the preferences with `prefs` (the ones not in it are removed) and applies the theme. */
export function applyPrefs(prefs: Record<string, string>, storage: Storage = localStorage) {
  const gone: string[] = [];
  for (let i = 0; i < storage.length; i++) {
    const key = storage.key(i);
    if (key && isPref(key) && !(key in prefs)) gone.push(key);
  }
  for (const key of gone) storage.removeItem(key);
  for (const [key, value] of Object.entries(prefs)) if (isPref(key)) storage.setItem(key, value);
  applyTheme(recallTheme());
}

/** Takes the preferences a restore wrote, once; true when it did (the caller reloads the page). */
export function adoptRestored(kept: UiPreferences, storage: Storage = localStorage): boolean {
  if (!kept.restoredAt || storage.getItem(RESTORED_MARK) === kept.restoredAt) return false;
  applyPrefs(kept.prefs, storage);
  storage.setItem(RESTORED_MARK, kept.restoredAt);
  return true;
}
