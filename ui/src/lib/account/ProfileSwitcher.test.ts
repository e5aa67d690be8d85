import { afterEach, expect, it } from "vitest";
import { render, screen, within } from "@testing-library/svelte";
import userEvent from "@testing-library/user-event";
import { clearMocks } from "@tauri-apps/api/mocks";
import ProfileSwitcher from "./ProfileSwitcher.svelte";
import BalanceBadge from "./BalanceBadge.svelte";
import { session, startSession } from "./session.svelte";
import { fakeCore, SANDBOX } from "../shared/fakeCore";
import type { Profile } from "../bindings";

const STUDIO: Profile = { id: "r1", name: "Studio", baseUrl: "https://x.example/api/v1", kind: "remote", hasKey: false };

afterEach(() => clearMocks());

it("groups the profiles by kind and shows the selected one's kind", async () => {
  fakeCore({ profiles: [SANDBOX, STUDIO] });
  await startSession();
  render(ProfileSwitcher);
  const select = screen.getByLabelText("Profile") as HTMLSelectElement;
  expect(select.value).toBe("sb");
  const groups = within(select).getAllByRole("group");
  expect(groups.map((g) => g.getAttribute("label"))).toEqual(["Sandbox (local)", "Remote"]);
  expect(within(groups[1]).getByRole("option")).toHaveTextContent("Studio (no key)");
  expect(screen.getByTestId("profile-kind")).toHaveTextContent("Sandbox (local)");
});

it("switching calls profile_select and refreshes the balance for the new profile", async () => {
  const core = fakeCore({ profiles: [SANDBOX, { ...STUDIO, hasKey: true }] });
  await startSession();
  render(ProfileSwitcher);
  render(BalanceBadge);
  expect(screen.getByTestId("balance")).toHaveTextContent("120 credits");
  core.failWith.balance = { code: "unauthorized", message: "The service refused this API key.", status: 401 };
  await userEvent.setup().selectOptions(screen.getByLabelText("Profile"), "r1");
  expect(await screen.findByTestId("balance-error")).toHaveTextContent("The key was refused");
  expect(core.called("profile_select")[0].args).toEqual({ profileId: "r1" });
  expect(session.selectedId).toBe("r1");
  expect(screen.getByTestId("profile-kind")).toHaveTextContent("Remote");
});

it("a failed switch says why and keeps the current profile", async () => {
  const core = fakeCore({ profiles: [SANDBOX, STUDIO] });
  await startSession();
  core.failWith.profile_select = { code: "notFound", message: "Not found: that profile was removed." };
  render(ProfileSwitcher);
  await userEvent.setup().selectOptions(screen.getByLabelText("Profile"), "r1");
  expect(await screen.findByRole("alert")).toHaveTextContent(/Not found.*profile was removed/);
  expect((screen.getByLabelText("Profile") as HTMLSelectElement).value).toBe("sb");
});

it("on a remote profile the practice space is one click away", async () => {
  const core = fakeCore({ profiles: [SANDBOX, { ...STUDIO, hasKey: true }], selectedId: "r1" });
  await startSession();
  render(ProfileSwitcher);
  await userEvent.setup().click(screen.getByRole("button", { name: "Practice space" }));
  expect(core.called("profile_select")[0].args).toEqual({ profileId: "sb" });
  expect(session.selectedId).toBe("sb");
  expect(screen.getByTestId("profile-kind")).toHaveTextContent("Sandbox (local)");
  expect(screen.queryByRole("button", { name: "Practice space" })).toBeNull();
});
