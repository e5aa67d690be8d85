import { afterEach, expect, it } from "vitest";
import { cleanup, render, screen } from "@testing-library/svelte";
import ReferenceField from "./ReferenceField.svelte";
import { thumbnailFor, type GalleryItem } from "./studioRules";

afterEach(cleanup);

const ID = "0f8fad5b-d9cb-469f-a165-70867728950e";
const item = (n: number, kind: GalleryItem["kind"] = "image"): GalleryItem => ({
  token: `${ID}-${n}`, outputId: ID, url: `http://127.0.0.1:9/files/${ID}-${n}.png`, kind, index: n, of: 2, label: "a fox",
} as GalleryItem);

it("a chip shows the referenced output's image; a typed web address is never loaded", () => {
  const gallery = [item(1), item(2)];
  expect(thumbnailFor(`${ID}-2`, gallery)).toBe(gallery[1].url);
  expect(thumbnailFor(ID.toUpperCase(), gallery)).toBe(gallery[0].url);
  expect(thumbnailFor(`${ID}-3`, gallery)).toBeNull();
  expect(thumbnailFor("https://images.example.com/fox.png", gallery)).toBeNull();
  expect(thumbnailFor(`${ID}-1`, [item(1, "video")])).toBeNull();

  render(ReferenceField, {
    id: "refs", label: "Reference images", max: 4, onchange: () => {},
    values: [`${ID}-2`, "https://images.example.com/fox.png"], thumbnail: (v: string) => thumbnailFor(v, gallery),
  });
  const thumbs = screen.getAllByTestId("chip-thumb");
  expect(thumbs).toHaveLength(1);
  expect(thumbs[0].getAttribute("src")).toBe(gallery[1].url);
  expect(document.querySelectorAll("img[src*='example.com']")).toHaveLength(0);
});
