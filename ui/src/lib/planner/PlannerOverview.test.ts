import { afterEach, expect, it } from "vitest";
import { render, screen, waitFor, within } from "@testing-library/svelte";
import userEvent from "@testing-library/user-event";
import { clearMocks } from "@tauri-apps/api/mocks";
import PlannerOverview from "./PlannerOverview.svelte";
import { fakeCore, type FakeCore } from "../shared/fakeCore";

afterEach(() => clearMocks());

const stage = (id: string, name: string, sortOrder: number) => ({ id, name, slug: id, color: null, sortOrder, isDefault: false });
const card = (id: string, title: string, stageId: string, boardOrder: number) => ({ id, title, stageId, boardOrder });

function board(core: FakeCore, opts: { hasMore?: boolean } = {}) {
  core.answers.spaces_list = () => [
    { id: "s1", name: "Content plan", postCount: 3 },
    { id: "s2", name: "Podcast", postCount: 0 },
    { id: "s3", name: "Newsletter", postCount: null },
  ];
  core.answers.stages_list = (a) => ({
    // Out of order on purpose: the board's order is sortOrder.
    stages: a?.spaceId === "s1" ? [stage("b", "Review", 2), stage("a", "Ideas", 1)] : [stage(`${a?.spaceId}-x`, `Booked ${a?.spaceId}`, 1)],
    space: { id: a?.spaceId, name: "x" },
  });
  core.answers.cards_list = (a) => a?.spaceId === "s1"
    ? { cards: [card("c3", "Second idea", "a", 2), card("c1", "First idea", "a", 1), card("c2", "", "b", 1)], total: opts.hasMore ? 140 : 3, hasMore: !!opts.hasMore, space: null }
    : { cards: [], total: 0, hasMore: false, space: null };
  return core;
}

it("shows the spaces, and the chosen space's stages in board order with their cards and counts", async () => {
  const core = board(fakeCore());
  render(PlannerOverview);
  const ideas = await screen.findByRole("region", { name: "Ideas stage" });
  expect(within(ideas).getByRole("heading")).toHaveTextContent("Ideas 2 cards");
  expect(within(ideas).getAllByRole("listitem").map((li) => li.textContent)).toEqual(["First idea", "Second idea"]);
  expect(within(screen.getByRole("region", { name: "Review stage" })).getByText("Untitled card")).toBeInTheDocument();
  const columns = screen.getAllByRole("region").map((r) => r.getAttribute("aria-label")).filter((l) => l?.endsWith(" stage"));
  expect(columns).toEqual(["Ideas stage", "Review stage"]);
  expect(screen.getByRole("tab", { name: /Content plan/ })).toHaveAttribute("aria-selected", "true");
  expect(screen.getByText(/Drag and drop and the card editor arrive with the planner/i)).toBeInTheDocument();
  expect(core.called("cards_list")[0].args).toEqual({ spaceId: "s1" });
  await waitFor(() => expect(core.calls.map((c) => c.cmd)).toContain("ui_ready"));
});

it("spaces are tabs: one tab stop, arrow keys move and load the next space", async () => {
  const core = board(fakeCore());
  render(PlannerOverview);
  await screen.findByRole("region", { name: "Ideas stage" });
  const tabs = screen.getAllByRole("tab");
  expect(tabs.map((t) => t.tabIndex)).toEqual([0, -1, -1]);
  const user = userEvent.setup();
  tabs[0].focus();
  await user.keyboard("{ArrowRight}");
  expect(tabs[1]).toHaveFocus();
  expect(await screen.findByRole("region", { name: "Booked s2 stage" })).toBeInTheDocument();
  expect(tabs[1]).toHaveAttribute("aria-selected", "true");
  await user.keyboard("{End}");
  expect(await screen.findByRole("region", { name: "Booked s3 stage" })).toBeInTheDocument();
  await user.keyboard("{ArrowRight}");
  expect(tabs[0]).toHaveFocus();
  await screen.findByRole("region", { name: "Ideas stage" });
  expect(core.called("stages_list").map((c) => c.args?.spaceId)).toEqual(["s1", "s2", "s3", "s1"]);
});

it("says so when only part of a large space is shown", async () => {
  board(fakeCore(), { hasMore: true });
  render(PlannerOverview);
  expect(await screen.findByText(/Showing the first 3 of 140 cards/)).toBeInTheDocument();
});

it("an error names its cause instead of an empty board; a missing scope names the scope", async () => {
  const core = fakeCore();
  core.failWith.spaces_list = { code: "missingScope", scope: "planner:read", message: "This key lacks the scope planner:read. Grant it in Settings → API keys.", status: 403 };
  render(PlannerOverview);
  const note = await screen.findByTestId("planner-error");
  expect(note).toHaveTextContent("Missing scope: planner:read");
  expect(note).toHaveTextContent("This key lacks the scope planner:read");
  expect(screen.queryByRole("tablist")).toBeNull();
  expect(core.calls.map((c) => c.cmd)).not.toContain("ui_ready");
});

it("no spaces: says so", async () => {
  const core = fakeCore();
  core.answers.spaces_list = () => [];
  render(PlannerOverview);
  await waitFor(() => expect(screen.getByText("No spaces yet in this account.")).toBeInTheDocument());
});
