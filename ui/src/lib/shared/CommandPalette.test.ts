import { afterEach, expect, it, vi } from "vitest";
import { render, screen } from "@testing-library/svelte";
import userEvent from "@testing-library/user-event";
import CommandPalette from "./CommandPalette.svelte";
import { allActions, filterActions, provideActions, type PaletteAction } from "./palette.svelte";

const withdrawals: (() => void)[] = [];
afterEach(() => { while (withdrawals.length) withdrawals.pop()!(); });

function offer(actions: Omit<PaletteAction, "run">[], run = vi.fn()) {
  withdrawals.push(provideActions(() => actions.map((a) => ({ ...a, run: () => run(a.id) }))));
  return run;
}

const sample: Omit<PaletteAction, "run">[] = [
  { id: "planner", label: "Planner", group: "Go to" },
  { id: "studio", label: "Studio", group: "Go to", keywords: "generate image video" },
  { id: "new-card", label: "New card", group: "Planner", keys: ["N"] },
  { id: "card-1", label: "Open “Café opening”", group: "Cards", keywords: "card Ideas" },
  { id: "card-2", label: "Open “New year teaser”", group: "Cards", keywords: "card Scheduled" },
  { id: "theme-system", label: "Theme: follow the system", group: "Appearance", keywords: "dark mode light mode" },
  { id: "theme-dark", label: "Theme: dark", group: "Appearance", keywords: "dark mode light mode" },
];

it("finds by every word, in the label, the group or the keywords, accents and case aside", () => {
  const actions = sample.map((a) => ({ ...a, run: () => {} }));
  const ids = (q: string) => filterActions(actions, q).map((a) => a.id);
  expect(ids("")).toEqual(["planner", "studio", "new-card", "card-1", "card-2", "theme-system", "theme-dark"]);
  expect(ids("cafe")).toEqual(["card-1"]);
  expect(ids("VIDEO")).toEqual(["studio"]);
  expect(ids("open scheduled")).toEqual(["card-2"]);
  // A label that starts with the query comes before one that only holds it; otherwise the order stays.
  expect(ids("new")).toEqual(["new-card", "card-2"]);
  // Every word in the label beats words found only in the keywords.
  expect(ids("theme dark")).toEqual(["theme-dark", "theme-system"]);
  expect(ids("nothing like it")).toEqual([]);
});

it("offers a view's actions only while it provides them", () => {
  const withdraw = provideActions(() => [{ id: "x", label: "X", group: "Test", run: () => {} }]);
  expect(allActions().map((a) => a.id)).toContain("x");
  withdraw();
  expect(allActions().map((a) => a.id)).not.toContain("x");
});

it("is a combobox: typing narrows, the arrows pick, Enter closes first and then runs", async () => {
  const run = offer(sample);
  const onclose = vi.fn();
  render(CommandPalette, { onclose });
  const user = userEvent.setup();
  expect(screen.getByRole("dialog", { name: "Command palette" })).toBeInTheDocument();
  const box = screen.getByRole("combobox", { name: "Go to a screen or run an action" });
  expect(box).toHaveFocus();
  expect(screen.getAllByRole("option")).toHaveLength(7);
  await user.keyboard("open");
  const options = screen.getAllByRole("option");
  expect(options.map((o) => o.textContent?.replace(/\s+/g, " ").trim())).toEqual(["Open “Café opening” Cards", "Open “New year teaser” Cards"]);
  expect(box).toHaveAttribute("aria-activedescendant", options[0].id);
  expect(options[0]).toHaveAttribute("aria-selected", "true");
  await user.keyboard("{ArrowDown}");
  expect(box).toHaveAttribute("aria-activedescendant", options[1].id);
  await user.keyboard("{ArrowDown}"); // wraps round
  expect(box).toHaveAttribute("aria-activedescendant", options[0].id);
  await user.keyboard("{ArrowUp}{Enter}");
  expect(onclose).toHaveBeenCalledOnce();
  expect(run).toHaveBeenCalledWith("card-2");
  expect(run.mock.invocationCallOrder[0]).toBeGreaterThan(onclose.mock.invocationCallOrder[0]);
});

it("says when nothing matches, runs a clicked action, and Escape closes and gives focus back", async () => {
  const opener = document.createElement("button");
  document.body.append(opener);
  opener.focus();
  const run = offer(sample);
  const onclose = vi.fn();
  const view = render(CommandPalette, { onclose });
  const user = userEvent.setup();
  await user.keyboard("zzz");
  expect(screen.getByRole("status")).toHaveTextContent("Nothing matches “zzz”.");
  await user.keyboard("{Enter}");
  expect(run).not.toHaveBeenCalled();
  await user.clear(screen.getByRole("combobox"));
  await user.click(screen.getByRole("option", { name: /Studio/ }));
  expect(run).toHaveBeenCalledWith("studio");
  await user.keyboard("{Escape}");
  expect(onclose).toHaveBeenCalledTimes(2);
  view.unmount();
  expect(opener).toHaveFocus();
  opener.remove();
});
