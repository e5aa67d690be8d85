// The studio form's state, shared by the form and the gallery ("Use as reference", "Use as start
// frame"): the values the user typed, the model chosen per media type, and the registry's models and
// voices as this page loaded them.
import type { ContentType, IpcError, ModelInfo, StudioForm, StudioMedia, Voice } from "../bindings";
import { api, toIpcError } from "../shared/backend";
import {
  buildForm, capsOf, contentTypeOf, defaultModel, emptyValues, fieldsOf, formProblem, modelsFor,
  type Fields, type OutputKind, type Problem, type Values,
} from "./studioRules";

export class StudioDraft {
  values: Values = $state(emptyValues());
  /** The model the user chose for each media type (absent: the registry's default). */
  chosen: Partial<Record<StudioMedia, string>> = $state({});
  models: Partial<Record<ContentType, ModelInfo[]>> = $state({});
  modelsError: IpcError | null = $state(null);
  modelsLoading = $state(false);
  voices: Voice[] | null = $state(null);
  voicesError: IpcError | null = $state(null);

  private modelRequest = 0;
  private voiceRequest = 0;

  /** Every model loaded so far (for labels in the queue). */
  get allModels(): ModelInfo[] {
    return Object.values(this.models).flat();
  }

  get media(): StudioMedia {
    return this.values.media;
  }

  /** The models the current media type offers; null while they load. */
  get offered(): ModelInfo[] | null {
    const ct = contentTypeOf(this.values.media, this.values.upscaleOf);
    if (!ct) return [];
    const list = this.models[ct];
    return list ? modelsFor(this.values.media, list) : null;
  }

  get model(): ModelInfo | null {
    const list = this.offered ?? [];
    const chosen = list.find((m) => m.modelId === this.chosen[this.values.media]);
    if (chosen) return chosen;
    // A start frame taken from the gallery needs a model that takes one.
    const needsStart = this.values.media === "video" && this.values.startFrame;
    return defaultModel(list, needsStart ? (m) => m.capabilities.startFrame : undefined);
  }

  get fields(): Fields {
    return fieldsOf(this.values.media, capsOf(this.values.media, this.model));
  }

  get form(): StudioForm | null {
    return buildForm(this.values, this.model);
  }

  get problem(): Problem | null {
    return formProblem(this.values, this.model);
  }

  setMedia(media: StudioMedia) {
    this.values.media = media;
    // A failure to list one content type's models says nothing about another's.
    this.modelsError = null;
  }

  chooseModel(modelId: string) {
    this.chosen = { ...this.chosen, [this.values.media]: modelId };
  }

  /** Loads the current media type's models unless this page has them (`refresh`: ask again). */
  async loadModels(refresh = false) {
    const ct = contentTypeOf(this.values.media, this.values.upscaleOf);
    if (!ct || (this.models[ct] && !refresh)) return;
    const mine = ++this.modelRequest;
    this.modelsLoading = true;
    this.modelsError = null;
    try {
      const list = await api.modelsList(ct, refresh);
      if (mine === this.modelRequest) this.models = { ...this.models, [ct]: list };
    } catch (e) {
      if (mine === this.modelRequest) this.modelsError = toIpcError(e);
    } finally {
      if (mine === this.modelRequest) this.modelsLoading = false;
    }
  }

  async loadVoices() {
    if (this.voices) return;
    const mine = ++this.voiceRequest;
    this.voicesError = null;
    try {
      const voices = await api.voicesList();
      if (mine !== this.voiceRequest) return;
      this.voices = voices;
      if (!this.values.voiceId) this.values.voiceId = (voices.find((v) => v.isFavorited) ?? voices[0])?.voiceId ?? "";
    } catch (e) {
      if (mine === this.voiceRequest) this.voicesError = toIpcError(e);
    }
  }

  /** Another profile: its registry may differ. */
  reset() {
    this.modelRequest++;
    this.voiceRequest++;
    this.models = {};
    this.voices = null;
    this.modelsError = null;
    this.voicesError = null;
    this.modelsLoading = false;
    this.chosen = {};
  }

  /** An output as a reference of the current form; answers what was done (or why not). */
  useAsReference(token: string, kind: OutputKind): string {
    const f = this.fields;
    const v = this.values;
    if (kind === "audio") {
      if (!f.audioReference) return "The chosen model takes no audio reference.";
      v.audio = token;
      return "Set as the audio reference.";
    }
    if (kind !== "image") return "A video cannot be a reference here; use an image output.";
    if (v.media === "video" && f.startFrame) {
      v.startFrame = token;
      return "Set as the start frame.";
    }
    if (f.maxReferenceImages === 0) return "The chosen model takes no reference images.";
    if (v.images.includes(token)) return "Already a reference image.";
    if (v.images.length >= f.maxReferenceImages) {
      if (f.maxReferenceImages === 1) {
        v.images = [token];
        return "Replaced the reference image.";
      }
      return `This model takes at most ${f.maxReferenceImages} reference images; remove one first.`;
    }
    v.images = [...v.images, token];
    return `Added as reference image ${v.images.length} of ${f.maxReferenceImages}.`;
  }

  /** An image output as the start frame of a video: the form switches to Video and keeps the prompt. */
  useAsStartFrame(token: string): string {
    this.setMedia("video");
    this.values.startFrame = token;
    const current = this.model;
    if (current && !current.capabilities.startFrame) {
      const other = (this.offered ?? []).find((m) => m.capabilities.startFrame);
      if (other) this.chooseModel(other.modelId);
    }
    return "The form is now a video starting from this image.";
  }
}

let kept: { draft: StudioDraft; epoch: number } | null = null;

/**
 * The form as the user left it: it survives leaving the Studio view and coming back (the draft lives
 * beside the module, not the component), but not a change of profile or key (`epoch`).
 */
export function keptDraft(epoch: number): StudioDraft {
  if (!kept || kept.epoch !== epoch) kept = { draft: new StudioDraft(), epoch };
  return kept.draft;
}

/** Tests: the next Studio starts with an empty form. */
export function forgetKeptDraft(): void {
  kept = null;
}
