import { afterEach, expect, it } from "vitest";
import { render, screen, within } from "@testing-library/svelte";
import userEvent from "@testing-library/user-event";
import { clearMocks, mockIPC } from "@tauri-apps/api/mocks";
import PlannerOverview from "./PlannerOverview.svelte";

afterEach(() => clearMocks());

const stage = (id: string, name: string, position: number) => ({ id, name, slug: id, position, spaceId: "s1" });

it("shows the spaces and the chosen space's stages in board order with their cards, then reports ready", async () => {
  const calls: string[] = [];
  mockIPC((cmd, payload) => {
    calls.push(cmd);
    const args = (payload as { args?: { spaceId?: string } })?.args;
    switch (cmd) {
      case "spaces_list": return [{ id: "s1", name: "Content plan", postCount: 2 }, { id: "s2", name: "Podcast", postCount: 0 }];
      case "stages_list": return args?.spaceId === "s1"
        ? { stages: [stage("a", "Ideas", 1), stage("b", "Review", 2)], space: { id: "s1", name: "Content plan" } }
        : { stages: [stage("c", "Booked", 1)], space: { id: "s2", name: "Podcast" } };
      case "cards_list": return args?.spaceId === "s1"
        ? { cards: [{ id: "c1", title: "Hook ideas", stageId: "a" }, { id: "c2", title: "", stageId: "b" }], total: 2, hasMore: false }
        : { cards: [], total: 0, hasMore: false };
      case "ui_ready": return null;
      default: throw { code: "internal", message: cmd };
    }
  });
  render(PlannerOverview);
  const ideas = await screen.findByRole("region", { name: "Ideas stage" });
  expect(within(ideas).getByText("Hook ideas")).toBeInTheDocument();
  expect(within(screen.getByRole("region", { name: "Review stage" })).getByText("Untitled card")).toBeInTheDocument();
  const regions = screen.getAllByRole("region").map((r) => r.getAttribute("aria-label")).filter((l) => l?.endsWith(" stage"));
  expect(regions).toEqual(["Ideas stage", "Review stage"]);
  await userEvent.setup().click(screen.getByRole("tab", { name: /Podcast/ }));
  expect(await screen.findByRole("region", { name: "Booked stage" })).toBeInTheDocument();
  expect(calls).toContain("ui_ready");
});

it("an error names its cause instead of an empty board", async () => {
  mockIPC(() => { throw { code: "network", message: "Could not reach the service (connection refused)." }; });
  render(PlannerOverview);
  const note = await screen.findByTestId("planner-error");
  expect(note).toHaveTextContent("Cannot reach the service");
  expect(note).toHaveTextContent("connection refused");
});
