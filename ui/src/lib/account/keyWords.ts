// Plain words for adding a key: its shape checked before anything is sent, the service's refusal said
// as what to do, and a network failure said as what to check instead of the HTTP library's text.
import type { IpcError } from "../bindings";

/** The API key's prefix (spec/contract-facts.md: "prefix `ch_live_` followed by the secret"). */
export const KEY_PREFIX = "ch_live_";

/** Why `key` cannot be an API key, or null when its shape is right (the service still checks it). */
export function keyShapeProblem(key: string): string | null {
  const k = key.trim();
  if (/\s/.test(k)) return "This key has a space or a line break inside: copy it again as one piece.";
  if (!k.startsWith(KEY_PREFIX)) {
    return k.toLowerCase().startsWith(KEY_PREFIX)
      ? `An API key starts with “${KEY_PREFIX}” in small letters: check it was copied as it is.`
      : `An API key starts with “${KEY_PREFIX}”: check you copied the key itself, not its name or id.`;
  }
  if (k.length <= KEY_PREFIX.length) return "This is only the start of a key: copy it whole.";
  return null;
}

/** The service's answer to a key, in words beside the key field. */
export function keyRefusal(e: IpcError): string {
  switch (e.code) {
    case "unauthorized": return "The service refused this key: check it was copied whole, and that it was not revoked.";
    case "missingScope": return `This key works but lacks a scope Content Desk needs${e.scope ? ` (${e.scope})` : ""}: grant it on the service's API-keys page.`;
    case "network": return "The service could not be reached, so the key was not checked: check the base URL and your connection, then try again.";
    case "rateLimited": return "The service is busy with this key: wait a moment, then try again.";
    case "keyringUnavailable": return "The key works, but no keyring could store it: see the keyring note at the top of Settings.";
    default: return e.message?.trim() || "The key was not saved. Try again.";
  }
}

/** A network failure as what to check (the host and the connection), not the library's text. */
export function plainNetwork(e: IpcError, baseUrl: string): IpcError {
  if (e.code !== "network") return e;
  let host = baseUrl;
  try { host = new URL(baseUrl).host || baseUrl; } catch { /* said as typed */ }
  return { ...e, message: `Content Desk could not reach ${host}. Check the base URL is right and this computer is online, then try again.` };
}
