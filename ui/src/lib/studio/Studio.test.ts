import { afterEach, expect, it, vi } from "vitest";
import { cleanup, render, screen, waitFor, within } from "@testing-library/svelte";
import userEvent from "@testing-library/user-event";
import { clearMocks } from "@tauri-apps/api/mocks";
import Studio from "./Studio.svelte";
import { forgetKeptDraft } from "./draft.svelte";
import type { ModelInfo, StudioForm } from "../bindings";
import { session } from "../account/session.svelte";
import { UUID_A, UUID_B, UUID_C, job, media, mediaId, send, studioCore, type StudioCore } from "./testStudio";

afterEach(() => {
  clearMocks();
  vi.restoreAllMocks();
  forgetKeptDraft();
});

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const price = () => screen.getByTestId("studio-price");
const quotes = (core: StudioCore) => core.called("studio_quote").map((c) => c.args?.form as StudioForm);
const generateButton = () => screen.getByRole("button", { name: /^(Generate|Starting…)$/ });

async function open(core = studioCore()) {
  const user = userEvent.setup();
  render(Studio);
  await screen.findByRole("option", { name: /Nano Banana 2/ });
  return { core, user };
}

/** Types a prompt and waits until its price shows. */
async function priced(user: ReturnType<typeof userEvent.setup>, prompt = "a red fox", text = /4 credits · balance after 116/) {
  await user.type(screen.getByLabelText(/^Prompt/), prompt);
  await waitFor(() => expect(price()).toHaveTextContent(text));
}

it("the model's capabilities decide which fields show, per media type", async () => {
  const { core, user } = await open();
  expect(core.called("models_list")[0].args).toEqual({ contentType: "image" });
  const modelSelect = screen.getByLabelText("Model");
  // Image generators only (no upscaler), the registry's default chosen.
  expect(within(modelSelect).getAllByRole("option").map((o) => o.textContent)).toEqual(["Nano Banana 2 (default)", "FLUX.2 Pro"]);
  expect(modelSelect).toHaveValue("nano-banana-2");
  expect(screen.getByLabelText("Aspect ratio")).toBeInTheDocument();
  expect(screen.getByLabelText("Resolution")).toBeInTheDocument();
  expect(within(screen.getByLabelText("Outputs")).getAllByRole("option").map((o) => o.textContent)).toEqual(["1", "2", "3", "4"]);
  expect(screen.getByLabelText(/^Reference images/)).toBeInTheDocument();
  expect(screen.queryByLabelText("Start frame")).toBeNull();
  expect(screen.queryByLabelText(/^Negative prompt/)).toBeNull();
  expect(screen.queryByLabelText(/^Length/)).toBeNull();

  await user.selectOptions(modelSelect, "flux-2-pro");
  expect(screen.queryByLabelText("Resolution")).toBeNull();
  expect(screen.queryByLabelText("Outputs")).toBeNull();
  expect(screen.queryByLabelText(/^Reference images/)).toBeNull();

  await user.click(screen.getByRole("radio", { name: "Video" }));
  await waitFor(() => expect(screen.getByLabelText("Model")).toHaveValue("veo-3.1-fast"));
  expect(screen.getByLabelText(/^Length/)).toHaveAttribute("min", "4");
  expect(screen.getByLabelText(/^Length/)).toHaveAttribute("max", "8");
  expect(screen.getByLabelText(/^Negative prompt/)).toBeInTheDocument();
  expect(screen.getByLabelText("Start frame")).toBeInTheDocument();
  expect(screen.getByLabelText("End frame")).toBeInTheDocument();
  expect(within(screen.getByLabelText("Model")).getAllByRole("option").map((o) => o.textContent)).toEqual(["Veo 3.1 Fast (default)", "Plain Video"]);

  await user.click(screen.getByRole("radio", { name: "Audio" }));
  await waitFor(() => expect(screen.getByLabelText("Model")).toHaveValue("elevenlabs-tts"));
  // Speech: no prompt; words and a voice from the voices list.
  expect(screen.queryByLabelText(/^Prompt/)).toBeNull();
  expect(screen.getByLabelText("Text to speak")).toBeInTheDocument();
  await waitFor(() => expect(screen.getByLabelText("Voice")).toHaveValue("v-rachel"));
  await user.selectOptions(screen.getByLabelText("Model"), "elevenlabs-music");
  expect(screen.getByLabelText(/^Prompt/)).toBeInTheDocument();
  expect(screen.getByLabelText(/^Length/)).toHaveAttribute("max", "120");
  expect(screen.queryByLabelText("Voice")).toBeNull();

  await user.click(screen.getByRole("radio", { name: "Board" }));
  expect(screen.queryByLabelText("Model")).toBeNull();
  expect(within(screen.getByLabelText("Board type")).getAllByRole("option")).toHaveLength(9);
  expect(screen.getByLabelText(/^Reference images/)).toBeInTheDocument();

  await user.click(screen.getByRole("radio", { name: "Lip-sync" }));
  await waitFor(() => expect(screen.getByLabelText("Model")).toHaveValue("infinitalk"));
  expect(screen.getByLabelText("Portrait")).toBeInTheDocument();
  expect(screen.getByLabelText("Audio reference")).toBeInTheDocument();
  expect(screen.getByLabelText(/^Script/)).toBeInTheDocument();
  expect(screen.getByLabelText("Voice")).toBeInTheDocument();
  expect(screen.getByLabelText(/^Prompt/)).toBeInTheDocument();
  // The registry is asked once per content type.
  expect(core.called("models_list").map((c) => c.args?.contentType)).toEqual(["image", "video", "audio"]);
});

it("a model that takes only some lengths offers exactly those in a list, and the chosen one is priced", async () => {
  const core = studioCore();
  const plain = core.answers.models_list;
  core.answers.models_list = (args) => (plain(args) as ModelInfo[]).map((m) => m.modelId !== "veo-3.1-fast" ? m
    : { ...m, capabilities: { ...m.capabilities, durationSeconds: { min: 4, max: 8 }, durationOptions: [4, 6, 8], defaultDuration: 8 } });
  const { user } = await open(core);
  await user.click(screen.getByRole("radio", { name: "Video" }));
  await waitFor(() => expect(screen.getByLabelText("Model")).toHaveValue("veo-3.1-fast"));
  const length = screen.getByLabelText(/^Length/);
  expect(within(length).getAllByRole("option").map((o) => o.textContent)).toEqual(["Default (8 s)", "4 s", "6 s", "8 s"]);
  await user.type(screen.getByLabelText(/^Prompt/), "a red fox");
  await user.selectOptions(length, "6");
  await waitFor(() => expect(quotes(core).at(-1)).toMatchObject({ media: "video", duration: 6 }));
});

it("an empty required prompt says why, asks no price and disables Generate", async () => {
  const { core, user } = await open();
  expect(screen.getByTestId("studio-form-problem")).toHaveTextContent("Write a prompt");
  expect(generateButton()).toBeDisabled();
  await sleep(350);
  expect(core.called("studio_quote")).toHaveLength(0);
  await priced(user);
  expect(screen.queryByTestId("studio-form-problem")).toBeNull();
  expect(generateButton()).toBeEnabled();
});

it("the price is asked once per settled edit, and an identical form is answered without asking", async () => {
  const marks = vi.spyOn(performance, "mark");
  const { core, user } = await open();
  const prompt = screen.getByLabelText(/^Prompt/);
  await user.type(prompt, "a red fox");
  expect(price()).toHaveTextContent("Pricing…");
  await waitFor(() => expect(price()).toHaveTextContent("4 credits · balance after 116"));
  expect(quotes(core)).toEqual([{ media: "image", modelId: "nano-banana-2", prompt: "a red fox" }]);
  await waitFor(() => expect(marks).toHaveBeenCalledWith("studio:price-shown"));

  await user.selectOptions(screen.getByLabelText("Outputs"), "3");
  await waitFor(() => expect(price()).toHaveTextContent("12 credits · balance after 108"));
  await user.type(prompt, "!");
  await waitFor(() => expect(core.called("studio_quote")).toHaveLength(3));
  expect(quotes(core)[2]).toEqual({ media: "image", modelId: "nano-banana-2", prompt: "a red fox!", numOutputs: 3 });

  // Back to forms already priced: no new request.
  await user.type(prompt, "{Backspace}");
  expect(price()).toHaveTextContent("12 credits · balance after 108");
  await user.selectOptions(screen.getByLabelText("Outputs"), "1");
  expect(price()).toHaveTextContent("4 credits · balance after 116");
  await sleep(350);
  expect(core.called("studio_quote")).toHaveLength(3);
});

it("a stale price reply is dropped: the newer form's price stays", async () => {
  const { core, user } = await open();
  let release!: () => void;
  core.hold.studio_quote = new Promise<void>((r) => (release = r));
  await user.type(screen.getByLabelText(/^Prompt/), "a red fox");
  await waitFor(() => expect(core.called("studio_quote")).toHaveLength(1));
  delete core.hold.studio_quote;
  await user.selectOptions(screen.getByLabelText("Outputs"), "2");
  await waitFor(() => expect(price()).toHaveTextContent("8 credits · balance after 112"));
  release();
  await sleep(50);
  expect(price()).toHaveTextContent("8 credits · balance after 112");
  expect(core.called("studio_quote")).toHaveLength(2);
});

it("a form above the balance disables Generate and says how many credits are missing", async () => {
  const { user } = await open(studioCore({ balance: 10 }));
  await priced(user, "a red fox", /4 credits · balance after 6/);
  expect(generateButton()).toBeEnabled();
  await user.selectOptions(screen.getByLabelText("Outputs"), "4");
  await waitFor(() => expect(screen.getByTestId("studio-price-reason")).toHaveTextContent("16 credits and the balance is 10: 6 more are needed"));
  expect(generateButton()).toBeDisabled();
});

it("a validation refusal of the price shows at its field and disables Generate", async () => {
  const { core, user } = await open();
  core.failWith.studio_quote = { code: "validation", message: "“1:1” is not offered by this model.", field: "aspect_ratio" };
  await user.selectOptions(screen.getByLabelText("Aspect ratio"), "1:1");
  await user.type(screen.getByLabelText(/^Prompt/), "a fox");
  await waitFor(() => expect(document.getElementById("studio-aspect-error")).toHaveTextContent("is not offered"));
  expect(screen.getByLabelText("Aspect ratio")).toHaveAttribute("aria-describedby", "studio-aspect-error");
  expect(generateButton()).toBeDisabled();
});

it("Generate mints one outputId per click; the job joins the queue and the gallery; the balance is read again", async () => {
  const { core, user } = await open();
  await priced(user);
  await user.click(generateButton());
  await waitFor(() => expect(core.called("studio_generate")).toHaveLength(1));
  const first = core.called("studio_generate")[0].args!;
  expect(first.outputId).toMatch(UUID);
  expect(first.form).toEqual({ media: "image", modelId: "nano-banana-2", prompt: "a red fox" });
  await waitFor(() => expect(screen.getAllByTestId("gallery-item")).toHaveLength(1));
  expect(screen.getByTestId("gallery-item")).toHaveAttribute("data-token", `${first.outputId}-1`);
  await waitFor(() => expect(core.called("balance").length).toBeGreaterThan(0));

  await user.click(generateButton());
  await waitFor(() => expect(core.called("studio_generate")).toHaveLength(2));
  const second = core.called("studio_generate")[1].args!;
  expect(second.outputId).toMatch(UUID);
  expect(second.outputId).not.toBe(first.outputId);
});

it("Ctrl+Enter in the prompt generates", async () => {
  const { core, user } = await open();
  await priced(user);
  await user.keyboard("{Control>}{Enter}{/Control}");
  await waitFor(() => expect(core.called("studio_generate")).toHaveLength(1));
});

it("after a network failure, 'Try again' sends the same outputId and form", async () => {
  const { core, user } = await open();
  await priced(user);
  core.failWith.studio_generate = { code: "network", message: "Content Desk's core did not answer." };
  await user.click(generateButton());
  expect(await screen.findByTestId("studio-generate-error")).toHaveTextContent("did not answer");
  delete core.failWith.studio_generate;
  // The form changed meanwhile: the retry is still the first click's request.
  await user.type(screen.getByLabelText(/^Prompt/), " at dusk");
  await user.click(screen.getByRole("button", { name: "Try again" }));
  await waitFor(() => expect(core.called("studio_generate")).toHaveLength(2));
  const [a, b] = core.called("studio_generate").map((c) => c.args!);
  expect(b.outputId).toBe(a.outputId);
  expect(b.form).toEqual(a.form);
  await waitFor(() => expect(screen.queryByRole("button", { name: "Try again" })).toBeNull());
  expect(screen.queryByTestId("studio-generate-error")).toBeNull();
  expect(screen.getAllByTestId("gallery-item")).toHaveLength(1);
});

it("a 402 says how many credits are missing, offers no retry and adds nothing", async () => {
  const { core, user } = await open();
  await priced(user);
  core.failWith.studio_generate = {
    code: "insufficientCredits", status: 402, message: "This costs 4 credits and the balance is 2: 2 more are needed. Nothing was charged.",
  };
  await user.click(generateButton());
  const note = await screen.findByTestId("studio-generate-error");
  expect(note).toHaveTextContent("Not enough credits");
  expect(note).toHaveTextContent("2 more are needed");
  expect(screen.queryByRole("button", { name: "Try again" })).toBeNull();
  expect(screen.queryAllByTestId("job")).toHaveLength(0);
  expect(screen.queryAllByTestId("gallery-item")).toHaveLength(0);
});

it("a refusal naming a field shows at that field and focuses it", async () => {
  const { core, user } = await open();
  await priced(user);
  core.failWith.studio_generate = { code: "validation", field: "prompt", message: "The prompt mentions a blocked word." };
  await user.click(generateButton());
  await waitFor(() => expect(document.getElementById("studio-prompt-error")).toHaveTextContent("blocked word"));
  expect(screen.getByLabelText(/^Prompt/)).toHaveFocus();
  expect(screen.getByLabelText(/^Prompt/)).toHaveAttribute("aria-invalid", "true");
  expect(screen.queryByTestId("studio-generate-error")).toBeNull();
});

it("references are checked before they are added, and removed from their chip", async () => {
  const { core, user } = await open();
  const input = screen.getByLabelText(/^Reference images/);
  await user.type(input, "not a link{Enter}");
  expect(screen.getByRole("alert")).toHaveTextContent("neither a web address");
  await user.clear(input);
  await user.type(input, `${UUID_A.toUpperCase()}-2{Enter}`);
  await user.type(input, "https://example.com/cat.png{Enter}");
  const chips = screen.getByRole("list", { name: /^Reference images/ });
  expect(within(chips).getAllByRole("listitem").map((li) => li.textContent?.replace("×", "").trim())).toEqual([`${UUID_A}-2`, "https://example.com/cat.png"]);
  await user.type(screen.getByLabelText(/^Prompt/), "a fox");
  await waitFor(() => expect(quotes(core).at(-1)?.references).toEqual({ images: [`${UUID_A}-2`, "https://example.com/cat.png"] }));
  await user.click(screen.getByRole("button", { name: `Remove ${UUID_A}-2 from reference images` }));
  await waitFor(() => expect(quotes(core).at(-1)?.references).toEqual({ images: ["https://example.com/cat.png"] }));
});

it("the queue follows the core's events: added, progressing, completed into the gallery, removed", async () => {
  const { user } = await open();
  expect(screen.getByTestId("studio-queue")).toHaveTextContent("No renders waiting");
  const now = Date.now();
  const base = job({ outputId: UUID_A, status: "processing", form: { media: "video", modelId: "veo-3.1-fast", prompt: "waves at night" },
    modelId: "veo-3.1-fast", contentType: "video", outputUrls: [], credits: 25, createdAt: now - 5000, updatedAt: now, completedAt: null, nextPollAt: now + 3000 });
  await send({ type: "job", job: base });
  const row = await screen.findByTestId("job");
  expect(row).toHaveTextContent("waves at night");
  // Video models are not loaded on this page yet: the model shows by its id.
  expect(row).toHaveTextContent("veo-3.1-fast");
  expect(row).toHaveTextContent("25 credits");
  expect(within(row).getByTestId("job-status")).toHaveTextContent("Rendering");
  expect(within(row).getByTestId("job-progress")).toHaveTextContent(/next check in 3 s · 5 s elapsed/);
  expect(screen.getByTestId("studio-status")).toHaveTextContent("“waves at night”: rendering.");

  await send({ type: "job", job: { ...base, status: "completed", updatedAt: now + 1, completedAt: now + 1, nextPollAt: null,
    outputUrls: ["http://127.0.0.1:9/files/a-1.mp4"] } });
  await waitFor(() => expect(within(screen.getByTestId("job")).getByTestId("job-status")).toHaveTextContent("Done"));
  expect(screen.getByTestId("studio-status")).toHaveTextContent("done");
  const tile = screen.getByTestId("gallery-item");
  expect(tile).toHaveAttribute("data-token", `${UUID_A}-1`);
  expect(tile.querySelector("video")).toHaveAttribute("src", "http://127.0.0.1:9/files/a-1.mp4");

  await send({ type: "job", job: job({ outputId: UUID_B, status: "submitting", credits: null, outputUrls: [], createdAt: now + 5, updatedAt: now + 5 }) });
  await waitFor(() => expect(screen.getAllByTestId("job")).toHaveLength(2));
  // Newest first.
  expect(screen.getAllByTestId("job")[0]).toHaveAttribute("data-output-id", UUID_B);
  await send({ type: "removed", outputId: UUID_B });
  await waitFor(() => expect(screen.getAllByTestId("job")).toHaveLength(1));
  void user;
});

it("a balance event updates the balance and asks the price again", async () => {
  const { core, user } = await open();
  session.balance = { balance: 120, tier: "hero", autoTopupEnabled: false };
  await priced(user);
  core.balance = { ...core.balance, balance: 50 };
  await send({ type: "balance", balance: 50 });
  await waitFor(() => expect(price()).toHaveTextContent("4 credits · balance after 46"));
  expect(session.balance?.balance).toBe(50);
  expect(core.called("studio_quote")).toHaveLength(2);
  session.balance = null;
});

it("the queue loads on open; Cancel waiting asks first, then stops waiting", async () => {
  const core = studioCore({ jobs: [job({ outputId: UUID_A, status: "processing", outputUrls: [], completedAt: null, nextPollAt: Date.now() + 2000 })] });
  const { user } = await open(core);
  const row = await screen.findByTestId("job");
  await user.click(within(row).getByRole("button", { name: "Cancel waiting" }));
  const dialog = screen.getByRole("alertdialog", { name: "Stop waiting for this render?" });
  expect(dialog).toHaveTextContent(/may still finish and be charged/);
  await user.click(within(dialog).getByRole("button", { name: "Cancel" }));
  expect(screen.queryByRole("alertdialog")).toBeNull();
  expect(core.called("studio_cancel")).toHaveLength(0);
  expect(within(row).getByRole("button", { name: "Cancel waiting" })).toHaveFocus();

  await user.click(within(row).getByRole("button", { name: "Cancel waiting" }));
  await user.click(within(screen.getByRole("alertdialog")).getByRole("button", { name: "Stop waiting" }));
  await waitFor(() => expect(core.called("studio_cancel")).toHaveLength(1));
  expect(core.called("studio_cancel")[0].args).toEqual({ outputId: UUID_A });
  await waitFor(() => expect(within(screen.getByTestId("job")).getByTestId("job-status")).toHaveTextContent("Stopped waiting"));
  expect(screen.queryByRole("alertdialog")).toBeNull();
});

it("Retry starts a failed render again; Clear finished takes finished ones off the queue but not the gallery", async () => {
  const core = studioCore({ jobs: [
    job({ outputId: UUID_A, status: "failed", error: "The render failed; its 4 credits were refunded", outputUrls: [] }),
    job({ outputId: UUID_B, createdAt: 1_600_000_000_000 }),
  ] });
  const { user } = await open(core);
  await waitFor(() => expect(screen.getAllByTestId("job")).toHaveLength(2));
  expect(screen.getAllByTestId("job")[0]).toHaveTextContent("its 4 credits were refunded");
  await user.click(screen.getByRole("button", { name: "Retry" }));
  await waitFor(() => expect(screen.getAllByTestId("job")).toHaveLength(3));
  expect(core.called("studio_retry")[0].args).toEqual({ outputId: UUID_A });
  expect(screen.getAllByTestId("job")[0]).toHaveAttribute("data-output-id", UUID_C);

  await user.click(screen.getByRole("button", { name: "Clear finished" }));
  await waitFor(() => expect(screen.getAllByTestId("job")).toHaveLength(1));
  expect(screen.getByTestId("job")).toHaveAttribute("data-output-id", UUID_C);
  expect(screen.getAllByTestId("gallery-item").map((t) => t.getAttribute("data-token"))).toEqual([`${UUID_B}-1`]);
});

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

it("Copy token copies and says so; without a clipboard the token is shown selected", async () => {
  const { user } = await open(studioCore({ jobs: [job({ outputId: UUID_A })] }));
  const tile = await screen.findByTestId("gallery-item");
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
