import { describe, expect, it } from "vitest";
import { diffSentence, diffSummary } from "./diffSummary";

describe("diffSummary", () => {
  it("counts lines removed and added per changed passage", () => {
    expect(diffSummary("a\nb\nc", "a\nb\nc")).toEqual({ passages: 0, removed: 0, added: 0 });
    expect(diffSummary("a\nb\nc", "a\nB\nc")).toEqual({ passages: 1, removed: 1, added: 1 });
    expect(diffSummary("a\nb\nc", "a\nc")).toMatchObject({ passages: 1, removed: 1, added: 0 });
    expect(diffSummary("a\nc", "a\nb1\nb2\nc")).toMatchObject({ passages: 1, removed: 0, added: 2 });
    expect(diffSummary("one\ntwo\nthree\nfour\nfive\nsix", "ONE\ntwo\nthree\nfour\nfive\nSIX")).toMatchObject({ passages: 2, removed: 2, added: 2 });
  });
  it("says it in a sentence", () => {
    expect(diffSentence({ passages: 0, removed: 0, added: 0 })).toBe("The two texts are the same.");
    expect(diffSentence({ passages: 1, removed: 1, added: 2 })).toBe("1 change: 1 line removed, 2 lines added.");
    expect(diffSentence({ passages: 2, removed: 0, added: 3 })).toBe("2 changes: 3 lines added.");
  });
});
