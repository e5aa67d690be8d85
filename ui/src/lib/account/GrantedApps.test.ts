// Settings → a profile's granted apps (issue 15, point 5), through the real backend module and the fake
// core behind mockIPC: opening loads `granted_apps` for that profile, Revoke asks first (Escape cancels,
// nothing is revoked), confirming calls `granted_app_revoke` with the profile and grant ids and shows the
// list the core answers; a refusal shows the core's error and keeps the list.
import { afterEach, describe, expect, it } from "vitest";
import { render, screen, waitFor, within } from "@testing-library/svelte";
import userEvent from "@testing-library/user-event";
import { clearMocks } from "@tauri-apps/api/mocks";
import Settings from "./Settings.svelte";
import { startSession } from "./session.svelte";
import { fakeCore, type FakeCore } from "../shared/fakeCore";
import type { OAuthGrant, Profile } from "../bindings";

const STUDIO: Profile = { id: "r1", name: "Studio", baseUrl: "https://x.example/api/v1", kind: "remote", hasKey: true };
const AGENT: OAuthGrant = {
  id: "g1", clientName: "Team agent", scopes: ["planner:write", "brandkit:read"],
  createdAt: "2026-11-20T10:00:00.000Z", lastUsedAt: null,
};
const OTHER: OAuthGrant = { ...AGENT, id: "g2", clientName: "Nightly digest", scopes: ["editor:read"] };

async function setup(): Promise<FakeCore> {
  const core = fakeCore({ profiles: [STUDIO], selectedId: "r1" });
  let apps = [AGENT, OTHER];
  core.answers.granted_apps = () => apps;
  core.answers.granted_app_revoke = (args) => {
    apps = apps.filter((a) => a.id !== args?.grantId);
    return apps;
  };
  await startSession();
  render(Settings);
  return core;
}

afterEach(() => clearMocks());

describe("granted apps in Settings", () => {
  it("lists the profile's apps when opened, and Revoke asks first, then revokes that grant", async () => {
    const core = await setup();
    const user = userEvent.setup();
    const card = screen.getByTestId("profile-Studio");
    expect(core.called("granted_apps")).toHaveLength(0);
    await user.click(within(card).getByRole("button", { name: "Granted apps" }));
    const rows = await within(card).findAllByTestId("granted-app");
    expect(core.called("granted_apps")[0].args).toEqual({ profileId: "r1" });
    expect(rows.map((r) => r.querySelector("strong")?.textContent)).toEqual(["Team agent", "Nightly digest"]);
    // Each scope in the consent page's words (generated from api-types), its code beside it and as a tooltip.
    const scopes = within(rows[0]).getAllByTestId("granted-scope");
    expect(scopes.map((s) => s.firstChild?.textContent?.trim())).toEqual([
      "Create and change spaces, stages, cards and tags",
      "Read your brand kits, their knowledge and your inspiration",
    ]);
    expect(scopes.map((s) => s.getAttribute("title"))).toEqual(["planner:write", "brandkit:read"]);
    expect(scopes[0].querySelector("code")).toHaveTextContent("planner:write");
    expect(rows[0]).toHaveTextContent("last used never");

    // Escape cancels: nothing revoked.
    await user.click(within(rows[0]).getByRole("button", { name: "Revoke Team agent" }));
    expect(screen.getByRole("alertdialog")).toHaveTextContent("Revoke “Team agent”?");
    await user.keyboard("{Escape}");
    await waitFor(() => expect(screen.queryByRole("alertdialog")).toBeNull());
    expect(core.called("granted_app_revoke")).toHaveLength(0);

    await user.click(within(rows[0]).getByRole("button", { name: "Revoke Team agent" }));
    await user.click(screen.getByRole("button", { name: "Revoke access" }));
    await within(card).findByText("Revoked “Team agent”: its access stopped.");
    expect(core.called("granted_app_revoke")[0].args).toEqual({ profileId: "r1", grantId: "g1" });
    const left = within(card).getAllByTestId("granted-app");
    expect(left).toHaveLength(1);
    expect(left[0]).toHaveTextContent("Nightly digest");
    await waitFor(() => expect(within(card).getByRole("heading", { name: "Apps with access to Studio" })).toHaveFocus());
  });

  it("a refused revoke shows the core's error and keeps the app listed", async () => {
    const core = await setup();
    core.failWith.granted_app_revoke = { code: "network", message: "The service could not be reached. Check the connection and try again." };
    const user = userEvent.setup();
    const card = screen.getByTestId("profile-Studio");
    await user.click(within(card).getByRole("button", { name: "Granted apps" }));
    const rows = await within(card).findAllByTestId("granted-app");
    await user.click(within(rows[0]).getByRole("button", { name: "Revoke Team agent" }));
    await user.click(screen.getByRole("button", { name: "Revoke access" }));
    expect(await within(card).findByTestId("granted-error")).toHaveTextContent("could not be reached");
    expect(within(card).getAllByTestId("granted-app")).toHaveLength(2);
  });

  it("a scope this build has no words for shows as its code", async () => {
    const core = await setup();
    core.answers.granted_apps = () => [{ ...AGENT, scopes: ["future:scope"] }];
    const user = userEvent.setup();
    const card = screen.getByTestId("profile-Studio");
    await user.click(within(card).getByRole("button", { name: "Granted apps" }));
    const [scope] = await within(card).findAllByTestId("granted-scope");
    expect(scope).toHaveTextContent(/^future:scope$/);
    expect(scope.querySelector("code")).toBeNull();
  });

  it("says so when no app has access", async () => {
    const core = await setup();
    core.answers.granted_apps = () => [];
    const user = userEvent.setup();
    const card = screen.getByTestId("profile-Studio");
    await user.click(within(card).getByRole("button", { name: "Granted apps" }));
    expect(await within(card).findByText(/No app has access/)).toBeInTheDocument();
  });
});
