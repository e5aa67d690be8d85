"""Every example a tool's description shows, run through the real MCP server (issue 26 point 9). The
official Python SDK spawns `cdesk mcp` over stdio against a real sandbox, lists the tools, finds each
example in each property's description as served (a backticked form after `e.g.`, as
`contentdesk_ops::examples` reads them) and calls the tool with that property set to it (JSON when it
parses, else the string) beside what the tool needs; a placeholder (`CARD_ID`, `contentdesk_ops::PLACEHOLDERS`)
is replaced by a record this test made. Every call must succeed; a new example that does not run fails
here. The shell's examples are run by crates/cli/tests/help_examples.rs.

Run: `bash tests/mcp/run.sh` (or pytest on this file with CDESK_BIN_DIR set)."""
import json

import pytest

from test_stdio import Sandbox, server, session_call

# What a tool needs besides the property an example shows (its required fields, a project for a placement).
NEEDS = {
    "create_card": {"title": "Example card", "platform": "x"},
    "update_card": {"cardId": "CARD_ID"},
    "repeat_card": {"cardId": "CARD_ID", "every": "1w", "count": 1},
    "export_calendar": {"from": "2026-11-01", "to": "2027-03-01"},
    "generate_image": {"prompt": "a mug on a desk", "projectId": "PROJECT_ID"},
    "generate_video": {"prompt": "the mug turns", "projectId": "PROJECT_ID"},
    "generate_audio": {"prompt": "a short jingle", "projectId": "PROJECT_ID"},
    "generate_lip_sync": {"image": "OUTPUT_ID-1", "audio": "https://example.com/voice.mp3", "audioDuration": 3},
    # A 1x1 PNG inline (its first bytes are checked against the type the example gives).
    "upload_media": {"name": "example.png", "contentBase64": "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg=="},
}
# A property an example gives that takes the place of another the tool needs.
INSTEAD = {("repeat_card", "until"): "count"}


def examples(text):
    """The backticked forms after `e.g.` (the same reading as contentdesk_ops::examples)."""
    found = []
    at = text.find("e.g.")
    while at >= 0:
        rest = text[at + 4:].lstrip()
        while rest.startswith("`"):
            end = rest.find("`", 1)
            if end < 0:
                break
            found.append(rest[1:end])
            rest = rest[end + 1:]
            # The next one follows ", ", " or " or ", or " (a line break counts as a space).
            comma = rest.startswith(",")
            after = (rest[1:] if comma else rest).lstrip()
            either = after[:2] == "or" and after[2:3].isspace()
            after = after[2:].lstrip() if either else after
            if not (comma or either) or not after.startswith("`"):
                break
            rest = after
        at = text.find("e.g.", at + 4)
    return found


def test_examples_are_read_as_the_catalogue_reads_them():
    assert examples("Aspect, e.g. `1:1`, `16:9` or `9:16` (`get_model`).") == ["1:1", "16:9", "9:16"]
    assert examples("e.g. `a`, then `b`; e.g. a row") == ["a"]
    assert examples("e.g. `a`,\n`b` or\n`c` `d`") == ["a", "b", "c"]


def fill(value, ids):
    """`value` with each placeholder replaced by its record (in strings, lists and objects)."""
    if isinstance(value, str):
        for k in sorted(ids, key=len, reverse=True):
            value = value.replace(k, ids[k])
        return value
    if isinstance(value, list):
        return [fill(v, ids) for v in value]
    if isinstance(value, dict):
        return {k: fill(v, ids) for k, v in value.items()}
    return value


def listed(reply, key):
    """A list reply's records: under `items` (a bare list as the service sent it) or under its own key."""
    return reply.get("items") or reply.get(key) or []


def as_value(form):
    try:
        return json.loads(form)
    except ValueError:
        return form


@pytest.fixture(scope="module")
def sandbox():
    sb = Sandbox(render_ms=50, smart_wait_ms=2000)
    yield sb
    sb.stop()


def test_every_example_a_tool_description_shows_runs(sandbox):
    async def body(session):
        async def call(tool, args):
            r = await session.call_tool(tool, args)
            text = "".join(c.text for c in r.content if getattr(c, "text", None))
            return r, (r.structured_content if r.structured_content is not None else text)

        async def ok(tool, args):
            r, data = await call(tool, args)
            assert not r.is_error, f"{tool} {args}: {data}"
            return data

        ids = {}
        ids["SPACE_ID"] = (await ok("create_space", {"name": "Examples"}))["id"]
        ids["STAGE_ID"] = listed(await ok("list_stages", {}), "stages")[0]["id"]
        tags = await ok("list_tags", {})
        launch = next((t for t in listed(tags, "tags") if t["name"] == "launch"), None)  # the demo's own
        ids["TAG_ID"] = (launch or await ok("create_tag", {"name": "launch"}))["id"]
        accounts = await ok("list_connected_accounts", {})
        ids["ACCOUNT_ID"] = next(a["id"] for a in listed(accounts, "accounts") if a["platform"] == "x")
        ids["CARD_ID"] = (await ok("create_card", {"title": "Examples' card", "platform": "x", "scheduledAt": "2027-02-01T09:30:00Z"}))["id"]
        project = await ok("create_project", {"title": "Examples"})
        ids["PROJECT_ID"] = project.get("project", project)["id"]
        canvas = await ok("create_project", {"title": "Example slides", "type": "canvas"})
        ids["CANVAS_ID"] = canvas.get("project", canvas)["id"]
        ids["OUTPUT_ID"] = (await ok("generate_image", {"prompt": "a mug"}))["outputId"]

        tools = (await session.list_tools()).tools
        cases = []
        for t in tools:
            for name, prop in (t.input_schema.get("properties") or {}).items():
                for form in examples(prop.get("description", "")):
                    args = dict(NEEDS.get(t.name, {}))
                    args.pop(INSTEAD.get((t.name, name), ""), None)
                    if "slideIndex" in form:  # a canvas placement goes on a canvas
                        args["projectId"] = "CANVAS_ID"
                    args[name] = as_value(form)
                    cases.append((f"{t.name}.{name}: `{form}`", t.name, fill(args, ids)))
            assert "e.g. `" not in (t.description or ""), f"{t.name}: an example in the tool's description: run it here first"
        assert len(cases) > 15, cases
        failed = []
        for shown, tool, args in cases:
            r, data = await call(tool, args)
            if r.is_error:
                failed.append(f"{shown}\n  called {tool} {json.dumps(args)}\n  {data}")
        assert not failed, f"{len(failed)} of {len(cases)} examples the tool descriptions show fail:\n" + "\n".join(failed)
        return len(cases)

    import anyio
    n = anyio.run(session_call, server(sandbox), body)
    print(f"{n} examples run")


def test_an_agents_date_alone_is_midnight_utc_whatever_the_servers_zone(sandbox):
    """The shell reads a date alone in this computer's zone (crates/cli/tests/help_examples.rs); an agent's
    is 00:00 UTC, as the tool's description says, even when `cdesk mcp` runs in a zone 3 h ahead."""
    async def body(session):
        r = await session.call_tool("create_card", {"title": "Agent day", "platform": "x", "scheduledAt": "2027-02-01"})
        assert not r.is_error, r
        return r.structured_content

    import anyio
    card = anyio.run(session_call, server(sandbox, extra_env={"TZ": "<+03>-3"}), body)
    assert card["scheduledAt"].startswith("2027-02-01T00:00:00"), card
