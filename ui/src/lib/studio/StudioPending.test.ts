import { expect, it } from "vitest";
import { render, screen } from "@testing-library/svelte";
import StudioPending from "./StudioPending.svelte";

it("says plainly that the studio is not built yet, and shows no made-up renders", () => {
  render(StudioPending);
  expect(screen.getByRole("heading", { level: 1, name: "Studio" })).toBeInTheDocument();
  expect(screen.getByText(/Not built yet/)).toBeInTheDocument();
  expect(document.querySelector("img, video, audio")).toBeNull();
});
