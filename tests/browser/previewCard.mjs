// The cards the previews journey and the screens' axe run show in the editor (issue 28 point 3): uploaded
// through the core (`media_upload`, the embedded sandbox's real upload), so each asset reads back as an
// image or a video with a URL the page can load. Pictures are made here as PNGs: a coloured field with a
// lighter centre band, so a crop shows in a screenshot.
import zlib from "node:zlib";

function chunk(type, data) {
  const len = Buffer.alloc(4);
  len.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, "ascii"), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(zlib.crc32(body) >>> 0);
  return Buffer.concat([len, body, crc]);
}

/** A `width` x `height` PNG: `rgb` with a lighter band across its middle third and a dark frame. */
export function png(width, height, [r, g, b]) {
  const row = 1 + width * 3;
  const raw = Buffer.alloc(row * height);
  for (let y = 0; y < height; y++) {
    raw[y * row] = 0;
    for (let x = 0; x < width; x++) {
      const edge = x < 6 || y < 6 || x >= width - 6 || y >= height - 6;
      const band = y > height / 3 && y < (2 * height) / 3;
      const k = edge ? 0.35 : band ? 1.5 : 1;
      const o = y * row + 1 + x * 3;
      raw[o] = Math.min(255, r * k);
      raw[o + 1] = Math.min(255, g * k);
      raw[o + 2] = Math.min(255, b * k);
    }
  }
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(height, 4);
  ihdr[8] = 8; // bit depth
  ihdr[9] = 2; // RGB
  return Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), chunk("IHDR", ihdr), chunk("IDAT", zlib.deflateSync(raw)), chunk("IEND", Buffer.alloc(0))]);
}

const upload = (ipc, name, contentType, bytes) => ipc("media_upload", { name, contentType, contentBase64: bytes.toString("base64") });

/** The X post's caption: a link X counts as 23 whatever its length. */
export const X_LINK = "https://example.com/spring/collection/2027/the-full-lookbook-with-every-piece";
export const X_CAPTION = `The spring drop is live: ${X_LINK}`;

/**
 * Two cards in `stageId`: "Spring drop" (3 images: 1:1, 4:5, 16:9) with an Instagram carousel post and an X
 * post with a link, and "Studio tour" (a video, an image cover) with a TikTok video post; each post on the
 * platform's connected account. Answers their ids and the accounts used.
 */
export async function makePreviewCards(ipc, spaceId, stageId) {
  const accounts = await ipc("connected_accounts_list");
  const acc = (p) => accounts.find((a) => a.platform === p);
  const images = [];
  for (const [name, w, h, rgb] of [["square.png", 600, 600, [40, 110, 170]], ["portrait.png", 480, 600, [170, 80, 40]], ["wide.png", 960, 540, [60, 140, 70]]]) {
    images.push(await upload(ipc, name, "image/png", png(w, h, rgb)));
  }
  const spring = await ipc("card_create", { spaceId, stage: stageId, title: "Spring drop", platform: "instagram" });
  await ipc("card_update", {
    cardId: spring.id,
    update: {
      assets: images.map((m) => ({ outputId: m.outputId })),
      posts: [
        { platform: "instagram", format: "carousel", connectedAccountId: acc("instagram").id, platformSpecificData: { caption: "Three looks for spring, swipe through. #spring" } },
        { platform: "x", format: "post", connectedAccountId: acc("x").id, platformSpecificData: { caption: X_CAPTION } },
      ],
    },
  });
  const cover = await upload(ipc, "cover.png", "image/png", png(360, 640, [120, 60, 150]));
  // A few bytes are enough for the service to keep a video; the preview shows its cover, not its frames.
  const clip = await upload(ipc, "tour.mp4", "video/mp4", Buffer.from("00000018667479706d703432", "hex"));
  const tour = await ipc("card_create", { spaceId, stage: stageId, title: "Studio tour", platform: "tiktok" });
  await ipc("card_update", {
    cardId: tour.id,
    update: {
      coverUrl: cover.url,
      assets: [{ outputId: clip.outputId }],
      posts: [{ platform: "tiktok", format: "video", connectedAccountId: acc("tiktok").id, platformSpecificData: { caption: "A walk through the studio before the spring drop." } }],
    },
  });
  return { spring: spring.id, tour: tour.id, accounts: { instagram: acc("instagram"), x: acc("x"), tiktok: acc("tiktok") } };
}
