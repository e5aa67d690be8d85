// Banners the user dismissed. Most are kept for this run only (in memory: a cause that remains shows
// again next start); a note that only tells (the practice-space note) is remembered on this computer
// (localStorage, with the other UI preferences) once dismissed.
const REMEMBERED = "contentdesk.dismissed";

function recall(): string[] {
  try {
    const v: unknown = JSON.parse(localStorage.getItem(REMEMBERED) ?? "[]");
    return Array.isArray(v) ? v.filter((x): x is string => typeof x === "string") : [];
  } catch {
    return [];
  }
}

class Banners {
  dismissed = $state(new Set<string>(recall()));
  /** `remember`: the banner stays dismissed at the next start too. */
  dismiss(id: string, remember = false) {
    this.dismissed = new Set(this.dismissed).add(id);
    if (!remember) return;
    try {
      localStorage.setItem(REMEMBERED, JSON.stringify([...new Set([...recall(), id])]));
    } catch { /* private mode: this run only */ }
  }
  /** Reads the remembered dismissals again (tests; a second window). */
  reload() {
    this.dismissed = new Set(recall());
  }
}
export const banners = new Banners();
