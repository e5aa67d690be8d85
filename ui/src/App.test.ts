import { afterEach, beforeEach, expect, it, vi } from "vitest";
import { render, screen, waitFor, within } from "@testing-library/svelte";
import userEvent from "@testing-library/user-event";
import { clearMocks } from "@tauri-apps/api/mocks";
import App from "./App.svelte";
import { banners } from "./lib/shared/banners.svelte";
import { fakeCore, SANDBOX, type FakeCore } from "./lib/shared/fakeCore";

function withPlanner(core: FakeCore) {
  core.answers.spaces_list = () => [{ id: "s1", name: "Content plan", postCount: 3 }];
  core.answers.board_load = () => ({
    space: { id: "s1", name: "Content plan" },
    stages: [{ id: "a", name: "Ideas", slug: "ideas", color: null, sortOrder: 0, isDefault: true }],
    cards: [{ id: "c1", title: "Hook ideas", stageId: "a", boardOrder: 0, platforms: [], tags: [] }],
    total: 1,
  });
  core.answers.tags_list = () => [];
  core.answers.brand_kits_list = () => [];
  return core;
}

/** Routes as a click on a link would (the router listens to hashchange). */
function goTo(hash: string) {
  history.replaceState(null, "", `/${hash}`);
  window.dispatchEvent(new HashChangeEvent("hashchange"));
}

beforeEach(() => goTo("#/planner"));
afterEach(() => {
  clearMocks();
  vi.useRealTimers();
});

it("the frame: app name, profile, balance, and keyboard-reachable navigation with aria-current", async () => {
  withPlanner(fakeCore());
  render(App);
  expect(screen.getByText("Content Desk")).toBeInTheDocument();
  expect(await screen.findByTestId("balance")).toHaveTextContent("120 credits");
  expect(screen.getByTestId("profile-kind")).toHaveTextContent("Sandbox (local)");
  const nav = screen.getByRole("navigation", { name: "Main" });
  const links = within(nav).getAllByRole("link");
  expect(links.map((l) => l.textContent)).toEqual(["Planner", "Studio", "Brand kit", "Settings"]);
  expect(within(nav).getByRole("link", { name: "Planner" })).toHaveAttribute("aria-current", "page");
  expect(await screen.findByRole("region", { name: "Ideas stage" })).toHaveTextContent("Hook ideas");

  const user = userEvent.setup();
  within(nav).getByRole("link", { name: "Settings" }).focus();
  await user.keyboard("{Enter}");
  // The Settings chunk is compiled on its first import in this test process: allow for a loaded machine.
  expect(await screen.findByRole("heading", { level: 1, name: "Settings" }, { timeout: 5000 })).toBeInTheDocument();
  expect(within(nav).getByRole("link", { name: "Settings" })).toHaveAttribute("aria-current", "page");
  expect(within(nav).getByRole("link", { name: "Planner" })).not.toHaveAttribute("aria-current");
  await waitFor(() => expect(screen.getByRole("main")).toHaveFocus());
  expect(document.title).toBe("Settings · Content Desk");
});

it("Studio is its own chunk: it loads the registry and the queue, not the planner", async () => {
  goTo("#/studio");
  const core = withPlanner(fakeCore());
  core.answers.models_list = () => [];
  core.answers.studio_jobs = () => [];
  render(App);
  // The first import of the chunk compiles it in this test process: allow for a loaded machine.
  expect(await screen.findByRole("heading", { level: 1, name: "Studio" }, { timeout: 5000 })).toBeInTheDocument();
  await waitFor(() => expect(core.called("studio_jobs")).toHaveLength(1));
  expect(core.called("models_list")[0].args).toEqual({ contentType: "image" });
  expect(core.calls.map((c) => c.cmd)).not.toContain("spaces_list");
});

it("the balance refreshes every 60 s", async () => {
  vi.useFakeTimers({ toFake: ["setInterval", "clearInterval"] });
  const core = withPlanner(fakeCore());
  render(App);
  await waitFor(() => expect(core.called("balance")).toHaveLength(1));
  core.balance = { balance: 95, tier: "hero", autoTopupEnabled: false };
  vi.advanceTimersByTime(60_000);
  expect(await screen.findByText("95 credits")).toBeInTheDocument();
  expect(core.called("balance")).toHaveLength(2);
});

it("when the core cannot start, the reason shows instead of an empty app", async () => {
  const core = fakeCore({ profiles: [SANDBOX] });
  core.failWith.app_info = { code: "keyringUnavailable", message: "The keyring is locked. Unlock your login keyring." };
  render(App);
  expect(await screen.findByTestId("start-error")).toHaveTextContent(/Keyring unavailable.*Unlock your login keyring/);
});

it("keys in memory only: a banner on every page but Settings says so in plain words, links there, and can be dismissed", async () => {
  const raw = "No keyring is reachable, so API keys are kept in memory for this run only (DBus error: Unable to autolaunch a dbus-daemon without a $DISPLAY for X11). On Linux, install and start a Secret Service provider, then restart Content Desk.";
  withPlanner(fakeCore({ info: { version: "0.1.0", keyStorage: "memory", keyringProblem: raw, dataDir: "/tmp", notices: [] } }));
  render(App);
  const banner = await screen.findByTestId("keyring-banner");
  expect(banner).toHaveTextContent("The system keyring is not available, so keys are kept in memory until you quit.");
  expect(banner).not.toHaveTextContent(/DBus/i);
  expect(within(banner).getByRole("link", { name: "What to do" })).toHaveAttribute("href", "#/settings");
  goTo("#/brand-kit");
  expect(await screen.findByTestId("keyring-banner")).toBeInTheDocument();
  goTo("#/settings");
  await waitFor(() => expect(screen.queryByTestId("keyring-banner")).toBeNull());
  goTo("#/planner");
  await userEvent.setup().click(within(await screen.findByTestId("keyring-banner")).getByRole("button", { name: "Dismiss this message" }));
  await waitFor(() => expect(screen.queryByTestId("keyring-banner")).toBeNull());
  goTo("#/brand-kit");
  await new Promise((r) => setTimeout(r, 0));
  expect(screen.queryByTestId("keyring-banner")).toBeNull();
  banners.dismissed = new Set();
});

it("keys in the OS keyring: no banner", async () => {
  withPlanner(fakeCore());
  render(App);
  await screen.findByTestId("balance");
  await waitFor(() => expect(screen.queryByTestId("keyring-banner")).toBeNull());
});
