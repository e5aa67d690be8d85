import { afterEach, expect, it, vi } from "vitest";
import { render, screen, waitFor, within } from "@testing-library/svelte";
import userEvent from "@testing-library/user-event";
import { clearMocks } from "@tauri-apps/api/mocks";
import type { CardSummary, DraftsStatus, IpcError, Stage } from "../bindings";
import DraftsIndicator from "./DraftsIndicator.svelte";
import Board from "../planner/Board.svelte";
import CardEditor from "../planner/editor/CardEditor.svelte";
import { ACCOUNTS, TAGS, testCard } from "../planner/editor/testCard";
import { fakeCore, type FakeCore } from "../shared/fakeCore";
import { describeChange, drafts, POLL_MS, refreshDrafts, resetDrafts } from "./drafts.svelte";
import type { KeptChange } from "../bindings";

afterEach(() => {
  vi.useRealTimers();
  resetDrafts();
  clearMocks();
});

const status = (s: Partial<DraftsStatus> = {}): DraftsStatus => ({ waiting: 0, cardIds: [], changes: [], sent: 0, offline: false, ...s });

const QUEUED: IpcError = {
  code: "queued",
  message: "The service cannot be reached, so your change is kept on this computer and will be sent when the service answers (1 change waiting).",
};

it("shows nothing while nothing waits, then 'N changes waiting'; Send now sends them and the indicator goes", async () => {
  const core = fakeCore();
  let now = status();
  core.answers.drafts_status = () => now;
  core.answers.drafts_sync = () => status({ sent: 2 });
  render(DraftsIndicator);
  await waitFor(() => expect(core.called("drafts_status")).toHaveLength(1));
  expect(screen.queryByTestId("drafts-indicator")).toBeNull();
  expect(screen.getByTestId("sync-saved")).toHaveTextContent(/^✓All changes saved · ([01]\d|2[0-3]):[0-5]\d$/); // the one time style, 24-hour (shared/datetime.ts)

  now = status({ waiting: 2, cardIds: ["c1", "c2"] });
  await refreshDrafts();
  expect(await screen.findByTestId("drafts-waiting")).toHaveTextContent("2 changes waiting");
  const user = userEvent.setup();
  await user.click(screen.getByRole("button", { name: "Send now" }));
  await waitFor(() => expect(screen.queryByTestId("drafts-indicator")).toBeNull());
  expect(core.called("drafts_sync")).toHaveLength(1);
  expect(drafts.sentEpoch).toBe(1);
});

it("Send now while the service is still silent keeps the count and says so", async () => {
  const core = fakeCore();
  core.answers.drafts_status = () => status({ waiting: 1, cardIds: ["c1"] });
  core.answers.drafts_sync = () => status({ waiting: 1, cardIds: ["c1"], offline: true });
  render(DraftsIndicator);
  expect(await screen.findByTestId("drafts-waiting")).toHaveTextContent("1 change waiting");
  const user = userEvent.setup();
  await user.click(screen.getByRole("button", { name: "Send now" }));
  await user.click(screen.getByTestId("drafts-waiting"));
  expect(await screen.findByTestId("drafts-offline")).toHaveTextContent("still does not answer");
  expect(screen.getByTestId("drafts-waiting")).toHaveTextContent("1 change waiting");
});

it("polls drafts_status every few seconds while changes wait, and stops when none", async () => {
  vi.useFakeTimers();
  const core = fakeCore();
  let now = status({ waiting: 1, cardIds: ["c1"] });
  core.answers.drafts_status = () => now;
  await refreshDrafts();
  expect(drafts.waiting).toBe(1);
  await vi.advanceTimersByTimeAsync(POLL_MS);
  expect(core.called("drafts_status")).toHaveLength(2);
  now = status();
  await vi.advanceTimersByTimeAsync(POLL_MS);
  expect(drafts.waiting).toBe(0);
  await vi.advanceTimersByTimeAsync(POLL_MS * 3);
  expect(core.called("drafts_status")).toHaveLength(3);
});

it("the conflicts panel lists each card with its fields; Keep mine, Take theirs, and Open", async () => {
  const core = fakeCore();
  const conflicts: KeptChange[] = [
    { id: "k1", kind: "cardEdit", cardId: "c1", subject: "Launch video", fields: ["title", "notes"], theirsUpdatedAt: "2026-03-04T13:30:00.000Z", conflict: true, savedAt: 1 },
    { id: "k2", kind: "cardMove", cardId: "c2", subject: "Old post", fields: ["stage"], problem: "The card was deleted elsewhere.", conflict: true, savedAt: 2 },
  ];
  let open = [...conflicts];
  core.answers.drafts_status = () => status({ changes: open });
  core.answers.drafts_resolve = (a) => {
    open = open.filter((c) => c.id !== a?.id);
    return status({ changes: open, sent: a?.action === "sendMine" ? 1 : 0 });
  };
  render(DraftsIndicator);
  const user = userEvent.setup();
  await user.click(await screen.findByRole("button", { name: "2 conflicts" }));
  const panel = screen.getByTestId("drafts-conflicts");
  const first = within(panel).getByTestId("drafts-conflict-k1");
  expect(first).toHaveTextContent("Launch video");
  expect(first).toHaveTextContent("Your change: title, notes.");
  expect(first).toHaveTextContent("Changed elsewhere");
  expect(within(panel).getByTestId("drafts-conflict-k2")).toHaveTextContent("The card was deleted elsewhere.");
  // The shared conflict choice: Take theirs first (and focused), Keep mine, no merge for a whole card.
  expect(within(first).getAllByRole("button").map((b) => b.textContent?.trim())).toEqual(["Launch video", "Take theirs", "Keep mine"]);
  expect(within(first).getByRole("button", { name: "Take theirs" })).toHaveFocus();

  await user.click(within(first).getByRole("button", { name: "Keep mine" }));
  await waitFor(() => expect(core.called("drafts_resolve")[0]?.args).toEqual({ id: "k1", action: "sendMine" }));
  await waitFor(() => expect(screen.queryByTestId("drafts-conflict-k1")).toBeNull());

  await user.click(within(screen.getByTestId("drafts-conflict-k2")).getByRole("button", { name: "Old post" }));
  expect(drafts.openCard).toBe("c2");
  expect(screen.queryByTestId("drafts-conflicts")).toBeNull();
  await user.click(screen.getByRole("button", { name: "1 conflict" }));
  await user.click(screen.getByRole("button", { name: "Take theirs" }));
  await waitFor(() => expect(core.called("drafts_resolve")[1]?.args).toEqual({ id: "k2", action: "discardMine" }));
  await waitFor(() => expect(screen.queryByTestId("drafts-indicator")).toBeNull());
});

// ---- the board and the editor

const stage = (id: string, name: string, sortOrder: number): Stage => ({ id, name, slug: id, color: null, sortOrder, isDefault: false });
const card = (id: string, title: string, stageId: string, boardOrder: number): CardSummary => ({
  id, title, platform: "youtube", spaceId: "s1", stageId, boardOrder, contentType: null, coverUrl: null, isFavorite: false,
  archivedAt: null, isArchived: false, scheduledAt: null, publishedAt: null, publishUrl: null, createdAt: null, updatedAt: null,
  platforms: [], tags: [],
});

function boardCore(): FakeCore {
  const core = fakeCore();
  core.answers.spaces_list = () => [{ id: "s1", name: "Content plan", postCount: 2, archivedAt: null }];
  core.answers.tags_list = () => [];
  core.answers.board_load = () => ({
    space: { id: "s1", name: "Content plan" },
    stages: [stage("a", "Ideas", 1), stage("b", "Review", 2)],
    cards: [card("c1", "First idea", "a", 1), card("c2", "Second idea", "a", 2)],
    total: 2, stageTotals: {}, complete: true,
  });
  return core;
}

const titlesIn = (name: string) =>
  within(screen.getByRole("region", { name })).queryAllByRole("listitem").map((li) => within(li).getAllByRole("button")[0].textContent);

it("a queued move is not rolled back: the tile stays where it was put, marked as waiting", async () => {
  const core = boardCore();
  core.failWith.card_move = QUEUED;
  core.answers.drafts_status = () => status({ waiting: 1, cardIds: ["c1"] });
  render(Board);
  await screen.findByRole("region", { name: "Ideas stage" });
  const user = userEvent.setup();
  within(screen.getByTestId("card-c1")).getByRole("button", { name: "First idea" }).focus();
  await user.keyboard("{Alt>}{ArrowRight}{/Alt}");
  await waitFor(() => expect(core.called("card_move")).toHaveLength(1));
  await waitFor(() => expect(core.called("drafts_status").length).toBeGreaterThan(0));
  expect(titlesIn("Review stage")).toEqual(["First idea"]);
  expect(titlesIn("Ideas stage")).toEqual(["Second idea"]);
  expect(screen.queryByTestId("planner-action-error")).toBeNull();
  expect(await within(screen.getByTestId("card-c1")).findByTestId("card-waiting")).toHaveTextContent("waiting");
  expect(screen.getByTestId("board-status")).toHaveTextContent("is kept here");
});

it("a queued save closes nothing, loses nothing and says the change is kept", async () => {
  const core = fakeCore();
  core.answers.card_get = () => testCard();
  core.answers.tags_list = () => TAGS;
  core.answers.connected_accounts_list = () => ACCOUNTS;
  core.failWith.card_update = QUEUED;
  core.answers.drafts_status = () => status({ waiting: 1, cardIds: ["c1"] });
  const onclose = vi.fn<() => void>();
  render(CardEditor, { cardId: "c1", onclose, onchanged: vi.fn() });
  const user = userEvent.setup();
  const title = await screen.findByLabelText("Title");
  await user.clear(title);
  await user.type(title, "Written offline");
  await user.click(screen.getByRole("button", { name: "Save" }));
  const kept = await screen.findByTestId("card-save-kept");
  expect(kept).toHaveTextContent("kept on this computer");
  expect(kept).toHaveTextContent("1 change waiting");
  expect(screen.queryByTestId("card-save-error")).toBeNull();
  expect(screen.getByLabelText("Title")).toHaveValue("Written offline");
  expect(onclose).not.toHaveBeenCalled();
  await waitFor(() => expect(drafts.waiting).toBe(1));
  // What was kept is not "unsaved": closing now asks nothing; a further edit is unsaved again.
  expect(screen.getByText("Kept on this computer")).toBeInTheDocument();
  await user.type(title, "!");
  expect(screen.getByText("Unsaved changes")).toBeInTheDocument();
  await user.type(title, "{Backspace}");
  await user.click(screen.getByRole("button", { name: "Close" }));
  expect(onclose).toHaveBeenCalledTimes(1);
  expect(screen.queryByRole("alertdialog")).toBeNull();
});

it("'Open' in the conflicts panel opens the card's editor on the board; a sent change reloads the board", async () => {
  const core = boardCore();
  core.answers.card_get = () => testCard();
  core.answers.tags_list = () => TAGS;
  core.answers.connected_accounts_list = () => ACCOUNTS;
  core.answers.drafts_status = () => status();
  render(Board);
  await screen.findByRole("region", { name: "Ideas stage" });
  const loads = core.called("board_load").length;
  drafts.openCard = "c1";
  expect(await screen.findByTestId("card-editor")).toBeInTheDocument();
  await waitFor(() => expect(core.called("card_get")[0]?.args).toEqual({ cardId: "c1" }));
  expect(drafts.openCard).toBeNull();
  // Kept changes sent while the editor is open: the board waits; once it is closed and another is sent, it reloads.
  drafts.sentEpoch++;
  await userEvent.setup().click(screen.getByRole("button", { name: "Close" }));
  drafts.sentEpoch++;
  await waitFor(() => expect(core.called("board_load").length).toBeGreaterThan(loads));
});

// --- every planner write kept offline: the list of kept changes in words, each droppable

const kept = (c: Partial<KeptChange> & Pick<KeptChange, "id" | "kind">): KeptChange => ({ fields: [], conflict: false, savedAt: 1, ...c });

it("says each kind of kept change in words, naming the thing as the board had it", () => {
  const words = (c: Partial<KeptChange> & Pick<KeptChange, "id" | "kind">) => describeChange(kept(c));
  expect(words({ id: "1", kind: "stageRename", subject: "Ideas", name: "Drafts" })).toBe("Rename stage Ideas → Drafts");
  expect(words({ id: "2", kind: "cardArchive", subject: "Launch post" })).toBe("Archive card ‘Launch post’");
  expect(words({ id: "3", kind: "cardRestore", subject: "Launch post" })).toBe("Restore card ‘Launch post’");
  expect(words({ id: "4", kind: "stageCreate", name: "Legal" })).toBe("Add stage Legal");
  expect(words({ id: "5", kind: "stageRecolor", subject: "Review", color: "#AA3366" })).toBe("Recolour stage Review to #AA3366");
  expect(words({ id: "6", kind: "stageMove", subject: "Review" })).toBe("Move stage Review");
  expect(words({ id: "7", kind: "stageDelete", subject: "Review" })).toBe("Delete stage Review");
  expect(words({ id: "8", kind: "spaceCreate", name: "Q3" })).toBe("Create space Q3");
  expect(words({ id: "9", kind: "spaceRename", subject: "Q3", name: "Q3 launch" })).toBe("Rename space Q3 → Q3 launch");
  expect(words({ id: "10", kind: "spaceArchive", subject: "Q3" })).toBe("Archive space Q3");
  expect(words({ id: "11", kind: "cardMove", subject: "Launch post", fields: ["stage"] })).toBe("Move card ‘Launch post’");
  expect(words({ id: "12", kind: "cardEdit", subject: "Launch post", fields: ["title", "coverUrl", "coverOutputId"] })).toBe("Edit card ‘Launch post’ (title, cover)");
  // A card never read here and with no title from the board: still a sentence.
  expect(words({ id: "13", kind: "cardArchive" })).toBe("Archive a card");
});

it("lists the kept changes in order and drops one only after a confirmation", async () => {
  const core = fakeCore();
  const changes = [
    kept({ id: "k1", kind: "stageRename", subject: "Ideas", name: "Drafts" }),
    kept({ id: "k2", kind: "cardArchive", subject: "Launch post" }),
  ];
  let now = status({ waiting: 2, changes });
  core.answers.drafts_status = () => now;
  core.answers.drafts_resolve = (a) => {
    now = status({ waiting: 1, changes: changes.filter((c) => c.id !== a?.id) });
    return now;
  };
  render(DraftsIndicator);
  const user = userEvent.setup();
  // The header's pill opens the popover that holds the list.
  await user.click(await screen.findByTestId("drafts-waiting"));
  // The list's toggle and heading say how many it holds.
  await user.click(await screen.findByRole("button", { name: "Show the 2 changes" }));
  const list = screen.getByTestId("drafts-list");
  expect(within(list).getByRole("heading")).toHaveTextContent("Kept on this computer (2)");
  expect(within(list).getAllByTestId("drafts-change").map((li) => li.querySelector(".what")?.textContent)).toEqual([
    "Rename stage Ideas → Drafts",
    "Archive card ‘Launch post’",
  ]);
  // Drop asks first; Keep leaves it.
  await user.click(within(list).getByRole("button", { name: "Drop: Archive card ‘Launch post’" }));
  expect(within(list).getByRole("group", { name: "Drop this change?" })).toHaveTextContent("It will not be sent.");
  await user.click(within(list).getByRole("button", { name: "Keep" }));
  expect(core.called("drafts_resolve")).toHaveLength(0);
  // Drop, confirmed: that change only.
  await user.click(within(list).getByRole("button", { name: "Drop: Archive card ‘Launch post’" }));
  await user.click(within(list).getByTestId("drafts-drop-confirm"));
  await waitFor(() => expect(core.called("drafts_resolve")[0]?.args).toEqual({ id: "k2", action: "discardMine" }));
  await waitFor(() => expect(screen.getAllByTestId("drafts-change")).toHaveLength(1));
  expect(screen.getByTestId("drafts-waiting")).toHaveTextContent("1 change waiting");
  expect(screen.getByTestId("drafts-list-toggle")).toHaveAccessibleName("Hide the change");
  expect(within(list).getByRole("heading")).toHaveTextContent("Kept on this computer (1)");
});

it("a planner change in conflict is in the conflicts panel with Take theirs / Keep mine", async () => {
  const core = fakeCore();
  const conflict = kept({ id: "k1", kind: "stageRename", subject: "Ideas", name: "Mine", conflict: true, theirs: "changed elsewhere, now “Theirs”" });
  core.answers.drafts_status = () => status({ changes: [conflict] });
  core.answers.drafts_resolve = () => status({ sent: 1 });
  render(DraftsIndicator);
  const user = userEvent.setup();
  await user.click(await screen.findByRole("button", { name: "1 conflict" }));
  const item = screen.getByTestId("drafts-conflict-k1");
  expect(item).toHaveTextContent("Rename stage Ideas → Mine");
  expect(item).toHaveTextContent("changed elsewhere, now “Theirs”");
  await user.click(within(item).getByRole("button", { name: "Keep mine" }));
  await waitFor(() => expect(core.called("drafts_resolve")[0]?.args).toEqual({ id: "k1", action: "sendMine" }));
  await waitFor(() => expect(screen.queryByTestId("drafts-indicator")).toBeNull());
});
