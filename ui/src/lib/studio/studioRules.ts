// The studio's rules as pure functions: which models and fields each media type offers (from the
// live registry's capabilities), the form the core receives, what is missing before a price can be
// asked, references (a URL or an output token), and the queue / gallery views of the jobs.
import { formatWhen } from "../shared/datetime";
import type { ContentType, MediaSummary, ModelCapabilities, ModelInfo, StudioForm, StudioJob, StudioMedia } from "../bindings";
import { isHttpUrl, parseOutputToken } from "../planner/editor/cardRules";
import { BOARD_TYPES, MODEL_KINDS, UPSCALE_FACTORS } from "../bindings/valueLists";

export const MEDIA: { id: StudioMedia; label: string }[] = [
  { id: "image", label: "Image" },
  { id: "video", label: "Video" },
  { id: "audio", label: "Audio" },
  { id: "board", label: "Board" },
  { id: "lip-sync", label: "Lip-sync" },
  { id: "upscale", label: "Upscale" },
];

/** What an upscale's factor can be (generated from api-types' UPSCALE_FACTORS). */
export { UPSCALE_FACTORS };

/** What a reference board can show (generated from api-types' BOARD_TYPES; boards are a pipeline, not a
 *  registry model). */
export { BOARD_TYPES };

/** A board's limits. The registry does not describe the board pipeline; these are the service's
 *  documented ones (up to 4 images, up to 8 reference images, a prompt or references). */
export const BOARD_CAPS: ModelCapabilities = {
  outputType: "image", promptMode: "optional", aspectRatios: [], defaultAspectRatio: null, resolutions: [],
  defaultResolution: null, durationSeconds: null, durationOptions: [], defaultDuration: null, maxOutputs: 4,
  defaultOutputs: null, maxReferenceImages: 8, maxReferenceVideos: null, maxReferenceAudios: null, startFrame: false,
  endFrame: false, negativePrompt: false, voice: false, text: false, audioReference: false, audio: false,
  promptMaxChars: 5000, inputTypes: [], features: [],
};

/** The registry's content type a media type's models come from; boards have no model. */
export function contentTypeOf(media: StudioMedia, upscaleOf: "image" | "video" = "image"): ContentType | null {
  switch (media) {
    case "upscale": return upscaleOf;
    case "image": return "image";
    case "video": case "lip-sync": return "video";
    case "audio": return "audio";
    default: return null;
  }
}

/** The models a media type offers: generators for images and video, lip-sync models for lip-sync,
 *  speech, music and sound effects for audio (upscalers are not offered here). */
export function modelsFor(media: StudioMedia, models: ModelInfo[]): ModelInfo[] {
  // A kind this build does not know (the registry grows every month) is offered too, labelled with its
  // raw kind (`modelOptionLabel`): the service checks what it takes.
  const generates = (m: ModelInfo) => m.kind === "generate" || isUnknownKind(m);
  switch (media) {
    case "image": return models.filter((m) => m.contentType === "image" && generates(m));
    case "video": return models.filter((m) => m.contentType === "video" && generates(m));
    case "lip-sync": return models.filter((m) => m.contentType === "video" && m.kind === "lip-sync");
    case "upscale": return models.filter((m) => m.kind === "upscale");
    case "audio": return models.filter((m) => m.contentType === "audio" && (generates(m) || m.kind === "voice"));
    default: return [];
  }
}

/** A speech model: audio spoken from text in a voice. The service lists it as kind `generate` with output
 *  type `audio` (the cards era as kind `voice`), so it is known by what it takes, as the core's
 *  `ModelInfo::is_speech` knows it. */
export function isSpeech(m: ModelInfo | null): boolean {
  return !!m && m.contentType === "audio" && m.capabilities.voice && m.capabilities.text;
}

/** A model kind this build has no name for, shown as the service sent it. */
export function isUnknownKind(m: ModelInfo): boolean {
  return !(MODEL_KINDS as readonly string[]).includes(m.kind);
}

/** The model picker's label: the name, "(default)", and an unknown kind as-is. */
export function modelOptionLabel(m: ModelInfo): string {
  return `${m.displayName}${isUnknownKind(m) ? ` (${m.kind})` : ""}${m.isDefault ? " (default)" : ""}`;
}

/** The registry's default (or the first); with `prefer`, the first that satisfies it wins over both. */
export function defaultModel(models: ModelInfo[], prefer?: (m: ModelInfo) => boolean): ModelInfo | null {
  const ordered = [...models.filter((m) => m.isDefault), ...models.filter((m) => !m.isDefault)];
  return (prefer && ordered.find(prefer)) || ordered[0] || null;
}

/** The form as the user holds it, before the model's capabilities decide what is sent. */
export interface Values {
  media: StudioMedia;
  prompt: string;
  aspectRatio: string;
  resolution: string;
  numOutputs: number;
  /** Seconds: `duration` for video clips, `durationSeconds` for audio and lip-sync; null = the model's default. */
  length: number | null;
  negativePrompt: string;
  images: string[];
  startFrame: string | null;
  endFrame: string | null;
  audio: string | null;
  text: string;
  voiceId: string;
  boardType: string;
  boardName: string;
  /** Upscales: what is upscaled, its output token or web address, and the factor ("" = the model's default). */
  upscaleOf: "image" | "video";
  source: string | null;
  upscaleFactor: string;
}

export function emptyValues(media: StudioMedia = "image"): Values {
  return {
    media, prompt: "", aspectRatio: "", resolution: "", numOutputs: 1, length: null, negativePrompt: "",
    images: [], startFrame: null, endFrame: null, audio: null, text: "", voiceId: "", boardType: "character", boardName: "",
    upscaleOf: "image", source: null, upscaleFactor: "",
  };
}

export function capsOf(media: StudioMedia, model: ModelInfo | null): ModelCapabilities | null {
  return media === "board" ? BOARD_CAPS : model?.capabilities ?? null;
}

/** Which fields a model shows. */
export interface Fields {
  prompt: boolean;
  promptRequired: boolean;
  promptMaxChars: number | null;
  aspectRatios: string[];
  resolutions: string[];
  maxOutputs: number;
  /** `options`: the only lengths the model takes (empty: any in `min`–`max`). */
  length: { field: "duration" | "durationSeconds"; min: number; max: number; options: number[] } | null;
  negativePrompt: boolean;
  maxReferenceImages: number;
  startFrame: boolean;
  endFrame: boolean;
  audioReference: boolean;
  voice: boolean;
  text: boolean;
  board: boolean;
  /** What the model uses when the field is left at "Default", when its registry says. */
  defaults: { aspectRatio: string | null; resolution: string | null; length: number | null };
}

/** The "Default" choice of a list, naming the model's default when it is known. */
export function defaultLabel(value: string | null): string {
  return value ? `Default (${value})` : "Default";
}

export function fieldsOf(media: StudioMedia, caps: ModelCapabilities | null): Fields {
  if (media === "upscale") {
    // An upscale's own fields (source, factor, a video's length) are the form's upscale block.
    return {
      prompt: false, promptRequired: false, promptMaxChars: null, aspectRatios: [], resolutions: [], maxOutputs: 1, length: null,
      negativePrompt: false, maxReferenceImages: 0, startFrame: false, endFrame: false, audioReference: false, voice: false,
      text: false, board: false, defaults: { aspectRatio: null, resolution: null, length: null },
    };
  }
  const c = caps ?? BOARD_CAPS;
  const range = c.durationSeconds;
  return {
    prompt: c.promptMode !== "none",
    promptRequired: c.promptMode === "required",
    promptMaxChars: c.promptMaxChars,
    aspectRatios: c.aspectRatios,
    resolutions: c.resolutions,
    maxOutputs: Math.max(1, c.maxOutputs ?? 1),
    length: caps && range
      ? { field: media === "video" ? "duration" : "durationSeconds", min: range.min, max: range.max, options: c.durationOptions ?? [] }
      : null,
    negativePrompt: c.negativePrompt,
    maxReferenceImages: Math.max(0, c.maxReferenceImages ?? 0),
    startFrame: c.startFrame,
    endFrame: c.endFrame,
    audioReference: c.audioReference,
    voice: c.voice,
    text: c.text,
    board: media === "board",
    defaults: { aspectRatio: c.defaultAspectRatio ?? null, resolution: c.defaultResolution ?? null, length: c.defaultDuration ?? null },
  };
}

const filled = (s: string | null | undefined): string | undefined => {
  const t = s?.trim();
  return t ? t : undefined;
};

/** The form the core receives: only what the model accepts, keys in one fixed order (the JSON is the
 *  price cache's key). Null while there is no model to send it to. */
export function buildForm(v: Values, model: ModelInfo | null): StudioForm | null {
  if (v.media !== "board" && !model) return null;
  if (v.media === "upscale" && model) {
    // The spec's upscale: one source (an image, or a video with its length), the factor, no prompt.
    const form: StudioForm = { media: "upscale", modelId: model.modelId };
    if (v.source) form.references = v.upscaleOf === "video" ? { videos: [v.source] } : { images: [v.source] };
    if (v.upscaleOf === "video" && v.length !== null && Number.isFinite(v.length)) form.duration = v.length;
    if ((UPSCALE_FACTORS as readonly string[]).includes(v.upscaleFactor)) form.upscaleFactor = v.upscaleFactor;
    return form;
  }
  const f = fieldsOf(v.media, capsOf(v.media, model));
  const form: StudioForm = { media: v.media };
  if (v.media !== "board" && model) form.modelId = model.modelId;
  if (f.prompt && filled(v.prompt)) form.prompt = v.prompt.trim();
  if (f.aspectRatios.includes(v.aspectRatio)) form.aspectRatio = v.aspectRatio;
  if (f.resolutions.includes(v.resolution)) form.resolution = v.resolution;
  const multi = v.media === "image" || v.media === "video" || v.media === "board";
  if (multi && f.maxOutputs > 1 && v.numOutputs > 1) form.numOutputs = Math.min(v.numOutputs, f.maxOutputs);
  if (f.length && v.length !== null && Number.isFinite(v.length)) {
    if (f.length.field === "duration") form.duration = v.length;
    else form.durationSeconds = v.length;
  }
  if (f.negativePrompt && filled(v.negativePrompt)) form.negativePrompt = v.negativePrompt.trim();
  const references: NonNullable<StudioForm["references"]> = {};
  if (f.maxReferenceImages > 0 && v.images.length) references.images = v.images.slice(0, f.maxReferenceImages);
  if (f.startFrame && v.startFrame) references.startFrame = v.startFrame;
  if (f.endFrame && v.endFrame) references.endFrame = v.endFrame;
  if (f.audioReference && v.audio) references.audio = [v.audio];
  if (Object.keys(references).length) form.references = references;
  const text = f.text ? filled(v.text) : undefined;
  if (text) form.text = text;
  // Speech needs a voice; a lip-sync takes one only to speak its script.
  if (f.voice && filled(v.voiceId) && (isSpeech(model) || text)) form.voiceId = v.voiceId;
  if (f.board) {
    form.boardType = v.boardType;
    if (filled(v.boardName)) form.boardName = v.boardName.trim();
  }
  return form;
}

/** `4, 6 or 8`. */
export function lengthList(options: number[]): string {
  return options.length > 1 ? `${options.slice(0, -1).join(", ")} or ${options[options.length - 1]}` : String(options[0] ?? "");
}

/** A reason the form cannot be priced or sent yet, on the field it concerns. */
export type Problem = { field: string; message: string };

/** What is missing or out of range, checked here before anything is asked (the service says the rest). */
export function formProblem(v: Values, model: ModelInfo | null): Problem | null {
  if (v.media !== "board" && !model) return { field: "modelId", message: "Choose a model." };
  if (v.media === "upscale") {
    if (!v.source) return { field: "references.source", message: `Add the ${v.upscaleOf} to upscale: its output token or web address.` };
    if (v.upscaleOf === "video" && (v.length === null || !(v.length > 0))) {
      return { field: "length", message: "Give the video's length in seconds (it sets the price)." };
    }
    return null;
  }
  const f = fieldsOf(v.media, capsOf(v.media, model));
  const prompt = filled(v.prompt);
  if (f.prompt && f.promptRequired && !prompt) return { field: "prompt", message: "Write a prompt: this model needs one." };
  if (f.prompt && prompt && f.promptMaxChars && prompt.length > f.promptMaxChars) {
    return { field: "prompt", message: `The prompt is ${prompt.length} characters; this model takes at most ${f.promptMaxChars}.` };
  }
  if (f.board && !prompt && v.images.length === 0) return { field: "prompt", message: "Describe the board, or add reference images." };
  if (f.length && v.length !== null && f.length.options.length && !f.length.options.includes(v.length)) {
    return { field: "length", message: `Choose a length of ${lengthList(f.length.options)} seconds.` };
  }
  if (f.length && v.length !== null && (v.length < f.length.min || v.length > f.length.max)) {
    return { field: "length", message: `Choose a length from ${f.length.min} to ${f.length.max} seconds.` };
  }
  if (v.images.length > f.maxReferenceImages && f.maxReferenceImages > 0) {
    return { field: "references.images", message: `This model takes at most ${f.maxReferenceImages} reference image${f.maxReferenceImages === 1 ? "" : "s"}.` };
  }
  const text = f.text ? filled(v.text) : undefined;
  if (isSpeech(model)) {
    if (!text) return { field: "text", message: "Write the words to speak." };
    if (!filled(v.voiceId)) return { field: "voiceId", message: "Choose a voice." };
  }
  if (model?.kind === "lip-sync") {
    if (v.images.length !== 1) return { field: "references.images", message: "Add the portrait to animate as the reference image." };
    const audio = f.audioReference && v.audio;
    if (!audio && !text) return { field: "text", message: "Write the script to speak, or add an audio reference." };
    if (audio && text) return { field: "text", message: "Give either a script or an audio reference, not both." };
    if (text && !filled(v.voiceId)) return { field: "voiceId", message: "Choose the voice that speaks the script." };
    if (audio && v.length === null) return { field: "length", message: "Give the audio clip's length in seconds." };
  }
  return null;
}

/** A reference as typed: an http(s) URL or an output token `<uuid>-<N>`. */
export function checkReference(raw: string): { value: string } | { error: string } {
  const v = raw.trim();
  if (!v) return { error: "Paste a web address or an output token first." };
  const token = parseOutputToken(v);
  if (token) return { value: token };
  if (isHttpUrl(v)) return { value: v };
  return {
    error: "That is neither a web address (https://…) nor an output token (<uuid>-<N>, from “Copy token” in the gallery).",
  };
}

/** The output token of the N-th output (1-based) of a job. */
export const outputToken = (outputId: string, n: number) => `${outputId}-${n}`;

/** The form's field a service or core error names (snake_case, wire names, list indexes all map). */
export function fieldOf(raw: string | undefined): string | null {
  if (!raw) return null;
  const f = raw.replace(/^form\./, "").replace(/_([a-z])/g, (_m, c: string) => c.toUpperCase()).replace(/\[\d+\]$/, "");
  const map: Record<string, string> = {
    modelId: "modelId", contentType: "modelId", prompt: "prompt", aspectRatio: "aspectRatio", resolution: "resolution",
    numOutputs: "numOutputs", numImages: "numOutputs", numGenerations: "numOutputs",
    duration: "length", durationSeconds: "length", negativePrompt: "negativePrompt",
    "references.images": "references.images", referenceImages: "references.images", "references.startFrame": "references.startFrame",
    startFrame: "references.startFrame", "references.endFrame": "references.endFrame", endFrame: "references.endFrame",
    "references.audio": "references.audio", text: "text", voiceId: "voiceId", boardType: "boardType", boardName: "boardName",
    references: "references.source", "references.videos": "references.source", upscaleFactor: "upscaleFactor",
  };
  return map[f] ?? null;
}

export function excerpt(s: string, max = 60): string {
  const t = s.replace(/\s+/g, " ").trim();
  return t.length > max ? `${t.slice(0, max - 1).trimEnd()}…` : t;
}

const MEDIA_LABEL: Record<StudioMedia, string> = Object.fromEntries(MEDIA.map((m) => [m.id, m.label])) as Record<StudioMedia, string>;

/** How a job is named in the queue and the gallery: its prompt (or words, or board type), else its model. */
export function jobLabel(job: StudioJob): string {
  const words = job.form.prompt?.trim() || job.form.text?.trim();
  if (words) return excerpt(words);
  if (job.form.media === "board") return `${job.form.boardType ?? "Reference"} board`;
  return `${MEDIA_LABEL[job.form.media] ?? "Render"} with ${job.modelId}`;
}

/** The model a job used, as the user knows it. */
export function modelLabel(job: StudioJob, models: ModelInfo[]): string {
  if (job.form.media === "board") return `Board · ${job.form.boardType ?? ""}`.trim();
  return models.find((m) => m.modelId === job.modelId)?.displayName ?? job.modelId;
}

/** The queue (or gallery) with one job added or replaced, newest first. */
export function mergeJob(jobs: StudioJob[], job: StudioJob): StudioJob[] {
  const i = jobs.findIndex((j) => j.outputId === job.outputId);
  if (i >= 0) {
    // An event older than what is shown (they can cross the command's own answer) is not applied.
    if (jobs[i].updatedAt > job.updatedAt) return jobs;
    const next = [...jobs];
    next[i] = job;
    return next;
  }
  return [job, ...jobs].sort((a, b) => b.createdAt - a.createdAt);
}

/** A freshly read list, with the jobs shown now where they are newer (or not in it yet). */
export function mergeNewer(list: StudioJob[], shown: StudioJob[]): StudioJob[] {
  const byId = new Map(shown.map((j) => [j.outputId, j]));
  const merged = list.map((l) => {
    const cur = byId.get(l.outputId);
    return cur && cur.updatedAt > l.updatedAt ? cur : l;
  });
  const listed = new Set(list.map((j) => j.outputId));
  return [...merged, ...shown.filter((j) => !listed.has(j.outputId))].sort((a, b) => b.createdAt - a.createdAt);
}

export const isActive = (job: StudioJob) => job.status === "submitting" || job.status === "processing";

export type OutputKind = "image" | "video" | "audio";

/** One output in the gallery: a render of this app's queue, or an entry of the account's library. */
export interface GalleryItem {
  /** The output token `<outputId>-<N>`: what references, cards and "Copy token" take. */
  token: string;
  outputId: string;
  url: string;
  kind: OutputKind;
  /** 1-based. */
  index: number;
  /** How many outputs its render has. */
  of: number;
  /** The tile's name: the prompt (or words, or board type), else the model. */
  label: string;
  /** The whole prompt or words, for the tooltip. */
  title: string;
  /** This app's render queue, or the account's library (made anywhere). */
  from: "local" | "library";
  /** When it was made (epoch ms): the tile says it beside the prompt. Null when the service did not say. */
  at: number | null;
}

/** When an output was made, as its tile says it: the time alone today, else the date and time (locale's own). */
export function madeAtLabel(at: number | null, now = Date.now()): string {
  if (at === null || !Number.isFinite(at)) return "";
  return formatWhen(at, now);
}

function kindFrom(type: string, url: string): OutputKind {
  if (type === "video" || type === "audio" || type === "image") return type;
  if (/\.(mp4|webm|mov)(\?|$)/i.test(url)) return "video";
  if (/\.(wav|mp3|ogg|m4a)(\?|$)/i.test(url)) return "audio";
  return "image";
}

/** The gallery items of a completed job, one per output. */
function jobItems(job: StudioJob): GalleryItem[] {
  const label = jobLabel(job);
  const title = job.form.prompt ?? job.form.text ?? "";
  return job.outputUrls.map((url, i) => ({
    token: outputToken(job.outputId, i + 1), outputId: job.outputId, url, kind: kindFrom(job.contentType, url), index: i + 1,
    of: job.outputUrls.length, label, title, from: "local" as const, at: job.completedAt ?? job.createdAt,
  }));
}

/** How a library entry is named: its prompt, its board type, its file, else its model. */
export function libraryLabel(m: MediaSummary): string {
  const words = m.prompt?.trim();
  if (words) return excerpt(words);
  if (m.kind === "board") return `${m.boardType ?? "Reference"} board`;
  if (m.fileName?.trim()) return excerpt(m.fileName.trim());
  const type = MEDIA.find((x) => x.id === m.type)?.label ?? "Render";
  return m.model ? `${type} with ${m.model}` : type;
}

/** The output token of a library entry (`variant` is 0-based). */
export const mediaToken = (m: MediaSummary) => outputToken(m.id, m.variant + 1);

/** A finished library entry as a gallery item; null while it has no file. */
export function libraryItem(m: MediaSummary): GalleryItem | null {
  if (m.status !== "completed" || !m.url) return null;
  return {
    token: mediaToken(m), outputId: m.id, url: m.url, kind: kindFrom(m.type, m.url), index: m.variant + 1,
    of: Math.max(1, m.generationSize ?? 1), label: libraryLabel(m), title: m.prompt ?? m.fileName ?? "", from: "library",
    at: m.createdAt ? Date.parse(m.createdAt) || null : null,
  };
}

/** Every output of the completed jobs (cleared ones too), newest job first; then the library's entries
 *  not shown already (by token), in the library's order (newest first). */
/**
 * The picture a reference chip shows: the referenced output's own image, as the gallery shows it (the
 * service's output), when the reference is an output token the gallery holds. A web address the user
 * typed is never loaded (no request leaves for a host nobody allowed): its chip shows the text only.
 */
export function thumbnailFor(reference: string, items: readonly GalleryItem[]): string | null {
  const token = parseOutputToken(reference.trim());
  if (!token) return null;
  const item = items.find((i) => i.token === token || (!/-\d+$/.test(reference.trim()) && i.outputId === token && i.index === 1));
  return item && item.kind === "image" ? item.url : null;
}

export function galleryItems(jobs: StudioJob[], library: MediaSummary[] = []): GalleryItem[] {
  const local = jobs.filter((j) => j.status === "completed").flatMap(jobItems);
  const seen = new Set(local.map((i) => i.token));
  const more: GalleryItem[] = [];
  for (const m of library) {
    const item = libraryItem(m);
    if (!item || seen.has(item.token)) continue;
    seen.add(item.token);
    more.push(item);
  }
  return [...local, ...more];
}

/** The library with a further page added at the end (entries already held are not added twice: pages
 *  shift when something new is made meanwhile). */
export function appendLibrary(shown: MediaSummary[], page: MediaSummary[]): MediaSummary[] {
  const held = new Set(shown.map(mediaToken));
  return [...shown, ...page.filter((m) => !held.has(mediaToken(m)))];
}

/** The library with what is new at the top of a fresh first page put in front; `added` says how many
 *  entries the pages below shifted by. With no entry in common, the page replaces the list (`replaced`). */
export function prependLibrary(shown: MediaSummary[], firstPage: MediaSummary[]): { list: MediaSummary[]; added: number; replaced: boolean } {
  const held = new Set(shown.map(mediaToken));
  const fresh = firstPage.filter((m) => !held.has(mediaToken(m)));
  if (shown.length && fresh.length === firstPage.length && firstPage.length) {
    return { list: firstPage, added: 0, replaced: true };
  }
  return { list: [...fresh, ...shown], added: fresh.length, replaced: false };
}

/** "12 s", "3 min 5 s". */
export function seconds(ms: number): string {
  const s = Math.max(0, Math.round(ms / 1000));
  if (s < 60) return `${s} s`;
  const m = Math.floor(s / 60);
  return s % 60 ? `${m} min ${s % 60} s` : `${m} min`;
}

/** The line under a job in the queue: how long it has run and when it is checked next. */
export function progressHint(job: StudioJob, now: number): string {
  if (isActive(job)) {
    const parts: string[] = [];
    if (job.status === "submitting") parts.push("Sending");
    if (job.nextPollAt) {
      const left = job.nextPollAt - now;
      parts.push(left > 500 ? `next check in ${seconds(left)}` : "checking now");
    }
    parts.push(`${seconds(now - job.createdAt)} elapsed`);
    return parts.join(" · ");
  }
  if (job.completedAt && job.status === "completed") return `Finished in ${seconds(job.completedAt - job.createdAt)}`;
  return "";
}

/** Where a render under way is, as the queue shows it: its stage, a line of detail, and how far along it is
 *  (0..1) when this model's render time was learned (this computer's renders, else the library's). */
export interface Stage { name: "Waiting to send" | "Queued" | "Rendering"; detail: string; fraction: number | null }

/** How far the bar goes before the render is done: never full while it is not. */
const BAR_CAP = 0.95;

export function stageOf(job: StudioJob, now: number): Stage | null {
  if (!isActive(job)) return null;
  const elapsed = Math.max(0, now - job.createdAt);
  // `submitting`: the request is out (the service renders while it holds it, up to its smart-wait) or,
  // with an error, waiting to go out again; `processing`: the service said it is rendering.
  const name = job.status === "submitting" ? (job.error ? "Waiting to send" : "Queued") : "Rendering";
  const expected = job.expectedMs ?? null;
  if (!expected || expected <= 0) {
    return { name, detail: `${seconds(elapsed)} so far · no estimate yet for this model`, fraction: null };
  }
  const left = expected - elapsed;
  const detail = left > 1000
    ? `about ${seconds(left)} left of ~${seconds(expected)}`
    : `taking longer than usual (~${seconds(expected)})`;
  return { name, detail, fraction: Math.min(BAR_CAP, elapsed / expected) };
}

export const STATUS_LABEL: Record<StudioJob["status"], string> = {
  submitting: "Sending", processing: "Rendering", completed: "Done", failed: "Failed", cancelled: "Stopped waiting",
  abandoned: "Dropped by the service",
};

/** "1 credit", "12.5 credits". */
export function credits(n: number): string {
  const v = Number.isInteger(n) ? n.toLocaleString() : n.toLocaleString(undefined, { maximumFractionDigits: 2 });
  return `${v} ${n === 1 ? "credit" : "credits"}`;
}
