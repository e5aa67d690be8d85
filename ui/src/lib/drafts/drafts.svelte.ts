// Offline edits kept by the core (docs/ipc.md, "Offline drafts"): how many changes wait, the kept changes
// in order (those in conflict marked), and the calls that send or resolve them (one: `drafts_resolve`). Polled every few seconds while anything waits
// (the core's own task sends them every 10 s; "Send now" does it at once).
import type { DraftsStatus, IpcError, KeptChange } from "../bindings";
import { api, toIpcError } from "../shared/backend";

export const POLL_MS = 3_000;

export const drafts = $state({
  waiting: 0,
  cardIds: [] as string[],
  /** Every kept change (card edits and moves, archive, stages, spaces), in the order they are sent; the
   *  ones in conflict have `conflict`. */
  changes: [] as KeptChange[],
  /** The last "Send now" found the service still silent. */
  offline: false,
  sending: false,
  /** A card the conflicts panel asked to open (the board opens it and clears this). */
  openCard: null as string | null,
  /** Bumped when kept changes were sent (views showing those cards read them again). */
  sentEpoch: 0,
  /** Stages and spaces made offline that the service has made: local id → its id (the board swaps them). */
  made: {} as Record<string, string>,
  error: null as IpcError | null,
});

let timer: ReturnType<typeof setInterval> | null = null;
let request = 0;

/** The kept changes in conflict (they wait for the user's choice). */
export const inConflict = (changes: KeptChange[]) => changes.filter((c) => c.conflict);

function apply(s: DraftsStatus) {
  const changes = s.changes ?? [];
  const before = drafts.waiting + inConflict(drafts.changes).length;
  if (s.sent > 0 || s.waiting + inConflict(changes).length < before) drafts.sentEpoch++;
  drafts.waiting = s.waiting;
  drafts.cardIds = s.cardIds;
  drafts.changes = changes;
  if (s.made && Object.keys(s.made).some((k) => drafts.made[k] !== s.made![k])) drafts.made = { ...drafts.made, ...s.made };
  poll();
}

/** Polls while changes wait or conflicts are open; stops when none. */
function poll() {
  const active = drafts.waiting > 0 || drafts.changes.some((c) => c.conflict);
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

/** One kept change of the list, by its id: "Drop" / "Take theirs" (`discardMine`) or "Keep mine" (`sendMine`). */
export async function resolveChange(id: string, action: "sendMine" | "discardMine") {
  drafts.error = null;
  const mine = ++request;
  try {
    const s = await api.draftsResolve(id, action);
    if (mine === request) apply(s);
  } catch (e) {
    drafts.error = toIpcError(e);
    void refreshDrafts();
  }
}

const FIELD_WORDS: Record<string, string> = {
  title: "title", notes: "notes", stage: "stage", spaceId: "space", tags: "tags", scheduledAt: "schedule",
  coverUrl: "cover", coverOutputId: "cover", coverPosition: "cover position", posts: "posts", assets: "assets",
  platform: "platform", isFavorite: "favourite", contentType: "content type", boardOrder: "position", metadata: "metadata",
};

/** A kept change in words, as the "changes waiting" list shows it: "Rename stage Ideas → Drafts",
 *  "Archive card ‘Launch post’". `subject` is the thing as the board had it when the change was made. */
export function describeChange(c: KeptChange): string {
  const card = c.subject?.trim() ? `card ‘${c.subject.trim()}’` : "a card";
  const stage = c.subject?.trim() ? `stage ${c.subject.trim()}` : "a stage";
  const space = c.subject?.trim() ? `space ${c.subject.trim()}` : "a space";
  switch (c.kind) {
    case "cardEdit": {
      const fields = [...new Set(c.fields.map((f) => FIELD_WORDS[f] ?? f))].join(", ");
      return `Edit ${card}${fields ? ` (${fields})` : ""}`;
    }
    case "cardMove": return `Move ${card}`;
    case "cardArchive": return `Archive ${card}`;
    case "cardRestore": return `Restore ${card}`;
    case "stageCreate": return `Add stage ${c.name ?? ""}`.trim();
    case "stageRename": return `Rename ${stage} → ${c.name ?? ""}${c.color ? ` (colour ${c.color})` : ""}`;
    case "stageRecolor": return `Recolour ${stage} to ${c.color ?? ""}`.trim();
    case "stageMove": return `Move ${stage}`;
    case "stageDelete": return `Delete ${stage}`;
    case "spaceCreate": return `Create space ${c.name ?? ""}`.trim();
    case "spaceRename": return `Rename ${space} → ${c.name ?? ""}`;
    case "spaceArchive": return `Archive ${space}`;
    case "spaceRestore": return `Restore ${space}`;
  }
}

/** Tests: forget everything and stop polling. */
export function resetDrafts() {
  if (timer) clearInterval(timer);
  timer = null;
  request++;
  Object.assign(drafts, { waiting: 0, cardIds: [], changes: [], offline: false, sending: false, openCard: null, sentEpoch: 0, made: {}, error: null });
}
