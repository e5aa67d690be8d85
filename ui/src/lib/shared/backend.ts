// The one module that talks to the Rust core. In the desktop window it uses Tauri's IPC; in a browser
// (development, Playwright) it uses web-shell's `POST /ipc/<command>` with the per-run token. Every
// failure becomes a thrown `IpcError` ({code, message, ...}), so screens handle one shape.
import type {
  BoardLoadArgs, CardCreateInput, CardUpdateArgs, CoreCommands, IpcError, StageCreateInput, StudioQuote,
  StageDeleteInput, StageUpdateInput, UpdateCard,
} from "../bindings";
import type {
  CardPublishInput, ContentListInput, MediaUploadInput, ProjectCreateInput, ProjectImportInput,
} from "../bindings";
import type { DraftsResolveArgs } from "../bindings";
import type {
  SectionRevertInput, BrandKitSaveArgs, SectionAddInput,
  BrandKitGetInput, KnowledgeAddInput, SectionEdit,
} from "../bindings";
import type {
  CardAttachOutputArgs, ContentType, MediaListInput, StudioEvent, StudioForm, StudioGenerateArgs,
  StudioJobArgs, StudioQuoteArgs,
} from "../bindings";
import type { UpdateStatus } from "../bindings";

/** Every command: the core's (generated from its command table) and the desktop shell's five. */
export interface Commands extends CoreCommands {
  /** Desktop only: tells the shell the first data render is done (launch benchmark). */
  ui_ready: { args: undefined; result: null };
  /** Desktop only: a link (https, http, mailto) opened in the system's browser. */
  open_external: { args: { url: string }; result: null };
  /** Desktop only: downloads, verifies and installs the newer version, then relaunches (src-tauri/src/update.rs). */
  update_install: { args: undefined; result: UpdateStatus };
  /** Desktop only: quits and starts Content Desk again (Settings › Backup after a restore; never answers). */
  app_restart: { args: undefined; result: null };
  /** Desktop only: a file saved in the downloads folder under a name not taken; answers its path. */
  save_download: { args: { fileName: string; text: string }; result: string };
}
export type Command = keyof Commands;

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

/** Any thrown value as an IpcError (a string from Tauri, an Error from a bug, ...). */
export function toIpcError(e: unknown): IpcError {
  if (isIpcError(e)) return e;
  return { code: "internal", message: typeof e === "string" ? e : (e as Error)?.message ?? "Something went wrong." };
}

/** An answer that is not the contract's: say so with the status rather than guess. */
function unexpected(status: number): IpcError {
  return {
    code: status >= 500 ? "server" : "internal",
    message: `Unexpected answer from web-shell (HTTP ${status}). Reload the page; if it keeps happening, restart web-shell.`,
    status,
  };
}

/** Commands asked by boot.ts before the app's script is in, each answered once to its first caller. */
const early: { command: string; args: Record<string, unknown>; answer: Promise<unknown> }[] = [];
/** An early answer nobody took by then is dropped (it was for a start that went another way). */
export const EARLY_TTL_MS = 5_000;

const sameArgs = (a: Record<string, unknown>, b: Record<string, unknown>) =>
  Object.keys(a).length === Object.keys(b).length && Object.keys(a).every((k) => a[k] === b[k]);

/**
 * boot.ts: sends `command` now, while the app's script is still loading (the board's first page is out
 * before the app starts, not after it). The first `call` of the same command with the same (flat)
 * arguments within `EARLY_TTL_MS` gets this answer instead of asking again; later calls ask anew.
 */
export function askEarly(command: string, args: Record<string, unknown> = {}) {
  const entry = { command, args, answer: send(command, args) };
  entry.answer.catch(() => undefined);
  early.push(entry);
  setTimeout(() => { const i = early.indexOf(entry); if (i >= 0) early.splice(i, 1); }, EARLY_TTL_MS);
}

function takeEarly(command: string, args?: object): Promise<unknown> | null {
  const i = early.findIndex((e) => e.command === command && sameArgs(e.args, (args ?? {}) as Record<string, unknown>));
  return i < 0 ? null : early.splice(i, 1)[0].answer;
}

/**
 * Runs a command in the core: Tauri IPC in the desktop window, web-shell's HTTP in a browser. An aborted
 * `signal` cancels the HTTP request (web-shell); Tauri IPC cannot be cancelled, so callers also drop stale
 * replies themselves.
 */
export function call<T>(command: string, args?: object, signal?: AbortSignal): Promise<T> {
  return (early.length > 0 && takeEarly(command, args) as Promise<T> | null) || send<T>(command, args, signal);
}

async function send<T>(command: string, args?: object, signal?: AbortSignal): Promise<T> {
  try {
    if (isTauri()) {
      const { invoke } = await import("@tauri-apps/api/core");
      return (await invoke(command, args === undefined ? {} : { args })) as T;
    }
    let res: Response;
    try {
      res = await fetch(`/ipc/${command}`, {
        method: "POST",
        headers: { "content-type": "application/json", "X-ContentDesk-Token": webShellToken() },
        body: JSON.stringify(args ?? {}),
        signal,
      });
    } catch (e) {
      if ((e as Error)?.name === "AbortError") throw { code: "internal", message: "Cancelled: a newer request replaced this one." } satisfies IpcError;
      // fetch rejects only when nothing answered (web-shell stopped, connection refused).
      throw {
        code: "network",
        message: "Content Desk's core did not answer: is web-shell still running? Start it again, then reload the page. Nothing was lost.",
      } satisfies IpcError;
    }
    const text = await res.text();
    let body: unknown;
    try {
      body = text ? JSON.parse(text) : null;
    } catch {
      throw unexpected(res.status);
    }
    if (!res.ok) throw isIpcError(body) ? body : unexpected(res.status);
    return body as T;
  } catch (e) {
    throw toIpcError(e);
  }
}

/** Runs one command of the contract with its typed `args`. */
function run<C extends Command>(command: C, ...args: Commands[C]["args"] extends undefined ? [] : [Commands[C]["args"]]) {
  return call<Commands[C]["result"]>(command, args[0]);
}

/** Typed wrappers, one per command of docs/ipc.md. */
export const api = {
  appInfo: () => run("app_info"),
  profilesList: () => run("profiles_list"),
  profileAdd: (name: string, baseUrl: string) => run("profile_add", { name, baseUrl }),
  profileRename: (id: string, name: string) => run("profile_rename", { id, name }),
  profileRemove: (id: string) => run("profile_remove", { profileId: id }),
  profileSelect: (id: string) => run("profile_select", { profileId: id }),
  keySet: (profileId: string, key: string) => run("key_set", { profileId, key }),
  keyTest: (profileId: string) => run("key_test", { profileId }),
  signOut: (profileId: string) => run("sign_out", { profileId }),
  balance: () => run("balance"),
  spacesList: (archived = false) => run("spaces_list", archived ? { archived } : {}),
  brandKitsList: () => run("brand_kits_list"),
  grantedApps: (profileId: string) => run("granted_apps", { profileId }),
  grantedAppRevoke: (profileId: string, grantId: string) => run("granted_app_revoke", { profileId, grantId }),
  connectWithKey: (key: string, baseUrl: string) => run("connect_with_key", { key, baseUrl }),
  connectBrowserStart: (baseUrl: string) => run("connect_browser_start", { baseUrl }),
  connectBrowserFinish: () => run("connect_browser_finish"),
  connectBrowserCancel: () => run("connect_browser_cancel"),
  boardLoad: (args: BoardLoadArgs) => run("board_load", args),
  spaceCreate: (name: string) => run("space_create", { name }),
  spaceRename: (spaceId: string, name: string) => run("space_rename", { spaceId, name }),
  spaceArchive: (spaceId: string, archived: boolean) => run("space_archive", { assetType: "space", id: spaceId, off: !archived }),
  stageCreate: (args: StageCreateInput) => run("stage_create", args),
  stageUpdate: (args: StageUpdateInput) => run("stage_update", args),
  stageDelete: (args: StageDeleteInput) => run("stage_delete", args),
  cardCreate: (args: CardCreateInput) => run("card_create", args),
  /** `base`: the card as the board had it (its `updatedAt` and title), so a move kept offline meets a change made elsewhere. */
  cardMove: (cardId: string, stageId: string, beforeCardId?: string, base?: { updatedAt?: string | null; title?: string }) =>
    run("card_move", {
      cardId, stage: stageId, ...(beforeCardId ? { beforeCardId } : {}),
      ...(base?.updatedAt ? { baseUpdatedAt: base.updatedAt } : {}), ...(base?.title !== undefined ? { title: base.title } : {}),
    }),
  cardGet: (cardId: string) => run("card_get", { cardId }),
  cardUpdate: (cardId: string, update: UpdateCard) => run("card_update", { cardId, update }),
  cardArchive: (cardId: string, archived: boolean, base?: { updatedAt?: string | null; title?: string }) =>
    run("card_archive", {
      assetType: "card", id: cardId, off: !archived,
      ...(base?.updatedAt ? { baseUpdatedAt: base.updatedAt } : {}), ...(base?.title !== undefined ? { title: base.title } : {}),
    }),
  tagsList: () => run("tags_list"),
  connectedAccountsList: () => run("connected_accounts_list"),
  draftsStatus: () => run("drafts_status"),
  draftsSync: () => run("drafts_sync"),
  draftsResolve: (id: string, action: DraftsResolveArgs["action"]) => run("drafts_resolve", { id, action }),
  contentList: (args: ContentListInput = {}) => run("content_list", args),
  projectsList: () => run("projects_list"),
  projectCreate: (args: ProjectCreateInput) => run("project_create", args),
  projectImport: (args: ProjectImportInput) => run("project_import", args),
  mediaUpload: (args: MediaUploadInput) => run("media_upload", args),
  cardPublish: (cardId: string, platform?: string) => run("card_publish", platform ? { cardId, platform } : { cardId }),
  modelsList: (contentType: ContentType, refresh = false) => run("models_list", refresh ? { contentType, refresh } : { contentType }),
  voicesList: () => run("voices_list"),
  /** The price of a form; `signal` cancels a stale request (browser runs). */
  studioQuote: (form: StudioForm, signal?: AbortSignal) => call<StudioQuote>("studio_quote", { form }, signal),
  studioGenerate: (form: StudioForm, outputId: string) => run("studio_generate", { form, outputId }),
  studioJobs: () => run("studio_jobs"),
  studioCancel: (outputId: string) => run("studio_cancel", { outputId }),
  studioRetry: (outputId: string) => run("studio_retry", { outputId }),
  studioClearFinished: () => run("studio_clear_finished"),
  cardAttachOutput: (cardId: string, token: string) => run("card_attach_output", { cardId, token }),
  /** The account's finished creations (made anywhere), newest first, one per output: the gallery's library. */
  mediaLibrary: (args: MediaListInput = {}) => run("media_library", args),
  brandKitPage: (brandKitId: string) => run("brand_kit_page", { brandKitId }),
  brandKitSections: (args: BrandKitGetInput) => run("brand_kit_sections", args),
  /** Only the changed sections, each with the version it was read at; a 409 keeps them as drafts. */
  brandKitSave: (brandKitId: string, sections: SectionEdit[]) => run("brand_kit_save", { brandKitId, sections }),
  brandKitDrafts: (brandKitId: string) => run("brand_kit_drafts", { brandKitId }),
  brandKitDraftDiscard: (brandKitId: string, key: string) => run("brand_kit_draft_discard", { brandKitId, key }),
  brandKitSectionAdd: (args: SectionAddInput) => run("brand_kit_section_add", args),
  /** Archives the section of this key, or restores it (`archived: false`): the catalogue's two operations. */
  brandKitSectionArchive: (brandKitId: string, key: string, archived: boolean) =>
    run(archived ? "brand_kit_section_archive" : "brand_kit_section_restore", { brandKitId, key }),
  brandKitHistory: (brandKitId: string, key: string) => run("brand_kit_history", { brandKitId, key }),
  brandKitRevert: (args: SectionRevertInput) => run("brand_kit_revert", args),
  knowledgeList: (brandKitId: string, limit?: number, offset?: number) =>
    run("knowledge_list", { brandKitId, ...(limit === undefined ? {} : { limit }), ...(offset === undefined ? {} : { offset }) }),
  knowledgeSearch: (brandKitId: string, query: string) => run("knowledge_search", { brandKitId, query }),
  knowledgeAdd: (args: KnowledgeAddInput) => run("knowledge_add", args),
  knowledgeRemove: (brandKitId: string, knowledgeId: string) => run("knowledge_remove", { brandKitId, knowledgeId }),
  uiReady: async () => {
    if (isTauri()) await run("ui_ready").catch(() => undefined);
  },
  /** Desktop: opens a link in the system's browser (the core accepts https, http and mailto only). */
  openExternal: (url: string) => run("open_external", { url }),
  updatePrefs: () => run("update_prefs"),
  updatePrefsSet: (autoCheck: boolean) => run("update_prefs_set", { autoCheck }),
  updateCheck: (atStart = false) => run("update_check", atStart ? { atStart } : {}),
  updateInstall: () => run("update_install"),
  /** Desktop: restarts the app (the restore staged in Settings › Backup is written as it starts). */
  appRestart: () => run("app_restart"),
};

/** The Tauri event the desktop shell reports an update's download on: bytes so far, and of how many. */
export const UPDATE_PROGRESS_EVENT = "update://progress";

/** Subscribes to the update download's progress (desktop only; a no-op in a browser). */
export function onUpdateProgress(cb: (p: { downloaded: number; total: number | null }) => void): () => void {
  if (!isTauri()) return () => undefined;
  let stop: (() => void) | undefined;
  let stopped = false;
  import("@tauri-apps/api/event")
    .then(({ listen }) => listen<{ downloaded: number; total: number | null }>(UPDATE_PROGRESS_EVENT, (ev) => cb(ev.payload)))
    .then((un) => { if (stopped) un(); else stop = un; })
    .catch(() => undefined);
  return () => {
    stopped = true;
    try { Promise.resolve(stop?.()).catch(() => undefined); } catch { /* already gone */ }
  };
}

/** The Tauri event the desktop shell emits every studio event under (crates/core/src/studio/mod.rs). */
export const STUDIO_EVENT = "studio://event";

/**
 * Subscribes to the core's studio events (queue changes, balance after a charge): Tauri events in the
 * desktop window, server-sent events from web-shell's `/events` in a browser. Returns the unsubscribe.
 */
export function onStudioEvent(cb: (e: StudioEvent) => void): () => void {
  if (isTauri()) {
    let stop: (() => void) | undefined;
    let stopped = false;
    import("@tauri-apps/api/event")
      .then(({ listen }) => listen<StudioEvent>(STUDIO_EVENT, (ev) => cb(ev.payload)))
      .then((un) => { if (stopped) un(); else stop = un; })
      .catch(() => undefined);
    return () => {
      stopped = true;
      // Unsubscribing never fails the caller (the window may be closing; the listener goes with it).
      try { Promise.resolve(stop?.()).catch(() => undefined); } catch { /* already gone */ }
    };
  }
  if (typeof EventSource === "undefined") return () => undefined;
  const source = new EventSource(`/events?token=${encodeURIComponent(webShellToken())}`);
  source.onmessage = (m) => {
    try { cb(JSON.parse(m.data) as StudioEvent); } catch { /* not an event of the contract: ignore */ }
  };
  return () => source.close();
}
