import { afterEach, expect, it, vi } from "vitest";
import { formatDateTime } from "../shared/datetime";
import { fireEvent, render, screen, waitFor, within } from "@testing-library/svelte";
import userEvent from "@testing-library/user-event";
import { clearMocks } from "@tauri-apps/api/mocks";
import type { CardSummary, Stage } from "../bindings";
import Board from "./Board.svelte";
import { fakeCore, type FakeCore } from "../shared/fakeCore";
import { testCard } from "./editor/testCard";
import { askPlannerEarly } from "./startEarly";
import { api } from "../shared/backend";

afterEach(() => clearMocks());

const stage = (id: string, name: string, sortOrder: number): Stage => ({ id, name, slug: id, color: null, sortOrder, isDefault: false });
const card = (id: string, title: string, stageId: string, boardOrder: number, extra: Partial<CardSummary> = {}): CardSummary => ({
  id, title, platform: "youtube", spaceId: "s1", stageId, boardOrder, contentType: null, coverUrl: null, isFavorite: false,
  archivedAt: null, isArchived: false, scheduledAt: null, publishedAt: null, publishUrl: null, createdAt: null, updatedAt: null,
  platforms: [], tags: [], ...extra,
});

function setup(core: FakeCore = fakeCore()) {
  core.answers.spaces_list = (a) => [
    { id: "s1", name: "Content plan", postCount: 4, archivedAt: null },
    { id: "s2", name: "Podcast", postCount: 0, archivedAt: null },
    ...(a?.archived ? [{ id: "s9", name: "Old", postCount: 0, archivedAt: "2026-01-01T00:00:00Z" }] : []),
  ];
  core.answers.tags_list = () => [{ id: "t1", name: "launch" }, { id: "t2", name: "evergreen" }];
  core.answers.board_load = (a) => a?.spaceId === "s1"
    ? {
      space: { id: "s1", name: "Content plan" },
      // Out of order on purpose: the board's order is sortOrder, then boardOrder.
      stages: [stage("b", "Review", 2), stage("a", "Ideas", 1), stage("c", "Done", 3)],
      cards: a?.archived
        ? [card("z1", "Old idea", "a", 1, { isArchived: true, archivedAt: "2026-01-01T00:00:00Z" })]
        : [
          card("c3", "Second idea", "a", 2, { tags: ["launch"], platforms: ["instagram"] }),
          card("c1", "First idea", "a", 1, { coverUrl: "https://img.example/c1.jpg", scheduledAt: "2026-03-04T13:30:00Z" }),
          card("c4", "Third idea", "a", 3),
          card("c2", "", "b", 1, { platform: "tiktok" }),
        ],
      total: a?.archived ? 1 : 4,
      stageTotals: {},
      complete: true,
    }
    : { space: { id: "s2", name: "Podcast" }, stages: [stage("p1", "Booked", 1)], cards: [], total: 0 };
  // The core answers the moved card read back (here: its title from the id, as the fixtures name them).
  const names: Record<string, string> = { c1: "First idea", c2: "", c3: "Second idea", c4: "Third idea" };
  core.answers.card_move = (a) => card(String(a?.cardId), names[String(a?.cardId)] ?? "moved", String(a?.stage), 99);
  core.answers.card_archive = (a) => ({ archived: !a?.off });
  return core;
}

const titles = (region: HTMLElement) =>
  within(region).queryAllByRole("listitem").map((li) => within(li).getAllByRole("button")[0].textContent);

it("renders the stages as columns in board order, with the tiles' fields, and reports ui_ready", async () => {
  const core = setup();
  render(Board);
  const ideas = await screen.findByRole("region", { name: "Ideas stage" });
  const columns = screen.getAllByRole("region").map((r) => r.getAttribute("aria-label")).filter((l) => l?.endsWith(" stage"));
  expect(columns).toEqual(["Ideas stage", "Review stage", "Done stage"]);
  expect(within(ideas).getByRole("heading")).toHaveTextContent("Ideas 3 cards");
  expect(titles(ideas)).toEqual(["First idea", "Second idea", "Third idea"]);
  expect(ideas).toHaveAttribute("data-testid", "column-a");

  const first = screen.getByTestId("card-c1");
  expect(first.querySelector("img")).toHaveAttribute("src", "https://img.example/c1.jpg");
  expect(within(first).getByText("YouTube")).toBeInTheDocument();
  const when = first.querySelector("time")!;
  expect(when).toHaveAttribute("datetime", "2026-03-04T13:30:00Z");
  // The app's one date-and-time style (shared/datetime.ts; "Mar 4, 2026, 13:30" in en-US and UTC), not the tile's own.
  expect(when.textContent).toBe(formatDateTime("2026-03-04T13:30:00Z"));
  const second = screen.getByTestId("card-c3");
  expect(within(second).getByText("Instagram")).toBeInTheDocument();
  expect(within(second).getByText("#launch")).toBeInTheDocument();
  expect(within(screen.getByTestId("card-c2")).getByText("Untitled card")).toBeInTheDocument();
  expect(within(screen.getByTestId("card-c2")).getByText("TikTok")).toBeInTheDocument();
  expect(within(screen.getByRole("region", { name: "Done stage" })).getByText("No cards yet.")).toBeInTheDocument();
  expect(screen.getByRole("tab", { name: /Content plan/ })).toHaveAttribute("aria-selected", "true");
  expect(core.called("board_load")[0].args).toEqual({ spaceId: "s1", firstPage: true });
  await waitFor(() => expect(core.calls.map((c) => c.cmd)).toContain("ui_ready"));
});

it("renders user text as text, never as markup", async () => {
  const core = setup();
  const base = core.answers.board_load;
  core.answers.board_load = (a) => ({ ...(base(a) as object), cards: [card("x", "<img src=x onerror=alert(1)>", "a", 1)] });
  render(Board);
  const tile = await screen.findByTestId("card-x");
  expect(tile.querySelector("img")).toBeNull();
  expect(tile).toHaveTextContent("<img src=x onerror=alert(1)>");
});

it("keyboard: Alt+ArrowDown moves a card, sends card_move, announces, keeps focus on it; the menu moves to another stage", async () => {
  const core = setup();
  render(Board);
  const ideas = await screen.findByRole("region", { name: "Ideas stage" });
  const user = userEvent.setup();
  within(screen.getByTestId("card-c1")).getByRole("button", { name: "First idea" }).focus();
  await user.keyboard("{Alt>}{ArrowDown}{/Alt}");
  expect(titles(ideas)).toEqual(["Second idea", "First idea", "Third idea"]);
  await waitFor(() => expect(core.called("card_move")).toHaveLength(1));
  // With the card as the board had it (its title; its updatedAt when it has one): a move kept offline meets a change made elsewhere.
  expect(core.called("card_move")[0].args).toEqual({ cardId: "c1", stage: "a", beforeCardId: "c4", title: "First idea" });
  expect(screen.getByTestId("board-status")).toHaveTextContent("Card “First idea” moved to Ideas, 2 of 3");
  await waitFor(() => expect(within(screen.getByTestId("card-c1")).getByRole("button", { name: "First idea" })).toHaveFocus());

  // The handle's menu: "To Review" puts it at the end of Review.
  await user.click(screen.getByRole("button", { name: "Move First idea" }));
  const menu = screen.getByRole("menu", { name: "Move “First idea” to…" });
  expect(within(menu).getAllByRole("menuitem").map((m) => m.textContent)).toEqual(
    ["Top", "Up", "Down", "Bottom", "To Review", "To Done", "Archive card…"]);
  expect(within(menu).getByRole("menuitem", { name: "Up" })).toBeEnabled();
  await user.click(within(menu).getByRole("menuitem", { name: "To Review" }));
  expect(screen.queryByRole("menu")).toBeNull();
  const review = screen.getByRole("region", { name: "Review stage" });
  expect(titles(review)).toEqual(["Untitled card", "First idea"]);
  await waitFor(() => expect(core.called("card_move")).toHaveLength(2));
  expect(core.called("card_move")[1].args).toMatchObject({ cardId: "c1", stage: "b" });
  expect(screen.getByTestId("board-status")).toHaveTextContent("Card “First idea” moved to Review, 2 of 2");
  await waitFor(() => expect(screen.getByRole("button", { name: "Move First idea" })).toHaveFocus());

  // Alt+ArrowRight keeps the index in the next stage (Done is empty: its end).
  await user.keyboard("{Alt>}{ArrowRight}{/Alt}");
  expect(titles(screen.getByRole("region", { name: "Done stage" }))).toEqual(["First idea"]);
  await waitFor(() => expect(core.called("card_move")[2]?.args).toMatchObject({ cardId: "c1", stage: "c" }));
});

it("a refused move puts the card back and says why", async () => {
  const core = setup();
  core.failWith.card_move = { code: "notFound", message: "The stage is gone: deleted elsewhere." };
  render(Board);
  const ideas = await screen.findByRole("region", { name: "Ideas stage" });
  const user = userEvent.setup();
  within(screen.getByTestId("card-c4")).getByRole("button", { name: "Third idea" }).focus();
  await user.keyboard("{Alt>}{ArrowLeft}{/Alt}"); // first stage: nowhere to go
  expect(core.called("card_move")).toHaveLength(0);
  await user.keyboard("{Alt>}{ArrowUp}{/Alt}");
  const note = await screen.findByTestId("planner-action-error");
  expect(note).toHaveTextContent("Not found");
  expect(note).toHaveTextContent("The stage is gone");
  expect(titles(ideas)).toEqual(["First idea", "Second idea", "Third idea"]);
  expect(screen.getByTestId("board-status")).toHaveTextContent("Card “Third idea” could not be moved; it is back in Ideas.");
  expect(screen.queryByRole("button", { name: "Undo" })).toBeNull();
});

it("a refused stage move puts the stage back", async () => {
  const core = setup();
  core.failWith.stage_update = { code: "validation", field: "beforeId", message: "beforeId is not a stage of this space." };
  render(Board);
  await screen.findByRole("region", { name: "Ideas stage" });
  const user = userEvent.setup();
  await user.click(screen.getByRole("button", { name: "Actions for stage Review" }));
  expect(screen.getByRole("menuitem", { name: "Move left" })).toBeEnabled();
  await user.click(screen.getByRole("menuitem", { name: "Move left" }));
  expect(await screen.findByTestId("planner-action-error")).toHaveTextContent("beforeId is not a stage of this space.");
  expect(core.called("stage_update")[0].args).toEqual({ spaceId: "s1", stageId: "b", beforeId: "a" });
  const order = screen.getAllByRole("region").map((r) => r.getAttribute("aria-label")).filter((l) => l?.endsWith(" stage"));
  expect(order).toEqual(["Ideas stage", "Review stage", "Done stage"]);
});

it("two quick moves of one card: only the latest decides where it ends up when the first is refused", async () => {
  const core = setup();
  let release!: () => void;
  core.hold.card_move = new Promise<void>((r) => (release = r));
  const answer = core.answers.card_move;
  let n = 0;
  core.answers.card_move = (a) => {
    if (++n === 1) throw { code: "conflict", message: "Changed elsewhere." };
    return answer(a);
  };
  render(Board);
  const ideas = await screen.findByRole("region", { name: "Ideas stage" });
  const user = userEvent.setup();
  within(screen.getByTestId("card-c1")).getByRole("button", { name: "First idea" }).focus();
  await user.keyboard("{Alt>}{ArrowDown}{/Alt}");
  await waitFor(() => expect(within(screen.getByTestId("card-c1")).getByRole("button", { name: "First idea" })).toHaveFocus());
  await user.keyboard("{Alt>}{ArrowDown}{/Alt}");
  expect(titles(ideas)).toEqual(["Second idea", "Third idea", "First idea"]);
  release();
  await screen.findByTestId("planner-action-error");
  await waitFor(() => expect(core.called("card_move")).toHaveLength(2));
  expect(titles(ideas)).toEqual(["Second idea", "Third idea", "First idea"]);
});

it("undo of a move: the Undo button and Ctrl+Z send the card back", async () => {
  const core = setup();
  render(Board);
  const ideas = await screen.findByRole("region", { name: "Ideas stage" });
  const user = userEvent.setup();
  within(screen.getByTestId("card-c1")).getByRole("button", { name: "First idea" }).focus();
  await user.keyboard("{Alt>}{End}{/Alt}");
  expect(titles(ideas)).toEqual(["Second idea", "Third idea", "First idea"]);
  await user.click(screen.getByRole("button", { name: "Undo" }));
  expect(titles(ideas)).toEqual(["First idea", "Second idea", "Third idea"]);
  await waitFor(() => expect(core.called("card_move")).toHaveLength(2));
  expect(core.called("card_move")[1].args).toMatchObject({ cardId: "c1", stage: "a", beforeCardId: "c3" });
  expect(screen.queryByRole("button", { name: "Undo" })).toBeNull();

  within(screen.getByTestId("card-c4")).getByRole("button", { name: "Third idea" }).focus();
  await user.keyboard("{Alt>}{Home}{/Alt}");
  expect(titles(ideas)).toEqual(["Third idea", "First idea", "Second idea"]);
  await user.keyboard("{Control>}z{/Control}");
  expect(titles(ideas)).toEqual(["First idea", "Second idea", "Third idea"]);
  await waitFor(() => expect(core.called("card_move")[3]?.args).toMatchObject({ cardId: "c4", stage: "a" }));
});

it("archiving a card asks first, removes it, and can be undone", async () => {
  const core = setup();
  render(Board);
  const ideas = await screen.findByRole("region", { name: "Ideas stage" });
  const user = userEvent.setup();
  await user.click(screen.getByRole("button", { name: "Move Second idea" }));
  await user.click(screen.getByRole("menuitem", { name: "Archive card…" }));
  const dialog = screen.getByRole("alertdialog", { name: "Archive card “Second idea”?" });
  await user.click(within(dialog).getByRole("button", { name: "Cancel" }));
  expect(core.called("card_archive")).toHaveLength(0);
  expect(titles(ideas)).toHaveLength(3);

  await user.click(screen.getByRole("button", { name: "Move Second idea" }));
  await user.click(screen.getByRole("menuitem", { name: "Archive card…" }));
  await user.click(within(screen.getByRole("alertdialog")).getByRole("button", { name: "Archive card" }));
  expect(titles(ideas)).toEqual(["First idea", "Third idea"]);
  await waitFor(() => expect(core.called("card_archive")[0]?.args).toMatchObject({ assetType: "card", id: "c3", off: false }));
  expect(screen.getByTestId("board-status")).toHaveTextContent("Card “Second idea” archived.");

  await user.click(screen.getByRole("button", { name: "Undo" }));
  expect(titles(ideas)).toEqual(["First idea", "Second idea", "Third idea"]);
  await waitFor(() => expect(core.called("card_archive")[1]?.args).toMatchObject({ assetType: "card", id: "c3", off: true }));
});

it("a refused archive puts the card back", async () => {
  const core = setup();
  core.failWith.card_archive = { code: "network", message: "" };
  render(Board);
  const ideas = await screen.findByRole("region", { name: "Ideas stage" });
  const user = userEvent.setup();
  await user.click(screen.getByRole("button", { name: "Move Third idea" }));
  await user.click(screen.getByRole("menuitem", { name: "Archive card…" }));
  await user.click(within(screen.getByRole("alertdialog")).getByRole("button", { name: "Archive card" }));
  expect(await screen.findByTestId("planner-action-error")).toHaveTextContent("Cannot reach the service");
  expect(titles(ideas)).toEqual(["First idea", "Second idea", "Third idea"]);
});

it("boot.ts's early asks are the board's own first calls: each answered once, nothing asked twice", async () => {
  localStorage.setItem("contentdesk.lastSpace", "s1");
  try {
    const core = setup();
    expect(askPlannerEarly("#/studio")).toBe(false);
    expect(askPlannerEarly("")).toBe(true);
    await waitFor(() => expect(core.called("spaces_list")).toHaveLength(1));
    expect(core.called("board_load")).toHaveLength(1);
    render(Board);
    await screen.findByRole("region", { name: "Ideas stage" });
    await waitFor(() => expect(core.calls.map((c) => c.cmd)).toContain("ui_ready"));
    expect(core.called("board_load")).toHaveLength(1);
    expect(core.called("spaces_list")).toHaveLength(1);
    // An early answer is taken once: the same call later asks the core again.
    await api.spacesList(false);
    expect(core.called("spaces_list")).toHaveLength(2);
  } finally {
    localStorage.removeItem("contentdesk.lastSpace");
  }
});

it("the space shown last is asked for at once, beside the spaces list, and shown again", async () => {
  localStorage.setItem("contentdesk.lastSpace", "s2");
  try {
    const core = setup();
    let listed!: () => void;
    core.hold.spaces_list = new Promise<void>((r) => (listed = r));
    render(Board);
    await waitFor(() => expect(core.called("board_load")).toHaveLength(1));
    expect(core.called("board_load")[0].args).toEqual({ spaceId: "s2", firstPage: true });
    listed();
    await waitFor(() => expect(screen.getByRole("tab", { name: /Podcast/ })).toHaveAttribute("aria-selected", "true"));
    expect(core.called("board_load")).toHaveLength(1);
    // Another space chosen is the one remembered.
    await userEvent.setup().click(screen.getByRole("tab", { name: /Content plan/ }));
    await waitFor(() => expect(localStorage.getItem("contentdesk.lastSpace")).toBe("s1"));
  } finally {
    localStorage.removeItem("contentdesk.lastSpace");
  }
});

it("a big board shows each stage's first page with the stage's count at once, then the rest behind it", async () => {
  const core = fakeCore();
  setup(core);
  let release!: () => void;
  core.hold.board_load = undefined;
  const base = core.answers.board_load;
  core.answers.board_load = (a) => {
    const whole = base(a) as { cards: CardSummary[] };
    if (a?.firstPage) {
      // The first page of Ideas holds one of its three cards.
      return { ...whole, cards: whole.cards.filter((c) => c.id !== "c3" && c.id !== "c4"), stageTotals: { a: 3, b: 1, c: 0 }, complete: false };
    }
    return new Promise((resolve) => (release = () => resolve(whole)));
  };
  render(Board);
  const ideas = await screen.findByRole("region", { name: "Ideas stage" });
  await waitFor(() => expect(within(ideas).getByRole("heading")).toHaveTextContent("Ideas 3 cards"));
  expect(titles(ideas)).toEqual(["First idea"]);
  expect(screen.getByText(/4 cards \(loading…\)/)).toBeInTheDocument();
  await waitFor(() => expect(core.called("board_load")).toHaveLength(2));
  expect(core.called("board_load")[1].args).toEqual({ spaceId: "s1" });
  release();
  await waitFor(() => expect(titles(ideas)).toEqual(["First idea", "Second idea", "Third idea"]));
  expect(screen.queryByText(/loading…/)).not.toBeInTheDocument();
});

it("filters: platform, tag and search go to board_load; Archived shows archived cards with Restore", async () => {
  const core = setup();
  render(Board);
  await screen.findByRole("region", { name: "Ideas stage" });
  const user = userEvent.setup();
  await user.selectOptions(screen.getByLabelText("Platform"), "tiktok");
  await waitFor(() => expect(core.called("board_load").at(-1)?.args).toEqual({ spaceId: "s1", platform: "tiktok", firstPage: true }));
  await user.selectOptions(await screen.findByLabelText("Tag"), "launch");
  await waitFor(() => expect(core.called("board_load").at(-1)?.args).toEqual({ spaceId: "s1", platform: "tiktok", tag: "launch", firstPage: true }));
  await user.type(screen.getByLabelText("Search"), "idea");
  await waitFor(() => expect(core.called("board_load").at(-1)?.args).toEqual({ spaceId: "s1", platform: "tiktok", tag: "launch", search: "idea", firstPage: true }));
  // The search is debounced: one load for the whole word.
  expect(core.called("board_load").filter((c) => c.args?.search)).toHaveLength(1);

  await user.click(screen.getByLabelText("Archived cards"));
  await waitFor(() => expect(core.called("board_load").at(-1)?.args).toMatchObject({ spaceId: "s1", archived: true }));
  const tile = await screen.findByTestId("card-z1");
  expect(within(tile).queryByRole("button", { name: /^Move/ })).toBeNull();
  await user.click(within(tile).getByRole("button", { name: "Restore Old idea" }));
  await waitFor(() => expect(core.called("card_archive")[0]?.args).toMatchObject({ assetType: "card", id: "z1", off: true }));
  await waitFor(() => expect(screen.queryByTestId("card-z1")).toBeNull());
  expect(screen.getByTestId("board-status")).toHaveTextContent("Card “Old idea” restored to Ideas.");
});

// The screens journey's 960x600 shot (issue 26's follow-up): the search box emptied, yet the board kept the last
// search's one card for the typing pause (250 ms). An emptied box asks for the whole board at once.
it("search: an emptied box shows the whole board at once, without the typing pause", async () => {
  const core = setup();
  const whole = core.answers.board_load;
  core.answers.board_load = (a) => {
    const board = whole(a) as { cards: CardSummary[] };
    const words = String(a?.search ?? "").toLowerCase();
    return { ...board, cards: board.cards.filter((c) => c.title.toLowerCase().includes(words)) };
  };
  render(Board);
  const ideas = await screen.findByRole("region", { name: "Ideas stage" });
  const search = screen.getByLabelText("Search");
  await userEvent.setup().type(search, "second");
  await waitFor(() => expect(titles(ideas)).toEqual(["Second idea"]));
  const asked = core.called("board_load").length;
  vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout"] });
  try {
    await fireEvent.input(search, { target: { value: "" } });
    // Less than the pause: only what the clear itself asked for has run.
    await vi.advanceTimersByTimeAsync(1);
    expect(core.called("board_load").slice(asked).map((c) => c.args)).toEqual([{ spaceId: "s1", firstPage: true }]);
  } finally {
    vi.useRealTimers();
  }
  await waitFor(() => expect(titles(ideas)).toEqual(["First idea", "Second idea", "Third idea"]));
  // The pause's own load is not asked as well.
  expect(core.called("board_load").slice(asked)).toHaveLength(1);
});

// Seen in the screens journey's 960 shot: the tab said 37 beside a board of 39 (two cards made outside the
// app after the spaces were read). A whole board read sets the tab's count; a filtered one does not.
it("the space tab counts the cards of the whole board just read, not those of a search", async () => {
  const core = setup();
  const whole = core.answers.board_load;
  let elsewhere = 0;
  core.answers.board_load = (a) => {
    const board = whole(a) as { cards: CardSummary[]; total: number };
    const cards = [...board.cards, ...(a?.spaceId === "s1" ? Array.from({ length: elsewhere }, (_, i) => card(`e${i}`, `Made elsewhere ${i}`, "a", 10 + i)) : [])];
    const words = String(a?.search ?? "").toLowerCase();
    const shown = cards.filter((c) => c.title.toLowerCase().includes(words));
    return { ...board, cards: shown, total: shown.length };
  };
  render(Board);
  await screen.findByRole("region", { name: "Ideas stage" });
  const tab = screen.getByRole("tab", { name: /^Content plan/ });
  expect(tab).toHaveTextContent("Content plan4 cards");
  elsewhere = 2;
  const user = userEvent.setup();
  await user.type(screen.getByLabelText("Search"), "first");
  await waitFor(() => expect(titles(screen.getByRole("region", { name: "Ideas stage" }))).toEqual(["First idea"]));
  expect(tab).toHaveTextContent("Content plan4 cards");
  await user.clear(screen.getByLabelText("Search"));
  await waitFor(() => expect(tab).toHaveTextContent("Content plan6 cards"));
  expect(screen.getByRole("tab", { name: /^Podcast/ })).toHaveTextContent("Podcast0 cards");
});

it("new card per column: quick-add with two platforms makes the card with a post for each in one request; the tile appears at the end", async () => {
  const core = setup();
  core.answers.card_create = (a) =>
    card("n1", String(a?.title), String(a?.stage), 10, { platform: String(a?.platform), platforms: (a?.posts as { platform: string }[]).map((p) => p.platform) });
  render(Board);
  await screen.findByRole("region", { name: "Ideas stage" });
  const user = userEvent.setup();
  await user.click(screen.getByRole("button", { name: "New card in Review" }));
  await user.type(screen.getByLabelText("Title of the new card in Review"), "Fresh take");
  const picks = within(screen.getByRole("group", { name: "Platforms (each becomes a post)" }));
  await user.click(picks.getByLabelText("LinkedIn"));
  await user.click(picks.getByLabelText("X"));
  await user.click(screen.getByRole("button", { name: "Add card" }));
  await waitFor(() =>
    expect(core.called("card_create")[0]?.args).toEqual({ spaceId: "s1", stage: "b", title: "Fresh take", platform: "linkedin", posts: [{ platform: "linkedin" }, { platform: "x" }] }),
  );
  expect(core.called("card_update")).toEqual([]);
  expect(titles(await screen.findByRole("region", { name: "Review stage" }))).toEqual(["Untitled card", "Fresh take"]);
  expect(within(screen.getByTestId("card-n1")).getByText("LinkedIn")).toBeInTheDocument();
  // The space tab's count follows (it went stale before: "4" beside five cards).
  expect(screen.getByRole("tab", { name: /^Content plan/ })).toHaveTextContent("Content plan5 cards");
});

it("stages: create, rename, move right, and delete with the cards' target named", async () => {
  const core = setup();
  core.answers.stage_create = (a) => stage("d", String(a?.name), 4);
  core.answers.stage_update = (a) => ({ stage: { ...stage(String(a?.stageId), String(a?.name ?? "Ideas"), 1) }, respaced: false });
  core.answers.stage_delete = () => ({ id: "a", moved_cards: 3, stages: [stage("b", "Review", 2), stage("c", "Done", 3)] });
  render(Board);
  await screen.findByRole("region", { name: "Ideas stage" });
  const user = userEvent.setup();

  await user.click(screen.getByRole("button", { name: "+ Add stage" }));
  await user.type(screen.getByLabelText("Name of the new stage"), "Published");
  await user.click(screen.getByRole("button", { name: "Add stage" }));
  expect(await screen.findByRole("region", { name: "Published stage" })).toBeInTheDocument();
  expect(core.called("stage_create")[0].args).toEqual({ spaceId: "s1", name: "Published" });

  await user.click(screen.getByRole("button", { name: "Actions for stage Ideas" }));
  await user.click(screen.getByRole("menuitem", { name: "Move right" }));
  const order = () => screen.getAllByRole("region").map((r) => r.getAttribute("aria-label")).filter((l) => l?.endsWith(" stage"));
  expect(order()).toEqual(["Review stage", "Ideas stage", "Done stage", "Published stage"]);
  await waitFor(() => expect(core.called("stage_update")[0]?.args).toEqual({ spaceId: "s1", stageId: "a", afterId: "b" }));

  await user.click(screen.getByRole("button", { name: "Actions for stage Ideas" }));
  await user.click(screen.getByRole("menuitem", { name: "Rename" }));
  const input = screen.getByLabelText("Stage name");
  await user.clear(input);
  await user.type(input, "Backlog{Enter}");
  expect(await screen.findByRole("region", { name: "Backlog stage" })).toBeInTheDocument();
  expect(core.called("stage_update")[1].args).toEqual({ spaceId: "s1", stageId: "a", name: "Backlog" });

  core.answers.stage_update = (a) => ({ stage: { ...stage("a", "Backlog", 1), color: String(a?.color) }, respaced: true });
  await user.click(screen.getByRole("button", { name: "Actions for stage Backlog" }));
  await user.click(screen.getByRole("menuitem", { name: "Change colour" }));
  await fireEvent.input(screen.getByLabelText("Colour of Backlog"), { target: { value: "#ff8800" } });
  await user.click(screen.getByRole("button", { name: "Save" }));
  await waitFor(() => expect(core.called("stage_update")[2]?.args).toEqual({ spaceId: "s1", stageId: "a", color: "#ff8800" }));
  await waitFor(() => expect(screen.getByRole("region", { name: "Backlog stage" }).style.getPropertyValue("--stage-color")).toBe("#ff8800"));

  await user.click(screen.getByRole("button", { name: "Actions for stage Backlog" }));
  await user.click(screen.getByRole("menuitem", { name: "Delete stage…" }));
  const dialog = screen.getByRole("alertdialog", { name: "Delete stage “Backlog”?" });
  expect(within(dialog).getByTestId("stage-delete-message")).toHaveTextContent("Its 3 cards move to Review.");
  await user.selectOptions(within(dialog).getByLabelText("Move its cards to"), "c");
  expect(within(dialog).getByTestId("stage-delete-message")).toHaveTextContent("Its 3 cards move to Done.");
  await user.click(within(dialog).getByRole("button", { name: "Delete stage" }));
  await waitFor(() => expect(core.called("stage_delete")[0]?.args).toEqual({ spaceId: "s1", stageId: "a", targetStageId: "c" }));
  await waitFor(() => expect(screen.queryByRole("region", { name: "Backlog stage" })).toBeNull());
  expect(titles(screen.getByRole("region", { name: "Done stage" }))).toEqual(["First idea", "Second idea", "Third idea"]);
});

it("spaces: tabs switch boards; create, rename, archive (confirmed) and restore", async () => {
  const core = setup();
  core.answers.space_create = (a) => ({ id: "s3", name: String(a?.name), postCount: 0, archivedAt: null });
  core.answers.space_rename = (a) => ({ id: String(a?.spaceId), name: String(a?.name), postCount: 4, archivedAt: null });
  core.answers.space_archive = (a) => ({ archived: !a?.off });
  render(Board);
  await screen.findByRole("region", { name: "Ideas stage" });
  const user = userEvent.setup();
  const tabs = screen.getAllByRole("tab");
  expect(tabs.map((t) => t.tabIndex)).toEqual([0, -1]);
  tabs[0].focus();
  await user.keyboard("{ArrowRight}");
  expect(await screen.findByRole("region", { name: "Booked stage" })).toBeInTheDocument();
  expect(tabs[1]).toHaveFocus();

  // The space's actions are in one menu beside the tabs.
  await user.click(screen.getByRole("button", { name: "Space actions" }));
  await user.click(screen.getByRole("menuitem", { name: "Rename space…" }));
  const name = screen.getByLabelText("New name of the space");
  await user.clear(name);
  await user.type(name, "Podcasts{Enter}");
  expect(await screen.findByRole("tab", { name: /^Podcasts/ })).toBeInTheDocument();
  expect(core.called("space_rename")[0].args).toEqual({ spaceId: "s2", name: "Podcasts" });

  await user.click(screen.getByRole("button", { name: "Space actions" }));
  await user.click(screen.getByRole("menuitem", { name: "Archive space…" }));
  await user.click(within(screen.getByRole("alertdialog", { name: "Archive space “Podcasts”?" })).getByRole("button", { name: "Archive space" }));
  await waitFor(() => expect(core.called("space_archive")[0]?.args).toEqual({ assetType: "space", id: "s2", off: false }));
  await waitFor(() => expect(screen.getAllByRole("tab").map((t) => t.textContent)).toEqual(["Content plan4 cards"]));
  expect(await screen.findByRole("region", { name: "Ideas stage" })).toBeInTheDocument();

  await user.click(screen.getByRole("button", { name: "Space actions" }));
  await user.click(screen.getByRole("menuitem", { name: "Show archived spaces" }));
  await user.click(await screen.findByRole("button", { name: "Restore space Old" }));
  await waitFor(() => expect(core.called("space_archive")[1]?.args).toEqual({ assetType: "space", id: "s9", off: true }));
  expect(await screen.findByRole("tab", { name: /^Old/ })).toBeInTheDocument();

  await user.click(screen.getByRole("button", { name: "Space actions" }));
  await user.click(screen.getByRole("menuitem", { name: "New space…" }));
  await user.type(screen.getByLabelText("Name of the new space"), "Shorts");
  await user.click(screen.getByRole("button", { name: "Create space" }));
  expect(await screen.findByRole("tab", { name: /^Shorts/ })).toHaveAttribute("aria-selected", "true");
  expect(core.called("space_create")[0].args).toEqual({ name: "Shorts" });
});

it("a tile opens the card editor; closing it gives focus back to the tile", async () => {
  const core = setup();
  core.answers.card_get = () => testCard({ id: "c1", title: "First idea", stageId: "a" });
  core.answers.connected_accounts_list = () => [];
  render(Board);
  await screen.findByRole("region", { name: "Ideas stage" });
  const user = userEvent.setup();
  await user.click(within(screen.getByTestId("card-c1")).getByRole("button", { name: "First idea" }));
  const dialog = await screen.findByRole("dialog");
  await waitFor(() => expect(core.called("card_get")[0]?.args).toEqual({ cardId: "c1" }));
  await user.click(within(dialog).getAllByRole("button", { name: /^Close/ })[0]);
  await waitFor(() => expect(screen.queryByRole("dialog")).toBeNull());
  await waitFor(() => expect(within(screen.getByTestId("card-c1")).getByRole("button", { name: "First idea" })).toHaveFocus());
});

it("the move menu: arrow keys move through it, Escape closes it and focus goes back to the handle", async () => {
  setup();
  render(Board);
  await screen.findByRole("region", { name: "Ideas stage" });
  const user = userEvent.setup();
  const handle = screen.getByRole("button", { name: "Move First idea" });
  await user.click(handle);
  const menu = screen.getByRole("menu");
  // First and Up are disabled for the first card: focus starts on Down.
  expect(within(menu).getByRole("menuitem", { name: "Top" })).toBeDisabled();
  expect(within(menu).getByRole("menuitem", { name: "Down" })).toHaveFocus();
  await user.keyboard("{ArrowDown}");
  expect(within(menu).getByRole("menuitem", { name: "Bottom" })).toHaveFocus();
  await user.keyboard("{Escape}");
  expect(screen.queryByRole("menu")).toBeNull();
  await waitFor(() => expect(screen.getByRole("button", { name: "Move First idea" })).toHaveFocus());
});

it("an error names its cause instead of an empty board; a missing scope names the scope", async () => {
  const core = fakeCore();
  core.failWith.spaces_list = { code: "missingScope", scope: "planner:read", message: "This key lacks the scope planner:read. Grant it in Settings → API keys.", status: 403 };
  render(Board);
  const note = await screen.findByTestId("planner-error");
  expect(note).toHaveTextContent("Missing scope: planner:read");
  expect(screen.queryByRole("tablist")).toBeNull();
  expect(core.calls.map((c) => c.cmd)).not.toContain("ui_ready");
});

it("no spaces: says so", async () => {
  const core = fakeCore();
  core.answers.spaces_list = () => [];
  core.answers.tags_list = () => [];
  render(Board);
  expect(await screen.findByText("No spaces yet in this account.")).toBeInTheDocument();
});

it("windows a long column: 5,000 cards render only the rows in view, and scrolling shows later ones", async () => {
  const core = setup();
  const many = Array.from({ length: 5000 }, (_, i) => card(`m${i}`, `Card ${i}`, i % 2 ? "a" : "b", i));
  core.answers.board_load = () => ({ space: { id: "s1", name: "Content plan" }, stages: [stage("a", "Ideas", 1), stage("b", "Review", 2)], cards: many, total: 5000 });
  render(Board);
  const ideas = await screen.findByRole("region", { name: "Ideas stage" });
  expect(within(ideas).getByRole("heading")).toHaveTextContent("Ideas 2500 cards");
  const rendered = within(ideas).getAllByRole("listitem").length;
  expect(rendered).toBeGreaterThan(5);
  expect(rendered).toBeLessThan(40);
  const scroller = ideas.querySelector<HTMLElement>(".scroller")!;
  scroller.scrollTop = 112 * 1000;
  await fireEvent.scroll(scroller);
  await waitFor(() => expect(within(ideas).getByText("Card 2001")).toBeInTheDocument());
  expect(within(ideas).queryByText("Card 1")).toBeNull();
});

it("shortcuts: ? opens the sheet listing every shortcut (Escape closes it), N a new card in the first stage, / the search", async () => {
  setup();
  render(Board);
  await screen.findByRole("region", { name: "Ideas stage" });
  const user = userEvent.setup();
  await user.keyboard("?");
  const sheet = await screen.findByRole("dialog", { name: "Keyboard shortcuts" });
  for (const what of ["Show this sheet", "New card in the first stage", "Search the cards", "Undo the last move, reschedule or archive"]) {
    expect(within(sheet).getByText(what)).toBeInTheDocument();
  }
  expect(within(sheet).getByRole("button", { name: "Close" })).toHaveFocus();
  await user.keyboard("{Escape}");
  await waitFor(() => expect(screen.queryByRole("dialog", { name: "Keyboard shortcuts" })).toBeNull());
  // The toolbar's ? button opens it too.
  await user.click(screen.getByRole("button", { name: "Keyboard shortcuts and help" }));
  await user.click(within(await screen.findByRole("dialog", { name: "Keyboard shortcuts" })).getByRole("button", { name: "Close" }));

  (document.activeElement as HTMLElement | null)?.blur();
  await user.keyboard("n");
  await waitFor(() => expect(screen.getByLabelText("Title of the new card in Ideas")).toHaveFocus());
  // Typing in a field is typing, not a shortcut.
  await user.keyboard("n/?");
  expect(screen.getByLabelText("Title of the new card in Ideas")).toHaveValue("n/?");
  expect(screen.queryByRole("dialog", { name: "Keyboard shortcuts" })).toBeNull();
  await user.keyboard("{Escape}");
  (document.activeElement as HTMLElement | null)?.blur();
  await user.keyboard("/");
  expect(screen.getByLabelText("Search")).toHaveFocus();
});

it("arrows go between cards and stages, one Tab stop per stage's cards; M opens the move menu", async () => {
  setup();
  render(Board);
  const ideas = await screen.findByRole("region", { name: "Ideas stage" });
  const open = (id: string) => within(screen.getByTestId(`card-${id}`)).getAllByRole("button")[0];
  // One tile per column is in the Tab order (the first); the handles are reached by keys, not Tab.
  expect(within(ideas).getAllByRole("button").filter((b) => b.closest("[data-card-id]") && b.tabIndex === 0)).toEqual([open("c1")]);
  const user = userEvent.setup();
  open("c1").focus();
  await user.keyboard("{ArrowDown}");
  await waitFor(() => expect(open("c3")).toHaveFocus());
  expect(open("c3").tabIndex).toBe(0);
  expect(open("c1").tabIndex).toBe(-1);
  await user.keyboard("{ArrowRight}");
  await waitFor(() => expect(open("c2")).toHaveFocus());
  await user.keyboard("{ArrowLeft}");
  await waitFor(() => expect(open("c1")).toHaveFocus());
  await user.keyboard("{ArrowUp}");
  expect(open("c1")).toHaveFocus();
  await user.keyboard("m");
  expect(await screen.findByRole("menu", { name: "Move “First idea” to…" })).toBeInTheDocument();
});
