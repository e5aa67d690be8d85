import { afterEach, expect, it, vi, type Mock } from "vitest";
import { fireEvent, render, screen, waitFor, within } from "@testing-library/svelte";
import userEvent from "@testing-library/user-event";
import { clearMocks } from "@tauri-apps/api/mocks";
import CardEditor from "./CardEditor.svelte";
import { fakeCore, type FakeCore } from "../../shared/fakeCore";
import { ACCOUNTS, TAGS, testCard } from "./testCard";
import { isoToLocalInput } from "./localTime";
import { formatDay } from "./dateEntry";
import type { CardDetail, CardSummary, UpdateCard } from "./wire";

afterEach(() => clearMocks());

/** A core that answers the editor's reads, and card_update with the card read back. */
function editorCore(card: CardDetail = testCard()): FakeCore {
  const core = fakeCore();
  let current = card;
  core.answers.card_get = () => current;
  core.answers.tags_list = () => TAGS;
  core.answers.connected_accounts_list = () => ACCOUNTS;
  core.answers.card_update = (args) => {
    const u = args?.update as UpdateCard;
    current = {
      ...current,
      title: u.title ?? current.title,
      notes: u.notes ?? current.notes,
      revision: u.notes !== undefined ? current.revision + 1 : current.revision,
      scheduledAt: u.scheduledAt !== undefined ? u.scheduledAt : current.scheduledAt,
      tags: u.tags ?? current.tags,
      coverUrl: u.coverUrl !== undefined ? u.coverUrl : u.coverOutputId ? "https://cdn.test/a1.png" : current.coverUrl,
      assets: u.assets ? u.assets.map((a) => current.assets.find((x) => x.id === a.id)!).filter(Boolean) : current.assets,
    };
    return current;
  };
  core.answers.card_archive = (args) => ({ archived: !args?.off });
  return core;
}

function open(props: { onclose?: Mock<() => void> } = {}) {
  const onclose = props.onclose ?? vi.fn<() => void>();
  const onchanged = vi.fn<(card: CardSummary) => void>();
  render(CardEditor, { cardId: "c1", onclose, onchanged });
  return { onclose, onchanged };
}

const updates = (core: FakeCore) => core.called("card_update").map((c) => c.args?.update);

it("loads the card and shows its fields, posts, tags and assets in carousel order", async () => {
  const core = editorCore();
  open();
  const title = await screen.findByLabelText("Title");
  expect(title).toHaveValue("Launch teaser");
  expect(screen.getByRole("dialog", { name: /Launch teaser/ })).toBeInTheDocument();
  expect(screen.getByLabelText(/^Notes/)).toHaveValue("Shoot at noon.");
  // The schedule in the app's format (the calendar's day, the 24-hour clock), not the browser's.
  const local = isoToLocalInput("2026-11-22T08:00:00.000Z");
  expect(screen.getByLabelText(/^Scheduled/)).toHaveValue(formatDay(local.slice(0, 10)));
  expect((screen.getByLabelText(/^Scheduled/) as HTMLInputElement).value).toMatch(/^Nov 2[12], 2026$/); // en-US, as Vitest runs
  expect(screen.getByLabelText("Time")).toHaveValue(local.slice(11));
  const post = screen.getByTestId("post");
  expect(within(post).getByLabelText("Account")).toHaveValue("acc-ig");
  // Only the post's platform's accounts are offered.
  expect(within(post).getAllByRole("option").map((o) => o.textContent)).toEqual(["No account", "Studio IG", "Second IG"]);
  expect(within(post).getByLabelText("Caption")).toHaveValue("Soon.");
  expect(screen.getByRole("list", { name: "Tags of the card" })).toHaveTextContent("launch");
  expect(screen.getAllByTestId("asset").map((a) => a.getAttribute("aria-label"))).toEqual([
    "Asset 1 of 3: Hero shot (image)", "Asset 2 of 3: Competitor reel (inspiration)", "Asset 3 of 3: Brief (link)",
  ]);
  expect(screen.getAllByTestId("asset")[0].querySelector("img")).toHaveAttribute("src", "https://cdn.test/a1.png");
  expect(screen.getAllByTestId("asset")[1]).toHaveTextContent("inspiration");
  expect(core.called("card_get")[0].args).toEqual({ cardId: "c1" });
  expect(screen.getByRole("button", { name: "Save" })).toBeDisabled();
});

it("a load failure shows the error and can be retried", async () => {
  const core = editorCore();
  core.failWith.card_get = { code: "notFound", message: "This card is gone." };
  open();
  expect(await screen.findByTestId("card-load-error")).toHaveTextContent("This card is gone.");
  delete core.failWith.card_get;
  await userEvent.click(screen.getByRole("button", { name: "Try again" }));
  expect(await screen.findByLabelText("Title")).toHaveValue("Launch teaser");
});

it("saves only what changed: the title, and the whole posts list for a caption and an account", async () => {
  const core = editorCore();
  const { onchanged } = open();
  const user = userEvent.setup();
  const title = await screen.findByLabelText("Title");
  await user.clear(title);
  await user.type(title, "Launch day");
  const post = screen.getByTestId("post");
  const caption = within(post).getByLabelText("Caption");
  await user.clear(caption);
  await user.type(caption, "Tomorrow.");
  await user.selectOptions(within(post).getByLabelText("Account"), "acc-ig2");
  await user.click(screen.getByRole("button", { name: "Save" }));
  await waitFor(() => expect(updates(core)).toHaveLength(1));
  expect(core.called("card_update")[0].args?.cardId).toBe("c1");
  expect(updates(core)[0]).toEqual({
    title: "Launch day",
    posts: [{ platform: "instagram", connectedAccountId: "acc-ig2", platformSpecificData: { caption: "Tomorrow.", firstComment: "#launch" } }],
  });
  await waitFor(() => expect(onchanged).toHaveBeenCalledWith(expect.objectContaining({ id: "c1", title: "Launch day" })));
  expect(onchanged.mock.calls[0][0]).not.toHaveProperty("assets");
  expect(screen.getByRole("button", { name: "Save" })).toBeDisabled();
});

it("the schedule is edited in local time and sent as UTC; a post gets its own time", async () => {
  const core = editorCore();
  open();
  const when = await screen.findByLabelText(/^Scheduled/);
  const user = userEvent.setup();
  // Typed as people write it: the day, then the time.
  await user.clear(when);
  await user.type(when, "1 Dec 2026");
  await user.tab();
  expect(when).toHaveValue(formatDay("2026-12-01"));
  const time = screen.getByLabelText("Time");
  await user.clear(time);
  await user.type(time, "9:30");
  await user.tab();
  expect(time).toHaveValue("09:30");
  const post = screen.getByTestId("post");
  await user.click(within(post).getByLabelText("Own time"));
  const postDay = within(post).getByLabelText("Instagram post day");
  await user.clear(postDay);
  await user.type(postDay, "2 Dec 2026{Enter}");
  const postTime = within(post).getByLabelText("Instagram post time");
  await user.clear(postTime);
  await user.type(postTime, "6pm{Enter}");
  expect(postTime).toHaveValue("18:00");
  await userEvent.click(screen.getByRole("button", { name: "Save" }));
  await waitFor(() => expect(updates(core)).toHaveLength(1));
  const u = updates(core)[0] as UpdateCard;
  expect(u.scheduledAt).toBe(new Date(2026, 11, 1, 9, 30).toISOString());
  expect(u.posts?.[0].scheduledAt).toBe(new Date(2026, 11, 2, 18, 0).toISOString());
  expect(u.title).toBeUndefined();
  expect(u.assets).toBeUndefined();
});

it("adds a post for another platform, and tags from the list or typed freely", async () => {
  const core = editorCore();
  open();
  const user = userEvent.setup();
  await user.selectOptions(await screen.findByLabelText("Platform of the new post"), "tiktok");
  await user.click(screen.getByRole("button", { name: "Add post" }));
  const posts = screen.getAllByTestId("post");
  // The only TikTok account is chosen for it.
  expect(within(posts[1]).getByLabelText("Account")).toHaveValue("acc-tt");
  await user.type(screen.getByLabelText("Tags"), "evergreen{Enter}");
  await user.type(screen.getByLabelText("Tags"), "Black Friday{Enter}");
  await user.click(screen.getByRole("button", { name: "Save" }));
  await waitFor(() => expect(updates(core)).toHaveLength(1));
  expect(updates(core)[0]).toEqual({
    tags: ["launch", "evergreen", "Black Friday"],
    posts: [
      { platform: "instagram", connectedAccountId: "acc-ig", platformSpecificData: { caption: "Soon.", firstComment: "#launch" } },
      { platform: "tiktok", connectedAccountId: "acc-tt" },
    ],
  });
});

it("a notes conflict shows theirs beside yours, keeps yours, and 'Keep mine' re-sends with their revision", async () => {
  const core = editorCore();
  open();
  const user = userEvent.setup();
  const notes = await screen.findByLabelText(/^Notes/);
  await user.clear(notes);
  await user.type(notes, "Shoot at one, outside.");
  core.failWith.card_update = { code: "notesConflict", message: "The notes changed.", notes: "Shoot at two (Sam).", revision: 5 };
  await user.click(screen.getByRole("button", { name: "Save" }));
  const box = await screen.findByTestId("notes-conflict");
  expect(within(box).getByLabelText("Theirs")).toHaveValue("Shoot at two (Sam).");
  expect(within(box).getByLabelText("Yours")).toHaveValue("Shoot at one, outside.");
  expect(screen.getByLabelText(/^Notes/)).toHaveValue("Shoot at one, outside.");
  expect(within(box).getByLabelText("Merge")).toHaveValue("Shoot at two (Sam).\n\nShoot at one, outside.");
  // The shared conflict choice: the same three words and order, the first focused.
  expect(within(box).getAllByRole("button").map((b) => b.textContent?.trim())).toEqual(["Take theirs", "Keep mine", "Merge…"]);
  await waitFor(() => expect(within(box).getByRole("button", { name: "Take theirs" })).toHaveFocus());
  expect(updates(core)[0]).toEqual({ notes: "Shoot at one, outside.", expectedRevision: 3 });
  delete core.failWith.card_update;
  await user.click(within(box).getByRole("button", { name: "Keep mine" }));
  await waitFor(() => expect(updates(core)).toHaveLength(2));
  expect(updates(core)[1]).toEqual({ notes: "Shoot at one, outside.", expectedRevision: 5 });
  await waitFor(() => expect(screen.queryByTestId("notes-conflict")).not.toBeInTheDocument());
});

it("'Take theirs' takes their notes and leaves nothing to save for them", async () => {
  const core = editorCore();
  open();
  const user = userEvent.setup();
  await user.type(await screen.findByLabelText(/^Notes/), " Mine.");
  core.failWith.card_update = { code: "notesConflict", message: "", notes: "Theirs.", revision: 9 };
  await user.click(screen.getByRole("button", { name: "Save" }));
  await user.click(await screen.findByRole("button", { name: "Take theirs" }));
  expect(screen.getByLabelText(/^Notes/)).toHaveValue("Theirs.");
  expect(screen.getByRole("button", { name: "Save" })).toBeDisabled();
  expect(core.called("card_update")).toHaveLength(1);
});

it("a merge is saved with their revision", async () => {
  const core = editorCore();
  open();
  const user = userEvent.setup();
  await user.type(await screen.findByLabelText(/^Notes/), " Mine.");
  core.failWith.card_update = { code: "notesConflict", message: "", notes: "Theirs.", revision: 9 };
  await user.click(screen.getByRole("button", { name: "Save" }));
  const merge = await screen.findByLabelText("Merge");
  delete core.failWith.card_update;
  await user.clear(merge);
  await user.type(merge, "Both.");
  await user.click(screen.getByRole("button", { name: "Merge…" }));
  await waitFor(() => expect(updates(core)).toHaveLength(2));
  expect(updates(core)[1]).toEqual({ notes: "Both.", expectedRevision: 9 });
});

it("a validation error naming a field is shown next to that field", async () => {
  const core = editorCore();
  open();
  const user = userEvent.setup();
  await user.type(await screen.findByLabelText("Title"), "!");
  core.failWith.card_update = { code: "validation", message: "title is too long for this plan", field: "title" };
  await user.click(screen.getByRole("button", { name: "Save" }));
  const note = await screen.findByText("title is too long for this plan");
  expect(note.id).toBe("card-title-error");
  expect(screen.getByLabelText("Title")).toHaveAttribute("aria-invalid", "true");
  expect(screen.getByLabelText("Title")).toHaveFocus();
  expect(screen.queryByTestId("card-save-error")).not.toBeInTheDocument();
});

it("a service error naming an asset is shown on that thumbnail; other errors as a note", async () => {
  const core = editorCore();
  open();
  const user = userEvent.setup();
  await user.type(await screen.findByLabelText("Add a link"), "https://example.com/new");
  await user.click(screen.getByRole("button", { name: "Add link" }));
  core.failWith.card_update = { code: "validation", message: "assets[3]: this link is not reachable", field: "assets[3]" };
  await user.click(screen.getByRole("button", { name: "Save" }));
  const thumb = screen.getAllByTestId("asset")[3];
  expect(await within(thumb).findByTestId("asset-error")).toHaveTextContent("not reachable");
  core.failWith.card_update = { code: "network", message: "The service could not be reached." };
  await user.click(screen.getByRole("button", { name: "Save" }));
  expect(await screen.findByTestId("card-save-error")).toHaveTextContent("could not be reached");
});

it("rules are checked before sending: an empty title is refused on the field", async () => {
  const core = editorCore();
  open();
  const user = userEvent.setup();
  await user.clear(await screen.findByLabelText("Title"));
  await user.click(screen.getByRole("button", { name: "Save" }));
  expect(await screen.findByText("Give the card a title.")).toHaveAttribute("id", "card-title-error");
  expect(core.called("card_update")).toHaveLength(0);
});

it("Alt+Arrow on a focused thumbnail reorders, keeps focus on it, and saves the ids in the new order", async () => {
  const core = editorCore();
  open();
  const user = userEvent.setup();
  await screen.findByLabelText("Title");
  const brief = screen.getByRole("listitem", { name: /Brief/ });
  brief.focus();
  await user.keyboard("{Alt>}{ArrowLeft}{/Alt}");
  await waitFor(() => expect(screen.getByRole("listitem", { name: /Brief/ })).toHaveFocus());
  expect(screen.getByRole("listitem", { name: /Brief/ })).toHaveAccessibleName("Asset 2 of 3: Brief (link)");
  await user.keyboard("{Alt>}{ArrowLeft}{/Alt}");
  await user.keyboard("{Alt>}{ArrowLeft}{/Alt}"); // already first: nothing moves
  expect(screen.getByText("Moved Brief to position 1 of 3.")).toBeInTheDocument();
  await user.click(screen.getByRole("button", { name: "Save" }));
  await waitFor(() => expect(updates(core)).toHaveLength(1));
  expect(updates(core)[0]).toEqual({ assets: [{ id: "a3" }, { id: "a1" }, { id: "a2" }] });
});

it("dragging a thumbnail onto another moves it there", async () => {
  const core = editorCore();
  open();
  await screen.findByLabelText("Title");
  const [hero, , brief] = screen.getAllByTestId("asset");
  await fireEvent.dragStart(hero, { dataTransfer: { setData: () => {}, effectAllowed: "" } });
  await fireEvent.dragOver(brief, { dataTransfer: { dropEffect: "" } });
  await fireEvent.drop(brief, { dataTransfer: {} });
  await userEvent.click(screen.getByRole("button", { name: "Save" }));
  await waitFor(() => expect(updates(core)).toHaveLength(1));
  expect(updates(core)[0]).toEqual({ assets: [{ id: "a2" }, { id: "a3" }, { id: "a1" }] });
});

it("remove sends the list without it; added links and outputs are validated and appended", async () => {
  const core = editorCore();
  open();
  const user = userEvent.setup();
  await screen.findByLabelText("Title");
  await user.click(screen.getByRole("button", { name: "Remove Competitor reel" }));
  expect(screen.getAllByTestId("asset")).toHaveLength(2);

  await user.type(screen.getByLabelText("Add a link"), "ftp://files.test/x");
  await user.click(screen.getByRole("button", { name: "Add link" }));
  expect(screen.getByText("Give an http:// or https:// address.")).toBeInTheDocument();
  await user.clear(screen.getByLabelText("Add a link"));
  await user.type(screen.getByLabelText("Add a link"), "https://example.com/brief");
  await user.click(screen.getByRole("button", { name: "Add link" }));
  expect(screen.getByText(/repeats assetUrl/)).toBeInTheDocument();

  await user.type(screen.getByLabelText("Add a generation output"), "not-a-token");
  await user.click(screen.getByRole("button", { name: "Add output" }));
  expect(screen.getByText(/Give a generation output id/)).toBeInTheDocument();
  await user.clear(screen.getByLabelText("Add a generation output"));
  await user.type(screen.getByLabelText("Add a generation output"), "3F2B8C1E-9A4D-4E5F-8B6A-1C2D3E4F5A6B-2");
  await user.click(screen.getByRole("button", { name: "Add output" }));
  expect(screen.getAllByTestId("asset")).toHaveLength(3);

  await user.click(screen.getByRole("button", { name: "Save" }));
  await waitFor(() => expect(updates(core)).toHaveLength(1));
  expect(updates(core)[0]).toEqual({
    assets: [{ id: "a1" }, { id: "a3" }, { outputId: "3f2b8c1e-9a4d-4e5f-8b6a-1c2d3e4f5a6b-2" }],
  });
});

it("cover: remove sends null, a URL is checked, an asset output becomes coverOutputId", async () => {
  const core = editorCore(testCard({ coverUrl: "https://cdn.test/old.png" }));
  open();
  const user = userEvent.setup();
  await screen.findByLabelText("Title");
  await user.click(screen.getByRole("button", { name: "Remove cover" }));
  await user.click(screen.getByRole("button", { name: "Save" }));
  await waitFor(() => expect(updates(core)).toHaveLength(1));
  expect(updates(core)[0]).toEqual({ coverUrl: null });

  await user.type(screen.getByLabelText("Image URL"), "cdn.test/new.png");
  await user.click(screen.getByRole("button", { name: "Save" }));
  expect(await screen.findByText(/cover must be an http/)).toBeInTheDocument();
  expect(core.called("card_update")).toHaveLength(1);

  await user.selectOptions(screen.getByLabelText("Use an asset as the cover"), "a1");
  await user.click(screen.getByRole("button", { name: "Save" }));
  await waitFor(() => expect(updates(core)).toHaveLength(2));
  expect(updates(core)[1]).toEqual({ coverOutputId: "out-1" });
});

it("Escape closes at once when nothing changed, and asks first when something did", async () => {
  editorCore();
  const onclose = vi.fn<() => void>();
  open({ onclose });
  const user = userEvent.setup();
  const title = await screen.findByLabelText("Title");
  title.focus();
  await user.keyboard("{Escape}");
  expect(onclose).toHaveBeenCalledTimes(1);

  await user.type(title, " (draft)");
  await user.keyboard("{Escape}");
  const ask = await screen.findByRole("alertdialog", { name: "Discard unsaved changes?" });
  expect(onclose).toHaveBeenCalledTimes(1);
  await user.click(within(ask).getByRole("button", { name: "Cancel" }));
  expect(screen.getByLabelText("Title")).toHaveValue("Launch teaser (draft)");
  await user.click(screen.getByRole("button", { name: "Close" }));
  await user.click(await screen.findByRole("button", { name: "Discard changes" }));
  expect(onclose).toHaveBeenCalledTimes(2);
});

it("Tab stays inside the panel", async () => {
  editorCore();
  open();
  const user = userEvent.setup();
  await screen.findByLabelText("Title");
  const save = screen.getByRole("button", { name: "Save" });
  await user.type(screen.getByLabelText("Title"), "x"); // Save becomes the last enabled control
  save.focus();
  await user.tab();
  expect(screen.getByRole("button", { name: "Close the card editor" })).toHaveFocus();
  await user.tab({ shift: true });
  expect(save).toHaveFocus();
});

it("archive asks, archives and tells the board", async () => {
  const core = editorCore();
  const { onclose, onchanged } = open();
  const user = userEvent.setup();
  await screen.findByLabelText("Title");
  await user.click(screen.getByRole("button", { name: "Archive" }));
  await user.click(await screen.findByRole("button", { name: "Archive card" }));
  await waitFor(() => expect(onclose).toHaveBeenCalled());
  expect(core.called("card_archive")[0].args).toMatchObject({ assetType: "card", id: "c1", off: false });
  expect(onchanged).toHaveBeenCalledWith(expect.objectContaining({ id: "c1", isArchived: true }));
});

it.each([
  ["posts[0]", "instagram needs a connected account", () => within(screen.getByTestId("post")).getByTestId("post-error")],
  ["scheduled_at", "scheduledAt is in the past", () => screen.getByLabelText(/^Scheduled/).closest(".field")!.querySelector(".field-error")!],
  ["tags", "unknown tag: Black Friday", () => screen.getByLabelText("Tags").closest(".field")!.querySelector(".field-error")!],
])("a service error on %s is shown on that field", async (field, message, where) => {
  const core = editorCore();
  open();
  const user = userEvent.setup();
  await user.type(await screen.findByLabelText("Title"), "!");
  core.failWith.card_update = { code: "validation", message, field };
  await user.click(screen.getByRole("button", { name: "Save" }));
  await screen.findByText(message);
  expect(where()).toHaveTextContent(message);
  expect(screen.queryByTestId("card-save-error")).not.toBeInTheDocument();
});

it("Escape still closes after Save, when focus fell to the page", async () => {
  editorCore();
  const onclose = vi.fn<() => void>();
  open({ onclose });
  const user = userEvent.setup();
  const title = await screen.findByLabelText("Title");
  await user.type(title, " v2");
  await user.click(screen.getByRole("button", { name: "Save" }));
  await waitFor(() => expect(screen.getByRole("button", { name: "Save" })).toBeDisabled());
  // The Save button was disabled under the pointer: a browser moves focus to the page (jsdom leaves it
  // on the disabled button); the key arrives at the page, outside the panel's own handler.
  fireEvent.keyDown(document.body, { key: "Escape" });
  expect(onclose).toHaveBeenCalledTimes(1);
});
