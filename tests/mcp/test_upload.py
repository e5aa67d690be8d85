"""The media upload tool (`upload_media`, issue 27 point 8) end to end with the official Python SDK, and
`--confirm-spend-over` over the hosted transport.

- stdio (`cdesk mcp`): a real PNG on disk uploaded by its path, found again with list_media and its bytes
  read back from the sandbox's file URL; the structured result valid against the tool's output schema;
  annotations (not read-only, not destructive, open world), the media toolset, hidden by --read-only.
  The fence: a text file named .png, /proc/self/environ (which holds the key), bytes of another type than
  the one declared, a file over the 50 MiB limit, a directory, inline base64 over 1 MiB: each refused as an
  isError result naming the field, nothing added to the library, the key in no result.
- hosted (`cdesk mcp --http`, OAuth): the tool offers no `file`; a path is refused saying why (it would
  name the server's disk); the bytes as contentBase64 arrive and read back.
- elicitation over Streamable HTTP (`--http --confirm-spend-over 0`): accepted renders and charges once,
  declined charges nothing; a session begun by one user cannot be used by another (404).

Everything is real: the sandbox, `cdesk` processes, stdio pipes, HTTP on loopback, the SDK.
Run: `bash tests/mcp/run.sh`."""
import base64
import json
import os
import struct
import tempfile
import urllib.request
import uuid
import zlib

import anyio
import httpx2
import jsonschema
import pytest
from mcp import ClientSession, types
from mcp.client.streamable_http import streamable_http_client

import oauth_http
from test_stdio import Sandbox, result_json, run, server

MIB = 1024 * 1024


def png(width=3, height=2, seed=0):
    """A real PNG (RGB, 8 bits), different bytes for each seed."""
    raw = b"".join(b"\x00" + bytes(((x * 40 + y * 90 + seed * 7) % 256) for x in range(width * 3)) for y in range(height))

    def chunk(kind, data):
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF)
    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0))
            + chunk(b"IDAT", zlib.compress(raw)) + chunk(b"IEND", b""))


def fetch(url):
    with urllib.request.urlopen(url, timeout=10) as r:
        return r.read()


def everything(result):
    """All a result says, as one string (texts, links and structured content)."""
    return json.dumps([c.model_dump(mode="json") for c in result.content]) + json.dumps(result.structured_content)


@pytest.fixture(scope="module")
def sandbox():
    sb = Sandbox()
    yield sb
    sb.stop()


async def uploads(s):
    listed = result_json(await s.call_tool("list_media", {"source": "uploads", "limit": 100}))
    return {m["id"]: m for m in listed["media"]}


def test_stdio_uploads_a_local_file_and_reads_it_back(sandbox):
    bytes_ = png(seed=1)
    path = os.path.join(tempfile.mkdtemp(prefix="cdesk-upload-"), "cover.png")
    with open(path, "wb") as f:
        f.write(bytes_)

    async def body(s):
        tools = {t.name: t for t in (await s.list_tools()).tools}
        tool = tools["upload_media"]
        a = tool.annotations
        # Not read-only, not destructive, open world, not idempotent: the last two are the spec's defaults,
        # which the server leaves out of tools/list (a client reads an absent hint as its default).
        assert (a.read_only_hint, a.destructive_hint) == (False, False)
        assert a.open_world_hint in (None, True) and a.idempotent_hint in (None, False), a
        assert {"file", "contentBase64", "name", "contentType"} <= set(tool.input_schema["properties"])
        assert tool.output_schema, "every tool declares its output"
        r = await s.call_tool("upload_media", {"file": path})
        assert not r.is_error, r.content
        out = result_json(r)
        jsonschema.validate(out, tool.output_schema)
        assert sandbox.key not in everything(r), "the key is in no result"
        listed = await uploads(s)
        return out, listed

    out, listed = run(server(sandbox), body)
    item = listed.get(out["outputId"])
    assert item, f"list_media --source uploads has {out['outputId']}: {list(listed)}"
    assert (item["fileName"], item["type"], item["url"]) == ("cover.png", "image", out["url"])
    assert fetch(out["url"]) == bytes_, "the library holds the file's bytes"


def test_stdio_inline_bytes_are_uploaded_too(sandbox):
    bytes_ = png(5, 4, seed=2)

    async def body(s):
        r = await s.call_tool("upload_media", {"contentBase64": base64.b64encode(bytes_).decode(), "name": "inline.png"})
        assert not r.is_error, r.content
        return result_json(r), await uploads(s)

    out, listed = run(server(sandbox), body)
    assert listed[out["outputId"]]["fileName"] == "inline.png"
    assert fetch(out["url"]) == bytes_


def test_stdio_fence_refuses_what_is_not_media_or_too_large(sandbox):
    d = tempfile.mkdtemp(prefix="cdesk-upload-fence-")

    def write(name, data):
        p = os.path.join(d, name)
        with open(p, "wb") as f:
            f.write(data)
        return p
    secret = write("id_rsa.png", b"-----BEGIN OPENSSH PRIVATE KEY-----\nb3BlbnNzaC1rZXktdjEAAAAA\n")
    mp3 = write("song.png", b"ID3\x04\x00\x00\x00\x00\x00\x00" + bytes(200))
    big = os.path.join(d, "huge.png")
    with open(big, "wb") as f:
        f.write(png())
        f.truncate(50 * MIB + 1)  # sparse: no disk used
    inline_big = base64.b64encode(png() + bytes(MIB)).decode()
    cases = [
        ({"file": secret}, "file", "not an image, video or audio"),
        ({"file": "/proc/self/environ", "contentType": "image/png"}, "file", "not an image, video or audio"),
        ({"file": mp3}, "contentType", "bytes are audio but its type is image/png"),
        ({"file": big}, "file", "over the upload limit of 50 MiB"),
        ({"file": d, "contentType": "image/png"}, "file", "not a regular file"),
        ({"contentBase64": inline_big, "name": "big.png"}, "contentBase64", "more than 1 MiB inline"),
        ({"contentBase64": base64.b64encode(b"#!/bin/sh\necho hi\n").decode(), "name": "x.png"}, "contentBase64", "not an image"),
        ({"file": secret, "contentBase64": "AAAA", "name": "x.png"}, "file", "not both"),
        ({"name": "x.png"}, "file", "give the file"),
    ]

    async def body(s):
        before = await uploads(s)
        answers = []
        for args, field, words in cases:
            r = await s.call_tool("upload_media", args)
            answers.append((args, field, words, r))
        return before, answers, await uploads(s)

    before, answers, after = run(server(sandbox), body)
    for args, field, words, r in answers:
        shown = {k: (v[:30] if isinstance(v, str) else v) for k, v in args.items()}
        assert r.is_error, (shown, r.content)
        details = result_json(r)
        assert details.get("field") == field, (shown, details)
        assert words in r.content[0].text, (shown, r.content[0].text)
        assert sandbox.key not in everything(r), shown
    assert after.keys() == before.keys(), "nothing refused reached the library"


def test_the_tool_is_in_the_media_toolset_and_hidden_by_read_only(sandbox):
    async def names(s):
        return {t.name for t in (await s.list_tools()).tools}
    assert "upload_media" in run(server(sandbox, args=["--toolsets", "media"]), names)
    assert "upload_media" not in run(server(sandbox, args=["--toolsets", "planner"]), names)
    ro = run(server(sandbox, args=["--toolsets", "media", "--read-only"]), names)
    assert "upload_media" not in ro and "list_media" in ro


# --- Hosted: cdesk mcp --http ------------------------------------------------------------------------

@pytest.fixture(scope="module")
def hosted():
    sb = oauth_http.Sandbox()
    srv = oauth_http.McpHttp(sb)
    yield sb, srv
    srv.stop()
    sb.stop()


def test_hosted_reads_no_path_and_takes_the_bytes_inline(hosted):
    sb, srv = hosted
    token = oauth_http.tokens_for(sb, srv.resource)["access_token"]
    bytes_ = png(4, 4, seed=3)
    # A file that exists on the server's own disk: still refused, whatever it is.
    local = os.path.join(tempfile.mkdtemp(prefix="cdesk-upload-host-"), "server-side.png")
    with open(local, "wb") as f:
        f.write(png())

    async def body(s):
        tool = next(t for t in (await s.list_tools()).tools if t.name == "upload_media")
        props = tool.input_schema["properties"]
        assert "file" not in props and "contentBase64" in props, props
        assert "reads no paths" in tool.description
        path = await s.call_tool("upload_media", {"file": local})
        up = await s.call_tool("upload_media", {"contentBase64": base64.b64encode(bytes_).decode(), "name": "hosted.png"})
        big = await s.call_tool("upload_media", {"contentBase64": base64.b64encode(png() + bytes(MIB)).decode(), "name": "b.png"})
        listed = result_json(await s.call_tool("list_media", {"source": "uploads", "limit": 100}))
        return tool, path, up, big, {m["id"]: m for m in listed["media"]}

    tool, path, up, big, listed = anyio.run(oauth_http.with_bearer, srv.mcp, token, body)
    assert path.is_error and "this server is hosted: it reads no path" in path.content[0].text, path.content
    assert result_json(path)["field"] == "file"
    assert not up.is_error, up.content
    out = result_json(up)
    jsonschema.validate(out, tool.output_schema)
    assert listed[out["outputId"]]["fileName"] == "hosted.png"
    assert fetch(out["url"]) == bytes_
    assert big.is_error and "more than 1 MiB inline" in big.content[0].text
    for r in (path, up, big):
        assert sb.key not in everything(r) and token not in everything(r)


# --- Elicitation over Streamable HTTP ----------------------------------------------------------------

@pytest.fixture(scope="module")
def confirming():
    sb = oauth_http.Sandbox()
    srv = oauth_http.McpHttp(sb, extra=("--confirm-spend-over", "0"))
    yield sb, srv
    srv.stop()
    sb.stop()


async def asking(url, token, answer, body):
    """A session over Streamable HTTP whose user answers every question with `answer`."""
    asked = []

    async def elicit(context, request):
        asked.append(request.message)
        return types.ElicitResult(action="accept", content={"confirm": answer})

    async with httpx2.AsyncClient(headers={"Authorization": f"Bearer {token}"}, verify=oauth_http.SSL, timeout=60) as http:
        async with streamable_http_client(url, http_client=http) as (read, write):
            async with ClientSession(read, write, elicitation_callback=elicit) as s:
                await s.initialize()
                return await body(s), asked


async def render(s):
    before = result_json(await s.call_tool("get_balance", {}))["balance"]
    price = result_json(await s.call_tool("generate_image", {"prompt": "a green mug", "getCost": True}))["creditsEstimate"]
    r = await s.call_tool("generate_image", {"prompt": "a green mug", "outputId": str(uuid.uuid4())})
    return before, price, r, result_json(await s.call_tool("get_balance", {}))["balance"]


@pytest.mark.parametrize("answer", [True, False])
def test_over_http_a_render_is_asked_about_first(confirming, answer):
    sb, srv = confirming
    token = oauth_http.tokens_for(sb, srv.resource)["access_token"]
    (before, price, r, after), asked = anyio.run(asking, srv.mcp, token, answer, render)
    assert len(asked) == 1 and "generate_image will spend" in asked[0] and str(price) in asked[0], asked
    if answer:
        assert not r.is_error, r.content
        assert after == before - price, "accepted: rendered and charged once"
    else:
        assert r.is_error and "did not confirm" in r.content[0].text and "Nothing was spent" in r.content[0].text, r.content
        assert after == before, "declined: nothing charged"


def test_a_session_is_its_owner_s_only(confirming):
    sb, srv = confirming
    mine = oauth_http.tokens_for(sb, srv.resource)["access_token"]
    other_key = sb.keys(1)[0]
    theirs = oauth_http.tokens_for(sb, srv.resource, key=other_key)["access_token"]
    head = {"Accept": "application/json, text/event-stream", "Content-Type": "application/json"}
    init = {"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
        "protocolVersion": "2025-06-18", "capabilities": {"elicitation": {}}, "clientInfo": {"name": "t", "version": "1"}}}
    with oauth_http.client() as http:
        r = http.post(srv.mcp, json=init, headers={**head, "Authorization": f"Bearer {mine}"})
        assert r.status_code == 200, r.text
        sid = r.headers["mcp-session-id"]
        listing = {"jsonrpc": "2.0", "id": 2, "method": "tools/list", "params": {}}
        with_sid = {**head, "mcp-session-id": sid, "mcp-protocol-version": "2025-06-18"}
        note = {"jsonrpc": "2.0", "method": "notifications/initialized"}
        assert http.post(srv.mcp, json=note, headers={**with_sid, "Authorization": f"Bearer {mine}"}).status_code in (200, 202)
        other = http.post(srv.mcp, json=listing, headers={**with_sid, "Authorization": f"Bearer {theirs}"})
        assert other.status_code == 404, (other.status_code, other.text)
        own = http.post(srv.mcp, json=listing, headers={**with_sid, "Authorization": f"Bearer {mine}"})
        assert own.status_code == 200 and "upload_media" in own.text, (own.status_code, own.text[:300])
        # Fail closed: an id this server never began for anyone (made up, or forgotten past its bound) is not
        # found, even with a good token, so no request runs in a session nobody owns.
        made_up = {**with_sid, "mcp-session-id": sid[:-4] + ("0000" if not sid.endswith("0000") else "1111")}
        stray = http.post(srv.mcp, json=listing, headers={**made_up, "Authorization": f"Bearer {mine}"})
        assert stray.status_code == 404, (stray.status_code, stray.text[:300])
