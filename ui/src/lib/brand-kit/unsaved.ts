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
