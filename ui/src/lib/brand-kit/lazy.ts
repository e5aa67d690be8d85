// CodeMirror (the editor and the merge views) is most of the page's weight: it is its own chunk,
// fetched the first time a section is edited, a conflict shown or versions compared, and fetched ahead
// when the page is idle so that opening an editor does not wait for it. The page itself (cards,
// rendered Markdown) does not need it.
export const loadEditor = () => import("./MarkdownEditor.svelte");
export const loadDiff = () => import("./DiffView.svelte");

let prefetched = false;
export function prefetchEditors() {
  if (prefetched) return;
  prefetched = true;
  const go = () => { void loadEditor().catch(() => undefined); void loadDiff().catch(() => undefined); };
  if (typeof requestIdleCallback === "function") requestIdleCallback(go, { timeout: 2000 });
  else setTimeout(go, 300);
}
