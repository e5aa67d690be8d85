// Settings › Backup's restore in the desktop app (the Tauri IPC path, over the fake core: the real restart
// quits the process, which a component test cannot survive; tests/browser/io_backup.test.mjs restores through
// the real core in web-shell, where the note says what to do instead of a button).
import { afterEach, expect, it } from "vitest";
import { fireEvent, render, screen, waitFor } from "@testing-library/svelte";
import { clearMocks } from "@tauri-apps/api/mocks";
import Backup from "./Backup.svelte";
import { fakeCore } from "../shared/fakeCore";

afterEach(() => clearMocks());

it("after a restore is staged, Restart now restarts the desktop app (app_restart)", async () => {
  const core = fakeCore();
  core.answers.backup_restore = () => ({ createdAt: "20261128T010000Z", files: ["settings.json", "outbox.json"], uiPreferences: {} });
  core.answers.app_restart = () => null;
  render(Backup);
  expect(screen.queryByRole("button", { name: "Restart now" })).toBeNull();
  const input = screen.getByTestId("backup-file") as HTMLInputElement;
  const file = new File(['{"format":"content-desk-backup"}'], "backup.json", { type: "application/json" });
  await fireEvent.change(input, { target: { files: [file] } });
  await fireEvent.click(await screen.findByRole("button", { name: "Replace and restore" }));
  const staged = await screen.findByTestId("backup-staged");
  // The backup's stamp in the app's date format, not "20261128T010000Z".
  expect(staged.textContent).toMatch(/The backup of Nov 2[78], 2026, \d\d:00 is ready: settings\.json, outbox\.json\./);
  expect(screen.queryByTestId("backup-restart-note")).toBeNull();
  await fireEvent.click(screen.getByRole("button", { name: "Restart now" }));
  await waitFor(() => expect(core.called("app_restart")).toHaveLength(1));
});
