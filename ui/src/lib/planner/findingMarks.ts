// The preflight marker of a card's tile and calendar chip (issue 28 point 2). The findings are not worked out
// here: the core runs the one rules engine (api-types `preflight::check`, as `cdesk card check` does) on each
// card it reads for the board and the calendar (`calendar_posts`), and answers them with the card's posts.
// This says which marker a card gets and, in words, why: "blocks" (a platform will refuse a post) wins over
// "warns" (a platform will cut, crop or hide something).
import type { Finding } from "../bindings";
import { findingText } from "./editor/platformRules";
import { platformLabel } from "./plannerApi";

export type Mark = { level: "blocks" | "warns"; label: string };

/** The findings a platform refuses the card for (the editor's and the calendar's confirms, the marker). */
export function blockingOf(findings: readonly Finding[]): Finding[] {
  return findings.filter((f) => f.severity === "blocks");
}

/** The first finding in words with how many more ("X refuses it: … (and 2 more)"); "" for none. */
export function findingsText(findings: readonly Finding[]): string {
  if (findings.length === 0) return "";
  const more = findings.length > 1 ? ` (and ${findings.length - 1} more)` : "";
  return `${platformLabel(findings[0].platform)} ${findingText(findings[0])}${more}`;
}

/** The marker for a card's findings (none: no marker). `label` is the marker's accessible name. */
export function markOf(findings: readonly Finding[] | null | undefined): Mark | null {
  if (!findings || findings.length === 0) return null;
  const blocking = blockingOf(findings);
  const level = blocking.length > 0 ? "blocks" : "warns";
  const head = level === "blocks" ? "A platform will refuse this card" : "A platform will cut or hide part of this card";
  return { level, label: `${head}: ${findingsText(level === "blocks" ? blocking : findings)}` };
}
