import { afterEach, beforeEach, expect, it, vi } from "vitest";
import type { StudioForm, StudioQuote } from "../bindings";
import { PriceAsker, type PriceState } from "./pricing";

beforeEach(() => vi.useFakeTimers());
afterEach(() => vi.useRealTimers());

const quote = (credits: number): StudioQuote => ({ credits, balance: 100, balanceAfter: 100 - credits, affordable: true, reason: null, cached: false });
const form = (prompt: string): StudioForm => ({ media: "image", modelId: "m", prompt });

function setup() {
  const pending: { form: StudioForm; signal: AbortSignal; resolve: (q: StudioQuote) => void; reject: (e: unknown) => void }[] = [];
  const ask = vi.fn((f: StudioForm, signal: AbortSignal) => new Promise<StudioQuote>((resolve, reject) => pending.push({ form: f, signal, resolve, reject })));
  const states: PriceState[] = [];
  const asker = new PriceAsker(ask, (s) => states.push(s), 250);
  return { ask, pending, states, asker, last: () => states[states.length - 1] };
}

it("asks once the form has settled for 250 ms", async () => {
  const { ask, asker, pending, last } = setup();
  asker.request(form("a"));
  vi.advanceTimersByTime(100);
  asker.request(form("ab"));
  vi.advanceTimersByTime(249);
  expect(ask).not.toHaveBeenCalled();
  expect(last()).toEqual({ kind: "pending" });
  vi.advanceTimersByTime(1);
  expect(ask).toHaveBeenCalledTimes(1);
  expect(ask.mock.calls[0][0]).toEqual(form("ab"));
  pending[0].resolve(quote(4));
  await vi.runAllTimersAsync();
  expect(last()).toEqual({ kind: "shown", quote: quote(4) });
});

it("a newer form aborts the older request and its late answer is dropped", async () => {
  const { asker, pending, last } = setup();
  asker.request(form("a"));
  vi.advanceTimersByTime(250);
  asker.request(form("b"));
  expect(pending[0].signal.aborted).toBe(true);
  vi.advanceTimersByTime(250);
  pending[1].resolve(quote(8));
  await vi.runAllTimersAsync();
  pending[0].resolve(quote(4));
  await vi.runAllTimersAsync();
  expect(last()).toEqual({ kind: "shown", quote: quote(8) });
});

it("an identical form is answered from the copy; forget() asks again", async () => {
  const { ask, asker, pending, last } = setup();
  asker.request(form("a"));
  vi.advanceTimersByTime(250);
  pending[0].resolve(quote(4));
  await vi.runAllTimersAsync();
  asker.request(form("b"));
  asker.request(form("a"));
  expect(last()).toEqual({ kind: "shown", quote: quote(4) });
  vi.advanceTimersByTime(1000);
  expect(ask).toHaveBeenCalledTimes(1);
  asker.forget();
  asker.request(form("a"));
  vi.advanceTimersByTime(250);
  expect(ask).toHaveBeenCalledTimes(2);
});

it("a refusal is shown as an error, and nothing to price is idle", async () => {
  const { asker, pending, last } = setup();
  asker.request(form("a"));
  vi.advanceTimersByTime(250);
  pending[0].reject({ code: "validation", message: "no", field: "prompt" });
  await vi.runAllTimersAsync();
  expect(last()).toEqual({ kind: "error", error: { code: "validation", message: "no", field: "prompt" } });
  asker.request(null);
  expect(last()).toEqual({ kind: "idle" });
});
