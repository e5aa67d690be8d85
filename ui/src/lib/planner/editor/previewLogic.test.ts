import { describe, expect, it } from "vitest";
import type { CardAsset, ConnectedAccount } from "../../bindings";
import { PREVIEWS, cropRatio, cutText, previewOf, ratioText, type PreviewTable } from "./previewLogic";

const asset = (assetType: string, previewUrl: string): { asset: CardAsset } => ({
  asset: { id: previewUrl, assetType, outputId: null, assetUrl: previewUrl, contentId: null, projectId: null, assetId: null, displayName: null, previewUrl, inspiration: null, sortOrder: null },
});
const account = (id: string, platform: string, name: string, handle: string): ConnectedAccount => ({
  id, platform, accountId: null, accountName: name, accountHandle: handle, accountUrl: null, connectionStatus: "connected",
  connectionType: null, capabilities: null, isDefault: false, createdAt: null,
});

describe("the preview table (the `previews` part of platform-rules.json)", () => {
  it("names a source and a day for every value, and says what it left out", () => {
    expect(PREVIEWS.unsourced.length).toBeGreaterThan(0);
    for (const [platform, p] of Object.entries(PREVIEWS.platforms)) {
      expect(p.source, platform).toMatch(/^https:\/\//);
      expect(p.read, platform).toMatch(/^\d{4}-\d\d-\d\d$/);
    }
  });
  it("has X's 4-photo grid and Instagram's carousel, and no cut nobody sourced", () => {
    expect(PREVIEWS.platforms.x).toMatchObject({ multi: "grid", gridMax: 4 });
    expect(PREVIEWS.platforms.instagram.multi).toBe("carousel");
    expect(Object.values(PREVIEWS.platforms).some((p) => p.cut)).toBe(false);
  });
});

describe("cutText", () => {
  it("shows the whole text when the platform has no sourced cut", () => {
    const long = "word ".repeat(200);
    expect(cutText(long, undefined)).toEqual({ shown: long, cut: false });
  });
  it("cuts where a sourced cut says, counted as the platform counts, back to a word", () => {
    expect(cutText("abcdefghij", { limit: 20, counting: "code_points" })).toEqual({ shown: "abcdefghij", cut: false });
    expect(cutText("abcdefghij", { limit: 4, counting: "code_points" })).toEqual({ shown: "abcd", cut: true });
    expect(cutText("hello wonderful world", { limit: 18, counting: "code_points" })).toEqual({ shown: "hello wonderful", cut: true });
    // X weights: a CJK character counts 2, so 5 weighted fit 2 of them.
    expect(cutText("日本語のテキスト", { limit: 5, counting: "x_weighted" })).toEqual({ shown: "日本", cut: true });
  });
});

describe("cropRatio", () => {
  it("brings an image into the platform's accepted range", () => {
    const ig = { min: 0.8, max: 1.91 };
    expect(cropRatio(9 / 16, ig)).toBe(0.8);
    expect(cropRatio(3, ig)).toBe(1.91);
    expect(cropRatio(1, ig)).toBe(1);
    expect(cropRatio(0.5, null)).toBe(0.5);
  });
});

describe("previewOf", () => {
  const accounts = [account("a1", "instagram", "Studio North", "studionorth"), account("a2", "x", "North", "@north")];
  it("a 3-image Instagram post is a carousel with the account, cropped within 4:5 to 1.91:1, caption after the media", () => {
    const m = previewOf({ platform: "instagram", connectedAccountId: "a1", platformSpecificData: { caption: "Three" } },
      [asset("image", "1.png"), asset("image", "2.png"), asset("image", "3.png")], accounts, null);
    expect(m).toMatchObject({ layout: "carousel", name: "Studio North", handle: "@studionorth", shown: "Three", cut: false, cutKnown: false, textFirst: false, overflow: 0 });
    expect(m.media.map((x) => x.url)).toEqual(["1.png", "2.png", "3.png"]);
    expect(m.crop).toEqual({ min: 0.8, max: 1.91 });
  });
  it("X tiles at most 4 photos and counts the rest; text first", () => {
    const m = previewOf({ platform: "x", connectedAccountId: "a2", platformSpecificData: { caption: "Read https://example.com/a/very/long/path" } },
      ["1", "2", "3", "4", "5"].map((n) => asset("image", `${n}.png`)), accounts, null);
    expect(m).toMatchObject({ layout: "grid", handle: "@north", textFirst: true, overflow: 1 });
    expect(m.media).toHaveLength(4);
    expect(m.crop).toBeNull();
  });
  it("a TikTok video shows the card's cover in the frame, else the video's own picture", () => {
    const v = [asset("video", "clip.mp4")];
    expect(previewOf({ platform: "tiktok", format: "video" }, v, accounts, "cover.png")).toMatchObject({ layout: "video", cover: "cover.png", name: null, media: [] });
    expect(previewOf({ platform: "tiktok" }, v, accounts, null).cover).toBe("clip.mp4");
  });
  it("a post without media is text alone; links and notes (not image or video) are not media", () => {
    expect(previewOf({ platform: "linkedin" }, [asset("link", "x.html")], accounts, null)).toMatchObject({ layout: "text", media: [] });
  });
  it("a sourced cut (a test table) cuts the text and says so", () => {
    const table: PreviewTable = { unsourced: [], platforms: { x: { cut: { limit: 5, counting: "code_points" }, source: "https://example.com", read: "2026-11-27" } } };
    expect(previewOf({ platform: "x", platformSpecificData: { caption: "abcdefgh" } }, [], accounts, null, table)).toMatchObject({ shown: "abcde", cut: true, cutKnown: true });
  });
});

describe("ratioText", () => {
  it("names common ratios as small whole pairs, the rest as x:1", () => {
    expect([0.8, 1, 16 / 9, 9 / 16, 1.6].map(ratioText)).toEqual(["4:5", "1:1", "16:9", "9:16", "8:5"]);
    expect(ratioText(1.91)).toBe("1.91:1");
  });
});
