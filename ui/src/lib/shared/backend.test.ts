import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { clearMocks, mockIPC } from "@tauri-apps/api/mocks";
import { api, call, isTauri, toIpcError, webShellToken } from "./backend";

describe("backend in the desktop window (Tauri IPC)", () => {
  afterEach(() => clearMocks());

  it("uses invoke with the arguments under `args`", async () => {
    const seen: { cmd: string; payload: unknown }[] = [];
    mockIPC((cmd, payload) => {
      seen.push({ cmd, payload });
      return { balance: 42, tier: "hero", autoTopupEnabled: false };
    });
    expect(isTauri()).toBe(true);
    const b = await api.keySet("p1", "ch_live_x");
    expect(b.balance).toBe(42);
    expect(seen).toEqual([{ cmd: "key_set", payload: { args: { profileId: "p1", key: "ch_live_x" } } }]);
  });

  it("passes the core's IpcError through as thrown", async () => {
    mockIPC(() => {
      throw { code: "missingScope", message: "This key lacks the scope brandkit:read.", scope: "brandkit:read" };
    });
    await expect(api.brandKitsList()).rejects.toMatchObject({ code: "missingScope", scope: "brandkit:read" });
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

  it("reads the token once, hides it from the URL and sends it with every call", async () => {
    const fetchMock = vi.fn(async () => new Response(JSON.stringify([{ id: "s1", name: "Content plan" }]), { status: 200 }));
    vi.stubGlobal("fetch", fetchMock);
    expect(isTauri()).toBe(false);
    const spaces = await api.spacesList();
    expect(spaces[0].name).toBe("Content plan");
    expect(window.location.search).toBe("");
    expect(window.location.hash).toBe("#/settings");
    const [url, init] = fetchMock.mock.calls[0] as unknown as [string, RequestInit];
    expect(url).toBe("/ipc/spaces_list");
    expect((init.headers as Record<string, string>)["X-ContentDesk-Token"]).toBe("run-token");
    expect(JSON.parse(init.body as string)).toEqual({ includeArchived: false });
    expect(webShellToken()).toBe("run-token");
  });

  it("throws the IpcError body of a non-2xx answer", async () => {
    vi.stubGlobal("fetch", vi.fn(async () => new Response(JSON.stringify({ code: "validation", message: "bad", field: "spaceId" }), { status: 400 })));
    await expect(api.stagesList("")).rejects.toMatchObject({ code: "validation", field: "spaceId" });
  });

  it("a failed fetch is a network error that says what to do", async () => {
    vi.stubGlobal("fetch", vi.fn(async () => { throw new TypeError("Failed to fetch"); }));
    await expect(api.balance()).rejects.toMatchObject({ code: "network" });
    expect(toIpcError(new TypeError("x")).message).toMatch(/web-shell/);
  });
});
