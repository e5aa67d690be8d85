import { afterEach, beforeEach, expect, it } from "vitest";
import { render, screen } from "@testing-library/svelte";
import userEvent from "@testing-library/user-event";
import { clearMocks } from "@tauri-apps/api/mocks";
import PracticeNote from "./PracticeNote.svelte";
import { startSession } from "./session.svelte";
import { connectDialog } from "./connectDialog.svelte";
import { banners } from "../shared/banners.svelte";
import { fakeCore, SANDBOX } from "../shared/fakeCore";
import type { Profile } from "../bindings";

const STUDIO: Profile = { id: "r1", name: "ContentHero", baseUrl: "https://app.contenthero.ai/api/v1", kind: "remote", hasKey: true };

beforeEach(() => {
  banners.reload();
  connectDialog.open = false;
});
afterEach(() => clearMocks());

it("on the sandbox profile it says it is a practice space, in plain words, with Connect ContentHero", async () => {
  fakeCore({ profiles: [SANDBOX, STUDIO] });
  await startSession();
  render(PracticeNote);
  const note = screen.getByTestId("practice-note");
  expect(note).toHaveTextContent("Practice space: nothing here is posted and credits are not real.");
  expect(screen.getByRole("button", { name: "Connect ContentHero" })).toBeVisible();
});

it("is not shown on a remote profile", async () => {
  fakeCore({ profiles: [SANDBOX, STUDIO], selectedId: "r1" });
  await startSession();
  render(PracticeNote);
  expect(screen.queryByTestId("practice-note")).toBeNull();
});

it("is keyboard reachable: Tab to Connect ContentHero opens the dialog, Tab on to dismiss", async () => {
  fakeCore();
  await startSession();
  render(PracticeNote);
  const user = userEvent.setup();
  await user.tab();
  expect(screen.getByRole("button", { name: "Connect ContentHero" })).toHaveFocus();
  await user.keyboard("{Enter}");
  expect(connectDialog.open).toBe(true);
  await user.tab();
  expect(screen.getByRole("button", { name: "Dismiss the practice-space note" })).toHaveFocus();
});

it("once dismissed it stays dismissed, at the next start too (remembered on this computer)", async () => {
  fakeCore();
  await startSession();
  const first = render(PracticeNote);
  await userEvent.setup().click(screen.getByRole("button", { name: "Dismiss the practice-space note" }));
  expect(screen.queryByTestId("practice-note")).toBeNull();
  first.unmount();
  // A new start reads what was remembered.
  banners.reload();
  render(PracticeNote);
  expect(screen.queryByTestId("practice-note")).toBeNull();
  expect(localStorage.getItem("contentdesk.dismissed")).toContain("practice");
});

it("other banners dismissed for this run only are not remembered", async () => {
  banners.dismiss("keyring");
  expect(banners.dismissed.has("keyring")).toBe(true);
  banners.reload();
  expect(banners.dismissed.has("keyring")).toBe(false);
});
