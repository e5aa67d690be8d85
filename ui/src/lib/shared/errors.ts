// What the user reads for each error code (docs/ipc.md "Error codes"). The core writes a specific
// `message`; this adds the short title, a fallback sentence when the message is empty, and the
// details the UI knows better than a sentence can say (valid values, where a keyring comes from).
import type { IpcCode, IpcError } from "../bindings";

export function errorTitle(e: IpcError): string {
  switch (e.code) {
    case "unauthorized": return "The key was refused";
    case "missingScope": return e.scope ? `Missing scope: ${e.scope}` : "Missing scope";
    case "notFound": return "Not found";
    case "validation": return e.field ? `Check ${fieldLabel(e.field)}` : "Check the input";
    case "conflict":
    case "notesConflict": return "Changed elsewhere";
    case "rateLimited": return "Too many requests";
    case "insufficientCredits": return "Not enough credits";
    case "limitReached": return "Plan limit reached";
    case "network": return "Cannot reach the service";
    case "queued": return "Kept on this computer";
    case "server": return "The service failed";
    case "keyringUnavailable": return "Keyring unavailable";
    case "noKey": return "No API key";
    case "noProfile": return "No profile";
    default: return "Something went wrong";
  }
}

/** Said when the core's message is empty: every code still reads as what happened and what to do. */
const FALLBACK: Record<IpcCode, string> = {
  unauthorized: "The service refused this API key (mistyped or revoked). Paste a current key in Settings.",
  missingScope: "This key lacks a scope this needs. Grant it on the service's API-keys page, then paste the key in Settings.",
  notFound: "This record is gone: it was deleted elsewhere or belongs to another account.",
  validation: "The service did not accept this input.",
  conflict: "Someone changed this since you opened it. Nothing was written; your text is kept.",
  notesConflict: "The card's notes changed since you opened them. Nothing was written; your text is kept.",
  rateLimited: "The service is rate limiting this key. Wait a moment, then try again.",
  insufficientCredits: "Not enough credits for this. Nothing was charged.",
  limitReached: "Your plan's limit is reached. Remove an item or upgrade the plan.",
  network: "The service could not be reached. Check the connection and the base URL; nothing was lost.",
  queued: "The service cannot be reached, so your change is kept on this computer and will be sent when it answers.",
  server: "The service failed. Nothing was lost here; try again in a moment.",
  keyringUnavailable: "No keyring is reachable to store the API key.",
  noKey: "This profile has no API key yet: add one in Settings.",
  noProfile: "No profile is selected: choose or add one in Settings.",
  internal: "Something went wrong inside Content Desk. Try again; if it keeps happening, restart the app.",
};

export function errorMessage(e: IpcError): string {
  return e.message?.trim() ? e.message : (FALLBACK[e.code] ?? FALLBACK.internal);
}

/** Extra lines under the message, only where they add something the message may not say. */
export function errorDetails(e: IpcError): string[] {
  const out: string[] = [];
  const msg = e.message ?? "";
  if (e.code === "validation" && e.validValues?.length) {
    out.push(`Valid values: ${e.validValues.join(", ")}.`);
  }
  if (e.code === "missingScope" && e.scope && !msg.includes(e.scope)) {
    out.push(`Grant the scope ${e.scope} to the key on the service's API-keys page, then paste the key in Settings.`);
  }
  if (e.code === "rateLimited" && e.retryAfter != null && !/\d+\s*s\b/.test(msg)) {
    out.push(`Try again in ${Math.ceil(e.retryAfter)} s.`);
  }
  if (e.code === "keyringUnavailable" && !msg.includes("org.freedesktop.secrets")) {
    out.push(
      "Content Desk keeps API keys in the OS keyring. On Linux that is a Secret Service provider " +
        "(org.freedesktop.secrets): install GNOME Keyring (package gnome-keyring) or enable KeePassXC's " +
        "Secret Service integration, and unlock the login keyring.",
    );
  }
  return out;
}

export function fieldLabel(field: string): string {
  return ({ baseUrl: "the base URL", name: "the name", key: "the API key", id: "the profile" } as Record<string, string>)[field] ?? field;
}
