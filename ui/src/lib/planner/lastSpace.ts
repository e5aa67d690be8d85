// The space the planner showed last on this computer (localStorage): the board opens on it, and
// boot.ts asks for its first page before the app's script is in.
const LAST_SPACE = "contentdesk.lastSpace";

export function recalledSpace(): string | null {
  try { return localStorage.getItem(LAST_SPACE); } catch { return null; }
}

export function rememberSpace(id: string) {
  try { localStorage.setItem(LAST_SPACE, id); } catch { /* private mode: start on the first space */ }
}
