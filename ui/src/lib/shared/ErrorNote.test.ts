import { describe, expect, it } from "vitest";
import { render, screen } from "@testing-library/svelte";
import ErrorNote from "./ErrorNote.svelte";
import { errorDetails, errorMessage, errorTitle } from "./errors";
import type { IpcCode, IpcError } from "../bindings";

// One error per code of docs/ipc.md, with a message like the core writes.
const EXAMPLES: Record<IpcCode, [IpcError, RegExp]> = {
  unauthorized: [{ code: "unauthorized", message: "The service refused this API key. Paste a current key in Settings.", status: 401 }, /The key was refused.*Paste a current key in Settings/s],
  missingScope: [{ code: "missingScope", scope: "planner:write", message: "This key lacks the scope planner:write. Grant it in Settings → API keys.", status: 403 }, /Missing scope: planner:write.*lacks the scope planner:write/s],
  notFound: [{ code: "notFound", message: "Not found: card c1. It may have been deleted elsewhere.", status: 404 }, /Not found.*deleted elsewhere/s],
  validation: [{ code: "validation", field: "platform", validValues: ["instagram", "tiktok"], message: "Unknown platform.", status: 400 }, /Check platform.*Unknown platform.*Valid values: instagram, tiktok/s],
  conflict: [{ code: "conflict", message: "Someone changed this. Nothing was written; your text is kept.", conflicts: [] }, /Changed elsewhere.*Nothing was written/s],
  notesConflict: [{ code: "notesConflict", message: "The card's notes changed. Nothing was written; your text is kept.", notes: "theirs", revision: 3 }, /Changed elsewhere.*notes changed/s],
  rateLimited: [{ code: "rateLimited", message: "The service is rate limiting this key. Try again in 12 s.", retryAfter: 12 }, /Too many requests.*Try again in 12 s/s],
  insufficientCredits: [{ code: "insufficientCredits", message: "Not enough credits: this costs 40, the balance is 10.", status: 402 }, /Not enough credits.*costs 40, the balance is 10/s],
  limitReached: [{ code: "limitReached", message: "Your plan's limit is reached (50 documents)." }, /Plan limit reached.*50 documents/s],
  network: [{ code: "network", message: "Could not reach the service (connection refused). Nothing was lost." }, /Cannot reach the service.*connection refused/s],
  queued: [{ code: "queued", message: "The service cannot be reached, so your change is kept on this computer and will be sent when the service answers (1 change waiting)." }, /Kept on this computer.*1 change waiting/s],
  server: [{ code: "server", message: "The service failed (503). Try again in a moment.", status: 503 }, /The service failed.*503/s],
  keyringUnavailable: [{ code: "keyringUnavailable", message: "No keyring is reachable (no D-Bus). Install gnome-keyring." }, /Keyring unavailable.*gnome-keyring.*org\.freedesktop\.secrets.*unlock the login keyring/s],
  noKey: [{ code: "noKey", message: "The profile “Studio” has no API key yet: add one in Settings." }, /No API key.*add one in Settings/s],
  noProfile: [{ code: "noProfile", message: "No profile is selected." }, /No profile.*No profile is selected/s],
  internal: [{ code: "internal", message: "Unexpected state." }, /Something went wrong.*Unexpected state/s],
};

describe("every IpcError code reads as what happened and what to do", () => {
  for (const [code, [error, shown]] of Object.entries(EXAMPLES)) {
    it(code, () => {
      render(ErrorNote, { error, testid: `note-${code}` });
      const note = screen.getByTestId(`note-${code}`);
      expect(note).toHaveAttribute("role", "alert");
      expect(note).toHaveAttribute("data-code", code);
      expect(note.textContent).toMatch(shown);
    });
  }

  it("an empty message still says something useful, for every code", () => {
    for (const code of Object.keys(EXAMPLES) as IpcCode[]) {
      const e = { code, message: "" } as IpcError;
      expect(errorTitle(e).length).toBeGreaterThan(3);
      expect(errorMessage(e).length).toBeGreaterThan(20);
    }
  });
});

describe("details the UI adds", () => {
  it("names the scope when the message does not", () => {
    expect(errorDetails({ code: "missingScope", scope: "brandkit:read", message: "Forbidden." }).join(" "))
      .toMatch(/Grant the scope brandkit:read/);
    expect(errorDetails({ code: "missingScope", scope: "brandkit:read", message: "This key lacks the scope brandkit:read." }))
      .toEqual([]);
  });

  it("gives the wait when the message does not", () => {
    expect(errorDetails({ code: "rateLimited", message: "Slow down.", retryAfter: 2.2 })).toEqual(["Try again in 3 s."]);
  });

  it("an unknown field is named as it is", () => {
    expect(errorTitle({ code: "validation", field: "scheduledAt", message: "x" })).toBe("Check scheduledAt");
    expect(errorTitle({ code: "validation", field: "baseUrl", message: "x" })).toBe("Check the base URL");
  });
});
