"""The OAuth and HTTP helpers of the hosted agent-tool server's tests (`test_http.py`, `test_findings.py`,
`test_upload.py`): the sandbox and `cdesk mcp --http` processes, the consent form filled as a person would,
PKCE, registration, tokens for a resource, the SDK's OAuth client provider, and the two module fixtures."""

import base64
import hashlib
import json
import os
import re
import secrets
import ssl
import subprocess
import tempfile
import time
import urllib.parse
from html.parser import HTMLParser

import anyio
import httpx2
import pytest
from mcp import ClientSession
from mcp.client.auth import OAuthClientProvider
from mcp.client.streamable_http import streamable_http_client
from mcp.shared.auth import AuthorizationCodeResult, OAuthClientMetadata

import sandbox_process
from sandbox_process import BIN, sandbox_fixture

REDIRECT = "http://127.0.0.1:53682/callback"  # never listened on: the test reads the redirect itself
# One TLS context for every HTTP client (all plain http here): httpx makes a new one per client otherwise,
# ~35 ms each, which would be most of the load test's time.
SSL = ssl.create_default_context()


def client(**kw):
    return httpx2.Client(verify=SSL, timeout=30, **kw)


def get(url, **kw):
    with client() as http:
        return http.get(url, **kw)


def post(url, **kw):
    with client() as http:
        return http.post(url, **kw)


class Sandbox(sandbox_process.Sandbox):
    """The hosted tests' sandbox: renders of 200 ms and, unless told, no limit on OAuth requests."""

    def __init__(self, access_ttl=None, oauth_rate_limit=0):
        super().__init__(render_ms=200, access_ttl=access_ttl, oauth_rate_limit=oauth_rate_limit)


class McpHttp:
    """A `cdesk mcp --http` process on a free port, its authorization server the sandbox."""

    def __init__(self, sb, public_url=None, extra=(), proof=None):
        home = tempfile.mkdtemp(prefix="cdesk-mcp-http-home-")
        env = {"PATH": os.environ.get("PATH", ""), "HOME": home, "CONTENTHERO_CONFIG_DIR": os.path.join(home, "ch"),
               "CONTENTDESK_DATA_DIR": os.path.join(home, "app"), "CONTENTHERO_BASE_URL": sb.api}
        if proof:
            env["CDESK_MCP_REGISTRATION_PROOF"] = proof
        args = [f"{BIN}/cdesk", "mcp", "--http", "127.0.0.1:0"]
        if public_url:
            args += ["--public-url", public_url]
        args += list(extra)
        self.proc = subprocess.Popen(args, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        line = self.proc.stdout.readline()
        assert line, self.proc.stderr.read()
        ready = json.loads(line)
        self.url = ready["listening"]
        self.resource = ready["resource"]
        self.mcp = self.url + "/mcp"

    def stop(self):
        self.proc.terminate()
        self.proc.wait(timeout=10)


sandbox = sandbox_fixture(Sandbox)


@pytest.fixture(scope="module")
def server(sandbox):
    s = McpHttp(sandbox)
    yield s
    s.stop()


# --- The consent page, filled in as a person would --------------------------------------------------

class Forms(HTMLParser):
    """Every form of a page: its action, method, fields and submit buttons (with their words)."""

    def __init__(self):
        super().__init__()
        self.forms, self._button = [], None

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if tag == "form":
            self.forms.append({"action": a.get("action") or "", "method": (a.get("method") or "get").upper(),
                               "fields": [], "buttons": []})
        elif not self.forms:
            return
        elif tag == "input":
            kind = (a.get("type") or "text").lower()
            if kind == "submit":
                self.forms[-1]["buttons"].append({"name": a.get("name"), "value": a.get("value") or "", "words": a.get("value") or ""})
            else:
                self.forms[-1]["fields"].append({"name": a.get("name"), "type": kind, "value": a.get("value") or "",
                                                 "checked": "checked" in a})
        elif tag == "button" and (a.get("type") or "submit").lower() == "submit":
            self._button = {"name": a.get("name"), "value": a.get("value") or "", "words": ""}
            self.forms[-1]["buttons"].append(self._button)
        elif tag == "textarea":
            self.forms[-1]["fields"].append({"name": a.get("name"), "type": "textarea", "value": "", "checked": False})

    def handle_endtag(self, tag):
        if tag == "button":
            self._button = None

    def handle_data(self, data):
        if self._button is not None:
            self._button["words"] += data.strip()


def submit(http, page, key, untick=(), choose=r"allow|sign in|continue|connect"):
    """Fills the page's form: the account key where a key goes, scope boxes as they are minus `untick`,
    hidden fields as they are; presses the button whose words match `choose`."""
    parser = Forms()
    parser.feed(page.text)
    assert parser.forms, f"no form on the page ({page.status_code}): {page.text[:400]}"
    form = max(parser.forms, key=lambda f: len(f["fields"]))
    data = []
    for f in form["fields"]:
        if not f["name"]:
            continue
        if f["type"] in ("password",) or (f["type"] in ("text", "textarea") and re.search("key|secret", f["name"], re.I)):
            data.append((f["name"], key))
        elif f["type"] == "checkbox":
            if f["checked"] and f["value"] not in untick:
                data.append((f["name"], f["value"] or "on"))
        elif f["type"] not in ("radio",):
            data.append((f["name"], f["value"]))
    button = next((b for b in form["buttons"] if re.search(choose, b["words"] + " " + b["value"], re.I)), None)
    assert button is not None or not form["buttons"], f"no button matching {choose}: {form['buttons']}"
    if button and button["name"]:
        data.append((button["name"], button["value"]))
    target = urllib.parse.urljoin(str(page.url), form["action"] or str(page.url))
    if form["method"] == "POST":
        return http.post(target, content=urllib.parse.urlencode(data),
                         headers={"Content-Type": "application/x-www-form-urlencoded"})
    return http.get(target + "?" + urllib.parse.urlencode(data))


def consent(authorize_url, key, untick=()):
    """Goes through the consent page at `authorize_url` with `key` and returns the redirect's query
    (code, state) without following it to the client's callback."""
    with client(follow_redirects=False) as http:
        page = http.get(authorize_url)
        for _ in range(5):
            if page.status_code in (301, 302, 303, 307):
                target = urllib.parse.urljoin(str(page.url), page.headers["location"])
                if target.startswith(REDIRECT.rsplit("/", 1)[0]) or target.startswith("http://127.0.0.1:53682"):
                    return dict(urllib.parse.parse_qsl(urllib.parse.urlsplit(target).query))
                page = http.get(target)
                continue
            assert page.status_code == 200, f"{page.status_code}: {page.text[:400]}"
            page = submit(http, page, key, untick)
        raise AssertionError(f"the consent flow did not end at the redirect: {page.status_code} {page.text[:400]}")


# --- Tokens by HTTP directly (the same flow the SDK runs) -------------------------------------------

def pkce():
    verifier = secrets.token_urlsafe(48)
    challenge = base64.urlsafe_b64encode(hashlib.sha256(verifier.encode()).digest()).rstrip(b"=").decode()
    return verifier, challenge


def register(sb, http=None):
    own = http is None
    http = http or client()
    r = http.post(f"{sb.origin}/oauth/register", json={
        "redirect_uris": [REDIRECT], "client_name": "mcp http tests", "token_endpoint_auth_method": "none",
        "grant_types": ["authorization_code", "refresh_token"], "response_types": ["code"]})
    if own:
        http.close()
    assert r.status_code == 201, r.text
    return r.json()["client_id"]


def authorize_url(sb, client_id, resource, challenge, state, scope=None):
    q = {"response_type": "code", "client_id": client_id, "redirect_uri": REDIRECT, "state": state,
         "code_challenge": challenge, "code_challenge_method": "S256", "resource": resource}
    if scope:
        q["scope"] = scope
    return f"{sb.origin}/oauth/authorize?" + urllib.parse.urlencode(q)


def tokens_for(sb, resource, key=None, untick=(), client_id=None):
    """Access and refresh tokens for `resource`, granted through the consent page with `key`."""
    client_id = client_id or register(sb)
    verifier, challenge = pkce()
    state = secrets.token_urlsafe(16)
    back = consent(authorize_url(sb, client_id, resource, challenge, state, " ".join(scopes_all())), key or sb.key, untick)
    assert back.get("state") == state and "code" in back, back
    r = post(f"{sb.origin}/oauth/token", data={
        "grant_type": "authorization_code", "code": back["code"], "code_verifier": verifier,
        "redirect_uri": REDIRECT, "client_id": client_id, "resource": resource})
    assert r.status_code == 200, r.text
    return r.json()


def scopes_all():
    return ["generate:*", "pipeline:write", "publish:write", "brandkit:read", "brandkit:write", "assets:write",
            "planner:write", "favorites:write", "editor:read", "editor:write"]


async def with_bearer(url, token, body, hook=None):
    """An MCP session over Streamable HTTP with a fixed bearer token (no OAuth provider: what a refusal
    looks like on the wire, not how the SDK recovers from it)."""
    hooks = {"request": [hook]} if hook else {}
    async with httpx2.AsyncClient(headers={"Authorization": f"Bearer {token}"}, verify=SSL, timeout=60, event_hooks=hooks) as http:
        async with streamable_http_client(url, http_client=http) as (read, write):
            async with ClientSession(read, write) as session:
                await session.initialize()
                return await body(session)


def text_of(result):
    return " ".join(getattr(c, "text", "") for c in result.content)


def json_of(result):
    """A tool result's whole reply: a success's structuredContent (its text is the short form a model
    reads); an error's details, its last text block."""
    texts = [c.text for c in result.content if c.type == "text"]
    if result.is_error:
        return json.loads(texts[-1])
    assert result.structured_content is not None, "a success carries its whole reply as structuredContent"
    return result.structured_content


# --- The SDK's OAuth client end to end ---------------------------------------------------------------

class Memory:
    """The SDK's TokenStorage, in memory; records every token set it is given."""

    def __init__(self):
        self.tokens, self.client, self.history = None, None, []

    async def get_tokens(self):
        return self.tokens

    async def set_tokens(self, tokens):
        self.tokens = tokens
        self.history.append(tokens)

    async def get_client_info(self):
        return self.client

    async def set_client_info(self, info):
        self.client = info


def oauth_provider(server_url, key, storage, untick=(), client_metadata_url=None):
    back = {}

    async def redirect_handler(url):
        # The person at the consent page: signs in with the account key and presses Allow.
        back.update(await anyio.to_thread.run_sync(consent, url, key, untick))

    async def callback_handler():
        return AuthorizationCodeResult(code=back.pop("code"), state=back.pop("state", None))

    return OAuthClientProvider(
        server_url=server_url,
        client_metadata=OAuthClientMetadata(client_name="cdesk mcp http test", redirect_uris=[REDIRECT],
                                            grant_types=["authorization_code", "refresh_token"],
                                            response_types=["code"], token_endpoint_auth_method="none"),
        storage=storage, redirect_handler=redirect_handler, callback_handler=callback_handler,
        client_metadata_url=client_metadata_url)
