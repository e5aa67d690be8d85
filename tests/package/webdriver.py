"""A WebDriver client over plain HTTP for the installed app (tauri-driver + Debian's WebKitWebDriver), as the
desktop journeys use through fantoccini: for tests/package/update_journey.py and scripts/bench_package.py."""
import base64
import json
import os
import socket
import subprocess
import time
import urllib.error
import urllib.request

ELEMENT = "element-6066-11e4-a52e-4f735466cecf"


def free_port():
    s = socket.socket()
    s.bind(("127.0.0.1", 0))
    port = s.getsockname()[1]
    s.close()
    return port


class WebDriverError(Exception):
    pass


def wd(method, url, body=None, timeout=60, again=0):
    """One WebDriver request. `again`: how many more times a request that changes nothing (a read, a
    screenshot, a find) is sent when the driver drops the connection unanswered, as WebKitWebDriver behind
    tauri-driver now and then does (CI: "Remote end closed connection without response" on a screenshot
    and on the calls beside it). A click is never sent twice."""
    data = None if body is None else json.dumps(body).encode()
    for attempt in range(again + 1):
        req = urllib.request.Request(url, data=data, method=method, headers={"Content-Type": "application/json"})
        try:
            with urllib.request.urlopen(req, timeout=timeout) as r:
                return json.loads(r.read() or b"{}").get("value")
        except urllib.error.HTTPError as e:
            raise WebDriverError(e.read().decode(errors="replace")[:400])
        except (urllib.error.URLError, OSError) as e:
            dropped = isinstance(e, ConnectionError) or isinstance(getattr(e, "reason", None), ConnectionError)
            if not dropped or attempt == again:
                raise WebDriverError(str(e))
            time.sleep(0.5)


class Driver:
    """tauri-driver on its own port, its environment the app's (HOME, the update URL)."""

    def __init__(self, env, app, log_dir):
        self.app = app
        self.port = free_port()
        self.proc = subprocess.Popen(
            ["tauri-driver", "--port", str(self.port), "--native-port", str(free_port()),
             "--native-driver", "/usr/bin/WebKitWebDriver"],
            env=env, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=open(os.path.join(log_dir, "tauri-driver.err"), "ab"),
            start_new_session=True)
        deadline = time.time() + 20
        while True:
            try:
                socket.create_connection(("127.0.0.1", self.port), timeout=1).close()
                break
            except OSError:
                if time.time() > deadline:
                    raise WebDriverError("tauri-driver did not listen")
                time.sleep(0.1)

    def session(self):
        caps = {"capabilities": {"alwaysMatch": {"browserName": "wry", "tauri:options": {"application": self.app}}}}
        # tauri-driver listens before the WebKitWebDriver behind it does: a new session may be dropped
        # unanswered at first. Asked again a few times (the session is then made, or the last error stands).
        for attempt in range(5):
            try:
                value = wd("POST", f"http://127.0.0.1:{self.port}/session", caps, timeout=120)
                break
            except WebDriverError as e:
                if attempt == 4 or "closed connection" not in str(e) and "refused" not in str(e):
                    raise
                time.sleep(1)
        return Session(f"http://127.0.0.1:{self.port}/session/{value['sessionId']}")

    def stop(self):
        # The driver and the WebKitWebDriver it started are in the process group it leads (we made it).
        try:
            os.killpg(self.proc.pid, 15)
        except ProcessLookupError:
            pass
        self.proc.wait(timeout=20)


class Session:
    def __init__(self, url):
        self.url = url

    def find_all(self, css):
        return [e[ELEMENT] for e in wd("POST", f"{self.url}/elements", {"using": "css selector", "value": css}, again=2) or []]

    def text(self, el):
        return wd("GET", f"{self.url}/element/{el}/text", again=2) or ""

    def execute(self, script, *script_args):
        return wd("POST", f"{self.url}/execute/sync", {"script": script, "args": list(script_args)}, again=2)

    def prop(self, el, name):
        return wd("GET", f"{self.url}/element/{el}/property/{name}", again=2)

    def attr(self, el, name):
        return wd("GET", f"{self.url}/element/{el}/attribute/{name}", again=2)

    def click(self, el):
        wd("POST", f"{self.url}/element/{el}/click", {})

    def wait(self, css, needle="", secs=60, attr=None, prop=None):
        """The first element matching css (whose text, or attribute attr, or property prop, contains needle)."""
        deadline = time.time() + secs
        last = None
        while time.time() < deadline:
            try:
                for el in self.find_all(css):
                    value = self.attr(el, attr) if attr else self.prop(el, prop) if prop else self.text(el)
                    last = value
                    if needle in (value or ""):
                        return el
            except WebDriverError as e:
                last = str(e)
            time.sleep(0.2)
        raise WebDriverError(f"no {css} with {needle!r} in {secs} s (last seen: {last!r})")

    def screenshot(self, path):
        time.sleep(0.3)  # WebKit may hand back the previous frame
        png = wd("GET", f"{self.url}/screenshot", again=2)
        open(path, "wb").write(base64.b64decode(png))

    def close(self):
        try:
            wd("DELETE", self.url, timeout=20)
        except WebDriverError:
            pass
