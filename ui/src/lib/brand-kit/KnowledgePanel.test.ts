import { afterEach, expect, it } from "vitest";
import { fireEvent, render, screen, waitFor, within } from "@testing-library/svelte";
import userEvent from "@testing-library/user-event";
import { clearMocks } from "@tauri-apps/api/mocks";
import type { KnowledgeItem } from "../bindings";
import KnowledgePanel from "./KnowledgePanel.svelte";
import { KIT, kitCore, type KitCore } from "./testKit";

afterEach(() => clearMocks());

const item = (i: number): KnowledgeItem => ({
  id: `kn-${i}`, title: `Note ${i}`, sourceType: "text", sourceUrl: null, fileExt: null, sizeBytes: null, createdAt: null, updatedAt: null, tags: [],
});

async function open(core: KitCore = kitCore()) {
  const user = userEvent.setup();
  render(KnowledgePanel, { kitId: KIT });
  await waitFor(() => expect(core.called("knowledge_list").length).toBeGreaterThan(0));
  await waitFor(() => expect(screen.getByTestId("kb-items")).not.toHaveAttribute("aria-busy", "true"));
  return { core, user };
}

const adds = (core: KitCore) => core.called("knowledge_add").map((c) => c.args);

it("lists the knowledge a page at a time", async () => {
  const { core, user } = await open(kitCore({ knowledge: Array.from({ length: 13 }, (_, i) => item(i + 1)) }));
  expect(core.called("knowledge_list")[0].args).toEqual({ brandKitId: KIT, limit: 10, offset: 0 });
  const list = screen.getByTestId("kb-items");
  expect(within(list).getAllByRole("listitem")).toHaveLength(10);
  expect(screen.getByText("1–10 of 13")).toBeInTheDocument();
  await user.click(screen.getByRole("button", { name: "Next" }));
  await waitFor(() => expect(within(list).getAllByRole("listitem")).toHaveLength(3));
  expect(core.called("knowledge_list").at(-1)?.args).toEqual({ brandKitId: KIT, limit: 10, offset: 10 });
  expect(screen.getByRole("button", { name: "Next" })).toBeDisabled();
});

it("search shows the matches with their similarity", async () => {
  const { core, user } = await open();
  await user.type(screen.getByLabelText("Search the knowledge base"), "packaging{Enter}");
  const matches = await screen.findByTestId("kb-matches");
  expect(core.called("knowledge_search")[0].args).toEqual({ brandKitId: KIT, query: "packaging" });
  expect(matches).toHaveTextContent("1 match");
  expect(matches).toHaveTextContent("Packaging notes");
  expect(matches).toHaveTextContent("87%");
  await user.click(within(matches).getByRole("button", { name: "Clear search" }));
  expect(screen.queryByTestId("kb-matches")).toBeNull();
});

it("adds text, a web page and a hosted file", async () => {
  const { core, user } = await open();
  await user.click(screen.getByLabelText("Text"));
  await user.type(screen.getByRole("textbox", { name: "Text" }), "We ship in kraft boxes.");
  await user.type(screen.getByLabelText(/^Title/), "Shipping");
  await user.click(screen.getByRole("button", { name: "Add to knowledge" }));
  await screen.findByText("Added “Shipping”.");
  expect(adds(core)[0]).toEqual({ brandKitId: KIT, text: "We ship in kraft boxes.", title: "Shipping" });
  await waitFor(() => expect(within(screen.getByTestId("kb-items")).getByText("Shipping")).toBeInTheDocument());

  await user.click(screen.getByLabelText("Web page"));
  await user.type(screen.getByLabelText("Web page URL"), "not a url");
  await user.click(screen.getByRole("button", { name: "Add to knowledge" }));
  expect(screen.getByTestId("kb-field-error")).toHaveTextContent("http:// or https://");
  expect(adds(core)).toHaveLength(1);
  await user.clear(screen.getByLabelText("Web page URL"));
  await user.type(screen.getByLabelText("Web page URL"), "https://clay.example/about");
  await user.click(screen.getByRole("button", { name: "Add to knowledge" }));
  await waitFor(() => expect(adds(core)).toHaveLength(2));
  expect(adds(core)[1]).toMatchObject({ brandKitId: KIT, url: "https://clay.example/about" });

  await user.click(screen.getByLabelText("Hosted file"));
  await user.type(screen.getByLabelText("Hosted file URL"), "https://cdn.example/talk.mp4");
  await user.click(screen.getByRole("button", { name: "Add to knowledge" }));
  await waitFor(() => expect(adds(core)).toHaveLength(3));
  expect(adds(core)[2]).toMatchObject({ brandKitId: KIT, fileUrl: "https://cdn.example/talk.mp4" });
});

it("a small file is read here and sent as base64, with progress while it uploads", async () => {
  const core = kitCore();
  let release!: () => void;
  core.hold.knowledge_add = new Promise<void>((r) => (release = r));
  const { user } = await open(core);
  const file = new File(["# Returns\nThirty days."], "returns.md", { type: "text/markdown" });
  await user.upload(screen.getByLabelText("Choose a file, or drop one here"), file);
  expect(screen.getByText(/returns\.md · \d+ B/)).toBeInTheDocument();
  await user.click(screen.getByRole("button", { name: "Add to knowledge" }));
  const progress = await screen.findByTestId("kb-progress");
  await waitFor(() => expect(progress).toHaveTextContent("Uploading…"));
  expect(screen.getByRole("button", { name: "Adding…" })).toBeDisabled();
  release();
  await screen.findByText("Added “returns.md”.");
  expect(screen.queryByTestId("kb-progress")).toBeNull();
  expect(adds(core)).toEqual([{
    brandKitId: KIT, fileName: "returns.md", title: "returns.md", mimeType: "text/markdown", fileExt: "md",
    fileData: btoa("# Returns\nThirty days."),
  }]);
});

it("a file too big, or video, dropped from the desktop: told to use a hosted URL, nothing sent", async () => {
  const { core, user } = await open();
  const big = new File(["x"], "catalogue.pdf", { type: "application/pdf" });
  Object.defineProperty(big, "size", { value: 6 * 1024 * 1024 });
  await fireEvent.drop(screen.getByTestId("kb-drop"), { dataTransfer: { files: [big] } });
  const note = await screen.findByTestId("kb-needs-url");
  expect(note).toHaveTextContent("“catalogue.pdf” is 6.0 MB; files sent from this computer can be at most 4.0 MB");
  expect(note).toHaveTextContent("hosted URL");
  expect(screen.getByRole("button", { name: "Add to knowledge" })).toBeDisabled();

  const video = new File(["v"], "launch.mp4", { type: "video/mp4" });
  await user.upload(screen.getByLabelText("Choose a file, or drop one here"), video);
  expect(screen.getByTestId("kb-needs-url")).toHaveTextContent("is video: video and audio are not sent from this computer");
  await user.click(within(screen.getByTestId("kb-needs-url")).getByRole("button", { name: "Use a hosted URL" }));
  expect(screen.getByLabelText("Hosted file URL")).toBeInTheDocument();
  expect(adds(core)).toEqual([]);
});

it("at the plan's cap: nothing is added and the panel says so and what to do", async () => {
  const { core, user } = await open(kitCore({ cap: 2 }));
  await user.click(screen.getByLabelText("Text"));
  await user.type(screen.getByRole("textbox", { name: "Text" }), "One more note");
  await user.click(screen.getByRole("button", { name: "Add to knowledge" }));
  const cap = await screen.findByTestId("kb-cap");
  expect(cap).toHaveTextContent("This kit is at its plan's cap.");
  expect(cap).toHaveTextContent("(2 of 2 items): nothing was added");
  expect(cap).toHaveTextContent("remove an item you no longer need from the list above, or upgrade the plan");
  expect(core.kit.knowledge).toHaveLength(2);
  // The text is still there to add after making room.
  expect(screen.getByRole("textbox", { name: "Text" })).toHaveValue("One more note");
});

it("remove asks first, then removes", async () => {
  const { core, user } = await open();
  await user.click(screen.getByRole("button", { name: "Remove “Price list”" }));
  const dialog = screen.getByRole("alertdialog");
  expect(dialog).toHaveTextContent("Remove “Price list”?");
  await user.click(within(dialog).getByRole("button", { name: "Cancel" }));
  expect(core.called("knowledge_remove")).toHaveLength(0);
  await user.click(screen.getByRole("button", { name: "Remove “Price list”" }));
  await user.click(within(screen.getByRole("alertdialog")).getByRole("button", { name: "Remove" }));
  await waitFor(() => expect(within(screen.getByTestId("kb-items")).queryByText("Price list")).toBeNull());
  expect(core.called("knowledge_remove").map((c) => c.args)).toEqual([{ brandKitId: KIT, knowledgeId: "kn-2" }]);
  expect(screen.getByText("Removed “Price list”.")).toBeInTheDocument();
});
