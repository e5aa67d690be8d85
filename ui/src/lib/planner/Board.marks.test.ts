// The board's preflight markers (issue 28 point 2): the tiles on screen ask the core for their cards'
// findings (`calendar_posts`, whose answer carries the core's `preflight::check` of each card read), once per
// `updatedAt`; a card with a finding that blocks carries "Refused", one with warnings only "Cut", each with an
// accessible name saying what; a card with no platform is not asked about.
import { afterEach, expect, it } from "vitest";
import { render, screen, waitFor, within } from "@testing-library/svelte";
import { clearMocks } from "@tauri-apps/api/mocks";
import type { CardSummary, Finding } from "../bindings";
import Board from "./Board.svelte";
import { fakeCore } from "../shared/fakeCore";

afterEach(() => clearMocks());

const card = (id: string, title: string, extra: Partial<CardSummary> = {}): CardSummary => ({
  id, title, platform: "x", spaceId: "s1", stageId: "a", boardOrder: 1, contentType: null, coverUrl: null, isFavorite: false,
  archivedAt: null, isArchived: false, scheduledAt: null, publishedAt: null, publishUrl: null, createdAt: null, updatedAt: "u1",
  platforms: ["x"], tags: [], ...extra,
});
const finding = (severity: string): Finding => ({ platform: "x", field: "caption", rule: "max_length", limit: 280, actual: 305, severity, source: "https://docs.x.com/fundamentals/counting-characters" });

it("a blocked card's tile says it will be refused, a warned one that it will be cut; no platform, not asked", async () => {
  const core = fakeCore();
  core.answers.spaces_list = () => [{ id: "s1", name: "Content plan", postCount: 3, archivedAt: null }];
  core.answers.tags_list = () => [];
  core.answers.board_load = () => ({
    space: { id: "s1", name: "Content plan" },
    stages: [{ id: "a", name: "Ideas", slug: "a", color: null, sortOrder: 1, isDefault: false }],
    cards: [card("c1", "Too long"), card("c2", "Long-ish", { boardOrder: 2 }), card("c3", "Fine", { boardOrder: 3 }), card("c4", "No post", { boardOrder: 4, platforms: [], platform: null })],
    total: 4, stageTotals: {}, complete: true,
  });
  const by: Record<string, Finding[]> = { c1: [finding("warns"), finding("blocks")], c2: [finding("warns")], c3: [] };
  core.answers.calendar_posts = (a) => (a?.cards as { id: string; updatedAt?: string }[]).map((c) => ({ cardId: c.id, updatedAt: c.updatedAt ?? null, scheduledAt: null, posts: [], findings: by[c.id] ?? [] }));
  render(Board);
  const tile = (id: string) => screen.getByTestId(`card-${id}`);
  // The tiles ask a pause after they are drawn (the board never waits for them).
  await waitFor(() => expect(within(tile("c1")).getByRole("img")).toBeTruthy(), { timeout: 10_000 });
  const refused = within(tile("c1")).getByRole("img");
  expect(refused).toHaveAccessibleName("A platform will refuse this card: X caption: 305 / 280 characters; X refuses it.");
  expect(refused).toHaveAttribute("data-level", "blocks");
  expect(refused).toHaveTextContent("Refused");
  const cut = within(tile("c2")).getByRole("img");
  expect(cut).toHaveAttribute("data-level", "warns");
  expect(cut).toHaveAccessibleName(/^A platform will cut or hide part of this card: X /);
  expect(within(tile("c3")).queryByTestId("card-finding")).toBeNull();
  const asked = core.called("calendar_posts").flatMap((c) => (c.args?.cards as { id: string }[]).map((x) => x.id));
  expect(asked.sort()).toEqual(["c1", "c2", "c3"]);
});
