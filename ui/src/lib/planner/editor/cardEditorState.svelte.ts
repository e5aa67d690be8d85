// The card editor's state and what changes it: the card as read, the draft the user edits, what is
// saved or kept, the notes conflict, the posts, tags, assets, cover and schedule, publishing and
// archiving. Rules the service answers with 400 are checked first (cardRules.ts). `CardEditor.svelte`
// shows this and keeps only the view's own: the panel, focus, the confirmations.
import { tick } from "svelte";
import type { CardSummary, IpcError } from "../../bindings";
import { toIpcError } from "../../shared/backend";
import { noteQueued } from "../../drafts/drafts.svelte";
import { errorMessage } from "../../shared/errors";
import {
  PLATFORMS, buildUpdate, draftFromCard, isDirty, isHttpUrl, moveItem, validateAssets, validateDraft,
  withCaption, type AssetShown, type Cover, type Draft, type DraftAsset, type FieldError,
} from "./cardRules";
import { editorApi } from "./editorApi";
import { isoToLocalInput, localInputToIso, localTimeZone } from "./localTime";
import { formatDateTime } from "../../shared/datetime";
import type { CardAssetInput, CardDetail, ConnectedAccount, PostInput, ProjectCreated, PublishResult, Tag } from "./wire";

/** What the editor asks of its view: tell the board, show a field's error at its control, move focus. */
export interface EditorHooks {
  onchanged(card: CardSummary): void;
  showFieldError(problem: FieldError): Promise<void>;
  /** Focus the element with this id, once it is on screen. */
  focus(id: string): void;
  /** Scroll the element this selector finds into view. */
  reveal(selector: string): void;
}

export function createCardEditor(cardId: string, hooks: EditorHooks) {
  const timeZone = localTimeZone();

  let card = $state<CardDetail | null>(null);
  let draft = $state<Draft | null>(null);
  /** The revision notes are written against: the card's, or theirs once a conflict is resolved. */
  let revision = $state(0);
  let loadError = $state<IpcError | null>(null);
  let listsError = $state<IpcError | null>(null);
  let saveError = $state<IpcError | null>(null);
  /** The core kept the save on this computer (the service did not answer): said, nothing closed or lost. */
  let kept = $state("");
  /** The draft as the core kept it (a `queued` save): closing with just that loses nothing. */
  let keptSnapshot = $state("");
  let fieldError = $state<FieldError | null>(null);
  let tags = $state<Tag[]>([]);
  let accounts = $state<ConnectedAccount[]>([]);
  let saving = $state(false);
  let notice = $state("");
  let conflict = $state<{ theirs: string; revision: number } | null>(null);
  let merged = $state("");
  let publishing = $state(false);
  let publishResult = $state<PublishResult | null>(null);
  let publishError = $state<IpcError | null>(null);
  let archiving = $state(false);
  let newTag = $state("");
  let newPlatform = $state("");
  let newKeySeq = 0;

  const dirty = $derived(card !== null && draft !== null && (isDirty(card, draft) || conflict !== null));
  /** Changes not saved anywhere: not on the service and not kept on this computer. */
  const unsaved = $derived(dirty && !(keptSnapshot !== "" && JSON.stringify(draft) === keptSnapshot));
  const usedPlatforms = $derived(new Set(draft?.posts.map((p) => p.platform) ?? []));
  const freePlatforms = $derived(PLATFORMS.filter((p) => !usedPlatforms.has(p)));


  async function load() {
    loadError = null;
    // All three at once; the card shows when its lists are there too (no account select that fills late).
    const [c, t, a] = await Promise.allSettled([
      editorApi.cardGet(cardId), editorApi.tagsList(), editorApi.connectedAccountsList(),
    ]);
    if (t.status === "fulfilled") tags = t.value;
    if (a.status === "fulfilled") accounts = a.value;
    const failed = [t, a].find((r) => r.status === "rejected");
    listsError = failed && failed.status === "rejected" ? toIpcError(failed.reason) : null;
    if (c.status === "fulfilled") setCard(c.value);
    else loadError = toIpcError(c.reason);
  }

  function setCard(read: CardDetail) {
    card = read;
    revision = read.revision;
    draft = draftFromCard(read);
  }

  function summaryOf(c: CardDetail): CardSummary {
    return {
      id: c.id, title: c.title, platform: c.platform, spaceId: c.spaceId, stageId: c.stageId, boardOrder: c.boardOrder,
      contentType: c.contentType, coverUrl: c.coverUrl, isFavorite: c.isFavorite, archivedAt: c.archivedAt,
      isArchived: c.isArchived, scheduledAt: c.scheduledAt, publishedAt: c.publishedAt, publishUrl: c.publishUrl,
      createdAt: c.createdAt, updatedAt: c.updatedAt, platforms: [...c.platforms], tags: [...c.tags],
    };
  }

  // ---------- errors on fields ----------

  /** The service may name a field in snake_case; the editor's fields are camelCase. */
  function normalizeField(field: string): string {
    return field.replace(/_([a-z])/g, (_m, c: string) => c.toUpperCase());
  }

  function errorFor(...fields: string[]): string | null {
    return fieldError && fields.includes(fieldError.field) ? fieldError.message : null;
  }

  function postError(i: number): string | null {
    return fieldError && fieldError.field.startsWith(`posts[${i}]`) ? fieldError.message : null;
  }

  const assetsError = $derived(fieldError && /^assets(\[|$)/.test(fieldError.field) ? fieldError : null);

  const PLACED = /^(title|notes|coverUrl|coverOutputId|cover|scheduledAt|tags|posts|posts\[\d+\].*|assets|assets\[\d+\].*)$/;


  // ---------- save ----------

  async function save() {
    if (!card || !draft || saving) return;
    saveError = null;
    kept = "";
    notice = "";
    const problem = validateDraft(card, draft);
    if (problem) {
      await hooks.showFieldError(problem);
      return;
    }
    fieldError = null;
    const update = buildUpdate(card, draft, revision);
    if (Object.keys(update).length === 0) {
      notice = "Nothing to save.";
      return;
    }
    saving = true;
    let err: IpcError | null = null;
    try {
      const read = await editorApi.cardUpdate(cardId, update);
      setCard(read);
      conflict = null;
      keptSnapshot = "";
      notice = "Saved.";
      hooks.onchanged(summaryOf(read));
    } catch (e) {
      err = toIpcError(e);
    } finally {
      saving = false;
    }
    if (!err) return;
    if (err.code === "notesConflict") {
      conflict = { theirs: err.notes ?? "", revision: err.revision ?? revision };
      merged = mergeProposal(draft.notes, conflict.theirs);
      // The conflict's first choice takes focus when it appears (shared/ConflictChoice.svelte).
    } else if (err.code === "queued") {
      kept = err.message;
      keptSnapshot = JSON.stringify(draft);
      noteQueued();
      await tick();
      hooks.reveal('[data-testid="card-save-kept"]');
    } else if (err.code === "validation" && err.field && PLACED.test(normalizeField(err.field))) {
      await hooks.showFieldError({ field: normalizeField(err.field), message: errorMessage(err) });
    } else {
      saveError = err;
    }
  }

  // ---------- notes conflict ----------

  function mergeProposal(mine: string, theirs: string): string {
    if (mine === theirs) return mine;
    return [theirs.trimEnd(), mine.trimEnd()].filter(Boolean).join("\n\n");
  }

  /** From now on notes are written against their revision, compared against their text. */
  function adoptTheirs() {
    if (!card || !conflict) return;
    card = { ...card, notes: conflict.theirs, revision: conflict.revision };
    revision = conflict.revision;
  }

  function useTheirs() {
    if (!draft || !conflict) return;
    draft.notes = conflict.theirs;
    adoptTheirs();
    conflict = null;
    notice = "Their notes are in the editor; your other changes are still unsaved.";
  }

  function keepMine() {
    adoptTheirs();
    conflict = null;
    void save();
  }

  function useMerged() {
    if (!draft) return;
    draft.notes = merged;
    adoptTheirs();
    conflict = null;
    void save();
  }

  // ---------- cover ----------

  function coverPreview(cover: Cover, assets: DraftAsset[]): string | null {
    if (cover.kind === "url") return isHttpUrl(cover.url) ? cover.url : null;
    if (cover.kind === "output") {
      const a = assets.find((x) => (x.asset?.outputId ?? x.input.outputId) === cover.outputId);
      return a?.asset?.previewUrl ?? null;
    }
    return null;
  }

  /** Assets that can be a cover: an output (written as coverOutputId) or anything with a picture URL. */
  const coverChoices = $derived(
    (draft?.assets ?? []).flatMap((a): Array<{ key: string; label: string; cover: Cover }> => {
      const outputId = a.asset?.outputId ?? a.input.outputId;
      const label = a.asset?.displayName ?? a.label ?? a.input.displayName ?? a.input.assetUrl ?? outputId ?? a.asset?.assetUrl ?? "Asset";
      if (outputId) return [{ key: a.key, label, cover: { kind: "output", outputId } }];
      const url = a.asset?.previewUrl ?? a.asset?.inspiration?.thumbnailUrl;
      return url ? [{ key: a.key, label, cover: { kind: "url", url } }] : [];
    }),
  );

  function chooseCover(key: string) {
    if (!draft) return;
    const choice = coverChoices.find((c) => c.key === key);
    if (choice) draft.cover = choice.cover;
  }

  function setCoverUrl(value: string) {
    if (!draft) return;
    draft.cover = value.trim() === "" ? { kind: "none" } : { kind: "url", url: value };
  }

  // ---------- schedule ----------

  function setCardTime(value: string) {
    if (!draft) return;
    draft.scheduledAt = value === "" ? null : (localInputToIso(value, timeZone) ?? draft.scheduledAt);
  }

  function setPostOwnTime(i: number, own: boolean) {
    if (!draft) return;
    const p = { ...draft.posts[i] };
    if (own) p.scheduledAt = draft.scheduledAt ?? new Date(Math.ceil(Date.now() / 3_600_000) * 3_600_000).toISOString();
    else delete p.scheduledAt;
    draft.posts[i] = p;
  }

  function setPostTime(i: number, value: string) {
    if (!draft) return;
    const iso = localInputToIso(value, timeZone);
    if (iso) draft.posts[i] = { ...draft.posts[i], scheduledAt: iso };
  }

  /** A time in the app's one date-and-time style, in the editor's zone ("Nov 28, 2026, 09:00"). */
  function formatLocal(iso: string | null | undefined): string {
    if (!iso) return "not scheduled";
    return formatDateTime(iso, { timeZone }) || iso;
  }

  // ---------- posts ----------

  function accountsFor(platform: string): ConnectedAccount[] {
    return accounts.filter((a) => a.platform === platform);
  }

  function accountLabel(a: ConnectedAccount): string {
    const name = a.accountName ?? a.accountHandle ?? a.id;
    const status = a.connectionStatus && a.connectionStatus !== "active" && a.connectionStatus !== "connected" ? ` (${a.connectionStatus})` : "";
    return `${name}${a.accountHandle && a.accountName ? ` @${a.accountHandle.replace(/^@/, "")}` : ""}${status}`;
  }

  function setAccount(i: number, id: string) {
    if (!draft) return;
    const p: PostInput = { ...draft.posts[i] };
    if (id) p.connectedAccountId = id;
    else delete p.connectedAccountId;
    draft.posts[i] = p;
  }

  function setCaption(i: number, caption: string) {
    if (draft) draft.posts[i] = withCaption(draft.posts[i], caption);
  }

  function addPost() {
    if (!draft || !newPlatform || usedPlatforms.has(newPlatform)) return;
    const platform = newPlatform;
    const only = accountsFor(platform);
    const preferred = only.find((a) => a.isDefault) ?? (only.length === 1 ? only[0] : undefined);
    draft.posts.push(preferred ? { platform, connectedAccountId: preferred.id } : { platform });
    newPlatform = "";
    void tick().then(() => hooks.focus(`post-${draft!.posts.length - 1}-account`));
  }

  function removePost(i: number) {
    if (!draft) return;
    draft.posts.splice(i, 1);
    if (fieldError?.field.startsWith("posts")) fieldError = null;
  }

  // ---------- tags ----------

  function addTag(e?: Event) {
    e?.preventDefault();
    if (!draft) return;
    const name = newTag.trim();
    if (!name) return;
    const known = tags.find((t) => t.name.toLowerCase() === name.toLowerCase());
    const value = known?.name ?? name;
    if (!draft.tags.some((t) => t.toLowerCase() === value.toLowerCase())) draft.tags.push(value);
    newTag = "";
  }

  function removeTag(name: string) {
    if (draft) draft.tags = draft.tags.filter((t) => t !== name);
  }

  // ---------- assets ----------

  function moveAsset(from: number, to: number) {
    if (!draft) return;
    draft.assets = moveItem(draft.assets, from, to);
    if (assetsError) fieldError = null;
  }

  function removeAsset(index: number) {
    if (!draft) return;
    const [gone] = draft.assets.splice(index, 1);
    const goneOutput = gone?.asset?.outputId ?? gone?.input.outputId;
    if (goneOutput && draft.cover.kind === "output" && draft.cover.outputId === goneOutput && !gone.asset) {
      draft.cover = card?.coverUrl ? { kind: "url", url: card.coverUrl } : { kind: "none" };
    }
    if (assetsError) fieldError = null;
  }

  function addAsset(input: CardAssetInput, shown: AssetShown = {}): FieldError | null {
    if (!draft || !card) return null;
    const next = [...draft.assets.map((a) => a.input), input];
    const problem = validateAssets(next, card.assets);
    // Said by the input that adds it, so "assets[3] repeats …" reads as "This repeats …".
    if (problem) return { field: problem.field, message: problem.message.replace(/^assets\[\d+\]:? ?/, "This ") };
    draft.assets.push({ key: `new-${++newKeySeq}`, input, asset: null, ...shown });
    return null;
  }

  /**
   * A project created linked to this card is on the card already (the service added it): read the card's
   * assets back and keep the new one at the end of both the card as read and the draft, so the draft's
   * other changes stay and the link is not sent twice.
   */
  async function projectLinked(created: ProjectCreated) {
    if (!card || !draft) return;
    try {
      const read = await editorApi.cardGet(cardId);
      const known = new Set(card.assets.map((a) => a.id));
      const fresh = read.assets.filter((a) => !known.has(a.id));
      card = { ...card, assets: [...card.assets, ...fresh], updatedAt: read.updatedAt };
      draft.assets.push(...fresh.map((a) => ({ key: a.id, input: { id: a.id }, asset: a })));
      hooks.onchanged(summaryOf(card));
    } catch (e) {
      saveError = toIpcError(e);
    }
    void created;
  }

  // ---------- publish ----------

  const savedPlatforms = $derived((card?.posts ?? []).map((p) => p.platform).filter((p): p is string => !!p));

  async function publish() {
    if (!card || publishing) return;
    publishing = true;
    publishError = null;
    publishResult = null;
    try {
      publishResult = await editorApi.cardPublish(cardId);
      // The card now has its publish time and URL: read it back (the draft stays when it has changes).
      const read = await editorApi.cardGet(cardId).catch(() => null);
      if (read) {
        if (dirty) card = { ...card, publishedAt: read.publishedAt, publishUrl: read.publishUrl, updatedAt: read.updatedAt, posts: read.posts };
        else setCard(read);
        hooks.onchanged(summaryOf(read));
      }
    } catch (e) {
      publishError = toIpcError(e);
    } finally {
      publishing = false;
    }
  }

  // ---------- closing, archiving, keyboard ----------


  async function archive(): Promise<boolean> {
    if (!card) return false;
    archiving = true;
    try {
      await editorApi.cardArchive(cardId, true, { updatedAt: card.updatedAt, title: card.title });
      hooks.onchanged({ ...summaryOf(card), isArchived: true, archivedAt: new Date().toISOString() });
      return true;
    } catch (e) {
      // Kept offline by the core: archived here, on the service when it answers.
      if (toIpcError(e).code === "queued") {
        noteQueued();
        hooks.onchanged({ ...summaryOf(card), isArchived: true, archivedAt: new Date().toISOString() });
        return true;
      }
      saveError = toIpcError(e);
      return false;
    } finally {
      archiving = false;
    }
  }

  return {
    timeZone,
    get card() { return card; },
    set card(v) { card = v; },
    get draft() { return draft; },
    set draft(v) { draft = v; },
    get revision() { return revision; },
    get loadError() { return loadError; },
    get listsError() { return listsError; },
    get saveError() { return saveError; },
    set saveError(v) { saveError = v; },
    get kept() { return kept; },
    set kept(v) { kept = v; },
    get keptSnapshot() { return keptSnapshot; },
    get fieldError() { return fieldError; },
    set fieldError(v) { fieldError = v; },
    get tags() { return tags; },
    get accounts() { return accounts; },
    get saving() { return saving; },
    get notice() { return notice; },
    set notice(v) { notice = v; },
    get conflict() { return conflict; },
    get merged() { return merged; },
    set merged(v) { merged = v; },
    get publishing() { return publishing; },
    get publishResult() { return publishResult; },
    get publishError() { return publishError; },
    get archiving() { return archiving; },
    get newTag() { return newTag; },
    set newTag(v) { newTag = v; },
    get newPlatform() { return newPlatform; },
    set newPlatform(v) { newPlatform = v; },
    get dirty() { return dirty; },
    get unsaved() { return unsaved; },
    get usedPlatforms() { return usedPlatforms; },
    get freePlatforms() { return freePlatforms; },
    get assetsError() { return assetsError; },
    get coverChoices() { return coverChoices; },
    get savedPlatforms() { return savedPlatforms; },
    load,
    setCard,
    summaryOf,
    normalizeField,
    errorFor,
    postError,
    save,
    mergeProposal,
    adoptTheirs,
    useTheirs,
    keepMine,
    useMerged,
    coverPreview,
    chooseCover,
    setCoverUrl,
    setCardTime,
    setPostOwnTime,
    setPostTime,
    formatLocal,
    accountsFor,
    accountLabel,
    setAccount,
    setCaption,
    addPost,
    removePost,
    addTag,
    removeTag,
    moveAsset,
    removeAsset,
    addAsset,
    projectLinked,
    publish,
    archive,
  };
}

export type CardEditorState = ReturnType<typeof createCardEditor>;
