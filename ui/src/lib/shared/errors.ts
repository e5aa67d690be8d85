// What the user reads for each error code. The core writes a specific `message`; this adds the short
// title and, where the code calls for it, what to do next.
import type { IpcError } from "../bindings";

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
    case "server": return "The service failed";
    case "keyringUnavailable": return "Keyring unavailable";
    case "noKey": return "No API key";
    case "noProfile": return "No profile";
    default: return "Something went wrong";
  }
}

export function fieldLabel(field: string): string {
  return ({ baseUrl: "the base URL", name: "the name", key: "the API key" } as Record<string, string>)[field] ?? field;
}
