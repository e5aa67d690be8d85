import { describe, expect, it } from "vitest";
import type { CardImportInput, ImportReport } from "../../bindings";
import { create, groups, outcomes, rerun, summary } from "./importRun";

const report = (part: Partial<ImportReport>): ImportReport => ({
  dryRun: false, format: "csv", file: "plan.csv", existing: [], refused: [], ignoredColumns: [], wouldCreate: [], created: [], ...part,
});
const row = (line: number, title: string, cardId?: string) => ({ line, key: `k${line}`, title, platforms: ["x"], ...(cardId ? { cardId } : {}) });

describe("the import's runs and report", () => {
  it("splits the lines into calls of five, in order", () => {
    expect(groups([2, 3, 4, 5, 6, 7, 8])).toEqual([[2, 3, 4, 5, 6], [7, 8]]);
    expect(groups([])).toEqual([]);
    expect(groups([1, 2, 3], 0)).toEqual([[1], [2], [3]]);
  });

  it("creates every line a few a call, with progress after each, passing the file's text, never a path alone", async () => {
    const asked: CardImportInput[] = [];
    const run = async (a: CardImportInput) => { asked.push(a); return report({ created: (a.lines ?? []).map((l) => row(l, `T${l}`, `c${l}`)) }); };
    const seen: [number, number][] = [];
    const { reports, error } = await create(run, { name: "plan.csv", text: "title\n" }, "sp1", [2, 3, 4, 5, 6, 7], (d, t) => seen.push([d, t]));
    expect(error).toBeNull();
    expect(asked.map((a) => a.lines)).toEqual([[2, 3, 4, 5, 6], [7]]);
    expect(asked.every((a) => a.text === "title\n" && a.spaceId === "sp1" && !a.dryRun)).toBe(true);
    expect(seen).toEqual([[0, 6], [5, 6], [6, 6]]);
    expect(outcomes(reports).map((o) => o.line)).toEqual([2, 3, 4, 5, 6, 7]);
  });

  it("stops at a failed call and answers what was done and the error", async () => {
    let calls = 0;
    const run = async (a: CardImportInput) => { if (++calls === 2) throw { code: "network", message: "down" }; return report({ created: (a.lines ?? []).map((l) => row(l, "t", "c")) }); };
    const { reports, error } = await create(run, { name: "f.csv", text: "" }, "sp", [1, 2, 3, 4, 5, 6, 7], () => undefined);
    expect(reports).toHaveLength(1);
    expect(error).toEqual({ code: "network", message: "down" });
  });

  it("reports each line once, a re-run's word winning, and sums them up", () => {
    const first = report({
      created: [row(2, "A", "c2")], existing: [{ line: 3, key: "k3", title: "B", cardId: "c3" }],
      refused: [{ line: 4, field: "platforms", message: "“myspace” is not a platform" }],
    });
    const rows = outcomes([first]);
    expect(rows.map((r) => [r.line, r.status])).toEqual([[2, "created"], [3, "existing"], [4, "refused"]]);
    expect(rows[2]).toMatchObject({ field: "platforms" });
    expect(summary(rows)).toBe("1 created, 1 already imported, 1 refused");
    const fixed = report({ created: [row(4, "C", "c4")] });
    expect(summary(outcomes([first, fixed]))).toBe("2 created, 1 already imported");
    expect(summary([])).toBe("nothing");
  });

  it("re-runs one line alone", async () => {
    const asked: CardImportInput[] = [];
    await rerun(async (a) => { asked.push(a); return report({}); }, { name: "f.csv", text: "x" }, "sp", 4);
    expect(asked).toEqual([{ file: "f.csv", text: "x", spaceId: "sp", lines: [4] }]);
  });
});
