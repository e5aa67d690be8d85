// The one module that talks to the Rust core. In the desktop window it uses Tauri's IPC; in a browser
// (development, Playwright) it uses web-shell's `POST /ipc/<command>` with the per-run token. Every
// failure becomes a thrown `IpcError` ({code, message, ...}), so screens handle one shape.
import type {
  AppInfo, Balance, BrandKitSummary, CardList, IpcError, Profile, ProfilesView, Space, StageList,
} from "../bindings";

const TOKEN_KEY = "contentdesk.webShellToken";

export function isTauri(): boolean {
  return typeof window !== "undefined" && "__TAURI_INTERNALS__" in window;
}

/** Reads `?token=` once, keeps it for this tab, and takes it out of the visible URL. */
export function webShellToken(): string {
  const url = new URL(window.location.href);
  const fromUrl = url.searchParams.get("token");
  if (fromUrl) {
    sessionStorage.setItem(TOKEN_KEY, fromUrl);
    url.searchParams.delete("token");
    history.replaceState(history.state, "", url.pathname + url.search + url.hash);
    return fromUrl;
  }
  return sessionStorage.getItem(TOKEN_KEY) ?? "";
}

export function isIpcError(e: unknown): e is IpcError {
  return typeof e === "object" && e !== null && typeof (e as IpcError).code === "string"
    && typeof (e as IpcError).message === "string";
}

/** Any thrown value as an IpcError (a string from Tauri, a TypeError from fetch, ...). */
export function toIpcError(e: unknown): IpcError {
  if (isIpcError(e)) return e;
  if (e instanceof TypeError) {
    return { code: "network", message: "Content Desk's core did not answer. Is web-shell still running? Reload the page." };
  }
  return { code: "internal", message: typeof e === "string" ? e : (e as Error)?.message ?? "Something went wrong." };
}

export async function call<T>(command: string, args?: object): Promise<T> {
  try {
    if (isTauri()) {
      const { invoke } = await import("@tauri-apps/api/core");
      return (await invoke(command, args === undefined ? {} : { args })) as T;
    }
    const res = await fetch(`/ipc/${command}`, {
      method: "POST",
      headers: { "content-type": "application/json", "X-ContentDesk-Token": webShellToken() },
      body: JSON.stringify(args ?? {}),
    });
    const text = await res.text();
    let body: unknown;
    try {
      body = text ? JSON.parse(text) : null;
    } catch {
      throw { code: "internal", message: `Unexpected answer from web-shell (${res.status}).` } satisfies IpcError;
    }
    if (!res.ok) throw body;
    return body as T;
  } catch (e) {
    throw toIpcError(e);
  }
}

/** Typed wrappers, one per command of docs/ipc.md. */
export const api = {
  appInfo: () => call<AppInfo>("app_info"),
  profilesList: () => call<ProfilesView>("profiles_list"),
  profileAdd: (name: string, baseUrl: string) => call<Profile>("profile_add", { name, baseUrl }),
  profileRename: (id: string, name: string) => call<Profile>("profile_rename", { id, name }),
  profileRemove: (id: string) => call<ProfilesView>("profile_remove", { id }),
  profileSelect: (id: string) => call<ProfilesView>("profile_select", { id }),
  keySet: (profileId: string, key: string) => call<Balance>("key_set", { profileId, key }),
  keyTest: (profileId: string) => call<Balance>("key_test", { profileId }),
  signOut: (profileId: string) => call<ProfilesView>("sign_out", { profileId }),
  balance: () => call<Balance>("balance"),
  spacesList: (includeArchived = false) => call<Space[]>("spaces_list", { includeArchived }),
  stagesList: (spaceId: string) => call<StageList>("stages_list", { spaceId }),
  cardsList: (spaceId: string, stageId?: string) => call<CardList>("cards_list", stageId ? { spaceId, stageId } : { spaceId }),
  brandKitsList: () => call<BrandKitSummary[]>("brand_kits_list"),
  /** Desktop only: tells the shell the first data render is done (launch benchmark). */
  uiReady: async () => {
    if (isTauri()) await call<void>("ui_ready").catch(() => undefined);
  },
};
