import { afterEach, expect, it } from "vitest";
import { render, screen } from "@testing-library/svelte";
import { clearMocks, mockIPC } from "@tauri-apps/api/mocks";
import BalanceBadge from "./BalanceBadge.svelte";
import { refreshBalance } from "./session.svelte";

afterEach(() => clearMocks());

it("shows the balance, and a missing scope by name", async () => {
  mockIPC(() => ({ balance: 1234.5, tier: "hero", autoTopupEnabled: false }));
  await refreshBalance();
  render(BalanceBadge);
  expect(screen.getByTestId("balance")).toHaveTextContent("credits");
  clearMocks();
  mockIPC(() => { throw { code: "noKey", message: "The profile “Studio” has no API key yet: add one in Settings." }; });
  await refreshBalance();
  expect(await screen.findByTestId("balance-error")).toHaveTextContent("No API key");
  expect(screen.getByTestId("balance-error")).toHaveAttribute("title", expect.stringContaining("add one in Settings"));
});
