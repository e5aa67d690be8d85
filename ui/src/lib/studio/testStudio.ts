// Tests only: a registry like the sandbox's, a price list, and a fake core answering the studio's
// commands (on top of shared/fakeCore), with the jobs it holds, the account's library (media_library,
// paged like the service) and the events it can send.
import { emit } from "@tauri-apps/api/event";
import type { MediaSummary, ModelCapabilities, ModelInfo, StudioEvent, StudioForm, StudioJob, StudioQuote, Voice } from "../bindings";
import { fakeCore, type FakeCore } from "../shared/fakeCore";
import { STUDIO_EVENT } from "../shared/backend";

const caps = (c: Partial<ModelCapabilities>): ModelCapabilities => ({
  outputType: null, promptMode: "required", aspectRatios: [], defaultAspectRatio: null, resolutions: [],
  defaultResolution: null, durationSeconds: null, durationOptions: [], defaultDuration: null, maxOutputs: 1,
  defaultOutputs: null, maxReferenceImages: 0, maxReferenceVideos: null, maxReferenceAudios: null, startFrame: false,
  endFrame: false, negativePrompt: false, voice: false, text: false, audioReference: false, audio: false,
  promptMaxChars: null, inputTypes: [], features: [], ...c,
});

const model = (m: Partial<ModelInfo> & Pick<ModelInfo, "modelId" | "displayName" | "contentType">): ModelInfo => ({
  description: null, kind: "generate", tags: [], isDefault: null, capabilities: caps({}), ...m,
});

export const MODELS: ModelInfo[] = [
  model({
    modelId: "nano-banana-2", displayName: "Nano Banana 2", contentType: "image", isDefault: true, description: "Fast images.",
    capabilities: caps({ aspectRatios: ["1:1", "16:9"], resolutions: ["1K", "2K"], maxOutputs: 4, maxReferenceImages: 3, promptMaxChars: 50 }),
  }),
  model({ modelId: "flux-2-pro", displayName: "FLUX.2 Pro", contentType: "image", capabilities: caps({ aspectRatios: ["1:1"], maxOutputs: 1 }) }),
  model({ modelId: "topaz-image-upscale", displayName: "Topaz Image Upscale", contentType: "image", kind: "upscale", capabilities: caps({ promptMode: "none" }) }),
  model({ modelId: "topaz-video-upscale", displayName: "Topaz Video Upscale", contentType: "video", kind: "upscale", capabilities: caps({ promptMode: "none" }) }),
  model({
    modelId: "veo-3.1-fast", displayName: "Veo 3.1 Fast", contentType: "video", isDefault: true,
    capabilities: caps({ aspectRatios: ["16:9", "9:16"], durationSeconds: { min: 4, max: 8 }, maxOutputs: 4, maxReferenceImages: 3, startFrame: true, endFrame: true, negativePrompt: true }),
  }),
  model({ modelId: "plain-video", displayName: "Plain Video", contentType: "video", capabilities: caps({ durationSeconds: { min: 3, max: 6 } }) }),
  model({
    modelId: "infinitalk", displayName: "InfiniTalk", contentType: "video", kind: "lip-sync",
    capabilities: caps({ promptMode: "optional", durationSeconds: { min: 1, max: 60 }, maxReferenceImages: 1, voice: true, text: true, audioReference: true }),
  }),
  model({
    modelId: "elevenlabs-tts", displayName: "ElevenLabs Text to Speech", contentType: "audio", kind: "generate", isDefault: true,
    // As the service lists speech: a generate model whose output is audio, speaking text in a voice.
    capabilities: caps({ outputType: "audio", promptMode: "none", voice: true, text: true }),
  }),
  model({ modelId: "elevenlabs-music", displayName: "ElevenLabs Music", contentType: "audio", capabilities: caps({ durationSeconds: { min: 10, max: 120 } }) }),
];

export const VOICES: Voice[] = [
  { voiceId: "v-rachel", name: "Rachel", category: "premade", description: "Calm narrator", previewUrl: null, isFavorited: true },
  { voiceId: "v-adam", name: "Adam", category: "premade", description: null, previewUrl: null, isFavorited: false },
];

/** The fake service's prices: 4 per image output, 5 per second of video (5 s default), 6 per board image. */
export function priceOf(form: StudioForm): number {
  const n = form.numOutputs ?? 1;
  switch (form.media) {
    case "image": return 4 * n;
    case "video": return 5 * (form.duration ?? 5) * n;
    case "board": return 6 * n;
    case "lip-sync": return 6 * (form.durationSeconds ?? 3);
    // As the sandbox prices it: 8 per upscale, twice that at 4x.
    case "upscale": return 8 * (form.upscaleFactor === "4x" ? 2 : 1);
    default: return 2;
  }
}

export const UUID_A = "0f8fad5b-d9cb-469f-a165-70867728950e";
export const UUID_B = "7c9e6679-7425-40de-944b-e07fc1f90ae7";
export const UUID_C = "16fd2706-8baf-433b-82eb-8c7fada847da";

export function job(j: Partial<StudioJob> & Pick<StudioJob, "outputId">): StudioJob {
  const t = 1_700_000_000_000;
  return {
    form: { media: "image", modelId: "nano-banana-2", prompt: "a red fox" }, modelId: "nano-banana-2", contentType: "image",
    status: "completed", error: null, credits: 4, outputUrls: [`http://127.0.0.1:9/files/${j.outputId}-1.png`],
    idempotentReplay: false, polls: 0, createdAt: t, updatedAt: t, completedAt: t + 4000, nextPollAt: null, cleared: false, ...j,
  };
}

/** A finished library entry (an image made elsewhere unless told otherwise). */
export function media(m: Partial<MediaSummary> & Pick<MediaSummary, "id">): MediaSummary {
  const variant = m.variant ?? 0;
  return {
    type: "image", model: "nano-banana-2", prompt: "made on the web", status: "completed", createdAt: "2026-01-01T00:00:00.000Z",
    variant, url: `http://127.0.0.1:9/files/${m.id}-${variant + 1}.png`, generationSize: 1, isFavorited: false, kind: "creation",
    boardType: null, source: "creations", fileName: null, durationSeconds: null, ...m,
  };
}

/** A made-up output id for library entries: `n` in its last group. */
export const mediaId = (n: number) => `5a1b2c3d-0000-4000-8000-${String(n).padStart(12, "0")}`;

export interface StudioCore extends FakeCore {
  jobs: StudioJob[];
  /** The account's library, newest first (media_library pages it by `offset` and `limit`). */
  library: MediaSummary[];
  /** What studio_generate answers for a form (default: completed at once, one output). */
  generated: (form: StudioForm, outputId: string) => StudioJob;
}

export function studioCore(init: { balance?: number; jobs?: StudioJob[]; library?: MediaSummary[] } = {}): StudioCore {
  const base = fakeCore({ events: true, balance: { balance: init.balance ?? 120, tier: "hero", autoTopupEnabled: false } });
  const core = base as StudioCore;
  core.jobs = init.jobs ?? [];
  core.library = init.library ?? [];
  core.generated = (form, outputId) => job({
    outputId, form, modelId: form.modelId ?? "reference-board", contentType: form.media === "video" || form.media === "lip-sync" ? "video" : form.media === "audio" ? "audio" : "image",
    credits: priceOf(form), createdAt: Date.now(), updatedAt: Date.now(), completedAt: Date.now(),
    outputUrls: [`http://127.0.0.1:9/files/${outputId}-1.${form.media === "video" ? "mp4" : "png"}`],
  });
  core.answers.models_list = (args) => MODELS.filter((m) => m.contentType === args?.contentType);
  core.answers.voices_list = () => VOICES;
  core.answers.studio_quote = (args): StudioQuote => {
    const credits = priceOf(args?.form as StudioForm);
    const balance = core.balance.balance;
    const affordable = credits <= balance;
    return {
      credits, balance, balanceAfter: balance - credits, affordable, cached: false,
      reason: affordable ? null : `This costs ${credits} credits and the balance is ${balance}: ${credits - balance} more are needed.`,
    };
  };
  core.answers.studio_generate = (args) => {
    const j = core.generated(args?.form as StudioForm, String(args?.outputId));
    core.jobs = [j, ...core.jobs.filter((x) => x.outputId !== j.outputId)];
    return j;
  };
  core.answers.studio_jobs = () => core.jobs;
  core.answers.media_library = (args) => {
    const offset = Number(args?.offset ?? 0);
    const limit = Number(args?.limit ?? 50);
    const types = args?.contentType as string[] | undefined;
    return core.library.filter((m) => !types?.length || types.includes(m.type)).slice(offset, offset + limit);
  };
  core.answers.studio_cancel = (args) => {
    const j = core.jobs.find((x) => x.outputId === args?.outputId)!;
    const c = { ...j, status: "cancelled" as const, error: "Stopped waiting.", updatedAt: j.updatedAt + 1, nextPollAt: null };
    core.jobs = core.jobs.map((x) => (x.outputId === c.outputId ? c : x));
    return c;
  };
  core.answers.studio_retry = (args) => {
    const j = core.jobs.find((x) => x.outputId === args?.outputId)!;
    const fresh = job({ ...j, outputId: UUID_C, status: "processing", error: null, outputUrls: [], createdAt: j.createdAt + 10_000, updatedAt: j.createdAt + 10_000 });
    core.jobs = [fresh, ...core.jobs];
    return fresh;
  };
  core.answers.studio_clear_finished = () => {
    let n = 0;
    core.jobs = core.jobs.map((x) => (x.status !== "submitting" && x.status !== "processing" && !x.cleared ? (n++, { ...x, cleared: true }) : x));
    return n;
  };
  core.answers.spaces_list = () => [
    { id: "s1", name: "Content plan", archivedAt: null },
    { id: "s2", name: "Launch", archivedAt: null },
  ];
  core.answers.board_load = (args) => ({
    space: { id: args?.spaceId, name: "" },
    stages: [{ id: "st1", name: "Ideas", slug: "ideas", color: null, sortOrder: 0, isDefault: true }],
    cards: args?.spaceId === "s2"
      ? [{ id: "c3", title: "Launch teaser", stageId: "st1", platforms: [], tags: [] }]
      : [
        { id: "c1", title: "Hook ideas", stageId: "st1", platforms: [], tags: [] },
        { id: "c2", title: "Behind the scenes", stageId: "st1", platforms: [], tags: [] },
      ],
    total: 2, stageTotals: {}, complete: true,
  });
  core.answers.card_attach_output = (args) => ({
    id: args?.cardId, title: args?.cardId === "c2" ? "Behind the scenes" : "Hook ideas",
    assets: [{ id: "a1", outputId: args?.token }], posts: [], platforms: [], tags: [], coverUrl: null,
  });
  core.answers.card_update = (args) => {
    const cover = (args?.update as { coverOutputId?: string } | undefined)?.coverOutputId;
    return {
      id: args?.cardId, title: args?.cardId === "c2" ? "Behind the scenes" : "Hook ideas", posts: [], platforms: [], tags: [], assets: [],
      coverUrl: cover ? `http://127.0.0.1:9/files/${cover}.png` : null,
    };
  };
  return core;
}

/** The core's studio event, as the desktop shell emits it. */
export function send(e: StudioEvent) {
  return emit(STUDIO_EVENT, e);
}
