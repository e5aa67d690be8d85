// Tests only: a card as card_get answers it, and the lists the editor loads beside it.
import type { CardAsset, CardDetail, ConnectedAccount, Post, Tag } from "./wire";

export function asset(id: string, extra: Partial<CardAsset> = {}): CardAsset {
  return {
    id, assetType: null, outputId: null, assetUrl: null, contentId: null, projectId: null, assetId: null,
    displayName: null, previewUrl: null, inspiration: null, sortOrder: null, ...extra,
  };
}

export function post(id: string, platform: string, extra: Partial<Post> = {}): Post {
  return {
    id, connectedAccountId: null, platform, format: null, status: null, scheduledAt: null,
    publishedAt: null, platformSettings: null, ...extra,
  };
}

export function testCard(extra: Partial<CardDetail> = {}): CardDetail {
  return {
    id: "c1", title: "Launch teaser", platform: "instagram", spaceId: "s1", stageId: "st1", boardOrder: 1,
    contentType: null, coverUrl: null, isFavorite: false, archivedAt: null, isArchived: false,
    scheduledAt: "2026-11-22T08:00:00.000Z", publishedAt: null, publishUrl: null, createdAt: null, updatedAt: null,
    platforms: ["instagram"], tags: ["launch"],
    notes: "Shoot at noon.", revision: 3, coverPosition: null, metadata: null,
    assets: [
      asset("a1", { outputId: "out-1", assetType: "image", previewUrl: "https://cdn.test/a1.png", displayName: "Hero shot" }),
      asset("a2", { contentId: "content-1", assetType: "inspiration", inspiration: null, displayName: "Competitor reel" }),
      asset("a3", { assetUrl: "https://example.com/brief", assetType: "link", displayName: "Brief" }),
    ],
    posts: [
      post("p1", "instagram", {
        connectedAccountId: "acc-ig", scheduledAt: "2026-11-22T08:00:00.000Z",
        platformSettings: { caption: "Soon.", firstComment: "#launch" },
      }),
    ],
    ...extra,
  };
}

export const TAGS: Tag[] = [{ id: "t1", name: "launch" }, { id: "t2", name: "evergreen" }];

export const ACCOUNTS: ConnectedAccount[] = [
  account("acc-ig", "instagram", "Studio IG"),
  account("acc-ig2", "instagram", "Second IG"),
  account("acc-tt", "tiktok", "Studio TikTok"),
];

function account(id: string, platform: string, accountName: string): ConnectedAccount {
  return {
    id, platform, accountId: null, accountName, accountHandle: null, accountUrl: null, connectionStatus: "active",
    connectionType: null, capabilities: null, isDefault: false, createdAt: null,
  };
}
