import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import { describe, expect, it } from "vitest";
import {
  buildUpdate, captionOf, draftFromCard, isDirty, isHttpUrl, moveItem, parseOutputToken, postInputFromPost,
  validateAssets, validateDraft, validatePosts, withCaption, type Draft,
} from "./cardRules";
import { asset, post, testCard } from "./testCard";
import type { CardAsset, CardAssetInput, PostInput } from "./wire";
import type { FieldError } from "./cardRules";

const U = "3f2b8c1e-9a4d-4e5f-8b6a-1c2d3e4f5a6b";

describe("parseOutputToken", () => {
  it.each([
    [U, U],
    [`${U}-2`, `${U}-2`],
    [`  ${U}-12 `, `${U}-12`],
    [U.toUpperCase(), U],
    [`${U}-0`, null],
    [`${U}-`, null],
    [`${U}-x`, null],
    ["3f2b8c1e-9a4d-4e5f-8b6a-1c2d3e4f5a6", null],
    ["out-1", null],
    ["", null],
  ])("%j → %j", (input, expected) => {
    expect(parseOutputToken(input)).toBe(expected);
  });
});

describe("parseOutputToken follows the cases the core's check reads", () => {
  // crates/api-types/fixtures/output-tokens.json: one list of cases for Rust and TypeScript.
  const cases = JSON.parse(
    readFileSync(resolve(process.cwd(), "../crates/api-types/fixtures/output-tokens.json"), "utf8"),
  ) as { valid: string[]; invalid: string[] };
  it.each(cases.valid)("valid: %j", (t) => expect(parseOutputToken(t)).not.toBeNull());
  it.each(cases.invalid)("invalid: %j", (t) => expect(parseOutputToken(t)).toBeNull());
  it("keeps a shortId's case and lower-cases a uuid", () => {
    expect(parseOutputToken("a1B2c3D4-2")).toBe("a1B2c3D4-2");
    expect(parseOutputToken(`${U.toUpperCase()}-3`)).toBe(`${U}-3`);
  });
});

describe("the card-edit rules follow the cases the core's client checks", () => {
  // crates/api-types/fixtures/card-edit-rules.json: one list of cases for Rust (api-client CardEdit) and TypeScript.
  type Case = { name: string; existing: CardAsset[]; assets: CardAssetInput[]; posts: PostInput[]; expect: FieldError | null };
  const { cases } = JSON.parse(
    readFileSync(resolve(process.cwd(), "../crates/api-types/fixtures/card-edit-rules.json"), "utf8"),
  ) as { cases: Case[] };
  it("has the cases", () => expect(cases.length).toBeGreaterThanOrEqual(10));
  it.each(cases.map((c) => [c.name, c] as const))("%s", (_name, c) => {
    const existing = c.existing.map((a) => ({ ...a }) as CardAsset);
    expect(validateAssets(c.assets, existing) ?? validatePosts(c.posts)).toEqual(c.expect);
  });
});

describe("isHttpUrl", () => {
  it.each([
    ["https://example.com/a", true],
    ["http://example.com", true],
    ["  https://example.com/x?y=1  ", true],
    ["HTTPS://EXAMPLE.COM", true],
    ["ftp://example.com", false],
    ["javascript:alert(1)", false],
    ["example.com", false],
    ["https://", false],
    ["", false],
  ])("%j → %s", (input, expected) => {
    expect(isHttpUrl(input)).toBe(expected);
  });
});

describe("moveItem", () => {
  it.each([
    [0, 2, ["b", "c", "a"]],
    [2, 0, ["c", "a", "b"]],
    [1, 0, ["b", "a", "c"]],
    [1, 1, ["a", "b", "c"]],
    [0, 3, ["a", "b", "c"]],
    [-1, 0, ["a", "b", "c"]],
  ])("%i → %i", (from, to, expected) => {
    expect(moveItem(["a", "b", "c"], from, to)).toEqual(expected);
  });
});

describe("validateAssets (spec §4 rules 4–6, as card_edit.rs)", () => {
  const card = testCard();
  const kept: CardAssetInput[] = [{ id: "a1" }, { id: "a2" }, { id: "a3" }];
  it.each<[string, CardAssetInput[], string | null]>([
    ["the card as read", kept, null],
    ["reordered", [{ id: "a3" }, { id: "a1" }, { id: "a2" }], null],
    ["one removed", [{ id: "a1" }, { id: "a3" }], null],
    ["a new output and link", [...kept, { outputId: "out-2" }, { assetUrl: "https://a.test" }], null],
    ["no reference", [...kept, { displayName: "nothing" }], "assets[3]"],
    ["two references", [...kept, { outputId: "out-9", assetUrl: "https://x.test/y" }], "assets[3]"],
    ["id and contentId", [{ id: "a1" }, { id: "a2", contentId: "content-1" }], "assets[1]"],
    ["asset id twice", [...kept, { id: "a1" }], "assets[3]"],
    ["output twice", [...kept, { outputId: "out-5" }, { outputId: "out-5" }], "assets[4]"],
    ["output already on the card", [...kept, { outputId: "out-1" }], "assets[3]"],
    ["link twice", [...kept, { assetUrl: "https://a.test" }, { assetUrl: "https://a.test" }], "assets[4]"],
    ["link already on the card", [...kept, { assetUrl: "https://example.com/brief" }], "assets[3]"],
    ["inspiration post twice", [...kept, { contentId: "content-1" }], "assets[3]"],
    ["inspiration by url", [...kept, { assetType: "inspiration", assetUrl: "https://instagram.com/p/x" }], "assets[3]"],
  ])("%s → %j", (_name, assets, field) => {
    expect(validateAssets(assets, card.assets)?.field ?? null).toBe(field);
  });

  it("counts the deprecated assetId of an inspiration as its contentId", () => {
    const existing = [asset("a9", { assetType: "inspiration", assetId: "content-7" })];
    expect(validateAssets([{ id: "a9" }, { contentId: "content-7" }], existing)?.field).toBe("assets[1]");
  });

  it("a project linked twice", () => {
    const existing = [asset("a9", { projectId: "proj-1" })];
    expect(validateAssets([{ id: "a9" }, { projectId: "proj-1" }], existing)?.field).toBe("assets[1]");
  });

  it("names contentId for an inspiration by URL", () => {
    expect(validateAssets([{ assetType: "inspiration", assetUrl: "https://x.test" }], [])?.message).toContain("contentId");
  });
});

describe("validatePosts", () => {
  it.each<[string, PostInput[], string | null]>([
    ["none", [], null],
    ["two platforms", [{ platform: "instagram" }, { platform: "tiktok" }], null],
    ["platform twice", [{ platform: "instagram" }, { platform: "tiktok" }, { platform: "instagram" }], "posts[2]"],
    ["unknown platform", [{ platform: "myspace" }], "posts[0]"],
  ])("%s → %j", (_name, posts, field) => {
    expect(validatePosts(posts)?.field ?? null).toBe(field);
  });
});

describe("posts as read (no flag says whose time it is)", () => {
  const card = "2026-01-01T00:00:00.000Z";
  it.each<[string, ReturnType<typeof post>, string | null, PostInput]>([
    ["the card's time is not an override", post("p", "x", { scheduledAt: "2026-01-01T00:00:00Z" }), card, { platform: "x" }],
    ["a time that differs from the card's is the post's own", post("p", "x", { scheduledAt: "2026-01-02T18:30:00Z" }), card, { platform: "x", scheduledAt: "2026-01-02T18:30:00Z" }],
    ["a time on a card without one is the post's own", post("p", "x", { scheduledAt: "2026-01-02T18:30:00Z" }), null, { platform: "x", scheduledAt: "2026-01-02T18:30:00Z" }],
    ["settings become platformSpecificData", post("p", "x", { platformSettings: { caption: "hi" }, connectedAccountId: "a" }), card, { platform: "x", connectedAccountId: "a", platformSpecificData: { caption: "hi" } }],
  ])("%s", (_name, p, cardTime, expected) => {
    expect(postInputFromPost(p, cardTime)).toEqual(expected);
  });

  it("a post without a platform is left out", () => {
    expect(postInputFromPost(post("p", "x", { platform: null }), card)).toBeNull();
  });

  it.each([
    [{ platform: "x" }, "new", { platform: "x", platformSpecificData: { caption: "new" } }],
    [{ platform: "x", platformSpecificData: { caption: "a", privacy: "public" } }, "b", { platform: "x", platformSpecificData: { caption: "b", privacy: "public" } }],
    [{ platform: "x", platformSpecificData: { caption: "a", privacy: "public" } }, "", { platform: "x", platformSpecificData: { privacy: "public" } }],
    [{ platform: "x", platformSpecificData: { caption: "a" } }, "", { platform: "x" }],
  ])("withCaption(%j, %j)", (p, caption, expected) => {
    const out = withCaption(p as PostInput, caption);
    expect(out).toEqual(expected);
    expect(captionOf(out)).toBe(caption);
  });
});

describe("buildUpdate", () => {
  const card = testCard();
  const edit = (change: (d: Draft) => void): Draft => {
    const d = draftFromCard(card);
    change(d);
    return d;
  };
  it.each<[string, (d: Draft) => void, object]>([
    ["nothing changed", () => {}, {}],
    ["title (trimmed)", (d) => { d.title = "  New title "; }, { title: "New title" }],
    ["notes carry the revision", (d) => { d.notes = "Shoot at one."; }, { notes: "Shoot at one.", expectedRevision: 3 }],
    ["cover removed", (d) => { d.cover = { kind: "none" }; }, {}],
    ["cover url", (d) => { d.cover = { kind: "url", url: "https://cdn.test/c.png" }; }, { coverUrl: "https://cdn.test/c.png" }],
    ["cover from an output", (d) => { d.cover = { kind: "output", outputId: "out-1" }; }, { coverOutputId: "out-1" }],
    ["schedule cleared", (d) => { d.scheduledAt = null; }, { scheduledAt: null }],
    ["same instant, other spelling", (d) => { d.scheduledAt = "2026-11-22T08:00:00Z"; }, {}],
    ["schedule moved", (d) => { d.scheduledAt = "2026-11-23T08:00:00.000Z"; }, { scheduledAt: "2026-11-23T08:00:00.000Z" }],
    ["tags", (d) => { d.tags = ["launch", "evergreen"]; }, { tags: ["launch", "evergreen"] }],
    ["caption → whole posts list", (d) => { d.posts[0] = withCaption(d.posts[0], "Now."); }, {
      posts: [{ platform: "instagram", connectedAccountId: "acc-ig", platformSpecificData: { caption: "Now.", firstComment: "#launch" } }],
    }],
    ["post added", (d) => { d.posts.push({ platform: "tiktok" }); }, {
      posts: [{ platform: "instagram", connectedAccountId: "acc-ig", platformSpecificData: { caption: "Soon.", firstComment: "#launch" } }, { platform: "tiktok" }],
    }],
    ["post removed", (d) => { d.posts = []; }, { posts: [] }],
    ["assets reordered", (d) => { d.assets = moveItem(d.assets, 2, 0); }, { assets: [{ id: "a3" }, { id: "a1" }, { id: "a2" }] }],
    ["asset removed", (d) => { d.assets.splice(1, 1); }, { assets: [{ id: "a1" }, { id: "a3" }] }],
    ["link added", (d) => { d.assets.push({ key: "n1", input: { assetUrl: "https://b.test" }, asset: null }); }, {
      assets: [{ id: "a1" }, { id: "a2" }, { id: "a3" }, { assetUrl: "https://b.test" }],
    }],
  ])("%s", (_name, change, expected) => {
    expect(buildUpdate(card, edit(change))).toEqual(expected);
  });

  it("removing a cover the card has sends null", () => {
    const withCover = testCard({ coverUrl: "https://cdn.test/old.png" });
    const d = draftFromCard(withCover);
    d.cover = { kind: "none" };
    expect(buildUpdate(withCover, d)).toEqual({ coverUrl: null });
  });

  it("a newer revision is sent after a conflict", () => {
    const d = draftFromCard(card);
    d.notes = "mine";
    expect(buildUpdate(card, d, 7)).toEqual({ notes: "mine", expectedRevision: 7 });
  });

  it("a caption typed and cleared again is no change", () => {
    const d = draftFromCard(testCard({ posts: [post("p1", "tiktok")] }));
    d.posts[0] = withCaption(withCaption(d.posts[0], "x"), "");
    expect(isDirty(testCard({ posts: [post("p1", "tiktok")] }), d)).toBe(false);
  });
});

describe("validateDraft", () => {
  const card = testCard();
  it.each<[string, (d: Draft) => void, string | null]>([
    ["as read", () => {}, null],
    ["empty title", (d) => { d.title = "  "; }, "title"],
    ["cover not a URL", (d) => { d.cover = { kind: "url", url: "cdn/c.png" }; }, "coverUrl"],
    ["post platform twice", (d) => { d.posts.push({ platform: "instagram" }); }, "posts[1]"],
    ["post time unreadable", (d) => { d.posts[0] = { ...d.posts[0], scheduledAt: "soon" }; }, "posts[0].scheduledAt"],
    ["asset twice", (d) => { d.assets.push({ key: "n", input: { outputId: "out-1" }, asset: null }); }, "assets[3]"],
  ])("%s → %j", (_name, change, field) => {
    const d = draftFromCard(card);
    change(d);
    expect(validateDraft(card, d)?.field ?? null).toBe(field);
  });
});
