"""The sandbox process every Python MCP test runs against (`test_stdio.py`'s stdio tests and
`oauth_http.py`'s hosted ones), and the module fixture that starts one and stops it after the module."""

import json
import os
import subprocess
import tempfile

import pytest

BIN = os.environ.get("CDESK_BIN_DIR", os.path.expanduser("~/.cache/contentdesk-target/debug"))


class Sandbox:
    """A sandbox process on a fresh demo database; `key` holds every scope; `url` (also `api`) is its API's
    base, `origin` the same without `/api/v1`. Renders take `render_ms`; generate calls wait `smart_wait_ms`
    before answering with the outputId. `access_ttl`: its OAuth access tokens' lifetime in seconds;
    `oauth_rate_limit`: OAuth requests a minute per address (0: no limit; None: the sandbox's default)."""

    def __init__(self, render_ms=300, smart_wait_ms=100, access_ttl=None, oauth_rate_limit=None):
        self.dir = tempfile.mkdtemp(prefix="cdesk-mcp-")
        self.db = os.path.join(self.dir, "sandbox.db")
        args = [f"{BIN}/contentdesk-sandbox", "serve", "--db", self.db, "--addr", "127.0.0.1:0", "--seed", "demo",
                "--ready-json", "--rate-limit", "0", "--render-ms", str(render_ms), "--smart-wait-ms", str(smart_wait_ms)]
        if oauth_rate_limit is not None:
            args += ["--oauth-rate-limit", str(oauth_rate_limit)]
        if access_ttl is not None:
            args += ["--oauth-access-ttl-secs", str(access_ttl)]
        self.proc = subprocess.Popen(args, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
        line = self.proc.stdout.readline()
        ready = json.loads(line)
        assert ready["ready"], line
        self.url, self.key = ready["url"], ready["key"]
        self.api = self.url
        self.origin = self.url.removesuffix("/api/v1")

    def key_with(self, scopes):
        """A key of the demo account with only these scopes (comma-separated)."""
        out = subprocess.run([f"{BIN}/contentdesk-sandbox", "keys", "create", "--db", self.db, "--scopes", scopes],
                             capture_output=True, text=True, check=True)
        return out.stdout.strip()

    def keys(self, n):
        """n keys, each on a new account of its own."""
        out = subprocess.run([f"{BIN}/contentdesk-sandbox", "keys", "create", "--db", self.db, "--new-accounts", str(n)],
                             capture_output=True, text=True, check=True)
        return out.stdout.split()

    def stop(self):
        self.proc.terminate()
        self.proc.wait(timeout=10)


def sandbox_fixture(make=Sandbox):
    """A module fixture `sandbox`: one sandbox made by `make()` for the module's tests, stopped after them."""
    @pytest.fixture(scope="module")
    def sandbox():
        sb = make()
        yield sb
        sb.stop()
    return sandbox
