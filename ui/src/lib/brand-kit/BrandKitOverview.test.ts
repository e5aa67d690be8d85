import { afterEach, expect, it } from "vitest";
import { render, screen } from "@testing-library/svelte";
import { clearMocks } from "@tauri-apps/api/mocks";
import BrandKitOverview from "./BrandKitOverview.svelte";
import { fakeCore } from "../shared/fakeCore";

afterEach(() => clearMocks());

it("lists the account's kits and says the editor is not built yet", async () => {
  const core = fakeCore();
  core.answers.brand_kits_list = () => [
    { id: "k1", name: "Studio voice", isDefault: true, isActive: true, isFavorited: false, isArchived: false, createdAt: null },
  ];
  render(BrandKitOverview);
  expect(await screen.findByText("Studio voice")).toBeInTheDocument();
  expect(screen.getByText("Default")).toBeInTheDocument();
  expect(screen.getByText(/section editor .* is not built yet/)).toBeInTheDocument();
});

it("a key without brandkit:read: the message names the scope", async () => {
  const core = fakeCore();
  core.failWith.brand_kits_list = { code: "missingScope", scope: "brandkit:read", message: "This key lacks the scope brandkit:read. Grant it in Settings → API keys.", status: 403 };
  render(BrandKitOverview);
  const note = await screen.findByTestId("brand-kit-error");
  expect(note).toHaveTextContent("Missing scope: brandkit:read");
  expect(note).toHaveTextContent("This key lacks the scope brandkit:read");
});
