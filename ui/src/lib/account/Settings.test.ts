import { afterEach, describe, expect, it } from "vitest";
import { render, screen, waitFor, within } from "@testing-library/svelte";
import userEvent from "@testing-library/user-event";
import { clearMocks } from "@tauri-apps/api/mocks";
import Settings from "./Settings.svelte";
import { session, startSession } from "./session.svelte";
import { fakeCore, SANDBOX, type FakeCore } from "../shared/fakeCore";
import type { IpcError, Profile } from "../bindings";

const STUDIO: Profile = { id: "r1", name: "Studio", baseUrl: "https://x.example/api/v1", kind: "remote", hasKey: true };

async function setup(init: Parameters<typeof fakeCore>[0] = {}): Promise<FakeCore> {
  const core = fakeCore(init);
  await startSession();
  render(Settings);
  return core;
}

afterEach(() => clearMocks());

describe("adding a remote profile", () => {
  it("with its key: profile_add then key_set with the right args; the key field is cleared", async () => {
    const core = await setup();
    const user = userEvent.setup();
    await user.type(screen.getByLabelText("Name"), "Studio");
    const url = screen.getByLabelText("Base URL") as HTMLInputElement;
    expect(url.value).toBe("https://app.contenthero.ai/api/v1");
    const key = screen.getByLabelText(/^API key \(optional/) as HTMLInputElement;
    expect(key.type).toBe("password");
    await user.type(key, "ch_live_abc{Enter}");
    await screen.findByText(/Added “Studio”; the key works \(120 credits\)/);
    expect(core.called("profile_add")[0].args).toEqual({ name: "Studio", baseUrl: "https://app.contenthero.ai/api/v1" });
    expect(core.called("key_set")[0].args).toEqual({ profileId: "r1", key: "ch_live_abc" });
    expect(key.value).toBe("");
    expect(document.body.innerHTML).not.toContain("ch_live_abc");
    // The new profile is listed with its kind and key status; the form is ready for another.
    const card = screen.getByTestId("profile-Studio");
    expect(card).toHaveTextContent("Remote");
    expect(within(card).getByTestId("key-status")).toHaveTextContent("Key stored in the OS keyring");
    expect((screen.getByLabelText("Name") as HTMLInputElement).value).toBe("");
  });

  it("without a key: no key_set, and focus moves to the new profile's key field", async () => {
    const core = await setup();
    const user = userEvent.setup();
    await user.type(screen.getByLabelText("Name"), "Later{Enter}");
    await screen.findByText(/Added “Later”\. Paste its API key/);
    expect(core.called("key_set")).toHaveLength(0);
    const card = screen.getByTestId("profile-Later");
    expect(within(card).getByTestId("key-status")).toHaveTextContent("No key");
    await waitFor(() => expect(within(card).getByLabelText(/^API key for/)).toHaveFocus());
  });

  it("a validation error names the field and keeps what was typed", async () => {
    const core = await setup();
    core.failWith.profile_add = { code: "validation", field: "baseUrl", message: "The base URL must start with http:// or https://." };
    const user = userEvent.setup();
    await user.type(screen.getByLabelText("Name"), "Bad");
    await user.clear(screen.getByLabelText("Base URL"));
    await user.type(screen.getByLabelText("Base URL"), "ftp://nope{Enter}");
    const alert = await screen.findByTestId("add-error");
    expect(alert).toHaveTextContent("Check the base URL");
    expect(alert).toHaveTextContent("must start with http:// or https://");
    expect((screen.getByLabelText("Name") as HTMLInputElement).value).toBe("Bad");
    expect((screen.getByLabelText("Base URL") as HTMLInputElement).value).toBe("ftp://nope");
  });

  it("a refused key creates nothing, keeps what was typed, and says why beside the key field", async () => {
    const core = await setup();
    core.failWith.key_set = { code: "unauthorized", message: "The service refused this API key.", status: 401 };
    const user = userEvent.setup();
    await user.type(screen.getByLabelText("Name"), "Studio");
    await user.type(screen.getByLabelText(/^API key \(optional/), "ch_live_wrong12345{Enter}");
    const error = await screen.findByTestId("add-key-error");
    expect(error).toHaveTextContent("The service refused this key: check it was copied whole");
    expect(core.called("profile_remove")).toHaveLength(1);
    expect(screen.queryByTestId("profile-Studio")).toBeNull();
    expect((screen.getByLabelText("Name") as HTMLInputElement).value).toBe("Studio");
    const key = screen.getByLabelText(/^API key \(optional/) as HTMLInputElement;
    expect(key.value).toBe("ch_live_wrong12345");
    expect(key).toHaveAttribute("aria-invalid", "true");
    expect(key).toHaveAccessibleDescription(/refused this key/);
    expect(screen.queryByText(/see below/)).toBeNull();
  });

  it("a key of the wrong shape is not sent at all", async () => {
    const core = await setup();
    const user = userEvent.setup();
    await user.type(screen.getByLabelText("Name"), "Studio");
    await user.type(screen.getByLabelText(/^API key \(optional/), "my key{Enter}");
    expect(await screen.findByTestId("add-key-error")).toHaveTextContent(/space or a line break/);
    expect(core.called("profile_add")).toHaveLength(0);
    expect(core.called("key_set")).toHaveLength(0);
  });

  it("the submit button shows progress and is disabled while adding", async () => {
    const core = await setup();
    let release!: (v?: unknown) => void;
    core.hold.profile_add = new Promise((r) => (release = r));
    const user = userEvent.setup();
    await user.type(screen.getByLabelText("Name"), "Slow");
    await user.click(screen.getByRole("button", { name: "Add profile" }));
    expect(screen.getByRole("button", { name: "Adding…" })).toBeDisabled();
    release();
    await screen.findByRole("button", { name: "Add profile" });
    expect(screen.getByTestId("profile-Slow")).toBeInTheDocument();
  });
});

describe("a profile's key", () => {
  const codes: [IpcError, RegExp][] = [
    [{ code: "unauthorized", message: "The service refused this API key." }, /The key was refused.*refused this API key/s],
    [{ code: "missingScope", scope: "brandkit:read", message: "This key lacks the scope brandkit:read." }, /Missing scope: brandkit:read.*lacks the scope brandkit:read/s],
    [{ code: "network", message: "Could not reach the service (connection refused)." }, /Cannot reach the service.*connection refused/s],
    [{ code: "keyringUnavailable", message: "No keyring is reachable: install gnome-keyring." }, /Keyring unavailable.*gnome-keyring.*org\.freedesktop\.secrets/s],
    [{ code: "rateLimited", message: "The service is rate limiting this key.", retryAfter: 3 }, /Too many requests.*Try again in 3 s/s],
    [{ code: "server", message: "The service failed (502).", status: 502 }, /The service failed.*502/s],
  ];
  for (const [error, shown] of codes) {
    it(`a ${error.code} error on saving a key says so; the key is neither kept in the field nor echoed`, async () => {
      const core = await setup({ profiles: [SANDBOX, { ...STUDIO, hasKey: false }] });
      core.failWith.key_set = error;
      const user = userEvent.setup();
      const card = screen.getByTestId("profile-Studio");
      await user.type(within(card).getByLabelText(/^API key for/), "ch_live_secret123");
      await user.click(within(card).getByRole("button", { name: "Check and save key" }));
      const note = await within(card).findByTestId("profile-error");
      expect(note.textContent).toMatch(shown);
      expect(note).toHaveAttribute("data-code", error.code);
      expect((within(card).getByLabelText(/^API key for/) as HTMLInputElement).value).toBe("");
      expect(document.body.innerHTML).not.toContain("ch_live_secret123");
    });
  }

  it("replace the key: key_set with the new key, the field is cleared, the balance is refreshed", async () => {
    const core = await setup({ profiles: [SANDBOX, STUDIO] });
    const user = userEvent.setup();
    const card = screen.getByTestId("profile-Studio");
    const field = within(card).getByLabelText(/^Replace the API key/) as HTMLInputElement;
    expect(within(card).getByRole("button", { name: "Check and save key" })).toBeDisabled();
    const balancesBefore = core.called("balance").length;
    await user.type(field, "ch_live_new{Enter}");
    await within(card).findByText(/Key checked and saved \(120 credits\)/);
    expect(core.called("key_set")[0].args).toEqual({ profileId: "r1", key: "ch_live_new" });
    expect(field.value).toBe("");
    expect(core.called("balance").length).toBeGreaterThan(balancesBefore);
  });

  it("test the key: key_test with the profile id, and the balance in the answer", async () => {
    const core = await setup({ profiles: [SANDBOX, STUDIO] });
    const user = userEvent.setup();
    const card = screen.getByTestId("profile-Studio");
    await user.click(within(card).getByRole("button", { name: "Test key" }));
    await within(card).findByText("The key works (120 credits).");
    expect(core.called("key_test")[0].args).toEqual({ profileId: "r1" });
  });

  it("sign out asks first; cancel keeps the key; confirm calls sign_out and focus goes to the key field", async () => {
    const core = await setup({ profiles: [SANDBOX, STUDIO] });
    const user = userEvent.setup();
    const card = screen.getByTestId("profile-Studio");
    await user.click(within(card).getByRole("button", { name: "Sign out" }));
    const dialog = screen.getByRole("alertdialog");
    expect(dialog).toHaveTextContent("Sign out of “Studio”?");
    expect(dialog).toHaveTextContent("deleted from the OS keyring");
    await user.click(within(dialog).getByRole("button", { name: "Cancel" }));
    expect(core.called("sign_out")).toHaveLength(0);
    expect(within(card).getByRole("button", { name: "Sign out" })).toHaveFocus();

    await user.click(within(card).getByRole("button", { name: "Sign out" }));
    await user.click(within(screen.getByRole("alertdialog")).getByRole("button", { name: "Sign out" }));
    await within(card).findByText("Signed out: the key was deleted from the OS keyring.");
    expect(core.called("sign_out")[0].args).toEqual({ profileId: "r1" });
    expect(within(card).getByTestId("key-status")).toHaveTextContent("No key");
    await waitFor(() => expect(within(card).getByLabelText(/^API key for/)).toHaveFocus());
  });

  it("sign out forgets the unsaved brand-kit texts this profile kept in the web view's storage, and no other's", async () => {
    localStorage.clear();
    localStorage.setItem("contentdesk.brandKit.unsaved.r1.kit-a", JSON.stringify({ about: { text: "secret plan", baseBody: "", baseVersion: 1 } }));
    localStorage.setItem("contentdesk.brandKit.unsaved.r1.kit-b", "{}");
    localStorage.setItem(`contentdesk.brandKit.unsaved.${SANDBOX.id}.kit-a`, JSON.stringify({ about: { text: "mine", baseBody: "", baseVersion: 1 } }));
    await setup({ profiles: [SANDBOX, STUDIO] });
    const user = userEvent.setup();
    const card = screen.getByTestId("profile-Studio");
    await user.click(within(card).getByRole("button", { name: "Sign out" }));
    await user.click(within(screen.getByRole("alertdialog")).getByRole("button", { name: "Sign out" }));
    await within(card).findByText(/^Signed out/);
    const left = Array.from({ length: localStorage.length }, (_, i) => localStorage.key(i)).filter((k) => k?.includes("brandKit.unsaved"));
    expect(left).toEqual([`contentdesk.brandKit.unsaved.${SANDBOX.id}.kit-a`]);
    localStorage.clear();
  });
});

describe("managing profiles", () => {
  it("rename: the field opens focused with the name, Enter saves with profile_rename", async () => {
    const core = await setup({ profiles: [SANDBOX, STUDIO] });
    const user = userEvent.setup();
    await user.click(within(screen.getByTestId("profile-Studio")).getByRole("button", { name: "Rename" }));
    const field = screen.getByLabelText("New name for Studio") as HTMLInputElement;
    expect(field).toHaveFocus();
    expect(field.value).toBe("Studio");
    await user.clear(field);
    await user.type(field, "Agency{Enter}");
    const card = await screen.findByTestId("profile-Agency");
    expect(core.called("profile_rename")[0].args).toEqual({ id: "r1", name: "Agency" });
    await waitFor(() => expect(within(card).getByRole("button", { name: "Rename" })).toHaveFocus());
  });

  it("rename: Escape cancels without a call", async () => {
    const core = await setup({ profiles: [SANDBOX, STUDIO] });
    const user = userEvent.setup();
    await user.click(within(screen.getByTestId("profile-Studio")).getByRole("button", { name: "Rename" }));
    await user.keyboard("{Escape}");
    expect(screen.queryByLabelText("New name for Studio")).toBeNull();
    expect(core.called("profile_rename")).toHaveLength(0);
  });

  it("select: profile_select with the id, then the balance of the new profile", async () => {
    const core = await setup({ profiles: [SANDBOX, STUDIO] });
    const user = userEvent.setup();
    const card = screen.getByTestId("profile-Studio");
    const before = core.called("balance").length;
    await user.click(within(card).getByRole("button", { name: "Use this profile" }));
    await within(card).findByText("In use");
    expect(core.called("profile_select")[0].args).toEqual({ profileId: "r1" });
    expect(core.called("balance").length).toBe(before + 1);
    expect(session.selectedId).toBe("r1");
  });

  it("remove asks for confirmation naming the profile; Escape cancels; confirm removes", async () => {
    const core = await setup({ profiles: [SANDBOX, STUDIO] });
    const user = userEvent.setup();
    const card = screen.getByTestId("profile-Studio");
    await user.click(within(card).getByRole("button", { name: "Remove" }));
    const dialog = screen.getByRole("alertdialog");
    expect(dialog).toHaveAccessibleName("Remove “Studio”?");
    expect(within(dialog).getByRole("button", { name: "Cancel" })).toHaveFocus();
    await user.keyboard("{Escape}");
    expect(screen.queryByRole("alertdialog")).toBeNull();
    expect(core.called("profile_remove")).toHaveLength(0);

    await user.click(within(card).getByRole("button", { name: "Remove" }));
    await user.click(within(screen.getByRole("alertdialog")).getByRole("button", { name: "Remove profile" }));
    await waitFor(() => expect(screen.queryByTestId("profile-Studio")).toBeNull());
    expect(core.called("profile_remove")[0].args).toEqual({ profileId: "r1" });
    await waitFor(() => expect(screen.getByRole("heading", { name: "Profiles" })).toHaveFocus());
  });

  it("the sandbox profile has no remove, sign-out or key field; it says where its key lives", async () => {
    await setup();
    const card = screen.getByTestId("profile-Sandbox");
    expect(card).toHaveTextContent("Local sandbox");
    expect(within(card).queryByRole("button", { name: "Remove" })).toBeNull();
    expect(within(card).queryByRole("button", { name: "Sign out" })).toBeNull();
    expect(within(card).queryByLabelText(/API key/)).toBeNull();
    expect(within(card).getByTestId("key-status")).toHaveTextContent("Local key stored in the OS keyring");
  });

  it("every input has a label", async () => {
    await setup({ profiles: [SANDBOX, STUDIO] });
    for (const input of document.querySelectorAll("input, select")) {
      expect(input).toHaveAccessibleName();
    }
  });
});

describe("where keys live", () => {
  it("keys in memory: each profile says so, and the warning says why and what to do", async () => {
    await setup({
      profiles: [SANDBOX, STUDIO, { ...STUDIO, id: "r2", name: "Empty", hasKey: false }],
      info: { version: "0.1.0", keyStorage: "memory", keyringProblem: "No keyring is reachable: install gnome-keyring.", dataDir: "/tmp", notices: [] },
    });
    expect(screen.getByTestId("keyring-warning")).toHaveTextContent("install gnome-keyring");
    expect(within(screen.getByTestId("profile-Studio")).getByTestId("key-status")).toHaveTextContent("memory for this run only");
    expect(within(screen.getByTestId("profile-Empty")).getByTestId("key-status")).toHaveTextContent("No key");
  });
});

describe("what the start found", () => {
  const aside = "The settings file, with the profiles, (settings.json) could not be read (it is empty). It was set aside as /home/me/.local/share/contentdesk/settings.json.damaged-20260101T120000Z and Content Desk started without it; nothing in it was deleted.";

  it("a file set aside at start is named, with where it went", async () => {
    await setup({ info: { version: "0.1.0", keyStorage: "keyring", keyringProblem: null, dataDir: "/tmp", notices: [aside] } });
    const note = screen.getByTestId("startup-notices");
    expect(note).toHaveAttribute("role", "status");
    expect(note).toHaveTextContent("files set aside");
    expect(note).toHaveTextContent("settings.json.damaged-20260101T120000Z");
  });

  it("a clean start shows nothing", async () => {
    await setup();
    expect(screen.queryByTestId("startup-notices")).toBeNull();
  });
});

describe("appearance", () => {
  it("the theme follows the system until one is chosen; the choice is kept with this computer's UI preferences", async () => {
    localStorage.removeItem("contentdesk.theme");
    document.documentElement.removeAttribute("data-theme");
    await setup();
    const group = screen.getByTestId("theme-choice");
    expect(within(group).getByRole("radio", { name: /^System/ })).toBeChecked();
    const user = userEvent.setup();
    await user.click(within(group).getByRole("radio", { name: "Dark" }));
    expect(document.documentElement.getAttribute("data-theme")).toBe("dark");
    expect(localStorage.getItem("contentdesk.theme")).toBe("dark");
    await user.click(within(group).getByRole("radio", { name: "Light" }));
    expect(document.documentElement.getAttribute("data-theme")).toBe("light");
    await user.click(within(group).getByRole("radio", { name: /^System/ }));
    // "System" is resolved to the OS's scheme (jsdom has no matchMedia: light).
    expect(document.documentElement.getAttribute("data-theme")).toBe("light");
    expect(localStorage.getItem("contentdesk.theme")).toBeNull();
  });
});
