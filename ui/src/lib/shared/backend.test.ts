import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { clearMocks, mockIPC } from "@tauri-apps/api/mocks";
import { EARLY_TTL_MS, api, askEarly, call, isTauri, toIpcError, webShellToken } from "./backend";

describe("backend in the desktop window (Tauri IPC)", () => {
  afterEach(() => clearMocks());

  it("uses invoke with the arguments under `args`, and never fetch", async () => {
    const fetchSpy = vi.fn();
    vi.stubGlobal("fetch", fetchSpy);
    const seen: { cmd: string; payload: unknown }[] = [];
    mockIPC((cmd, payload) => {
      seen.push({ cmd, payload });
      return { balance: 42, tier: "hero", autoTopupEnabled: false };
    });
    expect(isTauri()).toBe(true);
    const b = await api.keySet("p1", "ch_live_x");
    expect(b.balance).toBe(42);
    expect(seen).toEqual([{ cmd: "key_set", payload: { args: { profileId: "p1", key: "ch_live_x" } } }]);
    expect(fetchSpy).not.toHaveBeenCalled();
    vi.unstubAllGlobals();
  });

  it("an early answer goes to the first identical call only, and is dropped unused after EARLY_TTL_MS", async () => {
    vi.useFakeTimers();
    try {
      const seen: [string, unknown][] = [];
      mockIPC((cmd, payload) => { seen.push([cmd, (payload as { args?: unknown }).args]); return seen.length; });
      askEarly("spaces_list", {});
      await vi.waitFor(() => expect(seen).toHaveLength(1));
      // Other arguments are another question.
      await api.spacesList(true);
      expect(seen).toHaveLength(2);
      expect(await api.spacesList(false)).toBe(1);
      expect(seen).toHaveLength(2);
      askEarly("spaces_list", {});
      await vi.waitFor(() => expect(seen).toHaveLength(3));
      vi.advanceTimersByTime(EARLY_TTL_MS + 1);
      expect(await api.spacesList(false)).toBe(4);
    } finally {
      vi.useRealTimers();
    }
  });

  it("a command without arguments is invoked without `args`", async () => {
    const seen: unknown[] = [];
    mockIPC((_cmd, payload) => { seen.push(payload); return { profiles: [], selectedId: null }; });
    await api.profilesList();
    expect(seen).toEqual([{}]);
  });

  it("each wrapper sends its command name and camelCase args", async () => {
    const seen: [string, unknown][] = [];
    mockIPC((cmd, payload) => { seen.push([cmd, (payload as { args?: unknown }).args]); return null; });
    await api.profileAdd("Studio", "https://x/api/v1");
    await api.profileRename("r1", "Agency");
    await api.profileRemove("r1");
    await api.profileSelect("r1");
    await api.keyTest("r1");
    await api.signOut("r1");
    await api.spacesList();
    await api.cardGet("c1");
    await api.tagsList();
    expect(seen).toEqual([
      ["profile_add", { name: "Studio", baseUrl: "https://x/api/v1" }],
      ["profile_rename", { id: "r1", name: "Agency" }],
      ["profile_remove", { profileId: "r1" }],
      ["profile_select", { profileId: "r1" }],
      ["key_test", { profileId: "r1" }],
      ["sign_out", { profileId: "r1" }],
      ["spaces_list", {}],
      ["card_get", { cardId: "c1" }],
      ["tags_list", undefined],
    ]);
  });

  it("passes the core's IpcError through as thrown", async () => {
    mockIPC(() => {
      throw { code: "missingScope", message: "This key lacks the scope brandkit:read.", scope: "brandkit:read", status: 403 };
    });
    await expect(api.brandKitsList()).rejects.toEqual({
      code: "missingScope", message: "This key lacks the scope brandkit:read.", scope: "brandkit:read", status: 403,
    });
  });

  it("turns a plain string rejection into an internal IpcError", async () => {
    mockIPC(() => { throw "boom"; });
    await expect(call("balance")).rejects.toEqual({ code: "internal", message: "boom" });
  });
});

describe("backend in a browser (web-shell)", () => {
  beforeEach(() => {
    clearMocks();
    delete (window as unknown as Record<string, unknown>).__TAURI_INTERNALS__;
    sessionStorage.clear();
    history.replaceState(null, "", "/?token=run-token#/settings");
  });
  afterEach(() => vi.unstubAllGlobals());

  const json = (body: unknown, status = 200) => new Response(JSON.stringify(body), { status });

  it("reads the token once, hides it from the URL, keeps it for the tab and sends it with every call", async () => {
    const fetchMock = vi.fn(async () => json([{ id: "s1", name: "Content plan" }]));
    vi.stubGlobal("fetch", fetchMock);
    expect(isTauri()).toBe(false);
    const spaces = await api.spacesList();
    expect(spaces[0].name).toBe("Content plan");
    expect(window.location.search).toBe("");
    expect(window.location.hash).toBe("#/settings");
    expect(sessionStorage.getItem("contentdesk.webShellToken")).toBe("run-token");
    const [url, init] = fetchMock.mock.calls[0] as unknown as [string, RequestInit];
    expect(url).toBe("/ipc/spaces_list");
    expect(init.method).toBe("POST");
    const headers = init.headers as Record<string, string>;
    expect(headers["X-ContentDesk-Token"]).toBe("run-token");
    expect(headers["content-type"]).toBe("application/json");
    expect(JSON.parse(init.body as string)).toEqual({});

    // A later call (the URL no longer has it) still sends the token, from sessionStorage.
    await api.balance();
    const [url2, init2] = fetchMock.mock.calls[1] as unknown as [string, RequestInit];
    expect(url2).toBe("/ipc/balance");
    expect((init2.headers as Record<string, string>)["X-ContentDesk-Token"]).toBe("run-token");
    expect(init2.body).toBe("{}");
    expect(webShellToken()).toBe("run-token");
  });

  it("throws the IpcError body of a non-2xx answer", async () => {
    vi.stubGlobal("fetch", vi.fn(async () => json({ code: "validation", message: "bad", field: "cardId" }, 400)));
    await expect(api.cardGet("")).rejects.toEqual({ code: "validation", message: "bad", field: "cardId" });
  });

  it("a non-2xx answer that is not an IpcError becomes one, with the status", async () => {
    vi.stubGlobal("fetch", vi.fn(async () => json({ error: "upstream" }, 502)));
    await expect(api.balance()).rejects.toMatchObject({ code: "server", status: 502 });
    vi.stubGlobal("fetch", vi.fn(async () => new Response("<html>oops</html>", { status: 404 })));
    await expect(api.balance()).rejects.toMatchObject({ code: "internal", status: 404, message: expect.stringContaining("HTTP 404") });
  });

  it("a failed fetch is a network error that says what to do", async () => {
    vi.stubGlobal("fetch", vi.fn(async () => { throw new TypeError("Failed to fetch"); }));
    const e = await api.balance().catch((x) => x);
    expect(e).toMatchObject({ code: "network" });
    expect(e.message).toMatch(/web-shell/);
  });
});

describe("toIpcError", () => {
  it("keeps an IpcError, and wraps anything else as internal", () => {
    const ipc = { code: "noKey", message: "add one" } as const;
    expect(toIpcError(ipc)).toBe(ipc);
    expect(toIpcError(new Error("bug"))).toEqual({ code: "internal", message: "bug" });
    expect(toIpcError(null)).toEqual({ code: "internal", message: "Something went wrong." });
  });
});
