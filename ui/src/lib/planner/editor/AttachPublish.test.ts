// The editor's pickers (inspiration post, project), local file upload and "Publish now", against a fake
// core: what each sends, what it shows, and its errors.
import { afterEach, expect, it, vi } from "vitest";
import { fireEvent, render, screen, waitFor, within } from "@testing-library/svelte";
import userEvent from "@testing-library/user-event";
import { clearMocks } from "@tauri-apps/api/mocks";
import CardEditor from "./CardEditor.svelte";
import { fakeCore, type FakeCore } from "../../shared/fakeCore";
import { ACCOUNTS, TAGS, asset, post, testCard } from "./testCard";
import type { CardAsset, CardDetail, CardSummary, ContentSummary, Project, PublishResult, UpdateCard } from "./wire";

afterEach(() => clearMocks());

function content(id: string, extra: Partial<ContentSummary> = {}): ContentSummary {
  return {
    id, platform: "tiktok", contentType: "video", title: `Post ${id}`, url: null, thumbnailUrl: `https://cdn.test/${id}.jpg`,
    viewCount: 1_250_000, likeCount: null, commentCount: null, shareCount: null, durationSeconds: null, outlierScore: 7.4,
    engagementRate: null, publishedAt: null, sourceCreator: "Maya Chen", accountHandle: "mayamakes", accountId: null, ...extra,
  };
}

function project(id: string, extra: Partial<Project> = {}): Project {
  return {
    id, type: "editor", title: `Project ${id}`, orientation: "landscape", width: 1920, height: 1080, thumbnailUrl: null,
    isArchived: false, isFavorited: false, brandKitId: null, linkedCardId: null, createdAt: null, updatedAt: null, ...extra,
  };
}

const POSTS = [content("ct-1"), content("ct-2", { title: "Desk tour", sourceCreator: null, accountHandle: "studio", outlierScore: 3, viewCount: 980 })];

/** The editor's reads, card_update answering the card read back (new entries become assets). */
function core(card: CardDetail = testCard()): FakeCore & { card: () => CardDetail } {
  const c = fakeCore() as FakeCore & { card: () => CardDetail };
  let current = card;
  let n = 0;
  c.card = () => current;
  c.answers.card_get = () => current;
  c.answers.tags_list = () => TAGS;
  c.answers.connected_accounts_list = () => ACCOUNTS;
  c.answers.card_update = (args) => {
    const u = args?.update as UpdateCard;
    if (u.assets) {
      current = {
        ...current,
        assets: u.assets.map((a): CardAsset => current.assets.find((x) => x.id === a.id) ?? asset(`new-${++n}`, {
          outputId: a.outputId ?? null, contentId: a.contentId ?? null, projectId: a.projectId ?? null,
          displayName: a.displayName ?? null,
        })),
      };
    }
    return current;
  };
  c.answers.content_list = (args) => {
    const q = String(args?.search ?? "").toLowerCase();
    const hits = POSTS.filter((p) => !q || (p.title ?? "").toLowerCase().includes(q));
    return { outliers: hits, total: hits.length, hasMore: false };
  };
  c.answers.projects_list = () => [project("pr-1"), project("pr-2", { title: "Linked cut", linkedCardId: "c1" })];
  c.answers.project_create = (args) => {
    const p = project("pr-new", { title: String(args?.title), linkedCardId: String(args?.cardId) });
    current = { ...current, assets: [...current.assets, asset("a-pr", { projectId: p.id, assetType: "project", displayName: p.title })] };
    return { project: p, linkedCardId: String(args?.cardId) };
  };
  return c;
}

function open() {
  const onchanged = vi.fn<(card: CardSummary) => void>();
  render(CardEditor, { cardId: "c1", onclose: vi.fn(), onchanged });
  return { onchanged };
}

const updates = (c: FakeCore) => c.called("card_update").map((x) => x.args?.update as UpdateCard);
const labels = () => screen.getAllByTestId("asset").map((a) => a.getAttribute("aria-label"));

// ---------- inspiration ----------

it("the inspiration picker lists posts with creator, score, views and thumbnail, searches, and attaches by contentId", async () => {
  const c = core();
  open();
  const user = userEvent.setup();
  await user.click(await screen.findByRole("button", { name: "Add inspiration post…" }));
  const dialog = await screen.findByRole("dialog", { name: "Add an inspiration post" });
  const items = await within(dialog).findAllByTestId("inspiration-post");
  expect(items).toHaveLength(2);
  expect(items[0]).toHaveTextContent("Post ct-1");
  expect(items[0]).toHaveTextContent("Maya Chen");
  expect(items[0]).toHaveTextContent("7.4× outlier");
  expect(items[0]).toHaveTextContent(/1\.3M views/);
  expect(items[0].querySelector("img")).toHaveAttribute("src", "https://cdn.test/ct-1.jpg");
  // No creator name: the handle stands in.
  expect(items[1]).toHaveTextContent("@studio");
  expect(items[1]).toHaveTextContent("980 views");
  expect(within(dialog).getByRole("searchbox")).toHaveFocus();
  expect(c.called("content_list")[0].args).toEqual({ limit: 20, offset: 0 });

  await user.type(within(dialog).getByRole("searchbox"), "desk");
  await user.click(within(dialog).getByRole("button", { name: "Search" }));
  await waitFor(() => expect(within(dialog).getAllByTestId("inspiration-post")).toHaveLength(1));
  expect(c.called("content_list")[1].args).toEqual({ search: "desk", limit: 20, offset: 0 });
  expect(within(dialog).getByText(/1 post matching “desk”/)).toBeInTheDocument();

  await user.click(within(dialog).getByRole("button", { name: "Attach “Desk tour” by @studio" }));
  expect(screen.queryByRole("dialog", { name: "Add an inspiration post" })).not.toBeInTheDocument();
  expect(labels()[3]).toBe("Asset 4 of 4: Desk tour (inspiration)");
  expect(screen.getAllByTestId("asset")[3].querySelector("img")).toHaveAttribute("src", "https://cdn.test/ct-2.jpg");

  await user.click(screen.getByRole("button", { name: "Save" }));
  await waitFor(() => expect(updates(c)).toHaveLength(1));
  expect(updates(c)[0].assets).toEqual([{ id: "a1" }, { id: "a2" }, { id: "a3" }, { contentId: "ct-2" }]);
});

it("a post already on the card is marked attached, and the card rules refuse a repeat named by the old alias", async () => {
  // a2 is on the card as ct-1 (contentId); a4 points at ct-2 only through the deprecated assetId alias.
  const card = testCard();
  card.assets = [
    ...card.assets.slice(0, 1),
    asset("a2", { contentId: "ct-1", assetType: "inspiration", displayName: "Competitor reel" }),
    asset("a4", { assetId: "ct-2", assetType: "inspiration", displayName: "Old alias" }),
  ];
  core(card);
  open();
  const user = userEvent.setup();
  await user.click(await screen.findByRole("button", { name: "Add inspiration post…" }));
  const dialog = await screen.findByRole("dialog", { name: "Add an inspiration post" });
  const [first, second] = await within(dialog).findAllByTestId("inspiration-post");
  expect(within(first).queryByRole("button", { name: /Attach/ })).not.toBeInTheDocument();
  expect(first).toHaveTextContent("Attached");
  await user.click(within(second).getByRole("button", { name: /Attach/ }));
  expect(within(dialog).getByTestId("inspiration-problem")).toHaveTextContent("This repeats contentId `ct-2`");
  expect(screen.getAllByTestId("asset")).toHaveLength(3);
});

it("an inspiration list the key may not read shows the missing scope; Escape closes the picker, not the editor", async () => {
  const c = core();
  c.failWith.content_list = { code: "missingScope", scope: "brandkit:read", status: 403, message: "This API key lacks the brandkit:read scope." };
  open();
  const user = userEvent.setup();
  const opener = await screen.findByRole("button", { name: "Add inspiration post…" });
  await user.click(opener);
  const dialog = await screen.findByRole("dialog", { name: "Add an inspiration post" });
  expect(await within(dialog).findByTestId("inspiration-error")).toHaveTextContent("brandkit:read");
  await user.keyboard("{Escape}");
  expect(screen.queryByRole("dialog", { name: "Add an inspiration post" })).not.toBeInTheDocument();
  expect(screen.getByTestId("card-editor")).toBeInTheDocument();
  expect(opener).toHaveFocus();
});

// ---------- projects ----------

it("the project picker attaches an existing project by projectId and marks the one linked to this card", async () => {
  const c = core();
  open();
  const user = userEvent.setup();
  await user.click(await screen.findByRole("button", { name: "Add project…" }));
  const dialog = await screen.findByRole("dialog", { name: "Add a project" });
  const rows = await within(dialog).findAllByTestId("project");
  expect(rows.map((r) => r.textContent?.includes("linked to this card"))).toEqual([false, true]);
  expect(within(dialog).getByLabelText("Create a project linked to this card")).toHaveValue("Launch teaser");
  await user.click(within(rows[0]).getByRole("button", { name: "Attach Project pr-1" }));
  expect(screen.queryByRole("dialog", { name: "Add a project" })).not.toBeInTheDocument();
  expect(labels()[3]).toBe("Asset 4 of 4: Project pr-1 (project)");
  await user.click(screen.getByRole("button", { name: "Save" }));
  await waitFor(() => expect(updates(c)).toHaveLength(1));
  expect(updates(c)[0].assets?.[3]).toEqual({ projectId: "pr-1" });
});

it("creating a project links it to this card: the answer's linkedCardId is shown and the card's assets are read back", async () => {
  const c = core();
  const { onchanged } = open();
  const user = userEvent.setup();
  await user.click(await screen.findByRole("button", { name: "Add project…" }));
  const dialog = await screen.findByRole("dialog", { name: "Add a project" });
  const name = within(dialog).getByLabelText("Create a project linked to this card");
  await user.clear(name);
  await user.type(name, "Teaser cut");
  await user.click(within(dialog).getByRole("button", { name: "Create and link" }));
  expect(await within(dialog).findByTestId("project-created")).toHaveTextContent("“Teaser cut” was created and is linked to this card.");
  expect(c.called("project_create")[0].args).toEqual({ cardId: "c1", title: "Teaser cut" });
  const created = within(dialog).getAllByTestId("project")[0];
  expect(created).toHaveTextContent("Teaser cut");
  expect(created).toHaveTextContent("linked to this card");
  expect(created).toHaveTextContent("Attached");
  await waitFor(() => expect(labels()).toHaveLength(4));
  expect(labels()[3]).toBe("Asset 4 of 4: Teaser cut (project)");
  expect(c.called("card_get")).toHaveLength(2);
  expect(onchanged).toHaveBeenCalled();
  // Already on the card: nothing to save for it.
  await user.click(within(dialog).getByRole("button", { name: "Done" }));
  expect(screen.getByRole("button", { name: "Save" })).toBeDisabled();
});

it("a project name is required, and a refused create shows the service's error", async () => {
  const c = core();
  c.failWith.project_create = { code: "missingScope", scope: "editor:write", status: 403, message: "This API key lacks the editor:write scope." };
  open();
  const user = userEvent.setup();
  await user.click(await screen.findByRole("button", { name: "Add project…" }));
  const dialog = await screen.findByRole("dialog", { name: "Add a project" });
  const name = within(dialog).getByLabelText("Create a project linked to this card");
  await user.clear(name);
  await user.click(within(dialog).getByRole("button", { name: "Create and link" }));
  expect(within(dialog).getByRole("alert")).toHaveTextContent("Give the project a name.");
  expect(c.called("project_create")).toHaveLength(0);
  await user.type(name, "Cut");
  await user.click(within(dialog).getByRole("button", { name: "Create and link" }));
  expect(await within(dialog).findByTestId("project-create-error")).toHaveTextContent("editor:write");
  expect(screen.getAllByTestId("asset")).toHaveLength(3);
});

it("importing a PowerPoint file or a Canva design links the new project to this card; a bad source is refused first", async () => {
  const c = core();
  c.answers.project_import = (a) => {
    const create = c.answers.project_create as (x: unknown) => unknown;
    return create({ cardId: a?.cardId, name: a?.title ?? "Imported deck" });
  };
  open();
  const user = userEvent.setup();
  await user.click(await screen.findByRole("button", { name: "Add project…" }));
  const dialog = await screen.findByRole("dialog", { name: "Add a project" });
  const ref = within(dialog).getByLabelText("Or import one linked to this card");
  await user.type(ref, "not a url");
  await user.click(within(dialog).getByRole("button", { name: "Import and link" }));
  expect(within(dialog).getByRole("alert")).toHaveTextContent("http or https");
  expect(c.called("project_import")).toHaveLength(0);
  await user.clear(ref);
  await user.type(ref, "https://files.example/deck.pptx");
  await user.type(within(dialog).getByLabelText("Title of the imported project (optional)"), "Pitch deck");
  await user.click(within(dialog).getByRole("button", { name: "Import and link" }));
  expect(await within(dialog).findByTestId("project-created")).toHaveTextContent("is linked to this card");
  expect(c.called("project_import")[0].args).toEqual({ cardId: "c1", pptxUrl: "https://files.example/deck.pptx", title: "Pitch deck" });
  await user.selectOptions(within(dialog).getByLabelText("Import from"), "canva");
  await user.type(ref, "DAF123");
  await user.click(within(dialog).getByRole("button", { name: "Import and link" }));
  await waitFor(() => expect(c.called("project_import")).toHaveLength(2));
  expect(c.called("project_import")[1].args).toEqual({ cardId: "c1", canvaDesignId: "DAF123" });
});

// ---------- local files ----------

const PNG_BYTES = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 1, 2, 3]);
const PNG_BASE64 = btoa(String.fromCharCode(...PNG_BYTES));

it("a chosen file is read as base64, uploaded with 'Uploading…' shown, then added by outputId", async () => {
  const c = core();
  let release!: () => void;
  c.hold.media_upload = new Promise<void>((r) => (release = r));
  c.answers.media_upload = () => ({ outputId: "11111111-2222-3333-4444-555555555555", url: "https://cdn.test/up.png" });
  open();
  const user = userEvent.setup();
  await screen.findByLabelText("Title");
  await user.upload(screen.getByTestId("file-input"), new File([PNG_BYTES], "dot.png", { type: "image/png" }));
  expect(await screen.findByText("Uploading dot.png…")).toBeInTheDocument();
  expect(screen.getByRole("progressbar", { name: "Uploading dot.png" })).toBeInTheDocument();
  await waitFor(() => expect(c.called("media_upload")).toHaveLength(1));
  expect(c.called("media_upload")[0].args).toEqual({ name: "dot.png", contentType: "image/png", contentBase64: PNG_BASE64 });
  release();
  await waitFor(() => expect(labels()).toHaveLength(4));
  expect(screen.queryByText("Uploading dot.png…")).not.toBeInTheDocument();
  expect(labels()[3]).toBe("Asset 4 of 4: dot.png (output)");
  expect(screen.getAllByTestId("asset")[3].querySelector("img")).toHaveAttribute("src", "https://cdn.test/up.png");
  await user.click(screen.getByRole("button", { name: "Save" }));
  await waitFor(() => expect(updates(c)).toHaveLength(1));
  expect(updates(c)[0].assets?.[3]).toEqual({ outputId: "11111111-2222-3333-4444-555555555555", displayName: "dot.png" });
});

it("files dropped from the desktop onto the carousel are uploaded; a file of another kind is refused before sending", async () => {
  const c = core();
  let n = 0;
  c.answers.media_upload = (args) => ({ outputId: `up-${++n}`, url: `https://cdn.test/${String(args?.name)}` });
  open();
  await screen.findByLabelText("Title");
  const carousel = screen.getByTestId("carousel");
  const files = [
    new File(["hello"], "notes.txt", { type: "text/plain" }),
    new File([PNG_BYTES], "a.png", { type: "image/png" }),
    new File([new Uint8Array([1, 2])], "clip.mp4", { type: "video/mp4" }),
  ];
  await fireEvent.dragOver(carousel, { dataTransfer: { types: ["Files"], files, dropEffect: "none" } });
  expect(carousel).toHaveClass("file-over");
  await fireEvent.drop(carousel, { dataTransfer: { types: ["Files"], files } });
  await waitFor(() => expect(labels()).toHaveLength(5));
  expect(labels().slice(3)).toEqual(["Asset 4 of 5: a.png (output)", "Asset 5 of 5: clip.mp4 (output)"]);
  expect(c.called("media_upload").map((x) => x.args?.name)).toEqual(["a.png", "clip.mp4"]);
  expect(screen.getByTestId("upload-problem")).toHaveTextContent("notes.txt: only images, videos and audio can be uploaded (this is text/plain).");
  await userEvent.click(screen.getByRole("button", { name: "Dismiss the message about notes.txt" }));
  expect(screen.queryByTestId("upload")).not.toBeInTheDocument();
  expect(carousel).not.toHaveClass("file-over");
});

it("an upload the core refuses shows its error and adds nothing", async () => {
  const c = core();
  c.failWith.media_upload = { code: "missingScope", scope: "assets:write", status: 403, message: "This API key lacks the assets:write scope." };
  open();
  const user = userEvent.setup();
  await screen.findByLabelText("Title");
  await user.upload(screen.getByTestId("file-input"), new File([PNG_BYTES], "dot.png", { type: "image/png" }));
  expect(await screen.findByTestId("upload-error")).toHaveTextContent("assets:write");
  expect(screen.getAllByTestId("asset")).toHaveLength(3);
});

// ---------- publish ----------

const RESULT: PublishResult = {
  cardId: "c1", publishedCount: 1, failedCount: 1,
  results: [
    { platform: "instagram", success: true, postId: "p1", url: "https://instagram.example/posts/p1", error: null },
    { platform: "tiktok", success: false, postId: "p2", url: null, error: "The tiktok post has no connected account; set connectedAccountId on the post" },
  ],
};

function publishCard(): CardDetail {
  const card = testCard();
  card.posts = [...card.posts, post("p2", "tiktok")];
  return card;
}

it("Publish now asks first, then shows each platform's result: success with its URL, or its error", async () => {
  const c = core(publishCard());
  c.answers.card_publish = () => RESULT;
  const { onchanged } = open();
  const user = userEvent.setup();
  const section = await screen.findByTestId("publish-now");
  expect(section).toHaveTextContent("instagram, tiktok");
  await user.click(within(section).getByRole("button", { name: "Publish now…" }));
  const confirm = screen.getByRole("alertdialog", { name: "Publish this card now?" });
  expect(c.called("card_publish")).toHaveLength(0);
  await user.click(within(confirm).getByRole("button", { name: "Publish now" }));
  await waitFor(() => expect(within(section).getAllByTestId("publish-result")).toHaveLength(2));
  expect(c.called("card_publish")[0].args).toEqual({ cardId: "c1" });
  const [ig, tt] = within(section).getAllByTestId("publish-result");
  expect(ig).toHaveTextContent("Published");
  expect(within(ig).getByRole("link")).toHaveAttribute("href", "https://instagram.example/posts/p1");
  expect(tt).toHaveAttribute("data-success", "false");
  expect(tt).toHaveTextContent("Failed: The tiktok post has no connected account");
  expect(within(section).getByRole("status")).toHaveTextContent("1 published, 1 failed.");
  await waitFor(() => expect(onchanged).toHaveBeenCalled());
});

it("cancelling the confirmation publishes nothing", async () => {
  const c = core(publishCard());
  c.answers.card_publish = () => RESULT;
  open();
  const user = userEvent.setup();
  await user.click(await screen.findByRole("button", { name: "Publish now…" }));
  await user.click(within(screen.getByRole("alertdialog")).getByRole("button", { name: "Cancel" }));
  expect(screen.queryByRole("alertdialog")).not.toBeInTheDocument();
  expect(c.called("card_publish")).toHaveLength(0);
});

it("a key without publish:write is told the scope to grant", async () => {
  const c = core(publishCard());
  c.failWith.card_publish = { code: "missingScope", scope: "publish:write", status: 403, message: "This API key lacks the publish:write scope; grant it on the service's API-keys page." };
  open();
  const user = userEvent.setup();
  await user.click(await screen.findByRole("button", { name: "Publish now…" }));
  await user.click(within(screen.getByRole("alertdialog")).getByRole("button", { name: "Publish now" }));
  const error = await screen.findByTestId("publish-error");
  expect(error).toHaveAttribute("data-code", "missingScope");
  expect(error).toHaveTextContent("publish:write");
  expect(screen.getByTestId("publish-scope")).toHaveTextContent("it needs the publish:write scope");
  expect(screen.queryByTestId("publish-result")).not.toBeInTheDocument();
});

it("a card without posts cannot be published yet", async () => {
  core(testCard({ posts: [] }));
  open();
  const section = await screen.findByTestId("publish-now");
  expect(within(section).getByRole("button", { name: "Publish now…" })).toBeDisabled();
  expect(section).toHaveTextContent("Add a post for a platform (and save) to publish this card.");
});

it("an attached inspiration post read back shows its creator, outlier score and views in the carousel", async () => {
  const card = testCard();
  card.assets = [asset("a9", {
    contentId: "ct-1", assetType: "inspiration",
    inspiration: { platform: "tiktok", contentType: "video", creator: "Maya Chen", handle: "mayamakes", publishedAt: null, viewCount: 1_250_000,
      likeCount: null, commentCount: null, outlierScore: 7.4, engagementRate: null, thumbnailUrl: "https://cdn.test/ct-1.jpg" },
  })];
  core(card);
  open();
  const [a] = await screen.findAllByTestId("asset");
  expect(a).toHaveAttribute("aria-label", "Asset 1 of 1: Post by Maya Chen (inspiration)");
  expect(within(a).getByTestId("asset-figures")).toHaveTextContent("7.4× outlier · 1.3M views");
  expect(a.querySelector("img")).toHaveAttribute("src", "https://cdn.test/ct-1.jpg");
});
