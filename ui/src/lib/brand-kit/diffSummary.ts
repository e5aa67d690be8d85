// How two texts differ, counted in lines, for the sentence above a comparison ("2 lines removed, 3
// added"). Uses the merge view's own diff (@codemirror/merge `Chunk.build`), so the count and the
// highlighted passages agree. Imported only by DiffView (the lazily loaded editor chunk).
import { Chunk } from "@codemirror/merge";
import { Text } from "@codemirror/state";

export interface DiffSummary { passages: number; removed: number; added: number }

/** The lines a chunk covers in one document (`to` is one past the end of its last line, or `from` for none). */
const lines = (doc: Text, from: number, to: number) =>
  to > from ? doc.lineAt(Math.min(to - 1, doc.length)).number - doc.lineAt(from).number + 1 : 0;

export function diffSummary(a: string, b: string): DiffSummary {
  const docA = Text.of(a.split("\n")), docB = Text.of(b.split("\n"));
  const chunks = Chunk.build(docA, docB);
  let removed = 0, added = 0;
  for (const c of chunks) {
    removed += lines(docA, c.fromA, c.toA);
    added += lines(docB, c.fromB, c.toB);
  }
  return { passages: chunks.length, removed, added };
}

export function diffSentence({ passages, removed, added }: DiffSummary): string {
  if (passages === 0) return "The two texts are the same.";
  const n = (k: number, what: string) => `${k} ${k === 1 ? "line" : "lines"} ${what}`;
  const parts = [removed ? n(removed, "removed") : "", added ? n(added, "added") : ""].filter(Boolean);
  return `${passages} ${passages === 1 ? "change" : "changes"}: ${parts.join(", ") || "whitespace only"}.`;
}
