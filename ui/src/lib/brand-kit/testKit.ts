// Tests only: a brand kit kept in memory behind fakeCore's `answers`, following the core's rules
// (docs/ipc.md "Brand kit"; a save or an add is refused by the core's own checks, brandKitRules.ts
// checkSectionEdits/checkSectionAdd, never a copy of them): summary pages without bodies, filtered reads with validValues for an
// unknown role or tab, all-or-nothing saves with expectedVersion (a stale one is a 409 with the current
// body, and the refused entries are kept as drafts), history, revert as a new version, add, archive and
// restore, and a knowledge base with a plan cap. Plus helpers to drive CodeMirror in jsdom.
import { EditorView } from "@codemirror/view";
import type {
  BrandKitSection, IpcError, KnowledgeItem, SectionDraft, SectionEdit, SectionRevision, SectionSummary,
} from "../bindings";
import { fakeCore, type FakeCore } from "../shared/fakeCore";
import { checkSectionAdd, checkSectionEdits, outlineOf, trimmed, type RuleError } from "./brandKitRules";
import { ROLES as ROLE_LIST, TABS as TAB_LIST } from "../bindings/valueLists";

export const KIT = "kit-1";
const TABS: string[] = [...TAB_LIST];
const ROLES: string[] = [...ROLE_LIST];

interface Stored extends BrandKitSection { archived: boolean; earlier: SectionRevision[] }

export interface KitCore extends FakeCore {
  kit: { sections: Stored[]; drafts: SectionDraft[]; knowledge: KnowledgeItem[]; cap: number | null; archivedHere: string[] };
  /** Another editor writes a section (its version moves on). */
  writeElsewhere(key: string, body: string): Stored;
  section(key: string): Stored;
}

function stored(key: string, tab: string, name: string, width: string, body: string, role: string | null = key): Stored {
  return {
    id: `id-${key}`, key, role, tab, sectionName: name, width, version: 1, body, updatedAt: "2026-01-05T10:00:00Z",
    sortOrder: null, archived: false, earlier: [],
  };
}

export function starterSections(): Stored[] {
  return [
    stored("about", "overview", "About", "full", "## Who we are\nA small ceramics studio.\n## Why\nBecause mugs."),
    stored("audience", "overview", "Audience", "half", "## Buyers\n- Gift shoppers"),
    stored("offer", "overview", "Offer", "half", "## Offer\nHand-thrown mugs."),
    stored("voice_and_tone", "voice", "Voice & Tone", "full", "## Tone\nWarm and plain."),
    stored("writing_style", "voice", "Writing Style", "half", "## Style\nShort sentences."),
    stored("design_guidelines", "visual", "Design Guidelines", "full", "## Colours\nClay and cream."),
  ];
}

const summary = (s: Stored): SectionSummary => ({
  id: s.id, key: s.key, role: s.role, tab: s.tab, sectionName: s.sectionName, width: s.width, version: s.version,
  updatedAt: s.updatedAt, sortOrder: s.sortOrder, charCount: [...s.body].length, outline: outlineOf(s.body),
});

/** The core's refusal of a rule: a validation error, nothing sent. */
function refuse(e: RuleError | null) {
  if (e) throw { code: "validation", ...e } satisfies IpcError;
}

const wire = (s: Stored): BrandKitSection => {
  const { archived: _a, earlier: _e, ...rest } = s;
  void _a; void _e;
  return { ...rest };
};

export function kitCore(init: { sections?: Stored[]; drafts?: SectionDraft[]; knowledge?: KnowledgeItem[]; cap?: number | null } = {}): KitCore {
  const core = fakeCore() as KitCore;
  const kit = {
    sections: init.sections ?? starterSections(),
    drafts: init.drafts ?? [],
    knowledge: init.knowledge ?? [
      { id: "kn-1", title: "Packaging notes", sourceType: "text", sourceUrl: null, fileExt: null, sizeBytes: 120, createdAt: null, updatedAt: null, tags: [] },
      { id: "kn-2", title: "Price list", sourceType: "file", sourceUrl: null, fileExt: "pdf", sizeBytes: 20480, createdAt: null, updatedAt: null, tags: [] },
    ],
    cap: init.cap ?? null,
    archivedHere: [] as string[],
  };
  core.kit = kit;
  let seq = 0;
  const live = () => kit.sections.filter((s) => !s.archived);
  const find = (key: string) => {
    const s = live().find((x) => x.key === key);
    if (!s) throw { code: "notFound", message: `No live section ${key}.` } satisfies IpcError;
    return s;
  };
  core.section = (key) => kit.sections.find((s) => s.key === key)!;
  const newVersion = (s: Stored, body: string) => {
    s.earlier.unshift({ version: s.version, body: s.body, bodySource: "user", createdAt: s.updatedAt });
    s.version += 1;
    s.body = body;
    s.updatedAt = new Date().toISOString();
  };
  core.writeElsewhere = (key, body) => {
    const s = find(key);
    newVersion(s, body);
    return s;
  };
  const keepDrafts = (edits: SectionEdit[], conflicts: { key: string; version: number }[]) => {
    for (const e of edits) {
      const before = kit.drafts.find((d) => d.key === e.key);
      const d: SectionDraft = before ?? { key: e.key, expectedVersion: e.expectedVersion, reason: "conflict", savedAt: Date.now() };
      if (e.body != null) d.body = e.body;
      if (e.name != null) d.name = e.name;
      if (e.width != null) d.width = e.width;
      d.expectedVersion = e.expectedVersion;
      const c = conflicts.find((x) => x.key === e.key);
      if (c) d.theirsVersion = c.version;
      if (!before) kit.drafts.push(d);
    }
  };

  core.answers.brand_kits_list = () => [
    { id: KIT, name: "Clay Studio", isDefault: true, isActive: true, isFavorited: false, isArchived: false, createdAt: null },
  ];
  core.answers.brand_kit_page = () => ({
    id: KIT, name: "Clay Studio", sections: live().map(summary),
    // As the core answers with a service that lists archived sections: every archived one, wherever archived.
    archived: kit.sections.filter((s) => s.archived)
      .map((s) => ({ key: s.key, id: s.id, sectionName: s.sectionName, tab: s.tab, archivedAt: 1 })),
    drafts: kit.drafts.map((d) => ({ ...d })),
  });
  core.answers.brand_kit_sections = (args) => {
    const a = args as { keys?: string[]; roles?: string[]; tabs?: string[] };
    for (const r of a.roles ?? []) {
      if (!ROLES.includes(r)) throw { code: "validation", field: "roles", validValues: ROLES, status: 400, message: `Unknown role "${r}"` } satisfies IpcError;
    }
    for (const t of a.tabs ?? []) {
      if (!TABS.includes(t)) throw { code: "validation", field: "tabs", validValues: TABS, status: 400, message: `Unknown tab "${t}": valid values are ${TABS.join(", ")}` } satisfies IpcError;
    }
    const sections = live().filter((s) => (!a.keys || a.keys.includes(s.key)) && (!a.roles || a.roles.includes(s.role ?? ""))
      && (!a.tabs || a.tabs.includes(s.tab)));
    return { id: KIT, name: "Clay Studio", sections: sections.map(wire) };
  };
  /** A section's place in its tab (`afterId`/`beforeId`/`position`), as the service orders it. */
  const place = (s: Stored, e: SectionEdit) => {
    if (e.afterId == null && e.beforeId == null && e.position == null) return;
    kit.sections = kit.sections.filter((x) => x !== s);
    const inTab = kit.sections.filter((x) => x.tab === s.tab && !x.archived);
    const anchor = e.position === "top" ? inTab[0] : e.position === "bottom" ? inTab[inTab.length - 1]
      : kit.sections.find((x) => x.id === (e.afterId ?? e.beforeId));
    if (!anchor) {
      if (e.afterId != null || e.beforeId != null) throw { code: "validation", status: 400, field: "sections[0].afterId", message: "Not a section of that tab." } satisfies IpcError;
      kit.sections.push(s);
      return;
    }
    const at = kit.sections.indexOf(anchor) + (e.position === "top" || e.beforeId != null ? 0 : 1);
    kit.sections.splice(at, 0, s);
  };
  core.answers.brand_kit_save = (args) => {
    const edits = (args as { sections: SectionEdit[] }).sections;
    refuse(checkSectionEdits(edits));
    const stale = edits.map((e) => ({ e, s: find(e.key) })).filter(({ e, s }) => e.expectedVersion !== s.version);
    if (stale.length) {
      const conflicts = stale.map(({ s }) => ({ key: s.key, version: s.version, body: s.body }));
      keepDrafts(edits, conflicts);
      throw {
        code: "conflict", status: 409, conflicts,
        message: `Section “${conflicts[0].key}” changed since you opened it. Nothing was written: your text is kept on this computer.`,
      } satisfies IpcError;
    }
    const out: BrandKitSection[] = [];
    for (const e of edits) {
      const s = find(e.key);
      if (e.body != null && e.body !== s.body) newVersion(s, e.body);
      if (e.name != null) s.sectionName = e.name;
      if (e.width != null) s.width = e.width;
      if (e.tab != null) s.tab = e.tab;
      place(s, e);
      out.push(wire(s));
    }
    kit.drafts = kit.drafts.filter((d) => !edits.some((e) => e.key === d.key));
    return out;
  };
  core.answers.brand_kit_drafts = () => kit.drafts;
  core.answers.brand_kit_draft_discard = (args) => {
    const key = (args as { key: string }).key;
    if (!kit.drafts.some((d) => d.key === key)) throw { code: "notFound", message: "There is no kept draft of that section." } satisfies IpcError;
    kit.drafts = kit.drafts.filter((d) => d.key !== key);
    return kit.drafts;
  };
  core.answers.brand_kit_section_add = (args) => {
    const a = args as { sectionName: string; tab: string; width?: string; body?: string };
    refuse(checkSectionAdd(a));
    const s = stored(`custom_${++seq}`, trimmed(a.tab), trimmed(a.sectionName), a.width ?? "full", a.body ?? "", null);
    kit.sections.push(s);
    return wire(s);
  };
  const setArchived = (args: unknown, archived: boolean) => {
    const a = args as { key: string };
    const s = kit.sections.find((x) => x.key === a.key);
    if (!s) throw { code: "notFound", message: "No such section." } satisfies IpcError;
    s.archived = archived;
    kit.archivedHere = kit.archivedHere.filter((k) => k !== a.key);
    if (archived) kit.archivedHere.push(a.key);
    return { archived };
  };
  core.answers.brand_kit_section_archive = (args) => setArchived(args, true);
  core.answers.brand_kit_section_restore = (args) => setArchived(args, false);
  core.answers.brand_kit_history = (args) => {
    const s = find((args as { key: string }).key);
    return { section: wire(s), earlier: s.earlier.map((r) => ({ ...r })) };
  };
  core.answers.brand_kit_revert = (args) => {
    const a = args as { key: string; to: number; expectedVersion: number };
    const s = find(a.key);
    if (a.expectedVersion !== s.version) {
      throw { code: "conflict", status: 409, conflicts: [{ key: s.key, version: s.version, body: s.body }], message: "Changed since read." } satisfies IpcError;
    }
    const old = s.earlier.find((r) => r.version === a.to);
    if (!old) throw { code: "validation", status: 400, field: "revertTo", message: `No version ${a.to}.` } satisfies IpcError;
    newVersion(s, old.body);
    return wire(s);
  };
  core.answers.knowledge_list = (args) => {
    const a = args as { limit?: number; offset?: number };
    const limit = a.limit ?? 50, offset = a.offset ?? 0;
    const items = kit.knowledge.slice(offset, offset + limit);
    return { items, total: kit.knowledge.length, hasMore: offset + items.length < kit.knowledge.length };
  };
  core.answers.knowledge_search = (args) => {
    const q = String((args as { query: string }).query).toLowerCase();
    return kit.knowledge.filter((k) => (k.title ?? "").toLowerCase().includes(q.split(" ")[0]))
      .map((k, i) => ({ knowledgeId: k.id, title: k.title, content: `…${k.title} passage…`, similarity: 0.87 - i * 0.1, sourceUrl: k.sourceUrl, chunkIndex: 0 }));
  };
  core.answers.knowledge_add = (args) => {
    const a = args as { fileData?: string; fileUrl?: string; url?: string; text?: string; title?: string; fileName?: string; fileExt?: string };
    if (kit.cap !== null && kit.knowledge.length >= kit.cap) {
      throw {
        code: "limitReached", status: 402,
        message: `This kit is at its plan's cap for knowledge (${kit.knowledge.length} of ${kit.cap} items): nothing was added. Remove an item you no longer need, or upgrade the plan, then add this again.`,
      } satisfies IpcError;
    }
    const item: KnowledgeItem = {
      id: `kn-${kit.knowledge.length + 10}`, title: a.title ?? a.fileName ?? a.url ?? a.fileUrl ?? "Text",
      sourceType: a.text ? "text" : a.url ? "url" : "file", sourceUrl: a.url ?? a.fileUrl ?? null, fileExt: a.fileExt ?? null,
      sizeBytes: null, createdAt: null, updatedAt: null, tags: [],
    };
    kit.knowledge.unshift(item);
    return { item, limitReached: kit.cap !== null && kit.knowledge.length >= kit.cap };
  };
  core.answers.knowledge_remove = (args) => {
    const id = (args as { knowledgeId: string }).knowledgeId;
    kit.knowledge = kit.knowledge.filter((k) => k.id !== id);
    return { id };
  };
  return core;
}

// ---------- CodeMirror in jsdom ----------

/** jsdom has no layout: CodeMirror measures ranges; give it empty rectangles. */
export function polyfillLayout() {
  const rect = () => ({ x: 0, y: 0, top: 0, left: 0, right: 0, bottom: 0, width: 0, height: 0, toJSON: () => ({}) }) as DOMRect;
  const list = () => Object.assign([], { item: () => null }) as unknown as DOMRectList;
  if (!Range.prototype.getClientRects) Range.prototype.getClientRects = list;
  if (!Range.prototype.getBoundingClientRect) Range.prototype.getBoundingClientRect = rect;
}

/** The CodeMirror view whose content has this accessible name. */
export function editorNamed(label: string | RegExp): EditorView {
  const all = [...document.querySelectorAll<HTMLElement>(".cm-content")];
  const el = all.find((e) => {
    const name = e.getAttribute("aria-label") ?? "";
    return typeof label === "string" ? name === label : label.test(name);
  });
  if (!el) throw new Error(`no editor named ${label}; have: ${all.map((e) => e.getAttribute("aria-label")).join(" | ")}`);
  const view = EditorView.findFromDOM(el);
  if (!view) throw new Error("not a CodeMirror view");
  return view;
}

/** Types `text` over the whole document of the editor named `label` (as a user's edit). */
export function typeInto(label: string | RegExp, text: string) {
  const view = editorNamed(label);
  view.dispatch({ changes: { from: 0, to: view.state.doc.length, insert: text }, userEvent: "input.type" });
}

export const textOf = (label: string | RegExp) => editorNamed(label).state.doc.toString();
