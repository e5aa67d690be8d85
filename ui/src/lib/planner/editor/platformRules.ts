// Platform preflight (issue 28): will each post of a card be accepted by its platform? The rules are one table,
// crates/api-types/fixtures/platform-rules.json, imported here as it is read by the Rust check
// (crates/api-types/src/preflight.rs); platform-rules-cases.json holds both to the same findings. A platform or
// format the table does not know gets no findings, and what is not known (an asset's size, a kind that is
// neither image nor video) is never guessed.
import table from "../../../../../crates/api-types/fixtures/platform-rules.json";
import { PLATFORM_NAMES } from "../../bindings/valueLists";

export type Counting = "x_weighted" | "threads" | "code_points" | "utf16" | "utf8_bytes";

/** One row of the table (fixtures/platform-rules.json). */
export type Rule = {
  rule: string;
  field: string;
  counting?: string;
  kind?: string;
  limit: number;
  severity: string;
  formats?: string[];
  source: string;
  read: string;
  note?: string;
};
export type PlatformRules = { formats: string[]; rules: Rule[] };
export type RuleTable = { platforms: Record<string, PlatformRules> };

/** A post as the check reads it: written (`platformSpecificData`) or read back (`platformSettings`). */
export type PreflightPost = {
  platform: string;
  format?: string | null;
  platformSpecificData?: unknown;
  platformSettings?: unknown;
};
/** An asset of the card; only what is known is given. `aspectRatio` is width / height. */
export type PreflightAsset = { kind?: string | null; aspectRatio?: number | null; durationSeconds?: number | null; sizeBytes?: number | null };
export type PreflightInput = { posts: PreflightPost[]; assets: PreflightAsset[] };

/** One broken rule, the shape `cdesk card check` prints. */
export type Finding = { platform: string; field: string; rule: string; limit: number; actual: number; severity: string; source: string };

/** The shipped table. */
export const RULES: RuleTable = table as RuleTable;

/** What X counts a URL as, whatever its length (docs.x.com, "Counting characters"). */
export const X_URL_WEIGHT = 23;

/** The findings of a card: posts in order, each post's rules in table order. */
export function checkCard(input: PreflightInput, rules: RuleTable = RULES): Finding[] {
  const out: Finding[] = [];
  for (const post of input.posts) {
    for (const rule of rulesFor(post, rules)) apply(rule, post, input.assets, out);
  }
  return out;
}

/** The rules of a post's platform that hold for its format; none for a platform or format the table does not know. */
function rulesFor(post: PreflightPost, rules: RuleTable): Rule[] {
  const platform = Object.prototype.hasOwnProperty.call(rules.platforms, post.platform) ? rules.platforms[post.platform] : undefined;
  if (!platform) return [];
  const format = post.format ?? null;
  if (format !== null && !platform.formats.includes(format)) return [];
  return platform.rules.filter((r) => !r.formats || (format !== null && r.formats.includes(format)));
}

/**
 * The editor's live counter for a post's caption ("231 / 280"), counted as its platform counts; null when the
 * table has no caption length for that platform and format.
 */
export function captionCounter(post: PreflightPost, rules: RuleTable = RULES): { count: number; limit: number; over: boolean } | null {
  const rule = rulesFor(post, rules).find((r) => r.rule === "max_length" && r.field === "caption");
  const how = parseCounting(rule?.counting);
  if (!rule || !how) return null;
  const n = count(textField(post, "caption") ?? "", how);
  return { count: n, limit: rule.limit, over: n > rule.limit };
}

/** A finding in words, for the editor: what broke, by how much, and what the platform does. */
export function findingText(f: Finding): string {
  const what: Record<string, string> = {
    max_length: `${f.actual} / ${f.limit} characters`, max_links: `${f.actual} links, at most ${f.limit}`,
    max_count: `${f.actual} items, at most ${f.limit}`, alone: `a video must be the only media (${f.actual} items)`,
    max_size: `${f.actual} bytes, at most ${f.limit}`, min_duration: `${f.actual} s, at least ${f.limit} s`,
    max_duration: `${f.actual} s, at most ${f.limit} s`, min_aspect_ratio: `aspect ratio ${f.actual}, at least ${f.limit}`,
    max_aspect_ratio: `aspect ratio ${f.actual}, at most ${f.limit}`,
  };
  const does = f.severity === "blocks" ? "refuses it" : "cuts or hides it";
  // The platform by its one name (issue 26: "X", never "x").
  const name = (PLATFORM_NAMES as Record<string, string>)[f.platform] ?? f.platform;
  return `${f.field}: ${what[f.rule] ?? `${f.actual}, limit ${f.limit}`}; ${name} ${does}.`;
}

function apply(rule: Rule, post: PreflightPost, assets: PreflightAsset[], out: Finding[]) {
  const finding = (field: string, actual: number): Finding => ({
    platform: post.platform, field, rule: rule.rule, limit: rule.limit, actual, severity: rule.severity, source: rule.source,
  });
  const isMedia = (a: PreflightAsset) => a.kind === "image" || a.kind === "video";
  const ofKind = (a: PreflightAsset) => (rule.kind === "any" ? isMedia(a) : rule.kind != null && a.kind === rule.kind);
  switch (rule.rule) {
    case "max_length":
    case "max_links": {
      const text = textField(post, rule.field);
      if (text === null) return;
      let actual: number;
      if (rule.rule === "max_links") actual = countLinks(text);
      else {
        const how = parseCounting(rule.counting);
        if (!how) return;
        actual = count(text, how);
      }
      if (actual > rule.limit) out.push(finding(rule.field, actual));
      return;
    }
    case "max_count": {
      const n = assets.filter(ofKind).length;
      if (n > rule.limit) out.push(finding(rule.field, n));
      return;
    }
    case "alone": {
      const media = assets.filter(isMedia).length;
      if (assets.some(ofKind) && media > rule.limit) out.push(finding(rule.field, media));
      return;
    }
    case "max_size":
    case "min_duration":
    case "max_duration":
    case "min_aspect_ratio":
    case "max_aspect_ratio":
      assets.forEach((a, i) => {
        if (!ofKind(a)) return;
        const value = rule.rule === "max_size" ? a.sizeBytes : rule.rule.endsWith("_duration") ? a.durationSeconds : a.aspectRatio;
        if (typeof value !== "number") return;
        const broken = rule.rule.startsWith("min_") ? value < rule.limit : value > rule.limit;
        if (broken) out.push(finding(`assets[${i}]`, value));
      });
      return;
  }
}

/** A text field of the post's platform data (`caption`, `title`, `description`); absent or not a string: none. */
function textField(post: PreflightPost, field: string): string | null {
  const data = post.platformSpecificData !== undefined ? post.platformSpecificData : post.platformSettings;
  if (!data || typeof data !== "object" || Array.isArray(data)) return null;
  const v = (data as Record<string, unknown>)[field];
  return typeof v === "string" ? v : null;
}

export function parseCounting(s: string | undefined): Counting | null {
  return s === "x_weighted" || s === "threads" || s === "code_points" || s === "utf16" || s === "utf8_bytes" ? s : null;
}

const utf8Bytes = (cp: string) => {
  const c = cp.codePointAt(0)!;
  return c < 0x80 ? 1 : c < 0x800 ? 2 : c < 0x10000 ? 3 : 4;
};

/** The length of `text` as the platform counts it (the same rules as preflight.rs `count`). */
export function count(text: string, how: Counting): number {
  switch (how) {
    case "code_points":
      return Array.from(text).length;
    case "utf16":
      return text.length;
    case "utf8_bytes":
      return Array.from(text).reduce((n, c) => n + utf8Bytes(c), 0);
    case "threads": {
      const chars = Array.from(text);
      let n = 0;
      for (let i = 0; i < chars.length; ) {
        const len = emojiLen(chars, i);
        if (len === 0) {
          n += 1;
          i += 1;
        } else {
          for (let k = i; k < i + len; k++) n += utf8Bytes(chars[k]);
          i += len;
        }
      }
      return n;
    }
    case "x_weighted": {
      const chars = Array.from(text.normalize("NFC"));
      let n = 0;
      for (let i = 0; i < chars.length; ) {
        const url = urlLen(chars, i);
        if (url !== null) {
          n += X_URL_WEIGHT;
          i += url;
          continue;
        }
        const len = emojiLen(chars, i);
        if (len === 0) {
          n += xWeight(chars[i]);
          i += 1;
        } else {
          n += 2;
          i += len;
        }
      }
      return n;
    }
  }
}

function xWeight(ch: string): number {
  const c = ch.codePointAt(0)!;
  return c <= 0x10ff || (c >= 0x2000 && c <= 0x200d) || (c >= 0x2010 && c <= 0x201f) || (c >= 0x2032 && c <= 0x2037) ? 1 : 2;
}

/** The distinct links in a text. */
export function countLinks(text: string): number {
  const chars = Array.from(text);
  const seen = new Set<string>();
  for (let i = 0; i < chars.length; ) {
    const len = urlLen(chars, i);
    if (len !== null) {
      seen.add(chars.slice(i, i + len).join(""));
      i += len;
    } else i += 1;
  }
  return seen.size;
}

const ALNUM = /^[\p{Alphabetic}\p{N}]$/u;
const SPACE = /^\p{White_Space}$/u;
const asciiLower = (c: string) => (c >= "A" && c <= "Z" ? c.toLowerCase() : c);

/** A URL at `i` (see preflight.rs `url_len`): its length in code points, or null. */
function urlLen(chars: string[], i: number): number | null {
  const first = chars[i];
  if (first !== "h" && first !== "H" && first !== "w" && first !== "W") return null;
  if (i > 0) {
    const p = chars[i - 1];
    if (ALNUM.test(p) || p === "/" || p === "@" || p === ".") return null;
  }
  const starts = (prefix: string) => {
    for (let k = 0; k < prefix.length; k++) if (i + k >= chars.length || asciiLower(chars[i + k]) !== prefix[k]) return false;
    return true;
  };
  const head = starts("https://") ? 8 : starts("http://") ? 7 : starts("www.") ? 4 : 0;
  if (head === 0) return null;
  let end = i + head;
  while (end < chars.length && !SPACE.test(chars[end])) end++;
  while (end > i + head && ".,:;!?'\")]}>".includes(chars[end - 1])) end--;
  const rest = chars.slice(i + head, end);
  const hostEnd = rest.findIndex((c) => c === "/" || c === "?" || c === "#");
  const host = rest.slice(0, hostEnd === -1 ? rest.length : hostEnd);
  if (host.length === 0 || !host.includes(".") || host[0] === "." || host[host.length - 1] === ".") return null;
  return end - i;
}

const cp = (ch: string | undefined) => (ch === undefined ? -1 : ch.codePointAt(0)!);
const pictographic = (c: number) => (c >= 0x1f000 && c <= 0x1faff) || (c >= 0x2600 && c <= 0x27bf) || (c >= 0x2b00 && c <= 0x2bff);
const regionalIndicator = (c: number) => c >= 0x1f1e6 && c <= 0x1f1ff;
const emojiModifier = (c: number) => c === 0xfe0f || (c >= 0x1f3fb && c <= 0x1f3ff) || c === 0x20e3 || (c >= 0xe0020 && c <= 0xe007f);
const emojiBase = (chars: string[], i: number) => pictographic(cp(chars[i])) || cp(chars[i + 1]) === 0xfe0f || cp(chars[i + 1]) === 0x20e3;

/** The length in code points of the emoji sequence at `i`, 0 when none starts there (see preflight.rs `emoji_len`). */
function emojiLen(chars: string[], i: number): number {
  if (regionalIndicator(cp(chars[i]))) return regionalIndicator(cp(chars[i + 1])) ? 2 : 1;
  if (!emojiBase(chars, i)) return 0;
  let j = i + 1;
  for (;;) {
    while (j < chars.length && emojiModifier(cp(chars[j]))) j++;
    if (j + 1 < chars.length && chars[j] === "\u200d" && emojiBase(chars, j + 1)) j += 2;
    else return j - i;
  }
}
