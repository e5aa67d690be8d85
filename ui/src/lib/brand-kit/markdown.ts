// A section's Markdown as safe HTML. Two layers, so that one mistake is not enough:
// 1. markdown-it with `html: false`: raw HTML in a body (`<script>`, `<img onerror>`) is escaped as text,
//    and its link check refuses `javascript:`, `vbscript:`, `file:` and non-image `data:` URLs.
// 2. DOMPurify over the result: whatever still looks like markup loses scripts, `on*` handlers and any URL
//    outside http(s), mailto, tel and in-page anchors; links open apart, with rel="noopener noreferrer".
import MarkdownIt from "markdown-it";
import DOMPurify from "dompurify";

const md = new MarkdownIt({ html: false, linkify: true, breaks: false });

const SAFE_HREF = /^(https?:|mailto:|tel:|#)/i;
const SAFE_SRC = /^(https?:|data:image\/(png|gif|jpeg|webp);)/i;

let hooked = false;
function purifier() {
  if (!hooked) {
    hooked = true;
    DOMPurify.addHook("afterSanitizeAttributes", (node) => {
      if (node.tagName === "A") {
        const href = node.getAttribute("href") ?? "";
        if (!SAFE_HREF.test(href.trim())) node.removeAttribute("href");
        node.setAttribute("rel", "noopener noreferrer");
        if (node.hasAttribute("href") && !href.startsWith("#")) node.setAttribute("target", "_blank");
      } else if (node.tagName === "IMG") {
        const src = node.getAttribute("src") ?? "";
        if (!SAFE_SRC.test(src.trim())) node.removeAttribute("src");
      }
    });
  }
  return DOMPurify;
}

/** Markdown to HTML that is safe to put in the page (see the module comment). */
export function renderMarkdown(source: string): string {
  const html = md.render(source);
  return purifier().sanitize(html, {
    USE_PROFILES: { html: true },
    FORBID_TAGS: ["style", "form", "input", "button", "textarea", "select", "iframe", "object", "embed"],
    FORBID_ATTR: ["style", "srcset"],
  });
}
