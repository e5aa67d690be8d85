// The live cost preview's request discipline: a form is priced once it has settled (debounced), a newer
// form aborts the older request (web-shell's fetch) and its late reply is dropped by sequence number
// (Tauri IPC cannot be aborted), and an identical form is answered from this page's copy without asking.
import type { IpcError, StudioForm, StudioQuote } from "../bindings";
import { toIpcError } from "../shared/backend";

export type PriceState =
  | { kind: "idle" }
  | { kind: "pending" }
  | { kind: "shown"; quote: StudioQuote }
  | { kind: "error"; error: IpcError };

export const PRICE_DEBOUNCE_MS = 250;

export class PriceAsker {
  private cache = new Map<string, StudioQuote>();
  private seq = 0;
  private timer: ReturnType<typeof setTimeout> | undefined;
  private controller: AbortController | null = null;

  constructor(
    private ask: (form: StudioForm, signal: AbortSignal) => Promise<StudioQuote>,
    private onstate: (state: PriceState) => void,
    private delay = PRICE_DEBOUNCE_MS,
  ) {}

  /** Prices `form` (null: nothing to price). Whatever was asked before no longer counts. */
  request(form: StudioForm | null) {
    const mine = this.cancel();
    if (!form) {
      this.onstate({ kind: "idle" });
      return;
    }
    const key = JSON.stringify(form);
    const known = this.cache.get(key);
    if (known) {
      this.onstate({ kind: "shown", quote: known });
      return;
    }
    this.onstate({ kind: "pending" });
    this.timer = setTimeout(async () => {
      const controller = new AbortController();
      this.controller = controller;
      try {
        const quote = await this.ask(form, controller.signal);
        if (mine !== this.seq) return;
        this.cache.set(key, quote);
        this.onstate({ kind: "shown", quote });
      } catch (e) {
        if (mine !== this.seq) return;
        this.onstate({ kind: "error", error: toIpcError(e) });
      } finally {
        if (this.controller === controller) this.controller = null;
      }
    }, this.delay);
  }

  /** The balance changed: every copy's "balance after" is out of date. */
  forget() {
    this.cache.clear();
  }

  /** Stops the pending request; answers the new sequence number. */
  cancel(): number {
    this.seq++;
    clearTimeout(this.timer);
    this.timer = undefined;
    this.controller?.abort();
    this.controller = null;
    return this.seq;
  }
}
