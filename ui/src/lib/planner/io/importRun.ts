// Importing cards from a CSV or JSON file (issue 28 point 6), the UI's part: the core's `card_import`
// (the catalogue's `card import`) does the parsing, the row rules and the creating; this asks it for the
// dry run, then creates the rows a few lines a call (so the dialog can show progress; each call is
// idempotent by the rows' keys), and folds the answers into one report, a row per line.
import type { CardImportInput, ImportReport } from "../../bindings";
import { call } from "../../shared/backend";

/** Rows created per call: small enough for the progress bar to move, large enough to be quick. */
export const ROWS_PER_CALL = 5;

export type ImportCall = (args: CardImportInput) => Promise<ImportReport>;

/** The core's import (web-shell or Tauri IPC). */
export const coreImport: ImportCall = (args) => call<ImportReport>("card_import", args);

/** What the import did with one line of the file. */
export type RowOutcome =
  | { line: number; status: "created"; title: string; cardId: string | null }
  | { line: number; status: "existing"; title: string; cardId: string }
  | { line: number; status: "refused"; field: string; message: string };

/** The file as the dialog holds it: its name and text (read in the web view; the core opens no path). */
export type ImportFile = { name: string; text: string };

/** `lines` in groups of `size`, in order. */
export function groups(lines: number[], size = ROWS_PER_CALL): number[][] {
  const out: number[][] = [];
  for (let i = 0; i < lines.length; i += Math.max(1, size)) out.push(lines.slice(i, i + Math.max(1, size)));
  return out;
}

/** The outcome of every line the reports speak of, by line; a later report's word on a line wins (a
 *  refused row re-run alone, once fixed). */
export function outcomes(reports: ImportReport[]): RowOutcome[] {
  const byLine = new Map<number, RowOutcome>();
  for (const r of reports) {
    for (const e of r.existing) byLine.set(e.line, { line: e.line, status: "existing", title: e.title, cardId: e.cardId });
    for (const x of r.refused) byLine.set(x.line, { line: x.line, status: "refused", field: x.field, message: x.message });
    for (const c of r.created) byLine.set(c.line, { line: c.line, status: "created", title: c.title, cardId: c.cardId ?? null });
  }
  return [...byLine.values()].sort((a, b) => a.line - b.line);
}

/** "3 created, 1 already imported, 1 refused" (the parts that are not zero; "nothing" when all are). */
export function summary(rows: RowOutcome[]): string {
  const n = (s: RowOutcome["status"]) => rows.filter((r) => r.status === s).length;
  const parts = [
    n("created") && `${n("created")} created`,
    n("existing") && `${n("existing")} already imported`,
    n("refused") && `${n("refused")} refused`,
  ].filter(Boolean);
  return parts.length ? parts.join(", ") : "nothing";
}

/** The dry run: what the file would make, what is there already, what is refused and why. */
export function preview(run: ImportCall, file: ImportFile, spaceId: string): Promise<ImportReport> {
  return run({ file: file.name, text: file.text, spaceId, dryRun: true });
}

/**
 * Creates the rows of `lines`, `ROWS_PER_CALL` a call, telling `progress(done, total)` after each call.
 * A failure (the service stopped answering) stops there: the reports so far and the error are answered,
 * and running the import again makes only what is missing (the rows' keys).
 */
export async function create(
  run: ImportCall, file: ImportFile, spaceId: string, lines: number[], progress: (done: number, total: number) => void,
): Promise<{ reports: ImportReport[]; error: unknown }> {
  const reports: ImportReport[] = [];
  let done = 0;
  progress(0, lines.length);
  for (const part of groups(lines)) {
    try {
      reports.push(await run({ file: file.name, text: file.text, spaceId, lines: part }));
    } catch (error) {
      return { reports, error };
    }
    done += part.length;
    progress(done, lines.length);
  }
  return { reports, error: null };
}

/** One row again, alone (`lines: [line]`), from the file as it is now (fixed, or chosen again). */
export function rerun(run: ImportCall, file: ImportFile, spaceId: string, line: number): Promise<ImportReport> {
  return run({ file: file.name, text: file.text, spaceId, lines: [line] });
}
