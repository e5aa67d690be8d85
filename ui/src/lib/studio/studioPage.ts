// Tests only: the Studio page as the Studio tests drive it (render it on a fake core, read the price,
// the quotes asked). Shared by Studio.test.ts and Studio.gallery.test.ts.
import { afterEach, expect, vi } from "vitest";
import { render, screen, waitFor } from "@testing-library/svelte";
import userEvent from "@testing-library/user-event";
import { clearMocks } from "@tauri-apps/api/mocks";
import Studio from "./Studio.svelte";
import { forgetKeptDraft } from "./draft.svelte";
import type { StudioForm } from "../bindings";
import { studioCore, type StudioCore } from "./testStudio";

export function resetAfterEach() {
  afterEach(() => {
    clearMocks();
    vi.restoreAllMocks();
    forgetKeptDraft();
  });
}

export const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;
export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
export const price = () => screen.getByTestId("studio-price");
export const quotes = (core: StudioCore) => core.called("studio_quote").map((c) => c.args?.form as StudioForm);
export const generateButton = () => screen.getByRole("button", { name: /^(Generate|Starting…)$/ });

export async function open(core = studioCore()) {
  const user = userEvent.setup();
  render(Studio);
  await screen.findByRole("option", { name: /Nano Banana 2/ });
  return { core, user };
}

/** Types a prompt and waits until its price shows. */
export async function priced(user: ReturnType<typeof userEvent.setup>, prompt = "a red fox", text = /4 credits · balance after 116/) {
  await user.type(screen.getByLabelText(/^Prompt/), prompt);
  await waitFor(() => expect(price()).toHaveTextContent(text));
}
