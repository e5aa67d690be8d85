// Per-platform previews (issue 28 point 3): each post as it will look on its platform, drawn with the
// platform's shapes (no logos, no trade dress). The values come from the one table the rules come from,
// crates/api-types/fixtures/platform-rules.json: its `previews` part (how several images are shown, where a
// text is cut behind "…more") and the image aspect-ratio rules (the crop). Each value there names its source;
// what no platform page states is left out (`unsourced`), and a post whose platform has no sourced cut is
// shown whole, saying so. api-types' previews.rs reads the same part.
import table from "../../../../../crates/api-types/fixtures/platform-rules.json";
import type { CardAsset, ConnectedAccount } from "../../bindings";
import { count, parseCounting, RULES, type PreflightPost, type RuleTable } from "./platformRules";

export type Cut = { limit: number; counting: string };
export type PlatformPreview = { multi?: "carousel" | "grid"; gridMax?: number; cut?: Cut; source: string; read: string; note?: string };
export type PreviewTable = { unsourced: string[]; platforms: Record<string, PlatformPreview> };

/** The shipped preview table. */
export const PREVIEWS: PreviewTable = (table as unknown as { previews: PreviewTable }).previews;

/** How the media are drawn: none; a carousel (one at a time); a grid (tiled); a video (the cover, a play mark). */
export type Layout = "text" | "carousel" | "grid" | "video";

export type PreviewMedia = { url: string | null; kind: string | null; label: string };

export type PreviewModel = {
  platform: string;
  /** The connected account's name and handle (null: no account chosen, or it is not connected). */
  name: string | null;
  handle: string | null;
  layout: Layout;
  /** The text as the platform shows it before "…more", and whether it was cut there. */
  shown: string;
  cut: boolean;
  /** Whether the table has a sourced cut for this platform (false: the whole text is shown, and the preview says so). */
  cutKnown: boolean;
  /** Grid or carousel items (a grid: at most `gridMax`, `overflow` more counted as +N). */
  media: PreviewMedia[];
  overflow: number;
  /** A video's cover (the card's cover, else the video's own picture). */
  cover: string | null;
  /** The image aspect ratios the platform accepts (width / height), from its rules; null: none known. */
  crop: { min: number | null; max: number | null } | null;
  /** Caption under the media (carousel platforms) or over it; on a video, laid over the frame. */
  textFirst: boolean;
};

const VIDEO_FORMATS = ["video", "reel", "short"];
const CAROUSEL_FORMATS = ["carousel", "photo"];
/** A grid drawn for a platform with no sourced `gridMax` (the app's drawing, listed in `unsourced`). */
const DRAWN_GRID_MAX = 4;

/** The text as shown before the platform's "…more": the longest start of it within `cut.limit`, counted as the
 *  platform counts, cut back to a word when one ends in its last fifth. No cut: the whole text. */
export function cutText(text: string, cut: Cut | null | undefined): { shown: string; cut: boolean } {
  const how = parseCounting(cut?.counting);
  if (!cut || !how || count(text, how) <= cut.limit) return { shown: text, cut: false };
  const chars = Array.from(text);
  let lo = 0, hi = chars.length;
  while (lo < hi) {
    const mid = Math.ceil((lo + hi) / 2);
    if (count(chars.slice(0, mid).join(""), how) <= cut.limit) lo = mid;
    else hi = mid - 1;
  }
  let head = chars.slice(0, lo).join("");
  const space = head.search(/\s\S*$/);
  if (space > head.length * 0.8) head = head.slice(0, space);
  return { shown: head.trimEnd(), cut: true };
}

/** The aspect ratio an image is shown at: its own, brought into the platform's accepted range. */
export function cropRatio(natural: number, crop: PreviewModel["crop"]): number {
  if (!crop) return natural;
  let r = natural;
  if (crop.min !== null && r < crop.min) r = crop.min;
  if (crop.max !== null && r > crop.max) r = crop.max;
  return r;
}

function imageCrop(platform: string, rules: RuleTable): PreviewModel["crop"] {
  const list = rules.platforms[platform]?.rules ?? [];
  const limit = (name: string) => list.find((r) => r.rule === name && r.field === "media" && (r.kind === "image" || r.kind === "any"))?.limit ?? null;
  const min = limit("min_aspect_ratio"), max = limit("max_aspect_ratio");
  return min === null && max === null ? null : { min, max };
}

/** What a preview shows of a post: its account, its text as cut, its media in the platform's shape. */
export function previewOf(
  post: PreflightPost & { connectedAccountId?: string | null },
  assets: { asset: CardAsset | null; preview?: string | null; label?: string }[],
  accounts: ConnectedAccount[],
  cover: string | null,
  previews: PreviewTable = PREVIEWS,
  rules: RuleTable = RULES,
): PreviewModel {
  const p = Object.prototype.hasOwnProperty.call(previews.platforms, post.platform) ? previews.platforms[post.platform] : undefined;
  const account = post.connectedAccountId ? accounts.find((a) => a.id === post.connectedAccountId) : undefined;
  const handle = account?.accountHandle ? (account.accountHandle.startsWith("@") ? account.accountHandle : `@${account.accountHandle}`) : null;
  const media: PreviewMedia[] = assets
    .map((a) => ({ url: a.asset?.previewUrl ?? a.preview ?? null, kind: a.asset?.assetType ?? null, label: a.asset?.displayName ?? a.label ?? "" }))
    .filter((m) => m.kind === "image" || m.kind === "video");
  const video = media.find((m) => m.kind === "video");
  const format = post.format ?? null;
  let layout: Layout;
  if ((format && VIDEO_FORMATS.includes(format)) || (video && media.length === 1)) layout = "video";
  else if (media.length === 0) layout = "text";
  else if (format && CAROUSEL_FORMATS.includes(format)) layout = "carousel";
  else layout = p?.multi ?? "grid";
  const gridMax = p?.gridMax ?? DRAWN_GRID_MAX;
  const shownMedia = layout === "grid" ? media.slice(0, gridMax) : layout === "video" ? [] : media;
  const text = textOf(post);
  const { shown, cut } = cutText(text, p?.cut);
  return {
    platform: post.platform,
    name: account?.accountName ?? null,
    handle,
    layout,
    shown,
    cut,
    cutKnown: !!p?.cut,
    media: shownMedia,
    overflow: layout === "grid" ? media.length - shownMedia.length : 0,
    cover: layout === "video" ? (cover ?? video?.url ?? null) : null,
    crop: imageCrop(post.platform, rules),
    textFirst: p?.multi !== "carousel",
  };
}

function textOf(post: PreflightPost): string {
  const data = post.platformSpecificData !== undefined ? post.platformSpecificData : post.platformSettings;
  if (!data || typeof data !== "object" || Array.isArray(data)) return "";
  const v = (data as Record<string, unknown>).caption;
  return typeof v === "string" ? v : "";
}

/** The ratios named as whole pairs; any other is written as a decimal ("1.91:1"). */
const NAMED: [number, number][] = [[1, 1], [4, 5], [5, 4], [3, 4], [4, 3], [2, 3], [3, 2], [16, 9], [9, 16], [8, 5], [5, 8], [2, 1], [1, 2]];

/** An aspect ratio in words: a common pair when within 0.2% of one (4:5, 16:9), else "1.91:1" or "1:2.5". */
export function ratioText(r: number): string {
  const named = NAMED.find(([w, h]) => Math.abs(w / h - r) / r < 0.002);
  if (named) return `${named[0]}:${named[1]}`;
  return r >= 1 ? `${Number(r.toFixed(2))}:1` : `1:${Number((1 / r).toFixed(2))}`;
}
