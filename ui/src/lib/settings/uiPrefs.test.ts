import { beforeEach, describe, expect, it } from "vitest";
import { adoptRestored, applyPrefs, collectPrefs, RESTORED_MARK } from "./uiPrefs";

describe("the UI preferences in a backup", () => {
  beforeEach(() => localStorage.clear());

  it("collects the contentdesk. entries, never unsaved or written brand-kit text nor web-shell's token", () => {
    localStorage.setItem("contentdesk.theme", "dark");
    localStorage.setItem("contentdesk.calendar.zone", "Europe/Paris");
    localStorage.setItem("contentdesk.brandKit.unsaved.p.k", "{\"a\":1}");
    localStorage.setItem("contentdesk.brandKit.written.p.k", "{}");
    localStorage.setItem("contentdesk.webShellToken", "t");
    localStorage.setItem("other.app", "x");
    expect(collectPrefs()).toEqual({ "contentdesk.theme": "dark", "contentdesk.calendar.zone": "Europe/Paris" });
  });

  it("applies a backup's preferences in place of the current ones, and the theme at once", () => {
    localStorage.setItem("contentdesk.plannerView", "calendar");
    localStorage.setItem("contentdesk.brandKit.unsaved.p.k", "keep");
    applyPrefs({ "contentdesk.theme": "dark" });
    expect(collectPrefs()).toEqual({ "contentdesk.theme": "dark" });
    expect(localStorage.getItem("contentdesk.brandKit.unsaved.p.k")).toBe("keep");
    expect(document.documentElement.getAttribute("data-theme")).toBe("dark");
  });

  it("takes a restore's preferences once, and none that no restore wrote", () => {
    expect(adoptRestored({ prefs: { "contentdesk.theme": "dark" } })).toBe(false);
    expect(localStorage.getItem("contentdesk.theme")).toBeNull();
    expect(adoptRestored({ prefs: { "contentdesk.theme": "dark" }, restoredAt: "2026-11-27T22:00:00Z" })).toBe(true);
    expect(localStorage.getItem("contentdesk.theme")).toBe("dark");
    expect(localStorage.getItem(RESTORED_MARK)).toBe("2026-11-27T22:00:00Z");
    localStorage.setItem("contentdesk.theme", "light");
    expect(adoptRestored({ prefs: { "contentdesk.theme": "dark" }, restoredAt: "2026-11-27T22:00:00Z" })).toBe(false);
    expect(localStorage.getItem("contentdesk.theme")).toBe("light");
  });
});
