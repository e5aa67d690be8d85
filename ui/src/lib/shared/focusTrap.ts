// One focus trap for the app's modal dialogs: Tab and Shift+Tab go round the dialog's own controls and
// never out to the page behind it, and focus goes back to what opened the dialog when it closes. A dialog
// calls `holdFocus` from its onMount (focus in; the cleanup gives it back) and `trapTab` from its keydown.

/** What Tab can reach: enabled controls, links, a <details>' summary, and anything given a tabindex >= 0. */
const TABBABLE = [
  "button:not(:disabled)", "input:not(:disabled):not([type=hidden])", "select:not(:disabled)", "textarea:not(:disabled)",
  "a[href]", "summary", "[tabindex]:not([tabindex='-1'])", "[contenteditable='true']",
].join(", ");

/** Whether `el` is shown: hidden elements and the contents of a closed <details> (but its summary) are
 *  skipped by Tab, so the trap skips them too. */
function shown(el: HTMLElement): boolean {
  if (typeof el.checkVisibility === "function" && !el.checkVisibility()) return false;
  if (el.closest("[hidden], [inert]")) return false;
  const details = el.parentElement?.closest("details");
  if (details && !details.open && !(el.tagName === "SUMMARY" && el.parentElement === details)) return false;
  return true;
}

/** The controls Tab visits inside `root`, in document order (a tabindex > 0 is not used in this app). */
export function tabbables(root: HTMLElement): HTMLElement[] {
  return [...root.querySelectorAll<HTMLElement>(TABBABLE)]
    .filter((el) => el.getAttribute("tabindex") !== "-1" && (shown(el) || el === document.activeElement))
    // Document order (not every engine returns a selector list's matches in it).
    .sort((a, b) => (a.compareDocumentPosition(b) & Node.DOCUMENT_POSITION_FOLLOWING ? -1 : 1));
}

/** Keeps Tab inside `root`: on the last control Tab goes to the first, on the first Shift+Tab to the
 *  last; with focus outside (or on the dialog itself), to the first or last. Returns whether it moved focus. */
export function trapTab(e: KeyboardEvent, root: HTMLElement | null | undefined): boolean {
  if (e.key !== "Tab" || !root) return false;
  const items = tabbables(root);
  if (items.length === 0) {
    e.preventDefault();
    return true;
  }
  const first = items[0], last = items[items.length - 1];
  const active = document.activeElement as HTMLElement | null;
  const inside = !!active && root.contains(active) && active !== root;
  let to: HTMLElement | null = null;
  if (!inside) to = e.shiftKey ? last : first;
  else if (e.shiftKey && active === first) to = last;
  else if (!e.shiftKey && active === last) to = first;
  if (!to) return false;
  e.preventDefault();
  to.focus();
  return true;
}

/** Moves focus into a dialog as it opens (`into()`: its first field, its safe choice or the dialog itself)
 *  and returns the cleanup that gives focus back to what had it (the opener), if that is still on the page.
 *  For a dialog's onMount: `onMount(() => holdFocus(() => closeButton))`. */
export function holdFocus(into: () => HTMLElement | null | undefined): () => void {
  const opener = document.activeElement as HTMLElement | null;
  into()?.focus();
  return () => {
    if (opener?.isConnected) opener.focus();
  };
}
