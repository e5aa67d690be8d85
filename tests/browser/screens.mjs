// What the screens journeys share (screens.test.mjs over web-shell's embedded sandbox, screens_offline.test.mjs
// over a sandbox it stops): the sizes and themes every screen is seen at, axe-core with the WCAG 2.2 A/AA
// tags, a screenshot per screen, size and theme, and the checks every screen must pass at any size (nothing
// scrolls sideways; the header is one row).
import fs from "node:fs";
import path from "node:path";
import { createRequire } from "node:module";

export const AXE = createRequire(new URL("../../ui/package.json", import.meta.url)).resolve("axe-core/axe.min.js");
export const TAGS = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22aa"];
export const SIZES = [{ width: 1280, height: 800 }, { width: 960, height: 600 }];
export const THEMES = ["light", "dark"];
/** The tallest a one-row header is (its 2.5rem controls and padding). */
export const HEADER_ROW = 56;

/** axe-core over the page as it is now: its violations, each with the screen's name. */
export async function axe(page, screen) {
  // Evaluated through the DevTools protocol: the app's CSP (script-src 'self') refuses an injected <script>.
  if (!(await page.evaluate(() => "axe" in window))) await page.evaluate(fs.readFileSync(AXE, "utf8"));
  const result = await page.evaluate(async (tags) => {
    // eslint-disable-next-line no-undef
    const r = await axe.run(document, { runOnly: { type: "tag", values: tags }, resultTypes: ["violations"] });
    return r.violations.map((v) => ({ id: v.id, impact: v.impact, help: v.help, nodes: v.nodes.slice(0, 5).map((n) => ({ target: n.target.join(" "), summary: n.failureSummary })) }));
  }, TAGS);
  return result.map((v) => ({ screen, ...v }));
}

export async function shoot(page, dir, name, size, theme) {
  await page.screenshot({ path: path.join(dir, `${name}-${size.width}x${size.height}-${theme}.png`) });
}

/** The checks every screen passes at every size: the document is no wider than the window (nothing
 *  scrolls sideways), the header is one row (it never wraps) and its controls neither overlap nor run
 *  past its edge. */
export async function fits(page) {
  return page.evaluate(() => {
    const doc = document.documentElement;
    const header = document.querySelector(".frame > header");
    // The header's own controls (not those of a popover opened from it), left to right: none may run past
    // the header's edge or over the next one (a row that does not wrap can still overflow into itself).
    const edge = header?.getBoundingClientRect();
    const controls = header ? [...header.querySelectorAll("a, button, select")]
      .filter((el) => !el.closest("section, [role=dialog], [role=menu]"))
      .map((el) => ({ el, r: el.getBoundingClientRect() }))
      .filter(({ r }) => r.width > 0)
      .sort((a, b) => a.r.left - b.r.left) : [];
    const name = (el) => (el.textContent || el.getAttribute("aria-label") || el.tagName).trim().slice(0, 30);
    const crowded = [];
    controls.forEach(({ el, r }, i) => {
      const next = controls[i + 1];
      if (edge && r.right > edge.right + 1) crowded.push(`“${name(el)}” runs past the header's edge`);
      if (next && r.right > next.r.left + 1) crowded.push(`“${name(el)}” runs into “${name(next.el)}”`);
    });
    return { scrollWidth: doc.scrollWidth, clientWidth: doc.clientWidth, headerHeight: edge?.height ?? 0, crowded };
  });
}

/** `fits` as an assertion message, or null when the screen fits. */
export async function misfit(page) {
  const f = await fits(page);
  const problems = [];
  if (f.scrollWidth > f.clientWidth) problems.push(`scrolls sideways (scrollWidth ${f.scrollWidth} > clientWidth ${f.clientWidth})`);
  if (f.headerHeight > HEADER_ROW) problems.push(`the header wraps (${f.headerHeight}px)`);
  if (f.crowded.length) problems.push(`the header is crowded: ${f.crowded.join(", ")}`);
  return problems.length ? problems.join("; ") : null;
}

/** The focused element's ring as drawn: its outline (style, width, colour) and that colour's contrast with
 *  the background behind it (the nearest ancestor with a background of its own), or null with nothing
 *  focused. A ring is seen when it is drawn, at least 2 px, and 3:1 against what is behind it (WCAG 2.2's
 *  non-text contrast). */
export async function focusRing(page) {
  return page.evaluate(() => {
    const el = document.activeElement;
    if (!el || el === document.body) return null;
    const rgb = (c) => (c.match(/[\d.]+/g) ?? []).map(Number);
    const lum = ([r, g, b]) => {
      const ch = (v) => { v /= 255; return v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4; };
      return 0.2126 * ch(r) + 0.7152 * ch(g) + 0.0722 * ch(b);
    };
    let behind = el.parentElement;
    while (behind && (rgb(getComputedStyle(behind).backgroundColor)[3] === 0 || getComputedStyle(behind).backgroundColor === "transparent")) behind = behind.parentElement;
    const bg = behind ? getComputedStyle(behind).backgroundColor : "rgb(255, 255, 255)";
    const cs = getComputedStyle(el);
    const [a, b] = [lum(rgb(cs.outlineColor)), lum(rgb(bg))].sort((x, y) => y - x);
    return {
      element: `${el.tagName.toLowerCase()}${el.getAttribute("type") ? `[type=${el.getAttribute("type")}]` : ""}${el.dataset.testid ? `[data-testid=${el.dataset.testid}]` : ""}`,
      style: cs.outlineStyle, width: parseFloat(cs.outlineWidth), color: cs.outlineColor, background: bg,
      contrast: Math.round(((a + 0.05) / (b + 0.05)) * 100) / 100,
    };
  });
}

/** `focusRing` as an assertion message, or null when the focused element's ring is seen. */
export function unseenRing(ring) {
  if (!ring) return "nothing is focused";
  if (ring.style === "none" || ring.width < 2) return `${ring.element} has no ring (outline ${ring.style} ${ring.width}px)`;
  if (ring.contrast < 3) return `${ring.element}'s ring ${ring.color} is ${ring.contrast}:1 against ${ring.background}`;
  return null;
}
