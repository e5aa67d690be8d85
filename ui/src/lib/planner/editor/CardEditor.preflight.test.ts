// The card editor's platform preflight (issue 28): the live counter per post and each finding at its post.
import { afterEach, expect, it, vi } from "vitest";
import { platformLabel } from "../plannerApi";
import { fireEvent, render, screen, within } from "@testing-library/svelte";
import { clearMocks } from "@tauri-apps/api/mocks";
import CardEditor from "./CardEditor.svelte";
import { fakeCore } from "../../shared/fakeCore";
import { ACCOUNTS, TAGS, asset, post, testCard } from "./testCard";
import type { CardDetail } from "./wire";

afterEach(() => clearMocks());

function open(card: CardDetail) {
  const core = fakeCore();
  core.answers.card_get = () => card;
  core.answers.tags_list = () => TAGS;
  core.answers.connected_accounts_list = () => ACCOUNTS;
  render(CardEditor, { cardId: card.id, onclose: vi.fn(), onchanged: vi.fn() });
}

const postOf = (platform: string) => screen.getAllByTestId("post").find((p) => p.querySelector(".platform")?.textContent === platformLabel(platform))!;

it("counts each caption as its platform counts, live, and shows the finding at the post", async () => {
  open(testCard({
    assets: [],
    posts: [
      post("p1", "x", { platformSettings: { caption: `${"a".repeat(255)} https://example.com/a/long/path/past/twenty-three` } }),
      post("p2", "threads", { platformSettings: { caption: "hi 😀" } }),
      post("p3", "instagram", { platformSettings: { caption: "Soon." } }),
    ],
  }));
  await screen.findByLabelText("Title");
  const x = postOf("x");
  // 255 letters, a space and a link counted 23 (t.co).
  expect(within(x).getByTestId("caption-counter")).toHaveTextContent("279 / 280");
  expect(within(x).getByLabelText("Caption")).toHaveAccessibleDescription("279 / 280");
  expect(within(x).queryByTestId("post-finding")).toBeNull();
  // Threads counts an emoji as its UTF-8 bytes.
  expect(within(postOf("threads")).getByTestId("caption-counter")).toHaveTextContent("7 / 500");
  // No caption length in the table for Instagram: no counter, never a guess.
  expect(within(postOf("instagram")).queryByTestId("caption-counter")).toBeNull();

  await fireEvent.input(within(x).getByLabelText("Caption"), { target: { value: `${"a".repeat(257)} https://example.com/x` } });
  const counter = within(x).getByTestId("caption-counter");
  expect(counter).toHaveTextContent("281 / 280");
  expect(counter).toHaveClass("over");
  const finding = within(x).getByTestId("post-finding");
  expect(finding).toHaveTextContent("caption: 281 / 280 characters; X refuses it.");
  expect(finding).toHaveAttribute("title", "Source: https://docs.x.com/fundamentals/counting-characters");
  expect(within(postOf("threads")).queryByTestId("post-finding")).toBeNull();

  await fireEvent.input(within(x).getByLabelText("Caption"), { target: { value: "Short again." } });
  expect(within(x).getByTestId("caption-counter")).toHaveTextContent("12 / 280");
  expect(within(x).queryByTestId("post-finding")).toBeNull();
});

it("a media rule is shown at the post its platform breaks, from the kinds the card read gives", async () => {
  const images = [1, 2, 3, 4, 5].map((n) => asset(`a${n}`, { outputId: `out-${n}`, assetType: "image" }));
  open(testCard({
    assets: [...images, asset("a6", { assetUrl: "https://example.com/brief", assetType: "link" })],
    posts: [post("p1", "x"), post("p2", "linkedin")],
  }));
  await screen.findByLabelText("Title");
  expect(within(postOf("x")).getByTestId("post-finding")).toHaveTextContent("media: 5 items, at most 4; X refuses it.");
  // LinkedIn takes up to 20 images; the link is not media.
  expect(within(postOf("linkedin")).queryByTestId("post-finding")).toBeNull();
});

function openWithUpdate(card: CardDetail) {
  const core = fakeCore();
  core.answers.card_get = () => card;
  core.answers.tags_list = () => TAGS;
  core.answers.connected_accounts_list = () => ACCOUNTS;
  core.answers.card_update = () => card;
  render(CardEditor, { cardId: card.id, onclose: vi.fn(), onchanged: vi.fn() });
  return core;
}

it("saving a scheduled card with a finding that blocks asks first, naming it; cancel saves nothing", async () => {
  const core = openWithUpdate(testCard({ posts: [post("p1", "x", { platformSettings: { caption: "Fine." } })] }));
  await screen.findByLabelText("Title");
  await fireEvent.input(within(postOf("x")).getByLabelText("Caption"), { target: { value: "a".repeat(281) } });
  await fireEvent.click(screen.getByRole("button", { name: "Save" }));
  const dialog = await screen.findByRole("alertdialog");
  expect(dialog).toHaveTextContent("X caption: 281 / 280 characters; X refuses it.");
  expect(core.called("card_update")).toHaveLength(0);
  await fireEvent.click(within(dialog).getByRole("button", { name: "Cancel" }));
  expect(screen.queryByRole("alertdialog")).toBeNull();
  expect(core.called("card_update")).toHaveLength(0);

  await fireEvent.click(screen.getByRole("button", { name: "Save" }));
  await fireEvent.click(within(await screen.findByRole("alertdialog")).getByRole("button", { name: "Schedule anyway" }));
  await vi.waitFor(() => expect(core.called("card_update")).toHaveLength(1));
});

it("a card with no time, or nothing that blocks, saves without asking", async () => {
  const core = openWithUpdate(testCard({ scheduledAt: null, posts: [post("p1", "x", { platformSettings: { caption: "Fine." } })] }));
  await screen.findByLabelText("Title");
  await fireEvent.input(within(postOf("x")).getByLabelText("Caption"), { target: { value: "a".repeat(281) } });
  await fireEvent.click(screen.getByRole("button", { name: "Save" }));
  await vi.waitFor(() => expect(core.called("card_update")).toHaveLength(1));
  expect(screen.queryByRole("alertdialog")).toBeNull();
});
