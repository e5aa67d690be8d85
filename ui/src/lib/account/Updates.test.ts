import { afterEach, describe, expect, it } from "vitest";
import { render, screen, waitFor } from "@testing-library/svelte";
import userEvent from "@testing-library/user-event";
import { clearMocks } from "@tauri-apps/api/mocks";
import { emit } from "@tauri-apps/api/event";
import Updates from "./Updates.svelte";
import { fakeCore } from "../shared/fakeCore";
import { UPDATE_PROGRESS_EVENT } from "../shared/backend";
import type { UpdateStatus } from "../bindings";

afterEach(() => clearMocks());

const AVAILABLE: UpdateStatus = {
  state: "available", current: "0.1.0", version: "0.2.0", notes: "The board opens faster.", date: null, note: null, manual: null,
};

describe("Settings → Updates", () => {
  it("the check at start is a setting, stored by the core", async () => {
    const core = fakeCore();
    render(Updates);
    const box = (await screen.findByTestId("update-auto")) as HTMLInputElement;
    await waitFor(() => expect(box.disabled).toBe(false));
    expect(box.checked).toBe(true);
    await userEvent.setup().click(box);
    await waitFor(() => expect(core.called("update_prefs_set")[0]?.args).toEqual({ autoCheck: false }));
    expect(core.updatePrefs.autoCheck).toBe(false);
  });

  it("up to date, or a failure's short note", async () => {
    const core = fakeCore();
    render(Updates);
    const user = userEvent.setup();
    await user.click(screen.getByTestId("update-check"));
    expect(await screen.findByTestId("update-status")).toHaveTextContent("Content Desk 0.1.0 is up to date.");
    expect(core.called("update_check")[0].args).toEqual({});
    core.updateStatus = { ...AVAILABLE, state: "failed", version: null, notes: null, note: "The update server did not answer in time. Nothing was changed." };
    await user.click(screen.getByTestId("update-check"));
    expect(await screen.findByTestId("update-note")).toHaveTextContent("The update server did not answer in time. Nothing was changed.");
    expect(screen.queryByTestId("update-install")).toBeNull();
  });

  it("a newer version: its notes, then download with progress and install; a system package gives the line to run", async () => {
    const core = fakeCore({ events: true });
    core.updateStatus = AVAILABLE;
    let finish: (s: UpdateStatus) => void = () => undefined;
    core.answers.update_install = () => new Promise<UpdateStatus>((r) => (finish = r));
    render(Updates);
    const user = userEvent.setup();
    await user.click(screen.getByTestId("update-check"));
    expect(await screen.findByTestId("update-status")).toHaveTextContent("Content Desk 0.2.0 is available (this is 0.1.0)");
    expect(screen.getByTestId("update-notes")).toHaveTextContent("The board opens faster.");
    await user.click(screen.getByTestId("update-install"));
    await waitFor(() => expect(core.called("update_install")).toHaveLength(1));
    await emit(UPDATE_PROGRESS_EVENT, { downloaded: 5 * 1048576, total: 10 * 1048576 });
    expect(await screen.findByText("Downloading… 5.0 MiB of 10.0 MiB")).toBeTruthy();
    expect((screen.getByTestId("update-progress") as HTMLProgressElement).value).toBe(5 * 1048576);
    finish({ ...AVAILABLE, manual: "sudo apt install '/root/Downloads/Content Desk_0.2.0_amd64.deb'" });
    expect(await screen.findByTestId("update-manual")).toHaveTextContent("sudo apt install '/root/Downloads/Content Desk_0.2.0_amd64.deb'");
    expect(screen.queryByTestId("update-install")).toBeNull();
  });
});
