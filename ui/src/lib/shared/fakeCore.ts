// Tests only: a small in-memory stand-in for the Rust core behind `mockIPC`, so component tests drive
// the real backend module (Tauri IPC path) and can check which commands ran with which `args`.
import { mockIPC } from "@tauri-apps/api/mocks";
import type { AppInfo, Balance, IpcError, Profile, ProfilesView, UpdatePrefs, UpdateStatus } from "../bindings";

export type Call = { cmd: string; args: Record<string, unknown> | undefined };

export interface FakeCore {
  profiles: Profile[];
  selectedId: string | null;
  info: AppInfo;
  balance: Balance;
  /** The update preferences (`update_prefs_set` changes them). */
  updatePrefs: UpdatePrefs;
  /** What `update_check` answers (up to date unless a test says otherwise). */
  updateStatus: UpdateStatus;
  /** A command name here fails with that error (every time, until deleted). */
  failWith: Partial<Record<string, IpcError>>;
  /** A command name here waits for the promise before it answers (to see in-flight states). */
  hold: Partial<Record<string, Promise<unknown>>>;
  /** Extra answers for commands this fake does not know (planner reads and so on). */
  answers: Record<string, (args: Record<string, unknown> | undefined) => unknown>;
  calls: Call[];
  called(cmd: string): Call[];
}

export const SANDBOX: Profile = {
  id: "sb", name: "Sandbox", baseUrl: "http://127.0.0.1:1/api/v1", kind: "sandbox", hasKey: true,
};

/** `events`: Tauri events are mocked too (`emit` from @tauri-apps/api/event reaches `listen`ers). */
export function fakeCore(
  init: Partial<Pick<FakeCore, "profiles" | "selectedId" | "info" | "balance">> & { events?: boolean } = {},
): FakeCore {
  const core: FakeCore = {
    profiles: init.profiles ?? [SANDBOX],
    selectedId: init.selectedId ?? "sb",
    info: init.info ?? { version: "0.1.0", keyStorage: "keyring", keyringProblem: null, dataDir: "/tmp/cd", notices: [] },
    balance: init.balance ?? { balance: 120, tier: "hero", autoTopupEnabled: false },
    updatePrefs: { autoCheck: true, lastCheck: null, manual: null },
    updateStatus: { state: "upToDate", current: "0.1.0", version: null, notes: null, date: null, note: null, manual: null },
    failWith: {},
    hold: {},
    answers: {},
    calls: [],
    called: (cmd) => core.calls.filter((c) => c.cmd === cmd),
  };
  const view = (): ProfilesView => ({ profiles: core.profiles, selectedId: core.selectedId });
  const patch = (id: unknown, change: Partial<Profile>) => {
    core.profiles = core.profiles.map((p) => (p.id === id ? { ...p, ...change } : p));
  };

  mockIPC(async (cmd, payload) => {
    const args = (payload as { args?: Record<string, unknown> } | undefined)?.args;
    core.calls.push({ cmd, args });
    await core.hold[cmd];
    const failure = core.failWith[cmd];
    if (failure) throw failure;
    switch (cmd) {
      case "app_info": return core.info;
      case "profiles_list": return view();
      case "balance": case "key_test": return core.balance;
      case "key_set": patch(args?.profileId, { hasKey: true }); return core.balance;
      case "profile_add": {
        const p: Profile = {
          id: `r${core.profiles.length}`, name: String(args?.name), baseUrl: String(args?.baseUrl),
          kind: "remote", hasKey: false,
        };
        core.profiles = [...core.profiles, p];
        return p;
      }
      case "profile_rename": patch(args?.id, { name: String(args?.name) }); return core.profiles.find((p) => p.id === args?.id);
      case "profile_select": core.selectedId = String(args?.profileId); return view();
      case "profile_remove":
        core.profiles = core.profiles.filter((p) => p.id !== args?.profileId);
        if (core.selectedId === args?.profileId) core.selectedId = core.profiles[0]?.id ?? null;
        return view();
      case "sign_out": patch(args?.profileId, { hasKey: false }); return view();
      case "ui_ready": return null;
      case "update_prefs": return core.updatePrefs;
      case "update_prefs_set": core.updatePrefs = { ...core.updatePrefs, autoCheck: Boolean(args?.autoCheck) }; return core.updatePrefs;
      case "update_check": core.updatePrefs = { ...core.updatePrefs, lastCheck: 1_800_000_000 }; return core.updateStatus;
      default: {
        const answer = core.answers[cmd];
        if (answer) return answer(args);
        throw { code: "internal", message: `the fake core does not know ${cmd}` } satisfies IpcError;
      }
    }
  }, init.events ? { shouldMockEvents: true } : undefined);
  return core;
}
