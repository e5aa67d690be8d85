import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import { describe, expect, it } from "vitest";
import type { SectionEdit } from "../bindings";
import {
  KNOWLEDGE_MAX_FILE_BYTES, applyPlacement, checkSectionAdd, checkSectionEdits, editFor, fileRoute, outlineOf, placementFor, sizeLabel,
  humanise, roleLabel, sourceLabel, summaryOf, tabLabel, tabsOf, valueOf, type RuleError,
} from "./brandKitRules";
import { dropIndex } from "./sectionDnd";
import { forgetUnsavedOf } from "./unsaved";
import { WRITTEN_KEEP, noteWritten, writtenVersions } from "./written";

const read = { key: "about", sectionName: "About", width: "full", tab: "overview" };

it("a save entry holds only what changed, with the version read", () => {
  const cases: [Parameters<typeof editFor>[2], object | null][] = [
    [{ body: "# same" }, null],
    [{ body: "# new" }, { key: "about", body: "# new", expectedVersion: 4 }],
    [{ width: "full" }, null],
    [{ width: "half" }, { key: "about", width: "half", expectedVersion: 4 }],
    [{ name: " About " }, null],
    [{ name: " Who we are " }, { key: "about", name: "Who we are", expectedVersion: 4 }],
    [{ tab: "voice", body: "# same" }, { key: "about", tab: "voice", expectedVersion: 4 }],
  ];
  for (const [change, want] of cases) expect(editFor(read, "# same", change, 4), JSON.stringify(change)).toEqual(want);
  // A body never read is sent when given.
  expect(editFor(read, null, { body: "" }, 2)).toEqual({ key: "about", body: "", expectedVersion: 2 });
});

it("tabs: the service's order first, then any other the sections carry", () => {
  expect(tabsOf([{ tab: "visual" }, { tab: "overview" }, { tab: "visual" }])).toEqual(["overview", "visual"]);
  expect(tabsOf([{ tab: "extra" }, { tab: "voice" }])).toEqual(["voice", "extra"]);
  expect(tabsOf([])).toEqual([]);
});

it("the outline is the section's own ## headings, outside code fences", () => {
  expect(outlineOf("# Title\n## One\ntext\n### Sub\n## Two ##\n```\n## not this\n```\n##nospace")).toEqual(["One", "Two"]);
  const s = summaryOf({ id: "i", key: "k", role: null, tab: "voice", sectionName: "K", width: "half", version: 3, body: "## Hé\nxyz", updatedAt: null, sortOrder: 2 });
  expect(s).toMatchObject({ key: "k", version: 3, width: "half", charCount: 9, outline: ["Hé"], sortOrder: 2 });
  expect(sizeLabel(0)).toBe("empty");
  expect(sizeLabel(999)).toBe("999 characters");
  expect(sizeLabel(5120)).toBe("5.1k characters");
});

it("small documents and images go as base64; large files, video and audio need a hosted URL", () => {
  expect(fileRoute({ name: "notes.md", size: 2000, type: "text/markdown" })).toEqual({ send: "fileData" });
  expect(fileRoute({ name: "logo.PNG", size: KNOWLEDGE_MAX_FILE_BYTES, type: "image/png" })).toEqual({ send: "fileData" });
  const big = fileRoute({ name: "catalogue.pdf", size: KNOWLEDGE_MAX_FILE_BYTES + 1, type: "application/pdf" });
  expect(big).toMatchObject({ send: "fileUrl", reason: "large" });
  expect(big.send === "fileUrl" && big.message).toMatch(/4\.0 MB.*hosted URL/);
  expect(fileRoute({ name: "talk.mov", size: 10, type: "" })).toMatchObject({ send: "fileUrl", reason: "media" });
  const audio = fileRoute({ name: "x.bin", size: 10, type: "audio/mpeg" });
  expect(audio.send === "fileUrl" && audio.message).toMatch(/is audio/);
});

describe("the section rules follow the cases the core checks", () => {
  // crates/api-types/fixtures/brand-kit-rules.json: one list of cases for the core (checks.rs and the catalogue's SectionAddInput::check), the sandbox and TypeScript.
  type Add = { name: string; input: Parameters<typeof checkSectionAdd>[0]; expect: RuleError | null };
  type Save = { name: string; sections: SectionEdit[]; expect: RuleError | null };
  const fixture = JSON.parse(
    readFileSync(resolve(process.cwd(), "../crates/api-types/fixtures/brand-kit-rules.json"), "utf8"),
  ) as { add: Add[]; save: Save[] };
  it("has the cases", () => {
    expect(fixture.add.length).toBeGreaterThanOrEqual(10);
    expect(fixture.save.length).toBeGreaterThanOrEqual(20);
  });
  it.each(fixture.add.map((c) => [c.name, c] as const))("add: %s", (_name, c) => {
    expect(checkSectionAdd(c.input)).toEqual(c.expect);
  });
  it.each(fixture.save.map((c) => [c.name, c] as const))("save: %s", (_name, c) => {
    expect(checkSectionEdits(c.sections)).toEqual(c.expect);
  });
});

describe("moving a section: the placement a save sends and the order it makes", () => {
  const S = [
    { key: "a", id: "ia", tab: "overview" }, { key: "b", id: "ib", tab: "overview" }, { key: "c", id: "ic", tab: "overview" },
    { key: "v", id: "iv", tab: "voice" },
  ];
  const keys = (xs: { key: string; tab: string }[], tab: string) => xs.filter((x) => x.tab === tab).map((x) => x.key);
  it.each([
    ["c to the top", "c", "overview", 0, { position: "top" }, ["c", "a", "b"]],
    ["a after b", "a", "overview", 1, { afterId: "ib" }, ["b", "a", "c"]],
    ["a to the end", "a", "overview", 2, { afterId: "ic" }, ["b", "c", "a"]],
    ["b to voice, after v", "b", "voice", 1, { afterId: "iv" }, ["v", "b"]],
    ["b to visual (empty)", "b", "visual", 0, { position: "top" }, ["b"]],
  ] as const)("%s", (_n, key, tab, to, place, order) => {
    const p = placementFor(S, key, tab, to);
    expect(p).toEqual(place);
    expect(keys(applyPlacement(S, key, tab, p!), tab)).toEqual(order);
  });
  it("no placement where it already is; a drop's index counts the others", () => {
    expect(placementFor(S, "b", "overview", 1)).toBeNull();
    expect(dropIndex(S, "a", { tab: "overview", beside: "c", edge: "bottom" })).toBe(2);
    expect(dropIndex(S, "a", { tab: "overview", beside: "b", edge: "top" })).toBe(0);
    expect(dropIndex(S, "a", { tab: "voice", beside: null, edge: null })).toBe(1);
  });
});

describe("names on screen: never a key", () => {
  it("a starter role by the spec's name; anything else humanised in one form", () => {
    expect(roleLabel("content_strategy")).toBe("Content Strategy");
    expect(roleLabel("voice_and_tone")).toBe("Voice & Tone");
    expect(roleLabel("brand_story")).toBe("Brand story");
    expect(tabLabel("overview")).toBe("Overview");
    expect(humanise("half")).toBe("Half");
    expect(humanise("my-own_tab")).toBe("My own tab");
  });
  it("a name typed in a filter is sent as the service's value; anything else as typed", () => {
    const roles = ["about", "content_strategy", "voice_and_tone"];
    expect(valueOf("Content Strategy", roles, roleLabel)).toBe("content_strategy");
    expect(valueOf("  voice & tone ", roles, roleLabel)).toBe("voice_and_tone");
    expect(valueOf("voice and tone", roles, roleLabel)).toBe("voice_and_tone");
    expect(valueOf("content_strategy", roles, roleLabel)).toBe("content_strategy");
    expect(valueOf("villain", roles, roleLabel)).toBe("villain");
  });
});

describe("who wrote a version", () => {
  it("this app's own writes read as Content Desk; the service's bodySource otherwise", () => {
    expect(sourceLabel("api", true)).toBe("edited in Content Desk");
    expect(sourceLabel(null, true)).toBe("edited in Content Desk");
    expect(sourceLabel("api")).toBe("through the API");
    expect(sourceLabel("user")).toBe("edited in the service's app");
    expect(sourceLabel("extraction")).toBe("extracted from your material");
    expect(sourceLabel(null)).toBe("");
  });
  it("the versions written here are kept per profile, kit and section", () => {
    noteWritten("p1", "kit-1", "about", 3);
    noteWritten("p1", "kit-1", "about", 5);
    noteWritten("p1", "kit-1", "offer", 2);
    noteWritten("p2", "kit-1", "about", 9);
    expect([...writtenVersions("p1", "kit-1", "about")]).toEqual([3, 5]);
    expect([...writtenVersions("p1", "kit-2", "about")]).toEqual([]);
    expect([...writtenVersions("p2", "kit-1", "about")]).toEqual([9]);
    for (let v = 10; v < 10 + WRITTEN_KEEP + 5; v++) noteWritten("p1", "kit-1", "about", v);
    const kept = writtenVersions("p1", "kit-1", "about");
    expect(kept.size).toBe(WRITTEN_KEEP);
    expect(kept.has(3)).toBe(false);
    forgetUnsavedOf("p1");
    expect(writtenVersions("p1", "kit-1", "offer").size).toBe(0);
    expect(writtenVersions("p2", "kit-1", "about").size).toBe(1);
  });
});
