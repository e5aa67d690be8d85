// The brand-kit page's decisions that need no screen: which tabs to show, what a save sends (only what
// changed, with the version it was read at), a section's summary after a write, and how a knowledge file
// can be sent (base64 from this computer, or a hosted URL). Table-tested in brandKitRules.test.ts.
import { formatDateTime } from "../shared/datetime";
import type { BrandKitSection, SectionAddInput, SectionEdit, SectionSummary } from "../bindings";
import {
  KNOWLEDGE_MAX_FILE_BYTES, KNOWLEDGE_MEDIA_EXTENSIONS, ROLES, ROLE_NAMES, SECTION_NAME_MAX_CHARS, SECTION_POSITIONS, TABS, WIDTHS,
} from "../bindings/valueLists";

/** The service's tabs, in its order (generated from api-types `TABS`); an unknown one is answered with these. */
export const KNOWN_TABS = TABS;
export { SECTION_NAME_MAX_CHARS, WIDTHS };

// ---------- what the page shows for the service's values ----------
// A key (`content_strategy`) is never on screen: a role shows by the spec's starter name (ROLE_NAMES,
// generated from api-types STARTER_SECTIONS), anything else without a name (a tab, a width, a role the
// service added later) in the one humanised form below. Every label of the page comes through here.

/** `content_strategy` → "Content strategy": the one humanised form of a value the spec gives no name. */
export function humanise(value: string): string {
  const words = value.replace(/[_-]+/g, " ").trim();
  return words ? words[0].toUpperCase() + words.slice(1) : value;
}

export function tabLabel(tab: string): string {
  return humanise(tab);
}

/** A starter role by its name in the spec ("Content Strategy"); an unknown one humanised. */
export function roleLabel(role: string): string {
  return ROLE_NAMES[role] ?? humanise(role);
}

/** What a person typed in the Role or Tab filter, as the value the service takes: a name shown on the page
 * ("Content Strategy", "voice and tone") is taken for its value; anything else is sent as typed (the
 * service answers an unknown one with the valid values). */
export function valueOf(input: string, values: readonly string[], label: (v: string) => string): string {
  const typed = trimmed(input);
  const norm = (v: string) => v.toLowerCase().replace(/[\s_-]+/g, " ").replace(/&/g, "and");
  return values.find((v) => v === typed || norm(label(v)) === norm(typed) || norm(v) === norm(typed)) ?? typed;
}

/** The tabs the page's sections carry, in the service's order first, then any other in page order. */
export function tabsOf(sections: Pick<SectionSummary, "tab">[]): string[] {
  const carried = [...new Set(sections.map((s) => s.tab))];
  const known = KNOWN_TABS.filter((t) => carried.includes(t));
  return [...known, ...carried.filter((t) => !(KNOWN_TABS as readonly string[]).includes(t))];
}

/** The starter roles the page's sections carry (a section you add has none). */
export function rolesOf(sections: Pick<SectionSummary, "role">[]): string[] {
  return [...new Set(sections.map((s) => s.role).filter((r): r is string => !!r))];
}

// ---------- what the core checks before a write (an add: the catalogue's SectionAddInput::check in
// crates/ops/src/brand_kit.rs; a save: crates/core/src/brand_kit/checks.rs) ----------
// The same rules, in the same order, with the same field and message: both run the cases of
// crates/api-types/fixtures/brand-kit-rules.json. The page checks here to say it at the field before
// calling the core; the core checks again.

/** The field a rule refuses and the core's sentence (with the valid values where it names them). */
export interface RuleError { field: string; message: string; validValues?: string[] }

/** Rust's `str::trim` (Unicode White_Space), which is not JavaScript's: U+0085 is space there, U+FEFF is not. */
const EDGE_SPACE = /^[\t\n\v\f\r \u0085\u00a0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000]+|[\t\n\v\f\r \u0085\u00a0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000]+$/g;
export const trimmed = (v: string): string => v.replace(EDGE_SPACE, "");

function required(field: string, v: string, what: string): RuleError | null {
  return trimmed(v) ? null : { field, message: `Give the ${what}.` };
}

function oneOf(field: string, v: string, valid: readonly string[], what: string): RuleError | null {
  return valid.includes(v) ? null : { field, message: `“${v}” is not a ${what}: use one of ${valid.join(", ")}.`, validValues: [...valid] };
}

/** A section's name as sent, added or renamed: with words, and at most SECTION_NAME_MAX_CHARS characters
 * once trimmed (characters as Rust counts them: code points, not UTF-16 units). */
function sectionName(field: string, v: string): RuleError | null {
  return required(field, v, "section's name")
    ?? ([...trimmed(v)].length > SECTION_NAME_MAX_CHARS
      ? { field, message: `The section's name is too long: at most ${SECTION_NAME_MAX_CHARS} characters.` }
      : null);
}

/** The fields an added section takes (`SectionAddInput`); any other is refused by name, `role` among them
 * (a section you add has none: roles belong to the eight starter sections). */
const ADD_FIELDS: readonly string[] = ["brandKitId", "sectionName", "tab", "width", "body"];

/** An added section (`SectionAddInput::check`): no field it does not name, a name, a known width (when
 * given), a known tab. */
export function checkSectionAdd(a: Pick<SectionAddInput, "sectionName" | "tab" | "width">): RuleError | null {
  const unknown = Object.keys(a).filter((k) => !ADD_FIELDS.includes(k)).sort()[0];
  if (unknown) return { field: unknown, message: `Invalid arguments: unknown field \`${unknown}\`.` };
  return sectionName("sectionName", a.sectionName)
    ?? (a.width != null ? oneOf("width", a.width, WIDTHS, "width") : null)
    ?? required("tab", a.tab, "tab the section goes in")
    ?? oneOf("tab", trimmed(a.tab), TABS, "tab");
}

/** A save: every entry names a section once, says the version it was read at, and changes something (`check_edits`). */
export function checkSectionEdits(edits: readonly SectionEdit[]): RuleError | null {
  if (edits.length === 0) return { field: "sections", message: "Nothing to save: no section changed." };
  const seen = new Set<string>();
  for (const [i, e] of edits.entries()) {
    const at = (f: string) => `sections[${i}].${f}`;
    const missing = required(at("key"), e.key, "section's key");
    if (missing) return missing;
    const key = trimmed(e.key);
    if (seen.has(key)) return { field: at("key"), message: `Section “${key}” is named twice; send one entry per section.` };
    seen.add(key);
    if (e.expectedVersion < 1) return { field: at("expectedVersion"), message: "Give the version the section was read at (1 or more)." };
    if (e.role != null && !((ROLES as readonly string[]).includes(key) && e.role === key)) {
      return { field: at("role"), message: "A section's role cannot be set or changed: roles belong to the eight starter sections." };
    }
    const err = (e.name != null ? sectionName(at("name"), e.name) : null)
      ?? (e.width != null ? oneOf(at("width"), e.width, WIDTHS, "width") : null)
      ?? (e.tab != null ? oneOf(at("tab"), e.tab, TABS, "tab") : null)
      ?? (e.position != null ? oneOf(at("position"), e.position, SECTION_POSITIONS, "position") : null);
    if (err) return err;
    const given = (v: string | null | undefined) => v != null && trimmed(v) !== "";
    const placements = [given(e.afterId), given(e.beforeId), e.position != null].filter(Boolean).length;
    if (placements > 1) {
      return { field: at("position"), message: "Place the section one way: after a section, before one, or at the top or bottom of its tab." };
    }
    if (e.body == null && e.name == null && e.width == null && e.tab == null && placements === 0) {
      return { field: at("body"), message: `Section “${key}” has nothing to save.` };
    }
  }
  return null;
}

/** What a user changed in one section; `undefined` fields did not change. */
export interface SectionChange {
  body?: string;
  name?: string;
  width?: string;
  tab?: string;
  /** Its place in its tab (one of the three), as a move sent it. */
  afterId?: string;
  beforeId?: string;
  position?: string;
}

/**
 * One entry of a save: only the fields that differ from the section as read, each entry with the
 * version its text was read at. `null` when nothing differs (nothing to send).
 */
export function editFor(
  read: Pick<SectionSummary, "key" | "sectionName" | "width" | "tab">,
  readBody: string | null,
  change: SectionChange,
  expectedVersion: number,
): SectionEdit | null {
  const edit: SectionEdit = { key: read.key, expectedVersion };
  if (change.body !== undefined && change.body !== readBody) edit.body = change.body;
  if (change.name !== undefined && trimmed(change.name) !== read.sectionName) edit.name = trimmed(change.name);
  if (change.width !== undefined && change.width !== read.width) edit.width = change.width;
  if (change.tab !== undefined && change.tab !== read.tab) edit.tab = change.tab;
  const changed = edit.body !== undefined || edit.name !== undefined || edit.width !== undefined || edit.tab !== undefined;
  return changed ? edit : null;
}

// ---------- order within a tab ----------

/** Where a section goes in its tab: right after or before another section (ids), or at an edge. */
export type Placement = { afterId: string } | { beforeId: string } | { position: "top" | "bottom" };

/**
 * The placement that puts `key` at index `to` of the tab `tab` (counted without it), as the save sends
 * it: after the section before that slot, or at the top when there is none. `null` when it is already there.
 */
export function placementFor(
  sections: readonly Pick<SectionSummary, "key" | "id" | "tab">[], key: string, tab: string, to: number,
): Placement | null {
  const moving = sections.find((s) => s.key === key);
  if (!moving) return null;
  const others = sections.filter((s) => s.tab === tab && s.key !== key);
  const at = Math.max(0, Math.min(to, others.length));
  if (moving.tab === tab) {
    const now = sections.filter((s) => s.tab === tab).findIndex((s) => s.key === key);
    if (now === at) return null;
  }
  return at === 0 ? { position: "top" } : { afterId: others[at - 1].id };
}

/** The page's sections after a placement, as the service will order them (optimistic). */
export function applyPlacement<T extends Pick<SectionSummary, "key" | "id" | "tab">>(
  sections: readonly T[], key: string, tab: string, place: Placement,
): T[] {
  const moving = sections.find((s) => s.key === key);
  if (!moving) return [...sections];
  const moved = { ...moving, tab } as T;
  const rest = sections.filter((s) => s.key !== key);
  const inTab = rest.filter((s) => s.tab === tab);
  let index: number;
  if ("position" in place) {
    const edge = place.position === "top" ? inTab[0] : inTab[inTab.length - 1];
    index = edge ? rest.indexOf(edge) + (place.position === "top" ? 0 : 1) : -1;
  } else {
    const n = rest.findIndex((s) => s.id === ("afterId" in place ? place.afterId : place.beforeId));
    index = n < 0 ? -1 : n + ("afterId" in place ? 1 : 0);
  }
  if (index < 0) {
    // An empty tab: after the last section of an earlier tab in the service's order, else at the end.
    const order = (t: string) => (KNOWN_TABS as readonly string[]).indexOf(t);
    const after = rest.filter((s) => order(s.tab) <= order(tab));
    index = after.length ? rest.indexOf(after[after.length - 1]) + 1 : 0;
  }
  return [...rest.slice(0, index), moved, ...rest.slice(index)];
}

/** The section's own `##` headings, as the summary read lists them. */
export function outlineOf(body: string): string[] {
  const out: string[] = [];
  let fenced = false;
  for (const line of body.split("\n")) {
    if (/^\s*(```|~~~)/.test(line)) fenced = !fenced;
    if (fenced) continue;
    const m = /^##\s+(.+?)\s*#*\s*$/.exec(line);
    if (m) out.push(m[1]);
  }
  return out;
}

/** A summary as the page would list it after a write answered the whole section. */
export function summaryOf(s: BrandKitSection, before?: SectionSummary): SectionSummary {
  return {
    id: s.id, key: s.key, role: s.role, tab: s.tab, sectionName: s.sectionName, width: s.width, version: s.version,
    updatedAt: s.updatedAt, sortOrder: s.sortOrder ?? before?.sortOrder ?? null,
    charCount: [...s.body].length, outline: outlineOf(s.body),
  };
}

export function sizeLabel(chars: number): string {
  if (chars === 0) return "empty";
  if (chars < 1000) return `${chars} characters`;
  return `${(chars / 1000).toFixed(chars < 10_000 ? 1 : 0)}k characters`;
}

export function bytesLabel(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(0)} KB`;
  return `${(bytes / (1024 * 1024)).toFixed(1)} MB`;
}

/**
 * Who wrote a version, in the user's words. The service says only how a body came in (`bodySource`:
 * user, agent, api, extraction, migration); every write of this app goes through the API with the key, so
 * `api` alone cannot tell ours from another client's. What tells them apart is what this app knows: the
 * versions its own writes were answered with (`written.ts`). Those read "edited in Content Desk"; any
 * other `api` version reads "through the API" (another app, a script, or this app before it kept count).
 */
export function sourceLabel(source: string | null, writtenHere = false): string {
  if (writtenHere) return "edited in Content Desk";
  return ({
    user: "edited in the service's app", agent: "written by an assistant", api: "through the API",
    extraction: "extracted from your material", migration: "carried over from the old brand kit",
  } as Record<string, string>)[source ?? ""] ?? "";
}

export function whenLabel(iso: string | null, now = Date.now()): string {
  if (!iso) return "";
  const t = new Date(iso).getTime();
  if (Number.isNaN(t)) return iso;
  const s = Math.round((now - t) / 1000);
  if (s < 45) return "just now";
  if (s < 3600) return `${Math.round(s / 60)} min ago`;
  if (s < 86_400) return `${Math.round(s / 3600)} h ago`;
  return formatDateTime(t);
}

// ---------- knowledge files ----------

/**
 * The largest file sent from this computer as base64 (the sandbox's limit; the service's is not
 * published), and the video and audio extensions added only by hosted URL: both declared once in
 * api-types and generated into the bindings. The core checks again before sending.
 */
export { KNOWLEDGE_MAX_FILE_BYTES };
const MEDIA_EXTS: readonly string[] = KNOWLEDGE_MEDIA_EXTENSIONS;

export function extOf(name: string): string {
  const m = /\.([A-Za-z0-9]{1,10})$/.exec(name.trim());
  return m ? m[1].toLowerCase() : "";
}

export type FileRoute =
  | { send: "fileData" }
  | { send: "fileUrl"; reason: "media" | "large"; message: string };

/** Whether a file can go as base64 from here, or needs a hosted URL (and the sentence that says why). */
export function fileRoute(file: { name: string; size: number; type: string }): FileRoute {
  const media = /^(video|audio)\//.test(file.type) || MEDIA_EXTS.includes(extOf(file.name));
  if (media) {
    return {
      send: "fileUrl", reason: "media",
      message: `“${file.name}” is ${/^audio\//.test(file.type) || ["mp3", "wav", "m4a", "aac", "ogg", "flac", "opus"].includes(extOf(file.name)) ? "audio" : "video"}: video and audio are not sent from this computer. Put it where it can be downloaded and add it by its hosted URL (Hosted file).`,
    };
  }
  if (file.size > KNOWLEDGE_MAX_FILE_BYTES) {
    return {
      send: "fileUrl", reason: "large",
      message: `“${file.name}” is ${bytesLabel(file.size)}; files sent from this computer can be at most ${bytesLabel(KNOWLEDGE_MAX_FILE_BYTES)}. Put it where it can be downloaded and add it by its hosted URL (Hosted file).`,
    };
  }
  return { send: "fileData" };
}

export function isHttpUrl(v: string): boolean {
  try {
    const u = new URL(v.trim());
    return (u.protocol === "http:" || u.protocol === "https:") && !!u.host;
  } catch {
    return false;
  }
}
