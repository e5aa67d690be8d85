import { afterEach, describe, expect, it, vi } from "vitest";

// jsdom has no matchMedia: a stand-in that can change, like the OS setting does (the real one is
// exercised by tests/browser/screens.test.mjs, which emulates both schemes in Chromium).
function fakeSystem(dark: boolean) {
  const listeners: Array<() => void> = [];
  const query = {
    get matches() { return dark; },
    addEventListener: (_: string, f: () => void) => listeners.push(f),
  };
  window.matchMedia = vi.fn(() => query) as unknown as typeof window.matchMedia;
  return { set(d: boolean) { dark = d; listeners.forEach((f) => f()); } };
}

describe("theme", () => {
  afterEach(() => {
    // @ts-expect-error removing the stand-in
    delete window.matchMedia;
    vi.resetModules();
  });

  it("System resolves to the OS scheme and follows it; a chosen theme does not move", async () => {
    const os = fakeSystem(true);
    const { applyTheme } = await import("./theme");
    const root = document.documentElement;
    applyTheme("system");
    expect(root.getAttribute("data-theme")).toBe("dark");
    os.set(false);
    expect(root.getAttribute("data-theme")).toBe("light");
    applyTheme("dark");
    os.set(true);
    os.set(false);
    expect(root.getAttribute("data-theme")).toBe("dark");
    applyTheme("system");
    expect(root.getAttribute("data-theme")).toBe("light");
  });
});
