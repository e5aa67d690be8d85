import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { fireEvent, render, waitFor } from "@testing-library/svelte";
import Markdown from "./Markdown.svelte";
import { renderMarkdown, renderMarkdownGuarded } from "./markdown";

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

describe("remote images wait until their site is allowed for the kit", () => {
  beforeEach(() => localStorage.clear());
  const SOURCE = "![logo](https://tracker.example/p.png)\n\n![chart](https://cdn.example:8443/c.png)\n\n![dot](data:image/png;base64,iVBORw0KGgo=)";

  it("nothing remote has a src until the user allows that host; the choice is kept for this kit only", async () => {
    const { container, getByRole, unmount } = render(Markdown, { source: SOURCE, kitId: "kit-1" });
    const imgs = () => [...container.querySelectorAll("img")];
    expect(imgs().map((i) => i.getAttribute("src"))).toEqual([null, null, "data:image/png;base64,iVBORw0KGgo="]);
    expect(imgs()[0].getAttribute("data-blocked-host")).toBe("tracker.example");
    expect(container.querySelector("[data-testid=images-blocked]")).toHaveTextContent("Remote images are not loaded");
    await fireEvent.click(getByRole("button", { name: "Load images from cdn.example:8443" }));
    expect(imgs().map((i) => i.getAttribute("src"))).toEqual([null, "https://cdn.example:8443/c.png", "data:image/png;base64,iVBORw0KGgo="]);
    expect(getByRole("button", { name: "Load images from tracker.example" })).toBeInTheDocument();
    unmount();

    const again = render(Markdown, { source: SOURCE, kitId: "kit-1" });
    expect(again.container.querySelectorAll("img")[1].getAttribute("src")).toBe("https://cdn.example:8443/c.png");
    again.unmount();
    const other = render(Markdown, { source: SOURCE, kitId: "kit-2" });
    expect(other.container.querySelectorAll("img")[1].getAttribute("src")).toBeNull();
  });

  it("the guarded renderer names each blocked host once and keeps links as they were", () => {
    const { html, blocked } = renderMarkdownGuarded(
      "![a](https://t.example/1.png) ![b](https://t.example/2.png) ![c](http://192.168.1.1/x.png) [l](https://t.example)",
      new Set(["allowed.example"]),
    );
    expect(blocked).toEqual(["t.example", "192.168.1.1"]);
    expect(html).not.toMatch(/ src="https?:/);
    expect(html).toContain('href="https://t.example"');
    const ok = renderMarkdownGuarded("![a](https://allowed.example/1.png)", new Set(["allowed.example"]));
    expect(ok.blocked).toEqual([]);
    expect(ok.html).toContain('src="https://allowed.example/1.png"');
  });
});
