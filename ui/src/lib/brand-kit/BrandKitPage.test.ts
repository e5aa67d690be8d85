import { afterEach, beforeAll, expect, it } from "vitest";
import { cleanup, render, screen, waitFor, within } from "@testing-library/svelte";
import userEvent from "@testing-library/user-event";
import { clearMocks } from "@tauri-apps/api/mocks";
import BrandKitPage from "./BrandKitPage.svelte";
import { forgetKeptKits } from "./kit.svelte";
import { KIT, kitCore, polyfillLayout, textOf, typeInto, type KitCore } from "./testKit";

beforeAll(polyfillLayout);
afterEach(() => {
  clearMocks();
  forgetKeptKits();
});

const card = (key: string) => screen.getByTestId(`section-${key}`);
const saves = (core: KitCore) => core.called("brand_kit_save").map((c) => c.args);

async function open(core: KitCore = kitCore()) {
  const user = userEvent.setup();
  render(BrandKitPage);
  await screen.findByTestId("section-about");
  // The bodies shown by default are read (the one read after the summary).
  await waitFor(() => expect(document.querySelector('[aria-busy="true"]')).toBeNull());
  return { core, user };
}

async function edit(user: ReturnType<typeof userEvent.setup>, key: string) {
  await user.click(within(card(key)).getByRole("button", { name: "Edit" }));
  await waitFor(() => expect(card(key).querySelector(".cm-content")).not.toBeNull());
}

it("builds the page from the summary: tabs the sections carry, full and half cards, the text shown, sizes", async () => {
  const { core, user } = await open();
  expect(core.called("brand_kit_page")[0].args).toEqual({ brandKitId: KIT });
  // The text shows by default: every body is read in one call.
  await waitFor(() => expect(core.called("brand_kit_sections").map((c) => c.args)).toEqual([
    { brandKitId: KIT, keys: ["about", "audience", "offer", "voice_and_tone", "writing_style", "design_guidelines"] },
  ]));
  const tabs = screen.getAllByRole("tab");
  expect(tabs.map((t) => t.textContent?.replace(/\s+/g, " ").trim())).toEqual(["Overview 3", "Voice 2", "Visual 1"]);
  expect(tabs[0]).toHaveAttribute("aria-selected", "true");
  const grid = screen.getByTestId("section-grid");
  expect([...grid.children].map((c) => [c.getAttribute("data-key"), c.getAttribute("data-width")])).toEqual([
    ["about", "full"], ["audience", "half"], ["offer", "half"],
  ]);
  expect(card("audience")).toHaveClass("half");
  expect(card("about")).not.toHaveClass("half");
  expect(await within(card("about")).findByRole("heading", { name: "Who we are" })).toBeInTheDocument();
  expect(within(card("about")).getByText("A small ceramics studio.")).toBeInTheDocument();
  expect(card("about")).toHaveTextContent("Version 1");
  expect(card("about")).toHaveTextContent(/\d+ characters/);

  // Arrow keys move between tabs.
  tabs[0].focus();
  await user.keyboard("{ArrowRight}");
  expect(screen.getByRole("tab", { name: /Voice/ })).toHaveAttribute("aria-selected", "true");
  expect(screen.getByRole("tab", { name: /Voice/ })).toHaveFocus();
  expect(screen.getByTestId("section-voice_and_tone")).toBeInTheDocument();
  expect(screen.queryByTestId("section-about")).toBeNull();
});

it("the width is a choice of Full or Half, the current one checked; choosing saves the width alone, with the version read", async () => {
  const { core, user } = await open();
  const width = (key: string, name: string) => within(card(key)).getByRole("radiogroup", { name: `Width of “${name}”` });
  expect(within(width("audience", "Audience")).getByRole("radio", { name: "Half" })).toBeChecked();
  expect(within(width("audience", "Audience")).getByRole("radio", { name: "Full" })).not.toBeChecked();
  await user.click(within(width("audience", "Audience")).getByRole("radio", { name: "Full" }));
  await waitFor(() => expect(card("audience")).toHaveAttribute("data-width", "full"));
  expect(saves(core)).toEqual([{ brandKitId: KIT, sections: [{ key: "audience", width: "full", expectedVersion: 1 }] }]);
  expect(within(width("audience", "Audience")).getByRole("radio", { name: "Full" })).toBeChecked();
  // Choosing the width it has sends nothing.
  await user.click(within(width("about", "About")).getByRole("radio", { name: "Full" }));
  expect(saves(core)).toHaveLength(1);
  await user.click(within(width("about", "About")).getByRole("radio", { name: "Half" }));
  await waitFor(() => expect(card("about")).toHaveAttribute("data-width", "half"));
  expect(saves(core)[1]).toEqual({ brandKitId: KIT, sections: [{ key: "about", width: "half", expectedVersion: 1 }] });
});

it("the text collapses to the outline and expands again; a collapsed section stays collapsed next time", async () => {
  const { core, user } = await open();
  const disclose = () => within(card("about")).getByRole("button", { name: "Text of “About”" });
  await within(card("about")).findByText("A small ceramics studio.");
  expect(disclose()).toHaveAttribute("aria-expanded", "true");
  await user.click(disclose());
  expect(disclose()).toHaveAttribute("aria-expanded", "false");
  expect(within(card("about")).queryByText("A small ceramics studio.")).toBeNull();
  expect(within(card("about")).getByRole("list", { name: "Outline of “About”" })).toHaveTextContent("Who we are");
  // Opened again on the next visit: collapsed, and its body not read.
  cleanup();
  forgetKeptKits();
  const again = kitCore();
  render(BrandKitPage);
  await screen.findByTestId("section-about");
  await waitFor(() => expect(again.called("brand_kit_sections")).toHaveLength(1));
  expect(again.called("brand_kit_sections")[0]?.args?.keys as string[]).not.toContain("about");
  expect(disclose()).toHaveAttribute("aria-expanded", "false");
  await user.click(disclose());
  await within(card("about")).findByText("A small ceramics studio.");
  expect(again.called("brand_kit_sections").at(-1)?.args).toEqual({ brandKitId: KIT, keys: ["about"] });
  void core;
});

it("while edited, the card takes the whole row: the editor beside a live preview of the text", async () => {
  const { user } = await open();
  await edit(user, "audience");
  expect(card("audience")).toHaveClass("half");
  expect(card("audience")).toHaveClass("editing");
  const preview = within(card("audience")).getByRole("region", { name: "Preview" });
  typeInto("Markdown of “Audience”", "## Makers\nPeople who **like** mugs.");
  await waitFor(() => expect(within(preview).getByRole("heading", { name: "Makers" })).toBeInTheDocument());
  expect(preview.querySelector("strong")).toHaveTextContent("like");
  expect(preview).toHaveAttribute("tabindex", "0");
});

it("editing saves only the changed sections, each with the version its text was read at", async () => {
  const { core, user } = await open();
  await edit(user, "about");
  await edit(user, "offer");
  expect(textOf("Markdown of “About”")).toBe("## Who we are\nA small ceramics studio.\n## Why\nBecause mugs.");
  typeInto("Markdown of “Offer”", "## Offer\nHand-thrown mugs, and bowls.");
  const saveAll = await screen.findByTestId("save-all");
  expect(saveAll).toHaveTextContent("Save changes (1)");
  await user.click(saveAll);
  await waitFor(() => expect(saves(core)).toHaveLength(1));
  expect(saves(core)[0]).toEqual({
    brandKitId: KIT, sections: [{ key: "offer", body: "## Offer\nHand-thrown mugs, and bowls.", expectedVersion: 1 }],
  });
  await within(card("offer")).findByText("Version 2");
  expect(core.section("offer").body).toBe("## Offer\nHand-thrown mugs, and bowls.");
  // The unchanged editor stays open and unsent.
  expect(card("about").querySelector(".cm-content")).not.toBeNull();

  // Both changed: one all-or-nothing write with both, each with its own version.
  typeInto("Markdown of “About”", "## Who we are\nA ceramics studio in Leeds.");
  await edit(user, "offer");
  typeInto("Markdown of “Offer”", "## Offer\nMugs.");
  await user.click(screen.getByTestId("save-all"));
  await waitFor(() => expect(saves(core)).toHaveLength(2));
  expect(saves(core)[1]).toEqual({
    brandKitId: KIT, sections: [
      { key: "about", body: "## Who we are\nA ceramics studio in Leeds.", expectedVersion: 1 },
      { key: "offer", body: "## Offer\nMugs.", expectedVersion: 2 },
    ],
  });
});

it("Ctrl+S saves the focused section only", async () => {
  const { core, user } = await open();
  await edit(user, "about");
  await edit(user, "offer");
  typeInto("Markdown of “About”", "## About\nEdited A");
  typeInto("Markdown of “Offer”", "## Offer\nEdited O");
  (card("offer").querySelector(".cm-content") as HTMLElement).focus();
  await user.keyboard("{Control>}s{/Control}");
  await waitFor(() => expect(saves(core)).toHaveLength(1));
  expect(saves(core)[0]?.sections).toEqual([{ key: "offer", body: "## Offer\nEdited O", expectedVersion: 1 }]);
  // Focus goes back to the card's Edit button.
  await waitFor(() => expect(within(card("offer")).getByRole("button", { name: "Edit" })).toHaveFocus());
});

it("a 409 shows theirs beside mine, writes nothing and loses nothing; take theirs drops the draft and reads again", async () => {
  const { core, user } = await open();
  await edit(user, "about");
  core.writeElsewhere("about", "## Who we are\nTheir new text.");
  typeInto("Markdown of “About”", "## Who we are\nMy new text.");
  await user.click(within(card("about")).getByRole("button", { name: "Save" }));
  const conflict = await within(card("about")).findByTestId("section-conflict");
  expect(conflict).toHaveTextContent("Changed elsewhere");
  expect(conflict).toHaveTextContent("version 2");
  // The shared conflict choice, after the user's own save: its first choice has focus.
  await waitFor(() => expect(within(conflict).getByRole("button", { name: "Take theirs" })).toHaveFocus());
  expect(within(conflict).getAllByRole("button").filter((b) => b.dataset.choice).map((b) => b.textContent?.trim()))
    .toEqual(["Take theirs", "Keep mine", "Merge…"]);
  expect(textOf("Theirs: version 2 (current)")).toBe("## Who we are\nTheir new text.");
  expect(textOf("Yours (edit here to merge by hand)")).toBe("## Who we are\nMy new text.");
  expect(core.section("about").body).toBe("## Who we are\nTheir new text.");
  expect(core.kit.drafts.map((d) => [d.key, d.body, d.theirsVersion])).toEqual([["about", "## Who we are\nMy new text.", 2]]);

  await user.click(within(conflict).getByRole("button", { name: "Take theirs" }));
  await waitFor(() => expect(within(card("about")).queryByTestId("section-conflict")).toBeNull());
  expect(core.called("brand_kit_draft_discard").map((c) => c.args)).toEqual([{ brandKitId: KIT, key: "about" }]);
  expect(core.called("brand_kit_sections").at(-1)?.args).toEqual({ brandKitId: KIT, keys: ["about"] });
  await within(card("about")).findByText("Their new text.");
  expect(core.kit.drafts).toEqual([]);
  expect(saves(core)).toHaveLength(1);
});

it("keep mine saves again on the conflict's version; both texts are in the history", async () => {
  const { core, user } = await open();
  await edit(user, "about");
  core.writeElsewhere("about", "## Theirs");
  typeInto("Markdown of “About”", "## Mine");
  await user.click(within(card("about")).getByRole("button", { name: "Save" }));
  const conflict = await within(card("about")).findByTestId("section-conflict");
  await user.click(within(conflict).getByRole("button", { name: "Keep mine" }));
  await waitFor(() => expect(within(card("about")).queryByTestId("section-conflict")).toBeNull());
  expect(saves(core)[1]).toEqual({ brandKitId: KIT, sections: [{ key: "about", body: "## Mine", expectedVersion: 2 }] });
  expect(core.section("about").body).toBe("## Mine");
  expect(core.section("about").earlier[0].body).toBe("## Theirs");
  expect(core.kit.drafts).toEqual([]);
  expect(card("about")).toHaveTextContent("Version 3");
});

it("merge by hand: the text edited in the merge view is saved on the new version", async () => {
  const { core, user } = await open();
  await edit(user, "about");
  core.writeElsewhere("about", "## Theirs\nA");
  typeInto("Markdown of “About”", "## Mine\nB");
  await user.click(within(card("about")).getByRole("button", { name: "Save" }));
  const conflict = await within(card("about")).findByTestId("section-conflict");
  const merged = within(conflict).getByRole("button", { name: "Merge…" });
  expect(merged).toBeDisabled();
  typeInto("Yours (edit here to merge by hand)", "## Theirs\nA\n## Mine\nB");
  await waitFor(() => expect(merged).toBeEnabled());
  await user.click(merged);
  await waitFor(() => expect(within(card("about")).queryByTestId("section-conflict")).toBeNull());
  expect(saves(core)[1]?.sections).toEqual([{ key: "about", body: "## Theirs\nA\n## Mine\nB", expectedVersion: 2 }]);
  expect(core.section("about").version).toBe(3);
});

it("changed again while resolving: keep mine shows the newer text, and the user's text still stays", async () => {
  const { core, user } = await open();
  await edit(user, "about");
  core.writeElsewhere("about", "## Theirs 1");
  typeInto("Markdown of “About”", "## Mine");
  await user.click(within(card("about")).getByRole("button", { name: "Save" }));
  const conflict = await within(card("about")).findByTestId("section-conflict");
  core.writeElsewhere("about", "## Theirs 2");
  await user.click(within(conflict).getByRole("button", { name: "Keep mine" }));
  await within(card("about")).findByTestId("conflict-error");
  await waitFor(() => expect(textOf("Theirs: version 3 (current)")).toBe("## Theirs 2"));
  expect(textOf("Yours (edit here to merge by hand)")).toBe("## Mine");
  await user.click(within(card("about")).getByRole("button", { name: "Keep mine" }));
  await waitFor(() => expect(within(card("about")).queryByTestId("section-conflict")).toBeNull());
  expect(saves(core).at(-1)?.sections).toEqual([{ key: "about", body: "## Mine", expectedVersion: 3 }]);
});

it("a draft the core kept (a refused save before a restart) shows on load with the same choices", async () => {
  const core = kitCore({
    drafts: [{ key: "offer", body: "## Offer\nMy kept text", expectedVersion: 1, theirsVersion: 2, reason: "conflict", savedAt: 1 }],
  });
  core.writeElsewhere("offer", "## Offer\nTheir text");
  const { user } = await open(core);
  const conflict = await within(card("offer")).findByTestId("section-conflict");
  expect(conflict).toHaveTextContent("Changed elsewhere");
  await waitFor(() => expect(textOf("Theirs: version 2 (current)")).toBe("## Offer\nTheir text"));
  expect(textOf("Yours (edit here to merge by hand)")).toBe("## Offer\nMy kept text");
  // One read of every body (the text shows by default), the conflict's current text among them.
  expect(core.called("brand_kit_sections")).toHaveLength(1);
  expect(core.called("brand_kit_sections")[0]?.args?.keys as string[]).toContain("offer");
  await user.click(within(conflict).getByRole("button", { name: "Keep mine" }));
  await waitFor(() => expect(within(card("offer")).queryByTestId("section-conflict")).toBeNull());
  expect(saves(core)).toEqual([{ brandKitId: KIT, sections: [{ key: "offer", body: "## Offer\nMy kept text", expectedVersion: 2 }] }]);
});

it("a kept width change (no text) offers keep mine and take theirs without a merge view", async () => {
  const core = kitCore({ drafts: [{ key: "about", width: "half", expectedVersion: 1, reason: "offline", savedAt: 1 }] });
  const { user } = await open(core);
  const conflict = await within(card("about")).findByTestId("section-conflict");
  expect(conflict).toHaveTextContent("Not sent yet");
  expect(conflict).toHaveTextContent("width → Half");
  expect(within(conflict).queryByTestId("conflict-diff")).toBeNull();
  await user.click(within(conflict).getByRole("button", { name: "Send mine" }));
  await waitFor(() => expect(card("about")).toHaveAttribute("data-width", "half"));
  expect(saves(core)).toEqual([{ brandKitId: KIT, sections: [{ key: "about", width: "half", expectedVersion: 1 }] }]);
});

it("history: view a version, compare it, revert it as a new version, then revert the revert", async () => {
  const core = kitCore();
  core.writeElsewhere("offer", "## Offer\nSecond.");
  core.writeElsewhere("offer", "## Offer\nThird.");
  const { user } = await open(core);
  await user.click(within(card("offer")).getByRole("button", { name: "History of “Offer”" }));
  const dialog = await screen.findByRole("dialog", { name: "History of “Offer”" });
  const options = await within(dialog).findAllByRole("option");
  const texts = options.map((o) => o.textContent?.replace(/\s+/g, " ").trim());
  expect(texts[0]).toMatch(/^Version 3 current\b/);
  // Written elsewhere (the fake's bodySource "user"): said as the service's app, never as this one.
  expect(texts[1]).toMatch(/^Version 2 .*edited in the service's app$/);
  expect(texts[2]).toMatch(/^Version 1 .*edited in the service's app$/);
  expect(texts.join(" ")).not.toContain("Content Desk");
  // The newest earlier version is chosen and shown rendered.
  expect(within(dialog).getByTestId("history-version")).toHaveTextContent("Second.");
  await user.click(within(dialog).getByRole("option", { name: /Version 1/ }));
  expect(within(dialog).getByTestId("history-version")).toHaveTextContent("Hand-thrown mugs.");
  await user.click(within(dialog).getByRole("button", { name: "Compare with current" }));
  await waitFor(() => expect(textOf("Version 1")).toBe("## Offer\nHand-thrown mugs."));
  expect(textOf("Current: version 3")).toBe("## Offer\nThird.");

  await user.click(within(dialog).getByRole("button", { name: "Bring back version 1" }));
  await waitFor(() => expect(within(dialog).getByTestId("history-status")).toHaveTextContent("Version 1 is back, as version 4"));
  expect(core.called("brand_kit_revert").map((c) => c.args)).toEqual([{ brandKitId: KIT, key: "offer", to: 1, expectedVersion: 3 }]);
  expect(core.called("brand_kit_history")).toHaveLength(2);
  expect(within(dialog).getAllByRole("option")).toHaveLength(4);
  // This app's revert is said as this app's edit; the versions written elsewhere are not.
  expect(within(dialog).getByRole("option", { name: /Version 4/ })).toHaveTextContent(/edited in Content Desk$/);
  expect(within(dialog).getByRole("option", { name: /Version 3/ })).not.toHaveTextContent("Content Desk");
  // The text the revert replaced is offered next: bringing it back undoes the revert.
  expect(within(dialog).getByRole("option", { name: /Version 3/ })).toHaveAttribute("aria-selected", "true");
  await user.click(within(dialog).getByRole("button", { name: "Bring back version 3" }));
  await waitFor(() => expect(within(dialog).getByTestId("history-status")).toHaveTextContent("Version 3 is back, as version 5"));
  expect(core.section("offer").body).toBe("## Offer\nThird.");
  expect(core.section("offer").version).toBe(5);
  await waitFor(() => expect(within(dialog).getAllByRole("option")).toHaveLength(5));
  expect(within(dialog).getAllByRole("option").filter((o) => o.textContent?.includes("edited in Content Desk"))
    .map((o) => o.getAttribute("data-version"))).toEqual(["5", "4"]);

  // Escape closes; focus returns to the History button; the card shows the new version.
  await user.keyboard("{Escape}");
  expect(screen.queryByRole("dialog")).toBeNull();
  expect(within(card("offer")).getByRole("button", { name: "History of “Offer”" })).toHaveFocus();
  expect(card("offer")).toHaveTextContent("Version 5");
});

it("an unknown tab or role in the filter shows the valid values by name, and one of them can be used", async () => {
  const { core, user } = await open();
  const before = core.called("brand_kit_sections").length;
  const filterReads = () => core.called("brand_kit_sections").slice(before).map((c) => c.args);
  await user.type(screen.getByLabelText("Tab"), "sidebar");
  await user.click(screen.getByRole("button", { name: "Show" }));
  const err = await screen.findByTestId("filter-error");
  expect(err).toHaveTextContent("No tab is called “sidebar”.");
  expect(within(err).getAllByRole("button").map((b) => b.textContent)).toEqual(["Overview", "Voice", "Visual"]);
  await user.click(within(err).getByRole("button", { name: "Voice" }));
  await waitFor(() => expect(screen.queryByTestId("filter-error")).toBeNull());
  expect(filterReads()).toEqual([{ brandKitId: KIT, tabs: ["sidebar"] }, { brandKitId: KIT, tabs: ["voice"] }]);
  expect(screen.getByRole("heading", { name: /2 sections in Voice/ })).toBeInTheDocument();
  expect(within(card("voice_and_tone")).getByText("Warm and plain.")).toBeInTheDocument();

  await user.click(screen.getByRole("button", { name: "Clear filter" }));
  await user.type(screen.getByLabelText("Role"), "villain");
  await user.click(screen.getByRole("button", { name: "Show" }));
  const roleErr = await screen.findByTestId("filter-error");
  expect(roleErr).toHaveTextContent("No role is called “villain”.");
  expect(within(roleErr).getByRole("button", { name: "Voice & Tone" })).toBeInTheDocument();
  // A role is typed as the page names it and sent as the service's value.
  await user.clear(screen.getByLabelText("Role"));
  await user.type(screen.getByLabelText("Role"), "voice & tone");
  await user.click(screen.getByRole("button", { name: "Show" }));
  await screen.findByRole("heading", { name: /1 section with role Voice & Tone/ });
  expect(filterReads().at(-1)).toEqual({ brandKitId: KIT, roles: ["voice_and_tone"] });
  // No key is on the page, in its text or in the names the filter offers.
  const page = document.body;
  for (const k of ["voice_and_tone", "writing_style", "design_guidelines"]) {
    expect(page.textContent).not.toContain(k);
    expect([...page.querySelectorAll("option")].map((o) => o.value)).not.toContain(k);
  }
}, 20_000);

it("a body with script, an image handler and a javascript: link renders inert", async () => {
  const core = kitCore();
  core.section("about").body = '<script>window.__xss=1</script>\n\n<img src=x onerror="window.__xss=1">\n\n[a](javascript:alert(1)) and [b](https://example.com)';
  await open(core);
  const md = await within(card("about")).findByTestId("markdown");
  await waitFor(() => expect(md).toHaveTextContent("and b"));
  expect(md.querySelector("script")).toBeNull();
  expect(md.querySelector("img")).toBeNull();
  expect([...md.querySelectorAll("*")].flatMap((el) => [...el.attributes].map((a) => a.name)).filter((n) => n.startsWith("on"))).toEqual([]);
  expect([...md.querySelectorAll("a")].map((a) => a.getAttribute("href"))).toEqual(["https://example.com"]);
  for (const a of md.querySelectorAll("a")) expect(a.getAttribute("rel")).toBe("noopener noreferrer");
  expect([...md.querySelectorAll("[href], [src]")].map((e) => e.getAttribute("href") ?? e.getAttribute("src"))
    .filter((u) => /^\s*javascript:/i.test(u ?? ""))).toEqual([]);
  // The raw HTML is shown as text, never run.
  expect(md).toHaveTextContent("<script>window.__xss=1</script>");
  expect((window as unknown as { __xss?: number }).__xss).toBeUndefined();
});

it("add a section: name and tab are required at their fields; it lands in its tab", async () => {
  const { core, user } = await open();
  await user.click(screen.getByRole("button", { name: "Add section" }));
  const form = screen.getByTestId("add-section-form");
  expect(within(form).getByLabelText("Name")).toHaveFocus();
  await user.click(within(form).getByRole("button", { name: "Add section" }));
  expect(within(form).getByLabelText("Name")).toHaveAttribute("aria-invalid", "true");
  expect(within(form).getByLabelText("Name")).toHaveAccessibleDescription("Give the section's name.");
  await user.type(within(form).getByLabelText("Name"), "Hooks");
  await user.selectOptions(within(form).getByLabelText("Tab"), "");
  await user.click(within(form).getByRole("button", { name: "Add section" }));
  expect(within(form).getByLabelText("Tab")).toHaveAccessibleDescription("Give the tab the section goes in.");
  expect(core.called("brand_kit_section_add")).toHaveLength(0);
  await user.selectOptions(within(form).getByLabelText("Tab"), "voice");
  await user.click(within(form).getByLabelText("Half"));
  await user.click(within(form).getByRole("button", { name: "Add section" }));
  await screen.findByTestId("section-custom_1");
  expect(core.called("brand_kit_section_add").map((c) => c.args)).toEqual([{ brandKitId: KIT, sectionName: "Hooks", tab: "voice", width: "half" }]);
  expect(screen.queryByTestId("add-section-form")).toBeNull();
  expect(screen.getByRole("tab", { name: /Voice/ })).toHaveAttribute("aria-selected", "true");
  expect(card("custom_1")).toHaveAttribute("data-width", "half");
  expect(within(card("custom_1")).getByRole("button", { name: "Edit" })).toHaveFocus();
  expect(within(card("custom_1")).getByRole("button", { name: "Text of “Hooks”" })).toHaveAttribute("aria-expanded", "true");
});

it("rename in place: Enter saves the name, Escape cancels", async () => {
  const { core, user } = await open();
  await user.click(within(card("about")).getByRole("button", { name: "Rename “About”" }));
  const input = within(card("about")).getByLabelText("Name of the section");
  expect(input).toHaveFocus();
  await user.clear(input);
  await user.keyboard("{Escape}");
  expect(within(card("about")).queryByLabelText("Name of the section")).toBeNull();
  expect(saves(core)).toHaveLength(0);
  await user.click(within(card("about")).getByRole("button", { name: "Rename “About”" }));
  await user.clear(within(card("about")).getByLabelText("Name of the section"));
  await user.keyboard("{Enter}");
  expect(within(card("about")).getByLabelText("Name of the section")).toHaveAccessibleDescription("Give the section's name.");
  expect(saves(core)).toHaveLength(0);
  await user.keyboard("Who we are{Enter}");
  await within(card("about")).findByRole("heading", { level: 3, name: "Who we are" });
  expect(saves(core)).toEqual([{ brandKitId: KIT, sections: [{ key: "about", name: "Who we are", expectedVersion: 1 }] }]);
  // Renamed, the starter role it keeps is shown by its name (never the key).
  expect(card("about")).toHaveTextContent("Role: About");
  expect(within(card("about")).getByRole("button", { name: "Rename “Who we are”" })).toHaveFocus();
});

it("archive asks first, then offers Undo, which restores the section", async () => {
  const { core, user } = await open();
  await user.click(within(card("offer")).getByRole("button", { name: "Archive “Offer”" }));
  const dialog = screen.getByRole("alertdialog");
  expect(dialog).toHaveTextContent("Archive “Offer”?");
  await user.keyboard("{Escape}");
  expect(screen.queryByRole("alertdialog")).toBeNull();
  expect(core.called("brand_kit_section_archive")).toHaveLength(0);
  await user.click(within(card("offer")).getByRole("button", { name: "Archive “Offer”" }));
  await user.click(within(screen.getByRole("alertdialog")).getByRole("button", { name: "Archive section" }));
  await waitFor(() => expect(screen.queryByTestId("section-offer")).toBeNull());
  expect(core.called("brand_kit_section_archive").map((c) => c.args)).toEqual([{ brandKitId: KIT, key: "offer" }]);
  expect(screen.getByTestId("brand-kit-status")).toHaveTextContent("Section “Offer” archived.");
  const undo = screen.getByRole("button", { name: "Undo" });
  expect(undo).toHaveFocus();
  await user.click(undo);
  await screen.findByTestId("section-offer");
  expect(core.called("brand_kit_section_restore").map((c) => c.args)).toEqual([{ brandKitId: KIT, key: "offer" }]);
  expect(screen.getByTestId("brand-kit-status")).toHaveTextContent("Section “Offer” restored.");
});

it("cancelling an edit with changes asks first; the text stays when the user says no", async () => {
  const { core, user } = await open();
  await edit(user, "about");
  typeInto("Markdown of “About”", "## Changed");
  await user.click(within(card("about")).getByRole("button", { name: "Cancel" }));
  const dialog = screen.getByRole("alertdialog");
  await user.click(within(dialog).getByRole("button", { name: "Cancel" }));
  expect(textOf("Markdown of “About”")).toBe("## Changed");
  await user.click(within(card("about")).getByRole("button", { name: "Cancel" }));
  await user.click(within(screen.getByRole("alertdialog")).getByRole("button", { name: "Discard changes" }));
  await waitFor(() => expect(card("about").querySelector(".cm-content")).toBeNull());
  expect(saves(core)).toHaveLength(0);
});

it("a key without brandkit:read: the message names the scope", async () => {
  const core = kitCore();
  core.failWith.brand_kits_list = { code: "missingScope", scope: "brandkit:read", message: "This key lacks the scope brandkit:read. Grant it in Settings → API keys.", status: 403 };
  render(BrandKitPage);
  const note = await screen.findByTestId("brand-kit-error");
  expect(note).toHaveTextContent("Missing scope: brandkit:read");
  expect(note).toHaveTextContent("This key lacks the scope brandkit:read");
});

it("unsaved text survives leaving the page and coming back; it is still saved on the version it was read at", async () => {
  const { core, user } = await open();
  await edit(user, "offer");
  typeInto("Markdown of “Offer”", "## Offer\nWritten, then the user went to the Planner.");
  cleanup();
  render(BrandKitPage);
  await screen.findByTestId("section-offer");
  await waitFor(() => expect(textOf("Markdown of “Offer”")).toBe("## Offer\nWritten, then the user went to the Planner."));
  await user.click(await screen.findByTestId("save-all"));
  await waitFor(() => expect(saves(core)).toHaveLength(1));
  expect(saves(core)[0]?.sections).toEqual([{ key: "offer", body: "## Offer\nWritten, then the user went to the Planner.", expectedVersion: 1 }]);
});

it("unsaved text is kept on this computer: after a restart its editor reopens with it, and saving it sends the version it was read at", async () => {
  const { core, user } = await open();
  await edit(user, "offer");
  typeInto("Markdown of “Offer”", "## Offer\nTyped, then the window was closed.");
  await waitFor(() => expect(Object.keys(localStorage).some((k) => k.startsWith("contentdesk.brandKit.unsaved"))).toBe(true));
  // "Restart": a fresh page state, the same computer.
  cleanup();
  forgetKeptKits();
  render(BrandKitPage);
  await screen.findByTestId("section-offer");
  await waitFor(() => expect(textOf("Markdown of “Offer”")).toBe("## Offer\nTyped, then the window was closed."));
  await user.click(await screen.findByTestId("save-all"));
  await waitFor(() => expect(saves(core)).toHaveLength(1));
  expect(saves(core)[0]?.sections).toEqual([{ key: "offer", body: "## Offer\nTyped, then the window was closed.", expectedVersion: 1 }]);
  // Saved: nothing is kept any more.
  await waitFor(() => expect(Object.keys(localStorage).some((k) => k.startsWith("contentdesk.brandKit.unsaved"))).toBe(false));
});

it("moves a section by keyboard: picked up, arrows within and across tabs, Enter saves one entry with its place; Escape puts back", async () => {
  const { core, user } = await open();
  const grid = () => [...screen.getByTestId("section-grid").children].map((c) => c.getAttribute("data-key"));
  expect(grid()).toEqual(["about", "audience", "offer"]);
  screen.getByTestId("move-offer").focus();
  await user.keyboard(" ");
  expect(screen.getByTestId("move-status").textContent).toMatch(/Picked up “Offer”, position 3 of 3 in Overview/);
  await user.keyboard("{ArrowUp}{ArrowUp}");
  expect(grid()).toEqual(["offer", "about", "audience"]);
  await user.keyboard("{Escape}");
  expect(grid()).toEqual(["about", "audience", "offer"]);
  expect(screen.getByTestId("move-status").textContent).toMatch(/put back/);
  expect(saves(core)).toHaveLength(0);
  // Within the tab.
  screen.getByTestId("move-offer").focus();
  await user.keyboard(" {ArrowUp}{Enter}");
  await waitFor(() => expect(saves(core)).toHaveLength(1));
  const about = core.kit.sections.find((s) => s.key === "about")!;
  expect(saves(core)[0]).toEqual({ brandKitId: KIT, sections: [{ key: "offer", afterId: about.id, expectedVersion: 1 }] });
  await waitFor(() => expect(grid()).toEqual(["about", "offer", "audience"]));
  expect(screen.getByTestId("move-status").textContent).toMatch(/Moved “Offer” to position 2/);
  // To the next tab, at its top.
  screen.getByTestId("move-offer").focus();
  await user.keyboard(" {ArrowRight}{ArrowUp}{ArrowUp}{Enter}");
  await waitFor(() => expect(saves(core)).toHaveLength(2));
  expect((saves(core)[1] as { sections: unknown }).sections).toEqual([{ key: "offer", tab: "voice", position: "top", expectedVersion: 1 }]);
  expect(screen.getByRole("tab", { name: /Voice/ })).toHaveAttribute("aria-selected", "true");
  await waitFor(() => expect(grid()[0]).toBe("offer"));
});

it("a move refused because the section changed elsewhere is put back and shows the conflict; the tab list moves too", async () => {
  const { core, user } = await open();
  core.kit.sections.find((s) => s.key === "audience")!.version = 5;
  await user.selectOptions(screen.getByTestId("tab-of-audience"), "visual");
  await waitFor(() => expect(card("audience").classList.contains("has-conflict")).toBe(true));
  expect(screen.getByTestId("move-status").textContent).toMatch(/“Audience” was not moved\. .*changed since you opened/);
  expect([...screen.getByTestId("section-grid").children].map((c) => c.getAttribute("data-key"))).toContain("audience");
  expect((saves(core)[0] as { sections: unknown }).sections).toEqual([{ key: "audience", tab: "visual", afterId: expect.any(String), expectedVersion: 1 }]);
});

it("every archived section of the kit can be restored, wherever it was archived", async () => {
  const core = kitCore();
  core.kit.sections.find((s) => s.key === "offer")!.archived = true; // archived on another computer
  const { user } = await open(core);
  const list = screen.getByTestId("archived-sections");
  expect(list.textContent).toMatch(/Archived sections \(1\)/);
  await user.click(within(list).getByText(/Archived sections/));
  await user.click(within(list).getByRole("button", { name: "Restore “Offer”" }));
  await waitFor(() => expect(screen.getByTestId("section-offer")).toBeTruthy());
  expect(core.called("brand_kit_section_restore").map((c) => c.args)).toEqual([{ brandKitId: KIT, key: "offer" }]);
  expect(core.called("brand_kit_section_archive")).toHaveLength(0);
});

it("a move kept offline (after a restart) says what it was and is sent with its tab and place", async () => {
  const core = kitCore({ drafts: [{ key: "offer", tab: "voice", position: "top", expectedVersion: 1, reason: "offline", savedAt: 1 }] });
  const { user } = await open(core);
  const conflict = await within(card("offer")).findByTestId("section-conflict");
  expect(conflict).toHaveTextContent("tab → Voice, moved to the top of its tab");
  await user.click(within(conflict).getByRole("button", { name: "Send mine" }));
  await waitFor(() => expect(saves(core)).toEqual([{ brandKitId: KIT, sections: [{ key: "offer", tab: "voice", position: "top", expectedVersion: 1 }] }]));
  await user.click(screen.getByRole("tab", { name: /Voice/ }));
  await waitFor(() => expect([...screen.getByTestId("section-grid").children].map((c) => c.getAttribute("data-key"))[0]).toBe("offer"));
});
