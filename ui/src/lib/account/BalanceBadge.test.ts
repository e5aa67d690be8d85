import { afterEach, expect, it } from "vitest";
import { render, screen } from "@testing-library/svelte";
import userEvent from "@testing-library/user-event";
import { clearMocks } from "@tauri-apps/api/mocks";
import BalanceBadge from "./BalanceBadge.svelte";
import { refreshBalance, startSession } from "./session.svelte";
import { fakeCore } from "../shared/fakeCore";

afterEach(() => clearMocks());

it("shows the balance in credits, and a click refreshes it", async () => {
  const core = fakeCore({ balance: { balance: 1234, tier: "hero", autoTopupEnabled: false } });
  await startSession();
  render(BalanceBadge);
  expect(screen.getByTestId("balance")).toHaveTextContent(/1,234 credits/);
  core.balance = { balance: 1200, tier: "hero", autoTopupEnabled: false };
  await userEvent.setup().click(screen.getByTestId("balance"));
  expect(await screen.findByText(/1,200 credits/)).toBeInTheDocument();
  expect(core.called("balance")).toHaveLength(2);
});

it("a missing scope names the scope, inline, and links to Settings", async () => {
  const core = fakeCore();
  core.failWith.balance = { code: "missingScope", scope: "account:read", message: "This key lacks the scope account:read. Grant it in Settings → API keys.", status: 403 };
  await startSession();
  render(BalanceBadge);
  const err = screen.getByTestId("balance-error");
  expect(err).toHaveTextContent("Missing scope: account:read");
  expect(err).toHaveAccessibleName(/Missing scope: account:read: This key lacks the scope account:read/);
  expect(err).toHaveAttribute("href", "#/settings");
});

it("recovers from an error on the next refresh", async () => {
  const core = fakeCore();
  core.failWith.balance = { code: "noKey", message: "The profile “Studio” has no API key yet: add one in Settings." };
  await startSession();
  render(BalanceBadge);
  expect(screen.getByTestId("balance-error")).toHaveTextContent("No API key");
  expect(screen.getByTestId("balance-error")).toHaveAttribute("title", expect.stringContaining("add one in Settings"));
  delete core.failWith.balance;
  await refreshBalance();
  expect(await screen.findByTestId("balance")).toHaveTextContent("120 credits");
});
