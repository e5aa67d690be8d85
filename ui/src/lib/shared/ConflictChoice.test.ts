import { expect, it, vi } from "vitest";
import { render, screen, within } from "@testing-library/svelte";
import userEvent from "@testing-library/user-event";
import ConflictChoice from "./ConflictChoice.svelte";

function show(props: Record<string, unknown> = {}) {
  const ontheirs = vi.fn(), onmine = vi.fn(), onmerge = vi.fn();
  const view = render(ConflictChoice, {
    theirs: "version 3 (current)", mine: "your text, written over version 2", ontheirs, onmine, onmerge, testid: "c", ...props,
  });
  return { ontheirs, onmine, onmerge, view, box: screen.getByTestId("c") };
}

const names = (box: HTMLElement) => within(box).getAllByRole("button").map((b) => b.textContent?.trim());

it("says what changed: the heading names the group, theirs and mine are described", () => {
  const { box } = show();
  const group = screen.getByRole("group", { name: "Changed elsewhere" });
  expect(group).toBe(box);
  expect(within(box).getByTestId("conflict-theirs")).toHaveTextContent("version 3 (current)");
  expect(within(box).getByTestId("conflict-mine")).toHaveTextContent("your text, written over version 2");
  expect(group).toHaveAccessibleDescription(/Theirs\s*version 3 \(current\)\s*Mine\s*your text/);
});

it("offers Take theirs, Keep mine, Merge… in that order, and each calls its own callback", async () => {
  const { box, ontheirs, onmine, onmerge } = show();
  expect(names(box)).toEqual(["Take theirs", "Keep mine", "Merge…"]);
  const user = userEvent.setup();
  await user.click(within(box).getByRole("button", { name: "Take theirs" }));
  expect(ontheirs).toHaveBeenCalledOnce();
  await user.click(within(box).getByRole("button", { name: "Keep mine" }));
  expect(onmine).toHaveBeenCalledOnce();
  await user.click(within(box).getByRole("button", { name: "Merge…" }));
  expect(onmerge).toHaveBeenCalledOnce();
  expect(ontheirs).toHaveBeenCalledOnce();
  expect(onmine).toHaveBeenCalledOnce();
});

it("without a text merge (the outbox) there is no Merge…", () => {
  const { box } = show({ onmerge: undefined });
  expect(names(box)).toEqual(["Take theirs", "Keep mine"]);
});

it("focuses the first choice when it appears, Tab walks the choices in order, Escape picks nothing", async () => {
  const { box, ontheirs, onmine, onmerge } = show();
  const [theirs, mine, merge] = within(box).getAllByRole("button");
  expect(theirs).toHaveFocus();
  const user = userEvent.setup();
  await user.tab();
  expect(mine).toHaveFocus();
  await user.tab();
  expect(merge).toHaveFocus();
  await user.tab({ shift: true });
  await user.tab({ shift: true });
  expect(theirs).toHaveFocus();
  await user.keyboard("{Escape}");
  expect(ontheirs).not.toHaveBeenCalled();
  expect(onmine).not.toHaveBeenCalled();
  expect(onmerge).not.toHaveBeenCalled();
  expect(box).toBeInTheDocument();
  // Enter on the focused choice is a choice, made on purpose.
  await user.keyboard("{Enter}");
  expect(ontheirs).toHaveBeenCalledOnce();
});

it("a conflict found on load (autofocus off) leaves focus where it was", () => {
  const outside = document.createElement("button");
  document.body.append(outside);
  outside.focus();
  show({ autofocus: false });
  expect(outside).toHaveFocus();
  outside.remove();
});

it("busy disables every choice; mine and merge can be disabled on their own", () => {
  const busy = show({ busy: true });
  for (const b of within(busy.box).getAllByRole("button")) expect(b).toBeDisabled();
  busy.view.unmount();
  const { box } = show({ mineDisabled: true, mergeDisabled: true });
  expect(within(box).getByRole("button", { name: "Take theirs" })).toBeEnabled();
  expect(within(box).getByRole("button", { name: "Keep mine" })).toBeDisabled();
  expect(within(box).getByRole("button", { name: "Merge…" })).toBeDisabled();
});

it("a change only not sent (nothing changed elsewhere) says so, with Discard mine / Send mine in the same places", async () => {
  const { box, ontheirs, onmine } = show({ unsent: true, onmerge: undefined });
  expect(screen.getByRole("group", { name: "Not sent yet" })).toBe(box);
  expect(names(box)).toEqual(["Discard mine", "Send mine"]);
  const user = userEvent.setup();
  await user.click(within(box).getByRole("button", { name: "Send mine" }));
  expect(onmine).toHaveBeenCalledOnce();
  await user.click(within(box).getByRole("button", { name: "Discard mine" }));
  expect(ontheirs).toHaveBeenCalledOnce();
});
