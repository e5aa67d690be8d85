// Offline edits kept by the core (docs/ipc.md, "Offline drafts"): how many changes wait, which cards are
// in conflict, and the calls that send or resolve them. Polled every few seconds while anything waits
// (the core's own task sends them every 10 s; "Send now" does it at once).
import type { DraftConflict, DraftsStatus, IpcError } from "../bindings";
import { api, toIpcError } from "../shared/backend";

export const POLL_MS = 3_000;

export const drafts = $state({
  waiting: 0,
  cardIds: [] as string[],
  conflicts: [] as DraftConflict[],
  /** The last "Send now" found the service still silent. */
  offline: false,
  sending: false,
  /** A card the conflicts panel asked to open (the board opens it and clears this). */
  openCard: null as string | null,
  /** Bumped when kept changes were sent (views showing those cards read them again). */
  sentEpoch: 0,
  error: null as IpcError | null,
});

let timer: ReturnType<typeof setInterval> | null = null;
let request = 0;

function apply(s: DraftsStatus) {
  const before = drafts.waiting + drafts.conflicts.length;
  if (s.sent > 0 || s.waiting + s.conflicts.length < before) drafts.sentEpoch++;
  drafts.waiting = s.waiting;
  drafts.cardIds = s.cardIds;
  drafts.conflicts = s.conflicts;
  poll();
}

/** Polls while changes wait or conflicts are open; stops when none. */
function poll() {
  const active = drafts.waiting > 0 || drafts.conflicts.length > 0;
  if (active && !timer) timer = setInterval(() => void refreshDrafts(), POLL_MS);
  if (!active && timer) { clearInterval(timer); timer = null; }
}

/** Reads the outbox again; a failure (an old core, ...) leaves the indicator as it was. */
export async function refreshDrafts() {
  const mine = ++request;
  try {
    const s = await api.draftsStatus();
    if (mine === request) apply(s);
  } catch {
    // Nothing to show: the indicator stays as it was.
  }
}

/** After a `queued` answer: the indicator shows it at once and polls until it is sent. */
export function noteQueued() {
  void refreshDrafts();
}

export function isQueued(e: unknown): boolean {
  return toIpcError(e).code === "queued";
}

/** "Send now": tries every waiting change. */
export async function syncDrafts() {
  if (drafts.sending) return;
  drafts.sending = true;
  drafts.error = null;
  const mine = ++request;
  try {
    const s = await api.draftsSync();
    drafts.offline = s.offline;
    if (mine === request) apply(s);
  } catch (e) {
    drafts.error = toIpcError(e);
  } finally {
    drafts.sending = false;
  }
}

/** A card in conflict: "Keep mine" (`sendMine`) or "Take theirs" (`discardMine`). */
export async function resolveDraft(cardId: string, action: "sendMine" | "discardMine") {
  drafts.error = null;
  const mine = ++request;
  try {
    const s = await api.draftsResolve(cardId, action);
    if (mine === request) apply(s);
  } catch (e) {
    drafts.error = toIpcError(e);
    void refreshDrafts();
  }
}

/** Tests: forget everything and stop polling. */
export function resetDrafts() {
  if (timer) clearInterval(timer);
  timer = null;
  request++;
  Object.assign(drafts, { waiting: 0, cardIds: [], conflicts: [], offline: false, sending: false, openCard: null, sentEpoch: 0, error: null });
}
