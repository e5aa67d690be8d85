"""Every tool of `cdesk mcp` declares an `outputSchema`, and its structured results validate against it
(issue 27 point 1): the official Python SDK checks each `call_tool` result against the listed schema itself
(a mismatch is a RuntimeError), and these tests check again with `jsonschema` so the rule does not rest on
the SDK's habits. A spending tool's result carries its charge (credits and the balance after, point 5).

Run: `bash tests/mcp/run.sh`."""
import copy
import uuid

import anyio
import jsonschema
from test_stdio import result_json, server, session_call, sandbox  # noqa: F401 (the fixture)


def objects_only(schema):
    """Every property schema is an object (the TypeScript SDK refuses the whole tools/list otherwise)."""
    if isinstance(schema, dict):
        props = schema.get("properties", {})
        return all(isinstance(p, dict) for p in props.values()) and all(objects_only(v) for v in schema.values())
    if isinstance(schema, list):
        return all(objects_only(v) for v in schema)
    return True


def check(tools, name, result):
    """The SDK validated `result` already (call_tool); validate once more against the listed schema."""
    assert not result.is_error, (name, result.content)
    jsonschema.Draft202012Validator(tools[name]).validate(result.structured_content)
    return result.structured_content


def test_every_tool_declares_a_valid_output_schema_and_real_results_validate(sandbox):
    async def body(s):
        listed = (await s.list_tools()).tools
        tools = {}
        for t in listed:
            assert t.output_schema is not None, f"{t.name}: no outputSchema"
            assert t.output_schema.get("type") == "object", f"{t.name}: structured content is an object"
            jsonschema.Draft202012Validator.check_schema(t.output_schema)
            assert objects_only(t.output_schema), f"{t.name}: a property schema that is not an object (the TS SDK refuses it)"
            tools[t.name] = t.output_schema

        async def call(name, args):
            return check(tools, name, await s.call_tool(name, args))

        await call("get_balance", {})
        model = (await call("list_models", {"contentType": "image"}))["items"][0]
        await call("get_model", {"modelId": model["modelId"]})
        voices = (await call("list_voices", {}))["items"]
        voice = await call("get_voice", {"voiceId": voices[-1]["voiceId"]})
        assert voice["voiceId"] == voices[-1]["voiceId"] and voice["name"] == voices[-1]["name"], voice
        cards = (await call("list_cards", {"limit": 3}))["cards"]
        await call("get_card", {"cardId": cards[0]["id"]})
        await call("check_card", {"cardId": cards[0]["id"]})
        spaces = (await call("list_spaces", {}))["spaces"]
        await call("get_space", {"spaceId": spaces[0]["id"]})
        await call("list_stages", {"spaceId": spaces[0]["id"]})
        await call("list_tags", {})
        tag = await call("create_tag", {"name": f"schema-{uuid.uuid4().hex[:6]}"})
        await call("delete_tag", {"tagId": tag["id"]})
        await call("list_projects", {})
        await call("list_connected_accounts", {})
        await call("list_accounts", {})
        await call("list_content", {})
        await call("list_media", {})
        kits = (await call("list_brand_kits", {}))["brandKits"]
        summary = await call("get_brand_kit", {"brandKitId": kits[0]["id"], "detail": "summary"})
        key = summary["sections"][0]["key"]
        await call("get_brand_kit_section", {"brandKitId": kits[0]["id"], "key": key, "history": True})
        await call("list_brand_knowledge", {"brandKitId": kits[0]["id"]})
        await call("export_calendar", {"from": "2026-01-01", "to": "2027-01-01", "format": "json"})
        await call("generate_image", {"prompt": "a mug", "getCost": True})
        made = await call("generate_image", {"prompt": "a mug", "outputId": str(uuid.uuid4())})
        await call("get_generation_status", {"outputId": made["outputId"]})
        return tools, made

    tools, made = anyio.run(session_call, server(sandbox), body)

    # The check can fail: the same real result against a schema that says otherwise is refused.
    wrong = copy.deepcopy(tools["generate_image"])
    for shape in wrong["anyOf"]:
        shape.setdefault("properties", {})["outputId"] = {"type": "integer"}
    errors = list(jsonschema.Draft202012Validator(wrong).iter_errors(made))
    assert errors, "a result that does not match its schema is caught"


def test_a_spending_tool_says_what_it_charged_and_the_balance_after(sandbox):
    async def body(s):
        quote = result_json(await s.call_tool("generate_image", {"prompt": "a red mug", "getCost": True}))
        assert "charge" not in quote, "a free quote charges nothing and says no charge"
        made = result_json(await s.call_tool("generate_image", {"prompt": "a red mug", "outputId": str(uuid.uuid4())}))
        after = result_json(await s.call_tool("get_balance", {}))["balance"]
        return quote, made, after

    quote, made, after = anyio.run(session_call, server(sandbox), body)
    charge = made["charge"]
    assert charge["credits"] == quote["creditsEstimate"], (charge, quote)
    assert charge["balanceAfter"] == after, (charge, after)


def test_voice_get_is_a_command_too(sandbox):
    """`cdesk voice get ID` prints the voice the tool reads (the spec's GET /voices/{voiceId})."""
    import json
    import os
    import subprocess
    from test_stdio import BIN
    env = dict(server(sandbox).env)
    voices = json.loads(subprocess.run([f"{BIN}/cdesk", "voice", "list", "--json"], env=env, capture_output=True, text=True, check=True).stdout)
    out = subprocess.run([f"{BIN}/cdesk", "voice", "get", voices[0]["voiceId"], "--json"], env=env, capture_output=True, text=True)
    assert out.returncode == 0, out.stderr
    assert json.loads(out.stdout)["voiceId"] == voices[0]["voiceId"]
    missing = subprocess.run([f"{BIN}/cdesk", "voice", "get", "no-such-voice", "--json"], env=env, capture_output=True, text=True)
    assert missing.returncode != 0 and missing.stderr.strip(), "an unknown voice is an error, not an empty success"
