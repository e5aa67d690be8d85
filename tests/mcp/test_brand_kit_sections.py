"""A brand kit's sections added, archived and restored by an agent, with the official Python SDK over stdio
against a real sandbox (issue 25 point 4: the catalogue's `SectionAddInput` and `SectionArchiveInput` and
their rules are the app's and `cdesk`'s too).

- add_brand_kit_section: a blank or 121-character name, an unknown tab or width, a `role` (a section you add
  has none: the input has no such field) and the app's old `name` are each an isError result naming the
  field, and nothing is added; within the rules the section is added, its name trimmed.
- archive_brand_kit_section and restore_brand_kit_section: the annotations say what each does (an archive
  is destructive, a restore is not; both idempotent); archived, the section leaves the kit's summary;
  restored by its key alone, it is back with its version and body; restoring it again names the key.

Run: `bash tests/mcp/run.sh`."""
from sandbox_process import Sandbox, sandbox_fixture
from test_stdio import result_json, run, server

sandbox = sandbox_fixture(Sandbox)


async def kit_and_keys(s):
    kits = result_json(await s.call_tool("list_brand_kits", {}))["brandKits"]
    kit = kits[0]["id"]
    summary = result_json(await s.call_tool("get_brand_kit", {"brandKitId": kit, "detail": "summary"}))
    return kit, [x["key"] for x in summary["sections"]]


def test_an_added_sections_rules_hold_for_agents(sandbox):
    async def body(s):
        kit, before = await kit_and_keys(s)

        def args(**extra):
            return {"brandKitId": kit, "sectionName": "Hooks", "tab": "voice", **extra}
        refusals = [
            (args(sectionName="  "), "sectionName", "Give the section's name."),
            (args(sectionName="é" * 121), "sectionName", "at most 120 characters"),
            (args(tab="sidebar"), "tab", "is not a tab: use one of overview, voice, visual"),
            (args(width="third"), "width", "is not a width: use one of full, half"),
            (args(role="about"), "role", "unknown field `role`"),
            ({"brandKitId": kit, "name": "Hooks", "tab": "voice"}, "name", "unknown field `name`"),
        ]
        for given, field, says in refusals:
            r = await s.call_tool("add_brand_kit_section", given)
            assert r.is_error, given
            err = result_json(r)
            assert err["field"] == field and says in err["error"], (given, err)
        _, after = await kit_and_keys(s)
        assert after == before, "nothing was added"

        r = await s.call_tool("add_brand_kit_section", args(sectionName="  Hooks  ", width="half", body="## Hooks"))
        assert not r.is_error, r.content
        added = result_json(r)
        assert (added["sectionName"], added["tab"], added["width"], added["body"], added["role"]) == ("Hooks", "voice", "half", "## Hooks", None)
    run(server(sandbox), body)


def test_a_section_is_archived_and_restored_by_its_key(sandbox):
    async def body(s):
        tools = {t.name: t for t in (await s.list_tools()).tools}
        archive, restore = tools["archive_brand_kit_section"].annotations, tools["restore_brand_kit_section"].annotations
        assert (archive.read_only_hint, archive.destructive_hint, archive.idempotent_hint) == (False, True, True), archive
        assert (restore.read_only_hint, restore.destructive_hint, restore.idempotent_hint) == (False, False, True), restore
        assert set(tools["restore_brand_kit_section"].input_schema["properties"]) == {"brandKitId", "key", "sectionId"}

        kit, _ = await kit_and_keys(s)
        added = result_json(await s.call_tool("add_brand_kit_section", {"brandKitId": kit, "sectionName": "Returns", "tab": "overview", "body": "30 days."}))
        key = added["key"]
        done = result_json(await s.call_tool("archive_brand_kit_section", {"brandKitId": kit, "key": key}))
        assert (done["archived"], done["key"], done["sectionId"]) == (True, key, added["id"]), done
        _, live = await kit_and_keys(s)
        assert key not in live, "archived: gone from the kit"

        # Restored by its key alone (found among the archived sections the service lists).
        back = result_json(await s.call_tool("restore_brand_kit_section", {"brandKitId": kit, "key": key}))
        assert (back["archived"], back["key"], back["sectionId"]) == (False, key, added["id"]), back
        section = result_json(await s.call_tool("get_brand_kit_section", {"brandKitId": kit, "key": key}))
        assert (section["version"], section["body"]) == (1, "30 days."), section

        # Not archived any more: a restore names the key; a blank key is refused before anything is sent.
        again = await s.call_tool("restore_brand_kit_section", {"brandKitId": kit, "key": key})
        assert again.is_error and result_json(again)["field"] == "key", again.content
        blank = await s.call_tool("restore_brand_kit_section", {"brandKitId": kit, "key": " "})
        err = result_json(blank)
        assert blank.is_error and err["field"] == "key" and "Give the section's key." in err["error"], err
    run(server(sandbox), body)
