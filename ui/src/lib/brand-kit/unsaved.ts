// Where the brand-kit page keeps unsaved section texts in the web view's storage (one entry per profile
// and kit, read and written by kit.svelte.ts), and forgetting them all for a profile. Small on purpose:
// Settings imports it without the brand-kit page.
import { WRITTEN_PREFIX } from "./written";

export const UNSAVED_PREFIX = "contentdesk.brandKit.unsaved";

/** Forgets every kit's unsaved texts of a profile (sign-out, profile removed): the web view's storage
 * keeps no brand text of an account this computer no longer holds a key for (nor the versions it wrote). */
export function forgetUnsavedOf(profileId: string) {
  try {
    const prefixes = [`${UNSAVED_PREFIX}.${profileId}.`, `${WRITTEN_PREFIX}.${profileId}.`];
    const keys = Array.from({ length: localStorage.length }, (_, i) => localStorage.key(i))
      .filter((k): k is string => !!k && prefixes.some((p) => k.startsWith(p)));
    for (const k of keys) localStorage.removeItem(k);
  } catch {
    // Storage unavailable: nothing was kept there either.
  }
}

/** A section's unsaved editor text and what it was written from. */
export interface UnsavedText {
  text: string;
  baseVersion: number;
  baseBody: string;
}

/** The unsaved texts kept on this computer for a profile's kit. */
export function readUnsaved(profileId: string | null, kitId: string): Record<string, UnsavedText> {
  try {
    const raw = localStorage.getItem(`${UNSAVED_PREFIX}.${profileId ?? ""}.${kitId}`);
    const parsed: unknown = raw ? JSON.parse(raw) : {};
    if (!parsed || typeof parsed !== "object") return {};
    const out: Record<string, UnsavedText> = {};
    for (const [k, u] of Object.entries(parsed as Record<string, Partial<UnsavedText>>)) {
      if (typeof u?.text === "string" && typeof u.baseBody === "string" && typeof u.baseVersion === "number") {
        out[k] = { text: u.text, baseBody: u.baseBody, baseVersion: u.baseVersion };
      }
    }
    return out;
  } catch {
    return {};
  }
}

/** Keeps (or, when nothing is unsaved, forgets) a kit's unsaved texts on this computer. */
export function writeUnsaved(profileId: string | null, kitId: string, unsaved: Record<string, UnsavedText>) {
  const key = `${UNSAVED_PREFIX}.${profileId ?? ""}.${kitId}`;
  try {
    if (Object.keys(unsaved).length) localStorage.setItem(key, JSON.stringify(unsaved));
    else localStorage.removeItem(key);
  } catch {
    // Storage full or unavailable: the text stays in the open editor; nothing else to do.
  }
}
