"""`cdesk mcp --http` (the hosted agent-tool server, an OAuth protected resource) checked by the official
Python SDK against a real sandbox as its authorization server (issue 15):

- the SDK's own OAuth client (`OAuthClientProvider` with `streamable_http_client`) end to end: discovery
  from the 401, registration, PKCE, the consent page (this test's redirect handler fills in the form with
  an account key, as a person would, and follows the redirect to the callback), token, tool calls, refresh;
- each refusal in its own test: no token, a token for another resource, an expired token, a token without
  `generate:*` calling a generate tool, a grant revoked mid-session;
- two instances behind one address: the requests of one session alternate between them;
- 200 users at once, each with their own grant, 10 tool calls each: no error, nobody sees another's cards.

Everything is real: the sandbox process, `cdesk mcp --http` processes, HTTP on loopback, the SDK.
Run: `bash tests/mcp/run.sh`."""
import json
import re
import secrets
import time
import urllib.parse
import anyio
import httpx2
import pytest
from mcp import ClientSession
from mcp.client.streamable_http import streamable_http_client

from oauth_http import (  # noqa: F401 (sandbox and server are fixtures)
    REDIRECT,
    SSL,
    client,
    get,
    post,
    Sandbox,
    McpHttp,
    sandbox,
    server,
    consent,
    register,
    tokens_for,
    with_bearer,
    text_of,
    json_of,
    Memory,
    oauth_provider,
)


def test_the_sdk_oauth_client_connects_with_no_key_and_refreshes():
    sb = Sandbox(access_ttl=2)
    srv = McpHttp(sb)
    try:
        storage = Memory()
        auth = oauth_provider(srv.mcp, sb.key, storage)

        async def main():
            async with httpx2.AsyncClient(auth=auth, verify=SSL, timeout=60) as http:
                async with streamable_http_client(srv.mcp, http_client=http) as (read, write):
                    async with ClientSession(read, write) as s:
                        await s.initialize()
                        names = [t.name for t in (await s.list_tools()).tools]
                        assert "get_balance" in names and "generate_image" in names
                        r = await s.call_tool("get_balance", {})
                        assert not r.is_error, text_of(r)
                        assert json_of(r)["balance"] > 0
                        cards = await s.call_tool("list_cards", {})
                        assert not cards.is_error and json_of(cards)["cards"], text_of(cards)
                        kits = (await s.list_resources()).resources
                        assert kits, "the brand kit's sections are resources over HTTP too"
                        # Past the access token's lifetime: the SDK refreshes and goes on.
                        first = storage.tokens
                        await anyio.sleep(2.5)
                        r = await s.call_tool("get_balance", {})
                        assert not r.is_error, text_of(r)
                        assert storage.tokens.access_token != first.access_token, "a new access token"
                        assert storage.tokens.refresh_token != first.refresh_token, "the refresh token rotated"
        anyio.run(main)
        assert storage.client is not None and storage.client.client_id, "the SDK registered itself"
        assert storage.history[0].access_token.startswith("cho_at_")
        assert len(storage.history) >= 2, "one consent, then at least one refresh"
    finally:
        srv.stop()
        sb.stop()


# --- Refusals ----------------------------------------------------------------------------------------

def test_no_token_is_a_401_naming_the_metadata(server, sandbox):
    r = post(server.mcp, json={"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {}},
                    headers={"Accept": "application/json, text/event-stream"})
    assert r.status_code == 401
    challenge = r.headers["www-authenticate"]
    m = re.search(r'resource_metadata="([^"]+)"', challenge)
    assert challenge.startswith("Bearer ") and m, challenge
    assert "error=" not in challenge, "no token is not an invalid token"
    meta = get(m.group(1)).json()
    assert meta["resource"] == server.resource == server.mcp
    assert meta["authorization_servers"] == [sandbox.origin]
    assert "generate:*" in meta["scopes_supported"] and meta["bearer_methods_supported"] == ["header"]
    asm = get(f"{sandbox.origin}/.well-known/oauth-authorization-server").json()
    assert asm["issuer"] == sandbox.origin and "S256" in asm["code_challenge_methods_supported"]


def test_a_token_for_another_resource_is_refused(server, sandbox):
    api_token = tokens_for(sandbox, sandbox.api)["access_token"]
    # It is a good token (the API takes it) …
    assert get(f"{sandbox.api}/account/balance", headers={"Authorization": f"Bearer {api_token}"}).status_code == 200
    # … but not for this server.
    r = post(server.mcp, json={"jsonrpc": "2.0", "id": 1, "method": "tools/list"},
                    headers={"Authorization": f"Bearer {api_token}", "Accept": "application/json, text/event-stream"})
    assert r.status_code == 401, r.text
    assert 'error="invalid_token"' in r.headers["www-authenticate"] and "resource_metadata=" in r.headers["www-authenticate"]
    assert "another resource" in r.json()["error_description"]


def test_an_expired_token_is_refused():
    sb = Sandbox(access_ttl=1)
    srv = McpHttp(sb)
    try:
        token = tokens_for(sb, srv.resource)["access_token"]
        time.sleep(1.5)
        r = post(srv.mcp, json={"jsonrpc": "2.0", "id": 1, "method": "tools/list"},
                        headers={"Authorization": f"Bearer {token}", "Accept": "application/json, text/event-stream"})
        assert r.status_code == 401, r.text
        assert 'error="invalid_token"' in r.headers["www-authenticate"]
    finally:
        srv.stop()
        sb.stop()


def test_a_grant_without_generate_gets_a_tool_error_naming_the_scope(server, sandbox):
    granted = tokens_for(sandbox, server.resource, untick=("generate:*",))
    assert "generate:*" not in granted.get("scope", "").split(), granted.get("scope")

    async def body(s):
        before = json_of(await s.call_tool("get_balance", {}))["balance"]
        render = await s.call_tool("generate_image", {"prompt": "a lighthouse"})
        assert render.is_error, text_of(render)
        assert "generate:*" in text_of(render), text_of(render)
        assert json_of(render)["status"] == 403, text_of(render)
        after = await s.call_tool("get_balance", {})
        assert not after.is_error, "what was granted still works"
        assert json_of(after)["balance"] == before, "nothing charged"
    anyio.run(with_bearer, server.mcp, granted["access_token"], body)


def test_a_grant_revoked_mid_session_refuses_the_next_call(server, sandbox):
    granted = tokens_for(sandbox, server.resource)

    async def body(s):
        r = await s.call_tool("get_balance", {})
        assert not r.is_error, text_of(r)
        # The user revokes the app (revoking the refresh token ends the whole grant).
        rv = await anyio.to_thread.run_sync(lambda: post(f"{sandbox.origin}/oauth/revoke", data={"token": granted["refresh_token"]}))
        assert rv.status_code == 200
        # The SDK turns the 401 into an error of the call (its words are generic; the wire is checked below).
        with pytest.raises(Exception):
            await s.call_tool("get_balance", {})
    anyio.run(with_bearer, server.mcp, granted["access_token"], body)
    r = post(server.mcp, json={"jsonrpc": "2.0", "id": 1, "method": "tools/list"},
                    headers={"Authorization": f"Bearer {granted['access_token']}", "Accept": "application/json, text/event-stream"})
    assert r.status_code == 401 and 'error="invalid_token"' in r.headers["www-authenticate"]


# --- Two instances, one address ---------------------------------------------------------------------

def test_two_instances_serve_one_session_alternately(sandbox):
    # Both are the same resource, as behind one address, so they share the registration proof: the sandbox
    # reads it from whichever instance the address reaches (here the first), and each registers its own client.
    proof = "shared-registration-proof-" + "x" * 20
    first = McpHttp(sandbox, proof=proof)
    second = McpHttp(sandbox, public_url=first.url, proof=proof)
    try:
        assert second.resource == first.resource
        token = tokens_for(sandbox, first.resource)["access_token"]
        ports = [urllib.parse.urlsplit(first.url).port, urllib.parse.urlsplit(second.url).port]
        hit = []

        async def alternate(request):
            # A round-robin balancer in front of the two: each request goes to the next instance.
            port = ports[len(hit) % 2]
            hit.append(port)
            request.url = request.url.copy_with(port=port)
            request.headers["host"] = f"127.0.0.1:{port}"

        async def body(s):
            names = [t.name for t in (await s.list_tools()).tools]
            assert "list_cards" in names
            for _ in range(3):
                r = await s.call_tool("get_balance", {})
                assert not r.is_error, text_of(r)
                cards = await s.call_tool("list_cards", {})
                assert not cards.is_error, text_of(cards)
            kit = (await s.list_resources()).resources[0]
            assert (await s.read_resource(kit.uri)).contents
        anyio.run(with_bearer, first.mcp, token, body, alternate)
        assert set(hit) == set(ports) and len(hit) >= 10, hit
    finally:
        first.stop()
        second.stop()


# --- 200 users at once -------------------------------------------------------------------------------

USERS = 200
CALLS = 10


def test_200_users_each_see_only_their_own_cards(server, sandbox):
    keys = sandbox.keys(USERS)
    client_id = register(sandbox)
    grants = [None] * USERS

    async def grant(i, limit):
        async with limit:
            grants[i] = await anyio.to_thread.run_sync(lambda: tokens_for(sandbox, server.resource, keys[i], client_id=client_id))

    async def grant_all():
        limit = anyio.Semaphore(16)
        async with anyio.create_task_group() as tg:
            for i in range(USERS):
                tg.start_soon(grant, i, limit)
    anyio.run(grant_all)
    assert len({g["access_token"] for g in grants}) == USERS

    failures = []

    async def user(i, limit):
        title = f"user {i} card {secrets.token_hex(4)}"

        async def body(s):
            made = await s.call_tool("create_card", {"title": title, "platform": "general"})
            assert not made.is_error, text_of(made)
            for n in range(CALLS - 1):
                if n % 3 == 2:
                    r = await s.call_tool("get_balance", {})
                    assert not r.is_error, text_of(r)
                    continue
                r = await s.call_tool("list_cards", {})
                assert not r.is_error, text_of(r)
                titles = [c["title"] for c in json_of(r)["cards"]]
                assert titles == [title], f"user {i} sees {titles}"
        async with limit:
            try:
                await with_bearer(server.mcp, grants[i]["access_token"], body)
            except BaseException as e:  # noqa: BLE001 - collected and reported below
                failures.append(f"user {i}: {e!r}")

    async def everyone():
        limit = anyio.Semaphore(50)
        async with anyio.create_task_group() as tg:
            for i in range(USERS):
                tg.start_soon(user, i, limit)
    anyio.run(everyone)
    assert not failures, failures[:5]


def test_a_foreign_origin_is_refused_with_403_even_with_a_good_token(server, sandbox):
    """The MCP specification's Streamable HTTP transport: a present Origin that is not the server's own
    (nor one allowed with --allow-origin) is answered 403, before the token is looked at."""
    token = tokens_for(sandbox, server.resource)["access_token"]
    init = {"jsonrpc": "2.0", "id": 1, "method": "initialize",
            "params": {"protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {"name": "t", "version": "1"}}}
    headers = {"Authorization": f"Bearer {token}", "Accept": "application/json, text/event-stream"}
    for foreign in ["http://evil.example", "null", server.url.replace("127.0.0.1", "localhost")]:
        r = post(server.mcp, json=init, headers={**headers, "Origin": foreign})
        assert r.status_code == 403, (foreign, r.status_code, r.text)
        assert "--allow-origin" in r.json()["error"]["message"]
    assert post(server.mcp, json=init, headers=headers).status_code == 200, "no Origin (not a browser): served"
    assert post(server.mcp, json=init, headers={**headers, "Origin": server.url}).status_code == 200, "its own origin"

    allowing = McpHttp(sandbox, extra=("--allow-origin", "https://agent.example"))
    try:
        token = tokens_for(sandbox, allowing.resource)["access_token"]
        headers["Authorization"] = f"Bearer {token}"
        assert post(allowing.mcp, json=init, headers={**headers, "Origin": "https://agent.example"}).status_code == 200
        assert post(allowing.mcp, json=init, headers={**headers, "Origin": "https://agent.example:8443"}).status_code == 403

        async def body(session):
            return json_of(await session.call_tool("get_balance", {}))["balance"]
        async def with_origin(request):
            request.headers["Origin"] = "https://agent.example"
        assert anyio.run(with_bearer, allowing.mcp, token, body, with_origin) > 0, "the SDK's client from an allowed origin"
    finally:
        allowing.stop()


def test_read_only_over_http_offers_only_read_tools(sandbox):
    ro = McpHttp(sandbox, extra=("--read-only",))
    try:
        token = tokens_for(sandbox, ro.resource)["access_token"]

        async def body(session):
            tools = (await session.list_tools()).tools
            assert tools and all(t.annotations.read_only_hint is True for t in tools)
            names = {t.name for t in tools}
            assert "list_cards" in names and "create_card" not in names and "generate_image" not in names
            with pytest.raises(Exception, match="unknown tool"):
                await session.call_tool("create_card", {"title": "x", "platform": "instagram"})
        anyio.run(with_bearer, ro.mcp, token, body)
    finally:
        ro.stop()


# --- Client ID Metadata Documents (issue 27) ---------------------------------------------------------

def test_the_sdk_oauth_client_signs_in_by_a_client_id_metadata_document(monkeypatch):
    """The SDK's OAuth client names itself by the URL of its metadata document (CIMD) because the sandbox's
    metadata says `client_id_metadata_document_supported`; it does not register. The one stand-in: the SDK
    accepts only an https document URL, and a loopback https server would need a certificate the sandbox
    trusts, so the SDK's URL check is widened to loopback http (the sandbox allows loopback http only when
    bound to loopback, as here). Everything else is real: the document served over HTTP, the sandbox
    fetching and checking it, the consent, the tokens, the tool call through `cdesk mcp --http`."""
    import http.server
    import threading
    import mcp.client.auth.oauth2 as oauth2

    doc_server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), http.server.BaseHTTPRequestHandler)
    url = f"http://127.0.0.1:{doc_server.server_address[1]}/client.json"
    doc = json.dumps({"client_id": url, "client_name": "CIMD test agent", "redirect_uris": [REDIRECT],
                      "grant_types": ["authorization_code", "refresh_token"], "response_types": ["code"],
                      "token_endpoint_auth_method": "none"}).encode()
    fetched = []

    class Handler(http.server.BaseHTTPRequestHandler):
        def do_GET(self):
            fetched.append(self.path)
            self.send_response(200 if self.path == "/client.json" else 404)
            self.send_header("Content-Type", "application/json")
            self.end_headers()
            self.wfile.write(doc)

        def log_message(self, *args):
            pass

    doc_server.RequestHandlerClass = Handler
    threading.Thread(target=doc_server.serve_forever, daemon=True).start()
    monkeypatch.setattr(oauth2, "is_valid_client_metadata_url", lambda u: bool(u) and u.startswith(("https://", "http://127.0.0.1:")))
    sb = Sandbox()
    srv = McpHttp(sb)
    try:
        storage = Memory()
        auth = oauth_provider(srv.mcp, sb.key, storage, client_metadata_url=url)

        async def main():
            async with httpx2.AsyncClient(auth=auth, verify=SSL, timeout=60) as http:
                async with streamable_http_client(srv.mcp, http_client=http) as (read, write):
                    async with ClientSession(read, write) as s:
                        await s.initialize()
                        r = await s.call_tool("get_balance", {})
                        assert not r.is_error, text_of(r)
        anyio.run(main)
        assert storage.client.client_id == url, "the document's URL is the client id"
        assert fetched and all(p == "/client.json" for p in fetched), fetched
        grants = get(f"{sb.api}/oauth/grants", headers={"Authorization": f"Bearer {sb.key}"}).json()
        assert [g["clientName"] for g in grants] == ["CIMD test agent"], grants
    finally:
        srv.stop()
        sb.stop()
        doc_server.shutdown()
