import { expect, it, vi } from "vitest";
import { render, screen } from "@testing-library/svelte";
import userEvent from "@testing-library/user-event";
import ConfirmDialog from "./ConfirmDialog.svelte";

function open(busy = false) {
  const opener = document.createElement("button");
  opener.textContent = "Remove";
  document.body.append(opener);
  opener.focus();
  const onconfirm = vi.fn(), oncancel = vi.fn();
  const view = render(ConfirmDialog, { title: "Remove “Studio”?", message: "Its key is deleted too.", confirmLabel: "Remove profile", onconfirm, oncancel, busy });
  return { opener, onconfirm, oncancel, view };
}

it("names what happens, focuses Cancel, keeps Tab inside, and gives focus back when closed", async () => {
  const { opener, onconfirm, oncancel, view } = open();
  const user = userEvent.setup();
  const dialog = screen.getByRole("alertdialog");
  expect(dialog).toHaveAccessibleName("Remove “Studio”?");
  expect(dialog).toHaveAccessibleDescription("Its key is deleted too.");
  const cancel = screen.getByRole("button", { name: "Cancel" });
  const confirm = screen.getByRole("button", { name: "Remove profile" });
  expect(cancel).toHaveFocus();
  await user.tab();
  expect(confirm).toHaveFocus();
  await user.tab();
  expect(cancel).toHaveFocus();
  await user.tab({ shift: true });
  expect(confirm).toHaveFocus();
  await user.keyboard("{Enter}");
  expect(onconfirm).toHaveBeenCalledOnce();
  await user.keyboard("{Escape}");
  expect(oncancel).toHaveBeenCalledOnce();
  view.unmount();
  expect(opener).toHaveFocus();
  opener.remove();
});

it("while busy, both buttons are disabled and Escape does nothing", async () => {
  const { oncancel, opener } = open(true);
  expect(screen.getByRole("button", { name: "Working…" })).toBeDisabled();
  expect(screen.getByRole("button", { name: "Cancel" })).toBeDisabled();
  screen.getByRole("alertdialog").dispatchEvent(new KeyboardEvent("keydown", { key: "Escape", bubbles: true }));
  expect(oncancel).not.toHaveBeenCalled();
  opener.remove();
});
