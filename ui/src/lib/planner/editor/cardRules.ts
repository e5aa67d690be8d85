// The card editor's model and the spec §4 card rules, checked before anything is sent (mirrors
// crates/api-client/src/card_edit.rs). `posts` and `assets` are declarative: every write sends the whole
// desired list, and what is left out is removed; the order of `assets` is the carousel order.
import type { CardAsset, CardAssetInput, CardDetail, JsonValue, Post, PostInput, UpdateCard } from "./wire";
import { PLATFORMS } from "../../bindings/valueLists";

/** The platforms a post can publish to, generated from api-types `PLATFORMS`. */
export { PLATFORMS };

export type FieldError = { field: string; message: string };

/**
 * One entry of the carousel: what is sent, and the asset as read when it is an existing one. A new entry
 * may carry what the picker showed (`label`, `preview`) until the card is read back; neither is sent.
 */
export type DraftAsset = { key: string; input: CardAssetInput; asset: CardAsset | null; label?: string; preview?: string | null };

/** What a picker knows of a new entry, to show it before the card is read back. */
export type AssetShown = { label?: string; preview?: string | null };

/** The largest file the editor uploads (the core's `MAX_UPLOAD_BYTES`, crates/core/src/attach.rs). */
export const MAX_UPLOAD_BYTES = 50 * 1024 * 1024;

/** Whether a file can be uploaded to media (the core's rule): image, video or audio, not empty, at most 50 MB. */
export function uploadProblem(file: { name: string; type: string; size: number }): string | null {
  if (!/^(image|video|audio)\/[^/]+$/.test(file.type)) {
    return `${file.name}: only images, videos and audio can be uploaded${file.type ? ` (this is ${file.type})` : ""}.`;
  }
  if (file.size === 0) return `${file.name} is empty.`;
  if (file.size > MAX_UPLOAD_BYTES) return `${file.name} is larger than the upload limit of 50 MB.`;
  return null;
}

/** Where the cover comes from: nothing, a URL, or a generation output (written as `coverOutputId`). */
export type Cover = { kind: "none" } | { kind: "url"; url: string } | { kind: "output"; outputId: string };

export interface Draft {
  title: string;
  notes: string;
  cover: Cover;
  /** The card's time, ISO UTC, or null. */
  scheduledAt: string | null;
  tags: string[];
  posts: PostInput[];
  assets: DraftAsset[];
}

/**
 * The input that keeps a post as it was read from a card whose time is `cardScheduledAt` (api-types
 * `PostInput::from_post`); null without a platform. The service returns each post's effective time and no
 * flag: a time that differs from the card's is the post's own and is sent back; one equal to the card's is
 * left out, so the post follows the card (also when this edit moves the card's time).
 */
export function postInputFromPost(post: Post, cardScheduledAt: string | null): PostInput | null {
  if (!post.platform) return null;
  const out: PostInput = { platform: post.platform };
  if (post.format != null) out.format = post.format;
  if (post.connectedAccountId != null) out.connectedAccountId = post.connectedAccountId;
  if (post.scheduledAt != null && !sameInstant(post.scheduledAt, cardScheduledAt)) out.scheduledAt = post.scheduledAt;
  if (post.platformSettings != null) out.platformSpecificData = post.platformSettings;
  if (post.status != null) out.status = post.status;
  return out;
}

function sameInstant(a: string, b: string | null): boolean {
  if (b == null) return false;
  const ta = Date.parse(a), tb = Date.parse(b);
  return Number.isNaN(ta) || Number.isNaN(tb) ? a === b : ta === tb;
}

export function draftFromCard(card: CardDetail): Draft {
  return {
    title: card.title,
    notes: card.notes ?? "",
    cover: card.coverUrl ? { kind: "url", url: card.coverUrl } : { kind: "none" },
    scheduledAt: card.scheduledAt,
    tags: [...card.tags],
    posts: card.posts.map((p) => postInputFromPost(p, card.scheduledAt)).filter((p): p is PostInput => p !== null),
    assets: card.assets.map((a) => ({ key: a.id, input: { id: a.id }, asset: a })),
  };
}

/** Moves the entry at `from` to `to`; out-of-range indices change nothing (returns a new list). */
export function moveItem<T>(list: readonly T[], from: number, to: number): T[] {
  const out = [...list];
  if (from < 0 || to < 0 || from >= out.length || to >= out.length || from === to) return out;
  const [entry] = out.splice(from, 1);
  out.splice(to, 0, entry);
  return out;
}

export function isHttpUrl(value: string): boolean {
  const v = value.trim();
  if (!/^https?:\/\//i.test(v)) return false;
  try {
    const u = new URL(v);
    return (u.protocol === "http:" || u.protocol === "https:") && u.hostname.length > 0;
  } catch {
    return false;
  }
}

const UUID = "[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}";
const UUID_TOKEN = new RegExp(`^${UUID}(?:-[1-9]\\d*)?$`, "i");
/** The uuid's first 8 characters, or the newest era's 8-character `shortId` (letters and digits). */
const SHORT_TOKEN = /^[0-9a-z]{8}(?:-[1-9]\d*)?$/i;

/**
 * A generation output token, trimmed; null if not one (the cases are crates/api-types/fixtures/
 * output-tokens.json, shared with the core's check): `<uuid>` or `<uuid>-<N>` (variation N ≥ 1), lower-cased,
 * or an 8-character short form, optionally `-<N>`, kept as typed (a `shortId` is case-sensitive).
 */
export function parseOutputToken(value: string): string | null {
  const v = value.trim();
  if (UUID_TOKEN.test(v)) return v.toLowerCase();
  return SHORT_TOKEN.test(v) ? v : null;
}

const REFERENCE_FIELDS = ["id", "outputId", "assetUrl", "contentId", "projectId"] as const;
type ReferenceField = (typeof REFERENCE_FIELDS)[number];

/** The references an entry names, as [field, value]; `id` counts as one (keep). */
export function references(entry: CardAssetInput): Array<[ReferenceField, string]> {
  const out: Array<[ReferenceField, string]> = [];
  for (const f of REFERENCE_FIELDS) {
    const v = entry[f];
    if (typeof v === "string") out.push([f, v]); // null or absent names nothing
  }
  return out;
}

/** What an asset on the card points at, under the input field that would attach it again. */
export function pointedAt(asset: CardAsset): Array<[ReferenceField, string]> {
  const out: Array<[ReferenceField, string]> = [];
  if (asset.outputId) out.push(["outputId", asset.outputId]);
  // a file asset may carry its URL too; only a link is attached by URL
  if (asset.assetUrl && !asset.outputId) out.push(["assetUrl", asset.assetUrl]);
  const contentId = asset.contentId ?? (asset.assetType === "inspiration" ? asset.assetId : null);
  if (contentId) out.push(["contentId", contentId]);
  if (asset.projectId) out.push(["projectId", asset.projectId]);
  return out;
}

/**
 * The 400 rules for `assets`: each entry names exactly one reference; nothing (asset id, output, link,
 * inspiration post, project — counting what kept entries point at) appears twice; an inspiration is
 * attached by `contentId`, never by `assetUrl`. The error names the entry, e.g. `assets[2]`.
 */
export function validateAssets(assets: readonly CardAssetInput[], existing: readonly CardAsset[]): FieldError | null {
  const byId = new Map(existing.map((a) => [a.id, a]));
  const seen = new Set<string>();
  for (const [i, entry] of assets.entries()) {
    const field = `assets[${i}]`;
    const refs = references(entry);
    if (refs.length === 0) {
      return { field, message: `assets[${i}] names no reference: give one of \`id\`, \`outputId\`, \`assetUrl\`, \`contentId\`, \`projectId\`` };
    }
    if (refs.length > 1) {
      return { field, message: `assets[${i}] names ${refs.length} references (${refs.map(([f]) => f).join(", ")}); give exactly one` };
    }
    if (entry.assetType === "inspiration" && entry.assetUrl != null) {
      return { field, message: `assets[${i}]: attach an inspiration post by \`contentId\`, not by \`assetUrl\`` };
    }
    const [kind, value] = refs[0];
    const names: Array<[string, string]> = [[kind, value]];
    if (kind === "id") {
      const asset = byId.get(value);
      if (asset) names.push(...pointedAt(asset));
    }
    for (const [k, v] of names) {
      const key = `${k}\u0000${v}`;
      if (seen.has(key)) return { field, message: `assets[${i}] repeats ${k} \`${v}\`; each may appear once` };
      seen.add(key);
    }
  }
  return null;
}

/** One post per platform, and a known platform. The error names the entry, e.g. `posts[1]`. */
export function validatePosts(posts: readonly PostInput[]): FieldError | null {
  const seen = new Set<string>();
  for (const [i, post] of posts.entries()) {
    if (!(PLATFORMS as readonly string[]).includes(post.platform)) {
      return { field: `posts[${i}]`, message: `posts[${i}]: unknown platform \`${post.platform}\`; use one of ${PLATFORMS.join(", ")}` };
    }
    if (seen.has(post.platform)) {
      return { field: `posts[${i}]`, message: `posts[${i}] repeats platform \`${post.platform}\`; a card has one post per platform` };
    }
    seen.add(post.platform);
  }
  return null;
}

/** The caption in a post's platform data ("" when none). */
export function captionOf(post: PostInput): string {
  const data = post.platformSpecificData;
  if (data && typeof data === "object" && !Array.isArray(data) && typeof data.caption === "string") return data.caption;
  return "";
}

/** The post with `caption` set in its platform data, other settings kept; an empty caption is dropped. */
export function withCaption(post: PostInput, caption: string): PostInput {
  const data = post.platformSpecificData;
  const base: { [key: string]: JsonValue } =
    data && typeof data === "object" && !Array.isArray(data) ? { ...data } : {};
  if (caption === "") delete base.caption;
  else base.caption = caption;
  const out: PostInput = { ...post };
  if (Object.keys(base).length === 0) delete out.platformSpecificData;
  else out.platformSpecificData = base;
  return out;
}

/** JSON with object keys sorted, so two lists compare by content. */
export function stableJson(value: unknown): string {
  return JSON.stringify(value, (_k, v: unknown) =>
    v && typeof v === "object" && !Array.isArray(v)
      ? Object.fromEntries(Object.entries(v as Record<string, unknown>).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)))
      : v,
  );
}

function coverChange(card: CardDetail, cover: Cover): Pick<UpdateCard, "coverUrl" | "coverOutputId"> {
  if (cover.kind === "none") return card.coverUrl != null ? { coverUrl: null } : {};
  if (cover.kind === "url") return cover.url.trim() !== (card.coverUrl ?? "") ? { coverUrl: cover.url.trim() } : {};
  return { coverOutputId: cover.outputId };
}

function sameTags(a: readonly string[], b: readonly string[]): boolean {
  return a.length === b.length && a.every((t, i) => t === b[i]);
}

/**
 * The `UpdateCard` that turns `card` (as read) into `draft`: title, notes (with `expectedRevision` =
 * `revision`), cover, schedule and tags only when changed, and the whole `posts` / `assets` lists only
 * when they changed. `{}` means nothing to save.
 */
export function buildUpdate(card: CardDetail, draft: Draft, revision: number = card.revision): UpdateCard {
  const update: UpdateCard = {};
  if (draft.title.trim() !== card.title) update.title = draft.title.trim();
  if (draft.notes !== (card.notes ?? "")) {
    update.notes = draft.notes;
    update.expectedRevision = revision;
  }
  Object.assign(update, coverChange(card, draft.cover));
  if ((draft.scheduledAt ?? null) !== (card.scheduledAt ?? null)
    && !(draft.scheduledAt && card.scheduledAt && Date.parse(draft.scheduledAt) === Date.parse(card.scheduledAt))) {
    update.scheduledAt = draft.scheduledAt;
  }
  if (!sameTags(draft.tags, card.tags)) update.tags = [...draft.tags];
  const original = draftFromCard(card);
  if (stableJson(draft.posts) !== stableJson(original.posts)) update.posts = draft.posts.map((p) => ({ ...p }));
  const inputs = draft.assets.map((a) => a.input);
  if (stableJson(inputs) !== stableJson(original.assets.map((a) => a.input))) update.assets = inputs.map((a) => ({ ...a }));
  return update;
}

/** Every rule checked before sending; the first error names its field (`title`, `coverUrl`, `posts[1]`, `assets[2]`…). */
export function validateDraft(card: CardDetail, draft: Draft): FieldError | null {
  if (draft.title.trim() === "") return { field: "title", message: "Give the card a title." };
  if (draft.title.trim().length > 500) return { field: "title", message: "The title is too long (500 characters at most)." };
  if (draft.cover.kind === "url" && draft.cover.url.trim() !== (card.coverUrl ?? "") && !isHttpUrl(draft.cover.url)) {
    return { field: "coverUrl", message: "The cover must be an http:// or https:// address." };
  }
  if (draft.scheduledAt != null && Number.isNaN(Date.parse(draft.scheduledAt))) {
    return { field: "scheduledAt", message: "The date and time are not complete." };
  }
  for (const [i, post] of draft.posts.entries()) {
    if (post.scheduledAt != null && Number.isNaN(Date.parse(post.scheduledAt))) {
      return { field: `posts[${i}].scheduledAt`, message: "The post's own time is not complete." };
    }
  }
  return validatePosts(draft.posts) ?? validateAssets(draft.assets.map((a) => a.input), card.assets);
}

/** Whether the draft differs from the card as read (any field `buildUpdate` would send). */
export function isDirty(card: CardDetail, draft: Draft): boolean {
  return Object.keys(buildUpdate(card, draft)).length > 0;
}
