// The calendar inside the planner (Board.svelte, its BoardState) over the fake core: the core's refusal
// and its "kept offline" answer cannot be made on demand by the real one, so they are the fake's here
// (the Chromium journey tests/browser/calendar.test.mjs covers the real path). Dates are relative to
// today (the calendar opens on today's month).
import { afterEach, beforeEach, expect, it } from "vitest";
import { fireEvent, render, screen, waitFor, within } from "@testing-library/svelte";
import { clearMocks } from "@tauri-apps/api/mocks";
import userEvent from "@testing-library/user-event";
import type { CardSummary } from "../../bindings";
import Board from "../Board.svelte";
import { fakeCore } from "../../shared/fakeCore";
import { addDays, dayOf, slotOf, zonedInstant } from "./placement";

const ZONE = "Europe/Berlin";
const today = dayOf(Date.now(), ZONE);
const tomorrow = addDays(today, 1);
const nineOn = (day: string) => new Date(zonedInstant(day, 9 * 60, ZONE)).toISOString();

beforeEach(() => {
  localStorage.setItem("contentdesk.plannerView", "calendar");
  localStorage.setItem("contentdesk.calendar.zone", ZONE);
  localStorage.setItem("contentdesk.calendar.view", "month");
});
afterEach(() => { clearMocks(); localStorage.clear(); });

const card = (id: string, title: string, extra: Partial<CardSummary> = {}): CardSummary => ({
  id, title, platform: "youtube", spaceId: "s1", stageId: "a", boardOrder: 1, contentType: null, coverUrl: null, isFavorite: false,
  archivedAt: null, isArchived: false, scheduledAt: null, publishedAt: null, publishUrl: null, createdAt: null, updatedAt: null,
  platforms: [], tags: [], ...extra,
});

function setup(cards: CardSummary[]) {
  const core = fakeCore();
  core.answers.spaces_list = () => [{ id: "s1", name: "Content plan", postCount: cards.length, archivedAt: null }];
  core.answers.tags_list = () => [];
  core.answers.board_load = () => ({
    space: { id: "s1", name: "Content plan" }, stages: [{ id: "a", name: "Ideas", slug: "a", color: null, sortOrder: 1, isDefault: true }],
    cards, total: cards.length, stageTotals: {}, complete: true,
  });
  core.answers.card_update = (a) => ({ ...card(String(a?.cardId), "read back"), ...(a?.update as object), posts: [], assets: [], revision: 2 });
  return core;
}

const cell = (day: string) => document.querySelector<HTMLElement>(`[data-testid="calendar-day"][data-day="${day}"]`)!;
const status = () => screen.getByTestId("board-status").textContent ?? "";

async function pickUpAndMoveRight(title: string) {
  // The calendar is its own chunk: the first test waits for its import.
  const item = await screen.findByRole("button", { name: new RegExp(`${title}.*Space picks up`) }, { timeout: 15_000 });
  item.focus();
  await fireEvent.keyDown(item, { key: " " });
  expect(status()).toMatch(new RegExp(`Picked up “${title}”`));
  await fireEvent.keyDown(window, { key: "ArrowRight" });
  await fireEvent.keyDown(window, { key: "Enter" });
}

it("a refused reschedule puts the post back on its day and says why", async () => {
  const core = setup([card("c1", "Launch", { scheduledAt: nineOn(today) })]);
  core.failWith.card_update = { code: "missingScope", message: "This key cannot schedule posts (publish:write). Ask the account owner for a key with it." };
  render(Board);
  await pickUpAndMoveRight("Launch");
  await waitFor(() => expect(core.called("card_update").at(-1)?.args).toEqual({ cardId: "c1", update: { scheduledAt: nineOn(tomorrow) } }));
  const error = await screen.findByTestId("planner-action-error");
  expect(error).toHaveTextContent("cannot schedule posts");
  await waitFor(() => expect(within(cell(today)).queryByText("Launch")).not.toBeNull());
  expect(status()).toMatch(/could not be rescheduled; it is back/);
  expect(screen.queryByRole("button", { name: "Undo" })).toBeNull();
});

it("kept offline: the post stays on its new day, and Undo puts it back through the same command", async () => {
  const core = setup([card("c1", "Launch", { scheduledAt: nineOn(today) })]);
  core.failWith.card_update = { code: "queued", message: "Kept on this computer." };
  core.answers.drafts_status = () => ({ waiting: 1, cardIds: ["c1"], changes: [], sent: 0 });
  render(Board);
  await pickUpAndMoveRight("Launch");
  await waitFor(() => expect(status()).toMatch(/rescheduled here and will change on the service/));
  expect(screen.queryByTestId("planner-action-error")).toBeNull();
  expect(within(cell(tomorrow) ?? document.body).queryByText("Launch")).not.toBeNull();
  delete core.failWith.card_update;
  await fireEvent.click(screen.getByRole("button", { name: "Undo" }));
  await waitFor(() => expect(core.called("card_update").at(-1)?.args).toEqual({ cardId: "c1", update: { scheduledAt: nineOn(today) } }));
  expect(within(cell(today)).queryByText("Launch")).not.toBeNull();
});

it("a day with more posts than fit shows +N, which opens the day with every post", async () => {
  const many = Array.from({ length: 7 }, (_v, i) => card(`m${i}`, `Post ${i}`, { scheduledAt: new Date(zonedInstant(today, 8 * 60 + i, ZONE)).toISOString() }));
  setup([...many, card("u1", "Someday")]);
  render(Board);
  const more = await screen.findByRole("button", { name: /^4 more on .*: show the day$/ });
  expect(more).toHaveTextContent("+4");
  expect(within(cell(today)).getAllByTestId("calendar-item")).toHaveLength(3);
  await fireEvent.click(more);
  const panel = screen.getByTestId("calendar-day-panel");
  expect(within(panel).getAllByTestId("calendar-item").map((b) => b.querySelector(".title")?.textContent)).toEqual(many.map((c) => c.title));
  expect(within(screen.getByTestId("calendar-unscheduled")).getByText("Someday")).toBeTruthy();
});

it("the week's title is one range in the date style ('Nov 23 – 29, 2026'), and its day cells are named by their own text", async () => {
  setup([]);
  localStorage.setItem("contentdesk.calendar.view", "week");
  render(Board);
  const title = await screen.findByTestId("calendar-title", {}, { timeout: 5000 });
  expect(title.textContent).toMatch(/^[A-Z][a-z]{2} \d{1,2}\s?–\s?([A-Z][a-z]{2} )?\d{1,2}, \d{4}$/); // en-US, as Vitest runs
  expect(title.textContent).not.toMatch(/day/);
  localStorage.setItem("contentdesk.calendar.view", "month");
  await userEvent.setup().click(screen.getByRole("button", { name: "Month" }));
  const day = document.querySelector<HTMLElement>('[data-testid="calendar-day"]')!;
  expect(day.hasAttribute("aria-label")).toBe(false);
  expect(day.querySelector(".sr-only")?.textContent).toMatch(/\d{4}/);
});

it("the week shows now as a line in today's column, and the zone picker suggests before it lists by region", async () => {
  localStorage.setItem("contentdesk.calendar.view", "week");
  setup([card("c1", "Launch", { scheduledAt: nineOn(today) })]);
  render(Board);
  const line = await screen.findByTestId("calendar-now", undefined, { timeout: 15_000 });
  const slot = line.closest<HTMLElement>("[data-testid=calendar-slot]")!;
  expect(slot.dataset.day).toBe(today);
  expect(Number(slot.dataset.minute)).toBe(slotOf(Date.now(), ZONE));
  expect(document.querySelectorAll("[data-testid=calendar-now]")).toHaveLength(1);
  const picker = screen.getByTestId("calendar-zone") as HTMLSelectElement;
  const groups = [...picker.querySelectorAll("optgroup")].map((g) => g.label);
  expect(groups[0]).toBe("Suggested");
  expect(groups).toContain("Europe");
  expect(picker.value).toBe(ZONE);
  expect(picker.selectedOptions[0].textContent).toMatch(/Berlin/);
});

it("keyboard: the month grid is one Tab stop on today; arrow keys move it, Enter makes a card on that day", async () => {
  const core = setup([]);
  core.answers.card_create = (a) => ({ ...card("new1", String(a?.title)), stageId: String(a?.stage), scheduledAt: (a?.scheduledAt as string | undefined) ?? null });
  render(Board);
  await screen.findByTestId("calendar-month", {}, { timeout: 15_000 });
  const stops = [...document.querySelectorAll<HTMLElement>("[role=gridcell]")].filter((c) => c.tabIndex === 0);
  expect(stops).toEqual([cell(today)]);
  cell(today).focus();
  await fireEvent.keyDown(cell(today), { key: "ArrowRight" });
  await waitFor(() => expect(cell(tomorrow)).toHaveFocus());
  expect(cell(tomorrow).tabIndex).toBe(0);
  expect(cell(today).tabIndex).toBe(-1);
  await fireEvent.keyDown(cell(tomorrow), { key: "Enter" });
  await waitFor(() =>
    expect(core.called("card_create").at(-1)?.args).toEqual({ spaceId: "s1", stage: "a", title: "New post", platform: "general", scheduledAt: nineOn(tomorrow) }),
  );
  expect(core.called("card_update")).toEqual([]);
});

it("an unscheduled card a platform will refuse is scheduled only once confirmed; Cancel leaves it unscheduled", async () => {
  const core = setup([card("x1", "Too long", { platform: "x", platforms: ["x"] })]);
  const blocks = { platform: "x", field: "caption", rule: "max_length", limit: 280, actual: 305, severity: "blocks", source: "https://docs.x.com" };
  core.answers.calendar_posts = () => [{ cardId: "x1", updatedAt: null, scheduledAt: null, posts: [], findings: [blocks] }];
  core.answers.calendar_window = () => ({ cards: [], unread: 0 });
  render(Board);
  const waiting = await screen.findByRole("button", { name: /Too long, no time/ }, { timeout: 15_000 });
  const drop = async () => {
    waiting.focus();
    await fireEvent.keyDown(waiting, { key: " " });
    await fireEvent.keyDown(window, { key: "Enter" });
    return screen.findByRole("alertdialog", { name: "Schedule a post the platform will refuse?" });
  };
  let dialog = await drop();
  expect(dialog).toHaveTextContent("a platform will refuse it as it is: X caption: 305 / 280 characters; X refuses it.");
  await fireEvent.click(within(dialog).getByRole("button", { name: "Cancel" }));
  await waitFor(() => expect(screen.queryByRole("alertdialog")).toBeNull());
  expect(core.called("card_update")).toEqual([]);
  expect(status()).toMatch(/“Too long” stays unscheduled/);
  dialog = await drop();
  await fireEvent.click(within(dialog).getByRole("button", { name: "Schedule anyway" }));
  await waitFor(() => expect(core.called("card_update").at(-1)?.args).toEqual({ cardId: "x1", update: { scheduledAt: nineOn(today) } }));
});
