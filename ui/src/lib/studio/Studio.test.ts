import { expect, it, vi } from "vitest";
import { render, screen, waitFor, within } from "@testing-library/svelte";
import type { ModelInfo } from "../bindings";
import { session } from "../account/session.svelte";
import { UUID_A, UUID_B, UUID_C, job, media, send, studioCore } from "./testStudio";
import { UUID, generateButton, open, price, priced, quotes, resetAfterEach, sleep } from "./studioPage";

resetAfterEach();

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
  // No estimate learned for the model: the stage, the time so far, and a bar that only says it is busy.
  expect(within(row).getByTestId("job-stage")).toHaveTextContent(/5 s so far · no estimate yet for this model/);
  expect(within(row).getByRole("progressbar", { name: "Progress of “waves at night”" })).not.toHaveAttribute("value");
  // With the model's learned render time (the core's expectedMs): how far along, and the time left.
  await send({ type: "job", job: { ...base, expectedMs: 20_000, updatedAt: now + 1 } });
  await waitFor(() => expect(within(row).getByTestId("job-stage")).toHaveTextContent(/about 15 s left of ~20 s/));
  expect(Number(within(row).getByTestId("job-bar").getAttribute("value"))).toBeCloseTo(0.25, 1);
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

it("upscale: an output (its picture on the chip) is priced per factor and generated as one source; a video needs its length", async () => {
  const core = studioCore({ jobs: [job({ outputId: UUID_A, outputUrls: ["http://127.0.0.1:9/files/a-1.png"] })] });
  const { user } = await open(core);
  await user.click(screen.getByRole("radio", { name: "Upscale" }));
  await waitFor(() => expect(screen.getByLabelText("Model")).toHaveValue("topaz-image-upscale"));
  expect(within(screen.getByLabelText("Model")).getAllByRole("option").map((o) => o.textContent)).toEqual(["Topaz Image Upscale"]);
  expect(screen.queryByLabelText(/^Prompt/)).toBeNull();
  await user.type(screen.getByLabelText("Image to upscale"), `${UUID_A}-1{Enter}`);
  // The chip shows the output's own picture, from the gallery.
  expect(within(screen.getByTestId("ref-studio-ref-source")).getByTestId("chip-thumb")).toHaveAttribute("src", "http://127.0.0.1:9/files/a-1.png");
  await waitFor(() => expect(price().textContent).toMatch(/8 credits/));
  await user.selectOptions(screen.getByLabelText("Factor"), "4x");
  await waitFor(() => expect(price().textContent).toMatch(/16 credits/));
  expect(quotes(core).at(-1)).toEqual({ media: "upscale", modelId: "topaz-image-upscale", references: { images: [`${UUID_A}-1`] }, upscaleFactor: "4x" });
  await user.click(generateButton());
  await waitFor(() => expect(core.called("studio_generate")).toHaveLength(1));
  expect(core.called("studio_generate")[0].args?.form).toEqual(quotes(core).at(-1));
  // A video: the video upscalers, and its length before a price is asked.
  await user.click(screen.getByRole("radio", { name: "A video" }));
  await waitFor(() => expect(screen.getByLabelText("Model")).toHaveValue("topaz-video-upscale"));
  await user.type(screen.getByLabelText("Video to upscale"), `${UUID_B}-1{Enter}`);
  expect(generateButton()).toBeDisabled();
  await user.type(screen.getByLabelText(/^Video length/), "12");
  await waitFor(() => expect(quotes(core).at(-1)).toEqual({ media: "upscale", modelId: "topaz-video-upscale", references: { videos: [`${UUID_B}-1`] }, duration: 12, upscaleFactor: "4x" }));
});
