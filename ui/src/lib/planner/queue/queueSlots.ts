// The posting queue's slots as the UI shows them (issue 28 point 4). The core keeps each slot as weekday
// (1 = Monday … 7 = Sunday) and `HH:MM` in UTC (`queue-slots.json`, by profile); the UI shows and edits
// them in this computer's time zone, converted with the offset of the coming week (a slot keeps its UTC
// time across a daylight-saving change, and is then shown an hour off: written so in the Settings help).
import { call } from "../../shared/backend";
import type { CardDetail, ConnectedAccount } from "../editor/wire";

export type QueueSlot = { accountId: string; weekday: number; time: string };
export type QueueSettings = { slots: QueueSlot[]; clashMinutes: number };
export type Placed = { platform: string; accountId: string; scheduledAt: string };
export type Queued = { card: CardDetail; placed: Placed[] };

export const queueApi = {
  get: () => call<QueueSettings>("queue_slots_get"),
  set: (settings: QueueSettings) => call<QueueSettings>("queue_slots_set", settings),
  queueCard: (cardId: string) => call<Queued>("card_queue", { cardId }),
};

export const WEEKDAY_NAMES = ["Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday"];

const pad = (n: number) => String(n).padStart(2, "0");

/** The instant of `weekday` (1–7) at `time` in the week of `ref`, read in local time (`utc: false`) or UTC. */
function instantOf(weekday: number, time: string, ref: Date, utc: boolean): Date {
  const [h, m] = time.split(":").map(Number);
  const day = utc ? ref.getUTCDay() : ref.getDay();
  const monday = new Date(ref.getTime());
  const back = (day + 6) % 7;
  if (utc) {
    monday.setUTCDate(monday.getUTCDate() - back + (weekday - 1));
    monday.setUTCHours(h, m, 0, 0);
  } else {
    monday.setDate(monday.getDate() - back + (weekday - 1));
    monday.setHours(h, m, 0, 0);
  }
  return monday;
}

/** A slot written in local time, as the core keeps it (UTC). */
export function toUtcSlot(s: QueueSlot, ref = new Date()): QueueSlot {
  const at = instantOf(s.weekday, s.time, ref, false);
  return { accountId: s.accountId, weekday: ((at.getUTCDay() + 6) % 7) + 1, time: `${pad(at.getUTCHours())}:${pad(at.getUTCMinutes())}` };
}

/** A slot the core keeps (UTC), in local time. */
export function toLocalSlot(s: QueueSlot, ref = new Date()): QueueSlot {
  const at = instantOf(s.weekday, s.time, ref, true);
  return { accountId: s.accountId, weekday: ((at.getDay() + 6) % 7) + 1, time: `${pad(at.getHours())}:${pad(at.getMinutes())}` };
}

/** What an account is called: its platform's name and its handle or name. */
export function accountLabel(a: Pick<ConnectedAccount, "platform" | "accountHandle" | "accountName" | "id">, platformLabel: (p: string) => string): string {
  const who = a.accountHandle ? `@${a.accountHandle.replace(/^@/, "")}` : a.accountName ?? a.id;
  return `${platformLabel(a.platform ?? "general")} · ${who}`;
}

/** The slots' instants (UTC, ms) within `[from, to)`: the calendar's faint free slots. */
export function slotInstants(slots: QueueSlot[], from: number, to: number): { at: number; accountId: string }[] {
  const out: { at: number; accountId: string }[] = [];
  const start = new Date(from);
  start.setUTCHours(0, 0, 0, 0);
  for (let day = start.getTime(); day < to; day += 86_400_000) {
    const d = new Date(day);
    const wd = ((d.getUTCDay() + 6) % 7) + 1;
    for (const s of slots) {
      if (s.weekday !== wd) continue;
      const [h, m] = s.time.split(":").map(Number);
      const at = day + (h * 60 + m) * 60_000;
      if (at >= from && at < to) out.push({ at, accountId: s.accountId });
    }
  }
  return out.sort((a, b) => a.at - b.at);
}

/** A scheduled post: its card, account and instant. */
export type TimedPost = { cardId: string; accountId: string; at: number };

/** The card ids with a post within `minutes` of another card's post on the same account (both flagged);
 *  the rule of `contentdesk_ops::planner::clashes`. */
export function clashingCards(posts: TimedPost[], minutes: number): Set<string> {
  const window = minutes * 60_000;
  const out = new Set<string>();
  const byAccount = new Map<string, TimedPost[]>();
  for (const p of posts) byAccount.set(p.accountId, [...(byAccount.get(p.accountId) ?? []), p]);
  for (const list of byAccount.values()) {
    list.sort((a, b) => a.at - b.at);
    for (let i = 0; i < list.length; i++) {
      for (let j = i + 1; j < list.length && list[j].at - list[i].at < window; j++) {
        if (list[j].cardId !== list[i].cardId) { out.add(list[i].cardId); out.add(list[j].cardId); }
      }
    }
  }
  return out;
}

/** Whether a slot is free: no post of its account within `minutes` of it. */
export function slotFree(slot: { at: number; accountId: string }, posts: TimedPost[], minutes: number): boolean {
  const window = Math.max(minutes * 60_000, 1000);
  return !posts.some((p) => p.accountId === slot.accountId && Math.abs(p.at - slot.at) < window);
}
