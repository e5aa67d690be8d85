import { describe, expect, it } from "vitest";
import {
  isSpeech,
  appendLibrary, buildForm, checkReference, defaultModel, emptyValues, fieldOf, formProblem, galleryItems, libraryLabel, mergeJob,
  madeAtLabel, mergeNewer, modelOptionLabel, modelsFor, prependLibrary, progressHint, stageOf, type Values,
} from "./studioRules";
import { MODELS, UUID_A, UUID_B, job, media, mediaId } from "./testStudio";

const byId = (id: string) => MODELS.find((m) => m.modelId === id)!;
const values = (v: Partial<Values>): Values => ({ ...emptyValues(), ...v });

it("a model of a kind this build does not know is offered, labelled with its raw kind", () => {
  const extend = { ...byId("veo-3.1-fast"), modelId: "veo-4-extend", displayName: "Veo 4 Extend", kind: "video-extend", isDefault: null };
  const known = { ...byId("topaz-image-upscale") };
  const list = [...MODELS, extend];
  expect(modelsFor("video", list).map((m) => m.modelId)).toContain("veo-4-extend");
  expect(modelOptionLabel(extend)).toBe("Veo 4 Extend (video-extend)");
  // a known kind that is not for generating stays out, and a known model's label is its name
  expect(modelsFor("image", list).map((m) => m.modelId)).not.toContain(known.modelId);
  expect(modelOptionLabel(byId("nano-banana-2"))).toBe(`${byId("nano-banana-2").displayName}${byId("nano-banana-2").isDefault ? " (default)" : ""}`);
});

it("each media type offers its kind of models; the default is the registry's, else the first", () => {
  expect(modelsFor("image", MODELS).map((m) => m.modelId)).toEqual(["nano-banana-2", "flux-2-pro"]);
  expect(modelsFor("lip-sync", MODELS).map((m) => m.modelId)).toEqual(["infinitalk"]);
  expect(modelsFor("audio", MODELS).map((m) => m.modelId)).toEqual(["elevenlabs-tts", "elevenlabs-music"]);
  expect(modelsFor("board", MODELS)).toEqual([]);
  expect(defaultModel(modelsFor("video", MODELS))?.modelId).toBe("veo-3.1-fast");
  expect(defaultModel(modelsFor("lip-sync", MODELS))?.modelId).toBe("infinitalk");
  expect(defaultModel(modelsFor("video", MODELS), (m) => m.modelId === "plain-video")?.modelId).toBe("plain-video");
});

it("the form carries only what the model accepts, in one key order", () => {
  const v = values({
    media: "image", prompt: "  a fox ", aspectRatio: "16:9", resolution: "4K", numOutputs: 3, negativePrompt: "blur",
    images: [`${UUID_A}-1`], startFrame: `${UUID_B}-1`, length: 6,
  });
  expect(buildForm(v, byId("nano-banana-2"))).toEqual({
    media: "image", modelId: "nano-banana-2", prompt: "a fox", aspectRatio: "16:9", numOutputs: 3, references: { images: [`${UUID_A}-1`] },
  });
  expect(JSON.stringify(buildForm({ ...v, media: "video" }, byId("veo-3.1-fast")))).toBe(JSON.stringify({
    media: "video", modelId: "veo-3.1-fast", prompt: "a fox", aspectRatio: "16:9", numOutputs: 3, duration: 6, negativePrompt: "blur",
    references: { images: [`${UUID_A}-1`], startFrame: `${UUID_B}-1` },
  }));
  // Audio and lip-sync lengths are durationSeconds; a lip-sync takes a voice only to speak its script.
  expect(buildForm(values({ media: "lip-sync", images: ["https://x.test/p.png"], audio: `${UUID_A}-1`, length: 7, voiceId: "v" }), byId("infinitalk"))).toEqual({
    media: "lip-sync", modelId: "infinitalk", durationSeconds: 7, references: { images: ["https://x.test/p.png"], audio: [`${UUID_A}-1`] },
  });
  expect(buildForm(values({ media: "board", prompt: "hero", boardType: "pose", numOutputs: 2 }), null)).toEqual({
    media: "board", prompt: "hero", numOutputs: 2, boardType: "pose",
  });
  expect(buildForm(values({ media: "video" }), null)).toBeNull();
});

it("a model that takes only some lengths is offered exactly those", () => {
  const veo = byId("veo-3.1-fast");
  const discrete = { ...veo, capabilities: { ...veo.capabilities, durationSeconds: { min: 4, max: 8 }, durationOptions: [4, 6, 8] } };
  expect(formProblem(values({ media: "video", prompt: "ok", length: 5 }), discrete)).toEqual({ field: "length", message: "Choose a length of 4, 6 or 8 seconds." });
  expect(formProblem(values({ media: "video", prompt: "ok", length: 6 }), discrete)).toBeNull();
  expect(buildForm(values({ media: "video", prompt: "ok", length: 8 }), discrete)?.duration).toBe(8);
  // a range model still takes any length inside its range
  expect(formProblem(values({ media: "video", prompt: "ok", length: 5 }), veo)).toBeNull();
});

it("speech is known by what it takes, as the service lists it (generate, output audio) and as the cards era did (voice)", () => {
  const tts = byId("elevenlabs-tts");
  expect(tts.kind).toBe("generate");
  expect(isSpeech(tts)).toBe(true);
  expect(modelsFor("audio", MODELS).map((m) => m.modelId)).toEqual(["elevenlabs-tts", "elevenlabs-music"]);
  expect(isSpeech(byId("elevenlabs-music"))).toBe(false);
  expect(isSpeech(byId("infinitalk"))).toBe(false);
  const cardsEra = { ...tts, kind: "voice" as const };
  expect(isSpeech(cardsEra)).toBe(true);
  expect(formProblem(values({ media: "audio", text: "hi" }), cardsEra)?.field).toBe("voiceId");
  // Speech sends its voice; music does not take one.
  expect(buildForm(values({ media: "audio", text: "hi", voiceId: "v" }), tts)?.voiceId).toBe("v");
});

it("what is missing is named before a price is asked", () => {
  expect(formProblem(values({}), byId("nano-banana-2"))?.field).toBe("prompt");
  expect(formProblem(values({ prompt: "x".repeat(51) }), byId("nano-banana-2"))?.message).toMatch(/at most 50/);
  expect(formProblem(values({ prompt: "ok" }), byId("nano-banana-2"))).toBeNull();
  expect(formProblem(values({ media: "video", prompt: "ok", length: 9 }), byId("veo-3.1-fast"))).toEqual({ field: "length", message: "Choose a length from 4 to 8 seconds." });
  expect(formProblem(values({ media: "audio", text: "hi" }), byId("elevenlabs-tts"))?.field).toBe("voiceId");
  expect(formProblem(values({ media: "lip-sync", text: "hi", voiceId: "v" }), byId("infinitalk"))?.field).toBe("references.images");
  expect(formProblem(values({ media: "lip-sync", images: ["https://x.test/p.png"], audio: `${UUID_A}-1` }), byId("infinitalk"))?.field).toBe("length");
  expect(formProblem(values({ media: "board" }), null)?.field).toBe("prompt");
  expect(formProblem(values({ media: "board", images: ["https://x.test/a.png"] }), null)).toBeNull();
  expect(formProblem(values({ media: "video", prompt: "x" }), null)?.field).toBe("modelId");
});

it("a reference is a web address or an output token", () => {
  expect(checkReference(` ${UUID_A.toUpperCase()}-2 `)).toEqual({ value: `${UUID_A}-2` });
  expect(checkReference(UUID_A)).toEqual({ value: UUID_A });
  expect(checkReference("https://example.com/a.png")).toEqual({ value: "https://example.com/a.png" });
  expect(checkReference(`${UUID_A}-0`)).toHaveProperty("error");
  expect(checkReference("ftp://example.com/a.png")).toHaveProperty("error");
  expect(checkReference("")).toHaveProperty("error");
});

it("an error's field maps to the form's field whatever its spelling", () => {
  expect(fieldOf("aspect_ratio")).toBe("aspectRatio");
  expect(fieldOf("numImages")).toBe("numOutputs");
  expect(fieldOf("references.images[2]")).toBe("references.images");
  expect(fieldOf("referenceImages[0]")).toBe("references.images");
  expect(fieldOf("durationSeconds")).toBe("length");
  expect(fieldOf("outputId")).toBeNull();
  expect(fieldOf(undefined)).toBeNull();
});

it("jobs merge by outputId, newest first, and an older copy never overwrites a newer one", () => {
  const a = job({ outputId: UUID_A, createdAt: 1, updatedAt: 5, status: "processing" });
  const b = job({ outputId: UUID_B, createdAt: 2, updatedAt: 2 });
  let list = mergeJob([a], b);
  expect(list.map((j) => j.outputId)).toEqual([UUID_B, UUID_A]);
  list = mergeJob(list, { ...a, updatedAt: 4, status: "submitting" });
  expect(list[1].status).toBe("processing");
  list = mergeJob(list, { ...a, updatedAt: 6, status: "completed" });
  expect(list[1].status).toBe("completed");
  // A fresh list keeps what events said later.
  expect(mergeNewer([{ ...a, updatedAt: 5 }], [{ ...a, updatedAt: 9, status: "completed" }, b]).map((j) => [j.outputId, j.status]))
    .toEqual([[UUID_B, "completed"], [UUID_A, "completed"]]);
});

it("the gallery lists each output of completed jobs with its token; progress says what is next", () => {
  const items = galleryItems([
    job({ outputId: UUID_A, outputUrls: ["u1", "u2"] }),
    job({ outputId: UUID_B, status: "failed", outputUrls: [] }),
  ]);
  expect(items.map((i) => [i.token, i.index])).toEqual([[`${UUID_A}-1`, 1], [`${UUID_A}-2`, 2]]);
  const p = job({ outputId: UUID_A, status: "processing", createdAt: 0, nextPollAt: 65_000 });
  expect(progressHint(p, 62_000)).toBe("next check in 3 s · 1 min 2 s elapsed");
  expect(progressHint({ ...p, status: "completed", completedAt: 14_000 }, 99_000)).toBe("Finished in 14 s");
});

it("library entries follow the local renders, once each, finished ones only; pages join without repeats", () => {
  const lib = [
    media({ id: UUID_A }),
    media({ id: mediaId(1), generationSize: 2 }),
    media({ id: mediaId(1), generationSize: 2, variant: 1 }),
    media({ id: mediaId(2), status: "failed", url: null }),
    media({ id: mediaId(3), type: "audio", url: "http://x/f.wav" }),
  ];
  const items = galleryItems([job({ outputId: UUID_A })], lib);
  expect(items.map((i) => [i.token, i.from, i.index, i.of, i.kind])).toEqual([
    [`${UUID_A}-1`, "local", 1, 1, "image"],
    [`${mediaId(1)}-1`, "library", 1, 2, "image"],
    [`${mediaId(1)}-2`, "library", 2, 2, "image"],
    [`${mediaId(3)}-1`, "library", 1, 1, "audio"],
  ]);
  expect(libraryLabel(media({ id: "x", prompt: "  a fox  " }))).toBe("a fox");
  expect(libraryLabel(media({ id: "x", prompt: null, kind: "board", boardType: "pose" }))).toBe("pose board");
  expect(libraryLabel(media({ id: "x", prompt: null, kind: "upload", fileName: "logo.png", model: null }))).toBe("logo.png");
  expect(libraryLabel(media({ id: "x", prompt: null, type: "video", model: "veo-3.1-fast" }))).toBe("Video with veo-3.1-fast");

  const [a, b, c, d] = [1, 2, 3, 4].map((n) => media({ id: mediaId(n) }));
  expect(appendLibrary([a, b], [b, c])).toEqual([a, b, c]);
  expect(prependLibrary([b, c], [a, b])).toEqual({ list: [a, b, c], added: 1, replaced: false });
  expect(prependLibrary([c], [a, b])).toEqual({ list: [a, b], added: 0, replaced: true });
  expect(prependLibrary([], [a, d])).toEqual({ list: [a, d], added: 2, replaced: false });
});

describe("when an output was made", () => {
  it("today: the time; another day: the date and time; unknown: nothing", () => {
    const now = new Date(2026, 10, 27, 15, 0).getTime();
    expect(madeAtLabel(new Date(2026, 10, 27, 10, 30).getTime(), now)).toMatch(/^today, .*10.30/);
    expect(madeAtLabel(new Date(2026, 10, 2, 9, 5).getTime(), now)).toMatch(/2026/);
    expect(madeAtLabel(null, now)).toBe("");
  });
});

describe("the stage of a render under way", () => {
  const p = job({ outputId: UUID_A, status: "processing", createdAt: 0, outputUrls: [], completedAt: null });
  it("queued while the request is out, rendering once the service says so, waiting to send after a lost connection", () => {
    expect(stageOf({ ...p, status: "submitting" }, 1000)?.name).toBe("Queued");
    expect(stageOf({ ...p, status: "submitting", error: "no connection" }, 1000)?.name).toBe("Waiting to send");
    expect(stageOf(p, 1000)?.name).toBe("Rendering");
    expect(stageOf({ ...p, status: "completed", completedAt: 5 }, 1000)).toBeNull();
  });
  it("fills by the learned render time and says the time left; never full before it is done; no estimate, no fraction", () => {
    expect(stageOf(p, 4000)).toEqual({ name: "Rendering", detail: "4 s so far · no estimate yet for this model", fraction: null });
    expect(stageOf({ ...p, expectedMs: 20_000 }, 5000)).toEqual({ name: "Rendering", detail: "about 15 s left of ~20 s", fraction: 0.25 });
    expect(stageOf({ ...p, expectedMs: 20_000 }, 30_000)).toEqual({ name: "Rendering", detail: "taking longer than usual (~20 s)", fraction: 0.95 });
  });
});
