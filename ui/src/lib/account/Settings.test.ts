import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { render, screen, waitFor, within } from "@testing-library/svelte";
import userEvent from "@testing-library/user-event";
import { clearMocks, mockIPC } from "@tauri-apps/api/mocks";
import Settings from "./Settings.svelte";
import { session, startSession } from "./session.svelte";
import type { IpcError, Profile } from "../bindings";

const sandbox: Profile = { id: "sb", name: "Sandbox", baseUrl: "http://127.0.0.1:1/api/v1", kind: "sandbox", hasKey: true };
let profiles: Profile[];
let calls: { cmd: string; args: any }[];
let failWith: Record<string, IpcError>;

function backend() {
  mockIPC((cmd, payload) => {
    const args = (payload as { args?: any })?.args;
    calls.push({ cmd, args });
    if (failWith[cmd]) throw failWith[cmd];
    const view = () => ({ profiles, selectedId: "sb" });
    switch (cmd) {
      case "app_info": return { version: "0.1.0", keyStorage: "keyring", keyringProblem: null, dataDir: "/tmp/cd" };
      case "profiles_list": return view();
      case "balance": case "key_set": case "key_test": return { balance: 120, tier: "hero", autoTopupEnabled: false };
      case "profile_add": {
        const p: Profile = { id: "r1", name: args.name, baseUrl: args.baseUrl, kind: "remote", hasKey: false };
        profiles = [...profiles, p];
        return p;
      }
      case "profile_remove": profiles = profiles.filter((p) => p.id !== args.id); return view();
      case "sign_out": profiles = profiles.map((p) => (p.id === args.profileId ? { ...p, hasKey: false } : p)); return view();
      default: throw { code: "internal", message: `unexpected ${cmd}` };
    }
  });
}

beforeEach(async () => {
  profiles = [sandbox];
  calls = [];
  failWith = {};
  backend();
  await startSession();
});
afterEach(() => clearMocks());

describe("Settings", () => {
  it("adds a remote profile with its key: the right commands, and the key field is cleared", async () => {
    const user = userEvent.setup();
    render(Settings);
    await user.type(screen.getByLabelText("Name"), "Studio");
    const url = screen.getByLabelText("Base URL") as HTMLInputElement;
    expect(url.value).toBe("https://app.contenthero.ai/api/v1");
    await user.type(screen.getByLabelText(/^API key/), "ch_live_abc{Enter}");
    await screen.findByText(/Added “Studio”; the key works \(120 credits\)/);
    expect(calls.find((c) => c.cmd === "profile_add")?.args).toEqual({ name: "Studio", baseUrl: "https://app.contenthero.ai/api/v1" });
    expect(calls.find((c) => c.cmd === "key_set")?.args).toEqual({ profileId: "r1", key: "ch_live_abc" });
    expect((document.querySelector("#new-key") as HTMLInputElement).value).toBe("");
  });

  it("shows the field of a validation error and keeps what was typed", async () => {
    failWith.profile_add = { code: "validation", field: "baseUrl", message: "The base URL is not a valid URL." };
    const user = userEvent.setup();
    render(Settings);
    await user.type(screen.getByLabelText("Name"), "Bad");
    await user.clear(screen.getByLabelText("Base URL"));
    await user.type(screen.getByLabelText("Base URL"), "nope{Enter}");
    const alert = await screen.findByTestId("add-error");
    expect(alert).toHaveTextContent("Check the base URL");
    expect(alert).toHaveTextContent("The base URL is not a valid URL.");
    expect((screen.getByLabelText("Name") as HTMLInputElement).value).toBe("Bad");
  });

  const codes: [IpcError, RegExp][] = [
    [{ code: "unauthorized", message: "The service refused this API key." }, /The key was refused/],
    [{ code: "missingScope", scope: "brandkit:read", message: "This key lacks the scope brandkit:read." }, /Missing scope: brandkit:read/],
    [{ code: "network", message: "Could not reach the service." }, /Cannot reach the service/],
    [{ code: "keyringUnavailable", message: "No keyring is reachable: install gnome-keyring." }, /Keyring unavailable.*gnome-keyring/s],
    [{ code: "rateLimited", message: "Try again in 3 s.", retryAfter: 3 }, /Too many requests/],
  ];
  for (const [error, shown] of codes) {
    it(`a ${error.code} error on saving a key says so, and nothing is echoed back`, async () => {
      profiles = [sandbox, { id: "r1", name: "Studio", baseUrl: "https://x/api/v1", kind: "remote", hasKey: false }];
      await startSession();
      failWith.key_set = error;
      const user = userEvent.setup();
      render(Settings);
      const card = screen.getByTestId("profile-Studio");
      await user.type(within(card).getByLabelText("API key"), "ch_live_secret123");
      await user.click(within(card).getByRole("button", { name: "Check and save key" }));
      const note = await within(card).findByTestId("profile-error");
      expect(note.textContent).toMatch(shown);
      expect(document.body.innerHTML).not.toContain("ch_live_secret123");
    });
  }

  it("remove asks for confirmation naming the profile; cancel keeps it", async () => {
    profiles = [sandbox, { id: "r1", name: "Studio", baseUrl: "https://x/api/v1", kind: "remote", hasKey: true }];
    await startSession();
    const user = userEvent.setup();
    render(Settings);
    const card = screen.getByTestId("profile-Studio");
    await user.click(within(card).getByRole("button", { name: "Remove" }));
    const dialog = screen.getByRole("alertdialog");
    expect(dialog).toHaveTextContent("Remove “Studio”?");
    expect(within(dialog).getByRole("button", { name: "Cancel" })).toHaveFocus();
    await user.keyboard("{Escape}");
    expect(screen.queryByRole("alertdialog")).toBeNull();
    expect(calls.some((c) => c.cmd === "profile_remove")).toBe(false);
    await user.click(within(card).getByRole("button", { name: "Remove" }));
    await user.click(within(screen.getByRole("alertdialog")).getByRole("button", { name: "Remove profile" }));
    await waitFor(() => expect(screen.queryByTestId("profile-Studio")).toBeNull());
    expect(calls.find((c) => c.cmd === "profile_remove")?.args).toEqual({ id: "r1" });
  });

  it("the sandbox profile has no remove or sign-out button", async () => {
    render(Settings);
    const card = screen.getByTestId("profile-Sandbox");
    expect(within(card).queryByRole("button", { name: "Remove" })).toBeNull();
    expect(within(card).queryByRole("button", { name: "Sign out" })).toBeNull();
    expect(within(card).getByTestId("key-status")).toHaveTextContent("Local key stored in the OS keyring");
  });

  it("keys in memory: the warning says why and what to do", async () => {
    session.info = { version: "0.1.0", keyStorage: "memory", keyringProblem: "No keyring is reachable: install gnome-keyring.", dataDir: "/tmp" };
    render(Settings);
    expect(screen.getByTestId("keyring-warning")).toHaveTextContent("install gnome-keyring");
  });
});
