import { afterEach, expect, it } from "vitest";
import { tabbables, trapTab } from "./focusTrap";

afterEach(() => { document.body.innerHTML = ""; });

function dialog(html: string): HTMLElement {
  const outside = document.createElement("button");
  outside.textContent = "Behind";
  const root = document.createElement("div");
  root.innerHTML = html;
  document.body.append(outside, root);
  return root;
}
const tab = (root: HTMLElement, shiftKey = false) => {
  const e = new KeyboardEvent("keydown", { key: "Tab", shiftKey, cancelable: true });
  const moved = trapTab(e, root);
  return { moved, prevented: e.defaultPrevented };
};
const byText = (root: HTMLElement, text: string) => [...root.querySelectorAll<HTMLElement>("*")].find((el) => el.textContent === text)!;

it("lists what Tab reaches: enabled controls, links, a summary; not disabled, hidden, tabindex -1 or inside a closed <details>", () => {
  const root = dialog(`
    <button>One</button><button disabled>Off</button><a href="#x">Link</a><a>No href</a>
    <input aria-label="Key"><input type="hidden"><div tabindex="0">Scroller</div><div tabindex="-1">Roving</div>
    <details><summary>More</summary><input aria-label="Server"></details>
    <p hidden><button>Hidden</button></p><select aria-label="Zone"></select><textarea aria-label="Notes"></textarea>`);
  expect(tabbables(root).map((el) => el.getAttribute("aria-label") ?? el.textContent)).toEqual(["One", "Link", "Key", "Scroller", "More", "Zone", "Notes"]);
  root.querySelector("details")!.open = true;
  expect(tabbables(root).map((el) => el.getAttribute("aria-label") ?? el.textContent)).toContain("Server");
});

it("goes round: Tab on the last goes to the first, Shift+Tab on the first to the last, in between the browser moves", () => {
  const root = dialog(`<button>First</button><button>Middle</button><button>Last</button>`);
  byText(root, "Last").focus();
  expect(tab(root)).toEqual({ moved: true, prevented: true });
  expect(document.activeElement).toBe(byText(root, "First"));
  expect(tab(root, true)).toEqual({ moved: true, prevented: true });
  expect(document.activeElement).toBe(byText(root, "Last"));
  byText(root, "Middle").focus();
  expect(tab(root)).toEqual({ moved: false, prevented: false });
  expect(tab(root, true)).toEqual({ moved: false, prevented: false });
});

it("brings focus back in from outside, and holds it when the dialog has nothing to reach", () => {
  const root = dialog(`<button>First</button><button>Last</button>`);
  (document.body.firstElementChild as HTMLElement).focus();
  tab(root);
  expect(document.activeElement).toBe(byText(root, "First"));
  (document.body.firstElementChild as HTMLElement).focus();
  tab(root, true);
  expect(document.activeElement).toBe(byText(root, "Last"));
  const empty = dialog(`<p>Nothing</p>`);
  expect(tab(empty)).toEqual({ moved: true, prevented: true });
  expect(trapTab(new KeyboardEvent("keydown", { key: "Enter" }), root)).toBe(false);
  expect(trapTab(new KeyboardEvent("keydown", { key: "Tab" }), undefined)).toBe(false);
});

it("holdFocus moves focus in as a dialog opens and gives it back to the opener as it closes (if still on the page)", async () => {
  const { holdFocus } = await import("./focusTrap");
  const root = dialog(`<button>Cancel</button>`);
  const opener = document.body.querySelector<HTMLElement>("button")!;
  opener.focus();
  const giveBack = holdFocus(() => byText(root, "Cancel"));
  expect(document.activeElement).toBe(byText(root, "Cancel"));
  giveBack();
  expect(document.activeElement).toBe(opener);
  // An opener gone from the page is not focused (focus is left where it is).
  byText(root, "Cancel").focus();
  const again = holdFocus(() => root);
  opener.remove();
  again();
  expect(document.activeElement).not.toBe(opener);
});
