import { describe, expect, it } from "vitest";
import type { Finding } from "../bindings";
import { markOf } from "./findingMarks";

const f = (severity: string, platform = "x", rule = "max_length", actual = 300, limit = 280): Finding => ({
  platform, field: "caption", rule, limit, actual, severity, source: "https://docs.x.com/fundamentals/counting-characters",
});

describe("markOf", () => {
  it("no findings: no marker", () => {
    expect(markOf([])).toBeNull();
    expect(markOf(undefined)).toBeNull();
  });
  it("a blocking finding marks the card as refused, naming the platform and the rule broken", () => {
    expect(markOf([f("blocks")])).toEqual({ level: "blocks", label: "A platform will refuse this card: X caption: 300 / 280 characters; X refuses it." });
  });
  it("blocks wins over warns, and the rest are counted", () => {
    const m = markOf([f("warns", "instagram"), f("blocks"), f("blocks", "threads", "max_length", 600, 500)]);
    expect(m?.level).toBe("blocks");
    expect(m?.label).toMatch(/^A platform will refuse this card: X caption: 300 \/ 280 .* \(and 1 more\)$/);
  });
  it("only warnings: a warning marker", () => {
    expect(markOf([f("warns")])).toMatchObject({ level: "warns", label: expect.stringMatching(/^A platform will cut or hide part of this card: X /) });
  });
});
