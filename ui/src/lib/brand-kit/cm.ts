// The CodeMirror 6 set-up shared by the section editor and the merge views: Markdown highlighting,
// history and the default keymap (minimalSetup: no Tab binding, so Tab still moves focus), soft wrap,
// an accessible name, and the app's look.
//
// The Markdown language is used without lang-markdown's `markdown()` wrapper: that one adds parsing and
// completion of embedded HTML (and pulls in the HTML, CSS and JavaScript grammars, most of a chunk),
// while the rendered view ignores raw HTML anyway (markdown.ts).
import { minimalSetup } from "codemirror";
import { markdownKeymap, markdownLanguage } from "@codemirror/lang-markdown";
import { HighlightStyle, LanguageSupport, syntaxHighlighting } from "@codemirror/language";
import { tags } from "@lezer/highlight";
import { EditorState, Prec, type Extension } from "@codemirror/state";
import { EditorView, keymap } from "@codemirror/view";

const theme = EditorView.theme({
  "&": { backgroundColor: "var(--surface)", fontSize: "0.92rem" },
  "&.cm-focused": { outline: "none" },
  ".cm-content": { fontFamily: 'ui-monospace, "SFMono-Regular", Menlo, Consolas, monospace', padding: "0.5rem 0", caretColor: "var(--text)" },
  ".cm-line": { padding: "0 0.7rem" },
  ".cm-scroller": { lineHeight: "1.5" },
  ".cm-cursor, .cm-dropCursor": { borderLeftColor: "var(--text)" },
  ".cm-selectionBackground, &.cm-focused > .cm-scroller > .cm-selectionLayer .cm-selectionBackground, ::selection": { backgroundColor: "var(--accent-soft)" },
  ".cm-activeLine": { backgroundColor: "transparent" },
  // The merge views' gutters in the app's colours (CodeMirror's light grey glared in the dark theme).
  ".cm-gutters": { backgroundColor: "var(--surface-2)", color: "var(--muted)", borderRight: "1px solid var(--border)" },
});

/** Markdown's marks in the app's colours (CodeMirror's default underlines headings). */
const markdownStyle = HighlightStyle.define([
  { tag: tags.heading, fontWeight: "700", color: "var(--text)" },
  { tag: tags.strong, fontWeight: "700" },
  { tag: tags.emphasis, fontStyle: "italic" },
  { tag: tags.strikethrough, textDecoration: "line-through" },
  { tag: [tags.link, tags.url], color: "var(--accent)" },
  { tag: tags.monospace, color: "var(--code-text)" },
  { tag: tags.quote, color: "var(--muted)" },
  { tag: [tags.processingInstruction, tags.contentSeparator, tags.meta], color: "var(--muted)" },
  { tag: tags.list, color: "var(--text)" },
]);

export interface EditorOptions {
  /** The editor's accessible name (it has no <label>). */
  label: string;
  readOnly?: boolean;
  onchange?: (text: string) => void;
}

export function markdownExtensions({ label, readOnly = false, onchange }: EditorOptions): Extension[] {
  return [
    minimalSetup,
    new LanguageSupport(markdownLanguage),
    syntaxHighlighting(markdownStyle),
    Prec.high(keymap.of(markdownKeymap)),
    EditorView.lineWrapping,
    theme,
    // A tab stop of its own (also read-only): the editor's scroll area is reachable by keyboard.
    EditorView.contentAttributes.of({ "aria-label": label, "aria-multiline": "true", tabindex: "0", ...(readOnly ? { "aria-readonly": "true" } : {}) }),
    readOnly ? EditorState.readOnly.of(true) : [],
    onchange ? EditorView.updateListener.of((u) => { if (u.docChanged) onchange(u.state.doc.toString()); }) : [],
  ];
}

/** Replaces the whole text of a view when it differs (a value set from outside the editor). */
export function setText(view: EditorView, text: string) {
  if (view.state.doc.toString() === text) return;
  view.dispatch({ changes: { from: 0, to: view.state.doc.length, insert: text } });
}
