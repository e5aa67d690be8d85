"""Issue 27's held-out security findings, refused, with the official Python SDK's client side where it has
one (its registration request and response handling) and plain HTTP where the SDK has no part (token
exchange is the resource server's call, not a client's). The third finding, a foreign `Origin` on /mcp, is
`test_http.py::test_a_foreign_origin_is_refused_with_403_even_with_a_good_token`; the TypeScript SDK checks
all three in ts_oauth.test.mjs. Everything real: the sandbox, `cdesk mcp --http`, HTTP on loopback.
Run: `bash tests/mcp/run.sh`."""
import base64
import hashlib
import http.server
import json
import secrets
import threading

import anyio
import httpx2
import pytest
from mcp.client.auth.exceptions import OAuthRegistrationError
from mcp.client.auth.utils import create_client_registration_request, handle_registration_response
from mcp.shared.auth import OAuthClientMetadata, OAuthMetadata
from oauth_http import REDIRECT, SSL, McpHttp, Sandbox, get, post, tokens_for

TE = "urn:ietf:params:oauth:grant-type:token-exchange"
AT = "urn:ietf:params:oauth:token-type:access_token"


@pytest.fixture(scope="module")
def sandbox():
    sb = Sandbox()
    yield sb
    sb.stop()


def own_resource_server(sb):
    """A resource server of the test's own (its metadata carries the proof's hash), registered as a
    token-exchange client. Answers (resource, client_id, secret, stop)."""
    proof = secrets.token_urlsafe(24)
    digest = base64.urlsafe_b64encode(hashlib.sha256(proof.encode()).digest()).rstrip(b"=").decode()
    meta = {}

    class Handler(http.server.BaseHTTPRequestHandler):
        def do_GET(self):
            ok = self.path == "/.well-known/oauth-protected-resource/mcp"
            self.send_response(200 if ok else 404)
            self.send_header("Content-Type", "application/json")
            self.end_headers()
            self.wfile.write(json.dumps(meta).encode() if ok else b"{}")

        def log_message(self, *args):
            pass

    srv = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    threading.Thread(target=srv.serve_forever, daemon=True).start()
    resource = f"http://127.0.0.1:{srv.server_address[1]}/mcp"
    meta.update(resource=resource, authorization_servers=[sb.origin], contentdesk_registration_proof=digest)
    r = post(f"{sb.origin}/oauth/register", json={"client_name": "py rs", "grant_types": [TE], "resource": resource,
                                                   "token_endpoint_auth_method": "client_secret_basic", "resource_proof": proof})
    assert r.status_code == 201, r.text
    return resource, r.json()["client_id"], r.json()["client_secret"], srv.shutdown


def exchange(sb, subject, target, who=None):
    auth = (who[0], who[1]) if who else None
    r = post(f"{sb.origin}/oauth/token", auth=auth,
             data={"grant_type": TE, "subject_token": subject, "subject_token_type": AT, "resource": target})
    return r.status_code, r.json()


def test_finding_1_token_exchange_mints_only_for_the_api_for_an_authenticated_client(sandbox):
    server = McpHttp(sandbox)
    resource, cid, secret, stop = own_resource_server(sandbox)
    try:
        mcp_token = tokens_for(sandbox, server.resource)["access_token"]
        for target in ["https://rs.evil.example/", sandbox.api]:
            status, body = exchange(sandbox, mcp_token, target)
            assert (status, body.get("error")) == (401, "invalid_client"), (target, body)
            assert "access_token" not in body
        own = tokens_for(sandbox, resource)["access_token"]
        for target in ["https://rs.evil.example/", server.resource, f"{sandbox.origin}/other"]:
            status, body = exchange(sandbox, own, target, (cid, secret))
            assert (status, body.get("error")) == (400, "invalid_target"), (target, body)
        status, body = exchange(sandbox, mcp_token, sandbox.api, (cid, secret))
        assert (status, body.get("error")) == (400, "invalid_grant"), "another resource server's token: " + str(body)
        status, body = exchange(sandbox, own, sandbox.api, (cid, secret))
        assert status == 200, body
        assert get(f"{sandbox.api}/account/balance", headers={"Authorization": f"Bearer {body['access_token']}"}).status_code == 200
    finally:
        stop()
        server.stop()


def test_finding_1_token_exchange_counts_in_the_per_address_limit():
    sb = Sandbox(oauth_rate_limit=8)
    resource, cid, secret, stop = own_resource_server(sb)
    try:
        token = tokens_for(sb, resource)["access_token"]
        statuses = [exchange(sb, token, sb.api, (cid, secret))[0] for _ in range(10)]
        assert 200 in statuses and statuses[-1] == 429, statuses
    finally:
        stop()
        sb.stop()


def test_finding_3_registration_through_the_sdk_is_bounded(sandbox):
    meta = OAuthMetadata.model_validate(get(f"{sandbox.origin}/.well-known/oauth-authorization-server").json())

    async def register(uris):
        metadata = OAuthClientMetadata(client_name="greedy", redirect_uris=uris, grant_types=["authorization_code"],
                                       response_types=["code"], token_endpoint_auth_method="none")
        async with httpx2.AsyncClient(verify=SSL, timeout=30) as http:
            return await handle_registration_response(await http.send(create_client_registration_request(meta, metadata, sandbox.origin)))

    many = [f"http://127.0.0.1:3000/cb{i}" for i in range(1000)]
    for uris, says in [(many, "at most 10"), ([REDIRECT, "https://app.example/" + "a" * 3000], "at most 2048"),
                       (["https://app.example/" + "a" * (1 << 20)], "larger than 32768 bytes")]:
        with pytest.raises(OAuthRegistrationError, match=f"Registration failed: 400.*{says}"):
            anyio.run(register, uris)
    fine = anyio.run(register, many[:10])
    assert fine.client_id and [str(u) for u in fine.redirect_uris] == many[:10]
