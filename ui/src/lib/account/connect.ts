// "Connect ContentHero": where keys are made, and what the dialog says about a failed connection.
import type { IpcError } from "../bindings";
import { keyRefusal } from "./keyWords";

/** ContentHero's API address (spec/contract-facts.md 1.1), the default of a connected profile. */
export const CONTENTHERO_BASE_URL = "https://app.contenthero.ai/api/v1";

/** Where keys for the service at `baseUrl` are made: its site (spec/contract-facts.md 1.3: "Keys: created
 *  in app Settings → API Keys"), i.e. the API address without `/api/v1`. Null when it is not a URL. */
export function keysPage(baseUrl: string): string | null {
  try {
    const u = new URL(baseUrl.trim());
    if (u.protocol !== "https:" && u.protocol !== "http:") return null;
    return u.origin;
  } catch {
    return null;
  }
}

/** A failed connection in words: the browser sign-in's own ends (field `browser`) and a bad server
 *  address as the core says them, a key's refusal as what to do. */
export function connectProblem(e: IpcError): string {
  if (e.code === "validation" && e.field === "browser") return e.message;
  if (e.code === "validation" && e.field === "baseUrl") return e.message;
  return keyRefusal(e);
}
