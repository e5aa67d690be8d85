// The Studio, second half: the gallery, the library, full size, tokens, attach to a card, speech, errors
// and the kept form (the form, the price and the queue are in Studio.test.ts).
import { expect, it, vi } from "vitest";
import { cleanup, render, screen, waitFor, within } from "@testing-library/svelte";
import userEvent from "@testing-library/user-event";
import Studio from "./Studio.svelte";
import { session } from "../account/session.svelte";
import { UUID_A, UUID_B, UUID_C, job, media, mediaId, send, studioCore } from "./testStudio";
import { open, price, quotes, resetAfterEach, sleep } from "./studioPage";

resetAfterEach();

it("the gallery shows images, plays video and audio, and keeps cleared renders", async () => {
  const core = studioCore({ jobs: [
    job({ outputId: UUID_A, outputUrls: ["http://127.0.0.1:9/files/a-1.png", "http://127.0.0.1:9/files/a-2.png"], cleared: true }),
    job({ outputId: UUID_B, contentType: "video", form: { media: "video", modelId: "veo-3.1-fast", prompt: "waves" }, outputUrls: ["http://127.0.0.1:9/files/b-1.mp4"] }),
    job({ outputId: UUID_C, contentType: "audio", form: { media: "audio", modelId: "elevenlabs-tts", text: "Hello there" }, outputUrls: ["http://127.0.0.1:9/files/c-1.wav"] }),
  ] });
  await open(core);
  await waitFor(() => expect(screen.getAllByTestId("gallery-item")).toHaveLength(4));
  const tiles = screen.getAllByTestId("gallery-item");
  expect(tiles.map((t) => t.getAttribute("data-token"))).toEqual([`${UUID_A}-1`, `${UUID_A}-2`, `${UUID_B}-1`, `${UUID_C}-1`]);
  expect(within(tiles[1]).getByRole("img", { name: "a red fox (2 of 2)" })).toHaveAttribute("src", "http://127.0.0.1:9/files/a-2.png");
  expect(tiles[2].querySelector("video[controls]")).toHaveAttribute("src", "http://127.0.0.1:9/files/b-1.mp4");
  expect(tiles[3].querySelector("audio[controls]")).toHaveAttribute("src", "http://127.0.0.1:9/files/c-1.wav");
  expect(tiles[3]).toHaveTextContent("Hello there");
  // Named by prompt and time; the token waits behind "Details" (closed).
  expect(within(tiles[0]).getByText("a red fox (1 of 2)", { selector: ".label" })).toBeInTheDocument();
  expect(tiles[0].querySelector(".when time")).toHaveAttribute("datetime");
  const details = tiles[0].querySelector("details")!;
  expect(details.open).toBe(false);
  expect(details).toHaveTextContent(`Token ${UUID_A}-1`);
  expect([...tiles[0].children].filter((c) => c !== details).map((c) => c.textContent).join(" ")).not.toContain(UUID_A);
  // Only images can start a video.
  expect(within(tiles[0]).getByRole("button", { name: "Use as start frame" })).toBeInTheDocument();
  expect(within(tiles[2]).queryByRole("button", { name: "Use as start frame" })).toBeNull();
  // A cleared render is off the queue.
  expect(screen.queryAllByTestId("job").map((j) => j.getAttribute("data-output-id"))).not.toContain(UUID_A);
  // A broken preview becomes a placeholder.
  tiles[0].querySelector("img")!.dispatchEvent(new Event("error"));
  await waitFor(() => expect(within(tiles[0]).getByTestId("preview-missing")).toHaveTextContent("Preview unavailable"));
});

it("an image opens full size; Escape closes it and focus returns", async () => {
  const { user } = await open(studioCore({ jobs: [job({ outputId: UUID_A })] }));
  const thumb = await screen.findByRole("button", { name: "View a red fox full size" });
  await user.click(thumb);
  const viewer = screen.getByRole("dialog", { name: "a red fox" });
  expect(within(viewer).getByRole("img")).toHaveAttribute("src", `http://127.0.0.1:9/files/${UUID_A}-1.png`);
  await user.keyboard("{Escape}");
  expect(screen.queryByRole("dialog")).toBeNull();
  expect(thumb).toHaveFocus();
});

it("Copy token (under Details) copies and says so; without a clipboard the token is shown selected", async () => {
  const { user } = await open(studioCore({ jobs: [job({ outputId: UUID_A })] }));
  const tile = await screen.findByTestId("gallery-item");
  await user.click(within(tile).getByText("Details"));
  expect(tile.querySelector("details")!.open).toBe(true);
  await user.click(within(tile).getByRole("button", { name: "Copy token" }));
  expect(await within(tile).findByText("Copied the token.")).toBeInTheDocument();
  expect(within(tile).getByRole("button", { name: "Copied" })).toBeInTheDocument();
  expect(await navigator.clipboard.readText()).toBe(`${UUID_A}-1`);

  vi.spyOn(navigator.clipboard, "writeText").mockRejectedValue(new Error("denied"));
  await user.click(within(tile).getByRole("button", { name: "Copied" }));
  const field = await within(tile).findByLabelText(/copy the token with Ctrl\+C/);
  expect(field).toHaveValue(`${UUID_A}-1`);
  expect(field).toHaveFocus();
});

it("'Use as start frame' switches the form to Video, keeps the prompt and sets the start frame", async () => {
  const { core, user } = await open(studioCore({ jobs: [job({ outputId: UUID_A })] }));
  await user.type(screen.getByLabelText(/^Prompt/), "the fox starts to run");
  await user.click(await screen.findByRole("button", { name: "Use as start frame" }));
  expect(screen.getByRole("radio", { name: "Video" })).toBeChecked();
  expect(screen.getByTestId("gallery-notice")).toHaveTextContent("video starting from this image");
  await waitFor(() => expect(screen.getByLabelText("Model")).toHaveValue("veo-3.1-fast"));
  expect(screen.getByLabelText(/^Prompt/)).toHaveValue("the fox starts to run");
  expect(screen.getByRole("list", { name: "Start frame" })).toHaveTextContent(`${UUID_A}-1`);
  await waitFor(() => expect(quotes(core).at(-1)).toEqual({
    media: "video", modelId: "veo-3.1-fast", prompt: "the fox starts to run", references: { startFrame: `${UUID_A}-1` },
  }));
  await waitFor(() => expect(price()).toHaveTextContent("25 credits"));
});

it("'Use as reference' adds the token to the form's reference images", async () => {
  const { user } = await open(studioCore({ jobs: [job({ outputId: UUID_A })] }));
  await user.click(await screen.findByRole("button", { name: "Use as reference" }));
  expect(screen.getByTestId("gallery-notice")).toHaveTextContent("Added as reference image 1 of 3.");
  expect(screen.getByRole("list", { name: /^Reference images/ })).toHaveTextContent(`${UUID_A}-1`);
});

it("'Attach to card…' picks a space and a card by search, and attaches the output by its token", async () => {
  const { core, user } = await open(studioCore({ jobs: [job({ outputId: UUID_A })] }));
  await user.click(await screen.findByRole("button", { name: "Attach to card…" }));
  const dialog = screen.getByRole("dialog", { name: "Attach to a card" });
  await within(dialog).findByRole("button", { name: /Hook ideas/ });
  expect(within(dialog).getByLabelText("Search cards")).toHaveFocus();
  await user.type(within(dialog).getByLabelText("Search cards"), "behind");
  expect(within(dialog).queryByRole("button", { name: /Hook ideas/ })).toBeNull();
  await user.click(within(dialog).getByRole("button", { name: /Behind the scenes/ }));
  await waitFor(() => expect(core.called("card_attach_output")).toHaveLength(1));
  expect(core.called("card_attach_output")[0].args).toEqual({ cardId: "c2", token: `${UUID_A}-1` });
  await waitFor(() => expect(screen.queryByRole("dialog")).toBeNull());
  expect(screen.getByTestId("gallery-notice")).toHaveTextContent("Attached to “Behind the scenes”.");
  // An image is offered as the card's cover: set by its output token (the tile shows the card's cover).
  expect(core.called("card_update")).toHaveLength(0);
  await user.click(screen.getByRole("button", { name: "Make it the cover of “Behind the scenes”" }));
  await waitFor(() => expect(core.called("card_update").map((c) => c.args)).toEqual([{ cardId: "c2", update: { coverOutputId: `${UUID_A}-1` } }]));
  expect(screen.getByTestId("gallery-notice")).toHaveTextContent("“Behind the scenes” now shows it as its cover.");
  expect(screen.queryByTestId("cover-offer")).toBeNull();

  // Another space's cards.
  await user.click(screen.getByRole("button", { name: "Attach to card…" }));
  const again = screen.getByRole("dialog", { name: "Attach to a card" });
  await within(again).findByRole("button", { name: /Hook ideas/ });
  await user.selectOptions(within(again).getByLabelText("Space"), "s2");
  await user.click(await within(again).findByRole("button", { name: /Launch teaser/ }));
  await waitFor(() => expect(core.called("card_attach_output")).toHaveLength(2));
  expect(core.called("card_attach_output")[1].args).toEqual({ cardId: "c3", token: `${UUID_A}-1` });
});

it("a failed attach is shown in the picker, which stays open", async () => {
  const { core, user } = await open(studioCore({ jobs: [job({ outputId: UUID_A })] }));
  core.failWith.card_attach_output = { code: "validation", message: "A card holds at most 10 assets.", field: "assets" };
  await user.click(await screen.findByRole("button", { name: "Attach to card…" }));
  const dialog = screen.getByRole("dialog", { name: "Attach to a card" });
  await user.click(await within(dialog).findByRole("button", { name: /Hook ideas/ }));
  expect(await within(dialog).findByTestId("card-attach-error")).toHaveTextContent("at most 10 assets");
  expect(screen.getByRole("dialog", { name: "Attach to a card" })).toBeInTheDocument();
});

it("speech: a voice and words are needed; the form carries them", async () => {
  const { core, user } = await open();
  await user.click(screen.getByRole("radio", { name: "Audio" }));
  await waitFor(() => expect(screen.getByLabelText("Voice")).toHaveValue("v-rachel"));
  expect(screen.getByTestId("studio-form-problem")).toHaveTextContent("Write the words to speak.");
  await user.type(screen.getByLabelText("Text to speak"), "Hello there");
  await user.selectOptions(screen.getByLabelText("Voice"), "v-adam");
  await waitFor(() => expect(quotes(core).at(-1)).toEqual({ media: "audio", modelId: "elevenlabs-tts", text: "Hello there", voiceId: "v-adam" }));
});

it("a model list that fails to load says why and can be asked again", async () => {
  const core = studioCore();
  core.failWith.models_list = { code: "network", message: "The service could not be reached." };
  render(Studio);
  expect(await screen.findByTestId("studio-models-error")).toHaveTextContent("could not be reached");
  delete core.failWith.models_list;
  await userEvent.click(screen.getByRole("button", { name: "Try again" }));
  expect(await screen.findByRole("option", { name: /Nano Banana 2/ })).toBeInTheDocument();
  expect(core.called("models_list").at(-1)?.args).toEqual({ contentType: "image", refresh: true });
});

it("the form is kept when the user leaves the Studio and comes back, not across a profile change", async () => {
  const { user } = await open();
  await user.click(screen.getByRole("radio", { name: "Video" }));
  await user.type(screen.getByLabelText(/^Prompt/), "waves at dusk");
  // The page is left (unmounted) and shown again.
  cleanup();
  render(Studio);
  await waitFor(() => expect(screen.getByLabelText(/^Prompt/)).toHaveValue("waves at dusk"));
  expect(screen.getByRole("radio", { name: "Video" })).toBeChecked();
  session.epoch++;
  cleanup();
  render(Studio);
  await waitFor(() => expect(screen.getByLabelText(/^Prompt/)).toHaveValue(""));
});

// ---------------------------------------------------------------------------------------------------
// The account's library in the gallery (media_library)
// ---------------------------------------------------------------------------------------------------

const gallery = () => within(screen.getByTestId("studio-gallery"));
const tileTokens = () => screen.queryAllByTestId("gallery-item").map((t) => t.getAttribute("data-token"));

it("the gallery shows this app's renders first, then the library's outputs not shown already", async () => {
  const core = studioCore({
    jobs: [job({ outputId: UUID_A })],
    library: [
      // The same render as the local job: shown once, as the local tile.
      media({ id: UUID_A, prompt: "a red fox" }),
      media({ id: mediaId(1), prompt: "made on the web", generationSize: 2 }),
      media({ id: mediaId(1), prompt: "made on the web", generationSize: 2, variant: 1 }),
      media({ id: mediaId(2), type: "video", model: "veo-3.1-fast", prompt: null, url: "http://127.0.0.1:9/files/v-1.mp4" }),
      media({ id: mediaId(3), kind: "board", boardType: "character", prompt: null }),
      // Not finished: no tile.
      media({ id: mediaId(4), status: "processing", url: null }),
    ],
  });
  await open(core);
  await waitFor(() => expect(tileTokens()).toHaveLength(5));
  expect(core.called("media_library")[0].args).toEqual({ limit: 24 });
  expect(tileTokens()).toEqual([`${UUID_A}-1`, `${mediaId(1)}-1`, `${mediaId(1)}-2`, `${mediaId(2)}-1`, `${mediaId(3)}-1`]);
  const tiles = screen.getAllByTestId("gallery-item");
  expect(tiles.map((t) => t.getAttribute("data-from"))).toEqual(["local", "library", "library", "library", "library"]);
  expect(within(tiles[2]).getByRole("img", { name: "made on the web (2 of 2)" })).toHaveAttribute("src", `http://127.0.0.1:9/files/${mediaId(1)}-2.png`);
  expect(tiles[3]).toHaveAttribute("data-kind", "video");
  expect(tiles[3]).toHaveTextContent("Video with veo-3.1-fast");
  expect(tiles[3].querySelector("video[controls]")).toHaveAttribute("src", "http://127.0.0.1:9/files/v-1.mp4");
  expect(tiles[4]).toHaveTextContent("character board");
  expect(gallery().getByText("5 outputs")).toBeInTheDocument();
  // Everything fits in one page: nothing more to load.
  expect(screen.queryByTestId("gallery-more")).toBeNull();
});

it("'Load more' pages the library by offset until it is all shown", async () => {
  const library = Array.from({ length: 30 }, (_, i) => media({ id: mediaId(i + 1), prompt: `render ${i + 1}` }));
  const core = studioCore({ library });
  const { user } = await open(core);
  await waitFor(() => expect(tileTokens()).toHaveLength(24));
  expect(tileTokens()[0]).toBe(`${mediaId(1)}-1`);
  // A failed page says why; "Try again" asks for that page again.
  core.failWith.media_library = { code: "network", message: "The service could not be reached." };
  await user.click(screen.getByRole("button", { name: "Load more" }));
  expect(await gallery().findByTestId("gallery-library-error")).toHaveTextContent("could not be reached");
  expect(tileTokens()).toHaveLength(24);
  delete core.failWith.media_library;
  await user.click(gallery().getByRole("button", { name: "Try again" }));
  await waitFor(() => expect(tileTokens()).toHaveLength(30));
  expect(core.called("media_library").map((c) => c.args)).toEqual([{ limit: 24 }, { limit: 24, offset: 24 }, { limit: 24, offset: 24 }]);
  expect(tileTokens().at(-1)).toBe(`${mediaId(30)}-1`);
  expect(screen.queryByTestId("gallery-library-error")).toBeNull();
  expect(screen.queryByRole("button", { name: "Load more" })).toBeNull();
});

it("a library that cannot be read says why with a retry, and this app's renders stay shown", async () => {
  const core = studioCore({ jobs: [job({ outputId: UUID_A })], library: [media({ id: mediaId(1) })] });
  core.failWith.media_library = { code: "network", message: "The service could not be reached." };
  const { user } = await open(core);
  const note = await gallery().findByTestId("gallery-library-error");
  expect(note).toHaveTextContent("could not be reached");
  expect(gallery().getByText(/could not be loaded; this app's renders are shown/)).toBeInTheDocument();
  expect(tileTokens()).toEqual([`${UUID_A}-1`]);
  // The queue is not affected.
  expect(screen.queryByTestId("studio-queue-error")).toBeNull();
  delete core.failWith.media_library;
  await user.click(gallery().getByRole("button", { name: "Try again" }));
  await waitFor(() => expect(tileTokens()).toEqual([`${UUID_A}-1`, `${mediaId(1)}-1`]));
  expect(screen.queryByTestId("gallery-library-error")).toBeNull();
});

it("a library tile takes the same actions: full size, copy token, reference, start frame, attach to a card", async () => {
  const token = `${mediaId(7)}-1`;
  const core = studioCore({ library: [media({ id: mediaId(7), prompt: "a lighthouse at dawn" })] });
  const { user } = await open(core);
  const tile = await screen.findByTestId("gallery-item");
  expect(tile).toHaveAttribute("data-from", "library");

  await user.click(within(tile).getByRole("button", { name: "View a lighthouse at dawn full size" }));
  const viewer = screen.getByRole("dialog", { name: "a lighthouse at dawn" });
  expect(within(viewer).getByRole("img")).toHaveAttribute("src", `http://127.0.0.1:9/files/${mediaId(7)}-1.png`);
  expect(viewer).toHaveTextContent(token);
  await user.keyboard("{Escape}");

  await user.click(within(tile).getByText("Details"));
  await user.click(within(tile).getByRole("button", { name: "Copy token" }));
  expect(await navigator.clipboard.readText()).toBe(token);

  await user.click(within(tile).getByRole("button", { name: "Use as reference" }));
  expect(screen.getByRole("list", { name: /^Reference images/ })).toHaveTextContent(token);

  await user.click(within(tile).getByRole("button", { name: "Attach to card…" }));
  const dialog = screen.getByRole("dialog", { name: "Attach to a card" });
  await user.click(await within(dialog).findByRole("button", { name: /Hook ideas/ }));
  await waitFor(() => expect(core.called("card_attach_output")).toHaveLength(1));
  expect(core.called("card_attach_output")[0].args).toEqual({ cardId: "c1", token });

  await user.click(within(tile).getByRole("button", { name: "Use as start frame" }));
  expect(screen.getByRole("radio", { name: "Video" })).toBeChecked();
  expect(screen.getByRole("list", { name: "Start frame" })).toHaveTextContent(token);
});

it("a render that finishes reads the library again: what is new joins at the top, nothing twice", async () => {
  const core = studioCore({ library: [media({ id: mediaId(1), prompt: "older" })] });
  await open(core);
  await waitFor(() => expect(tileTokens()).toEqual([`${mediaId(1)}-1`]));
  const now = Date.now();
  const done = job({ outputId: UUID_A, createdAt: now, updatedAt: now, completedAt: now });
  // Meanwhile the library has this render and one made elsewhere.
  core.library = [media({ id: UUID_A, prompt: "a red fox" }), media({ id: mediaId(2), prompt: "made elsewhere" }), ...core.library];
  await send({ type: "job", job: { ...done, status: "processing", outputUrls: [], completedAt: null } });
  await waitFor(() => expect(screen.getAllByTestId("job")).toHaveLength(1));
  expect(core.called("media_library")).toHaveLength(1);
  await send({ type: "job", job: done });
  await waitFor(() => expect(tileTokens()).toEqual([`${UUID_A}-1`, `${mediaId(2)}-1`, `${mediaId(1)}-1`]));
  expect(core.called("media_library")).toHaveLength(2);
  expect(screen.getAllByTestId("gallery-item")[0]).toHaveAttribute("data-from", "local");
  // The same completion again (the command's answer after the event) reads nothing more.
  await send({ type: "job", job: { ...done, updatedAt: now + 1 } });
  await sleep(30);
  expect(core.called("media_library")).toHaveLength(2);
});

it("another profile reads its own library", async () => {
  const core = studioCore({ library: [media({ id: mediaId(1) })] });
  await open(core);
  await waitFor(() => expect(tileTokens()).toEqual([`${mediaId(1)}-1`]));
  core.library = [media({ id: mediaId(9) })];
  session.epoch++;
  await waitFor(() => expect(tileTokens()).toEqual([`${mediaId(9)}-1`]));
  expect(core.called("media_library")).toHaveLength(2);
});
