"""Every operation's input schema, as `cdesk schema` prints it (the whole schema the arguments are checked
against, before tools/list leaves out what says nothing), is a valid JSON Schema under a strict validator
(Draft 2020-12 check_schema), and every default validates under its own property's schema (a
`"default": null` on a `"type": "string"` is refused by strict clients)."""
import json
import os
import subprocess

import jsonschema

BIN = os.environ.get("CDESK_BIN_DIR", os.path.expanduser("~/.cache/contentdesk-target/debug"))


def walk(schema, at):
    if isinstance(schema, dict):
        if "default" in schema:
            checked = {k: v for k, v in schema.items() if k not in ("default", "description", "title")}
            if checked and not any("$ref" in json.dumps(v) for v in checked.values()):
                jsonschema.Draft202012Validator(checked).validate(schema["default"])
        for k, v in schema.items():
            walk(v, f"{at}/{k}")
    elif isinstance(schema, list):
        for i, v in enumerate(schema):
            walk(v, f"{at}/{i}")


def test_every_input_schema_is_strictly_valid_and_its_defaults_fit():
    out = subprocess.run([f"{BIN}/cdesk", "schema", "--json"], capture_output=True, text=True, timeout=60,
                         env={**os.environ, "CONTENTHERO_API_KEY": "ch_live_unused"})
    assert out.returncode == 0, out.stderr
    entries = json.loads(out.stdout)
    assert len(entries) > 50, len(entries)
    for e in entries:
        schema = e["input"]
        jsonschema.Draft202012Validator.check_schema(schema)
        walk(schema, e["tool"])
        for name, prop in schema.get("properties", {}).items():
            assert prop.get("description", "").strip(), f"{e['tool']}.{name} has no description"
