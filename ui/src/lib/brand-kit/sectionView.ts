// What the brand-kit page holds for one section beyond its summary (its view), a refused change of it
// (its conflict), and reading a save's entries back (kit.svelte.ts's KitSession uses these).
import type { DraftReason, IpcError, SectionEdit } from "../bindings";
import type { SectionChange } from "./brandKitRules";

/** A refused change of one section, and what the service has now. */
export interface Conflict {
  /** `conflict`: the section changed since it was read; `offline`: nothing answered the save. */
  reason: DraftReason;
  /** What the user wanted to write (the core keeps it as a draft). */
  mine: SectionChange;
  /** The version `mine` was written against. */
  expectedVersion: number;
  /** The service's version now; `body` is null until it is read. */
  theirs: { version: number; body: string | null };
  /** The editable side of the merge view: starts as the user's text. */
  merged: string;
  busy: boolean;
  error: IpcError | null;
}

/** What the page knows and does for one section beyond its summary. */
export interface SectionView {
  /** The service's body at the summary's version, once read. */
  body: string | null;
  loading: boolean;
  /** Expanded: the rendered body shows. */
  open: boolean;
  editing: boolean;
  /** The editor's text. */
  text: string;
  /** The version and body the editor's text started from (what `expectedVersion` says). */
  baseVersion: number;
  baseBody: string;
  saving: boolean;
  error: IpcError | null;
  conflict: Conflict | null;
  /** The core holds a draft of this section (a refused save): cancelling must drop it on purpose. */
  keptByCore: boolean;
}

export function blankView(): SectionView {
  return {
    body: null, loading: false, open: false, editing: false, text: "", baseVersion: 0, baseBody: "", saving: false,
    error: null, conflict: null, keptByCore: false,
  };
}

export function changeOf(e: SectionEdit): SectionChange {
  const c: SectionChange = {};
  if (e.body != null) c.body = e.body;
  if (e.name != null) c.name = e.name;
  if (e.width != null) c.width = e.width;
  if (e.tab != null) c.tab = e.tab;
  if (e.afterId != null) c.afterId = e.afterId;
  if (e.beforeId != null) c.beforeId = e.beforeId;
  if (e.position != null) c.position = e.position;
  return c;
}

/** The index of the save entry a validation error names (`sections[2].width` → 2). */
export function entryOf(err: IpcError): number | null {
  const m = /^sections\[(\d+)\]/.exec(err.field ?? "");
  return m ? Number(m[1]) : null;
}
