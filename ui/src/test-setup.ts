import "@testing-library/jest-dom/vitest";
import { afterEach } from "vitest";
import { cleanup } from "@testing-library/svelte";

// Testing Library unmounts after each test only when Vitest globals are on; they are off here.
afterEach(() => cleanup());
// What a view remembers between runs (the last space shown) must not leak from one test into the next.
afterEach(() => localStorage.clear());
