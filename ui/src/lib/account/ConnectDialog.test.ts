import { afterEach, beforeEach, expect, it, vi } from "vitest";
import { render, screen, waitFor } from "@testing-library/svelte";
import userEvent from "@testing-library/user-event";
import { clearMocks } from "@tauri-apps/api/mocks";
import ConnectDialog from "./ConnectDialog.svelte";
import { session, startSession } from "./session.svelte";
import { fakeCore, SANDBOX, type FakeCore } from "../shared/fakeCore";
import type { Connected, Profile } from "../bindings";

const MADE: Profile = { id: "ch1", name: "ContentHero", baseUrl: "https://app.contenthero.ai/api/v1", kind: "remote", hasKey: true };

function connected(core: FakeCore): Connected {
  core.profiles = [...core.profiles, MADE];
  core.selectedId = MADE.id;
  return { profile: MADE, profiles: { profiles: core.profiles, selectedId: MADE.id }, balance: { balance: 75, tier: "hero", autoTopupEnabled: false } };
}

async function setup() {
  const core = fakeCore();
  await startSession();
  const onclose = vi.fn();
  render(ConnectDialog, { onclose });
  return { core, onclose, user: userEvent.setup() };
}

beforeEach(() => { window.location.hash = "#/settings"; });
afterEach(() => clearMocks());

it("a pasted key: checked by the core, the new profile selected, the board shown, the key gone from the page", async () => {
  const { core, onclose, user } = await setup();
  core.answers.connect_with_key = () => connected(core);
  await user.type(screen.getByLabelText("API key"), "ch_live_good{Enter}");
  await waitFor(() => expect(onclose).toHaveBeenCalled());
  expect(core.called("connect_with_key")[0].args).toEqual({ key: "ch_live_good", baseUrl: "https://app.contenthero.ai/api/v1" });
  expect(session.selectedId).toBe("ch1");
  expect(window.location.hash).toBe("#/planner");
  expect(document.body.innerHTML).not.toContain("ch_live_good");
});

it("a key of the wrong shape is not sent; a refused key keeps the text and says what to do", async () => {
  const { core, onclose, user } = await setup();
  const field = screen.getByLabelText("API key") as HTMLInputElement;
  await user.type(field, "my key{Enter}");
  expect(screen.getByTestId("connect-key-error")).toHaveTextContent("space or a line break");
  expect(core.called("connect_with_key")).toHaveLength(0);
  await user.clear(field);
  core.failWith.connect_with_key = { code: "unauthorized", message: "401 from the service", status: 401 };
  await user.type(field, "ch_live_revoked{Enter}");
  expect(await screen.findByTestId("connect-key-error")).toHaveTextContent("The service refused this key");
  expect(field.value).toBe("ch_live_revoked");
  expect(field).toHaveFocus();
  expect(onclose).not.toHaveBeenCalled();
  expect(session.selectedId).toBe(SANDBOX.id);
});

it("the browser sign-in: the core opens the page and waits; the new profile is selected", async () => {
  const { core, onclose, user } = await setup();
  let answer: (c: Connected) => void = () => {};
  core.answers.connect_browser_start = () => ({ url: "http://127.0.0.1:9/cli/auth?port=1&state=s", opened: true });
  core.answers.connect_browser_finish = () => new Promise<Connected>((r) => (answer = r));
  await user.click(screen.getByRole("button", { name: "Sign in with your browser" }));
  expect(await screen.findByTestId("connect-waiting")).toHaveTextContent("Waiting for your browser");
  expect(screen.getByRole("button", { name: "Stop signing in" })).toHaveFocus();
  answer(connected(core));
  await waitFor(() => expect(onclose).toHaveBeenCalled());
  expect(session.selectedId).toBe("ch1");
  expect(core.called("connect_browser_start")[0].args).toEqual({ baseUrl: "https://app.contenthero.ai/api/v1" });
});

it("no browser opened: the page is offered as a link; Stop cancels in the core and says nothing went wrong", async () => {
  const { core, user } = await setup();
  let fail: (e: unknown) => void = () => {};
  core.answers.connect_browser_start = () => ({ url: "http://127.0.0.1:9/cli/auth?port=1&state=s", opened: false });
  core.answers.connect_browser_finish = () => new Promise((_, r) => (fail = r));
  core.answers.connect_browser_cancel = () => { fail({ code: "validation", field: "browser", message: "The sign-in was stopped: nothing was connected." }); return true; };
  await user.click(screen.getByRole("button", { name: "Sign in with your browser" }));
  expect(await screen.findByRole("link", { name: "the sign-in page" })).toHaveAttribute("href", "http://127.0.0.1:9/cli/auth?port=1&state=s");
  await user.click(screen.getByRole("button", { name: "Stop signing in" }));
  expect(core.called("connect_browser_cancel")).toHaveLength(1);
  expect(await screen.findByRole("button", { name: "Sign in with your browser" })).toHaveFocus();
  expect(screen.queryByTestId("connect-browser-error")).toBeNull();
});

it("Cancel chosen in the browser is said in plain words", async () => {
  const { core, user } = await setup();
  core.answers.connect_browser_start = () => ({ url: "http://127.0.0.1:9/cli/auth", opened: true });
  core.answers.connect_browser_finish = () => { throw { code: "validation", field: "browser", message: "You chose Cancel in the browser, so nothing was connected." }; };
  await user.click(screen.getByRole("button", { name: "Sign in with your browser" }));
  expect(await screen.findByTestId("connect-browser-error")).toHaveTextContent("You chose Cancel in the browser, so nothing was connected.");
});

it("links to where keys are made: the site of the server (ContentHero's by default)", async () => {
  const { user } = await setup();
  expect(screen.getByTestId("keys-page-link")).toHaveAttribute("href", "https://app.contenthero.ai");
  await user.click(screen.getByText("Another server"));
  const server = screen.getByLabelText("Server address");
  await user.clear(server);
  await user.type(server, "http://127.0.0.1:4555/api/v1");
  expect(screen.getByTestId("keys-page-link")).toHaveAttribute("href", "http://127.0.0.1:4555");
});

it("Escape closes it", async () => {
  const { onclose, user } = await setup();
  await user.keyboard("{Escape}");
  expect(onclose).toHaveBeenCalled();
});
