// The editor's day and time field by keyboard: typed in the app's format or as people write it, stepped
// with the arrow keys, a wrong entry named beside the field (and nothing changed).
import { expect, it, vi } from "vitest";
import { render, screen } from "@testing-library/svelte";
import userEvent from "@testing-library/user-event";
import DateTimeField from "./DateTimeField.svelte";
import { formatDay } from "../../shared/datetime";

// The day is written in the app's one date style, in the user's locale (shared/datetime.ts): "Nov 28, 2026"
// in en-US.
const SAT = formatDay("2026-11-28");

function field(value = "2026-11-28T09:00") {
  const onchange = vi.fn();
  render(DateTimeField, { id: "when", value, today: "2026-11-28", onchange, dayLabel: "Day", timeLabel: "Time" });
  return { onchange, day: screen.getByLabelText("Day") as HTMLInputElement, time: screen.getByLabelText("Time") as HTMLInputElement };
}

it("shows the day and time in the app's format", () => {
  const { day, time } = field();
  expect(day.value).toBe(SAT);
  expect(time.value).toBe("09:00");
  expect(day).toHaveAccessibleDescription(`Day like ${SAT}, time on the 24-hour clock; the arrow keys step them.`);
});

it("arrow keys step the day (a week with Page Up/Down) and the time by a quarter of an hour", async () => {
  const { onchange, day, time } = field();
  const user = userEvent.setup();
  await user.click(day);
  await user.keyboard("{ArrowUp}");
  expect(onchange).toHaveBeenLastCalledWith("2026-11-29T09:00");
  expect(day.value).toBe(formatDay("2026-11-29"));
  await user.keyboard("{PageDown}");
  expect(onchange).toHaveBeenLastCalledWith("2026-11-22T09:00");
  await user.click(time);
  await user.keyboard("{ArrowDown}");
  expect(onchange).toHaveBeenLastCalledWith("2026-11-28T08:45");
});

it("typed: read on Enter or on leaving; a wrong day is named and nothing changes; emptied, the schedule is cleared", async () => {
  const { onchange, day, time } = field();
  const user = userEvent.setup();
  await user.clear(day);
  await user.type(day, "5 jan{Enter}");
  expect(onchange).toHaveBeenLastCalledWith("2027-01-05T09:00");
  expect(day.value).toBe(formatDay("2027-01-05"));
  onchange.mockClear();
  await user.clear(day);
  await user.type(day, "31 Feb 2027");
  await user.tab();
  expect(onchange).not.toHaveBeenCalled();
  expect(screen.getByRole("alert")).toHaveTextContent(`“31 Feb 2027” is not a day: write it like ${SAT}.`);
  expect(day).toHaveAttribute("aria-invalid", "true");
  expect(day).toHaveAccessibleDescription(/is not a day/);
  await user.clear(time);
  await user.type(time, "25:00{Enter}");
  expect(onchange).not.toHaveBeenCalled();
  expect(screen.getByRole("alert")).toHaveTextContent("“25:00” is not a time");
  await user.clear(day);
  await user.tab();
  expect(onchange).toHaveBeenLastCalledWith("");
});
