// One brand kit as the page holds it: the summary of every section (names, outlines, sizes, versions),
// the bodies read so far, what the user is editing, and every refused change until the user resolves
// it. All the page's commands go through here, so the components only show state and call methods.
//
// The promise kept here: a change the service refused (409) or did not receive is never dropped without
// the user's choice. The core keeps it as a draft across restarts (brand_kit_drafts, in the page as
// `drafts`); this shows it beside the current text with take theirs / keep mine / merge by hand.
import type {
  ArchivedSection, BrandKitSection, BrandKitGetInput, DraftReason, IpcError, SectionDraft, SectionEdit,
  SectionHistory, SectionSummary,
} from "../bindings";
import { api, toIpcError } from "../shared/backend";
import { applyPlacement, editFor, outlineOf, placementFor, summaryOf, tabLabel, type SectionChange } from "./brandKitRules";
import { blankView, changeOf, entryOf, type Conflict, type SectionView } from "./sectionView";
import { readUnsaved, writeUnsaved, type UnsavedText } from "./unsaved";
import { noteWritten, writtenVersions } from "./written";

/** Where the sections a user collapsed are remembered (per kit): every other section shows its text. */
const COLLAPSED_PREFIX = "contentdesk.brandKit.collapsed";

export type { Conflict, SectionView, UnsavedText };
export { readUnsaved, writeUnsaved };

export class KitSession {
  /** The profile the kit is read with (what this app wrote is remembered per profile). */
  profileId: string | null = null;
  kitId = $state("");
  name = $state("");
  sections: SectionSummary[] = $state([]);
  archived: ArchivedSection[] = $state([]);
  views: Record<string, SectionView> = $state({});
  /** Drafts kept for sections that are no longer on the page (archived or removed elsewhere). */
  orphanDrafts: SectionDraft[] = $state([]);
  loading = $state(false);
  loadError: IpcError | null = $state(null);
  /** An error of a save of several sections at once (a single section's shows on its card). */
  saveError: IpcError | null = $state(null);
  /** The last thing done, for the live region. */
  notice = $state("");
  private request = 0;

  summary(key: string): SectionSummary | undefined {
    return this.sections.find((s) => s.key === key);
  }

  view(key: string): SectionView {
    return this.views[key] ?? (this.views[key] = blankView());
  }

  dirty(key: string): boolean {
    const v = this.views[key];
    return !!v && v.editing && v.text !== v.baseBody;
  }

  /** Sections with edited text not yet saved, in page order. */
  get changedKeys(): string[] {
    return this.sections.map((s) => s.key).filter((k) => this.dirty(k) && !this.views[k]?.conflict);
  }

  // ---------- reading ----------

  async load(kitId: string) {
    const mine = ++this.request;
    this.loading = true;
    this.loadError = null;
    this.saveError = null;
    try {
      const page = await api.brandKitPage(kitId);
      if (mine !== this.request) return;
      // Text being edited and not saved yet stays when the same kit is read again (the user left the page
      // and came back): its base version stays too, so a save still says what it was written from.
      const before = page.id === this.kitId ? this.views : {};
      const unsaved = (k: string) => { const v = before[k]; return !!v && v.editing && v.text !== v.baseBody; };
      this.kitId = page.id;
      this.name = page.name;
      this.sections = page.sections;
      this.archived = page.archived;
      this.views = Object.fromEntries(page.sections.map((s) => [s.key, unsaved(s.key) ? before[s.key] : blankView()]));
      // The text shows by default: every section the user has not collapsed is open, its body read below.
      const collapsed = this.collapsedKeys();
      for (const s of page.sections) if (!collapsed.has(s.key)) this.views[s.key].open = true;
      this.showDrafts(page.drafts);
    } catch (e) {
      if (mine === this.request) {
        this.loadError = toIpcError(e);
        this.sections = [];
        this.views = {};
      }
    } finally {
      if (mine === this.request) this.loading = false;
    }
    if (mine !== this.request) return;
    // One read for every body shown (the open sections and those waiting on a conflict's choice).
    const toRead = this.sections.filter((s) => { const v = this.views[s.key]; return v && (v.open || v.conflict) && v.body === null; }).map((s) => s.key);
    if (!toRead.length) return;
    for (const k of toRead) this.view(k).loading = true;
    try {
      await this.readBodies({ keys: toRead });
    } catch (e) {
      const err = toIpcError(e);
      for (const k of toRead) if (this.views[k]?.body === null) this.views[k].error = err;
    } finally {
      for (const k of toRead) if (this.views[k]) this.views[k].loading = false;
    }
  }

  private collapsedKeys(): Set<string> {
    try {
      const parsed: unknown = JSON.parse(localStorage.getItem(`${COLLAPSED_PREFIX}.${this.kitId}`) ?? "[]");
      return new Set(Array.isArray(parsed) ? parsed.filter((k): k is string => typeof k === "string") : []);
    } catch {
      return new Set();
    }
  }

  private rememberCollapsed(key: string, collapsed: boolean) {
    const keys = this.collapsedKeys();
    if (collapsed) keys.add(key);
    else keys.delete(key);
    try {
      if (keys.size) localStorage.setItem(`${COLLAPSED_PREFIX}.${this.kitId}`, JSON.stringify([...keys]));
      else localStorage.removeItem(`${COLLAPSED_PREFIX}.${this.kitId}`);
    } catch {
      // Storage unavailable: the choice holds while the app runs.
    }
  }

  /** The versions of a section this app wrote (the history's "edited in Content Desk"). */
  written(key: string): Set<number> {
    return writtenVersions(this.profileId, this.kitId, key);
  }

  /** Notes a section as this app wrote it, when the write made a new version. */
  private noteIfNew(s: BrandKitSection, before: number | undefined) {
    if (before === undefined || s.version > before) noteWritten(this.profileId, this.kitId, s.key, s.version);
  }

  /** Kept drafts (a refused save, maybe before a restart) open on their cards with the resolution. */
  private showDrafts(drafts: SectionDraft[]) {
    this.orphanDrafts = drafts.filter((d) => !this.summary(d.key));
    for (const d of drafts) {
      const s = this.summary(d.key);
      if (!s) continue;
      const mine: SectionChange = {};
      if (d.body != null) mine.body = d.body;
      if (d.name != null) mine.name = d.name;
      if (d.width != null) mine.width = d.width;
      if (d.tab != null) mine.tab = d.tab;
      if (d.afterId != null) mine.afterId = d.afterId;
      if (d.beforeId != null) mine.beforeId = d.beforeId;
      if (d.position != null) mine.position = d.position;
      const v = this.view(d.key);
      v.keptByCore = true;
      v.open = true;
      v.conflict = {
        reason: d.reason, mine, expectedVersion: d.expectedVersion,
        theirs: { version: s.version, body: null }, merged: d.body ?? "", busy: false, error: null,
      };
    }
  }

  /** Reads bodies by key, role or tab (the filter read); answers the sections read. */
  async readBodies(filter: Omit<BrandKitGetInput, "brandKitId">): Promise<BrandKitSection[]> {
    const got = await api.brandKitSections({ brandKitId: this.kitId, ...filter });
    for (const s of got.sections) this.takeRead(s);
    return got.sections;
  }

  /** A section as the service has it now: its summary and body (an edit in progress is left alone). */
  private takeRead(s: BrandKitSection) {
    const i = this.sections.findIndex((x) => x.key === s.key);
    if (i >= 0) this.sections[i] = summaryOf(s, this.sections[i]);
    const v = this.view(s.key);
    v.body = s.body;
    if (v.conflict && (v.conflict.theirs.body === null || v.conflict.theirs.version <= s.version)) {
      v.conflict.theirs = { version: s.version, body: s.body };
    }
  }

  /** Expands a card, reading its body the first time. */
  async open(key: string) {
    const v = this.view(key);
    v.open = true;
    this.rememberCollapsed(key, false);
    await this.ensureBody(key);
  }

  /** Collapses a card to its outline (remembered for this kit: it stays collapsed next time). */
  collapse(key: string) {
    const v = this.view(key);
    if (v.editing || v.conflict) return;
    v.open = false;
    this.rememberCollapsed(key, true);
  }

  private async ensureBody(key: string): Promise<boolean> {
    const v = this.view(key);
    if (v.body !== null) return true;
    v.loading = true;
    v.error = null;
    try {
      await this.readBodies({ keys: [key] });
      return true;
    } catch (e) {
      v.error = toIpcError(e);
      return false;
    } finally {
      v.loading = false;
    }
  }

  // ---------- editing and saving ----------

  async startEdit(key: string) {
    const v = this.view(key);
    v.open = true;
    if (!(await this.ensureBody(key))) return;
    const s = this.summary(key);
    if (!s || v.body === null) return;
    v.editing = true;
    v.text = v.body;
    v.baseBody = v.body;
    v.baseVersion = s.version;
    v.error = null;
  }

  setText(key: string, text: string) {
    this.view(key).text = text;
  }

  /** Text being edited and not saved (conflicts aside: the core keeps those), to keep across restarts. */
  get unsaved(): Record<string, UnsavedText> {
    const out: Record<string, UnsavedText> = {};
    for (const key of this.changedKeys) {
      const v = this.views[key];
      out[key] = { text: v.text, baseVersion: v.baseVersion, baseBody: v.baseBody };
    }
    return out;
  }

  /**
   * Reopens the editors of text left unsaved when the app last closed (read back from this computer):
   * only on sections still on the page and not already being edited or in conflict. A section changed
   * elsewhere meanwhile keeps its old base version, so saving it shows the conflict instead of
   * overwriting.
   */
  restoreUnsaved(kept: Record<string, UnsavedText>) {
    for (const [key, u] of Object.entries(kept)) {
      const v = this.views[key];
      if (!v || !this.summary(key) || v.editing || v.conflict || u.text === u.baseBody) continue;
      Object.assign(v, { open: true, editing: true, body: u.baseBody, baseBody: u.baseBody, baseVersion: u.baseVersion, text: u.text });
    }
  }

  /** Stops editing and drops the text (the caller asked the user first when it had changes). */
  async cancelEdit(key: string) {
    const v = this.view(key);
    v.editing = false;
    v.text = "";
    v.error = null;
    if (v.keptByCore) await this.discardDraft(key).catch(() => undefined);
  }

  private async discardDraft(key: string) {
    try {
      await api.brandKitDraftDiscard(this.kitId, key);
    } catch (e) {
      const err = toIpcError(e);
      // No draft (a save cleared it, or there never was one): nothing to drop.
      if (err.code !== "notFound") throw err;
    }
    this.view(key).keptByCore = false;
    this.orphanDrafts = this.orphanDrafts.filter((d) => d.key !== key);
  }

  /** Drops a kept draft of a section that is no longer on the page. */
  async dropOrphanDraft(key: string) {
    try {
      await this.discardDraft(key);
    } catch (e) {
      this.saveError = toIpcError(e);
    }
  }

  /**
   * Saves the edited text of `keys` in one all-or-nothing write: only sections whose text changed,
   * each with the version its text was read at. Answers whether it was written.
   */
  async save(keys: string[]): Promise<boolean> {
    const entries: SectionEdit[] = [];
    for (const key of keys) {
      const v = this.views[key];
      const s = this.summary(key);
      if (!v || !s || !v.editing || v.conflict) continue;
      const edit = editFor(s, v.baseBody, { body: v.text }, v.baseVersion);
      if (edit) entries.push(edit);
    }
    if (entries.length === 0) {
      this.notice = "Nothing to save: no text changed.";
      for (const key of keys) if (this.views[key]?.editing && !this.views[key].conflict) this.views[key].editing = false;
      return false;
    }
    return this.write(entries, { closeEditors: true });
  }

  /** Saves a name or width change of one section at once (the version it has now). */
  async saveFields(key: string, change: Pick<SectionChange, "name" | "width" | "tab">): Promise<boolean> {
    const s = this.summary(key);
    if (!s) return false;
    const edit = editFor(s, null, change, s.version);
    if (!edit) return true;
    return this.write([edit], { closeEditors: false });
  }

  /**
   * Moves a section to index `to` of tab `tab` (counted without it): one save entry with the tab (when
   * it changes) and its place, with the version it has now, so a change made elsewhere meanwhile is a
   * conflict and no answer keeps the move on this computer. Shown at once; refused, put back.
   */
  async move(key: string, tab: string, to: number): Promise<boolean> {
    const s = this.summary(key);
    if (!s) return false;
    const place = placementFor(this.sections, key, tab, to);
    if (!place) return true;
    const edit: SectionEdit = { key, expectedVersion: s.version, ...(tab !== s.tab ? { tab } : {}), ...place };
    const before = this.sections.map((x) => x.key);
    this.sections = applyPlacement(this.sections, key, tab, place);
    this.notice = "";
    const ok = await this.write([edit], { closeEditors: false });
    const n = this.sections.filter((x) => x.tab === tab).findIndex((x) => x.key === key) + 1;
    if (ok) {
      this.notice = `Moved “${s.sectionName}” to ${tab === s.tab ? "" : `${tabLabel(tab)}, `}position ${n}.`;
    } else {
      // Nothing was written: the section goes back where it was (with what the refusal said of it).
      const byKey = new Map(this.sections.map((x) => [x.key, x]));
      this.sections = before.map((k) => byKey.get(k)).filter((x): x is SectionSummary => !!x).map((x) => (x.key === key ? { ...x, tab: s.tab } : x));
      this.notice = `“${s.sectionName}” was not moved. ${this.view(key).error?.message ?? this.notice}`.trim();
    }
    return ok;
  }

  /** The page's order as the service has it now (after a move landed from a kept change). */
  private async reorder() {
    const page = await api.brandKitPage(this.kitId);
    const byKey = new Map(this.sections.map((x) => [x.key, x]));
    this.sections = page.sections.map((p) => ({ ...(byKey.get(p.key) ?? p), tab: p.tab, sortOrder: p.sortOrder }));
    this.archived = page.archived;
  }

  private async write(entries: SectionEdit[], { closeEditors }: { closeEditors: boolean }): Promise<boolean> {
    const keys = entries.map((e) => e.key);
    for (const k of keys) {
      this.view(k).saving = true;
      this.view(k).error = null;
    }
    this.saveError = null;
    try {
      const before = new Map(this.sections.map((s) => [s.key, s.version]));
      const saved = await api.brandKitSave(this.kitId, entries);
      for (const s of saved) {
        this.noteIfNew(s, before.get(s.key));
        this.takeRead(s);
        const v = this.view(s.key);
        v.keptByCore = false;
        if (closeEditors) {
          v.editing = false;
          v.text = "";
        }
      }
      const names = saved.map((s) => `“${s.sectionName}”`).join(", ");
      this.notice = `Saved ${names}.`;
      return true;
    } catch (e) {
      this.refused(entries, toIpcError(e));
      return false;
    } finally {
      for (const k of keys) this.view(k).saving = false;
    }
  }

  /** A refused write: nothing was written. Conflicts open their resolution; the text stays. */
  private refused(entries: SectionEdit[], err: IpcError) {
    const single = entries.length === 1 ? this.view(entries[0].key) : null;
    if (err.code === "conflict" || err.code === "network") {
      // The core keeps every entry of a refused write as a draft until it is saved or discarded.
      for (const e of entries) this.view(e.key).keptByCore = true;
    }
    if (err.code === "conflict") {
      for (const c of err.conflicts ?? []) {
        const e = entries.find((x) => x.key === c.key);
        if (!e) continue;
        // The section's current version and text, as the refusal reported them.
        const i = this.sections.findIndex((x) => x.key === c.key);
        if (i >= 0 && this.sections[i].version < c.version) {
          this.sections[i] = { ...this.sections[i], version: c.version, charCount: [...c.body].length, outline: outlineOf(c.body) };
        }
        const v = this.view(c.key);
        v.body = c.body;
        v.open = true;
        v.conflict = {
          reason: "conflict", mine: changeOf(e), expectedVersion: e.expectedVersion,
          theirs: { version: c.version, body: c.body }, merged: e.body ?? v.text, busy: false, error: null,
        };
      }
      if (!single) this.saveError = err;
      this.notice = err.message;
      return;
    }
    const at = entryOf(err);
    if (at !== null && entries[at]) this.view(entries[at].key).error = err;
    else if (single) single.error = err;
    else this.saveError = err;
  }

  // ---------- resolving a refused change ----------

  /** Keeps the user's change (or `body`, merged by hand) over the service's current version. */
  async keepMine(key: string, body?: string): Promise<boolean> {
    const v = this.view(key);
    const c = v.conflict;
    if (!c || c.busy) return false;
    const edit: SectionEdit = { key, expectedVersion: c.theirs.version };
    const change: SectionChange = { ...c.mine, ...(body !== undefined ? { body } : {}) };
    if (change.body !== undefined) edit.body = change.body;
    if (change.name !== undefined) edit.name = change.name;
    if (change.width !== undefined) edit.width = change.width;
    if (change.tab !== undefined) edit.tab = change.tab;
    if (change.afterId !== undefined) edit.afterId = change.afterId;
    if (change.beforeId !== undefined) edit.beforeId = change.beforeId;
    if (change.position !== undefined) edit.position = change.position;
    c.busy = true;
    c.error = null;
    try {
      const before = this.summary(key)?.version;
      const saved = await api.brandKitSave(this.kitId, [edit]);
      for (const s of saved) {
        if (s.key === key) this.noteIfNew(s, before);
        this.takeRead(s);
      }
      if (change.tab !== undefined || change.afterId !== undefined || change.beforeId !== undefined || change.position !== undefined) {
        await this.reorder();
      }
      v.conflict = null;
      v.keptByCore = false;
      if (change.body !== undefined) {
        v.editing = false;
        v.text = "";
      }
      const s = saved.find((x) => x.key === key);
      this.notice = s ? `Your version of “${s.sectionName}” is saved (version ${s.version}).` : "Saved.";
      return true;
    } catch (e) {
      const err = toIpcError(e);
      const again = err.code === "conflict" ? err.conflicts?.find((x) => x.key === key) : undefined;
      // Changed once more meanwhile: the new current text is shown; the user's text stays.
      if (again) {
        c.theirs = { version: again.version, body: again.body };
        const i = this.sections.findIndex((x) => x.key === key);
        if (i >= 0) this.sections[i] = { ...this.sections[i], version: again.version, charCount: [...again.body].length, outline: outlineOf(again.body) };
        v.body = again.body;
      }
      c.error = err;
      return false;
    } finally {
      if (v.conflict) v.conflict.busy = false;
    }
  }

  /** Takes the service's version: the kept draft is dropped on purpose and the section read again. */
  async takeTheirs(key: string): Promise<boolean> {
    const v = this.view(key);
    const c = v.conflict;
    if (!c || c.busy) return false;
    c.busy = true;
    c.error = null;
    try {
      await this.discardDraft(key);
      v.conflict = null;
      v.editing = false;
      v.text = "";
      v.body = null;
      await this.ensureBody(key);
      this.notice = `Their version of “${this.summary(key)?.sectionName ?? key}” is kept; yours is discarded.`;
      return true;
    } catch (e) {
      if (v.conflict) v.conflict.error = toIpcError(e);
      return false;
    } finally {
      if (v.conflict) v.conflict.busy = false;
    }
  }

  setMerged(key: string, text: string) {
    const c = this.views[key]?.conflict;
    if (c) c.merged = text;
  }

  // ---------- sections: add, archive, restore ----------

  /** Adds a section at the end of its tab (errors are thrown for the form to show at its field). */
  async add(name: string, tab: string, width: string): Promise<BrandKitSection> {
    const s = await api.brandKitSectionAdd({ brandKitId: this.kitId, sectionName: name, tab, width });
    this.noteIfNew(s, undefined);
    this.sections.push(summaryOf(s));
    const v = this.view(s.key);
    v.body = s.body;
    v.open = true;
    this.notice = `Section “${s.sectionName}” added to ${tab}.`;
    return s;
  }

  async archive(key: string) {
    const s = this.summary(key);
    await api.brandKitSectionArchive(this.kitId, key, true);
    this.sections = this.sections.filter((x) => x.key !== key);
    if (s) {
      this.archived = [...this.archived.filter((a) => a.key !== key),
        { key, id: s.id, sectionName: s.sectionName, tab: s.tab, archivedAt: Date.now() }];
      this.notice = `Section “${s.sectionName}” archived.`;
    }
  }

  /** Restores an archived section and reads the page's summary again (its place and version). */
  async restore(key: string) {
    await api.brandKitSectionArchive(this.kitId, key, false);
    const page = await api.brandKitPage(this.kitId);
    this.sections = page.sections;
    this.archived = page.archived;
    for (const s of page.sections) this.view(s.key);
    this.notice = `Section “${this.summary(key)?.sectionName ?? key}” restored.`;
    if (!this.collapsedKeys().has(key)) await this.open(key).catch(() => undefined);
  }

  // ---------- history ----------

  async history(key: string): Promise<SectionHistory> {
    const h = await api.brandKitHistory(this.kitId, key);
    this.takeRead(h.section);
    return h;
  }

  /** Brings back an earlier version: it lands as a new version (so it can be reverted in turn). */
  async revert(key: string, version: number, expectedVersion: number): Promise<BrandKitSection> {
    const s = await api.brandKitRevert({ brandKitId: this.kitId, key, to: version, expectedVersion });
    this.noteIfNew(s, expectedVersion);
    this.takeRead(s);
    this.notice = `Version ${version} of “${s.sectionName}” is back, as version ${s.version}.`;
    return s;
  }
}

const kept = new Map<string, KitSession>();

/**
 * The page's state for a profile: kept beside the module, so unsaved text survives leaving the Brand kit
 * page (and switching to another profile and back) while the app runs.
 */
export function keptKit(profileId: string | null): KitSession {
  const key = profileId ?? "";
  let kit = kept.get(key);
  if (!kit) {
    kit = new KitSession();
    kit.profileId = profileId;
    kept.set(key, kit);
  }
  return kit;
}

/** Tests: the next page starts afresh. */
export function forgetKeptKits(): void {
  kept.clear();
}
