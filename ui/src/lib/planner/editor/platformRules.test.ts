import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import { describe, expect, it } from "vitest";
import { RULES, checkCard, count, countLinks, parseCounting, type Finding, type PreflightInput } from "./platformRules";

// crates/api-types/fixtures/platform-rules-cases.json: the cases api-types' preflight_cases.rs runs too.
type Text = string | (string | { repeat: string; times: number })[];
type Case = { name: string; posts: Record<string, unknown>[]; assets: PreflightInput["assets"]; expect: Finding[] };
const fixture = JSON.parse(
  readFileSync(resolve(process.cwd(), "../crates/api-types/fixtures/platform-rules-cases.json"), "utf8"),
) as { cases: Case[]; counts: { text: string; counting: string; expect: number }[]; links: { text: string; expect: number }[] };

const text = (t: unknown) => (Array.isArray(t) ? (t as Exclude<Text, string>).map((p) => (typeof p === "string" ? p : p.repeat.repeat(p.times))).join("") : t);

function card(c: Case): PreflightInput {
  const posts = c.posts.map((p) => {
    const post = { ...p };
    for (const key of ["platformSpecificData", "platformSettings"]) {
      const data = post[key];
      if (data && typeof data === "object" && !Array.isArray(data)) {
        post[key] = Object.fromEntries(Object.entries(data).map(([k, v]) => [k, text(v)]));
      }
    }
    return post as PreflightInput["posts"][number];
  });
  return { posts, assets: c.assets };
}

describe("the preflight follows the cases the Rust check runs", () => {
  it("has the cases", () => expect(fixture.cases.length).toBeGreaterThanOrEqual(30));
  it.each(fixture.cases.map((c) => [c.name, c] as const))("%s", (_name, c) => {
    expect(checkCard(card(c))).toEqual(c.expect);
  });
  it.each(fixture.counts.map((c) => [JSON.stringify(c.text), c.counting, c.expect] as const))("count %s (%s) = %i", (t, how, n) => {
    expect(count(JSON.parse(t) as string, parseCounting(how)!)).toBe(n);
  });
  it.each(fixture.links.map((c) => [c.text, c.expect] as const))("links in %j = %i", (t, n) => {
    expect(countLinks(t)).toBe(n);
  });
});

describe("the table", () => {
  it("names a platform page and the day it was read for every rule, and general has none", () => {
    expect(RULES.platforms.general).toBeUndefined();
    for (const [platform, p] of Object.entries(RULES.platforms)) {
      for (const r of p.rules) {
        expect(r.source, `${platform} ${r.rule}`).toMatch(/^https:\/\//);
        expect(r.read, `${platform} ${r.rule}`).toMatch(/^\d{4}-\d{2}-\d{2}$/);
        expect(["blocks", "warns"]).toContain(r.severity);
      }
    }
  });
  it("every rule is broken by some case", () => {
    const found = new Set(fixture.cases.flatMap((c) => c.expect.map((f) => `${f.platform} ${f.rule}`)));
    for (const [platform, p] of Object.entries(RULES.platforms)) {
      for (const r of p.rules) expect(found.has(`${platform} ${r.rule}`), `${platform} ${r.rule}`).toBe(true);
    }
  });
});
