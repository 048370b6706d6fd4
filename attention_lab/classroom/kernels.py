"""Drive a class's servers as a program would: start a student's server through the hub's REST API, run code in a
kernel of it through the server's kernel API (REST to make the kernel, a websocket for its messages).

For the slow tests and benchmarks/bench_classroom.py, with the hub's `classroom-admin` token (hub.State.admin_token).

    hub = Hub(settings, token)
    await hub.start_server("al-student01")
    async with hub.kernel("al-student01", cwd="attention-lab") as kernel:
        outputs = await kernel.run("1 + 1")
"""

import asyncio
import json
import os
import time
import uuid

from tornado.httpclient import AsyncHTTPClient, HTTPClientError, HTTPRequest
from tornado.websocket import websocket_connect


class KernelError(Exception):
    """A cell raised, or the kernel did not answer."""


class Hub:
    def __init__(self, settings, token):
        self.base = f"http://127.0.0.1:{settings['port']}"
        self.token = token
        self.http = AsyncHTTPClient(force_instance=True, max_clients=200)

    def _headers(self):
        return {"Authorization": f"token {self.token}", "Content-Type": "application/json"}

    async def api(self, method, path, body=None, timeout=600):  # -> parsed JSON or None
        request = HTTPRequest(self.base + path, method=method, headers=self._headers(),
                              body=None if body is None and method == "GET" else json.dumps(body or {}),
                              request_timeout=timeout, allow_nonstandard_methods=True)
        answer = await self.http.fetch(request, raise_error=True)
        return json.loads(answer.body) if answer.body else None

    async def start_server(self, name, timeout=600):  # -> seconds it took
        started = time.monotonic()
        try:
            await self.api("POST", f"/hub/api/users/{name}/server")
        except HTTPClientError as e:
            if e.code != 400:  # 400: it runs already
                raise
        while time.monotonic() - started < timeout:
            user = await self.api("GET", f"/hub/api/users/{name}")
            server = (user.get("servers") or {}).get("")
            if server and server.get("ready"):
                return time.monotonic() - started
            await asyncio.sleep(0.5)
        raise KernelError(f"{name}: the server did not start in {timeout} s")

    async def stop_server(self, name):
        await self.api("DELETE", f"/hub/api/users/{name}/server")

    def kernel(self, name, cwd=""):
        return Kernel(self, name, cwd)


class Kernel:
    """One kernel in a student's server, as an async context manager (deleted at the end)."""

    def __init__(self, hub, name, cwd):
        self.hub, self.name, self.cwd = hub, name, cwd
        self.prefix = f"/user/{name}/api/kernels"

    async def __aenter__(self):
        model = await self.hub.api("POST", self.prefix, {"name": "python3", "path": self.cwd})
        self.id = model["id"]
        url = self.hub.base.replace("http", "ws", 1) + f"{self.prefix}/{self.id}/channels"
        self.ws = await websocket_connect(HTTPRequest(url, headers=self.hub._headers(), request_timeout=120),
                                          max_message_size=1 << 26)
        return self

    async def __aexit__(self, *exc):
        self.ws.close()
        try:
            await self.hub.api("DELETE", f"{self.prefix}/{self.id}")
        except Exception:  # noqa: BLE001 - a kernel already gone (killed by the test) is fine
            pass

    async def run(self, code, timeout=600):  # -> the outputs' texts; KernelError if the cell raised
        msg_id = uuid.uuid4().hex
        await self.ws.write_message(json.dumps({
            "header": {"msg_id": msg_id, "msg_type": "execute_request", "username": self.name,
                       "session": uuid.uuid4().hex, "version": "5.3", "date": ""},
            "parent_header": {}, "metadata": {}, "channel": "shell", "buffers": [],
            "content": {"code": code, "silent": False, "store_history": True, "user_expressions": {},
                        "allow_stdin": False, "stop_on_error": True}}))
        texts, error, replied, idle = [], None, False, False
        deadline = time.monotonic() + timeout
        while not (replied and idle):
            left = deadline - time.monotonic()
            if left <= 0:
                raise KernelError(f"{self.name}: no answer in {timeout} s to {code[:60]!r}")
            raw = await asyncio.wait_for(self.ws.read_message(), left)
            if raw is None:
                raise KernelError(f"{self.name}: the kernel's websocket closed")
            if isinstance(raw, bytes):
                continue  # a binary message (buffers): not ours to read
            msg = json.loads(raw)
            if msg.get("parent_header", {}).get("msg_id") != msg_id:
                continue
            kind, content = msg["header"]["msg_type"], msg["content"]
            if kind == "stream":
                texts.append(content["text"])
            elif kind in ("execute_result", "display_data"):
                texts.append(content["data"].get("text/plain", ""))
            elif kind == "error":
                error = f"{content['ename']}: {content['evalue']}"
            elif kind == "status" and content["execution_state"] == "idle":
                idle = True
            elif kind == "execute_reply":
                replied = True
        if error:
            raise KernelError(f"{self.name}: {error}")
        return texts

    async def restart(self):
        await self.hub.api("POST", f"{self.prefix}/{self.id}/restart")


def _account(name):
    import pwd

    try:
        return pwd.getpwnam(name)
    except KeyError:
        return None


def notebook_cells(path):  # -> [code of each code cell]
    with open(path, encoding="utf-8") as f:
        notebook = json.load(f)
    return ["".join(c["source"]) for c in notebook["cells"] if c["cell_type"] == "code"]


class Running:
    """`python -m attention_lab.classroom up …` in a process of its own, as the tests and the benchmark start it;
    `stop()` runs `down` and waits for `up` to exit (its exit code kept in `.code`)."""

    def __init__(self, folder, students, port, *extra, env=None, timeout=180):
        import subprocess
        import sys

        from . import hub

        self.folder, self.state = str(folder), hub.State(folder)
        # The class's system accounts that exist already (another class's): `stop(purge=True)` leaves them be.
        self.existed = [name for name in map(hub.student_name, range(1, students + 1)) if _account(name)]
        self.log = open(os.path.join(self.folder, "up.out"), "w+")
        self.proc = subprocess.Popen([sys.executable, "-m", "attention_lab.classroom", "up", "--students",
                                      str(students), "--port", str(port), "--dir", self.folder, *extra],
                                     stdout=self.log, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL, env=env,
                                     start_new_session=True)
        deadline = time.monotonic() + timeout
        while "the hub is up" not in self.output():
            if self.proc.poll() is not None:
                raise KernelError(f"`up` exited {self.proc.returncode}: {self.output().strip()}")
            if time.monotonic() > deadline:
                self.proc.kill()
                raise KernelError(f"`up` not ready in {timeout} s: {self.output().strip()}")
            time.sleep(0.2)
        self.settings = self.state.settings_or_none()
        self.token = self.state.admin_token()
        self.code = None

    def output(self):
        with open(self.log.name) as f:
            return f.read()

    def stop(self, timeout=180, purge=False):  # -> `up`'s exit code
        """`down`; with purge, also `--purge` (the system accounts this class made, and their homes), unless some of
        its accounts were there before it."""
        import subprocess
        import sys

        purge = ["--purge"] if purge and not self.existed else []
        subprocess.run([sys.executable, "-m", "attention_lab.classroom", "down", "--dir", self.folder, *purge],
                       capture_output=True, timeout=timeout)
        return self.wait(timeout)

    def wait(self, timeout=180):  # -> `up`'s exit code, once it has exited (after `down`, or a signal)
        self.code = self.proc.wait(timeout)
        self.log.close()
        return self.code
