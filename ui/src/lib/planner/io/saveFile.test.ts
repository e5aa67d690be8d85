// Where a saved file goes: in the desktop window the shell's save_download (over the fake core; the real
// command writes into the downloads folder: src-tauri/tests/ipc.rs and the desktop journey), and the UI says
// that path; in a browser, the browser's download of a Blob under the file's name.
import { afterEach, expect, it, vi } from "vitest";
import { clearMocks } from "@tauri-apps/api/mocks";
import { fakeCore } from "../../shared/fakeCore";
import { saveFile } from "./saveFile";

afterEach(() => clearMocks());

it("the desktop window saves through the shell and answers the path it chose", async () => {
  const core = fakeCore();
  core.answers.save_download = (args) => `/home/ana/Downloads/${String(args?.fileName).replace(".ics", " (2).ics")}`;
  expect(await saveFile("plan.ics", "text/calendar", "BEGIN:VCALENDAR")).toBe("/home/ana/Downloads/plan (2).ics");
  expect(core.called("save_download").map((c) => c.args)).toEqual([{ fileName: "plan.ics", text: "BEGIN:VCALENDAR" }]);
});

it("a browser downloads a Blob under the file's name", async () => {
  delete (window as { __TAURI_INTERNALS__?: unknown }).__TAURI_INTERNALS__; // no Tauri: a browser
  const clicked: string[] = [];
  const click = vi.spyOn(HTMLAnchorElement.prototype, "click").mockImplementation(function (this: HTMLAnchorElement) { clicked.push(this.download); });
  URL.createObjectURL = vi.fn(() => "blob:x");
  URL.revokeObjectURL = vi.fn();
  expect(await saveFile("plan.csv", "text/csv", "a,b")).toBe("plan.csv");
  expect(clicked).toEqual(["plan.csv"]);
  click.mockRestore();
});
