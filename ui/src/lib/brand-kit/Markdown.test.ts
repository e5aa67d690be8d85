import { afterEach, expect, it } from "vitest";
import { render, waitFor } from "@testing-library/svelte";
import Markdown from "./Markdown.svelte";
import { renderMarkdown } from "./markdown";

type XssWindow = Window & { __xss?: number };
afterEach(() => delete (window as XssWindow).__xss);

const PAYLOADS = [
  "<script>window.__xss=1</script>",
  '<img src=x onerror="window.__xss=1">',
  "[a](javascript:alert(1))",
  "[b](JaVaScRiPt:window.__xss=1)",
  "[c](vbscript:msgbox(1))",
  "![i](javascript:window.__xss=1)",
  '<a href="javascript:window.__xss=1">raw</a>',
  "<svg onload=window.__xss=1>",
  "[d](data:text/html;base64,PHNjcmlwdD53aW5kb3cuX194c3M9MTwvc2NyaXB0Pg==)",
];

function handlers(root: Element): string[] {
  return [...root.querySelectorAll("*")].flatMap((el) => [...el.attributes].filter((a) => /^on/i.test(a.name)).map((a) => a.name));
}

it("every payload renders inert: no script, no handler, no script URL, nothing runs", async () => {
  const { container } = render(Markdown, { source: PAYLOADS.join("\n\n") });
  await new Promise((r) => setTimeout(r, 20));
  expect(container.querySelector("script")).toBeNull();
  expect(container.querySelector("svg")).toBeNull();
  expect(container.querySelector("img")).toBeNull();
  expect(handlers(container)).toEqual([]);
  for (const el of container.querySelectorAll("[href], [src]")) {
    expect(el.getAttribute("href") ?? el.getAttribute("src")).not.toMatch(/^\s*(javascript|vbscript|data):/i);
  }
  expect((window as XssWindow).__xss).toBeUndefined();
  // Written as text, so the user sees what is in the body.
  expect(container).toHaveTextContent('<img src=x onerror="window.__xss=1">');
});

it("ordinary Markdown renders; links open apart with noopener noreferrer", () => {
  const html = renderMarkdown("## Hi\n\n- **bold** and `code`\n\n[site](https://example.com) <https://clay.example>\n\n![logo](https://example.com/logo.png)");
  const div = document.createElement("div");
  div.innerHTML = html;
  expect(div.querySelector("h2")?.textContent).toBe("Hi");
  expect(div.querySelector("strong")?.textContent).toBe("bold");
  const links = [...div.querySelectorAll("a")];
  expect(links.map((a) => a.getAttribute("href"))).toEqual(["https://example.com", "https://clay.example"]);
  for (const a of links) {
    expect(a.getAttribute("rel")).toBe("noopener noreferrer");
    expect(a.getAttribute("target")).toBe("_blank");
  }
  expect(div.querySelector("img")?.getAttribute("src")).toBe("https://example.com/logo.png");
});

it("an empty body says so", () => {
  const { container } = render(Markdown, { source: "  " });
  expect(container).toHaveTextContent("Nothing written yet.");
});

it("in the desktop window a link goes to the system's browser through the shell, not a new web view", async () => {
  const { mockIPC, clearMocks } = await import("@tauri-apps/api/mocks");
  const opened: unknown[] = [];
  mockIPC((cmd, args) => { if (cmd === "open_external") opened.push((args as { args: unknown }).args); return null; });
  try {
    const { container } = render(Markdown, { source: "[site](https://example.com/a) and [top](#top)" });
    const links = container.querySelectorAll("a");
    const site = new MouseEvent("click", { bubbles: true, cancelable: true });
    links[0].dispatchEvent(site);
    expect(site.defaultPrevented).toBe(true);
    await waitFor(() => expect(opened).toEqual([{ url: "https://example.com/a" }]));
    const anchor = new MouseEvent("click", { bubbles: true, cancelable: true });
    links[1].dispatchEvent(anchor);
    expect(anchor.defaultPrevented).toBe(false);
    expect(opened).toHaveLength(1);
  } finally {
    clearMocks();
  }
});
