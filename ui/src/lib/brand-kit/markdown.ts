// A section's Markdown as safe HTML. Two layers, so that one mistake is not enough:
// 1. markdown-it with `html: false`: raw HTML in a body (`<script>`, `<img onerror>`) is escaped as text,
//    and its link check refuses `javascript:`, `vbscript:`, `file:` and non-image `data:` URLs.
// 2. DOMPurify over the result: whatever still looks like markup loses scripts, `on*` handlers and any URL
//    outside http(s), mailto, tel and in-page anchors; links open apart, with rel="noopener noreferrer".
// Remote images are a privacy matter too: loading one tells its host that the kit was opened (a tracker,
// or a service on the local network). `renderMarkdownGuarded` keeps an image's address off the `src` of
// any host the user has not allowed for this kit, like a mail client; Markdown.svelte offers "Load images
// from <host>" (imageHosts.ts keeps the choice).
import MarkdownIt from "markdown-it";
import DOMPurify from "dompurify";

const md = new MarkdownIt({ html: false, linkify: true, breaks: false });

const SAFE_HREF = /^(https?:|mailto:|tel:|#)/i;
const SAFE_SRC = /^(https?:|data:image\/(png|gif|jpeg|webp);)/i;

/** While one sanitize runs (it is synchronous): the hosts allowed, and the blocked ones found. */
let guard: { allowed: ReadonlySet<string>; blocked: Set<string> } | null = null;

/** The host of an http(s) URL (lower case, with its port), or null for anything else. */
export function remoteHost(src: string): string | null {
  if (!/^https?:/i.test(src.trim())) return null;
  try {
    return new URL(src.trim()).host.toLowerCase() || null;
  } catch {
    return null;
  }
}

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
        const host = guard ? remoteHost(src) : null;
        if (guard && host && !guard.allowed.has(host)) {
          guard.blocked.add(host);
          node.removeAttribute("src");
          node.setAttribute("data-blocked-src", src.trim());
          node.setAttribute("data-blocked-host", host);
          node.setAttribute("alt", `${node.getAttribute("alt") || "Image"} (not loaded: ${host})`);
        }
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

/** `renderMarkdown`, with remote images loaded only from `allowed` hosts; the others are listed in
 * `blocked` (in order of appearance) and their images carry no `src` (`data-blocked-src` keeps it). */
export function renderMarkdownGuarded(source: string, allowed: ReadonlySet<string>): { html: string; blocked: string[] } {
  guard = { allowed, blocked: new Set() };
  try {
    const html = renderMarkdown(source);
    return { html, blocked: [...guard.blocked] };
  } finally {
    guard = null;
  }
}
